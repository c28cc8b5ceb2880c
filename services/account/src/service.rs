//! The account service: the account aggregate on the one runner, passwords hashed off the async
//! threads.

use std::collections::BTreeSet;
use std::sync::Arc;

use weiqi_aggregate::{Environment, Request, RunError, Runner};
use weiqi_eventlog::EventLog;

use crate::aggregate::{AccountRejection, Accounts};
use crate::domain::{Account, Actor, Command, Rejection};
use crate::password::{self, PasswordError};

/// Why an account command was not carried out. Nothing was appended.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    /// The account refused it.
    #[error("{0}")]
    Refused(Rejection),
    /// The password cannot be used.
    #[error("{0}")]
    Password(PasswordError),
    /// The request id was used for another command.
    #[error("request id already used for another command")]
    RequestIdReused,
    /// The log is unreachable (retry with the same request id), or does not replay.
    #[error("unavailable: {0}")]
    Unavailable(String),
}

impl From<RunError<AccountRejection>> for AccountError {
    fn from(e: RunError<AccountRejection>) -> AccountError {
        match e {
            RunError::Rejected(AccountRejection::Domain(r)) => AccountError::Refused(r),
            RunError::Rejected(AccountRejection::Inconsistent(why)) => AccountError::Unavailable(why),
            RunError::RequestIdReused { .. } => AccountError::RequestIdReused,
            RunError::BadId { reason, .. } => AccountError::Refused(Rejection::BadName(reason)),
            RunError::TooLarge(why) | RunError::Unavailable(why) | RunError::Corrupt(why) => {
                AccountError::Unavailable(why)
            }
        }
    }
}

/// Why a login fails. The message shown to the person is the same for every case but `Disabled`
/// (no one learns which names exist); the variants are for the log and the rate limiter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoginError {
    /// No such account, no password, or the wrong one.
    #[error("wrong name or password")]
    Wrong,
    /// The account is disabled.
    #[error("the account is disabled")]
    Disabled,
    /// The log is unreachable.
    #[error("unavailable: {0}")]
    Unavailable(String),
}

/// Told an account's state after every command this service carries out (the token authority of the
/// process, so that a revoked role or a logout counts at the next request, before any follower of the
/// log has folded it).
pub type Observer = Arc<dyn Fn(&str, &Account) + Send + Sync>;

/// Accounts on an event log.
pub struct AccountService<L: EventLog> {
    runner: Runner<Accounts, L>,
    roles: BTreeSet<String>,
    observer: Option<Observer>,
}

