//! `/desk`: the organiser's desk. Create a tournament in any format the pairing core has (with the
//! format's own settings), register players (one by one, from the player registry, or from a CSV file
//! with a preview: [`import`]), start, pair a round and see each pairing explained,
//! forbid or fix pairs and grant byes for the next round, enter or correct results (referees),
//! withdraw players (with the Art. 28 ruling shown), publish, export (standings and pairings CSV,
//! `.h9`) and print pairing sheets, result slips and standings.
//!
//! Every command goes through the tournament's `TournamentService` server with the session's token, so
//! the desk has no permission model of its own: an organiser or referee of the event may act, anyone else
//! is refused with the service's reason. Each form carries a request id made when it was drawn, so a
//! form sent twice (a double click, a reload) is one command.
//!
//! One file per desk concern: [`list`] (the tournaments and the create form), [`create`] (the create
//! form read into a request), [`page`] (a tournament's desk page: state, forms, explanations, the
//! Art. 28 rulings), [`act`] (the page's commands, each a typed form), [`export`] (files),
//! [`print`] (sheets), [`import`] (registration files and OpenGotha, with a preview), [`explain`]
//! (a pairing's explanation in the page's language) and [`ratings`] (EGD rating lists and `.h9`
//! tables); this file holds what they share (who may use the desk, reading a tournament, waiting for
//! the read model).

use axum::http::StatusCode;
use maud::{Markup, html};
use weiqi_aggregate::RejectionKind;
use weiqi_edge::auth::Role;
use weiqi_tournament::api::TournamentApi;
use weiqi_tournament::settings::GameSettings;
use weiqi_tournament::views;

use crate::Web;
use crate::i18n::{Lang, t, ta};
use crate::pages::{refused_text, request_id};
use crate::session::{Member, Viewer};

pub mod act;
mod create;
pub(crate) mod explain;
mod export;
mod facts;
pub(crate) mod import;
mod list;
mod page;
mod players;
mod print;
pub(crate) mod ratings;
mod settings;

pub use create::{create, create_request};
pub use export::export;
pub use list::list;
pub use page::{page_get, render};
pub use print::print;

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
fn draw_allowed(settings: &Option<GameSettings>, handicap: u32) -> bool {
    if handicap > 0 {
        return true;
    }
    settings.as_ref().is_none_or(|s| s.ruleset.komi.0 % 2 == 0)
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

/// The tournament's API, when this process runs the tournament service.
fn service(web: &Web) -> Option<&TournamentApi> {
    web.tournaments.as_ref()
}

/// A number of a form, checked: empty is 0; otherwise at most 10,000, else refused naming the field
/// (`desk-field-{name}`) in the page's language.
fn number(value: &str, name: &str, lang: Lang) -> Result<u32, String> {
    let v = value.trim();
    if v.is_empty() {
        return Ok(0);
    }
    v.parse::<u32>()
        .ok()
        .filter(|n| *n <= 10_000)
        .ok_or_else(|| ta(lang, "desk-bad-number", &[("field", t(lang, &format!("desk-field-{name}")))]))
}

/// A bye's kind as the forms name it (`full`, `half`, `zero`).
fn bye_kind(value: &str) -> weiqi_pairing::config::ByeKind {
    use weiqi_pairing::config::ByeKind;
    match value {
        "half" => ByeKind::HalfPoint,
        "zero" => ByeKind::ZeroPoint,
        _ => ByeKind::FullPoint,
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

/// What the desk shows of a tournament, read through the gateway with the session's token.
pub struct Loaded {
    /// The summary.
    pub summary: views::Summary,
    /// The standings, once there are any.
    pub standings: Option<views::Standings>,
    /// Every paired round's pairings, oldest first.
    pub rounds: Vec<views::Pairings>,
}

/// Reads the summary, standings and every round of `id`, through the tournament's API.
///
/// # Errors
/// The refusal, in the page's language, with its HTTP status.
pub async fn load(web: &Web, id: &str, lang: Lang) -> Result<Loaded, (StatusCode, String)> {
    let s = service(web).ok_or((StatusCode::NOT_FOUND, t(lang, "tournament-not-found")))?;
    let summary = match s.summary(id, 0).await {
        Ok(summary) => summary,
        Err(e) if matches!(e.kind(), Some(RejectionKind::NotFound | RejectionKind::InvalidArgument)) => {
            return Err((StatusCode::NOT_FOUND, t(lang, "tournament-not-found")));
        }
        Err(e) => return Err((StatusCode::SERVICE_UNAVAILABLE, refused_text(lang, &e))),
    };
    let standings = s.standings(id, 0, 0, 0).await.ok();
    let mut rounds = Vec::new();
    for round in 1..=summary.rounds_paired {
        if let Ok(p) = s.pairings(id, round, 0).await {
            rounds.push(p);
        }
    }
    Ok(Loaded { summary, standings, rounds })
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

/// Waits (up to three seconds) until the read model has folded the tournament's log up to
/// `reached`, so the page drawn after a command shows what it did.
pub async fn settle(web: &Web, id: &str, reached: u64) {
    if let Some(s) = service(web) {
        // Read your writes: the read is answered once the read model has folded the position.
        let _ = s.summary(id, reached).await;
    }
}
