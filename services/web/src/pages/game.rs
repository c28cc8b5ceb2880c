//! `/games/{id}`: the game page, for its players, for spectators (read-only), and with the referee
//! panel for referees of its event. The page is rendered with the game's current view (so it draws at
//! once), then `game.js` follows `/games/{id}/live` and sends commands to `/games/{id}/act`.
//!
//! Which controls a viewer gets is only a convenience: every command goes through the gateway's checks,
//! so a player who forges a referee request is refused there (and the page shows the refusal).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use maud::html;
use serde_json::json;
use weiqi_eventlog::{AggregateId, AggregateKind, EventLog};
use weiqi_game::convert::fold_recorded;
use weiqi_game::domain::GameState;

use super::{json_block, message};
use crate::Web;
use crate::i18n::{script_strings, t};
use crate::live::{Seat, page_view};
use crate::session::Viewer;

/// The catalogue keys `game.js` uses.
pub const SCRIPT_KEYS: &[&str] = &[
    "black",
    "white",
    "captures",
    "warnings",
    "pass",
    "resign",
    "confirm",
    "cancel",
    "confirm-pass",
    "confirm-resign",
    "confirm-seal",
    "to-move-black",
    "to-move-white",
    "your-turn",
    "reconnecting",
    "reconnected",
    "nigiri-you-guess",
    "nigiri-wait",
    "scoring-help",
    "scoring-accepted-black",
    "scoring-accepted-white",
    "scoring-waiting",
    "scoring-marks-changed",
    "count-line",
    "seal-help",
    "sealed-note",
    "move-number",
    "periods-left",
    "moves-left",
    "byo-yomi",
    "board-label",
    "vertex-empty",
    "vertex-black",
    "vertex-white",
    "vertex-dead",
    "sound-on",
    "sound-off",
    "refusal-unavailable",
    "refusal-signed-out",
    "done",
    "result-label",
    "last-move",
    "guess-even",
    "guess-odd",
    "start-clock",
    "seal",
    "accept-count",
    "dispute-count",
    "rank-dan",
    "rank-kyu",
    "rank-pro",
    "move-pending",
    "paused-tap",
    "time-up",
    "played",
    "main-time-ending",
    "notify-on",
    "notify-off",
    "notify-title",
    "notes-title",
    "tap-again",
    "play-vertex",
    "away",
    "claim-absence",
    "confirm-claim-absence",
    "claim-in",
];

/// The catalogue keys `chat.js` uses.
pub const CHAT_KEYS: &[&str] = &[
    "chat-players",
    "chat-players-off",
    "chat-spectators",
    "chat-placeholder",
    "chat-send",
    "chat-sign-in",
    "chat-report",
    "chat-report-sent",
    "chat-hide",
    "chat-mute",
    "chat-muted",
    "chat-reason",
    "chat-hidden-mark",
    "chat-reported",
];

/// The game's state folded from its log as `viewer` may see it now (`None`: no such game), and
/// whether that is a delayed spectator's view (issue 34 item 1).
async fn state_of(web: &Web, game: &str, viewer: &Viewer) -> Result<Option<(GameState, bool)>, String> {
    let id = AggregateId::new(game).map_err(|e| e.to_string())?;
    let events = web.log.read(AggregateKind::Game, &id, 1).await.map_err(|e| e.to_string())?;
    if events.is_empty() {
        return Ok(None);
    }
    let mut whole = GameState::default();
    for e in &events {
        fold_recorded(&mut whole, e)?;
    }
    if !crate::live::delayed_for(viewer, &whole) {
        return Ok(Some((whole, false)));
    }
    let caller = viewer.member.as_ref().map(crate::session::Member::caller);
    let seen = weiqi_game::delayed::fold_as_seen(&events, caller.as_ref(), crate::now().0)?;
    Ok(Some((seen, true)))
}

