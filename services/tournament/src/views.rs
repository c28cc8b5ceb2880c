//! What a reader sees of a tournament: its summary, its standings and a round's pairings, as domain
//! values. The read model keeps them in their wire form (`weiqi.v1.TournamentSummary` … in Redis or
//! in memory, as the gRPC server serves them); [`crate::api::TournamentApi`] hands them to the pages
//! as these types, converted once at the edge (`convert.rs`), so the pages name no protobuf.
//!
//! The fields keep the wire's names and meanings; text fields that carry a code (a phase, a ruling,
//! a bye's kind) keep the code, and the pages put it into words from their catalogues.

use std::collections::HashMap;

use crate::facts::EventFacts;
use crate::settings::GameSettings;

pub use crate::aggregate::StandingRow;

/// A tournament at a glance.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub tournament_id: String,
    pub name: String,
    /// `registration`, `running` or `finished`.
    pub phase: String,
    /// The format in English, for logs and programs ("McMahon, 5 rounds").
    pub format: String,
    pub players: u32,
    pub rounds_paired: u32,
    pub last_round_completed: bool,
    /// Player number of the champion (finished individual events; 0 = none).
    pub champion: u32,
    /// How the games are played (`None`: not known to the read model).
    pub settings: Option<GameSettings>,
    /// The event's facts (`None`: never set).
    pub facts: Option<EventFacts>,
    /// The tournament log's last sequence folded into the read model.
    pub sequence: u64,
    /// Rounds the format plans with the field as it stands (0 = open-ended).
    pub rounds_planned: u32,
    /// Pairs forbidden to meet.
    pub forbids: Vec<Forbid>,
    /// Each withdrawn player's Art. 28 ruling with its numbers.
    pub withdrawals: Vec<WithdrawalCount>,
    /// How often the standings were published as official results.
    pub publications: u32,
    /// The format as a message of the pages' catalogues (`format-<key>`) and its arguments.
    pub format_key: String,
    pub format_args: HashMap<String, String>,
}

/// What a withdrawn player's unplayed rounds count (Art. 28 and the tie-break rules).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WithdrawalCount {
    pub player: u32,
    pub name: String,
    /// Rounds paired when they withdrew.
    pub after_round: u32,
    /// `results-void`, `results-stand-rest-forfeited` or `results-stand-not-paired`.
    pub ruling: String,
    /// The rounds counted so far that they did not play.
    pub unplayed_rounds: Vec<u32>,
    /// Each unplayed round in their opponents' SOS, exact ("1", "3/2"); empty: does not apply.
    pub for_opponents: String,
    /// Each unplayed round in their own SOSM, exact; empty: does not apply.
    pub own_sosm: String,
    /// By which rule: `start-mms` (the EGF rule) or `own-final-mms`.
    pub own_sosm_rule: String,
}

/// Two players forbidden to meet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forbid {
    pub a: u32,
    pub b: u32,
    /// The one round it holds for; 0: every round.
    pub round: u32,
    pub a_name: String,
    pub b_name: String,
}

/// The standings after a round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standings {
    pub tournament_id: String,
    pub after_round: u32,
    /// The criteria in order (`points`, `sos`, …).
    pub criteria: Vec<String>,
    /// One row per entrant (the same rows the tournament publishes).
    pub rows: Vec<StandingRow>,
    /// Rows in all (the page may hold fewer).
    pub total: u32,
    pub team: bool,
    pub sequence: u64,
}

/// A round's pairings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairings {
    pub tournament_id: String,
    pub round: u32,
    pub games: Vec<Pairing>,
    pub byes: Vec<Bye>,
    pub completed: bool,
}

/// One table of a round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    pub table: u32,
    pub black: u32,
    pub white: u32,
    pub black_account: String,
    pub white_account: String,
    pub black_name: String,
    pub white_name: String,
    pub black_rank: String,
    pub white_rank: String,
    pub handicap: u32,
    /// How the colors were given: balance, alternation, nigiri, handicap, berger, organiser,
    /// board-order.
    pub colors_by: String,
    /// "", "B+", "W+", "draw", "both-lose", "void"; a forfeit adds "!" (e.g. "W+!").
    pub result: String,
    /// The game in the game service; empty for a round imported from a file (played elsewhere).
    pub game_id: String,
    /// Fixed by the organiser.
    pub fixed: bool,
}

/// A player without a game in a round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bye {
    pub player: u32,
    pub account_id: String,
    pub name: String,
    /// How it scores: full-point, half-point, zero-point.
    pub kind: String,
    /// Why: pairing, requested, rest, advance.
    pub reason: String,
}

/// A registered player as the desk lists them: what the registration says, and what may be done.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerLine {
    /// The player number (the one every desk action asks for).
    pub player: u32,
    /// The platform account.
    pub account: String,
    pub name_zh: String,
    pub name_latin: String,
    /// Latin form (`3d`, `12k`).
    pub rank: String,
    pub club: String,
    pub region: String,
    /// The family the director wrote, for separating families in the pairing.
    pub family: String,
    /// Withdrew (Art. 28).
    pub withdrawn: bool,
    /// Placed in a round (a game or a bye): they withdraw rather than being removed.
    pub placed: bool,
    /// A bye granted for the next round (`full-point`, `half-point`, `zero-point`: absent), if any.
    pub bye_next: Option<String>,
}

/// What may change mid-event, as it stands, and every change so far (the desk's settings card).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// The format's key (`swiss`, `mcmahon`, …).
    pub format_key: String,
    /// A Swiss's or McMahon's rounds.
    pub rounds: Option<u32>,
    /// The McMahon bars (Latin ranks: `3d`, `20k`).
    pub bars: Option<(String, String)>,
    /// The ranking criteria's codes, in order.
    pub ranking: Vec<String>,
    /// Every change, oldest first.
    pub changes: Vec<SettingsChange>,
}

/// One mid-event change of settings, as the log records it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsChange {
    /// When, ms since the Unix epoch.
    pub at_ms: i64,
    /// Who made it (the account).
    pub by: String,
    /// The rounds after it.
    pub rounds: Option<u32>,
    /// The bars after it.
    pub bars: Option<(String, String)>,
    /// The criteria's codes after it.
    pub ranking: Vec<String>,
}
