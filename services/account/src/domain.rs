//! The account aggregate, pure: what an account is, what may be done to it and by whom.

use std::collections::{BTreeMap, BTreeSet};

/// Longest account name (it is a player id, an aggregate id and a token subject).
pub const MAX_NAME: usize = 64;

/// The longest shown name, in characters.
pub const MAX_DISPLAY_NAME: usize = 64;

/// The longest token label or disable reason, in characters.
pub const MAX_NOTE: usize = 200;

/// Who acts on an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    /// An administrator (an account holding the `admin` role).
    Admin(String),
    /// The account's own holder (signed in).
    Holder(String),
    /// The command line on the server (`weiqi account add`) or the first-administrator link.
    System,
}

/// A command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Creates the account.
    Create {
        /// Shown name (`李明`).
        display_name: String,
        /// Role names, already checked against the roles tokens know.
        roles: BTreeSet<String>,
        /// Argon2id PHC string; `None`: no password yet (a first-login link sets it).
        password_hash: Option<String>,
    },
    /// Sets the password.
    SetPassword {
        /// Argon2id PHC string.
        password_hash: String,
    },
    /// Grants a role.
    Grant(String),
    /// Revokes a role.
    Revoke(String),
    /// Disables the account: its sessions and tokens stop working at once.
    Disable {
        /// Why (shown to administrators).
        reason: String,
    },
    /// Enables it again.
    Enable,
    /// Records an API token issued for the account.
    IssueToken {
        /// The token's id (its `jti`).
        id: String,
        /// What the holder calls it (`my bot`).
        label: String,
        /// Expiry, ms since the Unix epoch.
        expires_at_ms: i64,
    },
    /// Revokes an API token.
    RevokeToken(String),
    /// Ends one browser session (logout), by its id.
    EndSession(String),
    /// Ends every browser session issued until now ("sign out everywhere"; the holder, or an
    /// administrator).
    SignOutEverywhere,
}

/// An event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Created.
    Created {
        /// Shown name.
        display_name: String,
        /// Roles.
        roles: BTreeSet<String>,
        /// Password hash, if set.
        password_hash: Option<String>,
    },
    /// Password set.
    PasswordSet {
        /// Argon2id PHC string.
        password_hash: String,
    },
    /// Role granted.
    RoleGranted(String),
    /// Role revoked.
    RoleRevoked(String),
    /// Disabled.
    Disabled {
        /// Why.
        reason: String,
    },
    /// Enabled.
    Enabled,
    /// API token issued.
    TokenIssued {
        /// Its id.
        id: String,
        /// Its label.
        label: String,
        /// Expiry.
        expires_at_ms: i64,
    },
    /// API token revoked.
    TokenRevoked(String),
    /// A browser session ended (logout).
    SessionEnded(String),
    /// Every session issued before `at_ms` ended.
    SignedOutEverywhere {
        /// The instant, ms since the Unix epoch.
        at_ms: i64,
    },
}

/// An API token as the account knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRecord {
    /// Label.
    pub label: String,
    /// Expiry, ms since the Unix epoch.
    pub expires_at_ms: i64,
    /// Revoked.
    pub revoked: bool,
}

/// The folded account.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Account {
    /// Whether it exists.
    pub exists: bool,
    /// Shown name.
    pub display_name: String,
    /// Roles held.
    pub roles: BTreeSet<String>,
    /// Argon2id PHC string.
    pub password_hash: Option<String>,
    /// Disabled (with the reason).
    pub disabled: Option<String>,
    /// API tokens by id.
    pub tokens: BTreeMap<String, TokenRecord>,
    /// Browser sessions ended by logging out, by id.
    pub ended_sessions: BTreeSet<String>,
    /// Sessions issued before this instant (ms since the epoch) are signed out; 0: none.
    pub sessions_from_ms: i64,
}

impl Account {
    /// Whether a token with this id may be used now (issued here, not revoked, not expired, and the
    /// account enabled). Tokens issued by `weiqi token` carry no id and are checked by their signature
    /// and the account's state only.
    pub fn token_valid(&self, id: &str, now_ms: i64) -> bool {
        self.disabled.is_none() && self.tokens.get(id).is_some_and(|t| !t.revoked && t.expires_at_ms > now_ms)
    }
}

