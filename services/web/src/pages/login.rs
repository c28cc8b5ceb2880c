//! `/login` (WEB.md's contract: `input[name=name]`, `input[name=password]`, one submit button) and
//! `POST /logout`.

use std::sync::Arc;

use axum::Form;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::html;
use serde::Deserialize;
use weiqi_account::LoginError;

use super::{ClientAddr, csrf_field, csrf_refused, page, redirect};
use crate::Web;
use crate::i18n::{t, ta};
use crate::session::{Viewer, csrf_ok};

/// Where to go after signing in: `next` if it is a path on this site, else `/`. The target is parsed
/// as a browser will parse it (WHATWG URL: a browser drops TAB and newlines and reads `\\` as `/`, so
/// `/\t/evil.example` is `//evil.example`); it must be a path with no control characters or
/// whitespace and resolve to this site's origin.
fn safe_next(next: Option<&str>) -> String {
    let Some(n) = next else { return "/".to_string() };
    if !n.starts_with('/') || n.chars().any(|c| c.is_control() || c.is_whitespace() || c == '\\') {
        return "/".to_string();
    }
    let Ok(base) = url::Url::parse("http://this-site.invalid/") else { return "/".to_string() };
    match base.join(n) {
        Ok(target) if target.origin() == base.origin() => {
            let mut path = target.path().to_string();
            if let Some(q) = target.query() {
                path.push('?');
                path.push_str(q);
            }
            if let Some(f) = target.fragment() {
                path.push('#');
                path.push_str(f);
            }
            path
        }
        _ => "/".to_string(),
    }
}

fn next_of(query: Option<&str>) -> Option<String> {
    let q = query?;
    q.split('&').filter_map(|kv| kv.split_once('=')).find(|(k, _)| *k == "next").map(|(_, v)| {
        // Only what our own links put there: a path, percent-encoded `/` at most.
        v.replace("%2F", "/")
    })
}

async fn render(
    web: &Web,
    viewer: &Viewer,
    name: &str,
    next: &str,
    error: Option<String>,
    status: StatusCode,
) -> Response {
    let lang = viewer.lang;
    let can_register = super::register::open(web).await;
    let body = html! {
        section.card.narrow {
            h1 { (t(lang, "login-title")) }
            @if let Some(e) = &error {
                p.error data-error="login" role="alert" { (e) }
            }
            form method="post" action="/login" {
                (csrf_field(viewer))
                input type="hidden" name="next" value=(next);
                label for="name" { (t(lang, "field-name")) }
                input id="name" name="name" type="text" autocomplete="username" autocapitalize="none" required value=(name);
                label for="password" { (t(lang, "field-password")) }
                input id="password" name="password" type="password" autocomplete="current-password" required;
                button type="submit" { (t(lang, "login")) }
            }
            @if can_register {
                p { a href="/register" data-link="register" { (t(lang, "login-register-link")) } }
            }
        }
    };
    let mut r = page(web, viewer, &t(lang, "login-title"), body, &[]);
    *r.status_mut() = status;
    r
}

/// `GET /login`.
pub async fn form(State(web): State<Arc<Web>>, viewer: Viewer, RawQuery(query): RawQuery) -> Response {
    let next = safe_next(next_of(query.as_deref()).as_deref());
    if viewer.member.is_some() {
        return redirect(&next, vec![]);
    }
    render(&web, &viewer, "", &next, None, StatusCode::OK).await
}

/// The login form.
#[derive(Deserialize)]
pub struct LoginForm {
    name: String,
    password: String,
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    next: String,
}

/// `POST /login`.
pub async fn submit(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Response {
    let lang = viewer.lang;
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    let name = form.name.trim().to_string();
    let next = safe_next(Some(&form.next));
    if name.len() > 64 || form.password.len() > 1024 {
        return render(&web, &viewer, "", &next, Some(t(lang, "login-wrong")), StatusCode::UNAUTHORIZED).await;
    }
    if let Err(wait) = web.limits.attempt(&name, addr) {
        let seconds = crate::limits::seconds_to_wait(wait);
        tracing::warn!(account = %name, address = ?addr, "login attempts limited");
        let error = ta(lang, "login-limited", &[("seconds", seconds.to_string())]);
        let refused = render(&web, &viewer, &name, &next, Some(error), StatusCode::TOO_MANY_REQUESTS).await;
        return crate::limits::with_retry_after(refused, seconds);
    }
    match web.accounts.login(&name, &form.password).await {
        Ok(account) => {
            let token = web.session_token(&name, &account);
            let mut cookies = web.cookies_for(&Viewer { stale_session: false, ..viewer });
            cookies.push(web.login_cookie(&token));
            redirect(&next, cookies)
        }
        Err(LoginError::Wrong) => {
            render(&web, &viewer, &name, &next, Some(t(lang, "login-wrong")), StatusCode::UNAUTHORIZED).await
        }
        Err(LoginError::Disabled) => {
            render(&web, &viewer, &name, &next, Some(t(lang, "login-disabled")), StatusCode::FORBIDDEN).await
        }
        Err(LoginError::Unavailable(why)) => {
            tracing::warn!(error = %why, "login: accounts unavailable");
            render(&web, &viewer, &name, &next, Some(t(lang, "refusal-unavailable")), StatusCode::SERVICE_UNAVAILABLE)
                .await
        }
    }
}

/// The logout form.
#[derive(Deserialize)]
pub struct LogoutForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /logout`.
pub async fn logout(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    headers: HeaderMap,
    Form(form): Form<LogoutForm>,
) -> Response {
    if !csrf_ok(&headers, Some(&form.csrf)) {
        return csrf_refused(&web, &viewer);
    }
    // The session ends on the server: its token is refused from now on, wherever it was copied to.
    if let Some(m) = &viewer.member
        && let Some(sid) = &m.claims.sid
    {
        let actor = weiqi_account::Actor::Holder(m.name().to_string());
        let request = format!("logout-{sid}");
        if let Err(e) = web.accounts.end_session(m.name(), sid, &actor, &request).await {
            tracing::warn!(account = %m.name(), error = %e, "logout: the session could not be ended");
            let lang = viewer.lang;
            return super::message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable"));
        }
    }
    redirect("/", vec![web.logout_cookie()])
}

#[cfg(test)]
mod tests {
    use super::safe_next;

    #[test]
    fn only_paths_on_this_site_are_followed_after_login() {
        assert_eq!(safe_next(Some("/games/abc")), "/games/abc");
        assert_eq!(safe_next(Some("//evil.example/")), "/");
        assert_eq!(safe_next(Some("https://evil.example/")), "/");
        assert_eq!(safe_next(Some("/\\evil")), "/");
        assert_eq!(safe_next(None), "/");
        // What a browser would read as another site: TAB, newlines and other whitespace or control
        // characters inside `//`, backslashes, an encoded slash pair is a path and stays here.
        for evil in [
            "/\t/evil.example",
            "/\n/evil.example",
            "/\r\n/evil.example",
            "/ /evil.example",
            "/\u{0}/evil",
            "\t//evil.example",
            "/\\/evil.example",
            "/\u{85}/evil.example",
            "/\u{3000}/evil.example",
        ] {
            assert_eq!(safe_next(Some(evil)), "/", "{evil:?}");
        }
        assert_eq!(safe_next(Some("/games/abc?lang=en#board")), "/games/abc?lang=en#board");
        assert_eq!(safe_next(Some("/%2F%2Fevil.example")), "/%2F%2Fevil.example", "an encoded slash is a path segment");
        assert_eq!(safe_next(Some("/players/../desk")), "/desk");
    }
}
