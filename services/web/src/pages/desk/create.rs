//! `POST /desk`: a tournament created from the create form (every format the pairing core has, with
//! the format's own settings), the form read into a request and refused in the page's language.

use serde::Deserialize;
use std::sync::Arc;

use axum::Form;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use weiqi_clock::{ControlError, DurationMs, TimeControl, TimeSystem};
use weiqi_edge::auth::Role;
use weiqi_game::domain::SpectatorDelay;
use weiqi_pairing::config::{ByeKind, Format, LineUpRule, McMahonBars, TeamSchedule, TournamentConfig};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::standings::TieBreak;
use weiqi_pairing::weights::HandicapPolicy;
use weiqi_rules::Ruleset;
use weiqi_tournament::settings::GameSettings;

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
    separate_clubs: Option<String>,
    separate_regions: Option<String>,
    separate_families: Option<String>,
    spectator_delay: Option<String>,
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
            "separate_clubs" => self.separate_clubs.as_deref(),
            "separate_regions" => self.separate_regions.as_deref(),
            "separate_families" => self.separate_families.as_deref(),
            "spectator_delay" => self.spectator_delay.as_deref(),
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

/// The format the create form describes.
pub(super) fn format_of(form: &CreateForm, lang: Lang) -> Result<Format, String> {
    let n = |name: &str| form.number(name, lang);
    let at_least_one = |name: &str| -> Result<u32, String> {
        let v = n(name)?;
        if v == 0 {
            Err(ta(lang, "desk-bad-number", &[("field", t(lang, &format!("desk-field-{name}")))]))
        } else {
            Ok(v)
        }
    };
    // A McMahon bar as Chinese organisers write it (`3段`, `业余三段`, `20级`) or in Latin (`3d`).
    let bar = |name: &str| -> Result<Rank, String> {
        let text = form.text(name);
        text.parse::<Rank>().map_err(|_| {
            ta(lang, "desk-bad-rank", &[("field", t(lang, &format!("desk-field-{name}"))), ("rank", text.to_string())])
        })
    };
    Ok(match form.text("format") {
        "swiss" => Format::Swiss { rounds: at_least_one("rounds")? },
        "mcmahon" => Format::McMahon {
            rounds: at_least_one("rounds")?,
            bars: McMahonBars { top: bar("top_bar")?, bottom: bar("bottom_bar")? },
        },
        "round-robin" => Format::RoundRobin { cycles: at_least_one("cycles")? },
        "knockout" => Format::Knockout { losses: at_least_one("losses")? },
        "swiss-elimination" => {
            Format::SwissElimination { rounds: at_least_one("rounds")?, losses: at_least_one("losses")? }
        }
        "match" => Format::Match { wins_needed: at_least_one("wins_needed")? },
        "fixed-match" => Format::FixedMatch { games: at_least_one("games")? },
        "groups-then-knockout" => {
            Format::GroupsThenKnockout { groups: at_least_one("groups")?, advance: at_least_one("advance")? }
        }
        "team" => Format::Team {
            boards: at_least_one("boards")?,
            line_up: LineUpRule::FixedOrder,
            schedule: TeamSchedule::Swiss { rounds: at_least_one("rounds")? },
        },
        "team-rotation" => Format::TeamRotation,
        "win-and-continue" => Format::WinAndContinue,
        _ => return Err(t(lang, "desk-bad-format")),
    })
}

/// The time control the create form describes.
pub(super) fn time_of(form: &CreateForm, lang: Lang) -> Result<TimeControl, String> {
    let minutes = |v: u32| DurationMs(i64::from(v) * 60_000);
    let seconds = |v: u32| DurationMs(i64::from(v) * 1000);
    let main = form.number("main", lang)?;
    let periods = form.number("periods", lang)?;
    let period = form.number("period", lang)?;
    let system = match form.text("time") {
        "none" | "" => TimeSystem::NoClock,
        "absolute" => TimeSystem::Absolute { main: minutes(main) },
        "chinese" => TimeSystem::ChineseByoYomi { basic: minutes(main), reserved_minutes: periods },
        "japanese" => TimeSystem::JapaneseByoYomi { main: minutes(main), periods, period: seconds(period) },
        "fischer" => TimeSystem::Fischer { initial: minutes(main), increment: seconds(period), cap: None },
        _ => return Err(t(lang, "desk-bad-time")),
    };
    // The clock's own checks (a byo-yomi needs periods, …), refused in the page's words.
    TimeControl::new(system).map_err(|e| match e {
        ControlError::NoTime | ControlError::NoInitialTime => t(lang, "desk-bad-time-main"),
        ControlError::EmptyOvertime => t(lang, "desk-bad-time-overtime"),
        ControlError::BasicShorterThanReserve { reserved_minutes, .. } => {
            ta(lang, "desk-bad-time-reserve", &[("minutes", reserved_minutes.to_string())])
        }
        ControlError::TooLong { .. } => t(lang, "desk-bad-time-long"),
        _ => t(lang, "desk-bad-time"),
    })
}

