//! `POST /desk`: a tournament created from the create form (every format the pairing core has, with
//! the format's own settings), the form read into a request and refused in the page's language.

use serde::Deserialize;
use std::sync::Arc;

use axum::Form;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use weiqi_edge::auth::Role;
use weiqi_proto::v1 as pb;

use crate::Web;
use crate::i18n::{Lang, t, ta};
use crate::pages::{acting, message, redirect, refused_text};

use super::list::render_list;
use super::*;

/// The create form: every field as sent (absent fields are `None`, so the form drawn again after a
/// refusal shows what was entered and the defaults elsewhere). Numbers are read as text and checked
/// with the field's name in the page's language.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct CreateForm {
    csrf: Option<String>,
    rid: Option<String>,
    tournament_id: Option<String>,
    name: Option<String>,
    format: Option<String>,
    rounds: Option<String>,
    top_bar: Option<String>,
    bottom_bar: Option<String>,
    cycles: Option<String>,
    losses: Option<String>,
    wins_needed: Option<String>,
    games: Option<String>,
    groups: Option<String>,
    advance: Option<String>,
    boards: Option<String>,
    size: Option<String>,
    rules: Option<String>,
    time: Option<String>,
    main: Option<String>,
    periods: Option<String>,
    period: Option<String>,
    no_show: Option<String>,
    bye: Option<String>,
    ranking: Option<String>,
    rated: Option<String>,
    handicap: Option<String>,
    over_the_board: Option<String>,
}

impl CreateForm {
    /// A field by its name in the form, as sent.
    pub fn get(&self, name: &str) -> Option<&str> {
        match name {
            "tournament_id" => self.tournament_id.as_deref(),
            "name" => self.name.as_deref(),
            "format" => self.format.as_deref(),
            "rounds" => self.rounds.as_deref(),
            "top_bar" => self.top_bar.as_deref(),
            "bottom_bar" => self.bottom_bar.as_deref(),
            "cycles" => self.cycles.as_deref(),
            "losses" => self.losses.as_deref(),
            "wins_needed" => self.wins_needed.as_deref(),
            "games" => self.games.as_deref(),
            "groups" => self.groups.as_deref(),
            "advance" => self.advance.as_deref(),
            "boards" => self.boards.as_deref(),
            "size" => self.size.as_deref(),
            "rules" => self.rules.as_deref(),
            "time" => self.time.as_deref(),
            "main" => self.main.as_deref(),
            "periods" => self.periods.as_deref(),
            "period" => self.period.as_deref(),
            "no_show" => self.no_show.as_deref(),
            "bye" => self.bye.as_deref(),
            "ranking" => self.ranking.as_deref(),
            "rated" => self.rated.as_deref(),
            "handicap" => self.handicap.as_deref(),
            "over_the_board" => self.over_the_board.as_deref(),
            _ => None,
        }
    }

    /// A field's text, trimmed (empty when absent).
    fn text(&self, name: &str) -> &str {
        self.get(name).map_or("", str::trim)
    }

    /// A field's number (0 when empty), checked.
    fn number(&self, name: &str, lang: Lang) -> Result<u32, String> {
        number(self.text(name), name, lang)
    }

