//! The public pages of players: the leaderboards (`/players`, by rank band and region) and a player's
//! profile (`/players/{id}`): their registry entry, a rating chart drawn on the server as SVG (with
//! `plotters`, so it needs no script and prints as it shows), their rank history, their certificates
//! their games with SGF downloads, and the statistics of their games played here: results as Black
//! and as White, how the games ended, their lengths and their first moves as Black, counted by the
//! same code as `weiqi stats` (`weiqi_archive::stats`). Everything comes from the ranking service's
//! public calls (`Leaderboard`, `GetRegistryPlayer`, `PlayerHistory`) and the web's index of games.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, PreEscaped, html};
use weiqi_archive::stats::{Report, Tally};
use weiqi_archive::{ArchivedMove, GameFacts, Reason, Stats, Winner};
use weiqi_game::domain::{EndReason, GameState, Outcome, Phase};
use weiqi_ranking::domain::{RankBasis, RankEntry};

use super::{message, page, refused_status, refused_text};
use crate::Web;
use crate::charts::{bar_chart, rating_chart};
use crate::i18n::{Lang, grade_text, rank_text, t, ta};
use crate::session::Viewer;

/// The bands of the leaderboard, as the ranking service names them.
pub const BANDS: [&str; 6] = ["pro", "high-dan", "dan", "sdk", "ddk", "unranked"];

/// `GET /players?band=dan&region=shanghai`.
pub async fn leaderboard(State(web): State<Arc<Web>>, viewer: Viewer, RawQuery(q): RawQuery) -> Response {
    let lang = viewer.lang;
    let Some(r) = web.ranking.clone() else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "refusal-unavailable"));
    };
    let query = super::params(q.as_deref());
    let band = query.get("band").cloned().unwrap_or_default();
    let band = if BANDS.contains(&band.as_str()) { band } else { String::new() };
    let region: String = query
        .get("region")
        .map_or("", String::as_str)
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-')
        .take(40)
        .collect();
    let board = match r.leaderboard(&band, &region, 0, 100, 0).await {
        Ok(b) => b,
        Err(e) => return message(&web, &viewer, refused_status(&e), &refused_text(lang, &e)),
    };
    let body = html! {
        h1 { (t(lang, "leaderboard-title")) }
        form.inline method="get" action="/players" {
            label { (t(lang, "leaderboard-band"))
                select name="band" {
                    option value="" selected[band.is_empty()] { (t(lang, "leaderboard-all")) }
                    @for b in BANDS { option value=(b) selected[band == b] { (t(lang, &format!("band-{b}"))) } }
                }
            }
            label { (t(lang, "field-region")) input name="region" value=(region); }
            button type="submit" data-action="filter" { (t(lang, "leaderboard-show")) }
        }
        p.small { (ta(lang, "leaderboard-total", &[("n", board.total.to_string())])) " " (t(lang, "leaderboard-provisional-note")) }
        div.table-wrap { table.leaderboard {
            thead { tr {
                th scope="col" { (t(lang, "col-place")) } th scope="col" { (t(lang, "col-player")) } th scope="col" { (t(lang, "col-rank")) }
                th scope="col" { (t(lang, "col-region")) } th scope="col" { (t(lang, "profile-rating")) } th scope="col" { (t(lang, "col-rating-grade")) } th scope="col" { (t(lang, "profile-games")) }
            } }
            tbody { @for e in &board.entries {
                tr data-player=(e.player_id) {
                    td data-column="place" data-value=(e.place) { (e.place) }
                    td { a href={ "/players/" (e.player_id) } { (if e.name_zh.is_empty() { &e.player_id } else { &e.name_zh }) } }
                    td data-column="rank" data-value=(e.rank) { @if e.rank.is_empty() { "—" } @else { (rank_text(lang, &e.rank)) } }
                    td data-column="region" data-value=(e.region) { (e.region) }
                    td.mono data-column="rating" data-value=(e.rating) data-provisional[e.provisional] { (format!("{:.0}", e.rating)) @if e.provisional { "?" } }
                    td data-column="rating-grade" data-value=(e.rating_grade) { (rank_text(lang, &e.rating_grade)) }
                    td data-column="games" data-value=(e.games) { (e.games) }
                }
            } }
        } }
    };
    page(&web, &viewer, &t(lang, "leaderboard-title"), body, &[])
}

fn basis_text(lang: Lang, basis: RankBasis) -> String {
    let key = match basis {
        RankBasis::Declared => "basis-declared",
        RankBasis::Certified => "basis-certified",
        RankBasis::Revoked => "basis-revoked",
    };
    t(lang, key)
}

