//! `/registry`: the player registry (棋手名册) for its staff (organisers and administrators, issue 33
//! item 1). Search by account, name, region or club; correct a player's names, region and club; correct
//! a declared grade with the reason, which the player's log records (a certified grade is the
//! certification office's, and is refused here). The ranking's API decides who may, as for gRPC
//! callers (`RegisterPlayer`, `UpdatePlayer`).
//!
//! An entry without an account can be given one by invitation: staff make a link (shown once, its
//! secret recorded only as a hash in the player's log, valid for the days chosen, a new link
//! replacing the old) and hand it to the person, who sets a password at `/invitations/…` and is
//! signed in as that entry. A duplicate entry (registered twice, a typo at the desk) is merged into
//! the entry kept, with the reason, logged on both; the duplicate leaves the registry's lists.

use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::html;
use serde::Deserialize;
use weiqi_edge::auth::Role;
use weiqi_ranking::domain::RankBasis;

use super::{acting, csrf_field, form_request_id, message, notice, page, redirect, refused_status, refused_text};
use crate::Web;
use crate::i18n::{grade_text, rank_text, t};
use crate::session::{Member, Viewer};

fn registry_staff(member: &Member) -> bool {
    member.has(Role::Organiser) || member.has(Role::Admin)
}

fn staff_of(viewer: &Viewer) -> Option<&Member> {
    viewer.member.as_ref().filter(|m| registry_staff(m))
}

/// The search.
#[derive(Debug, Default, Deserialize)]
pub struct Search {
    #[serde(default)]
    q: String,
    #[serde(default)]
    done: String,
}

/// `GET /registry?q=…`.
pub async fn page_get(State(web): State<Arc<Web>>, viewer: Viewer, Query(search): Query<Search>) -> Response {
    let note = match search.done.as_str() {
        "profile" => Some((true, t(viewer.lang, "registry-done-profile"))),
        "rank" => Some((true, t(viewer.lang, "registry-done-rank"))),
        "merge" => Some((true, t(viewer.lang, "registry-done-merge"))),
        _ => None,
    };
    render(&web, &viewer, search.q.trim(), note, None).await
}

