//! The three ranking aggregates as [`weiqi_aggregate::Aggregate`]s for the one runner: the pure domain
//! decides and evolves, the codec stores each event as an encoded `weiqi.v1.RankingEnvelope`.
//!
//! | aggregate | kind | id | state | events |
//! | --- | --- | --- | --- | --- |
//! | [`PlayerAggregate`] | `player` | the player id | [`crate::domain::PlayerState`] | [`crate::domain::PlayerEvent`] |
//! | [`LedgerAggregate`] | `player` | `_ledger-<system>` | [`crate::domain::LedgerState`] | [`crate::domain::LedgerEntry`] |
//! | [`CaseAggregate`] | `case` | `case-<32 hex>` | [`weiqi_rating::CaseState`] | [`weiqi_rating::CaseEvent`] |
//!
//! A decision that changes nothing (a rating recorded before, a game rated before) is
//! [`Declined::Unchanged`]: the runner appends nothing, and the service takes it as done.

mod case;
mod ledger;
mod player;

pub use case::CaseAggregate;
pub use ledger::{LedgerAggregate, LedgerRecord};
pub use player::PlayerAggregate;

use weiqi_aggregate::{Aggregate, EventMeta};

use crate::codec::Meta;
use crate::domain::{Actor, RankingRejection};

/// What a ranking decider answers instead of events.
#[derive(Clone, Debug, PartialEq)]
pub enum Declined {
    /// The command changes nothing (it was applied before): done, nothing to append.
    Unchanged,
    /// The command is refused.
    Rejected(RankingRejection),
}

impl From<RankingRejection> for Declined {
    fn from(r: RankingRejection) -> Declined {
        Declined::Rejected(r)
    }
}

/// A decider's answer for the runner: events, or [`Declined::Unchanged`] when there are none.
fn decided<E>(events: Result<Vec<E>, RankingRejection>) -> Result<Vec<E>, Declined> {
    match events {
        Ok(events) if events.is_empty() => Err(Declined::Unchanged),
        Ok(events) => Ok(events),
        Err(r) => Err(Declined::Rejected(r)),
    }
}

/// The envelope fields of an event the runner appends: caused by the command, at the decision's time.
fn meta<A: Aggregate<Actor = Actor>>(meta: &EventMeta<'_, A>) -> Meta {
    Meta { causation: meta.command_id.to_owned(), actor: meta.actor.kind, actor_id: meta.actor.id.clone(), at: meta.at }
}

#[cfg(test)]
mod tests {
    use weiqi_aggregate::Aggregate;
    use weiqi_rating::{ActorId, CaseCommand, RatingCommand, RatingSystem};

    use super::*;
    use crate::domain::{CaseOrder, LedgerCommand};

    #[test]
    fn the_ledger_digest_is_the_input_only() {
        let service = Actor::system("ranking");
        let at = |game_position| LedgerCommand {
            system: RatingSystem::default(),
            command: RatingCommand::CloseTournament { tournament: "cup".into() },
            game_position,
        };
        assert_eq!(LedgerAggregate::digest(&service, &at(None)), LedgerAggregate::digest(&service, &at(Some(9))));
        assert_ne!(
            LedgerAggregate::digest(&service, &at(None)),
            LedgerAggregate::digest(&Actor::system("other"), &at(None)),
            "another actor"
        );
    }

    #[test]
    fn a_case_digest_covers_who_and_what() {
        let assign = |r: &str| CaseOrder::one(CaseCommand::AssignReviewer { reviewer: ActorId::from(r) });
        let rev = Actor::staff("rev");
        assert_eq!(CaseAggregate::digest(&rev, &assign("rev")), CaseAggregate::digest(&rev, &assign("rev")));
        assert_ne!(CaseAggregate::digest(&rev, &assign("rev")), CaseAggregate::digest(&rev, &assign("zhang")));
        assert_ne!(
            CaseAggregate::digest(&rev, &assign("rev")),
            CaseAggregate::digest(&Actor::player("rev"), &assign("rev"))
        );
    }

    #[test]
    fn an_empty_decision_is_unchanged() {
        assert_eq!(decided::<u8>(Ok(vec![])), Err(Declined::Unchanged));
        assert_eq!(decided(Ok(vec![1u8])), Ok(vec![1]));
        assert_eq!(
            decided::<u8>(Err(RankingRejection::MissingRequestId)),
            Err(Declined::Rejected(RankingRejection::MissingRequestId))
        );
    }
}
