//! Matches between two players (Art. 26, RULES.md section 4): best-of-N (2 of 3 up to 4 of 7) and
//! fixed-length matches such as the 10-game match; nigiri for the first game, then colors alternate.

use super::{Draft, entrants};
use crate::config::TournamentConfig;
use crate::event::ColorBy;
use crate::ids::PlayerId;
use crate::lot;
use crate::record::records;
use crate::state::Tournament;
use std::collections::HashMap;

/// A best-of-N match: nigiri for the first game, then colors alternate.
pub(super) fn best_of(t: &Tournament, cfg: &TournamentConfig, next: u32) -> Draft {
    let mut d = Draft::default();
    let mut two = entrants(t);
    two.truncate(2);
    if two.len() < 2 {
        return d;
    }
    match t.rounds.last().and_then(|r| r.games.first()) {
        Some(prev) => {
            d.game(prev.paired.white, prev.paired.black, ColorBy::Alternation);
        }
        None => {
            let (black, white) = if lot::nigiri(cfg.seed, next)() { (two[0], two[1]) } else { (two[1], two[0]) };
            d.game(black, white, ColorBy::Nigiri);
        }
    }
    d
}

/// Wins of each side in a best-of-N match so far.
pub(crate) fn match_wins(t: &Tournament) -> HashMap<PlayerId, u32> {
    let recs = records(t, t.current_round());
    recs.list.iter().map(|r| (r.player, r.wins)).collect()
}
