//! `/tournaments/{id}`: a tournament's public page: its standings with every tie-break column (named
//! in the page's language), the pairings of each round with links to the games, and a crosstable.
//!
//! Everything is read through the gateway's own `TournamentService` (the read model that serves
//! `GetStandings` and `GetPairings`), with a short-lived spectator token the web issues itself, so the
//! page shows exactly what the API answers. The standings follow WEB.md's contract: one row
//! `[data-player="{account}"]`, cells `[data-column="place"]` and `[data-column="{criterion}"]`
//! (the criterion lower-cased), each with `data-value` holding the exact value (`"29/2"`) whatever
//! the cell shows (`14½`).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, html};
use weiqi_aggregate::RejectionKind;
use weiqi_tournament::views;

use super::{message, page};
use crate::Web;
use crate::i18n::{Lang, rank_text, t, ta, try_t, try_ta};
use crate::session::Viewer;

/// A value as people read it: `29/2` → `14½`, `7` → `7`, `-1/2` → `-½`.
pub fn shown(value: &str) -> String {
    let Some((n, d)) = value.split_once('/') else { return value.to_string() };
    let (Ok(n), Ok(d)) = (n.parse::<i64>(), d.parse::<i64>()) else { return value.to_string() };
    if d == 2 {
        let whole = n / 2;
        let sign = if n < 0 && whole == 0 { "-" } else { "" };
        if whole == 0 { format!("{sign}½") } else { format!("{whole}½") }
    } else {
        // Thirds and quarters read as fractions (6⅓, not 6.33); other values with two decimals.
        let glyph = match (n.rem_euclid(d), d) {
            (1, 3) => Some("⅓"),
            (2, 3) => Some("⅔"),
            (1, 4) => Some("¼"),
            (3, 4) => Some("¾"),
            _ => None,
        };
        match glyph {
            Some(g) if n.div_euclid(d) == 0 => g.to_string(),
            Some(g) if n >= 0 => format!("{}{g}", n.div_euclid(d)),
            _ => format!("{:.2}", n as f64 / d as f64),
        }
    }
}

/// A criterion's name in `lang` (`SOS` → 对手分), from the pairing core's one table of names; else
/// the code the API gives.
pub fn criterion(lang: Lang, code: &str) -> String {
    match weiqi_pairing::standings::TieBreak::from_name(code) {
        Some(c) => {
            let names = c.names();
            if lang == Lang::ZhCn { names.zh } else { names.en }
        }
        None => code.to_string(),
    }
}

