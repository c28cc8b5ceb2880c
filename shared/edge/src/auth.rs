//! Authentication: tokens signed by the server (JWT, HS256, with the server's secret), carrying the
//! subject (a player or staff id), roles, and the events a referee or organiser acts for.
//!
//! Roles: `player` acts only in their own games and only on their turn (the game domain enforces
//! both); `referee` and `chief_referee` act on games of their events; `organiser` creates games and
//! tournaments of their events; `broadcaster` and `spectator` only read; `admin` is an organiser of
//! every event. An event list containing `*` means every event.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

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
    /// Subjects (disabled accounts) and token ids (revoked tokens) no token may act for any more,
    /// kept up to date by whoever follows the account logs (the web's index).
    denied: std::sync::Arc<std::sync::RwLock<Denied>>,
}

#[derive(Default)]
struct Denied {
    subjects: std::collections::HashSet<String>,
    tokens: std::collections::HashSet<String>,
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
    /// The token was revoked, or its account disabled.
    #[error("token revoked: {0}")]
    Revoked(&'static str),
}

impl From<AuthError> for Status {
    fn from(e: AuthError) -> Status {
        Status::unauthenticated(e.to_string())
    }
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs()
}

impl Authority {
    /// An authority with a secret of at least 32 bytes.
    pub fn new(secret: &[u8], issuer: impl Into<String>) -> Authority {
        Authority {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            issuer: issuer.into(),
            verified: Default::default(),
            denied: Default::default(),
        }
    }

    /// Refuses (or, with `false`, accepts again) every token of `subject`: its account was disabled.
    pub fn deny_subject(&self, subject: &str, denied: bool) {
        let mut d = self.denied.write().expect("denied lock");
        if denied {
            d.subjects.insert(subject.to_string());
        } else {
            d.subjects.remove(subject);
        }
    }

    /// Refuses the token with id `jti` from now on.
    pub fn revoke_token(&self, jti: &str) {
        self.denied.write().expect("denied lock").tokens.insert(jti.to_string());
    }

    fn check_denied(&self, claims: &Claims) -> Result<(), AuthError> {
        let d = self.denied.read().expect("denied lock");
        if d.subjects.contains(&claims.sub) {
            return Err(AuthError::Revoked("the account is disabled"));
        }
        if claims.jti.as_ref().is_some_and(|j| d.tokens.contains(j)) {
            return Err(AuthError::Revoked("the token was revoked on its account page"));
        }
        Ok(())
    }

    /// Issues a token with an id (`jti`), which the account can revoke.
    pub fn issue_with_id(&self, subject: &str, roles: &[Role], events: &[&str], ttl: Duration, jti: &str) -> String {
        self.sign(subject, roles, events, ttl, Some(jti))
    }

    /// Issues a token.
    pub fn issue(&self, subject: &str, roles: &[Role], events: &[&str], ttl: Duration) -> String {
        self.sign(subject, roles, events, ttl, None)
    }

    fn sign(&self, subject: &str, roles: &[Role], events: &[&str], ttl: Duration, jti: Option<&str>) -> String {
        let now = now_secs();
        let claims = Claims {
            sub: subject.to_string(),
            roles: roles.to_vec(),
            events: events.iter().map(|e| e.to_string()).collect(),
            exp: now + ttl.as_secs(),
            iat: now,
            iss: self.issuer.clone(),
            jti: jti.map(str::to_string),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .expect("HS256 signing cannot fail")
    }

    /// Checks a token.
    pub fn verify(&self, token: &str) -> Result<Claims, AuthError> {
        if let Some(claims) = self.verified.lock().expect("token cache").get(token)
            && claims.exp > now_secs()
        {
            self.check_denied(claims)?;
            return Ok(claims.clone());
        }
        let claims = self.verify_uncached(token)?;
        self.check_denied(&claims)?;
        let mut cache = self.verified.lock().expect("token cache");
        if cache.len() >= VERIFIED_CACHE {
            cache.clear();
        }
        cache.insert(token.to_string(), claims.clone());
        Ok(claims)
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

    /// The caller of a gRPC request, from its `authorization` metadata.
    pub fn caller<T>(&self, request: &tonic::Request<T>) -> Result<Claims, AuthError> {
        let value = request.metadata().get("authorization").ok_or(AuthError::Missing)?;
        let text = value.to_str().map_err(|_| AuthError::Invalid("not ASCII".into()))?;
        let token = text.strip_prefix("Bearer ").or_else(|| text.strip_prefix("bearer ")).ok_or(AuthError::Missing)?;
        self.verify(token.trim())
    }
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

    #[test]
    fn a_disabled_subject_and_a_revoked_token_stop_verifying_at_once() {
        let a = Authority::new(b"0123456789abcdef0123456789abcdef", "weiqi-test");
        let plain = a.issue("ann", &[Role::Player], &[], Duration::from_secs(60));
        let bot = a.issue_with_id("ann", &[Role::Player], &[], Duration::from_secs(60), "t1");
        assert!(a.verify(&plain).is_ok() && a.verify(&bot).is_ok());
        a.revoke_token("t1");
        assert!(matches!(a.verify(&bot), Err(AuthError::Revoked(_))), "the cached claims are not trusted either");
        assert!(a.verify(&plain).is_ok());
        a.deny_subject("ann", true);
        assert!(matches!(a.verify(&plain), Err(AuthError::Revoked(_))));
        a.deny_subject("ann", false);
        assert!(a.verify(&plain).is_ok());
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
