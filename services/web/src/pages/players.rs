//! The public pages of players: the leaderboards (`/players`, by rank band and region) and a player's
//! profile (`/players/{id}`): their registry entry, a rating chart drawn on the server as SVG (with
//! `plotters`, so it needs no script and prints as it shows), their rank history, their certificates
//! and their games with SGF downloads. Everything comes from the ranking service's public calls
//! (`Leaderboard`, `GetRegistryPlayer`, `PlayerHistory`) and the web's index of games.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::{Markup, PreEscaped, html};
use plotters::prelude::*;
use weiqi_gateway::auth::Role;
use weiqi_proto::v1 as pb;

use super::{http_status, message, page, status_text};
use crate::Web;
use crate::i18n::{Lang, t, ta};

/// The bands of the leaderboard, as the ranking service names them.
pub const BANDS: [&str; 6] = ["pro", "high-dan", "dan", "sdk", "ddk", "unranked"];

/// `GET /players?band=dan&region=shanghai`.
pub async fn leaderboard(State(web): State<Arc<Web>>, RawQuery(q): RawQuery, headers: HeaderMap) -> Response {
    let viewer = web.viewer(&headers, q.as_deref()).await;
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
    let request =
        pb::LeaderboardRequest { band: band.clone(), region: region.clone(), offset: 0, limit: 100, min_position: 0 };
    let board = match r.leaderboard(tonic::Request::new(request)).await {
        Ok(b) => b.into_inner(),
        Err(e) => return message(&web, &viewer, http_status(&e), &status_text(lang, &e)),
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
        p.small { (ta(lang, "leaderboard-total", &[("n", board.total.to_string())])) }
        div.table-wrap { table.leaderboard {
            thead { tr {
                th scope="col" { (t(lang, "col-place")) } th scope="col" { (t(lang, "col-player")) } th scope="col" { (t(lang, "col-rank")) }
                th scope="col" { (t(lang, "field-region")) } th scope="col" { (t(lang, "profile-rating")) } th scope="col" { (t(lang, "profile-games")) }
            } }
            tbody { @for e in &board.entries {
                tr data-player=(e.player_id) {
                    td data-column="place" data-value=(e.place) { (e.place) }
                    td { a href={ "/players/" (e.player_id) } { (if e.name_zh.is_empty() { &e.player_id } else { &e.name_zh }) } }
                    td data-column="rank" data-value=(e.rank) { (e.rank) }
                    td data-column="region" data-value=(e.region) { (e.region) }
                    td.mono data-column="rating" data-value=(e.rating) { (format!("{:.0}", e.rating)) @if e.provisional { "?" } }
                    td data-column="games" data-value=(e.games) { (e.games) }
                }
            } }
        } }
    };
    page(&web, &viewer, &t(lang, "leaderboard-title"), body, &[])
}

/// The rating chart: one point per rating change, oldest first, as an SVG document.
pub fn rating_chart(lang: Lang, ratings: &[pb::RatingChanged]) -> Option<String> {
    if ratings.is_empty() {
        return None;
    }
    let values: Vec<f64> = ratings.iter().map(|r| r.rating).collect();
    let (lo, hi) = values.iter().fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let pad = ((hi - lo) * 0.1).max(20.0);
    let n = values.len();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640, 280)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .x_label_area_size(28)
            .y_label_area_size(48)
            .build_cartesian_2d(0i32..(i32::try_from(n).unwrap_or(i32::MAX - 1) + 1), (lo - pad)..(hi + pad))
            .ok()?;
        chart
            .configure_mesh()
            .x_desc(t(lang, "profile-chart-x"))
            .y_desc(t(lang, "profile-rating"))
            .x_labels(n.min(12) + 2)
            .x_label_formatter(&|x| x.to_string())
            .y_label_formatter(&|y| format!("{y:.0}"))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .ok()?;
        let ink = RGBColor(20, 90, 160);
        let points: Vec<(i32, f64)> =
            values.iter().enumerate().map(|(i, v)| (i32::try_from(i + 1).unwrap_or(i32::MAX), *v)).collect();
        chart.draw_series(LineSeries::new(points.clone(), ink.stroke_width(2))).ok()?;
        chart.draw_series(points.iter().map(|p| Circle::new(*p, 3, ink.filled()))).ok()?;
        root.present().ok()?;
    }
    Some(svg)
}

