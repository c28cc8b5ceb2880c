//! The tournament aggregate's state and `evolve`, the fold of events into it.

use crate::config::{ByeKind, TournamentConfig};
use crate::event::{
    BracketSlot, Bye, Champion, PairedGame, Stage, TeamMatch, TournamentEvent, WithdrawalReason, WithdrawalRuling,
};
use crate::ids::{GameRef, Millis, PlayerId, TeamId};
use crate::outcome::{GameResult, Outcome, ResultReason};
use crate::registration::Registration;
use std::collections::{BTreeMap, BTreeSet};

/// A registered player and what has happened to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The registration snapshot.
    pub registration: Registration,
    /// The recorded lot (after the start).
    pub lot: u64,
    /// Set when the player withdrew.
    pub withdrawn: Option<Withdrawal>,
    /// Warnings over the event (Art. 24, tie-break B).
    pub warnings: u32,
    /// No-shows over the event.
    pub no_shows: u32,
    /// The round in which the player was eliminated (elimination formats).
    pub eliminated_in: Option<u32>,
    /// The player's team.
    pub team: Option<TeamId>,
}

/// A withdrawal and its ruling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Withdrawal {
    /// Rounds paired at the time.
    pub after_round: u32,
    /// Why.
    pub reason: WithdrawalReason,
    /// The Art. 28 ruling.
    pub ruling: WithdrawalRuling,
}

/// A registered team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Team {
    /// Name.
    pub name: String,
    /// Roster in board order.
    pub members: Vec<PlayerId>,
    /// Recorded lot.
    pub lot: u64,
}

/// A game of a round, with its result once known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// As paired.
    pub paired: PairedGame,
    /// The result (the latest, after corrections).
    pub result: Option<GameResult>,
}

/// A paired round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// From 1.
    pub number: u32,
    /// The stage.
    pub stage: Stage,
    /// Games in table order (`games[t - 1]` is table `t`).
    pub games: Vec<Game>,
    /// Byes.
    pub byes: Vec<Bye>,
    /// Team matches.
    pub team_matches: Vec<TeamMatch>,
    /// Knockout bracket order.
    pub bracket: Vec<BracketSlot>,
    /// Teams without a match.
    pub team_byes: Vec<TeamId>,
    /// All results in.
    pub completed: bool,
}

/// Where the tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No `Created` event yet.
    Uncreated,
    /// Accepting registrations.
    Registration,
    /// Rounds are being played.
    Running,
    /// Over.
    Finished(Champion),
}

/// The state of one tournament: a pure fold of its events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    /// The configuration (`None` before `Created`).
    pub config: Option<TournamentConfig>,
    /// Life cycle.
    pub phase: Phase,
    /// When it was created.
    pub created_at: Millis,
    /// When it started (`Millis(0)` before).
    pub started_at: Millis,
    /// The latest instant a result was recorded or corrected (`Millis(0)`: none yet).
    pub last_result_at: Millis,
    /// Players by id.
    pub players: BTreeMap<PlayerId, Entrant>,
    /// Teams by id.
    pub teams: BTreeMap<TeamId, Team>,
    /// Paired rounds (`rounds[r - 1]` is round `r`).
    pub rounds: Vec<Round>,
    /// Forbidden pairs, stored with the smaller id first: the one round each holds for, or `None`
    /// for every round ([`Tournament::forbidden_in`]).
    pub forbids: BTreeMap<(PlayerId, PlayerId), Option<u32>>,
    /// Fixed pairings by round: (black, white).
    pub fixed: BTreeMap<u32, Vec<(PlayerId, PlayerId)>>,
    /// Organiser byes by round.
    pub granted_byes: BTreeMap<u32, Vec<(PlayerId, ByeKind)>>,
    /// Line-ups by (round, team).
    pub line_ups: BTreeMap<(u32, TeamId), Vec<PlayerId>>,
    /// Reprieved players by round (Swiss plus elimination).
    pub reprieved: BTreeMap<PlayerId, u32>,
    /// How often each round's pairing was taken back: the round's current pairing is its `n`-th
    /// (from 0), which keeps its games apart from those of the pairings taken back.
    pub unpaired: BTreeMap<u32, u32>,
}

