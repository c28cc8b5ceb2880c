//! `/desk`: the organiser's desk. Create a tournament in any format the pairing core has (with the
//! format's own settings), register players (one by one, from the player registry, or from a CSV file
//! with a preview: [`super::desk_import`]), start, pair a round and see each pairing explained,
//! forbid or fix pairs and grant byes for the next round, enter or correct results (referees),
//! withdraw players (with the Art. 28 ruling shown), publish, export (standings and pairings CSV,
//! `.h9`) and print pairing sheets, result slips and standings.
//!
//! Every command goes through the gateway's own `TournamentService` with the session's token, so the
//! desk has no permission model of its own: an organiser or referee of the event may act, anyone else
//! is refused with the service's reason. Each form carries a request id made when it was drawn, so a
//! form sent twice (a double click, a reload) is one command.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};
use weiqi_edge::auth::Role;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::tournament_service_server::TournamentService;

use super::tournament::{pairings_table, standings_table};
use super::{
    acting, bearer, csrf_field, http_status, message, notice, page, redirect, request_id, status_text, with_status,
};
use crate::Web;
use crate::i18n::{Lang, rank_text, t, ta, try_t};
use crate::session::{Member, Viewer};

/// The formats the create form offers, by the pairing core's names.
pub const FORMATS: [&str; 11] = [
    "swiss",
    "mcmahon",
    "round-robin",
    "knockout",
    "swiss-elimination",
    "match",
    "fixed-match",
    "groups-then-knockout",
    "team",
    "team-rotation",
    "win-and-continue",
];

/// Whether a table's game can end in a draw: its komi (the event's for an even game, none with a
/// handicap) has no half point. Unknown settings allow it (the service decides).
fn draw_allowed(settings: &Option<pb::TournamentGameSettings>, handicap: u32) -> bool {
    if handicap > 0 {
        return true;
    }
    settings.as_ref().and_then(|s| s.komi_half_points).is_none_or(|k| k % 2 == 0)
}

/// Who may use the desk: organisers, referees (results) and administrators.
pub fn staff(viewer: &Viewer) -> Option<&Member> {
    viewer
        .member
        .as_ref()
        .filter(|m| m.has(Role::Organiser) || m.has(Role::Referee) || m.has(Role::ChiefReferee) || m.has(Role::Admin))
}

/// The hidden request id of a form.
pub fn rid_field() -> Markup {
    html! { input type="hidden" name="rid" value=(request_id()); }
}

fn service(web: &Web) -> Option<Arc<dyn TournamentService>> {
    web.tournaments.clone()
}

fn field<'a>(form: &'a HashMap<String, String>, name: &str) -> &'a str {
    form.get(name).map_or("", |v| v.trim())
}

fn number(form: &HashMap<String, String>, name: &str, lang: Lang) -> Result<u32, String> {
    let v = field(form, name);
    if v.is_empty() {
        return Ok(0);
    }
    v.parse::<u32>()
        .ok()
        .filter(|n| *n <= 10_000)
        .ok_or_else(|| ta(lang, "desk-bad-number", &[("field", t(lang, &format!("desk-field-{name}")))]))
}

/// A bye's kind as the forms name it (`full`, `half`, `zero`).
fn bye_kind(value: &str) -> pb::tournament_config::ByeKind {
    match value {
        "half" => pb::tournament_config::ByeKind::HalfPoint,
        "zero" => pb::tournament_config::ByeKind::ZeroPoint,
        _ => pb::tournament_config::ByeKind::FullPoint,
    }
}

/// Player numbers written `1, 2, 3` (or with spaces or Chinese commas).
fn numbers(text: &str, lang: Lang) -> Result<Vec<u32>, String> {
    let parsed: Result<Vec<u32>, _> =
        text.split([',', '，', ' ', '、']).filter(|p| !p.is_empty()).map(str::parse::<u32>).collect();
    match parsed {
        Ok(v) if !v.is_empty() && v.len() <= 20 => Ok(v),
        _ => Err(ta(lang, "desk-bad-number", &[("field", t(lang, "desk-team-members"))])),
    }
}

fn rid(form: &HashMap<String, String>) -> String {
    super::form_request_id(form.get("rid").map(String::as_str))
}

/// `GET /desk`: the tournaments, and the form to create one.
pub async fn list(State(web): State<Arc<Web>>, viewer: Viewer) -> Response {
    if staff(&viewer).is_none() {
        return message(&web, &viewer, StatusCode::FORBIDDEN, &t(viewer.lang, "desk-only"));
    }
    render_list(&web, &viewer, None, &HashMap::new()).await
}

