//! Authentication: tokens signed by the server (JWT, HS256, with the server's secret), carrying the
//! subject (a player or staff id), roles, and the events a referee or organiser acts for.
//!
//! Roles: `player` acts only in their own games and only on their turn (the game domain enforces
//! both); `referee` and `chief_referee` act on games of their events; `organiser` creates games and
//! tournaments of their events; `broadcaster` and `spectator` only read; `admin` is an organiser of
//! every event. An event list containing `*` means every event.
//!
//! # A token is a name, the account is the authority
//!
//! A signature proves who a token was issued to, not what they may do now. Whoever follows the
//! account logs tells the [`Authority`] each account's [`Standing`] (its roles now, disabled or not,
//! the tokens and sessions that were ended), and [`Authority::verify`] answers every request with the
//! claims that standing allows:
//!
//! * a disabled account, a revoked API token and a signed-out session verify no more;
//! * a browser session (a token with a session id, `sid`) acts with the account's roles *now*: a role
//!   granted after the login works at the next request, a revoked one stops at once;
//! * an API token acts with the roles it was issued with that the account still holds;
//! * a token for a name that has no account (issued by `weiqi token` on the server, for programs and
//!   demonstrations) keeps the roles the operator signed; a session always needs its account.
//!
//! gRPC (`Authority::caller`), the pages, the overlay and the record routes all call `verify`, so this
//! is the one place a token's authority is decided; streams re-check it when a standing changes
//! ([`Authority::changes`]).

use std::time::Duration;

use weiqi_aggregate::{Environment as _, SystemEnvironment};

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use tonic::Status;

/// A role a token can carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Plays games.
    Player,
    /// Referees games of their events.
    Referee,
    /// The chief referee of their events (one-sided clock corrections).
    ChiefReferee,
    /// Organises events: creates games and tournaments, records results.
    Organiser,
    /// Reads games and clocks for overlays.
    Broadcaster,
    /// Reads games.
    Spectator,
    /// Reviews rank certification cases.
    Reviewer,
    /// Everything, every event.
    Admin,
}

impl Role {
    /// All roles, for listings.
    pub const ALL: [Role; 8] = [
        Role::Player,
        Role::Referee,
        Role::ChiefReferee,
        Role::Organiser,
        Role::Broadcaster,
        Role::Spectator,
        Role::Reviewer,
        Role::Admin,
    ];

    /// The role's name as tokens write it.
    pub fn name(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Referee => "referee",
            Role::ChiefReferee => "chief_referee",
            Role::Organiser => "organiser",
            Role::Broadcaster => "broadcaster",
            Role::Spectator => "spectator",
            Role::Reviewer => "reviewer",
            Role::Admin => "admin",
        }
    }
}

/// The claims of a token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// Subject: the player or staff id.
    pub sub: String,
    /// Roles.
    pub roles: Vec<Role>,
    /// Events (tournament or event ids) a referee/organiser acts for; `*` = all.
    #[serde(default)]
    pub events: Vec<String>,
    /// Expiry, seconds since the epoch.
    pub exp: u64,
    /// Issued at.
    pub iat: u64,
    /// Issuer.
    pub iss: String,
    /// The token's id, for tokens an account issued from its page (so it can revoke them); absent
    /// in tokens from `weiqi token` and in browser sessions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jti: Option<String>,
    /// The browser session's id (sessions only): logging out ends it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<String>,
    /// Issued at, in milliseconds (sessions only): "sign out everywhere" ends every session issued
    /// before its instant.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub iat_ms: u64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// The events a role set acts for when the account log gives no scope: staff roles act for every
/// event (the account log keeps roles, not per-event scopes; `weiqi token --event` issues scoped
/// tokens for programs).
pub fn account_events(roles: &[Role]) -> Vec<String> {
    let staff = roles.iter().any(|r| matches!(r, Role::Referee | Role::ChiefReferee | Role::Organiser | Role::Admin));
    if staff { vec!["*".to_string()] } else { Vec::new() }
}

/// An account as the authority needs it now, folded from its log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// The roles it holds.
    pub roles: Vec<Role>,
    /// Disabled by an administrator.
    pub disabled: bool,
    /// Ids of its API tokens that were revoked and of its sessions that were signed out.
    pub ended: std::collections::HashSet<String>,
    /// Every session issued before this instant (ms since the epoch) is signed out ("sign out
    /// everywhere"); 0: none.
    pub sessions_from_ms: u64,
}