/// Why a command is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// The name is not usable.
    #[error("account names are 1–{MAX_NAME} letters, digits, '-' or '_': {0:?}")]
    BadName(String),
    /// Exists already.
    #[error("the account {0} exists already")]
    AlreadyExists(String),
    /// No such account.
    #[error("no account {0}")]
    NotFound(String),
    /// Only administrators do that.
    #[error("only an administrator may do that")]
    NotAnAdministrator,
    /// Only the holder or an administrator do that.
    #[error("only the account's holder or an administrator may do that")]
    NotTheHolder,
    /// A role name tokens do not know.
    #[error("unknown role {0:?}")]
    UnknownRole(String),
    /// The role is held already / not held.
    #[error("the account {holds} the role {role}", holds = if *.held { "already holds" } else { "does not hold" })]
    RoleUnchanged {
        /// The role.
        role: String,
        /// Whether it is held.
        held: bool,
    },
    /// Disabled already / enabled already.
    #[error("the account is {}", if *.0 { "disabled already" } else { "not disabled" })]
    DisabledUnchanged(bool),
    /// The display name is empty, too long, or holds characters that hide or disguise text.
    #[error(
        "the shown name must be 1–{MAX_DISPLAY_NAME} characters, without control, direction-override or invisible characters"
    )]
    BadDisplayName,
    /// A new account's name has capitals: names are unique without regard to case, and new ones are
    /// written in lower case.
    #[error("new account names are written in lower case: {0:?}")]
    NotLowerCase(String),
    /// A text longer than its limit, or with control characters.
    #[error("{field} must be at most {max} characters, without control characters")]
    BadText {
        /// Which text.
        field: &'static str,
        /// Its limit.
        max: usize,
    },
    /// No such token.
    #[error("no token {0}")]
    UnknownToken(String),
    /// An administrator may not disable or demote themselves (someone must stay able to undo it).
    #[error("an administrator cannot disable their own account or revoke their own admin role")]
    OwnAdministration,
}

impl Rejection {
    /// A stable code for clients.
    pub fn code(&self) -> &'static str {
        match self {
            Rejection::BadName(_) => "bad_name",
            Rejection::AlreadyExists(_) => "already_exists",
            Rejection::NotFound(_) => "not_found",
            Rejection::NotAnAdministrator => "not_an_administrator",
            Rejection::NotTheHolder => "not_the_holder",
            Rejection::UnknownRole(_) => "unknown_role",
            Rejection::RoleUnchanged { .. } => "role_unchanged",
            Rejection::DisabledUnchanged(_) => "disabled_unchanged",
            Rejection::BadDisplayName => "bad_display_name",
            Rejection::NotLowerCase(_) => "not_lower_case",
            Rejection::BadText { .. } => "bad_text",
            Rejection::UnknownToken(_) => "unknown_token",
            Rejection::OwnAdministration => "own_administration",
        }
    }
}

/// Whether `name` can be an account (player id, aggregate id, token subject).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether `c` hides or disguises text: a control character, a direction mark, embedding, override
/// or isolate (which can make `alice` read as `ecila`), or an invisible (zero-width) character.
pub fn hides_text(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}' | '\u{180E}' | '\u{FEFF}' | '\u{00AD}' | '\u{034F}' | '\u{115F}' | '\u{1160}'
            | '\u{3164}' | '\u{FFA0}' | '\u{FE00}'..='\u{FE0F}')
}

/// Whether `name` can be shown as a person's name: 1–[`MAX_DISPLAY_NAME`] characters after trimming,
/// none of them [`hides_text`].
pub fn valid_display_name(name: &str) -> bool {
    let trimmed = name.trim();
    !trimmed.is_empty() && name.chars().count() <= MAX_DISPLAY_NAME && !name.chars().any(hides_text)
}

fn note(field: &'static str, text: &str) -> Result<(), Rejection> {
    if text.chars().count() > MAX_NOTE || text.chars().any(hides_text) {
        return Err(Rejection::BadText { field, max: MAX_NOTE });
    }
    Ok(())
}

fn admin_or_system(actor: &Actor) -> Result<(), Rejection> {
    match actor {
        Actor::Admin(_) | Actor::System => Ok(()),
        Actor::Holder(_) => Err(Rejection::NotAnAdministrator),
    }
}

fn holder_or_admin(actor: &Actor, name: &str) -> Result<(), Rejection> {
    match actor {
        Actor::Admin(_) | Actor::System => Ok(()),
        Actor::Holder(h) if h == name => Ok(()),
        Actor::Holder(_) => Err(Rejection::NotTheHolder),
    }
}