/// A civil date (UTC) of an instant: `2026-12-07`.
pub(super) fn date(ms: i64) -> String {
    let d = weiqi_time::CivilDate::from_millis(weiqi_time::Millis(ms));
    format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)
}

/// One game as a player's list shows it: the day it was last played, their colour and opponent (by
/// name), the result in words and whether they won (issue 32 item 8: not "对 ann · SGF" sixteen times).
pub(super) struct GameLine {
    pub date: String,
    pub words: String,
    /// The tournament and round it was played in, if any (issue 33 item 2: games by event).
    pub event: Option<(String, u32)>,
    pub result: Option<String>,
    pub outcome: Option<&'static str>,
}

pub(super) fn game_line(web: &Web, lang: Lang, id: &str, state: &GameState) -> GameLine {
    let color = match (&state.black, &state.white) {
        (Some(b), _) if b.id.0 == id => Some(weiqi_rules::Color::Black),
        (_, Some(w)) if w.id.0 == id => Some(weiqi_rules::Color::White),
        _ => None,
    };
    let opponent_id = state
        .setup
        .as_ref()
        .map(|s| if s.first.id.0 == id { s.second.id.0.clone() } else { s.first.id.0.clone() })
        .unwrap_or_default();
    let opponent =
        web.index.account(&opponent_id).map(|a| a.display_name).filter(|n| !n.is_empty()).unwrap_or(opponent_id);
    let color_word = match color {
        Some(weiqi_rules::Color::Black) => t(lang, "words-black"),
        Some(weiqi_rules::Color::White) => t(lang, "words-white"),
        None => String::new(),
    };
    let outcome = state.result.as_ref().and_then(|r| match (r.outcome, color) {
        (Outcome::BlackWins, Some(weiqi_rules::Color::Black))
        | (Outcome::WhiteWins, Some(weiqi_rules::Color::White)) => Some("won"),
        (Outcome::BlackWins | Outcome::WhiteWins, Some(_)) | (Outcome::BothLose, _) => Some("lost"),
        (Outcome::Draw, _) => Some("drawn"),
        _ => None,
    });
    GameLine {
        date: date(state.last_at.0),
        words: ta(lang, "profile-game-line", &[("opponent", opponent), ("color", color_word)]),
        event: state.setup.as_ref().and_then(|s| s.tournament.as_ref()).map(|t| (t.id.clone(), t.round)),
        result: state.result.as_ref().map(|r| crate::words::result(lang, r)),
        outcome,
    }
}

/// The player's games, newest first, each with its page and its SGF record (a finished game's record
/// is public, limited per address; a signed-in viewer's session reads a game in play's too). No token
/// is minted for the public.
fn games_list(web: &Web, lang: Lang, id: &str) -> Markup {
    let games = web.index.games(50, |g| g.seats(id) && !g.state.awaiting_acceptance());
    html! {
        @if games.is_empty() { p.small { (t(lang, "profile-no-games")) } }
        ul.games { @for g in &games {
            @let line = game_line(web, lang, id, &g.state);
            li data-game=(g.id) data-outcome=[line.outcome] {
                time datetime=(line.date) { (line.date) } " · "
                a href={ "/games/" (g.id) } { (line.words) }
                @if let Some(r) = &line.result { " · " (r) }
                @if let Some(o) = line.outcome { " " strong.outcome { (t(lang, &format!("profile-{o}"))) } }
                " · " a href={ "/games/" (g.id) "/sgf" } download data-sgf=(g.id) { "SGF" }
            }
        } }
    }
}

/// An ended game played here, as the statistics read one.
struct Played {
    size: u8,
    komi_halves: Option<i32>,
    handicap: u8,
    ranks: (String, String),
    winner: Winner,
    reason: Reason,
    moves: Vec<ArchivedMove>,
}