impl Claims {
    /// Whether the token has this role (admins have every role).
    pub fn has(&self, role: Role) -> bool {
        self.roles.contains(&role) || self.roles.contains(&Role::Admin)
    }

    /// Whether the token may act for `event` (admins and `*` act for every event).
    pub fn covers_event(&self, event: &str) -> bool {
        self.roles.contains(&Role::Admin) || self.events.iter().any(|e| e == "*" || e == event)
    }

    /// Whether the token may take referee actions on a game of `event` (`None`: the game has no event,
    /// only admins and organisers of every event may).
    pub fn referees(&self, event: Option<&str>) -> bool {
        let staff = self.has(Role::Referee) || self.has(Role::ChiefReferee) || self.has(Role::Organiser);
        staff
            && match event {
                Some(e) => self.covers_event(e),
                None => self.covers_event("*"),
            }
    }
}

/// The cookie a signed-in browser carries: the same signed token as `authorization: Bearer`.
pub const SESSION_COOKIE: &str = "wq_session";

/// The value of cookie `name` in a request's `Cookie` headers.
pub fn cookie<'a>(headers: &'a axum::http::HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
}

/// Issues and checks tokens with one secret.
#[derive(Clone)]
pub struct Authority {
    encoding: EncodingKey,
    decoding: DecodingKey,
    issuer: String,
    /// Tokens already verified, with their claims: a client sends the same token with every move, and
    /// checking the signature and parsing the JSON each time costs more than the move itself. Entries
    /// are only used before their expiry and the cache is emptied when it grows past a bound.
    verified: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, Claims>>>,
    /// Every account's standing by name, kept up to date by whoever follows the account logs (the
    /// web's index), and by the account commands of this process as soon as they are appended.
    standings: std::sync::Arc<std::sync::RwLock<std::collections::HashMap<String, Standing>>>,
    /// Bumped whenever a standing changes, so that open streams check their token again.
    changes: std::sync::Arc<tokio::sync::watch::Sender<u64>>,
}

/// Tokens the verification cache holds before it is emptied.
const VERIFIED_CACHE: usize = 100_000;

impl std::fmt::Debug for Authority {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authority").field("issuer", &self.issuer).finish_non_exhaustive()
    }
}

/// Why a request is not authenticated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// No `authorization: Bearer …` metadata.
    #[error("missing bearer token (metadata `authorization: Bearer <token>`)")]
    Missing,
    /// The token does not verify, is malformed, or was signed by another server.
    #[error("invalid token: {0}")]
    Invalid(String),
    /// The token has expired.
    #[error("token expired")]
    Expired,
    /// The token was revoked, its session signed out, or its account disabled.
    #[error("token revoked: {0}")]
    Revoked(&'static str),
}

impl AuthError {
    /// A stable code for clients and pages (`missing`, `invalid`, `expired`, `revoked`).
    pub fn code(&self) -> &'static str {
        match self {
            AuthError::Missing => "missing",
            AuthError::Invalid(_) => "invalid",
            AuthError::Expired => "expired",
            AuthError::Revoked(_) => "revoked",
        }
    }
}

impl From<AuthError> for Status {
    fn from(e: AuthError) -> Status {
        Status::unauthenticated(e.to_string())
    }
}

/// Server time in ms since the Unix epoch, from the environment.
fn now_ms() -> u64 {
    u64::try_from(SystemEnvironment.now().0).unwrap_or(0)
}

fn now_secs() -> u64 {
    now_ms() / 1000
}

impl Authority {
    /// An authority with a secret of at least 32 bytes.
    pub fn new(secret: &[u8], issuer: impl Into<String>) -> Authority {
        Authority {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            issuer: issuer.into(),
            verified: Default::default(),
            standings: Default::default(),
            changes: std::sync::Arc::new(tokio::sync::watch::channel(0).0),
        }
    }

    /// Records what the account `subject` is now (`None`: no such account). Every token of it is
    /// checked against this from the next request on, and open streams are told to check again.
    pub fn set_standing(&self, subject: &str, standing: Option<Standing>) {
        {
            let mut standings = self.standings.write().expect("standings lock");
            let changed = match standing {
                Some(s) => standings.insert(subject.to_string(), s.clone()).is_none_or(|old| old != s),
                None => standings.remove(subject).is_some(),
            };
            if !changed {
                return;
            }
        }
        self.changes.send_modify(|v| *v += 1);
    }

