//! The site's settings: one aggregate (kind `site`, id `settings`) whose log records what
//! administrators switch on and off for the whole site. Today one switch: self-registration (anyone
//! may create a player account, entered in the player registry; off by default, so a new site only
//! has the accounts its administrators make).
//!
//! [`decide`] and [`evolve`] are pure; [`Site`] is the aggregate on the one runner; [`SiteService`]
//! reads and changes it.

use std::sync::Arc;

use prost::Message;
use weiqi_aggregate::{Aggregate, Context, Environment, EventMeta, Request, RunError, Runner};
use weiqi_eventlog::{AggregateKind, EventLog, NewEvent, RecordedEvent};
use weiqi_proto::v1 as pb;

use crate::domain::Actor;

/// The settings aggregate's id.
pub const SETTINGS: &str = "settings";
/// The event type its events are stored under.
pub const SITE_EVENT: &str = "weiqi.v1.SiteEnvelope";

/// The folded settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Self-registration is open.
    pub registration_open: bool,
}

/// A change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Opens or closes self-registration.
    SetRegistration(bool),
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Self-registration opened (`true`) or closed.
    RegistrationSet(bool),
}

/// Why a change is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SiteRejection {
    /// Only administrators change the site.
    #[error("only an administrator may change the site's settings")]
    NotAnAdministrator,
    /// Already so.
    #[error("self-registration is already {}", if *.0 { "open" } else { "closed" })]
    Unchanged(bool),
    /// A decision that does not fold (a bug).
    #[error("inconsistent decision: {0}")]
    Inconsistent(String),
}

impl SiteRejection {
    /// A stable code for clients.
    pub fn code(&self) -> &'static str {
        match self {
            SiteRejection::NotAnAdministrator => "not_an_administrator",
            SiteRejection::Unchanged(_) => "setting_unchanged",
            SiteRejection::Inconsistent(_) => "inconsistent",
        }
    }
}

/// Decides a change.
///
/// # Errors
/// Not an administrator, or nothing to change.
pub fn decide(state: &Settings, actor: &Actor, command: &Command) -> Result<Vec<Event>, SiteRejection> {
    if matches!(actor, Actor::Holder(_)) {
        return Err(SiteRejection::NotAnAdministrator);
    }
    match command {
        Command::SetRegistration(open) if *open == state.registration_open => Err(SiteRejection::Unchanged(*open)),
        Command::SetRegistration(open) => Ok(vec![Event::RegistrationSet(*open)]),
    }
}

/// Folds an event.
pub fn evolve(state: &mut Settings, event: &Event) {
    match event {
        Event::RegistrationSet(open) => state.registration_open = *open,
    }
}

/// The settings as a runner aggregate.
pub struct Site;

impl Aggregate for Site {
    const KIND: AggregateKind = AggregateKind::Site;
    const NAME: &'static str = "site";
    type State = Settings;
    type Actor = Actor;
    type Command = Command;
    type Event = Event;
    type Stored = Event;
    type Rejection = SiteRejection;

    fn decide(
        state: &Settings,
        actor: &Actor,
        command: &Command,
        _: &Context<'_>,
    ) -> Result<Vec<Event>, SiteRejection> {
        decide(state, actor, command)
    }

    fn evolve(state: &mut Settings, event: &Event) -> Result<(), String> {
        evolve(state, event);
        Ok(())
    }

    fn inconsistent(reason: String) -> SiteRejection {
        SiteRejection::Inconsistent(reason)
    }

    fn encode(event: &Event, meta: &EventMeta<'_, Self>) -> (NewEvent, Event) {
        let actor = match meta.actor {
            Actor::Admin(a) | Actor::Holder(a) => a.clone(),
            Actor::System => "system".to_string(),
        };
        let kind = match event {
            Event::RegistrationSet(open) => {
                pb::site_envelope::Kind::RegistrationSet(pb::SiteRegistrationSet { open: *open })
            }
        };
        let envelope = pb::SiteEnvelope { event_id: meta.event_id.clone(), at_ms: meta.at.0, actor, kind: Some(kind) };
        (NewEvent::new(SITE_EVENT, envelope.encode_to_vec()), event.clone())
    }

    fn decode(recorded: &RecordedEvent) -> Result<Event, String> {
        let envelope = pb::SiteEnvelope::decode(recorded.payload.clone())
            .map_err(|e| format!("sequence {}: {e}", recorded.sequence))?;
        match envelope.kind {
            Some(pb::site_envelope::Kind::RegistrationSet(r)) => Ok(Event::RegistrationSet(r.open)),
            None => Err(format!("sequence {}: a site event without a kind", recorded.sequence)),
        }
    }

    fn event(stored: &Event) -> &Event {
        stored
    }
}

/// Why a settings change failed. Nothing was appended.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SiteError {
    /// Refused.
    #[error("{0}")]
    Refused(SiteRejection),
    /// The log is unreachable.
    #[error("unavailable: {0}")]
    Unavailable(String),
}

impl From<RunError<SiteRejection>> for SiteError {
    fn from(e: RunError<SiteRejection>) -> SiteError {
        match e {
            RunError::Rejected(r) => SiteError::Refused(r),
            other => SiteError::Unavailable(other.to_string()),
        }
    }
}

/// The settings on an event log.
pub struct SiteService<L: EventLog> {
    runner: Runner<Site, L>,
}

impl<L: EventLog + Clone + 'static> SiteService<L> {
    /// The settings on `log`.
    pub fn new(log: L, env: Arc<dyn Environment>) -> SiteService<L> {
        SiteService { runner: Runner::new(log, env) }
    }

    /// The settings as the log folds now.
    ///
    /// # Errors
    /// The log.
    pub async fn settings(&self) -> Result<Settings, SiteError> {
        Ok(self.runner.read(SETTINGS, |s, _| s.clone()).await?)
    }

    /// Opens or closes self-registration.
    ///
    /// # Errors
    /// Not an administrator, unchanged, or the log.
    pub async fn set_registration(&self, open: bool, actor: &Actor, request_id: &str) -> Result<(), SiteError> {
        self.runner.execute(Request::new(SETTINGS, request_id, actor, &Command::SetRegistration(open))).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_a_new_site_when_an_administrator_opens_registration_then_it_is_open_and_a_holder_cannot_close_it() {
        let mut s = Settings::default();
        assert!(!s.registration_open, "closed by default");
        let events = decide(&s, &Actor::Admin("root".into()), &Command::SetRegistration(true)).unwrap();
        for e in &events {
            evolve(&mut s, e);
        }
        assert!(s.registration_open);
        assert_eq!(
            decide(&s, &Actor::Holder("li".into()), &Command::SetRegistration(false)),
            Err(SiteRejection::NotAnAdministrator)
        );
        assert_eq!(
            decide(&s, &Actor::Admin("root".into()), &Command::SetRegistration(true)),
            Err(SiteRejection::Unchanged(true))
        );
    }
}
