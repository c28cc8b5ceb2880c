//! `/desk/ratings`: an association moving to the platform brings its players' ratings (issue 15
//! item 9). Organisers upload the EGD's rating list (`allworld_lp.html`, players seeded by EGD PIN:
//! `ImportEgdRatings`) or past tournaments' results tables (`.h9`, rated here as the tournaments
//! they were: `ImportH9Results`), and the page says what was done: who was seeded with what, which
//! lines match nobody here, and a table imported before.

use std::sync::Arc;

use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::{Markup, html};
use weiqi_edge::auth::Role;
use weiqi_ranking::views::{EgdImport, H9Import, Seeded};

use crate::Web;
use crate::i18n::{Lang, t, ta};
use crate::pages::{
    Uploaded, acting, csrf_field, message, notice, page, refused_status, refused_text, request_id, with_status,
};
use crate::session::{Member, Viewer};

/// The largest file read (the EGD's whole list is about 10 MB; a country's page is well under this).
pub const MAX_BYTES: usize = 16 * 1024 * 1024;

fn organiser(viewer: &Viewer) -> Option<&Member> {
    viewer.member.as_ref().filter(|m| m.has(Role::Organiser) || m.has(Role::Admin))
}

fn render(web: &Web, viewer: &Viewer, note: Option<(bool, String)>, outcome: Option<Markup>) -> Response {
    let lang = viewer.lang;
    let form = |kind: &str, title: &str, help: &str, accept: &str| {
        html! {
            section.card id=(kind) {
                h2 { (t(lang, title)) }
                p.small { (t(lang, help)) }
                form.inline method="post" action="/desk/ratings" enctype="multipart/form-data" {
                    (csrf_field(viewer))
                    input type="hidden" name="rid" value=(request_id());
                    input type="hidden" name="kind" value=(kind);
                    input type="file" name="file" accept=(accept) required;
                    button type="submit" data-action={ "import-" (kind) } { (t(lang, "ratings-import")) }
                }
            }
        }
    };
    let body = html! {
        h1 { (t(lang, "ratings-title")) }
        (notice(note.as_ref()))
        @if let Some(o) = outcome { (o) }
        (form("egd-list", "ratings-egd-list", "ratings-egd-list-help", ".html,.htm,text/html"))
        (form("h9", "ratings-h9", "ratings-h9-help", ".h9,.txt,text/plain"))
    };
    let status = if matches!(note, Some((false, _))) { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    with_status(page(web, viewer, &t(lang, "ratings-title"), body, &[]), status)
}

/// `GET /desk/ratings`.
pub async fn get(State(web): State<Arc<Web>>, viewer: Viewer) -> Response {
    if organiser(&viewer).is_none() {
        return message(&web, &viewer, StatusCode::FORBIDDEN, &t(viewer.lang, "ratings-only"));
    }
    render(&web, &viewer, None, None)
}

fn list_outcome(lang: Lang, done: &EgdImport) -> Markup {
    html! {
        section.card id="ratings-outcome" data-seeded=(done.seeded.len()) {
            h2 { (t(lang, "ratings-done")) }
            p { (ta(lang, "ratings-list-summary", &[
                ("players", done.list_players.to_string()), ("date", done.list_date.clone()),
                ("seeded", done.seeded.len().to_string()), ("kept", done.already_rated.len().to_string()),
                ("missing", done.not_in_list.len().to_string()),
            ])) }
            (seeded_table(lang, &done.seeded))
            @if !done.not_in_list.is_empty() {
                p.small { (t(lang, "ratings-not-in-list")) " " (done.not_in_list.join(", ")) }
            }
            @if !done.unmapped.is_empty() {
                p.small { (t(lang, "ratings-unmapped")) " " (done.unmapped.join(", ")) }
            }
        }
    }
}

fn seeded_table(lang: Lang, seeded: &[Seeded]) -> Markup {
    html! {
        @if !seeded.is_empty() {
            div.table-wrap { table {
                thead { tr { th { (t(lang, "desk-field-account")) } th { (t(lang, "ratings-seed")) } } }
                tbody { @for s in seeded {
                    tr data-player=(s.player_id) { td { (s.player_id) } td.num { (format!("{:.0}", s.rating)) } }
                } }
            } }
        }
    }
}

fn h9_outcome(lang: Lang, done: &H9Import) -> Markup {
    html! {
        section.card id="ratings-outcome" data-games=(done.games) data-already=(done.already_imported) {
            h2 { (t(lang, "ratings-done")) }
            @if done.already_imported {
                p { (ta(lang, "ratings-h9-again", &[("id", done.tournament.clone())])) }
            } @else {
                p { (ta(lang, "ratings-h9-summary", &[
                    ("id", done.tournament.clone()), ("matched", done.matched.len().to_string()),
                    ("games", done.games.to_string()), ("left", done.games_left_out.to_string()),
                    ("rated", done.rated.to_string()),
                ])) }
            }
            (seeded_table(lang, &done.seeded))
            @if !done.not_registered.is_empty() {
                p.small { (t(lang, "ratings-h9-nobody")) }
                ul.small { @for l in &done.not_registered {
                    li data-line=(l.line) {
                        (l.line) ". " (l.name)
                        @if l.egd_pin != 0 { " (EGD " (l.egd_pin) ")" }
                    }
                } }
            }
        }
    }
}

/// `POST /desk/ratings`.
pub async fn import(State(web): State<Arc<Web>>, headers: HeaderMap, multipart: Multipart) -> Response {
    let upload = Uploaded::read(multipart, MAX_BYTES).await;
    let (viewer, member) = match acting(&web, &headers, Some(upload.get("csrf")), organiser, "ratings-only").await {
        Ok(v) => v,
        Err(refused) => return refused,
    };
    let lang = viewer.lang;
    let Some(ranking) = web.ranking.clone() else {
        return message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable"));
    };
    if upload.too_big {
        let why = ta(lang, "import-too-big", &[("kb", (MAX_BYTES / 1024).to_string())]);
        return with_status(render(&web, &viewer, Some((false, why)), None), StatusCode::PAYLOAD_TOO_LARGE);
    }
    let text = upload.get("file").to_string();
    if text.trim().is_empty() {
        return render(&web, &viewer, Some((false, t(lang, "ratings-no-file"))), None);
    }
    let claims = &member.claims;
    let outcome = match upload.get("kind") {
        "h9" => ranking.import_h9_results(claims, &text).await.map(|r| h9_outcome(lang, &r)),
        "egd-list" => ranking.import_egd_ratings(claims, &text).await.map(|r| list_outcome(lang, &r)),
        _ => return render(&web, &viewer, Some((false, t(lang, "ratings-no-file"))), None),
    };
    match outcome {
        Ok(markup) => render(&web, &viewer, None, Some(markup)),
        Err(e) => with_status(render(&web, &viewer, Some((false, refused_text(lang, &e))), None), refused_status(&e)),
    }
}