    /// The account `subject`'s standing as last told.
    pub fn standing(&self, subject: &str) -> Option<Standing> {
        self.standings.read().expect("standings lock").get(subject).cloned()
    }

    /// A receiver that changes whenever a standing does: a stream opened with a token checks it again
    /// then, and ends when it no longer verifies.
    pub fn changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// The claims `signed` grants now, from its account's standing.
    fn effective(&self, mut claims: Claims) -> Result<Claims, AuthError> {
        let standings = self.standings.read().expect("standings lock");
        let Some(standing) = standings.get(&claims.sub) else {
            if claims.sid.is_some() {
                return Err(AuthError::Revoked("the session's account does not exist"));
            }
            // A token the server's operator signed for a name that has no account.
            return Ok(claims);
        };
        if standing.disabled {
            return Err(AuthError::Revoked("the account is disabled"));
        }
        if claims.jti.as_ref().is_some_and(|j| standing.ended.contains(j)) {
            return Err(AuthError::Revoked("the token was revoked on its account page"));
        }
        if let Some(sid) = &claims.sid {
            let issued_ms = if claims.iat_ms > 0 { claims.iat_ms } else { claims.iat.saturating_mul(1000) };
            if standing.ended.contains(sid) || issued_ms < standing.sessions_from_ms {
                return Err(AuthError::Revoked("the session was signed out"));
            }
            claims.roles = standing.roles.clone();
            claims.events = account_events(&standing.roles);
        } else {
            let admin = standing.roles.contains(&Role::Admin);
            claims.roles.retain(|r| admin || standing.roles.contains(r));
        }
        Ok(claims)
    }

    /// Issues a token with an id (`jti`), which the account can revoke.
    pub fn issue_with_id(&self, subject: &str, roles: &[Role], events: &[&str], ttl: Duration, jti: &str) -> String {
        self.sign(subject, roles, events, ttl, Some(jti), None)
    }

    /// Issues a token.
    pub fn issue(&self, subject: &str, roles: &[Role], events: &[&str], ttl: Duration) -> String {
        self.sign(subject, roles, events, ttl, None, None)
    }

    /// Issues a browser session's token for the account `subject`, with the session id `sid`. It acts
    /// with the account's roles at each request (the roles signed in it are those of the login).
    pub fn issue_session(&self, subject: &str, roles: &[Role], ttl: Duration, sid: &str) -> String {
        let events = account_events(roles);
        let events: Vec<&str> = events.iter().map(String::as_str).collect();
        self.sign(subject, roles, &events, ttl, None, Some(sid))
    }