async fn render_list(
    web: &Web,
    viewer: &Viewer,
    note: Option<(bool, String)>,
    form: &HashMap<String, String>,
) -> Response {
    let lang = viewer.lang;
    let mut rows = Vec::new();
    if let Some(s) = service(web) {
        for id in web.index.tournaments() {
            let token = viewer.member.as_ref().map(|m| m.token.clone()).unwrap_or_default();
            if let Ok(summary) = s
                .get_tournament(bearer(&token, pb::GetTournamentRequest { tournament_id: id.clone(), min_sequence: 0 }))
                .await
            {
                rows.push(summary.into_inner());
            }
        }
    }
    let value = |name: &str, default: &str| form.get(name).cloned().unwrap_or_else(|| default.to_string());
    let body = html! {
        h1 { (t(lang, "desk-title")) }
        (notice(note.as_ref()))
        section.card {
            h2 { (t(lang, "desk-tournaments")) }
            @if rows.is_empty() { p.small { (t(lang, "desk-no-tournaments")) } }
            @else {
                div.table-wrap { table {
                    thead { tr { th { (t(lang, "desk-field-name")) } th { (t(lang, "desk-format")) } th { (t(lang, "field-status")) } th { (t(lang, "col-players")) } } }
                    tbody { @for r in &rows {
                        tr data-tournament=(r.tournament_id) {
                            td { a href={ "/desk/tournaments/" (r.tournament_id) } { (if r.name.is_empty() { &r.tournament_id } else { &r.name }) } }
                            td { (super::tournament::format_summary(lang, r)) }
                            td { (phase_text(lang, &r.phase)) }
                            td { (r.players) }
                        }
                    } }
                } }
            }
        }
        @if viewer.member.as_ref().is_some_and(|m| m.has(Role::Organiser) || m.has(Role::Admin)) {
            p { a href="/desk/ratings" data-link="ratings" { (t(lang, "ratings-link")) } }
        }
        @if viewer.member.as_ref().is_some_and(|m| m.has(Role::Organiser) || m.has(Role::Admin)) {
        section.card id="create" {
            h2 { (t(lang, "desk-create")) }
            form.grid method="post" action="/desk" {
                (csrf_field(viewer)) (rid_field())
                label { (t(lang, "desk-field-id")) input name="tournament_id" required pattern="[a-z0-9][a-z0-9-]{0,62}" autocapitalize="none" value=(value("tournament_id", "")); }
                label { (t(lang, "desk-field-name")) input name="name" required value=(value("name", "")); }
                label { (t(lang, "desk-format"))
                    select name="format" {
                        @for f in FORMATS { option value=(f) selected[value("format", "swiss") == f] { (t(lang, &format!("format-{f}"))) } }
                    }
                }
                fieldset {
                    legend { (t(lang, "desk-format-settings")) }
                    p.small { (t(lang, "desk-format-settings-help")) }
                    label { (t(lang, "desk-field-rounds")) input name="rounds" type="number" min="1" max="30" value=(value("rounds", "5")); }
                    label { (t(lang, "desk-field-top_bar")) input name="top_bar" placeholder="3d" value=(value("top_bar", "")); }
                    label { (t(lang, "desk-field-bottom_bar")) input name="bottom_bar" placeholder="20k" value=(value("bottom_bar", "")); }
                    label { (t(lang, "desk-field-losses")) input name="losses" type="number" min="1" max="9" value=(value("losses", "1")); }
                    label { (t(lang, "desk-field-cycles")) input name="cycles" type="number" min="1" max="9" value=(value("cycles", "1")); }
                    label { (t(lang, "desk-field-wins_needed")) input name="wins_needed" type="number" min="1" max="9" value=(value("wins_needed", "2")); }
                    label { (t(lang, "desk-field-games")) input name="games" type="number" min="1" max="20" value=(value("games", "10")); }
                    label { (t(lang, "desk-field-groups")) input name="groups" type="number" min="1" max="64" value=(value("groups", "2")); }
                    label { (t(lang, "desk-field-advance")) input name="advance" type="number" min="1" max="64" value=(value("advance", "2")); }
                    label { (t(lang, "desk-field-boards")) input name="boards" type="number" min="1" max="10" value=(value("boards", "3")); }
                }
                label { (t(lang, "desk-field-ranking")) input name="ranking" placeholder="Points, SOS, SOSOS" value=(value("ranking", "")); }
                p.small { (t(lang, "desk-ranking-help")) }
                label { (t(lang, "desk-field-bye"))
                    select name="bye" {
                        @for (v, k) in [("full", "bye-full-point"), ("half", "bye-half-point"), ("zero", "bye-zero-point")] {
                            option value=(v) selected[value("bye", "full") == v] { (t(lang, k)) }
                        }
                    }
                }
                label { (t(lang, "desk-field-no_show")) input name="no_show" type="number" min="0" max="240" value=(value("no_show", "15")); }
                label { (t(lang, "desk-field-size")) input name="size" type="number" min="5" max="25" value=(value("size", "19")); }
                label { (t(lang, "desk-field-rules"))
                    select name="rules" { @for r in ["chinese", "japanese", "korean", "aga", "new-zealand", "ing"] { option value=(r) selected[value("rules", "chinese") == r] { (try_t(lang, &format!("rules-{r}")).unwrap_or_else(|| r.to_string())) } } }
                }
                label { (t(lang, "desk-field-time"))
                    select name="time" { @for s in ["none", "absolute", "chinese", "japanese", "fischer"] { option value=(s) selected[value("time", "chinese") == s] { (t(lang, &format!("time-{s}"))) } } }
                }
                label { (t(lang, "desk-field-main")) input name="main" type="number" min="0" max="600" value=(value("main", "60")); }
                label { (t(lang, "desk-field-periods")) input name="periods" type="number" min="0" max="60" value=(value("periods", "3")); }
                label { (t(lang, "desk-field-period")) input name="period" type="number" min="0" max="600" value=(value("period", "30")); }
                label.check { input type="checkbox" name="rated" value="on" checked[form.get("rated").is_some()]; (t(lang, "desk-field-rated")) }
                label.check { input type="checkbox" name="handicap" value="on" checked[form.get("handicap").is_some()]; (t(lang, "desk-field-handicap")) }
                label.check { input type="checkbox" name="over_the_board" value="on" checked[form.get("over_the_board").is_some()]; (t(lang, "desk-field-over_the_board")) }
                button type="submit" data-action="create-tournament" { (t(lang, "desk-create")) }
            }
        }
        } @else {
            p.small data-create="organisers" { (t(lang, "desk-create-organisers")) }
        }
    };
    let status = if note.as_ref().is_some_and(|n| !n.0) { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    with_status(page(web, viewer, &t(lang, "desk-title"), body, &[]), status)
}

fn phase_text(lang: Lang, phase: &str) -> String {
    try_t(lang, &format!("tournament-phase-{phase}")).unwrap_or_else(|| phase.to_string())
}

/// The format message the create form describes.
fn format_of(form: &HashMap<String, String>, lang: Lang) -> Result<pb::TournamentFormat, String> {
    use pb::tournament_format::{self as f, Format};
    let n = |name: &str| number(form, name, lang);
    let at_least_one = |name: &str| -> Result<u32, String> {
        let v = n(name)?;
        if v == 0 {
            Err(ta(lang, "desk-bad-number", &[("field", t(lang, &format!("desk-field-{name}")))]))
        } else {
            Ok(v)
        }
    };
    let format = match field(form, "format") {
        "swiss" => Format::Swiss(f::Swiss { rounds: at_least_one("rounds")? }),
        "mcmahon" => Format::Mcmahon(f::McMahon {
            rounds: at_least_one("rounds")?,
            top_bar: field(form, "top_bar").to_string(),
            bottom_bar: field(form, "bottom_bar").to_string(),
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

fn time_of(form: &HashMap<String, String>, lang: Lang) -> Result<Option<pb::TimeControl>, String> {
    use pb::time_control::{self as tc, System};
    let min = 60_000i64;
    let main = i64::from(number(form, "main", lang)?);
    let periods = number(form, "periods", lang)?;
    let period = i64::from(number(form, "period", lang)?);
    let system = match field(form, "time") {
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
pub fn create_request(form: &HashMap<String, String>, lang: Lang) -> Result<pb::CreateTournamentRequest, String> {
    let id = field(form, "tournament_id");
    let id_ok = !id.is_empty()
        && id.len() <= 63
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-');
    if !id_ok {
        return Err(t(lang, "desk-bad-id"));
    }
    let name = field(form, "name");
    if name.is_empty() || name.chars().count() > 200 {
        return Err(t(lang, "desk-bad-name"));
    }
    let size = match number(form, "size", lang)? {
        0 => 19,
        n if (5..=25).contains(&n) => n,
        _ => return Err(ta(lang, "desk-bad-number", &[("field", t(lang, "desk-field-size"))])),
    };
    let no_show = number(form, "no_show", lang)?;
    let bye = bye_kind(field(form, "bye"));
    let ranking: Vec<String> = field(form, "ranking")
        .split([',', '，', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let over_the_board = form.contains_key("over_the_board");
    Ok(pb::CreateTournamentRequest {
        tournament_id: id.to_string(),
        request_id: rid(form),
        config: Some(pb::TournamentConfig {
            name: name.to_string(),
            format: Some(format_of(form, lang)?),
            ranking,
            pairing_bye: bye as i32,
            handicap_by_rank: form.contains_key("handicap"),
            no_show_limit_ms: i64::from(no_show) * 60_000,
            ..Default::default()
        }),
        settings: Some(pb::TournamentGameSettings {
            size,
            rules: field(form, "rules").to_string(),
            time_control: time_of(form, lang)?,
            rated: form.contains_key("rated"),
            // Played over the board: the games are created but never started on line; referees
            // enter the results.
            manual_start: over_the_board,
            no_automatic_no_shows: over_the_board,
            ..Default::default()
        }),
    })
}

/// `POST /desk`: create a tournament.
pub async fn create(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let (viewer, member) = match acting(&web, &headers, form.get("csrf").map(String::as_str), staff, "desk-only").await
    {
        Ok(v) => v,
        Err(refused) => return refused,
    };
    let lang = viewer.lang;
    // Referees record results at the desk; creating an event is an organiser's (the service would
    // refuse it too, with a message about something else).
    if !(member.has(Role::Organiser) || member.has(Role::Admin)) {
        return message(&web, &viewer, StatusCode::FORBIDDEN, &t(lang, "desk-create-organisers"));
    }
    let Some(s) = service(&web) else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "tournament-not-found"));
    };
    let request = match create_request(&form, lang) {
        Ok(r) => r,
        Err(why) => return render_list(&web, &viewer, Some((false, why)), &form).await,
    };
    let id = request.tournament_id.clone();
    match s.create_tournament(bearer(&member.token, request)).await {
        Ok(reply) => {
            web.index.add_tournament(&id);
            settle(&web, &member.token, &id, sequence(reply)).await;
            redirect(&format!("/desk/tournaments/{id}?done=created"), vec![])
        }
        Err(e) => render_list(&web, &viewer, Some((false, status_text(lang, &e))), &form).await,
    }
}

/// What the desk shows of a tournament, read through the gateway with the session's token.
pub struct Loaded {
    /// The summary.
    pub summary: pb::TournamentSummary,
    /// The standings, once there are any.
    pub standings: Option<pb::TournamentStandings>,
    /// Every paired round's pairings, oldest first.
    pub rounds: Vec<pb::TournamentPairings>,
}

/// Reads the summary, standings and every round of `id`.
///
/// # Errors
/// The refusal, in the page's language, with its HTTP status.
pub async fn load(web: &Web, token: &str, id: &str, lang: Lang) -> Result<Loaded, (StatusCode, String)> {
    let s = service(web).ok_or((StatusCode::NOT_FOUND, t(lang, "tournament-not-found")))?;
    let summary = match s
        .get_tournament(bearer(token, pb::GetTournamentRequest { tournament_id: id.to_string(), min_sequence: 0 }))
        .await
    {
        Ok(r) => r.into_inner(),
        Err(e) if matches!(e.code(), tonic::Code::NotFound | tonic::Code::InvalidArgument) => {
            return Err((StatusCode::NOT_FOUND, t(lang, "tournament-not-found")));
        }
        Err(e) => return Err((StatusCode::SERVICE_UNAVAILABLE, status_text(lang, &e))),
    };
    let standings = s
        .get_standings(bearer(
            token,
            pb::GetTournamentStandingsRequest { tournament_id: id.to_string(), offset: 0, limit: 0, min_sequence: 0 },
        ))
        .await
        .ok()
        .map(tonic::Response::into_inner);
    let mut rounds = Vec::new();
    for round in 1..=summary.rounds_paired {
        if let Ok(p) = s
            .get_pairings(bearer(
                token,
                pb::GetTournamentPairingsRequest { tournament_id: id.to_string(), round, min_sequence: 0 },
            ))
            .await
        {
            rounds.push(p.into_inner());
        }
    }
    Ok(Loaded { summary, standings, rounds })
}

/// `GET /desk/tournaments/{id}`.
pub async fn page_get(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
) -> Response {
    let lang = viewer.lang;
    let query = super::params(q.as_deref());
    let mut note = query.get("done").and_then(|d| try_t(lang, &format!("desk-done-{d}"))).map(|text| (true, text));
    let explain = query.get("explain").cloned();
    let mut draft = None;
    if query.contains_key("draft")
        && let (Some(member), Some(s)) = (staff(&viewer), service(&web))
    {
        let r = pb::PreviewPairingRequest { tournament_id: id.clone() };
        match s.preview_pairing(bearer(&member.token, r)).await {
            Ok(p) => {
                let mut p = p.into_inner();
                for g in &mut p.games {
                    g.result = "draft".into();
                }
                draft = Some(html! {
                    section.card id="draft" data-draft-round=(p.round) {
                        h2 { (ta(lang, "desk-draft", &[("round", p.round.to_string())])) }
                        p.small { (t(lang, "desk-draft-help")) }
                        (pairings_table(lang, &p))
                    }
                });
            }
            Err(e) => note = Some((false, status_text(lang, &e))),
        }
    }
    let results = query.get("results").and_then(|r| r.parse().ok());
    render(&web, &viewer, &id, note, draft, Shown { explain, results }).await
}

/// The fields of one player's registration (the registration form and the late-entry form).
fn player_fields(lang: Lang, rank_example: &str) -> Markup {
    html! {
        label { (t(lang, "desk-field-account")) input name="account" required autocapitalize="none"; }
        label { (t(lang, "field-name-zh")) input name="name_zh"; }
        label { (t(lang, "field-name-latin")) input name="name_latin"; }
        label { (t(lang, "col-rank")) input name="rank" placeholder=(rank_example); }
        label { (t(lang, "desk-field-club")) input name="club"; }
        label { (t(lang, "field-region")) input name="region"; }
    }
}

/// What the desk page shows besides its state: a pairing's explanation (`?explain=round:a:b`) and the
/// round whose results are open for entry and correction (`?results=N`; the latest by default).
#[derive(Clone, Debug, Default)]
pub struct Shown {
    /// `round:a:b` of the pairing to explain.
    pub explain: Option<String>,
    /// The round whose results are shown.
    pub results: Option<u32>,
}

/// The desk page of a tournament, with a notice and an import preview.
pub async fn render(
    web: &Web,
    viewer: &Viewer,
    id: &str,
    note: Option<(bool, String)>,
    preview: Option<Markup>,
    shown: Shown,
) -> Response {
    let Shown { explain, results } = shown;
    let lang = viewer.lang;
    let Some(member) = staff(viewer) else {
        return message(web, viewer, StatusCode::FORBIDDEN, &t(lang, "desk-only"));
    };
    let loaded = match load(web, &member.token, id, lang).await {
        Ok(l) => l,
        Err((status, text)) => return message(web, viewer, status, &text),
    };
    let explanation = match (&explain, service(web)) {
        (Some(e), Some(s)) => explain_text(lang, &s, &member.token, id, e).await,
        _ => None,
    };
    let Loaded { summary, standings, rounds } = &loaded;
    let phase = summary.phase.as_str();
    let next_round = summary.rounds_paired + 1;
    let latest = rounds.last();
    // Results of any round may be corrected: the round asked for, else the latest.
    let shown_round = results.and_then(|n| rounds.iter().find(|p| p.round == n)).or(latest);
    let action = |verb: &str| format!("/desk/tournaments/{id}/{verb}");
    let title = if summary.name.is_empty() { id.to_string() } else { summary.name.clone() };
    let can_pair = phase == "running"
        && latest.is_none_or(|p| p.completed)
        && (summary.rounds_planned == 0 || summary.rounds_paired < summary.rounds_planned);
    let team = summary.format_key.starts_with("team") || summary.format.to_lowercase().contains("team");
    let body = html! {
        h1 { (title) }
        p.small data-phase=(phase) {
            (super::tournament::format_summary(lang, summary)) " · " (phase_text(lang, phase)) " · " (ta(lang, "tournament-players", &[("n", summary.players.to_string())]))
            " · " a href={ "/tournaments/" (id) } { (t(lang, "desk-public-page")) }
        }
        (notice(note.as_ref()))
        @if let Some(p) = &preview { (p) }
        @if phase == "registration" {
            section.card id="register" {
                h2 { (t(lang, "desk-register")) }
                form.grid method="post" action=(action("register")) {
                    (csrf_field(viewer)) (rid_field())
                    (player_fields(lang, "3k"))
                    p.small { (t(lang, "desk-register-help")) }
                    button type="submit" data-action="register-player" { (t(lang, "desk-register-one")) }
                }
                h3 { (t(lang, "desk-import")) }
                p.small { (t(lang, "desk-import-help")) }
                form.grid method="post" action=(action("import")) enctype="multipart/form-data" {
                    (csrf_field(viewer))
                    label { (t(lang, "desk-import-file")) input type="file" name="file" accept=".csv,text/csv,.xml,application/xml" required; }
                    button type="submit" data-action="preview-import" { (t(lang, "desk-import-preview")) }
                }
                @if team {
                    h3 { (t(lang, "desk-register-team")) }
                    form.grid method="post" action=(action("team")) {
                        (csrf_field(viewer)) (rid_field())
                        label { (t(lang, "desk-team-number")) input name="team" type="number" min="1" required; }
                        label { (t(lang, "desk-field-name")) input name="name" required; }
                        label { (t(lang, "desk-team-members")) input name="members" required placeholder="1, 2, 3"; }
                        button type="submit" data-action="register-team" { (t(lang, "desk-register-team")) }
                    }
                }
                h3 { (t(lang, "desk-start")) }
                form.inline method="post" action=(action("start")) {
                    (csrf_field(viewer)) (rid_field())
                    button type="submit" data-action="start-tournament" { (t(lang, "desk-start")) }
                }
            }
        }
        @if phase == "running" && (summary.format_key == "swiss" || summary.format_key == "mcmahon") {
            // Late entries (issue 30 item 9): Swiss and McMahon take a player until the last round; they
            // are paired from the next round on, and the rounds before count as not played.
            section.card id="late-entry" {
                h2 { (t(lang, "desk-late-entry")) }
                p.small { (ta(lang, "desk-late-entry-help", &[("round", next_round.to_string())])) }
                form.grid method="post" action=(action("register")) {
                    (csrf_field(viewer)) (rid_field())
                    (player_fields(lang, "3级"))
                    button type="submit" data-action="register-player" { (t(lang, "desk-register-one")) }
                }
            }
        }
        @if phase == "running" {
            section.card id="rounds" {
                h2 { (t(lang, "desk-rounds")) }
                @if can_pair {
                    a.button href={ "/desk/tournaments/" (id) "?draft=1" } data-action="preview-pairing" { (ta(lang, "desk-preview", &[("round", next_round.to_string())])) }
                    " "
                    form.inline method="post" action=(action("pair")) {
                        (csrf_field(viewer)) (rid_field())
                        input type="hidden" name="round" value=(next_round);
                        button type="submit" data-action="pair-round" { (ta(lang, "desk-pair", &[("round", next_round.to_string())])) }
                    }
                } @else if let Some(p) = latest {
                    p.small { (ta(lang, "desk-round-open", &[("round", p.round.to_string())])) }
                }
            }
        }
        @if let Some(text) = &explanation {
            div.card data-explanation="" role="status" { h3 { (t(lang, "desk-explanation")) } (text) }
        }
        @if let Some(p) = shown_round {
                section.card id="results" data-round=(p.round) {
                    h2 { (ta(lang, "desk-results", &[("round", p.round.to_string())])) }
                    @if rounds.len() > 1 {
                        nav.small data-rounds="" {
                            (t(lang, "desk-results-of")) " "
                            @for r in rounds.iter() {
                                @if r.round == p.round { strong { (r.round) } } @else {
                                    a href={ "/desk/tournaments/" (id) "?results=" (r.round) "#results" } data-results-round=(r.round) { (r.round) }
                                }
                                " "
                            }
                        }
                    }
                    div.table-wrap { table {
                        thead { tr { th { (t(lang, "col-table")) } th { (t(lang, "black")) } th { (t(lang, "white")) } th { (t(lang, "col-result")) } th { (t(lang, "desk-enter-result")) } } }
                        tbody { @for g in &p.games {
                            tr data-table=(g.table) data-black=(g.black) data-white=(g.white) data-result=(g.result) {
                                td { (g.table) }
                                td { (g.black_name) " " span.rank { (rank_text(lang, &g.black_rank)) } " " span.small { "#" (g.black) } }
                                td { (g.white_name) " " span.rank { (rank_text(lang, &g.white_rank)) } " " span.small { "#" (g.white) } }
                                td {
                                    @if g.game_id.is_empty() { (super::tournament::result_text(lang, &g.result)) }
                                    @else { a href={ "/games/" (g.game_id) } { (super::tournament::result_text(lang, &g.result)) } }
                                    " "
                                    a.small href={ "?explain=" (p.round) ":" (g.black) ":" (g.white) } data-action="explain" { (t(lang, "desk-why")) }
                                }
                                td {
                                    form.inline method="post" action=(action("result")) {
                                        (csrf_field(viewer)) (rid_field())
                                        input type="hidden" name="round" value=(p.round);
                                        input type="hidden" name="table" value=(g.table);
                                        input type="hidden" name="correction" value=(if g.result.is_empty() { "" } else { "on" });
                                        select name="outcome" aria-label=(t(lang, "col-result")) {
                                            @for (v, k) in [("B+", "result-black-wins"), ("W+", "result-white-wins"), ("draw", "result-draw"), ("both-lose", "result-both-lose"), ("void", "result-void")] {
                                                @if v != "draw" || draw_allowed(&summary.settings, g.handicap) {
                                                    option value=(v) selected[g.result.trim_end_matches('!') == v] { (t(lang, k)) }
                                                }
                                            }
                                        }
                                        select name="how" aria-label=(t(lang, "desk-how")) {
                                            @for (v, k) in HOW {
                                                option value=(v) selected[how_of(&g.result) == v] { (t(lang, k)) }
                                            }
                                        }
                                        button type="submit" data-action="record-result" { (t(lang, if g.result.is_empty() { "desk-record" } else { "desk-correct" })) }
                                    }
                                }
                            }
                        } }
                    } }
                    @for b in &p.byes { p.small data-bye=(b.player) { (b.name) " #" (b.player) ": " (t(lang, "bye")) " (" (try_t(lang, &format!("bye-{}", b.kind)).unwrap_or_else(|| b.kind.clone())) ")" } }
                    p.small { a href={ "/desk/tournaments/" (id) "/print/pairings" } target="_blank" { (t(lang, "desk-print-pairings")) } " · "
                        a href={ "/desk/tournaments/" (id) "/print/slips" } target="_blank" { (t(lang, "desk-print-slips")) } }
                }
        }
        @if phase == "running" {
            section.card id="overrides" {
                h2 { (ta(lang, "desk-overrides", &[("round", next_round.to_string())])) }
                p.small { (t(lang, "desk-overrides-help")) }
                form.inline method="post" action=(action("forbid")) {
                    (csrf_field(viewer)) (rid_field())
                    input name="a" type="number" min="1" required aria-label=(t(lang, "desk-player-a")) placeholder=(t(lang, "desk-player-a"));
                    input name="b" type="number" min="1" required aria-label=(t(lang, "desk-player-b")) placeholder=(t(lang, "desk-player-b"));
                    select name="scope" aria-label=(t(lang, "desk-forbid-scope")) {
                        option value="event" { (t(lang, "desk-forbid-event")) }
                        option value="round" { (ta(lang, "desk-forbid-round", &[("round", next_round.to_string())])) }
                    }
                    input type="hidden" name="round" value=(next_round);
                    button type="submit" data-action="forbid-pair" { (t(lang, "desk-forbid")) }
                }
                @if !summary.forbids.is_empty() {
                    table data-forbids="" {
                        caption { (t(lang, "desk-forbids")) }
                        thead { tr { th { (t(lang, "desk-forbids")) } th { (t(lang, "desk-forbid-scope")) } th {} } }
                        tbody { @for f in &summary.forbids {
                            tr data-forbid={ (f.a) "-" (f.b) } data-scope=(if f.round == 0 { "event".to_string() } else { f.round.to_string() }) {
                                td { (f.a_name) " #" (f.a) " — " (f.b_name) " #" (f.b) }
                                td { @if f.round == 0 { (t(lang, "desk-forbid-event")) } @else { (ta(lang, "desk-forbid-round", &[("round", f.round.to_string())])) } }
                                td { form.inline method="post" action=(action("allow")) {
                                    (csrf_field(viewer)) (rid_field())
                                    input type="hidden" name="a" value=(f.a);
                                    input type="hidden" name="b" value=(f.b);
                                    button.link type="submit" data-action="lift-forbid" { (t(lang, "desk-forbid-lift")) }
                                } }
                            }
                        } }
                    }
                }
                form.inline method="post" action=(action("fix")) {
                    (csrf_field(viewer)) (rid_field())
                    input type="hidden" name="round" value=(next_round);
                    input name="black" type="number" min="1" required aria-label=(t(lang, "black")) placeholder=(t(lang, "black"));
                    input name="white" type="number" min="1" required aria-label=(t(lang, "white")) placeholder=(t(lang, "white"));
                    button type="submit" data-action="fix-pair" { (t(lang, "desk-fix")) }
                }
                form.inline method="post" action=(action("bye")) {
                    (csrf_field(viewer)) (rid_field())
                    input type="hidden" name="round" value=(next_round);
                    input name="player" type="number" min="1" required aria-label=(t(lang, "desk-player")) placeholder=(t(lang, "desk-player"));
                    select name="kind" aria-label=(t(lang, "desk-field-bye")) {
                        @for (v, k) in [("full", "bye-full-point"), ("half", "bye-half-point"), ("zero", "bye-zero-point")] { option value=(v) { (t(lang, k)) } }
                    }
                    button type="submit" data-action="grant-bye" { (t(lang, "desk-bye")) }
                }
            }
            @if team {
                section.card id="line-up" {
                    h2 { (ta(lang, "desk-line-up", &[("round", next_round.to_string())])) }
                    form.inline method="post" action=(action("line-up")) {
                        (csrf_field(viewer)) (rid_field())
                        input type="hidden" name="round" value=(next_round);
                        input name="team" type="number" min="1" required aria-label=(t(lang, "desk-team-number")) placeholder=(t(lang, "desk-team-number"));
                        input name="members" required aria-label=(t(lang, "desk-team-members")) placeholder="1, 2, 3";
                        button type="submit" data-action="submit-line-up" { (t(lang, "desk-submit-line-up")) }
                    }
                }
            }
            section.card id="withdraw" {
                h2 { (t(lang, "desk-withdraw")) }
                p.small data-ruling="" { (withdrawal_ruling(lang, summary)) }
                @if !summary.withdrawals.is_empty() {
                    ul data-withdrawals="" { @for w in &summary.withdrawals {
                        li data-withdrawal=(w.player) { (withdrawal_line(lang, w)) }
                    } }
                }
                form.inline method="post" action=(action("withdraw")) {
                    (csrf_field(viewer)) (rid_field())
                    input name="player" type="number" min="1" required aria-label=(t(lang, "desk-player")) placeholder=(t(lang, "desk-player"));
                    select name="reason" aria-label=(t(lang, "desk-withdraw-reason")) {
                        @for (v, k) in [("request", "withdraw-request"), ("no-shows", "withdraw-no-shows"), ("disqualified", "withdraw-disqualified")] { option value=(v) { (t(lang, k)) } }
                    }
                    button type="submit" data-action="withdraw-player" { (t(lang, "desk-withdraw")) }
                }
            }
        }
        @if phase != "registration" {
            section.card id="publish" {
                h2 { (t(lang, "desk-publish-title")) }
                form.inline method="post" action=(action("publish")) {
                    (csrf_field(viewer)) (rid_field())
                    button type="submit" data-action="publish" { (t(lang, "desk-publish")) }
                }
                p.small {
                    a href={ "/desk/tournaments/" (id) "/export/standings.csv" } download data-export="standings-csv" { (t(lang, "desk-export-standings")) } " · "
                    a href={ "/desk/tournaments/" (id) "/export/pairings.csv" } download data-export="pairings-csv" { (t(lang, "desk-export-pairings")) }
                    @if rounds.len() > 1 {
                        " (" @for (i, r) in rounds.iter().enumerate() {
                            @if i > 0 { " " }
                            a href={ "/desk/tournaments/" (id) "/export/pairings.csv?round=" (r.round) } download data-export={ "pairings-csv-" (r.round) } { (ta(lang, "desk-round-n", &[("round", r.round.to_string())])) }
                        } ")"
                    }
                    " · "
                    a href={ "/desk/tournaments/" (id) "/export/results.h9" } download data-export="h9" { (t(lang, "desk-export-h9")) } " · "
                    a href={ "/desk/tournaments/" (id) "/export/opengotha.xml" } download data-export="opengotha" { (t(lang, "desk-export-opengotha")) } " · "
                    a href={ "/desk/tournaments/" (id) "/print/standings" } target="_blank" { (t(lang, "desk-print-standings")) }
                }
            }
        }
        @if let Some(s) = standings && !s.rows.is_empty() {
            section.card id="standings" { h2 { (t(lang, "standings")) } (standings_table(lang, s)) }
        }
        @if rounds.len() > 1 {
            section id="earlier" { h2 { (t(lang, "desk-earlier-rounds")) } @for p in rounds.iter().rev().skip(1) { (pairings_table(lang, p)) } }
        }
    };
    page(web, viewer, &title, body, &[])
}

/// One withdrawn player's ruling with its numbers: the rounds unplayed, what each counts in the
/// opponents' SOS and in their own SOSM, and by which rule.
fn withdrawal_line(lang: Lang, w: &pb::TournamentWithdrawalCount) -> String {
    let who = format!("{} #{}", w.name, w.player);
    let mut parts = vec![ta(lang, "withdrawal-after", &[("who", who), ("round", w.after_round.to_string())])];
    match w.ruling.as_str() {
        "results-void" => parts.push(t(lang, "withdrawal-void")),
        "results-stand-rest-forfeited" => parts.push(t(lang, "withdrawal-forfeited")),
        _ => {
            let rounds = w.unplayed_rounds.iter().map(ToString::to_string).collect::<Vec<_>>();
            if rounds.is_empty() {
                parts.push(t(lang, "withdrawal-none-unplayed"));
            } else {
                let rounds = rounds.join(&t(lang, "list-separator"));
                parts.push(ta(lang, "withdrawal-unplayed", &[("rounds", rounds)]));
                if !w.for_opponents.is_empty() {
                    let value = super::tournament::shown(&w.for_opponents);
                    parts.push(ta(lang, "withdrawal-for-opponents", &[("value", value)]));
                }
                if !w.own_sosm.is_empty() {
                    let key = if w.own_sosm_rule == "own-final-mms" {
                        "withdrawal-own-sosm-final"
                    } else {
                        "withdrawal-own-sosm-start"
                    };
                    parts.push(ta(lang, key, &[("value", super::tournament::shown(&w.own_sosm))]));
                }
            }
        }
    }
    parts.join(&t(lang, "sentence-separator"))
}

/// The Art. 28 ruling for the format (what happens to a withdrawn player's results).
fn withdrawal_ruling(lang: Lang, summary: &pb::TournamentSummary) -> String {
    let f = if summary.format_key.is_empty() {
        summary.format.to_lowercase()
    } else {
        summary.format_key.replace('-', " ")
    };
    let key = if f.contains("mcmahon") || f.contains("麦克马洪") {
        "ruling-mcmahon"
    } else if f.contains("round robin") || f.contains("round-robin") || f.contains("循环") {
        "ruling-round-robin"
    } else if f.contains("team") || f.contains("match") || f.contains("团体") {
        "ruling-team"
    } else if f.contains("knockout") || f.contains("淘汰") {
        "ruling-knockout"
    } else {
        "ruling-swiss"
    };
    t(lang, key)
}

/// The pairing's explanation in the page's language (from the service's data, not its English text).
async fn explain_text(lang: Lang, s: &Arc<dyn TournamentService>, token: &str, id: &str, spec: &str) -> Option<Markup> {
    let mut parts = spec.split(':').map(|p| p.parse::<u32>().ok());
    let (Some(Some(round)), Some(Some(a)), Some(Some(b))) = (parts.next(), parts.next(), parts.next()) else {
        return None;
    };
    let r = pb::ExplainPairingRequest { tournament_id: id.to_string(), round, a, b, alternatives: 0 };
    let reply = s.explain_pairing(bearer(token, r)).await.ok()?.into_inner();
    let explained: weiqi_pairing::explain::PairingExplanation = serde_json::from_str(&reply.json).ok()?;
    Some(super::desk_explain::explanation(lang, &explained))
}

fn outcome(form: &HashMap<String, String>) -> pb::TournamentGameOutcome {
    use pb::tournament_game_outcome::{Outcome as O, Reason as R};
    let outcome = match field(form, "outcome") {
        "B+" => O::BlackWins,
        "W+" => O::WhiteWins,
        "draw" => O::Draw,
        "both-lose" => O::BothLose,
        "void" => O::Void,
        _ => O::Unspecified,
    };
    // How it ended, as the referee enters it: only a result marked as a forfeit is one (not rated).
    let reason = match field(form, "how") {
        _ if form.contains_key("forfeit") => R::Forfeit,
        "forfeit" => R::Forfeit,
        "resignation" => R::Resignation,
        "time" => R::Time,
        "ruling" => R::Referee,
        _ => R::Counted,
    };
    pb::TournamentGameOutcome { outcome: outcome as i32, reason: reason as i32 }
}

/// How a result came about, as the desk's select offers it (value, message id): counted, resigned, out
/// of time, not played (a forfeit, not rated), a referee's ruling.
const HOW: [(&str, &str); 5] = [
    ("count", "desk-how-count"),
    ("resignation", "desk-how-resignation"),
    ("time", "desk-how-time"),
    ("forfeit", "desk-how-forfeit"),
    ("ruling", "desk-how-ruling"),
];

/// The `HOW` value a recorded result shows (`!` marks a forfeit in the pairings list).
fn how_of(result: &str) -> &'static str {
    if result.ends_with('!') { "forfeit" } else { "count" }
}

/// `POST /desk/tournaments/{id}/{verb}`: one command of the desk.
pub async fn act(
    State(web): State<Arc<Web>>,
    Path((id, verb)): Path<(String, String)>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let (viewer, member) = match acting(&web, &headers, form.get("csrf").map(String::as_str), staff, "desk-only").await
    {
        Ok(v) => v,
        Err(refused) => return refused,
    };
    let lang = viewer.lang;
    let Some(s) = service(&web) else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "tournament-not-found"));
    };
    let token = member.token.clone();
    // After the results are published, a withdrawal or a correction changes the official results
    // (they are published again): the desk asks first.
    let changes_official = verb == "withdraw" || (verb == "result" && field(&form, "correction") == "on");
    if changes_official
        && field(&form, "confirm") != "yes"
        && let Some(s) = service(&web)
        && let Ok(summary) = s
            .get_tournament(bearer(&token, pb::GetTournamentRequest { tournament_id: id.clone(), min_sequence: 0 }))
            .await
        && summary.get_ref().publications > 0
    {
        return confirm_page(&web, &viewer, &id, &verb, &form);
    }
    let tid = id.clone();
    let request_id = rid(&form);
    let n = |name: &str| number(&form, name, lang);
    let outcome: Result<Result<u64, tonic::Status>, String> = async {
        Ok(match verb.as_str() {
            "register" => {
                let account = field(&form, "account");
                if account.is_empty() {
                    return Err(t(lang, "desk-account-required"));
                }
                let named =
                    ["name_zh", "name_latin", "rank", "club", "region"].iter().any(|f| !field(&form, f).is_empty());
                let snapshot = named.then(|| pb::TournamentPlayerSnapshot {
                    name_zh: field(&form, "name_zh").to_string(),
                    name_latin: field(&form, "name_latin").to_string(),
                    rank: field(&form, "rank").to_string(),
                    club: field(&form, "club").to_string(),
                    region: field(&form, "region").to_string(),
                    ..Default::default()
                });
                let r = pb::RegisterPlayerRequest {
                    tournament_id: tid,
                    request_id,
                    account_id: account.to_string(),
                    player: 0,
                    snapshot,
                };
                s.register_player(bearer(&token, r)).await.map(sequence)
            }
            "team" => {
                let members = numbers(field(&form, "members"), lang)?;
                let r = pb::RegisterTeamRequest {
                    tournament_id: tid,
                    request_id,
                    team: n("team")?,
                    name: field(&form, "name").to_string(),
                    members,
                };
                s.register_team(bearer(&token, r)).await.map(sequence)
            }
            "line-up" => {
                let players = numbers(field(&form, "members"), lang)?;
                let r = pb::SubmitLineUpRequest {
                    tournament_id: tid,
                    request_id,
                    round: n("round")?,
                    team: n("team")?,
                    players,
                };
                s.submit_line_up(bearer(&token, r)).await.map(sequence)
            }
            "start" => s
                .start_tournament(bearer(&token, pb::TournamentRequest { tournament_id: tid, request_id }))
                .await
                .map(sequence),
            "pair" => {
                let r = pb::PairRoundRequest { tournament_id: tid, request_id, round: n("round")? };
                s.pair_round(bearer(&token, r)).await.map(sequence)
            }
            "forbid" | "allow" => {
                // A forbid holds for every round unless the director picks the one round.
                let round = if field(&form, "scope") == "round" { n("round")? } else { 0 };
                let r = pb::ForbidPairRequest {
                    tournament_id: tid,
                    request_id,
                    a: n("a")?,
                    b: n("b")?,
                    round,
                    lift: verb == "allow",
                };
                s.forbid_pair(bearer(&token, r)).await.map(sequence)
            }
            "fix" => {
                let r = pb::FixPairingRequest {
                    tournament_id: tid,
                    request_id,
                    round: n("round")?,
                    black: n("black")?,
                    white: n("white")?,
                };
                s.fix_pairing(bearer(&token, r)).await.map(sequence)
            }
            "bye" => {
                let kind = bye_kind(field(&form, "kind"));
                let r = pb::GrantByeRequest {
                    tournament_id: tid,
                    request_id,
                    round: n("round")?,
                    player: n("player")?,
                    kind: kind as i32,
                };
                s.grant_bye(bearer(&token, r)).await.map(sequence)
            }
            "result" => {
                let r = pb::RecordTournamentResultRequest {
                    tournament_id: tid,
                    request_id,
                    round: n("round")?,
                    table: n("table")?,
                    result: Some(outcome(&form)),
                    correction: field(&form, "correction") == "on",
                    cheating: false,
                };
                s.record_result(bearer(&token, r)).await.map(sequence)
            }
            "withdraw" => {
                use pb::withdraw_player_request::Reason;
                let reason = match field(&form, "reason") {
                    "no-shows" => Reason::NoShows,
                    "disqualified" => Reason::Disqualified,
                    _ => Reason::Request,
                };
                let r = pb::WithdrawPlayerRequest {
                    tournament_id: tid,
                    request_id,
                    player: n("player")?,
                    reason: reason as i32,
                };
                s.withdraw_player(bearer(&token, r)).await.map(sequence)
            }
            "publish" => {
                s.publish(bearer(&token, pb::TournamentRequest { tournament_id: tid, request_id })).await.map(sequence)
            }
            _ => return Err(t(lang, "desk-unknown-command")),
        })
    }
    .await;
    match outcome {
        Ok(Ok(reached)) => {
            // Wait (briefly) for the read model to show what the command did, so the page drawn next
            // reads it.
            settle(&web, &token, &id, reached).await;
            // A result stays on its round's results (a correction of an earlier round included).
            let round = form.get("round").filter(|_| verb == "result").map(|r| format!("&results={r}#results"));
            redirect(&format!("/desk/tournaments/{id}?done={verb}{}", round.unwrap_or_default()), vec![])
        }
        Ok(Err(status)) => with_status(
            render(&web, &viewer, &id, Some((false, status_text(lang, &status))), None, Shown::default()).await,
            http_status(&status),
        ),
        Err(why) => with_status(
            render(&web, &viewer, &id, Some((false, why)), None, Shown::default()).await,
            StatusCode::BAD_REQUEST,
        ),
    }
}

/// Asks before a command that changes published results: what it does, and the same form again with
/// `confirm=yes` (WEB.md: the confirmation carries `data-action="confirm"`).
fn confirm_page(web: &Web, viewer: &Viewer, id: &str, verb: &str, form: &HashMap<String, String>) -> Response {
    let lang = viewer.lang;
    let what = if verb == "withdraw" { "desk-confirm-withdraw" } else { "desk-confirm-correction" };
    let body = html! {
        h1 { (t(lang, "desk-confirm-title")) }
        section.card id="confirm" role="alertdialog" {
            p.warning { (t(lang, what)) }
            p data-confirm-what="" {
                @if verb == "withdraw" {
                    (ta(lang, "desk-confirm-what-withdraw", &[("player", field(form, "player").to_string())]))
                } @else {
                    (ta(lang, "desk-confirm-what-result", &[
                        ("round", field(form, "round").to_string()),
                        ("table", field(form, "table").to_string()),
                        ("result", super::tournament::result_text(lang, field(form, "outcome"))),
                    ]))
                }
            }
            form.inline method="post" action={ "/desk/tournaments/" (id) "/" (verb) } {
                @for (k, v) in form.iter().filter(|(k, _)| k.as_str() != "confirm") {
                    input type="hidden" name=(k) value=(v);
                }
                input type="hidden" name="confirm" value="yes";
                button.danger type="submit" data-action="confirm" { (t(lang, "desk-confirm")) }
                " "
                a href={ "/desk/tournaments/" (id) } data-action="cancel" { (t(lang, "desk-confirm-cancel")) }
            }
        }
    };
    page(web, viewer, &t(lang, "desk-confirm-title"), body, &[])
}

/// The log position a command's reply reached.
pub fn sequence(reply: tonic::Response<pb::TournamentCommandReply>) -> u64 {
    reply.into_inner().sequence
}

/// Waits (up to three seconds) until the read model has folded the tournament's log up to
/// `reached`, so the page drawn after a command shows what it did.
pub async fn settle(web: &Web, token: &str, id: &str, reached: u64) {
    let Some(s) = service(web) else { return };
    // Read your writes: the gateway waits until its read model has folded the command's position.
    let ask = pb::GetTournamentRequest { tournament_id: id.to_string(), min_sequence: reached };
    let _ = s.get_tournament(bearer(token, ask)).await;
}

/// `GET /desk/tournaments/{id}/export/{kind}`: `standings.csv`, `pairings.csv` or `results.h9`,
/// exactly what the gateway's `Export` answers.
pub async fn export(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path((id, kind)): Path<(String, String)>,
    RawQuery(q): RawQuery,
) -> Response {
    let lang = viewer.lang;
    let (Some(member), Some(s)) = (staff(&viewer), service(&web)) else {
        return message(&web, &viewer, StatusCode::FORBIDDEN, &t(lang, "desk-only"));
    };
    use pb::export_tournament_request::Kind;
    let kind = match kind.as_str() {
        "standings.csv" => Kind::StandingsCsv,
        "pairings.csv" => Kind::PairingsCsv,
        "results.h9" => Kind::H9,
        "opengotha.xml" => Kind::Opengotha,
        _ => return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "desk-unknown-export")),
    };
    // Pairings of any round (`?round=N`; the latest by default).
    let round = super::params(q.as_deref()).get("round").and_then(|r| r.parse().ok()).unwrap_or(0);
    let r = pb::ExportTournamentRequest { tournament_id: id, kind: kind as i32, round, ..Default::default() };
    match s.export(bearer(&member.token, r)).await {
        Ok(e) => {
            let e = e.into_inner();
            let mut response = e.content.into_response();
            let content_type =
                if e.content_type.is_empty() { "text/plain; charset=utf-8".to_string() } else { e.content_type };
            let filename: String =
                e.filename.chars().filter(|c| c.is_ascii_alphanumeric() || "._-".contains(*c)).collect();
            if let Ok(v) = HeaderValue::from_str(&content_type) {
                response.headers_mut().insert(header::CONTENT_TYPE, v);
            }
            if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")) {
                response.headers_mut().insert(header::CONTENT_DISPOSITION, v);
            }
            response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(e) => message(&web, &viewer, http_status(&e), &status_text(lang, &e)),
    }
}