    /// Whether a checkbox is ticked.
    fn checked(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

/// The format message the create form describes.
pub(super) fn format_of(form: &CreateForm, lang: Lang) -> Result<pb::TournamentFormat, String> {
    use pb::tournament_format::{self as f, Format};
    let n = |name: &str| form.number(name, lang);
    let at_least_one = |name: &str| -> Result<u32, String> {
        let v = n(name)?;
        if v == 0 {
            Err(ta(lang, "desk-bad-number", &[("field", t(lang, &format!("desk-field-{name}")))]))
        } else {
            Ok(v)
        }
    };
    let format = match form.text("format") {
        "swiss" => Format::Swiss(f::Swiss { rounds: at_least_one("rounds")? }),
        "mcmahon" => Format::Mcmahon(f::McMahon {
            rounds: at_least_one("rounds")?,
            top_bar: form.text("top_bar").to_string(),
            bottom_bar: form.text("bottom_bar").to_string(),
        }),
        "round-robin" => Format::RoundRobin(f::RoundRobin { cycles: at_least_one("cycles")? }),
        "knockout" => Format::Knockout(f::Knockout { losses: at_least_one("losses")? }),
        "swiss-elimination" => Format::SwissElimination(f::SwissElimination {
            rounds: at_least_one("rounds")?,
            losses: at_least_one("losses")?,
        }),
        "match" => Format::Match(f::Match { wins_needed: at_least_one("wins_needed")? }),
        "fixed-match" => Format::FixedMatch(f::FixedMatch { games: at_least_one("games")? }),
        "groups-then-knockout" => Format::GroupsThenKnockout(f::GroupsThenKnockout {
            groups: at_least_one("groups")?,
            advance: at_least_one("advance")?,
        }),
        "team" => Format::Team(f::Team {
            boards: at_least_one("boards")?,
            line_up: f::team::LineUp::FixedOrder as i32,
            schedule: Some(f::team::Schedule::SwissRounds(at_least_one("rounds")?)),
        }),
        "team-rotation" => Format::TeamRotation(f::TeamRotation {}),
        "win-and-continue" => Format::WinAndContinue(f::WinAndContinue {}),
        _ => return Err(t(lang, "desk-bad-format")),
    };
    Ok(pb::TournamentFormat { format: Some(format) })
}

pub(super) fn time_of(form: &CreateForm, lang: Lang) -> Result<Option<pb::TimeControl>, String> {
    use pb::time_control::{self as tc, System};
    let min = 60_000i64;
    let main = i64::from(form.number("main", lang)?);
    let periods = form.number("periods", lang)?;
    let period = i64::from(form.number("period", lang)?);
    let system = match form.text("time") {
        "none" | "" => return Ok(None),
        "absolute" => System::Absolute(tc::Absolute { main_ms: main * min }),
        "chinese" => System::Chinese(tc::ChineseByoYomi { basic_ms: main * min, reserved_minutes: periods }),
        "japanese" => System::Japanese(tc::JapaneseByoYomi { main_ms: main * min, periods, period_ms: period * 1000 }),
        "fischer" => System::Fischer(tc::Fischer { initial_ms: main * min, increment_ms: period * 1000, cap_ms: 0 }),
        _ => return Err(t(lang, "desk-bad-time")),
    };
    Ok(Some(pb::TimeControl { system: Some(system), pass_on_overrun: false }))
}

/// The create request the form describes, or what is wrong with it (in the page's language).
pub fn create_request(form: &CreateForm, lang: Lang) -> Result<pb::CreateTournamentRequest, String> {
    let id = form.text("tournament_id");
    let id_ok = !id.is_empty()
        && id.len() <= 63
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-');
    if !id_ok {
        return Err(t(lang, "desk-bad-id"));
    }
    let name = form.text("name");
    if name.is_empty() || name.chars().count() > 200 {
        return Err(t(lang, "desk-bad-name"));
    }
    let size = match form.number("size", lang)? {
        0 => 19,
        n if (5..=25).contains(&n) => n,
        _ => return Err(ta(lang, "desk-bad-number", &[("field", t(lang, "desk-field-size"))])),
    };
    let no_show = form.number("no_show", lang)?;
    let bye = match form.text("bye") {
        "half" => pb::tournament_config::ByeKind::HalfPoint,
        "zero" => pb::tournament_config::ByeKind::ZeroPoint,
        _ => pb::tournament_config::ByeKind::FullPoint,
    };
    let ranking: Vec<String> = form
        .text("ranking")
        .split([',', '，', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let over_the_board = form.checked("over_the_board");
    Ok(pb::CreateTournamentRequest {
        tournament_id: id.to_string(),
        request_id: crate::pages::form_request_id(form.rid.as_deref()),
        config: Some(pb::TournamentConfig {
            name: name.to_string(),
            format: Some(format_of(form, lang)?),
            ranking,
            pairing_bye: bye as i32,
            handicap_by_rank: form.checked("handicap"),
            no_show_limit_ms: i64::from(no_show) * 60_000,
            ..Default::default()
        }),
        settings: Some(pb::TournamentGameSettings {
            size,
            rules: form.text("rules").to_string(),
            time_control: time_of(form, lang)?,
            rated: form.checked("rated"),
            // Played over the board: the games are created but never started on line; referees
            // enter the results.
            manual_start: over_the_board,
            no_automatic_no_shows: over_the_board,
            ..Default::default()
        }),
    })
}

/// `POST /desk`: create a tournament.
pub async fn create(State(web): State<Arc<Web>>, headers: HeaderMap, Form(form): Form<CreateForm>) -> Response {
    let (viewer, member) = match acting(&web, &headers, form.csrf.as_deref(), staff, "desk-only").await {
        Ok(v) => v,
        Err(refused) => return refused,
    };
    let lang = viewer.lang;
    // Referees record results at the desk; creating an event is an organiser's (the service would
    // refuse it too, with a message about something else).
    if !(member.has(Role::Organiser) || member.has(Role::Admin)) {
        return message(&web, &viewer, StatusCode::FORBIDDEN, &t(lang, "desk-create-organisers"));
    }
    let Some(api) = service(&web) else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "tournament-not-found"));
    };
    // The form reads into the configuration's wire form (debt, issue 29 item 1: the create form does
    // not yet build the pairing core's configuration itself); the tournament's conversions make it
    // the domain's, with the service's defaults and checks.
    let request = match create_request(&form, lang) {
        Ok(r) => r,
        Err(why) => return render_list(&web, &viewer, Some((false, why)), &form).await,
    };
    let refused = |b: weiqi_tournament::convert::BadRequest| crate::i18n::refusal(lang, b.code, &b.message);
    let config = weiqi_tournament::convert::config_from_pb(&request.config.clone().unwrap_or_default(), 0);
    let settings = weiqi_tournament::codec::log::settings_from_pb(&request.settings.clone().unwrap_or_default());
    let (config, settings) = match (config, settings) {
        (Ok(c), Ok(s)) => (c, s),
        (Err(b), _) | (_, Err(b)) => return render_list(&web, &viewer, Some((false, refused(b))), &form).await,
    };
    let id = request.tournament_id.clone();
    match api.create(&member.caller(), &id, &request.request_id, config, settings).await {
        Ok(accepted) => {
            web.index.add_tournament(&id);
            settle(&web, &id, accepted.sequence).await;
            redirect(&format!("/desk/tournaments/{id}?done=created"), vec![])
        }
        Err(e) => render_list(&web, &viewer, Some((false, refused_text(lang, &e))), &form).await,
    }
}
