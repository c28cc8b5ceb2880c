//! Who is asking, in which language, and whether a POST carries its CSRF token.
//!
//! * The session cookie `wq_session` holds an API token (the same JWT `weiqi token` issues, signed by
//!   the server's secret) with the account's roles. It is HttpOnly, SameSite=Lax, `Secure` when the
//!   site is served over TLS, and lasts 14 days. Every request checks it against the account as the
//!   index has folded it from its log (the log itself for an account not folded yet), so a disabled
//!   account (or one whose roles changed) is logged out or re-scoped at its next request.
//! * The CSRF token is a double-submit cookie `wq_csrf` (random, HttpOnly, SameSite=Lax) that each
//!   page repeats in its forms (`<input name=csrf>`) and in `<meta name=csrf-token>` for `fetch`
//!   (`x-csrf-token` header). A POST whose token is missing or differs is refused with 403 and does
//!   nothing. Another site can neither read the cookie nor set it, so it cannot forge the pair.
//! * The language: `?lang=` (which also sets the `lang` cookie), the `lang` cookie, `Accept-Language`,
//!   else Chinese.

use std::time::Duration;

use axum::http::{HeaderMap, HeaderValue, header};
use weiqi_account::Account;
use weiqi_edge::auth::{Claims, Role, Standing};

use crate::Web;
use crate::i18n::Lang;

pub use weiqi_edge::auth::{SESSION_COOKIE, cookie};

/// The CSRF cookie's name.
pub const CSRF_COOKIE: &str = "wq_csrf";
/// How long a login lasts.
pub const SESSION_TTL: Duration = Duration::from_secs(14 * 24 * 3600);

/// A signed-in account.
#[derive(Clone, Debug)]
pub struct Member {
    /// The session's token (sent to the gateway as `authorization: Bearer`).
    pub token: String,
    /// Its claims.
    pub claims: Claims,
    /// The account as its log folds now.
    pub account: Account,
}

impl Member {
    /// The account name (= player id).
    pub fn name(&self) -> &str {
        &self.claims.sub
    }

    /// The member as the services' authorities know a caller: what the account allows now.
    pub fn caller(&self) -> weiqi_game::authority::Caller {
        weiqi_game::api::caller(&self.claims)
    }

    /// Whether the account holds `role` (administrators hold every role).
    pub fn has(&self, role: Role) -> bool {
        self.claims.has(role)
    }
}

/// Who is asking.
#[derive(Clone, Debug)]
pub struct Viewer {
    /// The page's language.
    pub lang: Lang,
    /// Whether the language was chosen with `?lang=` (to remember it in a cookie).
    pub lang_chosen: bool,
    /// The signed-in account, if any.
    pub member: Option<Member>,
    /// The CSRF token for this browser.
    pub csrf: String,
    /// Whether the CSRF cookie must be set (first visit).
    pub new_csrf: bool,
    /// Whether a session cookie was sent that no longer holds (expired, disabled): clear it.
    pub stale_session: bool,
}

/// The viewer as a handler's argument: who asks (the session cookie, checked against the account's
/// state now), in which language (`?lang=`, the `lang` cookie, `Accept-Language`), with the browser's
/// CSRF token. Never refuses: a visitor who is not signed in is a viewer without a member.
impl axum::extract::FromRequestParts<std::sync::Arc<Web>> for Viewer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        web: &std::sync::Arc<Web>,
    ) -> Result<Viewer, Self::Rejection> {
        Ok(web.viewer(&parts.headers, parts.uri.query()).await)
    }
}

/// The roles an account holds, as tokens know them.
pub fn account_roles(account: &Account) -> Vec<Role> {
    Role::ALL.into_iter().filter(|r| account.roles.contains(r.name())).collect()
}

/// What the token authority needs of an account: its roles now, whether it is disabled, the API
/// tokens revoked and the sessions signed out.
pub fn standing(account: &Account) -> Standing {
    let ended = account
        .tokens
        .iter()
        .filter(|(_, t)| t.revoked)
        .map(|(id, _)| id.clone())
        .chain(account.ended_sessions.iter().cloned())
        .collect();
    Standing {
        roles: account_roles(account),
        disabled: account.disabled.is_some(),
        ended,
        sessions_from_ms: u64::try_from(account.sessions_from_ms).unwrap_or(0),
    }
}

fn random_hex() -> String {
    hex::encode(uuid::Uuid::new_v4().as_bytes())
}

/// Compares two strings in time independent of where they differ.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn query_lang(query: Option<&str>) -> Option<Lang> {
    let q = query?;
    let value = q.split('&').filter_map(|kv| kv.split_once('=')).find(|(k, _)| *k == "lang").map(|(_, v)| v)?;
    match value {
        "en" => Some(Lang::En),
        "zh-CN" | "zh" | "zh-cn" => Some(Lang::ZhCn),
        _ => None,
    }
}

impl Web {
    /// Who sent `headers` (with the URI's query, for `?lang=`).
    pub async fn viewer(&self, headers: &HeaderMap, query: Option<&str>) -> Viewer {
        let chosen = query_lang(query);
        let lang = chosen.unwrap_or_else(|| {
            let from_cookie = cookie(headers, "lang");
            let accept = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
            Lang::negotiate(from_cookie.unwrap_or(accept))
        });
        let (csrf, new_csrf) = match cookie(headers, CSRF_COOKIE).filter(|c| c.len() == 32) {
            Some(c) => (c.to_string(), false),
            None => (random_hex(), true),
        };
        let mut viewer =
            Viewer { lang, lang_chosen: chosen.is_some(), member: None, csrf, new_csrf, stale_session: false };
        if let Some(token) = cookie(headers, SESSION_COOKIE).filter(|t| !t.is_empty()) {
            match self.member(token).await {
                Some(m) => viewer.member = Some(m),
                None => viewer.stale_session = true,
            }
        }
        viewer
    }