impl Played {
    /// The game of `state`, once it has ended with a result.
    fn of(state: &GameState) -> Option<Played> {
        if state.phase != Phase::Ended {
            return None;
        }
        let (setup, result, game) = (state.setup.as_ref()?, state.result.as_ref()?, state.game.as_ref()?);
        let winner = match result.outcome {
            Outcome::BlackWins => Winner::Black,
            Outcome::WhiteWins => Winner::White,
            Outcome::Draw => Winner::Draw,
            Outcome::BothLose | Outcome::NoResult | Outcome::Replay => Winner::None,
        };
        let reason = match (winner, result.reason) {
            (Winner::Draw, _) => Reason::Draw,
            (Winner::None, _) => Reason::Void,
            (_, EndReason::Score) => Reason::Count,
            (_, EndReason::Resignation) => Reason::Resignation,
            (_, EndReason::Time) => Reason::Time,
            // Forfeits, second warnings, lateness and a referee's ruling read as SGF's `B+F`.
            (_, EndReason::Forfeit | EndReason::Warnings | EndReason::Lateness | EndReason::Referee) => Reason::Forfeit,
            (_, EndReason::Cycle) => Reason::Void,
        };
        let rank = |p: &Option<weiqi_game::domain::PlayerRef>| p.as_ref().map(|p| p.rank.clone()).unwrap_or_default();
        Some(Played {
            size: setup.size,
            komi_halves: Some(setup.ruleset.komi.0),
            handicap: setup.handicap,
            ranks: (rank(&state.black), rank(&state.white)),
            winner,
            reason,
            moves: weiqi_archive::moves_of(game),
        })
    }

    fn facts(&self) -> GameFacts<'_> {
        GameFacts {
            size: self.size,
            komi_halves: self.komi_halves,
            handicap: self.handicap,
            black_rank: &self.ranks.0,
            white_rank: &self.ranks.1,
            winner: self.winner,
            reason: self.reason,
            moves: &self.moves,
        }
    }
}

/// The statistics of `player`'s ended games: as Black, as White, and all of them.
fn player_stats(games: &[crate::index::Listed], player: &str) -> (Report, Report, Report) {
    let (mut as_black, mut as_white, mut all) = (Stats::default(), Stats::default(), Stats::default());
    for g in games {
        let Some(played) = Played::of(&g.state) else { continue };
        let facts = played.facts();
        if g.state.black.as_ref().is_some_and(|b| b.id.0 == player) {
            as_black.add(&facts);
        } else if g.state.white.as_ref().is_some_and(|w| w.id.0 == player) {
            as_white.add(&facts);
        } else {
            continue;
        }
        all.add(&facts);
    }
    (as_black.finish(5), as_white.finish(5), all.finish(5))
}

/// A line of the results table: (games, won, lost, drawn) from the player's side.
fn record(tally: &Tally, black: bool) -> (u64, u64, u64, u64) {
    let (won, lost) = if black { (tally.black, tally.white) } else { (tally.white, tally.black) };
    (tally.games, won, lost, tally.draws)
}

/// The profile's statistics section.
fn statistics(lang: Lang, games: &[crate::index::Listed], player: &str) -> Markup {
    let (black, white, all) = player_stats(games, player);
    if all.games == 0 {
        return html! { p.small data-statistics="none" { (t(lang, "stats-none")) } };
    }
    let lengths: Vec<(String, f64)> =
        all.lengths.iter().map(|&(from, n)| (weiqi_archive::stats::length_bucket(from), n as f64)).collect();
    let most = lengths.iter().map(|l| l.1).fold(1.0, f64::max);
    let chart = bar_chart("", &t(lang, "stats-games"), &lengths, most * 1.15, (480, 220));
    let rows = [("black", record(&black.colour.tally, true)), ("white", record(&white.colour.tally, false))];
    html! {
        div.table-wrap { table.statistics {
            thead { tr {
                th scope="col" {} th scope="col" { (t(lang, "stats-games")) } th scope="col" { (t(lang, "stats-won")) }
                th scope="col" { (t(lang, "stats-lost")) } th scope="col" { (t(lang, "stats-drawn")) } th scope="col" { (t(lang, "stats-win-rate")) }
            } }
            tbody { @for (colour, (n, won, lost, drawn)) in rows {
                tr data-colour=(colour) {
                    th scope="row" { (t(lang, &format!("stats-as-{colour}"))) }
                    td data-column="games" data-value=(n) { (n) }
                    td data-column="won" data-value=(won) { (won) }
                    td data-column="lost" data-value=(lost) { (lost) }
                    td data-column="drawn" data-value=(drawn) { (drawn) }
                    td data-column="win-rate" {
                        @if won + lost > 0 { (format!("{:.0}%", 100.0 * won as f64 / (won + lost) as f64)) } @else { "–" }
                    }
                }
            } }
        } }
        h3 { (t(lang, "stats-how-ended")) }
        ul.inline { @for (reason, n) in &all.reasons {
            li data-reason=(reason) data-value=(n) { (t(lang, &format!("stats-reason-{reason}"))) " " (n) }
        } }
        h3 { (t(lang, "stats-lengths")) }
        @if let Some(svg) = chart {
            figure.chart data-chart="lengths" data-bars=(all.lengths.len()) role="img" aria-label=(t(lang, "stats-lengths")) {
                (PreEscaped(svg))
            }
        }
        @if !black.first_moves.is_empty() {
            h3 { (t(lang, "stats-first-moves")) }
            ol { @for f in &black.first_moves {
                @let first = weiqi_rules::Point::from_sgf(f.moves.as_bytes()).map(|p| p.to_gtp(f.size)).unwrap_or_default();
                li data-first-move=(f.moves) { (first) " (" (f.size) "×" (f.size) ") · " (f.games) }
            } }
        }
    }
}