async fn render(
    web: &Web,
    viewer: &Viewer,
    query: &str,
    note: Option<(bool, String)>,
    invitation: Option<(&str, String)>,
) -> Response {
    let lang = viewer.lang;
    let Some(member) = viewer.member.as_ref().filter(|m| registry_staff(m)) else {
        return message(web, viewer, StatusCode::FORBIDDEN, &t(lang, "registry-only"));
    };
    let Some(r) = web.ranking.clone() else {
        return message(web, viewer, StatusCode::NOT_FOUND, &t(lang, "refusal-unavailable"));
    };
    let found = match r.search_registry(&member.claims, query).await {
        Ok(f) => f,
        Err(e) => return message(web, viewer, refused_status(&e), &refused_text(lang, &e)),
    };
    let q: String = query.chars().take(80).collect();
    let body = html! {
        h1 { (t(lang, "registry-title")) }
        p.small { (t(lang, "registry-help")) }
        (notice(note.as_ref()))
        @if let Some((player, link)) = &invitation {
            section.card data-invitation=(player) {
                p { (crate::i18n::ta(lang, "registry-invitation-made", &[("player", (*player).to_owned())])) }
                input.link readonly value=(link) data-invitation-link aria-label=(t(lang, "registry-invitation-link")) onfocus="this.select()";
                p.small { (t(lang, "registry-invitation-once")) }
            }
        }
        form.inline.band method="get" action="/registry" role="search" {
            label { (t(lang, "registry-search")) " " input name="q" value=(q) autocapitalize="none"; }
            " " button type="submit" data-action="registry-search" { (t(lang, "registry-search-go")) }
        }
        p.small data-found=(found.len()) { (crate::i18n::ta(lang, "registry-found", &[("n", found.len().to_string())])) }
        div.table-wrap { table.registry {
            thead { tr {
                th scope="col" { (t(lang, "registry-col-account")) } th scope="col" { (t(lang, "field-name-zh")) }
                th scope="col" { (t(lang, "field-name-latin")) } th scope="col" { (t(lang, "col-region")) }
                th scope="col" { (t(lang, "registry-col-club")) } th scope="col" { (t(lang, "col-rank")) }
            } }
            tbody { @for p in &found {
                @let id = p.profile.id.0.clone();
                tr data-registry-player=(id) {
                    td {
                        a href={ "/players/" (id) } { (id) }
                        @if web.index.account(&id).is_none() { " " span.small data-no-account { (t(lang, "registry-no-account")) } }
                        @if p.invitation_expires_ms > 0 { br; span.small data-invited { (crate::i18n::ta(lang, "registry-invited-until", &[("date", super::players::date(p.invitation_expires_ms))])) } }
                        @for m in &p.merges {
                            br; span.small data-merged-from=(m.from.0) { (crate::i18n::ta(lang, "registry-merged-from", &[("player", m.from.0.clone()), ("by", m.by.clone()), ("date", super::players::date(m.at.0)), ("reason", m.reason.clone())])) }
                        }
                    }
                    td data-column="name_zh" { (p.profile.name_zh) }
                    td data-column="name_latin" { (p.profile.name_latin) }
                    td data-column="region" { (p.profile.region) }
                    td data-column="club" { (p.profile.club) }
                    td data-column="rank" data-value=(p.rank) {
                        @if p.rank.is_empty() { "—" } @else { (rank_text(lang, &p.rank)) }
                        @for g in &p.grades { @if g.basis == RankBasis::Certified { " " span.small data-certified=(g.grade) { "(" (grade_text(lang, &g.ladder, &g.grade)) " · " (t(lang, "basis-certified")) ")" } } }
                    }
                }
                tr.edit data-registry-edit=(id) { td colspan="6" {
                    details {
                        summary { (t(lang, "registry-edit")) }
                        form.grid method="post" action={ "/registry/" (id) "/profile" } {
                            (csrf_field(viewer)) input type="hidden" name="rid" value=(super::request_id());
                            label { (t(lang, "field-name-zh")) input name="name_zh" value=(p.profile.name_zh); }
                            label { (t(lang, "field-name-latin")) input name="name_latin" value=(p.profile.name_latin); }
                            label { (t(lang, "field-region")) input name="region" value=(p.profile.region); }
                            label { (t(lang, "registry-col-club")) input name="club" value=(p.profile.club); }
                            button type="submit" data-action="registry-profile" { (t(lang, "registry-save")) }
                        }
                        form.grid method="post" action={ "/registry/" (id) "/rank" } {
                            (csrf_field(viewer)) input type="hidden" name="rid" value=(super::request_id());
                            label { (t(lang, "registry-declared-rank")) input name="rank" placeholder="3段" value=(p.grades.iter().find(|g| g.basis == RankBasis::Declared).map(|g| g.grade.clone()).unwrap_or_default()); }
                            label { (t(lang, "field-reason")) input name="reason" required; }
                            button type="submit" data-action="registry-rank" { (t(lang, "registry-correct-rank")) }
                            p.small { (t(lang, "registry-rank-help")) }
                        }
                        @if web.index.account(&id).is_none() && p.invitation_accepted_ms == 0 {
                            form.grid method="post" action={ "/registry/" (id) "/invite" } {
                                (csrf_field(viewer)) input type="hidden" name="rid" value=(super::request_id());
                                label { (t(lang, "registry-invite-days")) input name="days" type="number" min="1" max="90" value="14" inputmode="numeric"; }
                                button type="submit" data-action="registry-invite" { (t(lang, "registry-invite")) }
                                p.small { (t(lang, "registry-invite-help")) }
                            }
                            form.grid method="post" action={ "/registry/" (id) "/merge" } {
                                (csrf_field(viewer)) input type="hidden" name="rid" value=(super::request_id());
                                label { (t(lang, "registry-merge-into")) input name="into" required autocapitalize="none" pattern="[A-Za-z0-9_-]{1,64}"; }
                                label { (t(lang, "field-reason")) input name="reason" required; }
                                button type="submit" data-action="registry-merge" { (t(lang, "registry-merge")) }
                                p.small { (t(lang, "registry-merge-help")) }
                            }
                        }
                    }
                } }
            } }
        } }
        @if found.iter().any(|p| p.grades.iter().any(|g| g.basis == RankBasis::Certified)) {
            p.small { (t(lang, "registry-certified-note")) }
        }
    };
    page(web, viewer, &t(lang, "registry-title"), body, &[])
}

/// A registry staff member's form POST (CSRF and authority checked) and the ranking service it asks,
/// or the page that says why not.
async fn acting_with_ranking(
    web: &Web,
    headers: &HeaderMap,
    csrf: &str,
) -> Result<(Viewer, Member, weiqi_ranking::api::RankingApi), Response> {
    let (viewer, member) = acting(web, headers, Some(csrf), staff_of, "registry-only").await?;
    match web.ranking.clone() {
        Some(r) => Ok((viewer, member, r)),
        None => Err(message(web, &viewer, StatusCode::NOT_FOUND, &t(viewer.lang, "refusal-unavailable"))),
    }
}

/// The profile form.
#[derive(Debug, Default, Deserialize)]
pub struct ProfileForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    rid: String,
    #[serde(default)]
    name_zh: String,
    #[serde(default)]
    name_latin: String,
    #[serde(default)]
    region: String,
    #[serde(default)]
    club: String,
}

