//! `/invitations/{player}/{secret}`: the person a registry entry belongs to takes it as their account
//! (issue 33 item 1). Staff made the link on `/registry`; it names the entry and carries a secret
//! whose hash the player's log holds. Opening it shows whose entry it is; setting a password makes
//! the account of that id (a player), records the invitation accepted in the player's log, and signs
//! the person in. A wrong, replaced, used or expired link says so in the page's language and makes
//! nothing. Attempts count against the same limits as logins.
//!
//! The link is not a login token: it signs no one in by itself, works once, and only for an entry that
//! has no account yet.

use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::html;
use serde::Deserialize;
use weiqi_account::Actor;
use weiqi_ranking::views::RegistryPlayer;

use super::{
    ClientAddr, account_error, csrf_field, csrf_refused, message, page, redirect, refused_status, refused_text,
};
use crate::Web;
use crate::i18n::{rank_text, t, ta};
use crate::session::{Viewer, csrf_ok};

/// The shown name an accepted invitation gives the account: the registry's Chinese name, else the
/// Latin one, else the id.
fn shown_name(p: &RegistryPlayer) -> String {
    [p.profile.name_zh.trim(), p.profile.name_latin.trim(), p.profile.id.0.as_str()]
        .into_iter()
        .find(|n| !n.is_empty())
        .unwrap_or_default()
        .to_owned()
}

fn render(web: &Web, viewer: &Viewer, player: &RegistryPlayer, secret: &str, error: Option<String>) -> Response {
    let lang = viewer.lang;
    let id = &player.profile.id.0;
    let body = html! {
        section.card.narrow data-invitation-for=(id) {
            h1 { (t(lang, "invitation-title")) }
            p { (ta(lang, "invitation-intro", &[("name", player.profile.display_name())])) }
            dl.facts {
                dt { (t(lang, "field-name")) } dd data-login=(id) { (id) }
                @if !player.profile.region.is_empty() { dt { (t(lang, "col-region")) } dd { (player.profile.region) } }
                @if !player.rank.is_empty() { dt { (t(lang, "col-rank")) } dd { (rank_text(lang, &player.rank)) } }
            }
            @if let Some(e) = &error { p.error data-error="invitation" role="alert" { (e) } }
            form method="post" action={ "/invitations/" (id) "/" (secret) } {
                (csrf_field(viewer))
                label for="password" { (t(lang, "field-new-password")) }
                input id="password" name="password" type="password" required minlength="8" autocomplete="new-password";
                button type="submit" data-action="accept-invitation" { (t(lang, "invitation-accept")) }
            }
            p.small { (t(lang, "invitation-help")) }
        }
    };
    page(web, viewer, &t(lang, "invitation-title"), body, &[])
}

/// The registry entry the link opens now, or the page that says why not.
async fn opened(web: &Web, viewer: &Viewer, player: &str, secret: &str) -> Result<RegistryPlayer, Response> {
    let lang = viewer.lang;
    let Some(r) = web.ranking.clone() else {
        return Err(message(web, viewer, StatusCode::NOT_FOUND, &t(lang, "refusal-unavailable")));
    };
    if secret.len() > 128 || player.len() > 64 {
        return Err(message(web, viewer, StatusCode::NOT_FOUND, &t(lang, "refusal-no-invitation")));
    }
    r.invitation(player, secret).await.map_err(|e| message(web, viewer, refused_status(&e), &refused_text(lang, &e)))
}

/// `GET /invitations/{player}/{secret}`.
pub async fn form(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path((player, secret)): Path<(String, String)>,
) -> Response {
    match opened(&web, &viewer, &player, &secret).await {
        Ok(entry) => render(&web, &viewer, &entry, &secret, None),
        Err(response) => response,
    }
}

/// The form.
#[derive(Default, Deserialize)]
pub struct AcceptForm {
    #[serde(default)]
    password: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /invitations/{player}/{secret}`: makes the account, records the acceptance, signs in.
pub async fn accept(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Path((player, secret)): Path<(String, String)>,
    Form(form): Form<AcceptForm>,
) -> Response {
    let lang = viewer.lang;
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    if let Err(wait) = web.limits.attempt(&player, addr) {
        let seconds = crate::limits::seconds_to_wait(wait);
        let said = ta(lang, "login-limited", &[("seconds", seconds.to_string())]);
        return crate::limits::with_retry_after(message(&web, &viewer, StatusCode::TOO_MANY_REQUESTS, &said), seconds);
    }
    let entry = match opened(&web, &viewer, &player, &secret).await {
        Ok(entry) => entry,
        Err(response) => return response,
    };
    let Some(r) = web.ranking.clone() else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "refusal-unavailable"));
    };
    let id = entry.profile.id.0.clone();
    if web.index.account_like(&id).is_some() {
        let said = ta(lang, "invitation-account-exists", &[("name", id.clone())]);
        return render(&web, &viewer, &entry, &secret, Some(said));
    }
    // The request id follows the link, so a resubmitted form makes the account once.
    let request = format!("invitation-{}", &weiqi_ranking::service::token_hash(&secret)[..32]);
    let roles = ["player".to_string()];
    let made =
        web.accounts.create(&id, &shown_name(&entry), &roles, Some(&form.password), &Actor::System, &request).await;
    if let Err(e) = made {
        let mut response = render(&web, &viewer, &entry, &secret, Some(account_error(lang, &e)));
        *response.status_mut() = StatusCode::BAD_REQUEST;
        return response;
    }
    if let Err(e) = r.accept_invitation(&id, &secret).await {
        // The account exists and is the entry's; only the record of the link's use is missing, and the
        // link cannot make a second account. Say so and carry on.
        tracing::warn!(player = %id, error = %refused_text(lang, &e), "an accepted invitation is not recorded");
    }
    tracing::info!(player = %id, "an invitation was accepted: the registry entry has its account");
    let Ok(Some(account)) = web.accounts.get(&id).await else {
        return message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable"));
    };
    let token = web.session_token(&id, &account);
    let mut cookies = web.cookies_for(&viewer);
    cookies.push(web.login_cookie(&token));
    redirect("/account", cookies)
}