/// `GET /players/{id}`.
pub async fn profile(State(web): State<Arc<Web>>, viewer: Viewer, Path(id): Path<String>) -> Response {
    let lang = viewer.lang;
    let Some(r) = web.ranking.clone() else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "refusal-unavailable"));
    };
    let entry = match r.registry_player(&id).await {
        Ok(e) => Some(e),
        Err(e) if e.kind() == Some(weiqi_aggregate::RejectionKind::NotFound) => None,
        Err(e) => return message(&web, &viewer, refused_status(&e), &refused_text(lang, &e)),
    };
    let account = web.index.account(&id);
    if entry.is_none() && account.is_none() {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "profile-not-found"));
    }
    let history = r.history(&id, 200).await.unwrap_or_default();
    let profile = entry.as_ref().map(|e| e.profile.clone()).unwrap_or_default();
    let name = [
        profile.name_zh.clone(),
        profile.name_latin.clone(),
        account.as_ref().map(|a| a.display_name.clone()).unwrap_or_default(),
    ]
    .into_iter()
    .find(|n| !n.is_empty())
    .unwrap_or_else(|| id.clone());
    let chart = rating_chart(lang, &history.ratings);
    let last = history.ratings.last();
    let certificates: Vec<(&str, &RankEntry)> =
        history.ranks.iter().filter_map(|r| Some((r.serial.as_deref()?, r))).collect();
    let body = html! {
        h1 { (name) @if let Some(e) = &entry && !e.rank.is_empty() { " " span.rank data-rank=(e.rank) { (rank_text(lang, &e.rank)) } } }
        p.small {
            @if !profile.name_latin.is_empty() && profile.name_latin != name { (profile.name_latin) " · " }
            @if !profile.region.is_empty() { (profile.region) " · " }
            @if !profile.club.is_empty() { (profile.club) " · " }
            (id)
        }
        section.card id="rating" {
            h2 { (t(lang, "profile-rating")) }
            @match (&chart, last) {
                (Some(svg), Some(l)) => {
                    p { (ta(lang, "profile-rating-now", &[("rating", format!("{:.0}", l.rating)), ("games", l.games.to_string()), ("system", super::office::system_name(lang, &l.system))])) }
                    @let grade = r.grade_for_rating(l.rating);
                    @if !grade.is_empty() { p.small data-rating-grade=(grade) { (ta(lang, "profile-rating-grade", &[("grade", rank_text(lang, &grade))])) } }
                    @if l.open_period { p.small data-open-period { (t(lang, "profile-rating-open-period")) } }
                    figure.chart data-chart="rating" data-points=(history.ratings.len()) role="img" aria-label=(t(lang, "profile-chart-label")) {
                        (PreEscaped(svg.clone()))
                    }
                }
                _ => p.small data-chart="none" { (t(lang, "profile-no-rating")) },
            }
        }
        section.card id="ranks" {
            h2 { (t(lang, "profile-rank-history")) }
            @if history.ranks.is_empty() { p.small { (t(lang, "profile-no-ranks")) } }
            ol { @for r in history.ranks.iter().rev() {
                li { (date(r.at.0)) " · " (grade_text(lang, &r.ladder, r.grade.as_deref().unwrap_or_default())) " · " (basis_text(lang, r.basis))
                    @if !r.reason.is_empty() { " · " (r.reason) } }
            } }
        }
        section.card id="certificates" {
            h2 { (t(lang, "profile-certificates")) }
            @if certificates.is_empty() { p.small { (t(lang, "profile-no-certificates")) } }
            ul { @for (serial, c) in &certificates {
                li { a href={ "/certificates/" (serial) } data-certificate=(serial) { (serial) } " · " (grade_text(lang, &c.ladder, c.grade.as_deref().unwrap_or_default())) " · " (basis_text(lang, c.basis)) }
            } }
        }
        section.card id="statistics" { h2 { (t(lang, "profile-statistics")) } (statistics(lang, &web.index.games(usize::MAX, |g| g.seats(&id) && !g.state.awaiting_acceptance()), &id)) }
        section.card id="games" { h2 { (t(lang, "profile-games")) } (games_list(&web, lang, &id)) }
    };
    page(&web, &viewer, &name, body, &[])
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_are_civil_dates() {
        assert_eq!(super::date(0), "1970-01-01");
        assert_eq!(super::date(1_796_083_200_000), "2026-12-01");
    }
}