    /// The member a session token stands for, if it verifies now (the authority checks it against the
    /// account's standing: enabled, not signed out, and with the roles the account holds now).
    async fn member(&self, token: &str) -> Option<Member> {
        let signed = self.auth.verify(token).ok()?;
        signed.sid.as_ref()?;
        // The index follows the account logs (and feeds the authority), so it is read first; an
        // account it has not folded yet (created a moment ago) is read from its log and told to the
        // authority, and the token checked again.
        let (account, claims) = match self.index.account(&signed.sub) {
            Some(account) => (account, signed),
            None => {
                let account = self.accounts.get(&signed.sub).await.ok().flatten()?;
                self.auth.set_standing(&signed.sub, Some(standing(&account)));
                let claims = self.auth.verify(token).ok()?;
                (account, claims)
            }
        };
        Some(Member { token: token.to_string(), claims, account })
    }

    /// A new session's token for `name` holding `account`'s roles, with a new session id.
    pub fn session_token(&self, name: &str, account: &Account) -> String {
        self.auth.set_standing(name, Some(standing(account)));
        self.auth.issue_session(name, &account_roles(account), SESSION_TTL, &random_hex())
    }

    fn cookie_attributes(&self) -> &'static str {
        if self.config.secure_cookies {
            "; Path=/; HttpOnly; SameSite=Lax; Secure"
        } else {
            "; Path=/; HttpOnly; SameSite=Lax"
        }
    }

    /// The `Set-Cookie` values a response to `viewer` carries (CSRF on first visit, the language when
    /// chosen, clearing a stale session).
    pub fn cookies_for(&self, viewer: &Viewer) -> Vec<HeaderValue> {
        let mut out = Vec::new();
        let attrs = self.cookie_attributes();
        if viewer.new_csrf {
            out.push(format!("{CSRF_COOKIE}={}{attrs}", viewer.csrf));
        }
        if viewer.lang_chosen {
            out.push(format!("lang={}; Path=/; SameSite=Lax; Max-Age=31536000", viewer.lang.tag()));
        }
        if viewer.stale_session {
            out.push(format!("{SESSION_COOKIE}={attrs}; Max-Age=0"));
        }
        out.into_iter().filter_map(|c| HeaderValue::from_str(&c).ok()).collect()
    }

    /// The `Set-Cookie` value that signs a browser in with `token`.
    pub fn login_cookie(&self, token: &str) -> HeaderValue {
        let value = format!("{SESSION_COOKIE}={token}{}; Max-Age={}", self.cookie_attributes(), SESSION_TTL.as_secs());
        HeaderValue::from_str(&value).expect("a token is ASCII")
    }

    /// The `Set-Cookie` value that signs a browser out.
    pub fn logout_cookie(&self) -> HeaderValue {
        HeaderValue::from_str(&format!("{SESSION_COOKIE}={}; Max-Age=0", self.cookie_attributes())).expect("ASCII")
    }
}

/// Whether a POST carries this browser's CSRF token (form field `csrf` or header `x-csrf-token`).
pub fn csrf_ok(headers: &HeaderMap, form_token: Option<&str>) -> bool {
    let Some(cookie) = cookie(headers, CSRF_COOKIE) else { return false };
    let sent = headers.get("x-csrf-token").and_then(|v| v.to_str().ok()).or(form_token);
    sent.is_some_and(|s| same(s, cookie))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_among_others() {
        let mut h = HeaderMap::new();
        h.append(header::COOKIE, HeaderValue::from_static("a=1; wq_csrf=abc; lang=en"));
        h.append(header::COOKIE, HeaderValue::from_static("wq_session=tok"));
        assert_eq!(cookie(&h, "wq_csrf"), Some("abc"));
        assert_eq!(cookie(&h, "lang"), Some("en"));
        assert_eq!(cookie(&h, "wq_session"), Some("tok"));
        assert_eq!(cookie(&h, "missing"), None);
    }

    #[test]
    fn a_post_needs_the_cookie_and_the_same_token() {
        let mut h = HeaderMap::new();
        assert!(!csrf_ok(&h, Some("x")), "no cookie");
        h.insert(header::COOKIE, HeaderValue::from_static("wq_csrf=0123456789abcdef0123456789abcdef"));
        assert!(!csrf_ok(&h, None), "no token sent");
        assert!(!csrf_ok(&h, Some("0123456789abcdef0123456789abcdee")), "another token");
        assert!(csrf_ok(&h, Some("0123456789abcdef0123456789abcdef")));
        h.insert("x-csrf-token", HeaderValue::from_static("0123456789abcdef0123456789abcdef"));
        assert!(csrf_ok(&h, None), "the fetch header");
    }

    #[test]
    fn the_language_is_chosen_by_query_then_cookie_then_header() {
        assert_eq!(query_lang(Some("lang=en")), Some(Lang::En));
        assert_eq!(query_lang(Some("x=1&lang=zh-CN")), Some(Lang::ZhCn));
        assert_eq!(query_lang(Some("lang=fr")), None);
        assert_eq!(query_lang(None), None);
    }
}