/// `GET /games/{id}`.
pub async fn page(State(web): State<Arc<Web>>, viewer: Viewer, Path(game): Path<String>) -> Response {
    let (web, game) = (&*web, game.as_str());
    let lang = viewer.lang;
    let (state, delayed) = match state_of(web, game, &viewer).await {
        Ok(Some(s)) => s,
        Ok(None) => return message(web, &viewer, StatusCode::NOT_FOUND, &t(lang, "game-not-found")),
        Err(e) => {
            tracing::warn!(game = %game, error = %e, "game page");
            return message(web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable"));
        }
    };
    let seat = Seat::of(&viewer, &state);
    let at = if delayed { crate::live::delayed_reading(&state, crate::now()) } else { crate::now() };
    let mut view = page_view(game, lang, &state, &seat, at);
    if delayed {
        crate::live::mark_delayed(&mut view, &state);
    }
    // The chat's rooms this viewer reads and writes in now (the spectators' room is not among a
    // player's until the game ends).
    let who = crate::chat::speaker(web, &viewer, game).await;
    let chat = who.as_ref().map(|w| {
        json!({ "rooms": crate::chat::rooms(w), "write": crate::chat::writable(w), "staff": w.staff, "seated": w.seated, "players_chat_on": w.players_chat_on, "me": viewer.member.as_ref().map(|m| m.name()) })
    });
    let config = json!({
        "game": game,
        "lang": lang.tag(),
        "strings": script_strings(lang, &[SCRIPT_KEYS, CHAT_KEYS, &crate::i18n::PHASE_KEYS].concat()),
        "view": view,
        "chat": chat.unwrap_or_else(|| json!({ "rooms": [], "write": [] })),
    });
    let title = match (&state.black, &state.white, &state.setup) {
        (Some(b), Some(w), _) => format!("{} – {}", b.name_or_id(), w.name_or_id()),
        (_, _, Some(s)) => format!("{} – {}", s.first.name_or_id(), s.second.name_or_id()),
        _ => t(lang, "game-title"),
    };
    let sides = ["black", "white"];
    let body = html! {
        section.game data-game=(game) {
            div.board-wrap data-connection="live" {
                svg id="board" class="board" viewBox="0 0 100 100" role="application" tabindex="0"
                    aria-label=(t(lang, "board-label")) aria-describedby="board-help" {}
                p id="board-help" class="sr-only" { (t(lang, "board-help")) }
            }
            aside.panel {
                h1.title { (title) }
                // The exact time settings, as the clock runs them (issue 32 item 6).
                @if let Some(setup) = state.setup.as_deref() {
                    p.small.time-settings data-time-settings {
                        (crate::words::time_system(lang, &setup.time_control.system))
                        " · " span data-rated=(setup.rated) { (t(lang, if setup.rated { "game-rated" } else { "game-unrated" })) }
                    }
                    @if let Some(d) = setup.spectator_delay.filter(|d| !d.is_live()) {
                        p.small data-spectator-delay=(delayed) { (crate::i18n::ta(lang, "game-delayed", &[("delay", crate::words::delay(lang, d))])) }
                    }
                }
                div.sides {
                    @for side in sides {
                        div.side data-side=(side) {
                            div.who { span.stone-icon.(side) aria-hidden="true" {} span.name {} span.rank {} }
                            div.clock-line {
                                span.clock data-clock=(side) role="timer" aria-live="off" aria-label=(t(lang, side)) { "—" }
                                span.periods {}
                            }
                            div.call aria-live="assertive" {}
                            div.presence aria-live="polite" {}
                            div.small { span.captures {} " " span.warnings {} }
                        }
                    }
                }
                p id="status" class="status" aria-live="polite" {}
                // The opponent's moves (every move, for a spectator), said by screen readers.
                p id="announce" class="sr-only" aria-live="polite" {}
                p id="error" class="error" role="alert" {}
                div id="controls" class="controls" {}
                form id="vertex-entry" class="vertex-entry" autocomplete="off" {
                    label for="vertex-input" { (t(lang, "type-vertex")) }
                    input id="vertex-input" name="vertex" inputmode="text" autocapitalize="characters" placeholder="D4" maxlength="3" pattern="[A-Ta-t][0-9]{1,2}";
                    button type="submit" data-action="play-typed" { (t(lang, "play")) }
                }
                div id="count" class="count" aria-live="polite" {}
                div id="result" class="result-box" {}
                section id="notes" class="notes" aria-live="polite" hidden {
                    h2 { (t(lang, "notes-title")) }
                    ol {}
                }
                details.moves-box open {
                    summary { (t(lang, "moves-title")) }
                    ol id="moves" class="moves" {}
                }
                p.links {
                    a href={ "/games/" (game) "/sgf" } download={ (game) ".sgf" } data-link="sgf" { (t(lang, "link-sgf")) }
                    " · "
                    a href={ "/overlay/" (game) } data-link="overlay" { (t(lang, "link-overlay")) }
                    // The review, once the game has ended (the estimator must not help a game in play).
                    span.review-link hidden[state.phase != weiqi_game::domain::Phase::Ended] {
                        " · " a href={ "/games/" (game) "/review" } data-link="review" { (t(lang, "link-review")) }
                    }
                    @if let Some(tournament) = state.setup.as_ref().and_then(|s| s.tournament.as_ref()) {
                        " · "
                        a href={ "/tournaments/" (tournament.id) } data-link="tournament" { (t(lang, "link-tournament")) }
                    }
                    " · "
                    button type="button" class="link" data-action="mute" aria-pressed="false" { (t(lang, "sound-on")) }
                    " · "
                    button type="button" class="link" data-action="numbers" aria-pressed="false" { (t(lang, "move-numbers")) }
                    " · "
                    button type="button" class="link" data-action="confirm-taps" aria-pressed="false" { (t(lang, "confirm-taps")) }
                    span.notify-wrap {
                        " · "
                        button type="button" class="link" data-action="notify" aria-pressed="false" { (t(lang, "notify-on")) }
                    }
                }
                div id="chat" class="chat-box" hidden {}
                // A finished casual game's players may offer the same game again, colours swapped.
                // (shown once the game has ended: game.js)
                @if state.setup.as_ref().is_some_and(|s| s.tournament.is_none() && s.event_id.is_none())
                    && viewer.member.as_ref().is_some_and(|m| state.setup.as_ref().is_some_and(|s| s.first.id.0 == m.name() || s.second.id.0 == m.name()))
                {
                    form.inline.rematch-form method="post" action={ "/games/" (game) "/rematch" } hidden[state.phase != weiqi_game::domain::Phase::Ended] {
                        (super::csrf_field(&viewer))
                        button type="submit" data-action="rematch" { (t(lang, "rematch")) }
                    }
                }
                @if seat.referee {
                    (referee_panel(lang, seat.chief))
                }
            }
        }
        script type="application/json" id="game-config" { (json_block(&config)) }
    };
    super::page(web, &viewer, &title, body, &["game.js", "chat.js"])
}

trait NameOrId {
    fn name_or_id(&self) -> String;
}

impl NameOrId for weiqi_game::domain::PlayerRef {
    fn name_or_id(&self) -> String {
        if self.name.is_empty() { self.id.0.clone() } else { self.name.clone() }
    }
}

fn referee_panel(lang: crate::i18n::Lang, chief: bool) -> maud::Markup {
    let color_select = |name: &str| {
        html! {
            select name=(name) aria-label=(t(lang, "field-color")) {
                option value="black" { (t(lang, "black")) }
                option value="white" { (t(lang, "white")) }
            }
        }
    };
    html! {
        section id="referee" class="referee card" aria-label=(t(lang, "referee-title")) {
            h2 { (t(lang, "referee-title")) }
            form data-referee="warn" {
                (color_select("color"))
                input name="reason" required maxlength="500" placeholder=(t(lang, "field-reason")) aria-label=(t(lang, "field-reason"));
                button type="submit" data-action="warn" { (t(lang, "referee-warn")) }
            }
            form data-referee="pause" {
                input name="reason" maxlength="500" placeholder=(t(lang, "field-reason")) aria-label=(t(lang, "field-reason"));
                button type="submit" data-action="pause" { (t(lang, "referee-pause")) }
                button type="button" data-action="resume" { (t(lang, "referee-resume")) }
                button type="button" data-action="resume-adjourned" { (t(lang, "referee-resume-adjourned")) }
                button type="button" data-action="start-now" { (t(lang, "referee-start-now")) }
            }
            form data-referee="void" {
                select name="ground" aria-label=(t(lang, "field-ground")) {
                    @for g in ["ko", "forbidden-point", "double-move"] {
                        option value=(g) { (t(lang, &format!("void-ground-{g}"))) }
                    }
                }
                input name="reason" required maxlength="500" placeholder=(t(lang, "field-reason")) aria-label=(t(lang, "field-reason"));
                button type="submit" data-action="void" { (t(lang, "referee-void")) }
                button type="button" data-action="swap" { (t(lang, "referee-swap")) }
            }
            form data-referee="lateness" {
                (color_select("color"))
                input name="minutes" type="number" min="0" max="1440" value="5" aria-label=(t(lang, "field-minutes"));
                button type="submit" data-action="lateness" { (t(lang, "referee-lateness")) }
            }
            form data-referee="correct-clock" {
                fieldset {
                    legend { (t(lang, "referee-correct-clock")) }
                    @for side in ["black", "white"] {
                        label { input type="checkbox" name={ (side) "_on" } checked[!chief]; " " (t(lang, side)) }
                        // Visible labels; the page fills in the side's clock as the referee opens the form.
                        label { (t(lang, "field-main-seconds")) " "
                            input name={ (side) "_main" } type="number" min="0" max="86400" value="600" data-clock-main=(side);
                        }
                        label { (t(lang, "field-periods")) " "
                            input name={ (side) "_periods" } type="number" min="0" max="1000" value="3" data-clock-periods=(side);
                        }
                    }
                    p.small { (t(lang, if chief { "referee-chief-note" } else { "referee-both-sides-note" })) }
                    input name="reason" required maxlength="500" placeholder=(t(lang, "field-reason")) aria-label=(t(lang, "field-reason"));
                    button type="submit" data-action="correct-clock" { (t(lang, "referee-correct")) }
                }
            }
            form data-referee="adjudicate" {
                select name="outcome" aria-label=(t(lang, "field-outcome")) {
                    @for o in ["black", "white", "draw", "both-lose", "no-result", "replay"] {
                        option value=(o) { (t(lang, &format!("outcome-{o}"))) }
                    }
                }
                input name="note" required maxlength="500" placeholder=(t(lang, "field-note")) aria-label=(t(lang, "field-note"));
                button type="submit" data-action="adjudicate" { (t(lang, "referee-adjudicate")) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// Every string the game page's scripts get renders in both languages, with its arguments as
    /// `{name}` placeholders (a message whose argument the scripts are not given would read "Unknown
    /// localization key" on the page).
    #[test]
    fn every_script_string_renders_in_both_languages() {
        for lang in [Lang::ZhCn, Lang::En] {
            let keys = [SCRIPT_KEYS, CHAT_KEYS, super::super::review::SCRIPT_KEYS, &crate::i18n::PHASE_KEYS].concat();
            let strings = script_strings(lang, &keys);
            for (key, text) in strings.as_object().unwrap() {
                let text = text.as_str().unwrap();
                assert!(!text.contains("Unknown localization key") && !text.is_empty(), "{lang:?} {key}: {text}");
            }
        }
    }
}
