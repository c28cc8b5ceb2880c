//! `GET /desk/tournaments/{id}/print/{what}`: sheets to print.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, html};

use crate::Web;
use crate::i18n::{rank_text, t, ta};
use crate::pages::tournament::standings_table;
use crate::pages::{DeskStaff, message, page};
use weiqi_tournament::settings::GameSettings;
use weiqi_tournament::views;

use super::*;

/// `GET /desk/tournaments/{id}/print/{what}[?round=N]`: a sheet to print, laid out for A4 paper by
/// the print style sheet (issue 30 item 14). Of round `N` (else the latest):
///
/// * `pairings`: the pairing sheet: table, Black and White with rank and number, handicap, komi, and
///   an empty result column to fill in at the venue;
/// * `seating`: every player by name with their table, colour and opponent (or bye), for the wall
///   where players look for their seat;
/// * `slips`: one result slip a table, with handicap and komi (a draw box only where the komi allows
///   one);
/// * `wallchart`: the crosstable of every round;
/// * `standings`: the standings after round `N` (else as they stand).
pub async fn print(
    State(web): State<Arc<Web>>,
    DeskStaff { viewer, .. }: DeskStaff,
    Path((id, what)): Path<(String, String)>,
    RawQuery(q): RawQuery,
) -> Response {
    let lang = viewer.lang;
    let loaded = match load(&web, &id, lang).await {
        Ok(l) => l,
        Err((status, text)) => return message(&web, &viewer, status, &text),
    };
    let asked: Option<u32> = crate::pages::params(q.as_deref()).get("round").and_then(|r| r.trim().parse().ok());
    let round = match asked {
        Some(n) => loaded.rounds.iter().find(|p| p.round == n),
        None => loaded.rounds.last(),
    };
    let name = if loaded.summary.name.is_empty() { id.clone() } else { loaded.summary.name.clone() };
    let settings = &loaded.summary.settings;
    let none = || html! { p { (t(lang, "pairings-none")) } };
    let title = |what: &str, round: u32| {
        html! { h1 { (name) } p.sheet-title { (ta(lang, what, &[("round", round.to_string())])) } }
    };
    let body: Markup = match what.as_str() {
        "pairings" => match round {
            Some(p) => {
                html! { div.print-sheet { (title("print-pairings-title", p.round)) (pairing_sheet(lang, settings, p)) } }
            }
            None => none(),
        },
        "seating" => match round {
            Some(p) => html! { div.print-sheet { (title("print-seating-title", p.round)) (seating_list(lang, p)) } },
            None => none(),
        },
        "slips" => match round {
            Some(p) => html! {
                div.print-sheet.slips {
                    @for g in &p.games {
                        div.slip {
                            p { strong { (name) } " · " (ta(lang, "round-title", &[("round", p.round.to_string())])) " · " (t(lang, "col-table")) " " (g.table) }
                            p { (t(lang, "black")) "：" (g.black_name) "（" (rank_text(lang, &g.black_rank)) "）" }
                            p { (t(lang, "white")) "：" (g.white_name) "（" (rank_text(lang, &g.white_rank)) "）" }
                            p data-slip-terms="" { (terms(lang, settings, g.handicap)) }
                            p data-slip-result="" {
                                (t(lang, "desk-slip-result")) " ☐ " (t(lang, "result-black-wins")) " ☐ " (t(lang, "result-white-wins"))
                                @if draw_allowed(settings, g.handicap) { " ☐ " (t(lang, "result-draw")) }
                            }
                            p { (t(lang, "desk-slip-signatures")) " ________  ________" }
                        }
                    }
                }
            },
            None => none(),
        },
        "wallchart" => match &loaded.standings {
            Some(s) if !loaded.rounds.is_empty() => html! {
                div.print-sheet.wallchart { h1 { (name) } (crate::pages::tournament::crosstable(lang, s, &loaded.rounds)) }
            },
            _ => html! { p { (t(lang, "standings-none")) } },
        },
        "standings" => {
            let after = match (asked, service(&web)) {
                (Some(n), Some(api)) => api.standings_after(&id, n).await.ok(),
                _ => loaded.standings.clone(),
            };
            match after {
                Some(s) if !s.rows.is_empty() => html! {
                    div.print-sheet {
                        h1 { (name) }
                        p.sheet-title { (ta(lang, "print-standings-title", &[("round", s.after_round.to_string())])) }
                        (standings_table(lang, &s))
                    }
                },
                _ => html! { p { (t(lang, "standings-none")) } },
            }
        }
        _ => return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "desk-unknown-export")),
    };
    let body = html! {
        p.no-print { button type="button" data-action="print" { (t(lang, "desk-print")) } }
        (body)
    };
    page(&web, &viewer, &name, body, &["print.js"])
}