    fn sign(
        &self,
        subject: &str,
        roles: &[Role],
        events: &[&str],
        ttl: Duration,
        jti: Option<&str>,
        sid: Option<&str>,
    ) -> String {
        let now_ms = now_ms();
        let secs = now_ms / 1000;
        let claims = Claims {
            sub: subject.to_string(),
            roles: roles.to_vec(),
            events: events.iter().map(|e| e.to_string()).collect(),
            exp: secs + ttl.as_secs(),
            iat: secs,
            iss: self.issuer.clone(),
            jti: jti.map(str::to_string),
            sid: sid.map(str::to_string),
            iat_ms: if sid.is_some() { now_ms } else { 0 },
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .expect("HS256 signing cannot fail")
    }

    /// Checks a token: its signature and expiry, then what its account's standing allows now.
    pub fn verify(&self, token: &str) -> Result<Claims, AuthError> {
        if let Some(claims) = self.verified.lock().expect("token cache").get(token)
            && claims.exp > now_secs()
        {
            return self.effective(claims.clone());
        }
        let claims = self.verify_uncached(token)?;
        {
            let mut cache = self.verified.lock().expect("token cache");
            if cache.len() >= VERIFIED_CACHE {
                cache.clear();
            }
            cache.insert(token.to_string(), claims.clone());
        }
        self.effective(claims)
    }

    fn verify_uncached(&self, token: &str) -> Result<Claims, AuthError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[&self.issuer]);
        validation.leeway = 5;
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation).map(|d| d.claims).map_err(|e| {
            match e.kind() {
                jsonwebtoken::errors::ErrorKind::ExpiredSignature => AuthError::Expired,
                _ => AuthError::Invalid(e.to_string()),
            }
        })
    }

    /// `stream`, for as long as `token` verifies: when an account's standing changes (a role revoked,
    /// the account disabled, the token revoked, the session signed out) the token is checked again,
    /// and if it no longer verifies, or `still` no longer holds of its claims, the stream yields
    /// `refused(why)` (if it gives an item) and ends. A stream opened with a token never outlives the
    /// token's authority.
    pub fn guard<S>(
        &self,
        token: String,
        stream: S,
        still: impl Fn(&Claims) -> bool + Send + Sync + 'static,
        refused: impl Fn(AuthError) -> Option<S::Item> + Send + Sync + 'static,
    ) -> impl futures::Stream<Item = S::Item> + Send + 'static
    where
        S: futures::Stream + Send + 'static,
        S::Item: Send + 'static,
    {
        use futures::StreamExt;
        let checks = std::sync::Arc::new((self.clone(), token, still, refused));
        let state = Some((Box::pin(stream), self.changes()));
        futures::stream::unfold(state, move |state| {
            let checks = checks.clone();
            async move {
                let (mut stream, mut changes) = state?;
                loop {
                    tokio::select! {
                        item = stream.next() => return item.map(|i| (Some(i), Some((stream, changes)))),
                        changed = changes.changed() => {
                            if changed.is_err() {
                                // The authority is gone (shutting down): nothing more to check.
                                return stream.next().await.map(|i| (Some(i), Some((stream, changes))));
                            }
                            let (auth, token, still, refused) = &*checks;
                            let verdict = match auth.verify(token) {
                                Ok(claims) if still(&claims) => continue,
                                Ok(_) => AuthError::Revoked("the role this stream needs was revoked"),
                                Err(e) => e,
                            };
                            return Some((refused(verdict), None));
                        }
                    }
                }
            }
        })
        .filter_map(futures::future::ready)
    }

    /// The caller of a gRPC request, from its `authorization` metadata.
    pub fn caller<T>(&self, request: &tonic::Request<T>) -> Result<Claims, AuthError> {
        self.verify(bearer(request)?)
    }
}

