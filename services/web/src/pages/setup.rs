//! `/setup/{secret}`: the first administrator, from the one-time link `weiqi up` prints while no
//! account holds the `admin` role. The link works once: when the administrator exists it is gone.

use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::html;
use serde::Deserialize;
use weiqi_account::Actor;

use super::{csrf_field, csrf_refused, message, page, redirect};
use crate::Web;
use crate::i18n::t;
use crate::session::{Viewer, csrf_ok, same};

fn secret_ok(web: &Web, secret: &str) -> bool {
    !web.index.has_admin() && web.setup.lock().expect("setup lock").as_deref().is_some_and(|s| same(s, secret))
}

fn render(web: &Web, viewer: &Viewer, secret: &str, error: Option<String>) -> Response {
    let lang = viewer.lang;
    let body = html! {
        section.card.narrow {
            h1 { (t(lang, "setup-title")) }
            p { (t(lang, "setup-intro")) }
            @if let Some(e) = &error { p.error data-error="setup" role="alert" { (e) } }
            form method="post" action={ "/setup/" (secret) } {
                (csrf_field(viewer))
                label for="name" { (t(lang, "field-name")) }
                input id="name" name="name" required autocomplete="username" autocapitalize="none" pattern="[A-Za-z0-9_-]{1,64}";
                label for="display_name" { (t(lang, "field-display-name")) }
                input id="display_name" name="display_name" required;
                label for="password" { (t(lang, "field-new-password")) }
                input id="password" name="password" type="password" required minlength="8" autocomplete="new-password";
                button type="submit" { (t(lang, "setup-create")) }
            }
        }
    };
    page(web, viewer, &t(lang, "setup-title"), body, &[])
}

/// `GET /setup/{secret}`.
pub async fn form(State(web): State<Arc<Web>>, viewer: Viewer, Path(secret): Path<String>) -> Response {
    if !secret_ok(&web, &secret) {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(viewer.lang, "setup-gone"));
    }
    render(&web, &viewer, &secret, None)
}

/// The form.
#[derive(Deserialize)]
pub struct SetupForm {
    name: String,
    display_name: String,
    password: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /setup/{secret}`.
pub async fn submit(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path(secret): Path<String>,
    headers: HeaderMap,
    Form(form): Form<SetupForm>,
) -> Response {
    let lang = viewer.lang;
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    if !secret_ok(&web, &secret) {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "setup-gone"));
    }
    let name = form.name.trim().to_string();
    let roles = vec!["admin".to_string(), "player".to_string()];
    let request = format!("setup-{}", &secret[..secret.len().min(16)]);
    match web
        .accounts
        .create(&name, form.display_name.trim(), &roles, Some(&form.password), &Actor::System, &request)
        .await
    {
        Ok(()) => {
            *web.setup.lock().expect("setup lock") = None;
            let Ok(Some(account)) = web.accounts.get(&name).await else {
                return message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable"));
            };
            let token = web.session_token(&name, &account);
            redirect("/admin/accounts", vec![web.login_cookie(&token)])
        }
        Err(e) => render(&web, &viewer, &secret, Some(super::account_error(lang, &e))),
    }
}
