//! The game as an [`Aggregate`] for the one runner: the pure domain decides and evolves, and the
//! codec stores each event as an encoded `weiqi.v1.EventEnvelope`.

use prost::Message;
use weiqi_aggregate::{Aggregate, Context, Decided, EventMeta, default_digest};
use weiqi_eventlog::{AggregateKind, NewEvent, RecordedEvent};

use crate::convert;
use crate::domain::{self, Actor, Command, GameEvent, GameState, Recorded, Rejection};

/// The game aggregate.
pub struct GameAggregate;

impl Aggregate for GameAggregate {
    const KIND: AggregateKind = AggregateKind::Game;
    const NAME: &'static str = "game";
    type State = GameState;
    type Actor = Actor;
    type Command = Command;
    type Event = GameEvent;
    type Stored = Recorded;
    type Rejection = Rejection;

    fn decide(
        state: &GameState,
        actor: &Actor,
        command: &Command,
        ctx: &Context<'_>,
    ) -> Result<Vec<GameEvent>, Rejection> {
        Self::decide_and_fold(state, actor, command, ctx).map(|(events, _)| events)
    }

    fn evolve(state: &mut GameState, event: &GameEvent) -> Result<(), String> {
        state.evolve(event).map_err(|e| e.to_string())
    }

    fn inconsistent(reason: String) -> Rejection {
        Rejection::Inconsistent(reason)
    }

    /// The domain's decider already folds its events (to refuse a decision that would not replay).
    fn decide_and_fold(state: &GameState, actor: &Actor, command: &Command, ctx: &Context<'_>) -> Decided<Self> {
        match command {
            // Ids the platform derives (tournament tables) are never a caller's to choose.
            Command::Create { .. }
                if crate::authority::reserved_game_id(ctx.aggregate) && !matches!(actor, Actor::System(_)) =>
            {
                Err(Rejection::ReservedGameId)
            }
            // The nigiri secret is the environment's, drawn for this decision.
            Command::Create { setup, .. } => domain::decide_and_fold(
                state,
                actor,
                &Command::Create { setup: setup.clone(), nigiri_secret: ctx.random },
                ctx.now,
            ),
            _ => domain::decide_and_fold(state, actor, command, ctx.now),
        }
    }

    fn needs_random(command: &Command) -> bool {
        matches!(command, Command::Create { .. })
    }

    /// The secret of a creation is drawn by the runner, so it is not part of what the caller asked.
    fn digest(actor: &Actor, command: &Command) -> String {
        match command {
            Command::Create { setup, .. } => default_digest(actor, &("create", setup)),
            _ => default_digest(actor, command),
        }
    }

    fn encode(event: &GameEvent, meta: &EventMeta<'_, Self>) -> (NewEvent, Recorded) {
        let envelope = convert::envelope(
            meta.aggregate,
            meta.sequence,
            meta.at,
            meta.command_id,
            meta.correlation_id,
            meta.actor,
            meta.event_id.clone(),
            event,
        );
        let recorded = Recorded {
            sequence: meta.sequence,
            event_id: meta.event_id.clone(),
            at: meta.at,
            causation: meta.command_id.to_string(),
            correlation: meta.correlation_id.to_string(),
            actor: meta.actor.clone(),
            event: event.clone(),
        };
        (NewEvent::new(event.type_name(), envelope.encode_to_vec()), recorded)
    }

    fn decode(r: &RecordedEvent) -> Result<Recorded, String> {
        convert::decode_recorded(r)
    }

    fn event(stored: &Recorded) -> &GameEvent {
        &stored.event
    }
}
