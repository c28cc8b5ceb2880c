//! `/admin/accounts`: administrators create accounts, grant and revoke roles, disable and enable
//! them. A disabled account's sessions stop at its next request (each request checks the account's
//! log), and so do its API tokens' web sessions.

use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::html;
use serde::Deserialize;
use weiqi_account::Actor;
use weiqi_edge::auth::Role;

use super::account_error;
use super::{csrf_field, csrf_refused, message, page as layout, redirect};
use crate::Web;
use crate::i18n::{refusal, t, ta};
use crate::session::{Member, Viewer, csrf_ok};

fn admin_of(viewer: &Viewer) -> Option<&Member> {
    viewer.member.as_ref().filter(|m| m.has(Role::Admin))
}

fn request_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn render(web: &Web, viewer: &Viewer, notice: Option<(bool, String)>, registration_open: bool) -> Response {
    let lang = viewer.lang;
    let accounts = web.index.accounts();
    let body = html! {
        h1 { (t(lang, "admin-title")) }
        @if let Some((ok, text)) = &notice {
            @if *ok { p.notice role="status" { (text) } } @else { p.error data-error="admin" role="alert" { (text) } }
        }
        section.card id="registration" {
            h2 { (t(lang, "admin-registration")) }
            p data-registration=(if registration_open { "open" } else { "closed" }) {
                (t(lang, if registration_open { "admin-registration-open" } else { "admin-registration-closed" }))
            }
            form.inline method="post" action="/admin/registration" {
                (csrf_field(viewer))
                input type="hidden" name="open" value=(if registration_open { "false" } else { "true" });
                @if registration_open {
                    button type="submit" data-action="close-registration" { (t(lang, "admin-close-registration")) }
                } @else {
                    button type="submit" data-action="open-registration" { (t(lang, "admin-open-registration")) }
                }
            }
        }
        section.card {
            h2 { (t(lang, "admin-new-account")) }
            form.grid method="post" action="/admin/accounts" {
                (csrf_field(viewer))
                label { (t(lang, "field-name")) input name="name" required pattern="[A-Za-z0-9_-]{1,64}" autocapitalize="none"; }
                label { (t(lang, "field-display-name")) input name="display_name"; }
                label { (t(lang, "field-role")) select name="role" { @for r in Role::ALL { option value=(r.name()) selected[r == Role::Player] { (t(lang, &format!("role-{}", r.name().replace('_', "-")))) } } } }
                label { (t(lang, "field-new-password")) input name="password" type="password" minlength="8" autocomplete="new-password" required; }
                // A player is entered in the player registry at once, with the rank and region declared.
                label { (t(lang, "field-declared-rank")) input name="rank" placeholder="3段 / 5级 / 2d"; }
                label { (t(lang, "field-region")) input name="region"; }
                button type="submit" data-action="create-account" { (t(lang, "admin-create")) }
            }
        }
        section.card {
            h2 { (t(lang, "admin-accounts")) }
            div.table-wrap {
                table {
                    thead { tr { th { (t(lang, "field-name")) } th { (t(lang, "field-display-name")) } th { (t(lang, "field-roles")) } th { (t(lang, "field-status")) } th { } } }
                    tbody {
                        @for (name, a) in &accounts {
                            tr data-account=(name) {
                                td { (name) }
                                td { (a.display_name) }
                                td { (a.roles.iter().map(|r| t(lang, &format!("role-{}", r.replace('_', "-")))).collect::<Vec<_>>().join("、")) }
                                td { @if let Some(why) = &a.disabled { (ta(lang, "account-disabled", &[("reason", why.clone())])) } @else { (t(lang, "account-enabled")) } }
                                td.actions {
                                    form.inline method="post" action={ "/admin/accounts/" (name) "/" (if a.disabled.is_some() { "enable" } else { "disable" }) } {
                                        (csrf_field(viewer))
                                        @if a.disabled.is_some() {
                                            button type="submit" data-action="enable" { (t(lang, "admin-enable")) }
                                        } @else {
                                            button type="submit" data-action="disable" { (t(lang, "admin-disable")) }
                                        }
                                    }
                                    form.inline method="post" action={ "/admin/accounts/" (name) "/grant" } {
                                        (csrf_field(viewer))
                                        select name="role" aria-label=(t(lang, "field-role")) { @for r in Role::ALL { option value=(r.name()) { (t(lang, &format!("role-{}", r.name().replace('_', "-")))) } } }
                                        button type="submit" data-action="grant" { (t(lang, "admin-grant")) }
                                        button type="submit" formaction={ "/admin/accounts/" (name) "/revoke" } data-action="revoke" { (t(lang, "admin-revoke")) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    layout(web, viewer, &t(lang, "admin-title"), body, &[])
}

/// `GET /admin/accounts`.
pub async fn page_get(web: &Web, viewer: &Viewer) -> Response {
    if admin_of(viewer).is_none() {
        return message(web, viewer, StatusCode::FORBIDDEN, &t(viewer.lang, "admin-only"));
    }
    render(web, viewer, None, super::register::open(web).await)
}

/// `GET /admin/accounts`.
pub async fn page(State(web): State<Arc<Web>>, viewer: Viewer) -> Response {
    if viewer.member.is_none() {
        return redirect("/login?next=/admin/accounts", web.cookies_for(&viewer));
    }
    page_get(&web, &viewer).await
}

/// The new-account form.
#[derive(Deserialize)]
pub struct CreateForm {
    name: String,
    #[serde(default)]
    display_name: String,
    role: String,
    password: String,
    #[serde(default)]
    rank: String,
    #[serde(default)]
    region: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /admin/accounts`.
pub async fn create(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    headers: HeaderMap,
    Form(form): Form<CreateForm>,
) -> Response {
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    let Some(admin) = admin_of(&viewer) else {
        return message(&web, &viewer, StatusCode::FORBIDDEN, &t(viewer.lang, "admin-only"));
    };
    let lower = form.name.trim().to_ascii_lowercase();
    let name = lower.as_str();
    let shown = if form.display_name.trim().is_empty() { name } else { form.display_name.trim() };
    let actor = Actor::Admin(admin.name().to_string());
    let lang = viewer.lang;
    // Names are unique without regard to case (an older `Alice` blocks `alice`). An administrator may
    // give a known player's identity (a tournament's entrant, a game's player) an account: that
    // claim is this logged `Created` by the administrator.
    if let Some(existing) = web.index.account_like(name) {
        let notice = (false, ta(lang, "admin-exists-like", &[("name", existing)]));
        return render(&web, &viewer, Some(notice), super::register::open(&web).await);
    }
    if web.index.identity_in_use(name) {
        tracing::info!(account = %name, admin = %admin.name(), "an administrator gives a known player's identity an account");
    }
    let result = web
        .accounts
        .create(name, shown, std::slice::from_ref(&form.role), Some(&form.password), &actor, &request_id())
        .await;
    let mut notice = match result {
        Ok(()) => (true, ta(lang, "admin-created", &[("name", name.to_string())])),
        Err(e) => (false, account_error(lang, &e)),
    };
    // A player's account is a registry entry too (issue 33 item 1): one identity from the first page.
    if notice.0
        && form.role == "player"
        && let Some(registry) = &web.registry
        && registry.profile(name).await.is_none()
    {
        let rank = Some(form.rank.trim()).filter(|r| !r.is_empty());
        if let Err(why) =
            registry.register(name, shown, "", form.region.trim(), rank, admin.name(), &request_id()).await
        {
            tracing::warn!(account = %name, error = %why, "an administrator's account is not in the player registry");
            notice = (false, ta(lang, "admin-created-not-registered", &[("name", name.to_string()), ("reason", why)]));
        }
    }
    wait_for_index(&web, name).await;
    render(&web, &viewer, Some(notice), super::register::open(&web).await)
}

/// Waits (briefly) until the index has folded `name`'s latest change, so the list shows it.
async fn wait_for_index(web: &Web, name: &str) {
    let target = web.accounts.get(name).await.ok().flatten();
    for _ in 0..50 {
        if web.index.account(name) == target {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// A change to one account.
#[derive(Deserialize)]
pub struct ChangeForm {
    #[serde(default)]
    role: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /admin/accounts/{name}/{disable|enable|grant|revoke}`.
pub async fn change(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path((name, verb)): Path<(String, String)>,
    headers: HeaderMap,
    Form(form): Form<ChangeForm>,
) -> Response {
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    let Some(admin) = admin_of(&viewer) else {
        return message(&web, &viewer, StatusCode::FORBIDDEN, &t(viewer.lang, "admin-only"));
    };
    let actor = Actor::Admin(admin.name().to_string());
    let lang = viewer.lang;
    let id = request_id();
    let result = match verb.as_str() {
        "disable" => web.accounts.disable(&name, &t(lang, "admin-disabled-reason"), &actor, &id).await,
        "enable" => web.accounts.enable(&name, &actor, &id).await,
        "grant" => web.accounts.grant(&name, &form.role, &actor, &id).await,
        "revoke" => web.accounts.revoke(&name, &form.role, &actor, &id).await,
        _ => return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "not-found")),
    };
    let notice = match result {
        Ok(()) => (true, ta(lang, &format!("admin-done-{verb}"), &[("name", name.clone())])),
        Err(e) => (false, account_error(lang, &e)),
    };
    wait_for_index(&web, &name).await;
    render(&web, &viewer, Some(notice), super::register::open(&web).await)
}

/// The registration switch.
#[derive(Deserialize)]
pub struct RegistrationForm {
    open: bool,
    #[serde(default)]
    csrf: String,
}

/// `POST /admin/registration`: opens or closes self-registration.
pub async fn registration(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    headers: HeaderMap,
    Form(form): Form<RegistrationForm>,
) -> Response {
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    let Some(admin) = admin_of(&viewer) else {
        return message(&web, &viewer, StatusCode::FORBIDDEN, &t(viewer.lang, "admin-only"));
    };
    let lang = viewer.lang;
    let actor = Actor::Admin(admin.name().to_string());
    let notice = match web.site.set_registration(form.open, &actor, &request_id()).await {
        Ok(()) => (true, t(lang, if form.open { "admin-registration-open" } else { "admin-registration-closed" })),
        Err(weiqi_account::site::SiteError::Refused(r)) => (false, refusal(lang, r.code(), &r.to_string())),
        Err(weiqi_account::site::SiteError::Unavailable(_)) => (false, t(lang, "refusal-unavailable")),
    };
    render(&web, &viewer, Some(notice), super::register::open(&web).await)
}