impl Default for Tournament {
    fn default() -> Self {
        Tournament {
            config: None,
            phase: Phase::Uncreated,
            created_at: Millis(0),
            started_at: Millis(0),
            last_result_at: Millis(0),
            players: BTreeMap::new(),
            teams: BTreeMap::new(),
            rounds: Vec::new(),
            forbids: BTreeMap::new(),
            fixed: BTreeMap::new(),
            granted_byes: BTreeMap::new(),
            line_ups: BTreeMap::new(),
            reprieved: BTreeMap::new(),
            unpaired: BTreeMap::new(),
        }
    }
}

impl Tournament {
    /// Replays events from scratch.
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a TournamentEvent>) -> Tournament {
        let mut t = Tournament::default();
        for e in events {
            evolve(&mut t, e);
        }
        t
    }

    /// The game at `g`, if paired.
    pub fn game(&self, g: GameRef) -> Option<&Game> {
        let round = self.rounds.get((g.round as usize).checked_sub(1)?)?;
        round.games.get((g.table as usize).checked_sub(1)?)
    }

    /// The pairs forbidden to meet in `round`: those forbidden for every round and those forbidden for
    /// that one (smaller id first).
    pub fn forbidden_in(&self, round: u32) -> BTreeSet<(PlayerId, PlayerId)> {
        self.forbids.iter().filter(|(_, r)| r.is_none_or(|r| r == round)).map(|(p, _)| *p).collect()
    }

    /// Which pairing of `round` stands: 0 for the first, 1 after it was taken back once, …
    pub fn pairing_of(&self, round: u32) -> u32 {
        self.unpaired.get(&round).copied().unwrap_or(0)
    }

    /// The last paired round's number (0 before the first).
    pub fn current_round(&self) -> u32 {
        self.rounds.len() as u32
    }

    /// Whether a game's result no longer counts because a player withdrew and the Art. 28 ruling
    /// voided their results: the game shows `void`, whatever was recorded.
    pub fn is_voided(&self, g: &Game) -> bool {
        [g.paired.black, g.paired.white].iter().any(|p| {
            self.players.get(p).and_then(|e| e.withdrawn).is_some_and(|w| w.ruling == WithdrawalRuling::ResultsVoid)
        })
    }

    /// The result as it counts: [`Outcome::Void`] for a game voided by a withdrawal ruling, else
    /// the recorded result (`None`: not played yet).
    pub fn counted_result(&self, g: &Game) -> Option<GameResult> {
        if self.is_voided(g) {
            return Some(GameResult {
                outcome: Outcome::Void,
                reason: g.result.map_or(ResultReason::Referee, |r| r.reason),
            });
        }
        g.result
    }

    /// Whether the player withdrew (whatever the ruling).
    pub fn is_withdrawn(&self, p: PlayerId) -> bool {
        self.players.get(&p).is_some_and(|e| e.withdrawn.is_some())
    }

    /// Whether the player is still in the event (not withdrawn, not eliminated).
    pub fn is_active(&self, p: PlayerId) -> bool {
        self.players.get(&p).is_some_and(|e| e.withdrawn.is_none() && e.eliminated_in.is_none())
    }
}

/// A pair with the smaller id first, as forbids are kept.
pub fn ordered(a: PlayerId, b: PlayerId) -> (PlayerId, PlayerId) {
    if a <= b { (a, b) } else { (b, a) }
}

