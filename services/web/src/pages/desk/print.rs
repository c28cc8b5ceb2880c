//! `GET /desk/tournaments/{id}/print/{what}`: sheets to print.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, html};

use crate::Web;
use crate::i18n::{rank_text, t, ta};
use crate::pages::tournament::{pairings_table, standings_table};
use crate::pages::{DeskStaff, message, page};

use super::*;

/// `GET /desk/tournaments/{id}/print/{what}`: a sheet to print (`pairings`, `slips`, `standings`),
/// laid out for paper by the print style sheet.
pub async fn print(
    State(web): State<Arc<Web>>,
    DeskStaff { viewer, .. }: DeskStaff,
    Path((id, what)): Path<(String, String)>,
) -> Response {
    let lang = viewer.lang;
    let loaded = match load(&web, &id, lang).await {
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
