//! `/`: home and lobby. Everyone sees the live games (players, ranks, move number, clocks); a member
//! also sees their own games, their next paired tournament game with its start time, the challenges
//! open to them, and the form to offer one. `GET /lobby/live` tells the page (Server-Sent Events)
//! when something changed, and `lobby.js` fetches the lobby again.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};
use serde::Deserialize;
use weiqi_game::domain::{GameState, Phase};
use weiqi_rules::PRESET_NAMES;

use super::{clock_text, csrf_field, csrf_refused, message, page, redirect};
use crate::Web;
use crate::challenges::{Challenge, ChallengeError, ColorChoice, FormError, TimeChoice, TimeSpec};
use crate::i18n::{Lang, rank_text, refusal, t, ta};
use crate::index::Listed;
use crate::session::{Member, Viewer, csrf_ok};

/// How many live games the lobby lists.
const LIVE_LIMIT: usize = 50;

fn phase_key(p: Phase) -> &'static str {
    match p {
        Phase::New => "phase-new",
        Phase::Nigiri => "phase-nigiri",
        Phase::Ready => "phase-ready",
        Phase::Playing => "phase-playing",
        Phase::Paused => "phase-paused",
        Phase::Adjourned => "phase-adjourned",
        Phase::Scoring => "phase-scoring",
        Phase::Ended => "phase-ended",
    }
}

fn player_cell(
    lang: Lang,
    p: Option<&weiqi_game::domain::PlayerRef>,
    fallback: &weiqi_game::domain::PlayerRef,
) -> Markup {
    let p = p.unwrap_or(fallback);
    let shown = if p.name.is_empty() { &p.id.0 } else { &p.name };
    html! { span.player { (shown) @if !p.rank.is_empty() { " " span.rank { (rank_text(lang, &p.rank)) } } } }
}

fn clocks(state: &GameState) -> Option<(String, String)> {
    let clock = state.clock.as_ref().filter(|c| c.control().system != weiqi_clock::TimeSystem::NoClock)?;
    let reading = clock.reading(crate::now());
    let side = |s| {
        let r = reading.side(s);
        let main = r.bank.main.0;
        if main > 0 { clock_text(main) } else { format!("{} ×{}", clock_text(r.bank.period_left.0), r.periods_left) }
    };
    Some((side(weiqi_clock::Side::Black), side(weiqi_clock::Side::White)))
}