/// The filters of `/my/games`.
#[derive(Debug, Default, serde::Deserialize)]
pub struct MyGamesQuery {
    /// `won`, `lost`, `drawn`, `playing` (empty: every game).
    #[serde(default)]
    outcome: String,
    /// 9, 13, 19 (empty: every size).
    #[serde(default)]
    size: String,
    /// Part of the opponent's name or account.
    #[serde(default)]
    opponent: String,
}

/// `GET /my/games`: the signed-in player's games, newest first, with their day, colour, opponent,
/// result and won or lost, filtered by outcome, board size and opponent (issue 32 item 15).
pub async fn my_games(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    axum::extract::Query(q): axum::extract::Query<MyGamesQuery>,
) -> Response {
    let lang = viewer.lang;
    let Some(m) = &viewer.member else { return super::redirect("/login?next=/my/games", vec![]) };
    let me = m.name().to_string();
    let size: Option<u8> = q.size.parse().ok();
    let wanted = q.opponent.trim().to_lowercase();
    let games = web.index.games(500, |g| g.seats(&me) && !g.state.awaiting_acceptance());
    let rows: Vec<(&crate::index::Listed, GameLine)> = games
        .iter()
        .map(|g| (g, game_line(&web, lang, &me, &g.state)))
        .filter(|(g, line)| match q.outcome.as_str() {
            "playing" => g.state.result.is_none(),
            "" => true,
            o => line.outcome == Some(o),
        })
        .filter(|(g, _)| size.is_none_or(|s| g.state.setup.as_ref().is_some_and(|x| x.size == s)))
        .filter(|(g, line)| {
            wanted.is_empty()
                || line.words.to_lowercase().contains(&wanted)
                || g.state.setup.as_ref().is_some_and(|s| {
                    s.first.id.0.to_lowercase().contains(&wanted) || s.second.id.0.to_lowercase().contains(&wanted)
                })
        })
        .collect();
    let body = maud::html! {
        h1 { (t(lang, "my-games")) }
        form.grid.no-print method="get" action="/my/games" data-form="my-games" {
            label { (t(lang, "my-games-outcome"))
                select name="outcome" {
                    @for (v, key) in [("", "my-games-all"), ("won", "profile-won"), ("lost", "profile-lost"), ("drawn", "profile-drawn"), ("playing", "my-games-playing")] {
                        option value=(v) selected[q.outcome == v] { (t(lang, key)) }
                    }
                }
            }
            label { (t(lang, "field-size"))
                select name="size" {
                    option value="" { (t(lang, "my-games-all")) }
                    @for n in [19u8, 13, 9] { option value=(n) selected[size == Some(n)] { (n) "×" (n) } }
                }
            }
            label { (t(lang, "my-games-opponent")) input name="opponent" value=(q.opponent); }
            button type="submit" data-action="filter" { (t(lang, "my-games-filter")) }
        }
        section.card {
            p.small { (ta(lang, "my-games-count", &[("n", rows.len().to_string())])) }
            @if rows.is_empty() { p.small { (t(lang, "my-games-none-found")) } }
            ul.games { @for (g, line) in &rows {
                li data-game=(g.id) data-outcome=[line.outcome] {
                    time datetime=(line.date) { (line.date) } " · "
                    @if let Some(s) = g.state.setup.as_ref() { (s.size) "×" (s.size) " · " }
                    a href={ "/games/" (g.id) } { (line.words) }
                    @if let Some(r) = &line.result { " · " (r) } @else { " · " (t(lang, "my-games-playing")) }
                    @if let Some(o) = line.outcome { " " strong.outcome { (t(lang, &format!("profile-{o}"))) } }
                    " · " a href={ "/games/" (g.id) "/sgf" } download data-sgf=(g.id) { "SGF" }
                }
            } }
        }
    };
    page(&web, &viewer, &t(lang, "my-games"), body, &[])
}