/// Applies one event. Total: events are facts, so nothing here can fail; an event naming an
/// unknown game or player (which `decide` never emits) is ignored.
pub fn evolve(t: &mut Tournament, event: &TournamentEvent) {
    match event {
        TournamentEvent::Created { config, at } => {
            t.config = Some(config.clone());
            t.created_at = *at;
            t.phase = Phase::Registration;
        }
        TournamentEvent::PlayerRegistered { registration } => {
            t.players.insert(
                registration.player,
                Entrant {
                    registration: registration.clone(),
                    lot: 0,
                    withdrawn: None,
                    warnings: 0,
                    no_shows: 0,
                    eliminated_in: None,
                    team: None,
                },
            );
        }
        TournamentEvent::TeamRegistered { team, name, members } => {
            for m in members {
                if let Some(e) = t.players.get_mut(m) {
                    e.team = Some(*team);
                }
            }
            t.teams.insert(*team, Team { name: name.clone(), members: members.clone(), lot: 0 });
        }
        TournamentEvent::LotsDrawn { players, teams } => {
            for (p, lot) in players {
                if let Some(e) = t.players.get_mut(p) {
                    e.lot = *lot;
                }
            }
            for (id, lot) in teams {
                if let Some(team) = t.teams.get_mut(id) {
                    team.lot = *lot;
                }
            }
        }
        TournamentEvent::Started { at } => {
            t.phase = Phase::Running;
            t.started_at = *at;
        }
        TournamentEvent::PairForbidden { a, b, round } => {
            t.forbids.insert(ordered(*a, *b), *round);
        }
        TournamentEvent::PairAllowed { a, b } => {
            t.forbids.remove(&ordered(*a, *b));
        }
        TournamentEvent::PairingFixed { round, black, white } => {
            t.fixed.entry(*round).or_default().push((*black, *white));
        }
        TournamentEvent::ByeGranted { round, player, kind } => {
            t.granted_byes.entry(*round).or_default().push((*player, *kind));
        }
        TournamentEvent::LineUpSubmitted { round, team, players } => {
            t.line_ups.insert((*round, *team), players.clone());
        }
        TournamentEvent::RoundPaired { round, stage, games, byes, team_matches, bracket, team_byes } => {
            t.rounds.push(Round {
                number: *round,
                stage: *stage,
                games: games.iter().map(|g| Game { paired: g.clone(), result: None }).collect(),
                byes: byes.clone(),
                team_matches: team_matches.clone(),
                bracket: bracket.clone(),
                team_byes: team_byes.clone(),
                completed: games.is_empty(),
            });
        }
        TournamentEvent::ByeCancelled { round, player } => {
            if let Some(byes) = t.granted_byes.get_mut(round) {
                byes.retain(|(p, _)| p != player);
            }
        }
        TournamentEvent::SettingsChanged { format, ranking, .. } => {
            if let Some(c) = t.config.as_mut() {
                c.format = format.clone();
                c.ranking = ranking.clone();
            }
        }
        TournamentEvent::PlayerEdited { registration } => {
            if let Some(e) = t.players.get_mut(&registration.player) {
                e.registration = registration.clone();
            }
        }
        TournamentEvent::PlayerRemoved { player } => {
            t.players.remove(player);
            t.forbids.retain(|(a, b), _| a != player && b != player);
            for fixed in t.fixed.values_mut() {
                fixed.retain(|(b, w)| b != player && w != player);
            }
            for byes in t.granted_byes.values_mut() {
                byes.retain(|(p, _)| p != player);
            }
            t.reprieved.remove(player);
        }
        TournamentEvent::RoundUnpaired { round, .. } => {
            if t.rounds.last().is_some_and(|r| r.number == *round) {
                t.rounds.pop();
                *t.unpaired.entry(*round).or_insert(0) += 1;
            }
        }
        TournamentEvent::ResultRecorded { game, result, at }
        | TournamentEvent::ResultCorrected { game, result, at, .. } => {
            t.last_result_at = t.last_result_at.max(*at);
            if let Some(r) = t.rounds.get_mut((game.round as usize).wrapping_sub(1))
                && let Some(g) = r.games.get_mut((game.table as usize).wrapping_sub(1))
            {
                g.result = Some(*result);
            }
        }
        TournamentEvent::NoShowRecorded { player, .. } => {
            if let Some(e) = t.players.get_mut(player) {
                e.no_shows += 1;
            }
        }
        TournamentEvent::WarningIssued { player, .. } => {
            if let Some(e) = t.players.get_mut(player) {
                e.warnings += 1;
            }
        }
        TournamentEvent::PlayerWithdrawn { player, after_round, reason, ruling } => {
            if let Some(e) = t.players.get_mut(player) {
                e.withdrawn = Some(Withdrawal { after_round: *after_round, reason: *reason, ruling: *ruling });
            }
        }
        TournamentEvent::PlayerEliminated { player, round } => {
            if let Some(e) = t.players.get_mut(player) {
                e.eliminated_in = Some(*round);
            }
        }
        TournamentEvent::PlayerReprieved { player, round } => {
            if let Some(e) = t.players.get_mut(player) {
                e.eliminated_in = None;
            }
            t.reprieved.insert(*player, *round);
        }
        TournamentEvent::RoundCompleted { round } => {
            if let Some(r) = t.rounds.get_mut((*round as usize).wrapping_sub(1)) {
                r.completed = true;
            }
        }
        TournamentEvent::Finished { champion } => t.phase = Phase::Finished(*champion),
    }
}
