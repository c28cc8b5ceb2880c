//! `weiqi-account`: accounts as event-sourced aggregates.
//!
//! Each account is a log of kind `account` whose id is the account's name, which is also the player
//! id games, tournaments, ratings and API tokens use (`weiqi play new --black alice` and a browser
//! login as `alice` act as the same player). The log records: created (shown name, roles, password
//! hash), password set, roles granted and revoked, disabled and enabled, API tokens issued and
//! revoked. Nothing else about an account is kept; the state is the fold of its log.
//!
//! * [`domain`] — **pure**: [`domain::decide`] and [`domain::evolve`], who may do what
//!   ([`domain::Actor`]: an administrator, the holder, or the server's command line), the typed
//!   [`domain::Rejection`]s.
//! * [`password`] — Argon2id (RustCrypto `argon2`) with OWASP's parameters (19 MiB, 2 passes, 1 lane),
//!   PHC strings, salted per account and command (a retry hashes alike); hashing and checking are CPU-heavy, so the service runs them on
//!   tokio's blocking pool.
//! * [`aggregate`] — the account as a [`weiqi_aggregate::Aggregate`] and its codec
//!   (`weiqi.v1.AccountEnvelope`).
//! * [`site`] — the site's settings (kind `site`): self-registration switched on or off by
//!   administrators.
//! * [`service::AccountService`] — the account on the one runner: create, set the password, grant and
//!   revoke roles, disable and enable, record and revoke API tokens, and check a login.
//!
//! **Invariant:** a password is never stored, logged or returned; only its Argon2id hash is in the log.
//! A disabled account fails every login and every token check at once (the check reads the log's
//! fold, not a cache of claims).

pub mod aggregate;
pub mod domain;
pub mod password;
pub mod service;
pub mod site;

pub use domain::{Account, Actor, Command, Event, Rejection};
pub use service::{AccountError, AccountService, LoginError};