/// Decides `command` on the account `name`.
///
/// # Errors
/// Why it is refused; nothing is appended.
pub fn decide(
    state: &Account,
    name: &str,
    actor: &Actor,
    command: &Command,
    now_ms: i64,
) -> Result<Vec<Event>, Rejection> {
    if !valid_name(name) {
        return Err(Rejection::BadName(name.to_string()));
    }
    let own_admin = matches!(actor, Actor::Admin(a) if a == name);
    match command {
        Command::Create { display_name, roles, password_hash } => {
            admin_or_system(actor)?;
            if state.exists {
                return Err(Rejection::AlreadyExists(name.to_string()));
            }
            if name.bytes().any(|b| b.is_ascii_uppercase()) {
                return Err(Rejection::NotLowerCase(name.to_string()));
            }
            if !valid_display_name(display_name) {
                return Err(Rejection::BadDisplayName);
            }
            Ok(vec![Event::Created {
                display_name: display_name.clone(),
                roles: roles.clone(),
                password_hash: password_hash.clone(),
            }])
        }
        _ if !state.exists => Err(Rejection::NotFound(name.to_string())),
        Command::SetPassword { password_hash } => {
            holder_or_admin(actor, name)?;
            Ok(vec![Event::PasswordSet { password_hash: password_hash.clone() }])
        }
        Command::Grant(role) => {
            admin_or_system(actor)?;
            if state.roles.contains(role) {
                return Err(Rejection::RoleUnchanged { role: role.clone(), held: true });
            }
            Ok(vec![Event::RoleGranted(role.clone())])
        }
        Command::Revoke(role) => {
            admin_or_system(actor)?;
            if !state.roles.contains(role) {
                return Err(Rejection::RoleUnchanged { role: role.clone(), held: false });
            }
            if own_admin && role == "admin" {
                return Err(Rejection::OwnAdministration);
            }
            Ok(vec![Event::RoleRevoked(role.clone())])
        }
        Command::Disable { reason } => {
            admin_or_system(actor)?;
            note("the reason", reason)?;
            if state.disabled.is_some() {
                return Err(Rejection::DisabledUnchanged(true));
            }
            if own_admin {
                return Err(Rejection::OwnAdministration);
            }
            Ok(vec![Event::Disabled { reason: reason.clone() }])
        }
        Command::Enable => {
            admin_or_system(actor)?;
            if state.disabled.is_none() {
                return Err(Rejection::DisabledUnchanged(false));
            }
            Ok(vec![Event::Enabled])
        }
        Command::IssueToken { id, label, expires_at_ms } => {
            holder_or_admin(actor, name)?;
            note("the token's label", label)?;
            if id.is_empty() || id.len() > 64 {
                return Err(Rejection::UnknownToken(id.clone()));
            }
            Ok(vec![Event::TokenIssued { id: id.clone(), label: label.clone(), expires_at_ms: *expires_at_ms }])
        }
        Command::RevokeToken(id) => {
            holder_or_admin(actor, name)?;
            match state.tokens.get(id) {
                Some(t) if !t.revoked => Ok(vec![Event::TokenRevoked(id.clone())]),
                _ => Err(Rejection::UnknownToken(id.clone())),
            }
        }
        Command::EndSession(id) => {
            holder_or_admin(actor, name)?;
            if id.is_empty() || id.len() > 64 {
                return Err(Rejection::UnknownToken(id.clone()));
            }
            // Ending a session twice is no error: a logout retried from another tab.
            if state.ended_sessions.contains(id) {
                return Ok(vec![]);
            }
            Ok(vec![Event::SessionEnded(id.clone())])
        }
        Command::SignOutEverywhere => {
            holder_or_admin(actor, name)?;
            Ok(vec![Event::SignedOutEverywhere { at_ms: now_ms.max(state.sessions_from_ms) }])
        }
    }
}

/// Folds one event.
///
/// # Errors
/// An event that does not fit (a log that does not replay).
pub fn evolve(state: &mut Account, event: &Event) -> Result<(), String> {
    if !state.exists && !matches!(event, Event::Created { .. }) {
        return Err(format!("{event:?} before the account was created"));
    }
    match event {
        Event::Created { display_name, roles, password_hash } => {
            if state.exists {
                return Err("created twice".into());
            }
            *state = Account {
                exists: true,
                display_name: display_name.clone(),
                roles: roles.clone(),
                password_hash: password_hash.clone(),
                ..Account::default()
            };
        }
        Event::PasswordSet { password_hash } => state.password_hash = Some(password_hash.clone()),
        Event::RoleGranted(r) => {
            state.roles.insert(r.clone());
        }
        Event::RoleRevoked(r) => {
            state.roles.remove(r);
        }
        Event::Disabled { reason } => state.disabled = Some(reason.clone()),
        Event::Enabled => state.disabled = None,
        Event::TokenIssued { id, label, expires_at_ms } => {
            state.tokens.insert(
                id.clone(),
                TokenRecord { label: label.clone(), expires_at_ms: *expires_at_ms, revoked: false },
            );
        }
        Event::TokenRevoked(id) => match state.tokens.get_mut(id) {
            Some(t) => t.revoked = true,
            None => return Err(format!("token {id} revoked but never issued")),
        },
        Event::SessionEnded(id) => {
            state.ended_sessions.insert(id.clone());
        }
        Event::SignedOutEverywhere { at_ms } => {
            state.sessions_from_ms = state.sessions_from_ms.max(*at_ms);
            // Every session issued before is ended by the instant; the ids need not be kept.
            state.ended_sessions.clear();
        }
    }
    Ok(())
}
