//! The account as a runner aggregate, and the codec of its events (`weiqi.v1.AccountEnvelope`).

use prost::Message;
use weiqi_aggregate::{Aggregate, Context, EventMeta};
use weiqi_eventlog::{AggregateKind, NewEvent, RecordedEvent};
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::account_event::Kind as K;

use crate::domain::{self, Account, Actor, Command, Event, Rejection};

/// The event type every account event is stored under.
pub const ACCOUNT_EVENT: &str = "weiqi.v1.AccountEvent";

/// The account aggregate.
pub struct Accounts;

/// Why a stored decision does not fold (a bug), as a rejection.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccountRejection {
    /// The domain refused.
    #[error("{0}")]
    Domain(#[from] Rejection),
    /// The decision's events do not fold.
    #[error("inconsistent decision: {0}")]
    Inconsistent(String),
}

impl Aggregate for Accounts {
    const KIND: AggregateKind = AggregateKind::Account;
    const NAME: &'static str = "account";
    type State = Account;
    type Actor = Actor;
    type Command = Command;
    type Event = Event;
    type Stored = Event;
    type Rejection = AccountRejection;

    fn decide(
        state: &Account,
        actor: &Actor,
        command: &Command,
        ctx: &Context<'_>,
    ) -> Result<Vec<Event>, AccountRejection> {
        Ok(domain::decide(state, ctx.aggregate, actor, command, ctx.now.0)?)
    }

    fn evolve(state: &mut Account, event: &Event) -> Result<(), String> {
        domain::evolve(state, event)
    }

    fn inconsistent(reason: String) -> AccountRejection {
        AccountRejection::Inconsistent(reason)
    }

    fn encode(event: &Event, meta: &EventMeta<'_, Self>) -> (NewEvent, Event) {
        let actor = match meta.actor {
            Actor::Admin(a) | Actor::Holder(a) => a.clone(),
            Actor::System => "system".to_string(),
        };
        let envelope = pb::AccountEnvelope {
            event_id: meta.event_id.clone(),
            account: meta.aggregate.to_string(),
            at_ms: meta.at.0,
            actor,
            event: Some(pb::AccountEvent { kind: Some(to_pb(event)) }),
        };
        (NewEvent::new(ACCOUNT_EVENT, envelope.encode_to_vec()), event.clone())
    }

    fn decode(recorded: &RecordedEvent) -> Result<Event, String> {
        let at = |e: String| format!("sequence {}: {e}", recorded.sequence);
        let envelope = pb::AccountEnvelope::decode(recorded.payload.clone()).map_err(|e| at(e.to_string()))?;
        let kind = envelope.event.and_then(|e| e.kind).ok_or_else(|| at("an account event without a kind".into()))?;
        Ok(from_pb(kind))
    }

    fn event(stored: &Event) -> &Event {
        stored
    }
}

fn to_pb(event: &Event) -> K {
    match event {
        Event::Created { display_name, roles, password_hash } => K::Created(pb::AccountCreated {
            display_name: display_name.clone(),
            roles: roles.iter().cloned().collect(),
            password_hash: password_hash.clone().unwrap_or_default(),
        }),
        Event::PasswordSet { password_hash } => {
            K::PasswordSet(pb::AccountPasswordSet { password_hash: password_hash.clone() })
        }
        Event::RoleGranted(role) => K::RoleGranted(pb::AccountRoleGranted { role: role.clone() }),
        Event::RoleRevoked(role) => K::RoleRevoked(pb::AccountRoleRevoked { role: role.clone() }),
        Event::Disabled { reason } => K::Disabled(pb::AccountDisabled { reason: reason.clone() }),
        Event::Enabled => K::Enabled(pb::AccountEnabled {}),
        Event::TokenIssued { id, label, expires_at_ms } => K::TokenIssued(pb::AccountTokenIssued {
            token_id: id.clone(),
            label: label.clone(),
            expires_at_ms: *expires_at_ms,
        }),
        Event::TokenRevoked(id) => K::TokenRevoked(pb::AccountTokenRevoked { token_id: id.clone() }),
        Event::SessionEnded(id) => K::SessionEnded(pb::AccountSessionEnded { session_id: id.clone() }),
        Event::SignedOutEverywhere { at_ms } => {
            K::SignedOutEverywhere(pb::AccountSignedOutEverywhere { at_ms: *at_ms })
        }
    }
}

fn from_pb(kind: K) -> Event {
    match kind {
        K::Created(c) => Event::Created {
            display_name: c.display_name,
            roles: c.roles.into_iter().collect(),
            password_hash: Some(c.password_hash).filter(|h| !h.is_empty()),
        },
        K::PasswordSet(p) => Event::PasswordSet { password_hash: p.password_hash },
        K::RoleGranted(r) => Event::RoleGranted(r.role),
        K::RoleRevoked(r) => Event::RoleRevoked(r.role),
        K::Disabled(d) => Event::Disabled { reason: d.reason },
        K::Enabled(_) => Event::Enabled,
        K::TokenIssued(t) => Event::TokenIssued { id: t.token_id, label: t.label, expires_at_ms: t.expires_at_ms },
        K::TokenRevoked(t) => Event::TokenRevoked(t.token_id),
        K::SessionEnded(s) => Event::SessionEnded(s.session_id),
        K::SignedOutEverywhere(s) => Event::SignedOutEverywhere { at_ms: s.at_ms },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_round_trips_through_its_wire_form() {
        let events = [
            Event::Created {
                display_name: "李明".into(),
                roles: ["player".to_string(), "referee".to_string()].into(),
                password_hash: Some("$argon2id$v=19$x".into()),
            },
            Event::Created { display_name: "Li".into(), roles: Default::default(), password_hash: None },
            Event::PasswordSet { password_hash: "$argon2id$v=19$y".into() },
            Event::RoleGranted("admin".into()),
            Event::RoleRevoked("admin".into()),
            Event::Disabled { reason: "left the association".into() },
            Event::Enabled,
            Event::TokenIssued { id: "t1".into(), label: "my bot".into(), expires_at_ms: 9 },
            Event::TokenRevoked("t1".into()),
            Event::SessionEnded("s1".into()),
            Event::SignedOutEverywhere { at_ms: 1_796_083_200_000 },
        ];
        for e in events {
            assert_eq!(from_pb(to_pb(&e)), e);
        }
    }
}
