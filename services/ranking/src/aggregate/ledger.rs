//! The rating ledger for the runner.

use weiqi_aggregate::{Aggregate, Context, EventMeta, default_digest};
use weiqi_eventlog::{AggregateKind, NewEvent, RecordedEvent};

use super::{Declined, decided, meta};
use crate::codec::ledger::encode_ledger;
use crate::codec::read_ledger;
use crate::domain::ledger::{decide_ledger, entry_description};
use crate::domain::{Actor, LedgerCommand, LedgerEntry, LedgerState, RankingRejection};

/// The rating ledger aggregate (kind `player`, id `_ledger-<system>`).
pub struct LedgerAggregate;

/// A ledger entry with its sequence in the ledger (the players' logs record it with each rating).
#[derive(Clone, Debug, PartialEq)]
pub struct LedgerRecord {
    /// The entry's sequence.
    pub sequence: u64,
    /// The entry.
    pub entry: LedgerEntry,
}

impl Aggregate for LedgerAggregate {
    const KIND: AggregateKind = AggregateKind::Player;
    const NAME: &'static str = "ledger";
    type State = LedgerState;
    type Actor = Actor;
    type Command = LedgerCommand;
    type Event = LedgerEntry;
    type Stored = LedgerRecord;
    type Rejection = Declined;

    fn decide(
        state: &LedgerState,
        _: &Actor,
        command: &LedgerCommand,
        ctx: &Context,
    ) -> Result<Vec<LedgerEntry>, Declined> {
        decided(decide_ledger(state, command, ctx.now))
    }

    fn evolve(state: &mut LedgerState, entry: &LedgerEntry) -> Result<(), String> {
        state.evolve(entry);
        Ok(())
    }

    fn inconsistent(reason: String) -> Declined {
        Declined::Rejected(RankingRejection::Inconsistent(reason))
    }

    /// What is asked is the input: the system is configuration, and where the game came from in the
    /// game log (the follower knows it, a tournament's close does not) does not make it another input.
    fn digest(actor: &Actor, command: &LedgerCommand) -> String {
        default_digest(actor, &command.command)
    }

    /// The envelope carries the time the input was decided at (a game's is never before it ended), and
    /// as its cause the description the command id is derived from (`ledger/<system>/...`).
    fn encode(entry: &LedgerEntry, m: &EventMeta<'_, Self>) -> (NewEvent, LedgerRecord) {
        let system = m.aggregate.strip_prefix("_ledger-").unwrap_or(m.aggregate);
        let mut fields = meta(m);
        fields.at = entry.input.at;
        fields.causation = entry_description(system, entry);
        (encode_ledger(entry, &fields, m.event_id.clone()), LedgerRecord { sequence: m.sequence, entry: entry.clone() })
    }

    fn decode(r: &RecordedEvent) -> Result<LedgerRecord, String> {
        read_ledger(r).map(|entry| LedgerRecord { sequence: r.sequence, entry }).map_err(|e| e.to_string())
    }

    fn event(stored: &LedgerRecord) -> &LedgerEntry {
        &stored.entry
    }
}
