//! Each player's round-by-round record, with the Art. 28 rulings and voided games applied: the one
//! input of standings and of the next round's pairing.

use crate::config::{ByeKind, PointSystem};
use crate::event::WithdrawalRuling;
use crate::ids::{Color, GameRef, PlayerId};
use crate::outcome::{Outcome, PlayerResult, ResultReason};
use crate::state::Tournament;
use std::collections::HashMap;

/// What a player did in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A game with a result.
    Game {
        /// The opponent.
        opponent: PlayerId,
        /// This player's result.
        result: PlayerResult,
        /// This player's color.
        color: Color,
        /// Handicap stones of the game.
        handicap: u8,
        /// Not actually played (forfeit).
        forfeit: bool,
        /// The game.
        game: GameRef,
    },
    /// A game still in progress (scores nothing yet).
    Pending {
        /// The opponent.
        opponent: PlayerId,
    },
    /// A bye.
    Bye {
        /// How it scores.
        kind: ByeKind,
    },
    /// Nothing: not paired, withdrawn, or the game was voided.
    Nothing,
}

/// One player's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    /// The player.
    pub player: PlayerId,
    /// `entries[r - 1]` is round `r`.
    pub entries: Vec<Entry>,
    /// Total points.
    pub points: i64,
    /// Games with a result (forfeits included).
    pub games: u32,
    /// Wins (forfeit wins included).
    pub wins: u32,
    /// Losses (both-lose and forfeit losses included).
    pub losses: u32,
}

impl PlayerRecord {
    /// Opponents met with a result or pending (for rematch avoidance).
    pub fn opponents(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.entries.iter().filter_map(|e| match e {
            Entry::Game { opponent, .. } | Entry::Pending { opponent } => Some(*opponent),
            _ => None,
        })
    }
}

/// All records of a tournament up to a round.
#[derive(Clone, Debug)]
pub struct Records {
    /// Rounds included.
    pub rounds: u32,
    /// Records, in player-id order.
    pub list: Vec<PlayerRecord>,
    index: HashMap<PlayerId, usize>,
}

impl Records {
    /// The record of `p`.
    pub fn get(&self, p: PlayerId) -> Option<&PlayerRecord> {
        self.index.get(&p).map(|&i| &self.list[i])
    }

    /// The position of `p` in `list`.
    pub fn index_of(&self, p: PlayerId) -> Option<usize> {
        self.index.get(&p).copied()
    }
}

/// Points of a player result.
pub fn result_points(points: &PointSystem, r: PlayerResult) -> i64 {
    match r {
        PlayerResult::Win => points.win,
        PlayerResult::Draw => points.draw,
        PlayerResult::Loss => points.loss,
        PlayerResult::Void => 0,
    }
}

/// Points of a bye.
pub fn bye_points(points: &PointSystem, kind: ByeKind) -> i64 {
    match kind {
        ByeKind::FullPoint => points.win,
        ByeKind::HalfPoint => points.draw,
        ByeKind::ZeroPoint => points.loss,
    }
}

/// Builds every player's record over rounds `1..=up_to` (clamped to the rounds paired).
pub fn records(t: &Tournament, up_to: u32) -> Records {
    let points = t.config.as_ref().map(|c| c.points).unwrap_or(PointSystem::TWO_ONE_ZERO);
    let rounds = up_to.min(t.current_round());
    let mut list: Vec<PlayerRecord> = t
        .players
        .keys()
        .map(|&p| PlayerRecord {
            player: p,
            entries: vec![Entry::Nothing; rounds as usize],
            points: 0,
            games: 0,
            wins: 0,
            losses: 0,
        })
        .collect();
    let index: HashMap<PlayerId, usize> = list.iter().enumerate().map(|(i, r)| (r.player, i)).collect();
    let voided = |p: PlayerId| {
        t.players.get(&p).and_then(|e| e.withdrawn).is_some_and(|w| w.ruling == WithdrawalRuling::ResultsVoid)
    };
    for round in t.rounds.iter().take(rounds as usize) {
        let r = (round.number - 1) as usize;
        for g in &round.games {
            let (b, w) = (g.paired.black, g.paired.white);
            let (Some(&ib), Some(&iw)) = (index.get(&b), index.get(&w)) else {
                continue;
            };
            if voided(b) || voided(w) {
                continue;
            }
            let game = GameRef { round: round.number, table: g.paired.table };
            match g.result {
                None => {
                    list[ib].entries[r] = Entry::Pending { opponent: w };
                    list[iw].entries[r] = Entry::Pending { opponent: b };
                }
                Some(res) if res.outcome == Outcome::Void => {}
                Some(res) => {
                    let forfeit = res.reason == ResultReason::Forfeit;
                    for (i, color, opp) in [(ib, Color::Black, w), (iw, Color::White, b)] {
                        let result = res.outcome.for_color(color);
                        let rec = &mut list[i];
                        rec.entries[r] =
                            Entry::Game { opponent: opp, result, color, handicap: g.paired.handicap, forfeit, game };
                        rec.points += result_points(&points, result);
                        rec.games += 1;
                        match result {
                            PlayerResult::Win => rec.wins += 1,
                            PlayerResult::Loss => rec.losses += 1,
                            _ => {}
                        }
                    }
                }
            }
        }
        for bye in &round.byes {
            if let Some(&i) = index.get(&bye.player) {
                if voided(bye.player) {
                    continue;
                }
                list[i].entries[r] = Entry::Bye { kind: bye.kind };
                list[i].points += bye_points(&points, bye.kind);
            }
        }
    }
    Records { rounds, list, index }
}
