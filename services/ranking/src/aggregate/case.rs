//! A certification case for the runner.

use weiqi_aggregate::{Aggregate, Context, Decided, EventMeta, default_digest};
use weiqi_eventlog::{AggregateKind, NewEvent, RecordedEvent};
use weiqi_rating::{CaseEvent, CaseState};

use super::{Declined, meta};
use crate::codec::case::encode_case;
use crate::codec::read_case;
use crate::domain::case::decide_order;
use crate::domain::{Actor, CaseOrder, RankingRejection};

/// The case aggregate (kind `case`, id `case-<32 hex>`).
pub struct CaseAggregate;

impl Aggregate for CaseAggregate {
    const KIND: AggregateKind = AggregateKind::Case;
    const NAME: &'static str = "case";
    type State = CaseState;
    type Actor = Actor;
    type Command = CaseOrder;
    type Event = CaseEvent;
    type Stored = CaseEvent;
    type Rejection = Declined;

    fn decide(state: &CaseState, actor: &Actor, order: &CaseOrder, ctx: &Context) -> Result<Vec<CaseEvent>, Declined> {
        Self::decide_and_fold(state, actor, order, ctx).map(|(events, _)| events)
    }

    fn evolve(state: &mut CaseState, event: &CaseEvent) -> Result<(), String> {
        state.evolve(event);
        Ok(())
    }

    fn inconsistent(reason: String) -> Declined {
        Declined::Rejected(RankingRejection::Inconsistent(reason))
    }

    /// The order's decider already folds its events (each command is decided on the state the previous
    /// ones leave).
    fn decide_and_fold(state: &CaseState, _: &Actor, order: &CaseOrder, ctx: &Context) -> Decided<Self> {
        match decide_order(state, order, ctx.now) {
            Ok((events, _)) if events.is_empty() => Err(Declined::Unchanged),
            Ok(decided) => Ok(decided),
            Err(r) => Err(Declined::Rejected(r)),
        }
    }

    /// What was asked, not the values derived for it (see [`CaseOrder::asked`]).
    fn digest(actor: &Actor, order: &CaseOrder) -> String {
        default_digest(actor, &order.asked())
    }

    fn encode(event: &CaseEvent, m: &EventMeta<'_, Self>) -> (NewEvent, CaseEvent) {
        (encode_case(event, &meta(m), m.event_id.clone()), event.clone())
    }

    fn decode(r: &RecordedEvent) -> Result<CaseEvent, String> {
        read_case(r).map_err(|e| e.to_string())
    }

    fn event(stored: &CaseEvent) -> &CaseEvent {
        stored
    }
}
