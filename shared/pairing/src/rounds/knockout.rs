//! Knockout (Art. 26, RULES.md section 4): single elimination with a seeded bracket (byes for the
//! top seeds), later rounds from the bracket; withdrawn players do not advance (Art. 28). The
//! bracket layout is shared with the cross knockout of
//! [`Format::GroupsThenKnockout`](crate::config::Format::GroupsThenKnockout). Double and multi-loss
//! elimination pair their loss groups through the Swiss matching instead
//! ([`swiss_mcmahon`](super::swiss_mcmahon)).

use super::{Draft, active_players, seeded};
use crate::bracket::first_round;
use crate::config::{ByeKind, TournamentConfig};
use crate::event::{BracketSlot, Bye, ByeReason, ColorBy, Stage};
use crate::ids::{Color, PlayerId};
use crate::lot;
use crate::outcome::Outcome;
use crate::rejection::Rejection;
use crate::state::Tournament;

/// The winner who advances from a bracket slot (withdrawn players do not advance).
fn advancing(t: &Tournament, round: &crate::state::Round) -> Vec<Option<PlayerId>> {
    round
        .bracket
        .iter()
        .map(|slot| match *slot {
            BracketSlot::Game(table) => {
                let g = round.games.get(table as usize - 1)?;
                match g.result?.outcome {
                    Outcome::Win(Color::Black) => Some(g.paired.black),
                    Outcome::Win(Color::White) => Some(g.paired.white),
                    _ => None,
                }
            }
            BracketSlot::Through(p) => Some(p),
            BracketSlot::Empty => None,
        })
        .map(|p| p.filter(|p| t.players[p].withdrawn.is_none()))
        .collect()
}

/// Who is left after a knockout round: `Some(champion)` when the bracket is down to one slot.
pub(crate) fn knockout_champion(t: &Tournament, round: &crate::state::Round) -> Option<Option<PlayerId>> {
    if round.bracket.len() == 1 { Some(advancing(t, round)[0]) } else { None }
}

/// Lays out a bracket round from entrants in slot order (neighbours meet).
pub(super) fn bracket_round(
    t: &Tournament,
    cfg: &TournamentConfig,
    next: u32,
    d: &mut Draft,
    slots: Vec<(Option<PlayerId>, Option<PlayerId>)>,
) {
    let mut nigiri = lot::nigiri(cfg.seed, next);
    let _ = t;
    for (a, b) in slots {
        let slot = match (a, b) {
            (Some(a), Some(b)) => {
                let (black, white) = if nigiri() { (a, b) } else { (b, a) };
                BracketSlot::Game(d.game(black, white, ColorBy::Nigiri).table)
            }
            (Some(p), None) | (None, Some(p)) => {
                d.byes.push(Bye { player: p, kind: ByeKind::FullPoint, reason: ByeReason::Advance });
                BracketSlot::Through(p)
            }
            (None, None) => BracketSlot::Empty,
        };
        d.bracket.push(slot);
    }
}

/// Single elimination: round 1 from seeding (top seeds get the byes), later rounds from the bracket.
pub(super) fn knockout(t: &Tournament, cfg: &TournamentConfig, next: u32, stage: Stage) -> Result<Draft, Rejection> {
    let mut d = Draft { stage: Some(stage), ..Draft::default() };
    let slots: Vec<(Option<PlayerId>, Option<PlayerId>)> = match t.rounds.last() {
        Some(prev) if !prev.bracket.is_empty() => {
            if prev.bracket.len() == 1 {
                return Err(Rejection::Finished);
            }
            let adv = advancing(t, prev);
            adv.chunks(2).map(|c| (c[0], c.get(1).copied().flatten())).collect()
        }
        _ => {
            let seeds = seeded(t, active_players(t));
            first_round(seeds.len()).into_iter().map(|(a, b)| (a.map(|i| seeds[i]), b.map(|i| seeds[i]))).collect()
        }
    };
    bracket_round(t, cfg, next, &mut d, slots);
    Ok(d)
}