/// The format in the page's language ("麦克马洪制，4 轮（上限 业余3段，下限 10级）"), from the service's
/// message key and arguments; the service's own text when it sent none (an older read model).
pub fn format_summary(lang: Lang, s: &views::Summary) -> String {
    if s.format_key.is_empty() {
        return s.format.clone();
    }
    let args: Vec<(&'static str, String)> =
        ["rounds", "top", "bottom", "losses", "cycles", "games", "groups", "advance", "boards"]
            .into_iter()
            .filter_map(|k| {
                let v = s.format_args.get(k)?;
                Some((k, if k == "top" || k == "bottom" { rank_text(lang, v) } else { v.clone() }))
            })
            .collect();
    try_ta(lang, &format!("format-summary-{}", s.format_key), &args).unwrap_or_else(|| s.format.clone())
}

pub fn standings_table(lang: Lang, s: &views::Standings) -> Markup {
    html! {
        div.table-wrap {
            table.standings data-after-round=(s.after_round) {
                caption { (ta(lang, "standings-after", &[("round", s.after_round.to_string())])) }
                thead { tr {
                    th scope="col" { (t(lang, "col-place")) }
                    th scope="col" { (t(lang, "col-player")) }
                    th scope="col" { (t(lang, "col-rank")) }
                    @for c in &s.criteria { th scope="col" title=(c) { (criterion(lang, c)) } }
                } }
                tbody {
                    @for row in &s.rows {
                        tr data-player=(row.account) data-withdrawn[row.withdrawn] {
                            td data-column="place" data-value=(row.place) { (row.place) @if row.shared { "=" } }
                            td {
                                a href={ "/players/" (row.account) } { (if row.name_zh.is_empty() { &row.account } else { &row.name_zh }) }
                                // The player number every desk action asks for (not the lot).
                                " " span.small.mono data-number=(row.entrant) { "#" (row.entrant) }
                                @if row.withdrawn { " " span.badge.withdrawn { (t(lang, "standings-withdrawn")) } }
                            }
                            td { (rank_text(lang, &row.rank)) }
                            @for (c, v) in s.criteria.iter().zip(&row.values) {
                                td.mono data-column=(c.to_lowercase()) data-value=(v) { (shown(v)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

pub fn result_text(lang: Lang, r: &str) -> String {
    match r {
        "" => t(lang, "result-pending"),
        "B+" => t(lang, "result-black-wins"),
        "W+" => t(lang, "result-white-wins"),
        // A forfeit (不战胜): the game was not played.
        "B+!" => t(lang, "result-black-wins-forfeit"),
        "W+!" => t(lang, "result-white-wins-forfeit"),
        other => try_t(lang, &format!("result-{other}")).unwrap_or_else(|| other.to_string()),
    }
}

pub fn pairings_table(lang: Lang, p: &views::Pairings) -> Markup {
    html! {
        section.card data-round=(p.round) {
            h3 { (ta(lang, "round-title", &[("round", p.round.to_string())])) }
            div.table-wrap {
                table.pairings {
                    thead { tr {
                        th scope="col" { (t(lang, "col-table")) } th scope="col" { (t(lang, "black")) }
                        th scope="col" { (t(lang, "white")) } th scope="col" { (t(lang, "col-result")) }
                    } }
                    tbody {
                        @for g in &p.games {
                            tr data-table=(g.table) data-black=(g.black) data-white=(g.white) {
                                td { (g.table) }
                                td { (g.black_name) " " span.rank { (rank_text(lang, &g.black_rank)) } " " span.small.mono data-number=(g.black) { "#" (g.black) } }
                                td { (g.white_name) " " span.rank { (rank_text(lang, &g.white_rank)) } " " span.small.mono data-number=(g.white) { "#" (g.white) } }
                                td {
                                    @if g.game_id.is_empty() { (result_text(lang, &g.result)) }
                                    @else { a href={ "/games/" (g.game_id) } { (result_text(lang, &g.result)) } }
                                }
                            }
                        }
                        @for b in &p.byes {
                            tr { td { "—" } td colspan="2" { (b.name) " " span.small.mono data-number=(b.player) { "#" (b.player) } } td { (t(lang, "bye")) } }
                        }
                    }
                }
            }
        }
    }
}

/// The crosstable: for each player (by standings order), round by round, the opponent's place, the
/// colour and the result (`3b+`: beat number 3 with Black).
pub(crate) fn crosstable(lang: Lang, s: &views::Standings, rounds: &[views::Pairings]) -> Markup {
    let place: BTreeMap<&str, u32> = s.rows.iter().map(|r| (r.account.as_str(), r.place)).collect();
    let mut cells: BTreeMap<(&str, u32), String> = BTreeMap::new();
    for p in rounds {
        for g in &p.games {
            let (bw, ww) = match g.result.trim_end_matches('!') {
                "B+" => ("+", "-"),
                "W+" => ("-", "+"),
                "draw" => ("=", "="),
                "both-lose" => ("-", "-"),
                _ => ("?", "?"),
            };
            let opp = |a: &str| place.get(a).map_or_else(|| "?".to_string(), |n| n.to_string());
            // A forfeit is marked as one (不战), not shown as a played win.
            let forfeit = if g.result.ends_with('!') { t(lang, "forfeit-short") } else { String::new() };
            // The colour in the page's words (b/w, 黑/白).
            let (black, white) = (t(lang, "cross-black"), t(lang, "cross-white"));
            cells.insert((g.black_account.as_str(), p.round), format!("{}{black}{bw}{forfeit}", opp(&g.white_account)));
            cells.insert((g.white_account.as_str(), p.round), format!("{}{white}{ww}{forfeit}", opp(&g.black_account)));
        }
        for b in &p.byes {
            cells.insert((b.account_id.as_str(), p.round), t(lang, "bye"));
        }
    }
    html! {
        div.table-wrap {
            table.crosstable {
                caption { (t(lang, "crosstable")) }
                thead { tr {
                    th scope="col" { (t(lang, "col-place")) } th scope="col" { (t(lang, "col-player")) }
                    @for p in rounds { th scope="col" { (p.round) } }
                } }
                tbody {
                    @for row in &s.rows {
                        tr data-cross=(row.account) {
                            td { (row.place) }
                            td { (if row.name_zh.is_empty() { &row.account } else { &row.name_zh }) }
                            @for p in rounds {
                                td.mono { (cells.get(&(row.account.as_str(), p.round)).cloned().unwrap_or_default()) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `GET /tournaments/{id}`.
pub async fn page_get(State(web): State<Arc<Web>>, viewer: Viewer, Path(id): Path<String>) -> Response {
    let lang = viewer.lang;
    let Some(service) = web.tournaments.clone() else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "tournament-not-found"));
    };
    // The public page reads what anyone may read, through the tournament's API (no token minted).
    let summary = match service.summary(&id, 0).await {
        Ok(s) => s,
        Err(e) if matches!(e.kind(), Some(RejectionKind::NotFound | RejectionKind::InvalidArgument)) => {
            return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "tournament-not-found"));
        }
        Err(_) => return message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable")),
    };
    let standings = service.standings(&id, 0, 0, summary.sequence).await.ok();
    let mut rounds = Vec::new();
    for round in 1..=summary.rounds_paired {
        if let Ok(p) = service.pairings(&id, round, summary.sequence).await {
            rounds.push(p);
        }
    }
    let title = if summary.name.is_empty() { id.clone() } else { summary.name.clone() };
    let body = html! {
        h1 { (title) }
        p.small data-phase=(summary.phase) {
            (format_summary(lang, &summary)) " · " (try_t(lang, &format!("tournament-phase-{}", summary.phase)).unwrap_or_else(|| summary.phase.clone()))
            " · " (ta(lang, "tournament-players", &[("n", summary.players.to_string())]))
        }
        @if let Some(line) = facts_line(lang, &summary) { p.small data-facts="" { (line) } }
        section.card id="standings" {
            h2 { (t(lang, "standings")) }
            @match &standings {
                Some(s) if !s.rows.is_empty() => (standings_table(lang, s)),
                _ => p.small { (t(lang, "standings-none")) },
            }
        }
        @if let Some(s) = &standings && !rounds.is_empty() {
            section.card id="crosstable" { h2 { (t(lang, "crosstable")) } (crosstable(lang, s, &rounds)) }
        }
        section id="pairings" {
            h2 { (t(lang, "pairings")) }
            @if rounds.is_empty() { p.small { (t(lang, "pairings-none")) } }
            @for p in rounds.iter().rev() { (pairings_table(lang, p)) }
        }
    };
    page(&web, &viewer, &title, body, &[])
}

/// The event's dates, place and director in a line (`None` when none is set).
fn facts_line(lang: Lang, summary: &views::Summary) -> Option<String> {
    let f = summary.facts.as_ref()?;
    let mut parts = Vec::new();
    match (f.start, f.end) {
        (Some(a), Some(b)) if a != b => {
            parts.push(ta(lang, "tournament-dates", &[("start", a.to_string()), ("end", b.to_string())]))
        }
        (Some(a), _) | (None, Some(a)) => parts.push(a.to_string()),
        (None, None) => {}
    }
    let city = if f.city.is_empty() { f.city_latin.as_str() } else { f.city.as_str() };
    if !city.is_empty() {
        parts.push(city.to_string());
    }
    if !f.director.is_empty() {
        parts.push(ta(lang, "tournament-director", &[("name", f.director.clone())]));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

#[cfg(test)]
mod tests {
    use super::shown;

    /// A format's summary reads in the page's language, with its arguments (the McMahon bars as
    /// Chinese readers write ranks), not the service's English text.
    #[test]
    fn a_format_summary_is_in_the_pages_language() {
        let summary = weiqi_tournament::views::Summary {
            format: "McMahon, 2 rounds (bars 3d/20k)".into(),
            format_key: "mcmahon".into(),
            format_args: [("rounds", "2"), ("top", "3d"), ("bottom", "20k")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Default::default()
        };
        let zh = super::format_summary(crate::i18n::Lang::ZhCn, &summary);
        assert_eq!(zh, "麦克马洪制，2 轮（上限 业余3段，下限 20级）");
    }

    #[test]
    fn exact_values_are_shown_as_people_write_them() {
        assert_eq!(shown("29/2"), "14½");
        assert_eq!(shown("1/2"), "½");
        assert_eq!(shown("-1/2"), "-½");
        assert_eq!(shown("7"), "7");
        assert_eq!(shown("10/3"), "3⅓");
        assert_eq!(shown("19/3"), "6⅓");
        assert_eq!(shown("2/3"), "⅔");
        assert_eq!(shown("13/4"), "3¼");
        assert_eq!(shown("-10/3"), "-3.33");
        assert_eq!(shown("7/5"), "1.40");
    }
}