/// A table's handicap and komi in words: "让 3 子，贴 0 目" / "分先，贴 7.5 目" (a handicap game
/// has no komi; the event's komi otherwise).
fn terms(lang: Lang, settings: &Option<GameSettings>, handicap: u32) -> String {
    let komi = if handicap > 0 {
        "0".to_string()
    } else {
        settings.as_ref().map_or_else(String::new, |s| s.ruleset.komi.to_string())
    };
    if handicap > 0 {
        ta(lang, "print-terms-handicap", &[("stones", handicap.to_string()), ("komi", komi)])
    } else {
        ta(lang, "print-terms-even", &[("komi", komi)])
    }
}

/// The pairing sheet: a row a table with an empty result column.
fn pairing_sheet(lang: Lang, settings: &Option<GameSettings>, p: &views::Pairings) -> Markup {
    html! {
        table.pairing-sheet data-round=(p.round) {
            thead { tr {
                th { (t(lang, "col-table")) } th { (t(lang, "black")) } th { (t(lang, "white")) }
                th { (t(lang, "print-col-terms")) } th.result-column { (t(lang, "col-result")) }
            } }
            tbody {
                @for g in &p.games {
                    tr data-table=(g.table) {
                        td { (g.table) }
                        td { (g.black_name) " " span.rank { (rank_text(lang, &g.black_rank)) } " " span.small { "#" (g.black) } }
                        td { (g.white_name) " " span.rank { (rank_text(lang, &g.white_rank)) } " " span.small { "#" (g.white) } }
                        td { (terms(lang, settings, g.handicap)) }
                        td.result-column {}
                    }
                }
            }
        }
        @for b in &p.byes { p.small data-bye=(b.player) { (b.name) " #" (b.player) "：" (t(lang, "bye")) } }
    }
}

/// Every player of the round by name: their table, colour and opponent (or their bye).
fn seating_list(lang: Lang, p: &views::Pairings) -> Markup {
    // (name, table, colour, opponent); a bye has no table.
    let mut seats: Vec<(String, Option<u32>, String, String)> = Vec::new();
    for g in &p.games {
        seats.push((g.black_name.clone(), Some(g.table), t(lang, "black"), g.white_name.clone()));
        seats.push((g.white_name.clone(), Some(g.table), t(lang, "white"), g.black_name.clone()));
    }
    for b in &p.byes {
        seats.push((b.name.clone(), None, String::new(), t(lang, "bye")));
    }
    // By name as written (Latin names alphabetically, case aside; Chinese names by character).
    seats.sort_by_key(|s| s.0.to_lowercase());
    html! {
        table.seating data-round=(p.round) {
            thead { tr { th { (t(lang, "col-player")) } th { (t(lang, "col-table")) } th { (t(lang, "print-col-colour")) } th { (t(lang, "print-col-opponent")) } } }
            tbody {
                @for (name, table, colour, opponent) in &seats {
                    tr data-seat=(name) {
                        td { strong { (name) } }
                        td { @if let Some(table) = table { (table) } @else { "—" } }
                        td { (colour) }
                        td { (opponent) }
                    }
                }
            }
        }
    }
}