/// The games as `viewer` may see them: a delayed game's spectator sees neither its move number nor
/// its clocks, only that it is delayed (issue 34 item 1).
fn games_table(viewer: &Viewer, games: &[Listed], caption: &str) -> Markup {
    let lang = viewer.lang;
    html! {
        div.table-wrap {
            table.games {
                caption { (caption) }
                thead { tr {
                    th scope="col" { (t(lang, "black")) } th scope="col" { (t(lang, "white")) }
                    th scope="col" { (t(lang, "col-size")) } th scope="col" { (t(lang, "col-move")) }
                    th scope="col" { (t(lang, "col-clocks")) } th scope="col" { (t(lang, "col-state")) }
                } }
                tbody {
                    @for g in games {
                        @let setup = g.state.setup.as_deref();
                        @if let Some(s) = setup {
                            tr data-game=(g.id) {
                                td { a href={ "/games/" (g.id) } { (player_cell(lang, g.state.black.as_ref(), &s.first)) } }
                                td { a href={ "/games/" (g.id) } { (player_cell(lang, g.state.white.as_ref(), &s.second)) } }
                                td { (s.size) "×" (s.size) }
                                @if crate::live::delayed_for(viewer, &g.state) {
                                    td data-delayed { (s.spectator_delay.map(|d| crate::i18n::ta(lang, "lobby-delayed", &[("delay", crate::words::delay(lang, d))])).unwrap_or_default()) }
                                    td.mono { "—" }
                                } @else {
                                    td { (g.state.move_number) }
                                    td.mono { @if let Some((b, w)) = clocks(&g.state) { (b) " / " (w) } @else { "—" } }
                                }
                                td {
                                    @if let Some(r) = &g.state.result { (crate::words::result(lang, r)) }
                                    @else { (t(lang, phase_key(g.state.phase))) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn time_label(lang: Lang, c: TimeChoice) -> String {
    t(lang, &format!("time-{}", c.key()))
}

fn challenge_form(lang: Lang, viewer: &Viewer, error: Option<&str>, shared: bool) -> Markup {
    let d = TimeSpec::default();
    html! {
        section.card id="challenge" {
            h2 { (t(lang, "challenge-new")) }
            @if let Some(e) = error { p.error data-error="challenge" role="alert" { (e) } }
            form.grid method="post" action="/challenges" {
                (csrf_field(viewer))
                label { (t(lang, "field-opponent")) input name="to" autocapitalize="none" placeholder=(t(lang, "challenge-anyone")); }
                label { (t(lang, "field-size"))
                    select name="size" { @for n in [19u32, 13, 9] { option value=(n) selected[n == 19] { (n) "×" (n) } } }
                }
                label { (t(lang, "field-rules"))
                    select name="rules" { @for r in PRESET_NAMES { option value=(r) selected[*r == "chinese"] { (t(lang, &format!("rules-{r}"))) } } }
                }
                label { (t(lang, "field-color"))
                    select name="color" {
                        option value="nigiri" selected { (t(lang, "color-nigiri")) }
                        option value="black" { (t(lang, "color-black")) }
                        option value="white" { (t(lang, "color-white")) }
                    }
                }
                label { (t(lang, "field-handicap")) input name="handicap" type="number" min="0" max="9" value="0"; }
                label { (t(lang, "komi")) input name="komi" type="number" step="0.5" min="-50" max="50" placeholder=(t(lang, "komi-default")); }
                label { (t(lang, "field-time"))
                    select name="time" data-time-system { @for c in TimeChoice::ALL { option value=(c.key()) selected[c == d.system] { (time_label(lang, c)) } } }
                }
                // Only the chosen system's fields are shown (lobby.js), each in that system's words; every
                // field has a name of its own, so the hidden ones ask nothing.
                @let shown = |systems: &[TimeChoice]| !systems.contains(&d.system);
                fieldset data-time-for="chinese japanese canadian moves-per-period fischer absolute" hidden[shown(&[TimeChoice::Chinese, TimeChoice::Japanese, TimeChoice::Canadian, TimeChoice::MovesPerPeriod, TimeChoice::Fischer, TimeChoice::Absolute])] {
                    legend { (t(lang, "field-main-time")) }
                    label { (t(lang, "field-main-minutes")) input name="main_minutes" type="number" min="0" max="600" value=(d.main_minutes); }
                    label { (t(lang, "field-main-extra-seconds")) input name="main_seconds" type="number" min="0" max="59" value=(d.main_seconds); }
                }
                fieldset data-time-for="chinese" hidden[shown(&[TimeChoice::Chinese])] {
                    legend { (t(lang, "time-chinese")) }
                    label { (t(lang, "field-reserved-minutes")) input name="reserved_minutes" type="number" min="1" max="60" value=(d.periods); }
                    p.small { (t(lang, "time-chinese-help")) }
                }
                fieldset data-time-for="japanese" hidden[shown(&[TimeChoice::Japanese])] {
                    legend { (t(lang, "time-japanese")) }
                    label { (t(lang, "field-periods")) input name="periods" type="number" min="1" max="60" value=(d.periods); }
                    label { (t(lang, "field-period-seconds")) input name="period_seconds" type="number" min="5" max="3600" value=(d.period_seconds); }
                }
                fieldset data-time-for="canadian moves-per-period" hidden[shown(&[TimeChoice::Canadian, TimeChoice::MovesPerPeriod])] {
                    legend { (t(lang, "field-overtime")) }
                    label { (t(lang, "field-moves")) input name="moves" type="number" min="1" max="100" value=(d.moves); }
                    label { (t(lang, "field-block-seconds")) input name="block_seconds" type="number" min="5" max="3600" value=(d.period_seconds * 10); }
                }
                label { (t(lang, "field-absence-claim")) input name="absence_claim_seconds" type="number" min="30" max="600" placeholder="180"; }
                fieldset data-time-for="fischer" hidden[shown(&[TimeChoice::Fischer])] {
                    legend { (t(lang, "time-fischer")) }
                    label { (t(lang, "field-increment")) input name="increment_seconds" type="number" min="0" max="600" value=(d.increment_seconds); }
                }
                label.check { input type="checkbox" name="rated" value="on"; " " (t(lang, "field-rated")) }
                p.small { (t(lang, "field-rated-help")) }
                button type="submit" data-action="challenge" { (t(lang, "challenge-offer")) }
            }
            p.small { (t(lang, if shared { "challenge-shared-note" } else { "challenge-memory-note" })) }
        }
    }
}

/// The challenge's time control as exactly as the game will have it ("基本用时10分，留3分钟读秒").
fn exact_time(lang: Lang, time: &TimeSpec) -> String {
    match time.to_control() {
        Ok(control) => {
            format!("{} · {}", time_label(lang, time.system), crate::words::time_system(lang, &control.system))
        }
        Err(_) => time_label(lang, time.system),
    }
}

/// The challenge's terms; `mine`: read by the challenger ("I take Black"), else by the one offered it
/// ("the challenger takes Black").
fn describe(lang: Lang, c: &Challenge, mine: bool) -> String {
    let komi = c.komi_half_points.map_or_else(|| t(lang, "komi-default"), |k| format!("{}", f64::from(k) / 2.0));
    let rated = t(lang, if c.rated { "game-rated" } else { "game-unrated" });
    let terms = ta(
        lang,
        "challenge-terms",
        &[
            ("size", c.size.to_string()),
            ("rules", t(lang, &format!("rules-{}", c.rules))),
            ("handicap", c.handicap.to_string()),
            ("komi", komi),
            ("time", exact_time(lang, &c.time)),
            (
                "color",
                t(
                    lang,
                    match c.color {
                        ColorChoice::Nigiri => "color-nigiri",
                        ColorChoice::Black if mine => "color-black",
                        ColorChoice::White if mine => "color-white",
                        ColorChoice::Black => "color-challenger-black",
                        ColorChoice::White => "color-challenger-white",
                    },
                ),
            ),
        ],
    );
    format!("{rated} · {terms}")
}

/// The open-seek list's rank band (`/?from=5k&to=2d`): open challenges whose challenger's registry
/// rank is within it. Either end may be left open; an unreadable rank is no bound.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Band {
    #[serde(default)]
    from: String,
    #[serde(default)]
    to: String,
}

type PairingRank = weiqi_pairing::rank::Rank;

impl Band {
    fn bound(s: &str) -> Option<i32> {
        s.trim().parse::<PairingRank>().ok().map(PairingRank::value)
    }

    /// Whether a band is asked for at all.
    fn set(&self) -> bool {
        Band::bound(&self.from).is_some() || Band::bound(&self.to).is_some()
    }

    /// Whether a challenger of rank `rank` is in the band (an unranked challenger is in no band).
    fn holds(&self, rank: &str) -> bool {
        if !self.set() {
            return true;
        }
        let Some(v) = Band::bound(rank) else { return false };
        let (lo, hi) = match (Band::bound(&self.from), Band::bound(&self.to)) {
            (Some(a), Some(b)) => (a.min(b), a.max(b)),
            (a, b) => (a.unwrap_or(i32::MIN), b.unwrap_or(i32::MAX)),
        };
        (lo..=hi).contains(&v)
    }
}

/// The ranks the band's selects offer, weakest first: 30 kyu … 1 kyu, 1 dan … 9 dan.
fn band_ranks() -> impl Iterator<Item = String> {
    (1..=30).rev().map(|k| format!("{k}k")).chain((1..=9).map(|d| format!("{d}d")))
}

fn band_form(lang: Lang, band: &Band) -> Markup {
    let select = |name: &str, chosen: &str, any: &str| {
        html! {
            select name=(name) {
                option value="" selected[chosen.is_empty()] { (t(lang, any)) }
                @for r in band_ranks() { option value=(r) selected[r == chosen] { (rank_text(lang, &r)) } }
            }
        }
    };
    html! {
        form.inline.band method="get" action="/" data-band {
            label { (t(lang, "band-from")) " " (select("from", band.from.trim(), "band-any")) }
            " "
            label { (t(lang, "band-to")) " " (select("to", band.to.trim(), "band-any")) }
            " " button type="submit" data-action="band" { (t(lang, "band-apply")) }
        }
    }
}

fn challenges_list(lang: Lang, web: &Web, viewer: &Viewer, member: &Member, band: &Band) -> Markup {
    // Open seeks outside the band are left out; offers to the viewer and the viewer's own always show.
    let all = web.challenges.visible_to(member.name());
    let (list, hidden): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|c| c.to.is_some() || c.by == member.name() || band.holds(&c.by_rank));
    let shown = |name: &str| web.index.account(name).map(|a| a.display_name).filter(|n| !n.is_empty());
    html! {
        section.card id="challenges" {
            h2 { (t(lang, "challenges-title")) }
            (band_form(lang, band))
            @if list.is_empty() { p.small { (t(lang, "challenges-none")) } }
            @if !hidden.is_empty() { p.small data-band-hidden=(hidden.len()) { (ta(lang, "band-hidden", &[("n", hidden.len().to_string())])) } }
            ul.challenges {
                @for c in &list {
                    // The challenger's name with their rank beside it ("李明 业余2段").
                    @let name = shown(&c.by).unwrap_or_else(|| c.by.clone());
                    @let by = if c.by_rank.is_empty() { name } else { format!("{name} {}", rank_text(lang, &c.by_rank)) };
                    li data-challenge=(c.id) data-by=(c.by) data-mine[c.by == member.name()] data-rated[c.rated] data-rank=(c.by_rank) {
                        span {
                            @if c.by == member.name() {
                                (ta(lang, "challenge-yours", &[("to", c.to.clone().unwrap_or_else(|| t(lang, "challenge-anyone")))]))
                            } @else if c.to.is_none() {
                                // An open offer is to anyone, not to the one reading it.
                                (ta(lang, "challenge-open-from", &[("by", by.clone())]))
                            } @else {
                                (ta(lang, "challenge-from", &[("by", by.clone())]))
                            }
                            " — " (describe(lang, c, c.by == member.name()))
                        }
                        @if c.by == member.name() {
                            form.inline method="post" action={ "/challenges/" (c.id) "/cancel" } {
                                (csrf_field(viewer)) button type="submit" data-action="cancel" { (t(lang, "challenge-cancel")) }
                            }
                        } @else {
                            form.inline method="post" action={ "/challenges/" (c.id) "/accept" } {
                                (csrf_field(viewer)) button type="submit" data-action="accept-challenge" { (t(lang, "challenge-accept")) }
                            }
                            @if c.to.as_deref() == Some(member.name()) {
                                form.inline method="post" action={ "/challenges/" (c.id) "/decline" } {
                                    (csrf_field(viewer)) button type="submit" data-action="decline" { (t(lang, "challenge-decline")) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn next_paired(lang: Lang, web: &Web, member: &Member) -> Markup {
    let name = member.name().to_string();
    let next = web.index.games(1, |g| {
        g.seats(&name)
            && g.state.setup.as_ref().is_some_and(|s| s.tournament.is_some())
            && matches!(g.state.phase, Phase::New | Phase::Nigiri | Phase::Ready)
    });
    html! {
        @if let Some(g) = next.first() {
            @let s = g.state.setup.as_deref().expect("seated games have a setup");
            @let tournament = s.tournament.as_ref().expect("filtered on it");
            section.card.next {
                h2 { (t(lang, "next-game")) }
                p {
                    a href={ "/games/" (g.id) } {
                        (ta(lang, "next-game-line", &[
                            ("tournament", tournament.id.clone()),
                            ("round", tournament.round.to_string()),
                            ("board", tournament.board.to_string()),
                        ]))
                    }
                    @if let Some(at) = s.scheduled_start {
                        " · " time datetime=(at.0) data-time=(at.0) { (ta(lang, "starts-at", &[("ms", at.0.to_string())])) }
                    }
                }
            }
        }
    }
}

/// The lobby's content (also what `lobby.js` fetches again).
fn lobby(web: &Web, viewer: &Viewer, band: &Band) -> Markup {
    let lang = viewer.lang;
    let live = web.index.games(LIVE_LIMIT, Listed::live);
    html! {
        div id="lobby" {
            @if let Some(m) = &viewer.member {
                (next_paired(lang, web, m))
                @let mine = web.index.games(20, |g| g.seats(m.name()));
                section.card id="my-games" {
                    h2 { (t(lang, "my-games")) }
                    @if mine.is_empty() { p.small { (t(lang, "my-games-none")) } } @else { (games_table(viewer, &mine, &t(lang, "my-games"))) }
                }
                (challenges_list(lang, web, viewer, m, band))
            } @else {
                section.card.welcome {
                    h1 { (t(lang, "welcome-title")) }
                    p { (t(lang, "welcome-text")) " " a href="/login" { (t(lang, "login")) } }
                }
            }
            section.card id="live-games" {
                h2 { (t(lang, "live-games")) }
                @if live.is_empty() { p.small { (t(lang, "live-games-none")) } } @else {
                    (games_table(viewer, &live, &t(lang, "live-games")))
                    p { a href={ "/watch?games=" (live.iter().take(4).map(|g| g.id.as_str()).collect::<Vec<_>>().join(",")) } { (t(lang, "watch-several")) } }
                }
            }
        }
    }
}

/// `GET /` (with `?from=&to=`, the open-seek list's rank band).
pub async fn home(State(web): State<Arc<Web>>, viewer: Viewer, Query(band): Query<Band>) -> Response {
    render(&web, &viewer, None, &band).await
}

/// The top of the leaderboard, for the home page (nothing when the ranking service is not there).
async fn leaders(web: &Web, lang: Lang) -> Markup {
    let Some(r) = web.ranking.clone() else { return html! {} };
    let Ok(board) = r.leaderboard("", "", 0, 5, 0).await else {
        return html! {};
    };
    html! {
        @if !board.entries.is_empty() {
            section.card id="leaders" {
                h2 { (t(lang, "leaderboard-title")) }
                ol { @for e in &board.entries {
                    li data-player=(e.player_id) {
                        a href={ "/players/" (e.player_id) } { (if e.name_zh.is_empty() { &e.player_id } else { &e.name_zh }) }
                        " " span.rank data-column="rank" data-value=(e.rank) { (rank_text(lang, &e.rank)) }
                        " · " span.mono data-column="rating" data-value=(e.rating) { (format!("{:.0}", e.rating)) }
                    }
                } }
                p.small { a href="/players" { (t(lang, "leaderboard-more")) } }
            }
        }
    }
}

/// The home page with a form's refusal (no rank band).
async fn render_error(web: &Web, viewer: &Viewer, error: Option<&str>) -> Response {
    render(web, viewer, error, &Band::default()).await
}

/// A player is told when the platform opened a promotion case for them from their results (issue 33
/// item 6): the office decides, and the case is followed on the rank page.
async fn promotion_notice(web: &Web, viewer: &Viewer) -> Markup {
    let lang = viewer.lang;
    let (Some(m), Some(r)) = (&viewer.member, &web.ranking) else { return html! {} };
    let Ok(cases) = r.my_cases(&m.claims).await else { return html! {} };
    // Opened by the platform's ranking service (no one's account), not by an organiser for the player.
    let open: Vec<_> = cases
        .iter()
        .filter(|c| {
            c.player_id == m.name()
                && c.applicant == "organiser"
                && web.index.account(&c.opened_by).is_none()
                && c.status.is_open()
        })
        .collect();
    html! {
        @for c in open {
            section.card.notice data-promotion-case=(c.case_id) role="status" {
                p {
                    (ta(lang, "promotion-opened", &[("grade", crate::i18n::grade_text(lang, &c.ladder, &c.requested_grade))]))
                    " " a href="/account/rank" { (t(lang, "promotion-follow")) }
                }
            }
        }
    }
}

async fn render(web: &Web, viewer: &Viewer, error: Option<&str>, band: &Band) -> Response {
    let lang = viewer.lang;
    let leaders = leaders(web, lang).await;
    let promotion = promotion_notice(web, viewer).await;
    let body = html! {
        (promotion)
        (lobby(web, viewer, band))
        @if viewer.member.is_some() { (challenge_form(lang, viewer, error, web.challenges.shared())) }
        (leaders)
    };
    page(web, viewer, &t(lang, "nav-home"), body, &["lobby.js"])
}

/// `GET /lobby/live`: an event whenever a game or an account changes (at most two a second).
pub async fn lobby_stream(State(web): State<Arc<Web>>) -> Response {
    let changes = web.index.changes();
    let stream = futures::stream::unfold(changes, |mut rx| async move {
        rx.changed().await.ok()?;
        tokio::time::sleep(Duration::from_millis(500)).await;
        rx.borrow_and_update();
        Some((Ok::<_, Infallible>(Event::default().event("changed").data("lobby")), rx))
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))).into_response()
}

/// The challenge form.
#[derive(Deserialize)]
pub struct ChallengeForm {
    #[serde(default)]
    to: String,
    size: u32,
    rules: String,
    color: String,
    #[serde(default)]
    handicap: String,
    #[serde(default)]
    komi: String,
    time: String,
    #[serde(default)]
    main_minutes: String,
    #[serde(default)]
    main_seconds: String,
    #[serde(default)]
    reserved_minutes: String,
    #[serde(default)]
    periods: String,
    #[serde(default)]
    block_seconds: String,
    #[serde(default)]
    period_seconds: String,
    #[serde(default)]
    moves: String,
    #[serde(default)]
    increment_seconds: String,
    #[serde(default)]
    absence_claim_seconds: String,
    #[serde(default)]
    rated: String,
    #[serde(default)]
    csrf: String,
}

fn number(field: &'static str, s: &str, default: u32, max: u32) -> Result<u32, FormError> {
    if s.trim().is_empty() {
        return Ok(default);
    }
    s.trim().parse::<u32>().ok().filter(|n| *n <= max).ok_or(FormError::OutOfRange { field, min: 0, max: max.into() })
}

fn form_error(lang: Lang, e: &FormError) -> String {
    match e {
        FormError::OutOfRange { field, min, max } => ta(
            lang,
            "form-out-of-range",
            &[("field", t(lang, field)), ("min", min.to_string()), ("max", max.to_string())],
        ),
        FormError::Unknown(field) => ta(lang, "form-unknown", &[("field", t(lang, field))]),
        FormError::Yourself => t(lang, "challenge-yourself"),
        FormError::NoSuchPlayer => t(lang, "challenge-no-such-player"),
        FormError::RatedNeeds => t(lang, "challenge-rated-needs"),
    }
}

fn parse_challenge(web: &Web, by: &str, f: &ChallengeForm) -> Result<Challenge, FormError> {
    let to = Some(f.to.trim().to_string()).filter(|s| !s.is_empty());
    if let Some(to) = &to {
        if to == by {
            return Err(FormError::Yourself);
        }
        if web
            .index
            .account(to)
            .is_none_or(|a| a.disabled.is_some() || !a.roles.iter().any(|r| r == "player" || r == "admin"))
        {
            return Err(FormError::NoSuchPlayer);
        }
    }
    if !matches!(f.size, 2..=25) {
        return Err(FormError::OutOfRange { field: "field-size", min: 2, max: 25 });
    }
    if !PRESET_NAMES.contains(&f.rules.as_str()) {
        return Err(FormError::Unknown("field-rules"));
    }
    let color = match f.color.as_str() {
        "nigiri" => ColorChoice::Nigiri,
        "black" => ColorChoice::Black,
        "white" => ColorChoice::White,
        _ => return Err(FormError::Unknown("field-color")),
    };
    let handicap = number("field-handicap", &f.handicap, 0, 9)?;
    if handicap == 1 {
        return Err(FormError::OutOfRange { field: "field-handicap", min: 2, max: 9 });
    }
    let komi_half_points = if f.komi.trim().is_empty() {
        None
    } else {
        let k: f64 = f.komi.trim().parse().map_err(|_| FormError::OutOfRange { field: "komi", min: -50, max: 50 })?;
        if !(-50.0..=50.0).contains(&k) || (k * 2.0).fract() != 0.0 {
            return Err(FormError::OutOfRange { field: "komi", min: -50, max: 50 });
        }
        #[allow(clippy::cast_possible_truncation)]
        Some((k * 2.0) as i32)
    };
    let system = TimeChoice::parse(&f.time).ok_or(FormError::Unknown("field-time"))?;
    let d = TimeSpec::default();
    // Each system reads its own fields: the reserved minutes are Chinese byo-yomi's periods, the block's
    // seconds Canadian and moves-per-period's.
    let (periods, period_seconds) = match system {
        TimeChoice::Chinese => {
            (number("field-reserved-minutes", &f.reserved_minutes, d.periods, 60)?, d.period_seconds)
        }
        TimeChoice::Canadian | TimeChoice::MovesPerPeriod => {
            (d.periods, number("field-block-seconds", &f.block_seconds, d.period_seconds * 10, 3600)?)
        }
        _ => (
            number("field-periods", &f.periods, d.periods, 60)?,
            number("field-period-seconds", &f.period_seconds, d.period_seconds, 3600)?,
        ),
    };
    let time = TimeSpec {
        system,
        main_minutes: number("field-main-minutes", &f.main_minutes, d.main_minutes, 600)?,
        main_seconds: number("field-main-extra-seconds", &f.main_seconds, 0, 59)?,
        periods,
        period_seconds,
        moves: number("field-moves", &f.moves, d.moves, 100)?,
        increment_seconds: number("field-increment", &f.increment_seconds, d.increment_seconds, 600)?,
    };
    time.check()?;
    // How long an opponent may be away before the win may be claimed: 30 s (OGS) to 10 minutes.
    let absence_claim_seconds = if f.absence_claim_seconds.trim().is_empty() {
        None
    } else {
        let s = number("field-absence-claim", &f.absence_claim_seconds, 180, 600)?;
        if s < 30 {
            return Err(FormError::OutOfRange { field: "field-absence-claim", min: 30, max: 600 });
        }
        Some(s)
    };
    let rated = !f.rated.trim().is_empty();
    if rated && (f.size != 19 || system == TimeChoice::None) {
        return Err(FormError::RatedNeeds);
    }
    Ok(Challenge {
        id: uuid::Uuid::new_v4().to_string(),
        by: by.to_string(),
        to,
        size: f.size,
        rules: f.rules.clone(),
        handicap,
        komi_half_points,
        absence_claim_seconds,
        color: if handicap > 0 && color == ColorChoice::Nigiri { ColorChoice::White } else { color },
        time,
        rated,
        by_rank: String::new(),
    })
}

/// `POST /challenges`.
pub async fn create_challenge(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    headers: HeaderMap,
    Form(form): Form<ChallengeForm>,
) -> Response {
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    let Some(m) = &viewer.member else { return redirect("/login", vec![]) };
    if !m.has(weiqi_edge::auth::Role::Player) {
        return message(&web, &viewer, StatusCode::FORBIDDEN, &t(viewer.lang, "refusal-not-a-player"));
    }
    match parse_challenge(&web, m.name(), &form) {
        Ok(mut c) => {
            c.by_rank = registry_rank(&web, m.name()).await;
            if let Err(e) = web.challenges.offer(c).await {
                tracing::warn!("{e}");
                return message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(viewer.lang, "refusal-unavailable"));
            }
            web.index.poke();
            redirect("/#challenges", vec![])
        }
        Err(e) => {
            let mut r = render_error(&web, &viewer, Some(&form_error(viewer.lang, &e))).await;
            *r.status_mut() = StatusCode::BAD_REQUEST;
            r
        }
    }
}

/// A challenge answer's form.
#[derive(Deserialize)]
pub struct AnswerForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /challenges/{id}/{accept|decline|cancel}`.
pub async fn answer_challenge(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path((id, verb)): Path<(String, String)>,
    headers: HeaderMap,
    Form(form): Form<AnswerForm>,
) -> Response {
    let lang = viewer.lang;
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    let Some(m) = viewer.member.clone() else { return redirect("/login", vec![]) };
    let gone = async |e: ChallengeError| {
        let key = match e {
            ChallengeError::Gone => "challenge-gone",
            ChallengeError::NotYours => "challenge-not-yours",
        };
        let mut r = render_error(&web, &viewer, Some(&t(lang, key))).await;
        *r.status_mut() = StatusCode::CONFLICT;
        r
    };
    let unavailable = |e: crate::challenges::StoreError| {
        tracing::warn!("{e}");
        message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable"))
    };
    match verb.as_str() {
        "accept" => {
            let c = match web.challenges.take_for(&id, m.name()).await {
                Ok(Ok(c)) => c,
                Ok(Err(e)) => return gone(e).await,
                Err(e) => return unavailable(e),
            };
            match create_game(&web, lang, &m, &c).await {
                Ok(game) => {
                    web.index.poke();
                    redirect(&format!("/games/{game}"), vec![])
                }
                Err(why) => {
                    if let Err(e) = web.challenges.put_back(c).await {
                        tracing::warn!("a challenge whose game could not be made is lost: {e}");
                    }
                    let mut r = render_error(&web, &viewer, Some(&why)).await;
                    *r.status_mut() = StatusCode::CONFLICT;
                    r
                }
            }
        }
        "decline" | "cancel" => match web.challenges.withdraw(&id, m.name(), verb == "cancel").await {
            Ok(Ok(_)) => {
                web.index.poke();
                redirect("/#challenges", vec![])
            }
            Ok(Err(e)) => gone(e).await,
            Err(e) => unavailable(e),
        },
        _ => message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "not-found")),
    }
}

/// A member's rank in the player registry now ("" when not registered or no ranking service).
async fn registry_rank(web: &Web, name: &str) -> String {
    match &web.ranking {
        Some(r) => r.registry_player(name).await.map(|p| p.rank).unwrap_or_default(),
        None => String::new(),
    }
}

/// Creates the challenge's game as `accepter`, through the game's API: the challenger's offer (they
/// must still hold the player role now), then the acceptance. Its id, or the refusal in words.
async fn create_game(web: &Web, lang: Lang, accepter: &Member, c: &Challenge) -> Result<String, String> {
    use weiqi_game::domain::{ColorMethod, GameSetup, PlayerId, PlayerRef};
    // Each player with their shown name and their rank in the registry now (frozen in the game, as an
    // event's games freeze theirs), so the rank stands beside the name wherever the game is shown.
    let rank = async |name: &str| registry_rank(web, name).await;
    let player = |name: &str, rank: String| {
        let shown = web.index.account(name).map(|a| a.display_name).unwrap_or_default();
        PlayerRef { id: PlayerId(name.to_string()), name: shown, rank }
    };
    let (challenger, taker) = (player(&c.by, rank(&c.by).await), player(accepter.name(), rank(accepter.name()).await));
    let (first, second, color_method) = match c.color {
        ColorChoice::Nigiri => (challenger, taker, ColorMethod::Nigiri),
        ColorChoice::Black => (challenger, taker, ColorMethod::Fixed),
        ColorChoice::White => (taker, challenger, ColorMethod::Fixed),
    };
    let bad = || refusal(lang, "bad_request", "");
    let mut ruleset = weiqi_rules::Ruleset::preset(&c.rules).ok_or_else(bad)?;
    ruleset.komi = weiqi_rules::Komi(match c.komi_half_points {
        Some(k) => k,
        None if c.handicap >= 1 => 0,
        None => ruleset.komi.0,
    });
    let sizes = u32::from(weiqi_rules::MIN_SIZE)..=u32::from(weiqi_rules::MAX_SIZE);
    let (Some(size), Ok(handicap)) =
        (u8::try_from(c.size).ok().filter(|s| sizes.contains(&u32::from(*s))), u8::try_from(c.handicap))
    else {
        return Err(bad());
    };
    let setup = GameSetup {
        ruleset,
        size,
        handicap,
        handicap_points: Vec::new(),
        first,
        second,
        color_method,
        time_control: c.time.to_control().map_err(|_| bad())?,
        tournament: None,
        event_id: None,
        scheduled_start: None,
        rated: c.rated,
        start_immediately: true,
        lateness_limit: weiqi_clock::DurationMs::from_hours(1),
        absence_claim: c.absence_claim_seconds.map(|s| weiqi_clock::DurationMs(i64::from(s) * 1000)),
        offered_by: None,
        spectator_delay: None,
    };
    // The offer is the challenger's: what their account allows now.
    let offerer = match web.auth.standing(&c.by) {
        Some(s) if !s.disabled => weiqi_game::authority::Caller {
            id: c.by.clone(),
            player: s.roles.contains(&weiqi_edge::auth::Role::Player),
            ..Default::default()
        },
        _ => weiqi_game::authority::Caller { id: c.by.clone(), ..Default::default() },
    };
    // The game takes the challenge's id: the challenger's lobby, seeing its challenge become a game,
    // takes them to it (and a retried acceptance names the same game).
    let game_id = c.id.clone();
    let request_id = format!("challenge-{}", c.id);
    match web.game.accept_offer(&accepter.caller(), &offerer, &game_id, &request_id, setup).await {
        Ok(game) => Ok(game),
        Err(e) if e.kind().is_some() => Err(refusal(lang, e.code(), &e.to_string())),
        Err(_) => Err(t(lang, "refusal-unavailable")),
    }
}

/// `POST /games/{id}/rematch`: a player of a finished casual game offers its opponent the same game
/// again, colours swapped (nigiri stays nigiri), as a challenge the opponent sees in the lobby.
pub async fn rematch(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path(game): Path<String>,
    headers: HeaderMap,
    Form(form): Form<AnswerForm>,
) -> Response {
    let lang = viewer.lang;
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    let Some(m) = viewer.member.clone() else { return redirect("/login", vec![]) };
    let Some(g) = web.index.game(&game) else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "game-not-found"));
    };
    let state = &g.state;
    let (Some(setup), Some(black), Some(white)) = (state.setup.as_deref(), &state.black, &state.white) else {
        return message(&web, &viewer, StatusCode::CONFLICT, &t(lang, "rematch-not-ended"));
    };
    if state.phase != Phase::Ended || setup.tournament.is_some() || setup.event_id.is_some() {
        return message(&web, &viewer, StatusCode::CONFLICT, &t(lang, "rematch-not-ended"));
    }
    let me = m.name();
    let (my_color, opponent) = if black.id.0 == me {
        (ColorChoice::White, white.id.0.clone())
    } else if white.id.0 == me {
        (ColorChoice::Black, black.id.0.clone())
    } else {
        return message(&web, &viewer, StatusCode::FORBIDDEN, &t(lang, "rematch-not-yours"));
    };
    let color =
        if setup.color_method == weiqi_game::domain::ColorMethod::Nigiri { ColorChoice::Nigiri } else { my_color };
    let c = Challenge {
        id: uuid::Uuid::new_v4().to_string(),
        by: me.to_string(),
        to: Some(opponent),
        size: u32::from(setup.size),
        rules: setup.ruleset.preset_name().unwrap_or("chinese").to_string(),
        handicap: u32::from(setup.handicap),
        komi_half_points: Some(setup.ruleset.komi.0),
        absence_claim_seconds: setup.absence_claim.and_then(|d| u32::try_from(d.0 / 1000).ok()),
        color,
        time: TimeSpec::of(&setup.time_control),
        rated: setup.rated,
        by_rank: registry_rank(&web, me).await,
    };
    if let Err(e) = web.challenges.offer(c).await {
        tracing::warn!("{e}");
        return message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable"));
    }
    web.index.poke();
    redirect("/#challenges", vec![])
}
