//! `/account`: the holder's own page: who they are, their password, and the API tokens for their
//! programs (bots, their own overlays). A token is shown once, when issued; the page lists its label
//! and expiry and revokes it (the gateway refuses it from then on).

use std::sync::Arc;
use std::time::Duration;

use axum::Form;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use maud::html;
use serde::Deserialize;
use weiqi_account::Actor;

use super::account_error;
use super::{csrf_field, csrf_refused, page as layout, redirect};
use crate::Web;
use crate::i18n::{t, ta};
use crate::session::{Viewer, account_roles, csrf_ok};

fn now_ms() -> i64 {
    crate::now().0
}

fn date(ms: i64) -> String {
    // Days since the epoch to a civil date (Howard Hinnant's algorithm), UTC.
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

async fn render(web: &Web, viewer: &Viewer, notice: Option<(bool, String)>, new_token: Option<String>) -> Response {
    let lang = viewer.lang;
    let Some(m) = &viewer.member else { return redirect("/login?next=/account", vec![]) };
    let registry = match &web.registry {
        Some(r) => r.profile(m.name()).await,
        None => None,
    };
    let now = now_ms();
    let body = html! {
        h1 { (t(lang, "account-title")) }
        @if let Some((ok, text)) = &notice {
            @if *ok { p.notice role="status" { (text) } } @else { p.error data-error="account" role="alert" { (text) } }
        }
        section.card {
            dl {
                dt { (t(lang, "field-name")) } dd { (m.name()) }
                dt { (t(lang, "field-display-name")) } dd { (m.account.display_name) }
                dt { (t(lang, "field-roles")) } dd { (m.account.roles.iter().map(|r| t(lang, &format!("role-{}", r.replace('_', "-")))).collect::<Vec<_>>().join("、")) }
                dt { (t(lang, "account-registry")) }
                dd data-registry=(if registry.is_some() { "yes" } else { "no" }) {
                    @if let Some((zh, latin, region)) = &registry {
                        (zh) @if !latin.is_empty() { " · " (latin) } @if !region.is_empty() { " · " (region) }
                    } @else { (t(lang, "account-registry-none")) }
                }
            }
        }
        section.card {
            h2 { (t(lang, "account-password")) }
            form.grid method="post" action="/account/password" {
                (csrf_field(viewer))
                label { (t(lang, "field-new-password")) input name="password" type="password" minlength="8" autocomplete="new-password" required; }
                button type="submit" data-action="set-password" { (t(lang, "account-set-password")) }
            }
        }
        section.card {
            h2 { (t(lang, "account-sessions")) }
            p.small { (t(lang, "account-sessions-intro")) }
            form.inline method="post" action="/account/sign-out-everywhere" {
                (csrf_field(viewer))
                button type="submit" data-action="sign-out-everywhere" { (t(lang, "account-sign-out-everywhere")) }
            }
        }
        section.card {
            h2 { (t(lang, "tokens-title")) }
            p.small { (t(lang, "tokens-intro")) }
            @if let Some(token) = &new_token {
                div.notice role="status" {
                    p { (t(lang, "tokens-shown-once")) }
                    textarea.token readonly rows="3" aria-label=(t(lang, "tokens-title")) data-token { (token) }
                }
            }
            form.grid method="post" action="/account/tokens" {
                (csrf_field(viewer))
                label { (t(lang, "field-label")) input name="label" required maxlength="60" placeholder=(t(lang, "tokens-label-example")); }
                label { (t(lang, "field-days")) input name="days" type="number" min="1" max="365" value="30" required; }
                button type="submit" data-action="issue-token" { (t(lang, "tokens-issue")) }
            }
            @let live: Vec<_> = m.account.tokens.iter().filter(|(_, tk)| !tk.revoked && tk.expires_at_ms > now).collect();
            @if live.is_empty() {
                p.small { (t(lang, "tokens-none")) }
            } @else {
                ul.tokens {
                    @for (id, tk) in live {
                        li data-token-id=(id) {
                            span { (tk.label) " · " (ta(lang, "tokens-expires", &[("date", date(tk.expires_at_ms))])) }
                            form.inline method="post" action={ "/account/tokens/" (id) "/revoke" } {
                                (csrf_field(viewer))
                                button type="submit" data-action="revoke-token" { (t(lang, "tokens-revoke")) }
                            }
                        }
                    }
                }
            }
        }
    };
    layout(web, viewer, &t(lang, "account-title"), body, &[])
}

/// `GET /account`.
pub async fn page_handler(web: &Web, viewer: &Viewer) -> Response {
    render(web, viewer, None, None).await
}

/// `GET /account`.
pub async fn page(State(web): State<Arc<Web>>, viewer: Viewer) -> Response {
    if viewer.member.is_none() {
        return redirect("/login?next=/account", web.cookies_for(&viewer));
    }
    page_handler(&web, &viewer).await
}

/// The password form.
#[derive(Deserialize)]
pub struct PasswordForm {
    password: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /account/password`.
pub async fn password(
    State(web): State<Arc<Web>>,
    mut viewer: Viewer,
    headers: HeaderMap,
    Form(form): Form<PasswordForm>,
) -> Response {
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    let Some(m) = viewer.member.clone() else { return redirect("/login?next=/account", vec![]) };
    let actor = Actor::Holder(m.name().to_string());
    let id = uuid::Uuid::new_v4().to_string();
    let notice = match web.accounts.set_password(m.name(), &form.password, &actor, &id).await {
        Ok(()) => (true, t(viewer.lang, "account-password-set")),
        Err(e) => (false, account_error(viewer.lang, &e)),
    };
    if let Ok(Some(a)) = web.accounts.get(m.name()).await
        && let Some(member) = viewer.member.as_mut()
    {
        member.account = a;
    }
    render(&web, &viewer, Some(notice), None).await
}

/// The token form.
#[derive(Deserialize)]
pub struct TokenForm {
    label: String,
    days: u32,
    #[serde(default)]
    csrf: String,
}

/// `POST /account/tokens`.
pub async fn issue(
    State(web): State<Arc<Web>>,
    mut viewer: Viewer,
    headers: HeaderMap,
    Form(form): Form<TokenForm>,
) -> Response {
    let lang = viewer.lang;
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    let Some(m) = viewer.member.clone() else { return redirect("/login?next=/account", vec![]) };
    let label = form.label.trim();
    if label.is_empty() || label.chars().count() > 60 || !(1..=365).contains(&form.days) {
        return render(&web, &viewer, Some((false, t(lang, "tokens-bad-form"))), None).await;
    }
    let id = uuid::Uuid::new_v4().to_string();
    let ttl = Duration::from_secs(u64::from(form.days) * 86_400);
    let expires = now_ms() + i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX / 2);
    let actor = Actor::Holder(m.name().to_string());
    let roles = account_roles(&m.account);
    let events = weiqi_edge::auth::account_events(&roles);
    let events: Vec<&str> = events.iter().map(String::as_str).collect();
    let (notice, token) = match web.accounts.issue_token(m.name(), &id, label, expires, &actor, &id).await {
        Ok(()) => ((true, t(lang, "tokens-issued")), Some(web.auth.issue_with_id(m.name(), &roles, &events, ttl, &id))),
        Err(e) => ((false, account_error(lang, &e)), None),
    };
    if let Ok(Some(a)) = web.accounts.get(m.name()).await
        && let Some(member) = viewer.member.as_mut()
    {
        member.account = a;
    }
    render(&web, &viewer, Some(notice), token).await
}

/// The revoke form.
#[derive(Deserialize)]
pub struct RevokeForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /account/tokens/{id}/revoke`.
pub async fn revoke(
    State(web): State<Arc<Web>>,
    mut viewer: Viewer,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<RevokeForm>,
) -> Response {
    let lang = viewer.lang;
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    let Some(m) = viewer.member.clone() else { return redirect("/login?next=/account", vec![]) };
    let actor = Actor::Holder(m.name().to_string());
    let request = uuid::Uuid::new_v4().to_string();
    let notice = match web.accounts.revoke_token(m.name(), &id, &actor, &request).await {
        // Refused at once: the account service tells the authority before it answers.
        Ok(()) => (true, t(lang, "tokens-revoked")),
        Err(e) => (false, account_error(lang, &e)),
    };
    if let Ok(Some(a)) = web.accounts.get(m.name()).await
        && let Some(member) = viewer.member.as_mut()
    {
        member.account = a;
    }
    render(&web, &viewer, Some(notice), None).await
}

/// `POST /account/sign-out-everywhere`: ends every session of the account (this one too); its API
/// tokens stay (they are revoked one by one above).
pub async fn sign_out_everywhere(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    headers: HeaderMap,
    Form(form): Form<RevokeForm>,
) -> Response {
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    let Some(m) = viewer.member.clone() else { return redirect("/login?next=/account", vec![]) };
    let actor = Actor::Holder(m.name().to_string());
    let request = uuid::Uuid::new_v4().to_string();
    match web.accounts.sign_out_everywhere(m.name(), &actor, &request).await {
        Ok(()) => redirect("/login", vec![web.logout_cookie()]),
        Err(e) => {
            let notice = (false, account_error(viewer.lang, &e));
            render(&web, &viewer, Some(notice), None).await
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_are_civil_dates_in_utc() {
        assert_eq!(super::date(0), "1970-01-01");
        assert_eq!(super::date(1_796_083_200_000), "2026-12-01");
    }
}