/// `GET /desk/tournaments/{id}/print/{what}`: a sheet to print (`pairings`, `slips`, `standings`),
/// laid out for paper by the print style sheet.
pub async fn print(State(web): State<Arc<Web>>, viewer: Viewer, Path((id, what)): Path<(String, String)>) -> Response {
    let lang = viewer.lang;
    let Some(member) = staff(&viewer) else {
        return message(&web, &viewer, StatusCode::FORBIDDEN, &t(lang, "desk-only"));
    };
    let loaded = match load(&web, &member.token, &id, lang).await {
        Ok(l) => l,
        Err((status, text)) => return message(&web, &viewer, status, &text),
    };
    let name = if loaded.summary.name.is_empty() { id.clone() } else { loaded.summary.name.clone() };
    let body: Markup = match what.as_str() {
        "pairings" => match loaded.rounds.last() {
            Some(p) => html! { div.print-sheet { h1 { (name) } (pairings_table(lang, p)) } },
            None => html! { p { (t(lang, "pairings-none")) } },
        },
        "slips" => match loaded.rounds.last() {
            Some(p) => html! {
                div.print-sheet.slips {
                    @for g in &p.games {
                        div.slip {
                            p { strong { (name) } " · " (ta(lang, "round-title", &[("round", p.round.to_string())])) " · " (t(lang, "col-table")) " " (g.table) }
                            p { (t(lang, "black")) ": " (g.black_name) " (" (rank_text(lang, &g.black_rank)) ")" }
                            p { (t(lang, "white")) ": " (g.white_name) " (" (rank_text(lang, &g.white_rank)) ")" }
                            p data-slip-result="" {
                                (t(lang, "desk-slip-result")) " ☐ " (t(lang, "result-black-wins")) " ☐ " (t(lang, "result-white-wins"))
                                @if draw_allowed(&loaded.summary.settings, g.handicap) { " ☐ " (t(lang, "result-draw")) }
                            }
                            p { (t(lang, "desk-slip-signatures")) " ________  ________" }
                        }
                    }
                }
            },
            None => html! { p { (t(lang, "pairings-none")) } },
        },
        "standings" => match &loaded.standings {
            Some(s) => html! { div.print-sheet { h1 { (name) } (standings_table(lang, s)) } },
            None => html! { p { (t(lang, "standings-none")) } },
        },
        _ => return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "desk-unknown-export")),
    };
    let body = html! {
        p.no-print { button type="button" data-action="print" { (t(lang, "desk-print")) } }
        (body)
    };
    page(&web, &viewer, &name, body, &["print.js"])
}
