//! Round robin (Art. 26, RULES.md section 4): single, double and multiple cycles by Berger tables,
//! with the Art. 28 withdrawal rulings (results void, or the remaining games forfeited). Also plays
//! the group stage of [`Format::GroupsThenKnockout`](crate::config::Format::GroupsThenKnockout).

use super::{Draft, forfeit_outcome};
use crate::berger::berger_round;
use crate::config::ByeKind;
use crate::event::{Bye, ByeReason, ColorBy, WithdrawalRuling};
use crate::ids::PlayerId;
use crate::state::Tournament;
use std::collections::BTreeSet;

/// One Berger round among `entrants`, honouring Art. 28 for withdrawn players.
pub(super) fn round_robin(t: &Tournament, d: &mut Draft, entrants: &[PlayerId], round: usize, group: Option<u32>) {
    let pairs = berger_round(entrants.len(), round);
    let mut seen = BTreeSet::new();
    for (b, w) in pairs {
        let (black, white) = (entrants[b], entrants[w]);
        seen.insert(black);
        seen.insert(white);
        let ruling = |p: PlayerId| t.players[&p].withdrawn.map(|w| w.ruling);
        match (ruling(black), ruling(white)) {
            (Some(WithdrawalRuling::ResultsVoid), _) | (_, Some(WithdrawalRuling::ResultsVoid)) => {
                for p in [black, white] {
                    if ruling(p).is_none() {
                        d.byes.push(Bye { player: p, kind: ByeKind::ZeroPoint, reason: ByeReason::Rest });
                    }
                }
            }
            (rb, rw) => {
                let g = d.game(black, white, ColorBy::Berger);
                g.group = group;
                let table = g.table;
                if let Some(o) = forfeit_outcome(rb.is_some(), rw.is_some()) {
                    d.forfeits.push((table, o));
                }
            }
        }
    }
    for &p in entrants {
        if !seen.contains(&p) && t.players[&p].withdrawn.is_none() {
            d.byes.push(Bye { player: p, kind: ByeKind::ZeroPoint, reason: ByeReason::Rest });
        }
    }
}
