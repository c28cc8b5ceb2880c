//! A player's log for the runner.

use weiqi_aggregate::{Aggregate, Context, EventMeta, default_digest};
use weiqi_eventlog::{AggregateKind, NewEvent, RecordedEvent};

use super::{Declined, decided, meta};
use crate::codec::player::{encode_player, read_player};
use crate::domain::player::decide_player;
use crate::domain::{Actor, PlayerCommand, PlayerEvent, PlayerState, RankingRejection};

/// The player aggregate (kind `player`, id = the player id).
pub struct PlayerAggregate;

impl Aggregate for PlayerAggregate {
    const KIND: AggregateKind = AggregateKind::Player;
    const NAME: &'static str = "player";
    type State = PlayerState;
    type Actor = Actor;
    type Command = PlayerCommand;
    type Event = PlayerEvent;
    type Stored = PlayerEvent;
    type Rejection = Declined;

    fn decide(
        state: &PlayerState,
        _: &Actor,
        command: &PlayerCommand,
        ctx: &Context,
    ) -> Result<Vec<PlayerEvent>, Declined> {
        decided(decide_player(state, command, ctx.now))
    }

    fn evolve(state: &mut PlayerState, event: &PlayerEvent) -> Result<(), String> {
        state.evolve(event);
        Ok(())
    }

    fn inconsistent(reason: String) -> Declined {
        Declined::Rejected(RankingRejection::Inconsistent(reason))
    }

    /// A proposal's time is the decision's, not part of what was asked.
    fn digest(actor: &Actor, command: &PlayerCommand) -> String {
        match command {
            PlayerCommand::RecordProposal(p) => {
                default_digest(actor, &("propose", &p.ladder, &p.to, &p.rules, &p.case))
            }
            _ => default_digest(actor, command),
        }
    }

    fn encode(event: &PlayerEvent, m: &EventMeta<'_, Self>) -> (NewEvent, PlayerEvent) {
        (encode_player(event, &meta(m), m.event_id.clone()), event.clone())
    }

    fn decode(r: &RecordedEvent) -> Result<PlayerEvent, String> {
        match read_player(r) {
            Ok(Some(e)) => Ok(e),
            Ok(None) => Err(format!("{} is not a player event", r.event_type)),
            Err(e) => Err(e.to_string()),
        }
    }

    fn event(stored: &PlayerEvent) -> &PlayerEvent {
        stored
    }
}
