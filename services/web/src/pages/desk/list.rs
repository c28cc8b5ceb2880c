//! `GET /desk`: the tournaments this desk may act on, and the form to create one.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use maud::html;
use weiqi_edge::auth::Role;

use crate::Web;
use crate::i18n::{Lang, t, try_t};
use crate::pages::{DeskStaff, csrf_field, notice, page, with_status};
use crate::session::Viewer;

use super::*;

/// `GET /desk`: the tournaments, and the form to create one.
pub async fn list(State(web): State<Arc<Web>>, DeskStaff { viewer, .. }: DeskStaff) -> Response {
    render_list(&web, &viewer, None, &super::create::CreateForm::default()).await
}

pub(super) async fn render_list(
    web: &Web,
    viewer: &Viewer,
    note: Option<(bool, String)>,
    form: &super::create::CreateForm,
) -> Response {
    let lang = viewer.lang;
    let mut rows = Vec::new();
    if let Some(s) = service(web) {
        for id in web.index.tournaments() {
            if let Ok(summary) = s.summary(&id, 0).await {
                rows.push(summary);
            }
        }
    }
    let value = |name: &str, default: &str| form.get(name).map_or_else(|| default.to_string(), str::to_string);
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
                            td { (crate::pages::tournament::format_summary(lang, r)) }
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
                    label { (t(lang, "desk-field-top_bar")) input name="top_bar" placeholder=(crate::i18n::rank_text(lang, "3d")) value=(value("top_bar", "")); }
                    label { (t(lang, "desk-field-bottom_bar")) input name="bottom_bar" placeholder=(crate::i18n::rank_text(lang, "20k")) value=(value("bottom_bar", "")); }
                    label { (t(lang, "desk-field-losses")) input name="losses" type="number" min="1" max="9" value=(value("losses", "1")); }
                    label { (t(lang, "desk-field-cycles")) input name="cycles" type="number" min="1" max="9" value=(value("cycles", "1")); }
                    label { (t(lang, "desk-field-wins_needed")) input name="wins_needed" type="number" min="1" max="9" value=(value("wins_needed", "2")); }
                    label { (t(lang, "desk-field-games")) input name="games" type="number" min="1" max="20" value=(value("games", "10")); }
                    label { (t(lang, "desk-field-groups")) input name="groups" type="number" min="1" max="64" value=(value("groups", "2")); }
                    label { (t(lang, "desk-field-advance")) input name="advance" type="number" min="1" max="64" value=(value("advance", "2")); }
                    label { (t(lang, "desk-field-boards")) input name="boards" type="number" min="1" max="10" value=(value("boards", "3")); }
                }
                label { (t(lang, "desk-field-ranking")) input name="ranking" placeholder=(t(lang, "desk-ranking-example")) value=(value("ranking", "")); }
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
                label { (t(lang, "desk-field-spectator_delay")) input name="spectator_delay" type="number" min="0" max="1440" inputmode="numeric" placeholder=(t(lang, "desk-spectator-delay-default")) value=(form.get("spectator_delay").unwrap_or_default()); }
                label.check { input type="checkbox" name="handicap" value="on" checked[form.get("handicap").is_some()]; (t(lang, "desk-field-handicap")) }
                label.check { input type="checkbox" name="over_the_board" value="on" checked[form.get("over_the_board").is_some()]; (t(lang, "desk-field-over_the_board")) }
                label.check { input type="checkbox" name="separate_clubs" value="on" checked[form.get("separate_clubs").is_some()]; (t(lang, "desk-field-separate_clubs")) }
                label.check { input type="checkbox" name="separate_regions" value="on" checked[form.get("separate_regions").is_some()]; (t(lang, "desk-field-separate_regions")) }
                label.check { input type="checkbox" name="separate_families" value="on" checked[form.get("separate_families").is_some()]; (t(lang, "desk-field-separate_families")) }
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

pub(super) fn phase_text(lang: Lang, phase: &str) -> String {
    try_t(lang, &format!("tournament-phase-{phase}")).unwrap_or_else(|| phase.to_string())
}