/// The bearer token of a gRPC request, from its `authorization` metadata.
///
/// # Errors
/// No (or no readable) `authorization: Bearer …`.
pub fn bearer<T>(request: &tonic::Request<T>) -> Result<&str, AuthError> {
    let value = request.metadata().get("authorization").ok_or(AuthError::Missing)?;
    let text = value.to_str().map_err(|_| AuthError::Invalid("not ASCII".into()))?;
    let token = text.strip_prefix("Bearer ").or_else(|| text.strip_prefix("bearer ")).ok_or(AuthError::Missing)?;
    Ok(token.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_verify_and_forgeries_do_not() {
        let a = Authority::new(b"0123456789abcdef0123456789abcdef", "weiqi-test");
        let t = a.issue("ann", &[Role::Player], &[], Duration::from_secs(60));
        let c = a.verify(&t).unwrap();
        assert_eq!(c.sub, "ann");
        assert!(c.has(Role::Player) && !c.has(Role::Referee));
        let other = Authority::new(b"another secret of thirty-two bytes!!", "weiqi-test");
        assert!(matches!(other.verify(&t), Err(AuthError::Invalid(_))));
        let mut forged = t.clone();
        forged.push('x');
        assert!(a.verify(&forged).is_err());
        let expired = {
            let claims = Claims {
                sub: "ann".into(),
                roles: vec![Role::Player],
                events: vec![],
                exp: now_secs() - 3600,
                iat: now_secs() - 7200,
                iss: "weiqi-test".into(),
                jti: None,
                sid: None,
                iat_ms: 0,
            };
            jsonwebtoken::encode(
                &Header::new(Algorithm::HS256),
                &claims,
                &EncodingKey::from_secret(b"0123456789abcdef0123456789abcdef"),
            )
            .unwrap()
        };
        assert_eq!(a.verify(&expired), Err(AuthError::Expired));
    }

    fn standing(roles: &[Role]) -> Standing {
        Standing { roles: roles.to_vec(), ..Standing::default() }
    }

    #[test]
    fn a_disabled_account_and_a_revoked_token_stop_verifying_at_once() {
        let a = Authority::new(b"0123456789abcdef0123456789abcdef", "weiqi-test");
        a.set_standing("ann", Some(standing(&[Role::Player])));
        let plain = a.issue("ann", &[Role::Player], &[], Duration::from_secs(60));
        let bot = a.issue_with_id("ann", &[Role::Player], &[], Duration::from_secs(60), "t1");
        assert!(a.verify(&plain).is_ok() && a.verify(&bot).is_ok());
        let mut s = standing(&[Role::Player]);
        s.ended.insert("t1".into());
        a.set_standing("ann", Some(s.clone()));
        assert!(matches!(a.verify(&bot), Err(AuthError::Revoked(_))), "the cached claims are not trusted either");
        assert!(a.verify(&plain).is_ok());
        s.disabled = true;
        a.set_standing("ann", Some(s.clone()));
        assert!(matches!(a.verify(&plain), Err(AuthError::Revoked(_))));
        s.disabled = false;
        a.set_standing("ann", Some(s));
        assert!(a.verify(&plain).is_ok());
    }

    #[test]
    fn a_revoked_role_stops_every_token_and_a_granted_one_reaches_the_open_session() {
        let a = Authority::new(b"0123456789abcdef0123456789abcdef", "weiqi-test");
        a.set_standing("mei", Some(standing(&[Role::Player, Role::Referee])));
        let api = a.issue_with_id("mei", &[Role::Player, Role::Referee], &["*"], Duration::from_secs(60), "t1");
        let cli = a.issue("mei", &[Role::Referee], &["*"], Duration::from_secs(60));
        let session = a.issue_session("mei", &[Role::Player, Role::Referee], Duration::from_secs(60), "s1");
        for t in [&api, &cli, &session] {
            assert!(a.verify(t).unwrap().has(Role::Referee));
        }
        let changes = a.changes();
        a.set_standing("mei", Some(standing(&[Role::Player])));
        assert!(changes.has_changed().unwrap(), "open streams are told");
        for t in [&api, &cli, &session] {
            let c = a.verify(t).unwrap();
            assert!(!c.has(Role::Referee), "the revoked role is gone from {c:?}");
        }
        assert!(!a.verify(&cli).unwrap().has(Role::Player), "an API token never gains a role it was not issued");
        a.set_standing("mei", Some(standing(&[Role::Player, Role::Organiser])));
        let c = a.verify(&session).unwrap();
        assert!(c.has(Role::Organiser) && c.covers_event("city-open"), "granted: the session has it at once");
        assert!(!a.verify(&api).unwrap().has(Role::Organiser));
    }

    #[test]
    fn sessions_end_at_logout_and_everywhere_at_once() {
        let a = Authority::new(b"0123456789abcdef0123456789abcdef", "weiqi-test");
        a.set_standing("li", Some(standing(&[Role::Player])));
        let phone = a.issue_session("li", &[Role::Player], Duration::from_secs(60), "phone");
        let laptop = a.issue_session("li", &[Role::Player], Duration::from_secs(60), "laptop");
        let bot = a.issue_with_id("li", &[Role::Player], &[], Duration::from_secs(60), "bot");
        let mut s = standing(&[Role::Player]);
        s.ended.insert("phone".into());
        a.set_standing("li", Some(s.clone()));
        assert!(matches!(a.verify(&phone), Err(AuthError::Revoked(_))), "logged out");
        assert!(a.verify(&laptop).is_ok());
        s.sessions_from_ms = now_ms() + 1;
        a.set_standing("li", Some(s));
        assert!(matches!(a.verify(&laptop), Err(AuthError::Revoked(_))), "signed out everywhere");
        assert!(a.verify(&bot).is_ok(), "API tokens are revoked one by one on the account page");
        let orphan = a.issue_session("nobody", &[Role::Player], Duration::from_secs(60), "x");
        assert!(matches!(a.verify(&orphan), Err(AuthError::Revoked(_))), "a session needs its account");
        let operator = a.issue("nobody", &[Role::Player], &[], Duration::from_secs(60));
        assert!(a.verify(&operator).is_ok(), "the operator's token for a name without an account");
    }

    #[test]
    fn referees_act_for_their_events_only() {
        let a = Authority::new(b"0123456789abcdef0123456789abcdef", "weiqi-test");
        let r = a.verify(&a.issue("ref", &[Role::Referee], &["city-open"], Duration::from_secs(60))).unwrap();
        assert!(r.referees(Some("city-open")));
        assert!(!r.referees(Some("national")));
        assert!(!r.referees(None));
        let admin = a.verify(&a.issue("root", &[Role::Admin], &[], Duration::from_secs(60))).unwrap();
        assert!(admin.referees(Some("national")) && admin.referees(None));
    }
}