fn basis_text(lang: Lang, basis: i32) -> String {
    use pb::rank_changed::Basis;
    let key = match Basis::try_from(basis).unwrap_or(Basis::Unspecified) {
        Basis::Declared => "basis-declared",
        Basis::Certified => "basis-certified",
        Basis::Revoked => "basis-revoked",
        Basis::Unspecified => "basis-unspecified",
    };
    t(lang, key)
}

fn date(ms: i64) -> String {
    let d = weiqi_time::CivilDate::from_millis(weiqi_time::Millis(ms));
    format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)
}

/// The player's games, newest first, each with its page and its SGF record. The record needs a token:
/// a signed-in viewer's session cookie carries one; for the public the link carries a short-lived
/// spectator token (a spectator may read any game).
fn games_list(web: &Web, lang: Lang, id: &str, signed_in: bool) -> Markup {
    let games = web.index.games(50, |g| g.seats(id));
    let token = (!signed_in && !games.is_empty()).then(|| {
        let token = web.auth.issue("web-public", &[Role::Spectator], &[], std::time::Duration::from_secs(15 * 60));
        format!("?token={token}")
    });
    html! {
        @if games.is_empty() { p.small { (t(lang, "profile-no-games")) } }
        ul.games { @for g in &games {
            @let s = g.state.setup.as_ref();
            @let opponent = s.map(|s| if s.first.id.0 == id { s.second.id.0.clone() } else { s.first.id.0.clone() }).unwrap_or_default();
            li data-game=(g.id) {
                a href={ "/games/" (g.id) } { (ta(lang, "profile-game-line", &[("opponent", opponent)])) }
                " · " a href={ "/games/" (g.id) "/sgf" (token.as_deref().unwrap_or_default()) } download data-sgf=(g.id) { "SGF" }
            }
        } }
    }
}

/// `GET /players/{id}`.
pub async fn profile(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    let viewer = web.viewer(&headers, q.as_deref()).await;
    let lang = viewer.lang;
    let Some(r) = web.ranking.clone() else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "refusal-unavailable"));
    };
    let entry = match r
        .get_registry_player(tonic::Request::new(pb::RegistryGetPlayerRequest { player_id: id.clone() }))
        .await
    {
        Ok(e) => Some(e.into_inner()),
        Err(e) if e.code() == tonic::Code::NotFound => None,
        Err(e) => return message(&web, &viewer, http_status(&e), &status_text(lang, &e)),
    };
    let account = web.index.account(&id);
    if entry.is_none() && account.is_none() {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "profile-not-found"));
    }
    let history = r
        .player_history(tonic::Request::new(pb::PlayerHistoryRequest { player_id: id.clone(), limit: 200 }))
        .await
        .map(tonic::Response::into_inner)
        .unwrap_or_default();
    let profile = entry.as_ref().and_then(|e| e.profile.clone()).unwrap_or_default();
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
    let certificates: Vec<&pb::RankChanged> =
        history.ranks.iter().filter(|r| !r.certificate_serial.is_empty()).collect();
    let body = html! {
        h1 { (name) @if let Some(e) = &entry && !e.rank.is_empty() { " " span.rank data-rank=(e.rank) { (e.rank) } } }
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
                    p { (ta(lang, "profile-rating-now", &[("rating", format!("{:.0}", l.rating)), ("games", l.games.to_string()), ("system", l.system.clone())])) }
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
                li { (date(r.at_ms)) " · " (if r.grade_name.is_empty() { &r.grade } else { &r.grade_name }) " (" (r.ladder) ") · " (basis_text(lang, r.basis))
                    @if !r.reason.is_empty() { " · " (r.reason) } }
            } }
        }
        section.card id="certificates" {
            h2 { (t(lang, "profile-certificates")) }
            @if certificates.is_empty() { p.small { (t(lang, "profile-no-certificates")) } }
            ul { @for c in &certificates {
                li { a href={ "/certificates/" (c.certificate_serial) } data-certificate=(c.certificate_serial) { (c.certificate_serial) } " · " (c.grade_name) " · " (basis_text(lang, c.basis)) }
            } }
        }
        section.card id="games" { h2 { (t(lang, "profile-games")) } (games_list(&web, lang, &id, viewer.member.is_some())) }
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

    #[test]
    fn the_chart_is_an_svg_with_one_point_per_change() {
        let points: Vec<_> = [1500.0, 1520.0, 1490.0]
            .into_iter()
            .map(|rating| weiqi_proto::v1::RatingChanged { rating, ..Default::default() })
            .collect();
        let svg = super::rating_chart(crate::i18n::Lang::En, &points).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
        assert!(super::rating_chart(crate::i18n::Lang::En, &[]).is_none());
    }
}