/// `POST /registry/{id}/profile`.
pub async fn profile(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<ProfileForm>,
) -> Response {
    let (viewer, member, r) = match acting_with_ranking(&web, &headers, &form.csrf).await {
        Ok(v) => v,
        Err(r) => return r,
    };
    let lang = viewer.lang;
    let current = match r.registry_player(&id).await {
        Ok(p) => p.profile,
        Err(e) => return message(&web, &viewer, refused_status(&e), &refused_text(lang, &e)),
    };
    let profile = weiqi_ranking::domain::Profile {
        name_zh: form.name_zh.trim().to_string(),
        name_latin: form.name_latin.trim().to_string(),
        region: form.region.trim().to_string(),
        club: form.club.trim().to_string(),
        ..current
    };
    let outcome = r.update_player(&member.claims, profile, &form_request_id(Some(&form.rid))).await;
    after(&web, &viewer, &id, "profile", outcome).await
}

/// The page after a correction of `id`: the registry on that player with the notice `done`, or the
/// registry with the refusal.
async fn after<T>(
    web: &Web,
    viewer: &Viewer,
    id: &str,
    done: &str,
    outcome: Result<T, weiqi_ranking::api::ApiError>,
) -> Response {
    match outcome {
        Ok(_) => redirect(&format!("/registry?q={}&done={done}", urlencoding(id)), vec![]),
        Err(e) => {
            let mut response = render(web, viewer, id, Some((false, refused_text(viewer.lang, &e))), None).await;
            *response.status_mut() = refused_status(&e);
            response
        }
    }
}

/// The declared-rank form.
#[derive(Debug, Default, Deserialize)]
pub struct RankForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    rid: String,
    #[serde(default)]
    rank: String,
    #[serde(default)]
    reason: String,
}

/// `POST /registry/{id}/rank`.
pub async fn rank(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<RankForm>,
) -> Response {
    let (viewer, member, r) = match acting_with_ranking(&web, &headers, &form.csrf).await {
        Ok(v) => v,
        Err(r) => return r,
    };
    let rid = form_request_id(Some(&form.rid));
    let outcome = r.correct_declared_rank(&member.claims, &id, form.rank.trim(), &form.reason, &rid).await;
    after(&web, &viewer, &id, "rank", outcome).await
}

/// The invitation form.
#[derive(Debug, Default, Deserialize)]
pub struct InviteForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    rid: String,
    #[serde(default)]
    days: String,
}

/// `POST /registry/{id}/invite`: a new invitation link for an entry without an account, shown once.
pub async fn invite(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<InviteForm>,
) -> Response {
    let (viewer, member, r) = match acting_with_ranking(&web, &headers, &form.csrf).await {
        Ok(v) => v,
        Err(r) => return r,
    };
    let lang = viewer.lang;
    let Ok(days) = form.days.trim().parse::<u32>() else {
        let mut response = render(&web, &viewer, &id, Some((false, t(lang, "refusal-out-of-range"))), None).await;
        *response.status_mut() = StatusCode::BAD_REQUEST;
        return response;
    };
    // 256 bits from the operating system's generator (two v4 UUIDs' 244 random bits and more).
    let secret = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    let has_account = web.index.account(&id).is_some() || web.accounts.get(&id).await.ok().flatten().is_some();
    let rid = form_request_id(Some(&form.rid));
    match r.invite_player(&member.claims, &id, &secret, days, has_account, &rid).await {
        Ok(_) => {
            let link =
                format!("{}/invitations/{}/{secret}", super::certificate::origin(&web, &headers), urlencoding(&id));
            render(&web, &viewer, &id, None, Some((&id, link))).await
        }
        Err(e) => after::<()>(&web, &viewer, &id, "invite", Err(e)).await,
    }
}

/// The merge form.
#[derive(Debug, Default, Deserialize)]
pub struct MergeForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    rid: String,
    #[serde(default)]
    into: String,
    #[serde(default)]
    reason: String,
}

/// `POST /registry/{id}/merge`: the duplicate `id` merged into the entry named.
pub async fn merge(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<MergeForm>,
) -> Response {
    let (viewer, member, r) = match acting_with_ranking(&web, &headers, &form.csrf).await {
        Ok(v) => v,
        Err(r) => return r,
    };
    let into = form.into.trim().to_ascii_lowercase();
    let has_account = web.index.account(&id).is_some() || web.accounts.get(&id).await.ok().flatten().is_some();
    let rid = form_request_id(Some(&form.rid));
    let outcome = r.merge_players(&member.claims, &id, &into, &form.reason, has_account, &rid).await;
    let shown = if outcome.is_ok() { into.as_str() } else { id.as_str() };
    after(&web, &viewer, shown, "merge", outcome).await
}

/// An account id in a query string (ids are letters, digits, `-` and `_`; anything else is escaped).
fn urlencoding(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