/// A tournament the create form describes: its id, the request id, the pairing core's configuration
/// and how the games are played; or what is wrong with it (in the page's language).
pub struct Creation {
    /// The tournament's id.
    pub tournament_id: String,
    /// The request id (a retry of the same form reuses it).
    pub request_id: String,
    /// The pairing core's configuration.
    pub config: TournamentConfig,
    /// How the games are played.
    pub settings: GameSettings,
}

/// Reads the create form into a [`Creation`], or says what is wrong with it.
pub fn create_request(form: &CreateForm, lang: Lang) -> Result<Creation, String> {
    let id = form.text("tournament_id");
    let id_ok = !id.is_empty()
        && id.len() <= 63
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-');
    if !id_ok {
        return Err(t(lang, "desk-bad-id"));
    }
    let name = form.text("name").trim();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(t(lang, "desk-bad-name"));
    }
    let size = match form.number("size", lang)? {
        0 => 19,
        n if (5..=25).contains(&n) => n as u8,
        _ => return Err(ta(lang, "desk-bad-number", &[("field", t(lang, "desk-field-size"))])),
    };
    let no_show = form.number("no_show", lang)?;
    let mut config = TournamentConfig::new(name, format_of(form, lang)?, 0);
    let ranking = form.text("ranking").split([',', '，', '、', ' ']).map(str::trim).filter(|s| !s.is_empty());
    let ranking = ranking
        .map(|n| TieBreak::from_any_name(n).ok_or_else(|| ta(lang, "desk-bad-criterion", &[("name", n.to_string())])))
        .collect::<Result<Vec<_>, _>>()?;
    if !ranking.is_empty() {
        config.ranking = ranking;
    }
    config.pairing_bye = match form.text("bye") {
        "half" => ByeKind::HalfPoint,
        "zero" => ByeKind::ZeroPoint,
        _ => ByeKind::FullPoint,
    };
    if form.checked("handicap") {
        config.pairing.handicap = HandicapPolicy::ByRank { reduction: 0, ceiling: 9 };
    }
    if no_show > 0 {
        config.no_show_limit_ms = i64::from(no_show) * 60_000;
    }
    // Soft avoidance, a weight of the pairing (players of one club or region meet when nothing
    // better is possible).
    config.pairing.separate_clubs = form.checked("separate_clubs");
    config.pairing.separate_regions = form.checked("separate_regions");
    config.pairing.separate_families = form.checked("separate_families");
    let rules = form.text("rules");
    let ruleset = if rules.is_empty() {
        Ruleset::chinese()
    } else {
        Ruleset::preset(rules).ok_or_else(|| t(lang, "desk-bad-rules"))?
    };
    let over_the_board = form.checked("over_the_board");
    let rated = form.checked("rated");
    // The spectators' delay in minutes (issue 34 item 1): empty, the default (15 minutes for a rated
    // event); 0, live.
    let spectator_delay = match form.text("spectator_delay") {
        "" => GameSettings::default_spectator_delay(rated),
        text => match number(text, "spectator_delay", lang)? {
            0 => None,
            m if m <= SpectatorDelay::MAX_MINUTES => Some(SpectatorDelay::Minutes(m)),
            _ => return Err(t(lang, "desk-bad-delay")),
        },
    };
    Ok(Creation {
        tournament_id: id.to_string(),
        request_id: crate::pages::form_request_id(form.rid.as_deref()),
        config,
        settings: GameSettings {
            size,
            ruleset,
            time_control: time_of(form, lang)?,
            rated,
            spectator_delay,
            // Played over the board: the games are created but never started on line; referees
            // enter the results.
            manual_start: over_the_board,
            no_automatic_no_shows: over_the_board,
            ..GameSettings::default()
        },
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
    // The form reads into the pairing core's configuration and the game settings, checked here
    // with the field's name in the page's language; the service checks them again.
    let creation = match create_request(&form, lang) {
        Ok(c) => c,
        Err(why) => return render_list(&web, &viewer, Some((false, why)), &form).await,
    };
    let Creation { tournament_id: id, request_id, config, settings } = creation;
    match api.create(&member.caller(), &id, &request_id, config, settings).await {
        Ok(accepted) => {
            web.index.add_tournament(&id);
            settle(&web, &id, accepted.sequence).await;
            redirect(&format!("/desk/tournaments/{id}?done=created"), vec![])
        }
        Err(e) => render_list(&web, &viewer, Some((false, refused_text(lang, &e))), &form).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(fields: &[(&str, &str)]) -> CreateForm {
        let query: String = fields.iter().map(|(k, v)| format!("{k}={}", url_escape(v))).collect::<Vec<_>>().join("&");
        serde_urlencoded::from_str(&query).expect("a create form")
    }

    fn url_escape(v: &str) -> String {
        v.bytes()
            .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
            .collect()
    }

    const MCMAHON: &[(&str, &str)] = &[
        ("tournament_id", "spring-cup"),
        ("name", "春季杯"),
        ("format", "mcmahon"),
        ("rounds", "5"),
        ("top_bar", "业余三段"),
        ("bottom_bar", "20级"),
        ("time", "chinese"),
        ("main", "60"),
        ("periods", "3"),
        ("period", "30"),
        ("rules", "chinese"),
        ("ranking", "MMS、对手麦克马洪分，sososm"),
        ("handicap", "on"),
        ("separate_clubs", "on"),
        ("separate_families", "on"),
    ];

    /// The form reads into the pairing core's configuration and the game settings, with the bars as
    /// Chinese organisers write ranks and the criteria separated as they type them.
    #[test]
    fn the_create_form_builds_the_domains_configuration() {
        let c = create_request(&form(MCMAHON), Lang::ZhCn).expect("a valid form");
        assert_eq!(c.tournament_id, "spring-cup");
        assert_eq!(c.config.name, "春季杯");
        assert_eq!(
            c.config.format,
            Format::McMahon { rounds: 5, bars: McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(20) } }
        );
        assert_eq!(c.config.ranking, [TieBreak::Mms, TieBreak::Sosm, TieBreak::Sososm]);
        assert!(c.config.pairing.separate_clubs && !c.config.pairing.separate_regions);
        assert!(c.config.pairing.separate_families, "soft avoidance of one family (item 11)");
        // Handicap by rank difference gives stones (at most nine), not none.
        assert_eq!(c.config.pairing.handicap.stones(3, 0), 3);
        assert_eq!(
            c.settings.time_control.system,
            TimeSystem::ChineseByoYomi { basic: DurationMs(3_600_000), reserved_minutes: 3 }
        );
        assert_eq!(c.settings.size, 19);
        assert!(!c.settings.manual_start);
    }

    /// What is wrong is said in the page's language, naming the field.
    #[test]
    fn a_wrong_field_is_refused_in_the_pages_language() {
        let mut fields = MCMAHON.to_vec();
        fields.retain(|(k, _)| *k != "top_bar");
        fields.push(("top_bar", "三级半"));
        let why = create_request(&form(&fields), Lang::ZhCn).err().expect("refused");
        assert!(why.contains("麦克马洪上限") && why.contains("三级半"), "{why}");

        let mut fields = MCMAHON.to_vec();
        fields.retain(|(k, _)| *k != "ranking");
        fields.push(("ranking", "对手分, 小分"));
        let why = create_request(&form(&fields), Lang::ZhCn).err().expect("refused");
        assert!(why.contains("小分") && why.contains("名次排序依据"), "{why}");

        let mut fields = MCMAHON.to_vec();
        fields.retain(|(k, _)| !matches!(*k, "time" | "periods"));
        fields.extend([("time", "japanese"), ("periods", "0")]);
        let why = create_request(&form(&fields), Lang::ZhCn).err().expect("refused");
        assert!(why.contains("读秒"), "{why}");
        let why = create_request(&form(&fields), Lang::En).err().expect("refused");
        assert!(why.contains("Byo-yomi"), "{why}");
    }
}
