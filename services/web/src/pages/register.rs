//! `/register`: self-registration, when an administrator has opened it (`/admin/accounts`). The new
//! account is a player, entered in the player registry under the same id (so it can be rated, enter
//! tournaments and apply for a rank), and is signed in at once. Attempts count against the same
//! limits as logins.

use std::sync::Arc;

use axum::Form;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::html;
use serde::Deserialize;
use weiqi_account::Actor;

use super::account_error;
use super::{ClientAddr, csrf_field, csrf_refused, message, page, redirect};
use crate::Web;
use crate::i18n::{t, ta};
use crate::session::{Viewer, csrf_ok};

/// Whether self-registration is open now (the log's fold; closed if the log cannot be read).
pub async fn open(web: &Web) -> bool {
    web.site.settings().await.is_ok_and(|s| s.registration_open)
}

fn render(web: &Web, viewer: &Viewer, form: &RegisterForm, error: Option<String>, status: StatusCode) -> Response {
    let lang = viewer.lang;
    let body = html! {
        section.card.narrow {
            h1 { (t(lang, "register-title")) }
            p.small { (t(lang, "register-intro")) }
            @if let Some(e) = &error { p.error data-error="register" role="alert" { (e) } }
            form method="post" action="/register" {
                (csrf_field(viewer))
                label for="name" { (t(lang, "field-name")) }
                input id="name" name="name" required autocomplete="username" autocapitalize="none" pattern="[A-Za-z0-9][A-Za-z0-9_-]{0,63}" value=(form.name);
                label for="display_name" { (t(lang, "field-name-zh")) }
                input id="display_name" name="display_name" required maxlength="100" value=(form.display_name);
                label for="name_latin" { (t(lang, "field-name-latin")) }
                input id="name_latin" name="name_latin" maxlength="100" value=(form.name_latin);
                label for="region" { (t(lang, "field-region")) }
                input id="region" name="region" maxlength="60" value=(form.region);
                label for="password" { (t(lang, "field-new-password")) }
                input id="password" name="password" type="password" required minlength="8" autocomplete="new-password";
                button type="submit" data-action="register" { (t(lang, "register-create")) }
            }
        }
    };
    let mut r = page(web, viewer, &t(lang, "register-title"), body, &[]);
    *r.status_mut() = status;
    r
}

/// `GET /register`.
pub async fn form(State(web): State<Arc<Web>>, viewer: Viewer) -> Response {
    if !open(&web).await {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(viewer.lang, "register-closed"));
    }
    render(&web, &viewer, &RegisterForm::default(), None, StatusCode::OK)
}

/// The form.
#[derive(Default, Deserialize)]
pub struct RegisterForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    display_name: String,
    #[serde(default)]
    name_latin: String,
    #[serde(default)]
    region: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /register`.
pub async fn submit(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Form(form): Form<RegisterForm>,
) -> Response {
    let lang = viewer.lang;
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    if !open(&web).await {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "register-closed"));
    }
    // Names are unique without regard to case and new ones are written in lower case.
    let name = form.name.trim().to_ascii_lowercase();
    let shown = form.display_name.trim().to_string();
    if name.starts_with('_') || !weiqi_account::domain::valid_name(&name) {
        return render(&web, &viewer, &form, Some(t(lang, "refusal-bad-name")), StatusCode::BAD_REQUEST);
    }
    if form.name_latin.chars().count() > 100 || form.region.chars().count() > 60 {
        return render(&web, &viewer, &form, Some(t(lang, "refusal-out-of-range")), StatusCode::BAD_REQUEST);
    }
    if let Err(wait) = web.limits.attempt(&name, addr) {
        let seconds = crate::limits::seconds_to_wait(wait);
        let error = ta(lang, "login-limited", &[("seconds", seconds.to_string())]);
        return crate::limits::with_retry_after(
            render(&web, &viewer, &form, Some(error), StatusCode::TOO_MANY_REQUESTS),
            seconds,
        );
    }
    if web.index.account_like(&name).is_some() {
        let taken = ta(lang, "register-name-taken", &[("name", name.clone())]);
        return render(&web, &viewer, &form, Some(taken), StatusCode::BAD_REQUEST);
    }
    // An identity the platform already knows (a game's player, a tournament's entrant, the
    // registry's or the ratings' player) is not free for anyone to take: its games and results
    // would follow the newcomer. Claiming it is an administrator's decision (the accounts page).
    let registered = match &web.registry {
        Some(registry) => registry.profile(&name).await.is_some(),
        None => false,
    };
    if registered || web.index.identity_in_use(&name) {
        tracing::warn!(account = %name, "self-registration refused: the name is a known player's identity");
        return render(&web, &viewer, &form, Some(t(lang, "register-identity-taken")), StatusCode::CONFLICT);
    }
    let request = format!("register-{}", uuid::Uuid::new_v4());
    let roles = ["player".to_string()];
    if let Err(e) = web.accounts.create(&name, &shown, &roles, Some(&form.password), &Actor::System, &request).await {
        return render(&web, &viewer, &form, Some(account_error(lang, &e)), StatusCode::BAD_REQUEST);
    }
    if let Some(registry) = &web.registry
        && let Err(why) = registry
            .register(&name, &shown, form.name_latin.trim(), form.region.trim(), None, "self-registration", &request)
            .await
    {
        // The account exists; an organiser can still enter it in the registry by hand.
        tracing::warn!(account = %name, error = %why, "a self-registered account is not in the player registry");
    }
    let Ok(Some(account)) = web.accounts.get(&name).await else {
        return message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable"));
    };
    let token = web.session_token(&name, &account);
    let mut cookies = web.cookies_for(&viewer);
    cookies.push(web.login_cookie(&token));
    redirect("/account", cookies)
}