impl<L: EventLog + Clone + 'static> AccountService<L> {
    /// Accounts on `log`; `roles` are the role names tokens know (anything else is refused).
    pub fn new(log: L, env: Arc<dyn Environment>, roles: impl IntoIterator<Item = String>) -> AccountService<L> {
        AccountService { runner: Runner::new(log, env), roles: roles.into_iter().collect(), observer: None }
    }

    /// Tells `observer` each account's state after every command carried out here.
    #[must_use]
    pub fn with_observer(mut self, observer: Observer) -> AccountService<L> {
        self.observer = Some(observer);
        self
    }

    fn check_roles<'a>(&self, roles: impl IntoIterator<Item = &'a String>) -> Result<(), AccountError> {
        match roles.into_iter().find(|r| !self.roles.contains(*r)) {
            Some(r) => Err(AccountError::Refused(Rejection::UnknownRole(r.clone()))),
            None => Ok(()),
        }
    }

    async fn run(&self, name: &str, request_id: &str, actor: &Actor, command: Command) -> Result<(), AccountError> {
        self.runner.execute(Request::new(name, request_id, actor, &command)).await?;
        if let Some(observer) = &self.observer
            && let Ok(Some(account)) = self.get(name).await
        {
            observer(name, &account);
        }
        Ok(())
    }

    /// Creates an account (administrators and the server's command line).
    ///
    /// # Errors
    /// A refusal (name, roles, exists already), a password of the wrong length, or the log.
    pub async fn create(
        &self,
        name: &str,
        display_name: &str,
        roles: &[String],
        password: Option<&str>,
        actor: &Actor,
        request_id: &str,
    ) -> Result<(), AccountError> {
        self.check_roles(roles)?;
        let password_hash = match password {
            Some(p) => Some(hash(p, name, request_id).await?),
            None => None,
        };
        let command = Command::Create {
            display_name: display_name.to_string(),
            roles: roles.iter().cloned().collect(),
            password_hash,
        };
        self.run(name, request_id, actor, command).await
    }

    /// Sets the password (the holder, or an administrator).
    ///
    /// # Errors
    /// As [`Self::create`].
    pub async fn set_password(
        &self,
        name: &str,
        password: &str,
        actor: &Actor,
        request_id: &str,
    ) -> Result<(), AccountError> {
        let password_hash = hash(password, name, request_id).await?;
        self.run(name, request_id, actor, Command::SetPassword { password_hash }).await
    }

    /// Grants a role (administrators).
    ///
    /// # Errors
    /// An unknown role, a refusal, or the log.
    pub async fn grant(&self, name: &str, role: &str, actor: &Actor, request_id: &str) -> Result<(), AccountError> {
        self.check_roles([&role.to_string()])?;
        self.run(name, request_id, actor, Command::Grant(role.to_string())).await
    }

    /// Revokes a role (administrators).
    ///
    /// # Errors
    /// A refusal, or the log.
    pub async fn revoke(&self, name: &str, role: &str, actor: &Actor, request_id: &str) -> Result<(), AccountError> {
        self.run(name, request_id, actor, Command::Revoke(role.to_string())).await
    }

    /// Disables the account (administrators): every login and token check fails from now on.
    ///
    /// # Errors
    /// A refusal, or the log.
    pub async fn disable(&self, name: &str, reason: &str, actor: &Actor, request_id: &str) -> Result<(), AccountError> {
        self.run(name, request_id, actor, Command::Disable { reason: reason.to_string() }).await
    }

    /// Enables the account again (administrators).
    ///
    /// # Errors
    /// A refusal, or the log.
    pub async fn enable(&self, name: &str, actor: &Actor, request_id: &str) -> Result<(), AccountError> {
        self.run(name, request_id, actor, Command::Enable).await
    }

    /// Records an API token issued for the account (the holder, or an administrator).
    ///
    /// # Errors
    /// A refusal (label), or the log.
    pub async fn issue_token(
        &self,
        name: &str,
        id: &str,
        label: &str,
        expires_at_ms: i64,
        actor: &Actor,
        request_id: &str,
    ) -> Result<(), AccountError> {
        let command = Command::IssueToken { id: id.to_string(), label: label.to_string(), expires_at_ms };
        self.run(name, request_id, actor, command).await
    }

    /// Revokes an API token (the holder, or an administrator).
    ///
    /// # Errors
    /// No such token, or the log.
    pub async fn revoke_token(
        &self,
        name: &str,
        id: &str,
        actor: &Actor,
        request_id: &str,
    ) -> Result<(), AccountError> {
        self.run(name, request_id, actor, Command::RevokeToken(id.to_string())).await
    }

    /// Ends the browser session `session_id` (logout; the holder, or an administrator).
    ///
    /// # Errors
    /// A refusal, or the log.
    pub async fn end_session(
        &self,
        name: &str,
        session_id: &str,
        actor: &Actor,
        request_id: &str,
    ) -> Result<(), AccountError> {
        self.run(name, request_id, actor, Command::EndSession(session_id.to_string())).await
    }

    /// Ends every browser session of the account issued until now (the holder, or an administrator).
    ///
    /// # Errors
    /// A refusal, or the log.
    pub async fn sign_out_everywhere(&self, name: &str, actor: &Actor, request_id: &str) -> Result<(), AccountError> {
        self.run(name, request_id, actor, Command::SignOutEverywhere).await
    }

    /// The account as its log folds, `None` if it does not exist.
    ///
    /// # Errors
    /// The log.
    pub async fn get(&self, name: &str) -> Result<Option<Account>, AccountError> {
        Ok(self.runner.read(name, |a, _| a.exists.then(|| a.clone())).await?)
    }

    /// Checks a login; the account (its roles are the session's) if the password is right and the
    /// account enabled. The log is read again first, so a disable in another process counts at once.
    ///
    /// # Errors
    /// [`LoginError`].
    pub async fn login(&self, name: &str, password: &str) -> Result<Account, LoginError> {
        if !crate::domain::valid_name(name) {
            return Err(LoginError::Wrong);
        }
        let account = self.get(name).await.map_err(|e| LoginError::Unavailable(e.to_string()))?;
        let Some(account) = account else {
            // The same work as a real check, so the answer's timing does not tell which names exist.
            let _ = verify(password.to_string(), DUMMY.to_string()).await;
            return Err(LoginError::Wrong);
        };
        let Some(stored) = account.password_hash.clone() else { return Err(LoginError::Wrong) };
        match verify(password.to_string(), stored).await {
            Ok(true) if account.disabled.is_some() => Err(LoginError::Disabled),
            Ok(true) => Ok(account),
            Ok(false) => Err(LoginError::Wrong),
            Err(e) => Err(LoginError::Unavailable(e.to_string())),
        }
    }
}

/// A well-formed hash of no one's password, for the timing of logins to unknown names.
const DUMMY: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$W0hmTB8aiz+3m2GtwT1xs4SZqGzAsTdrZWjeY6vSYpk";

async fn hash(password: &str, account: &str, request_id: &str) -> Result<String, AccountError> {
    let p = password.to_string();
    let salt = password::salt(account, request_id);
    tokio::task::spawn_blocking(move || password::hash(&p, &salt))
        .await
        .map_err(|e| AccountError::Unavailable(e.to_string()))?
        .map_err(AccountError::Password)
}

async fn verify(password: String, stored: String) -> Result<bool, PasswordError> {
    tokio::task::spawn_blocking(move || password::verify(&password, &stored))
        .await
        .map_err(|e| PasswordError::Hashing(e.to_string()))?
}
