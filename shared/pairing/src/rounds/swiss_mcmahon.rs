//! Swiss (积分编排) and McMahon (Art. 26, RULES.md section 4): fixed pairs and organiser byes, then
//! the maximum-weight matching of [`crate::swiss`] on points or on the McMahon score; withdrawn
//! players are no longer paired (Art. 28). The same round also pairs the loss groups of double and
//! multi-loss knockouts and the rounds of [`swiss_elimination`](mod@super::swiss_elimination).

use super::{Draft, active_players};
use crate::colors;
use crate::config::{ByeKind, Format, TournamentConfig};
use crate::event::{Bye, ByeReason, ColorBy};
use crate::ids::{Color, PlayerId};
use crate::lot;
use crate::record::{Entry, Records, records};
use crate::rejection::Rejection;
use crate::seeding::seat_candidates;
use crate::standings::initial_mms;
use crate::state::Tournament;
use crate::swiss::{PairingParams, pair_round};
use crate::weights::{ByePolicy, Candidate, PairingPolicy, RematchPolicy};
use std::collections::HashMap;

/// Interns clubs, regions and families for the pairing.
struct Interner<'a>(HashMap<&'a str, u32>);

impl<'a> Interner<'a> {
    fn id(&mut self, s: Option<&'a String>) -> Option<u32> {
        let s = s?.as_str();
        let n = self.0.len() as u32;
        Some(*self.0.entry(s).or_insert(n))
    }
}

/// Builds the pairing candidates for `players` from their records.
pub(crate) fn candidates(
    t: &Tournament,
    recs: &Records,
    players: &[PlayerId],
    score: &dyn Fn(PlayerId, i64) -> i64,
) -> Vec<Candidate> {
    let mut byes: HashMap<PlayerId, u32> = HashMap::new();
    for r in &t.rounds {
        for b in r.byes.iter().filter(|b| b.reason == ByeReason::Pairing) {
            *byes.entry(b.player).or_default() += 1;
        }
    }
    let mut clubs = Interner(HashMap::new());
    let mut regions = Interner(HashMap::new());
    let mut families = Interner(HashMap::new());
    players
        .iter()
        .map(|&p| {
            let e = &t.players[&p];
            let rec = recs.get(p);
            let (mut balance, mut last) = (0, None);
            let mut opponents = Vec::new();
            let mut points = 0;
            if let Some(rec) = rec {
                points = rec.points;
                opponents = rec.opponents().collect();
                for en in &rec.entries {
                    if let Entry::Game { color, handicap: 0, forfeit: false, .. } = *en {
                        balance += if color == Color::Black { 1 } else { -1 };
                        last = Some(color);
                    }
                }
            }
            Candidate {
                id: p,
                score: score(p, points),
                rank: e.registration.rank.value(),
                lot: e.lot,
                color_balance: balance,
                last_color: last,
                byes: byes.get(&p).copied().unwrap_or(0),
                opponents,
                club: clubs.id(e.registration.club.as_ref()),
                region: regions.id(e.registration.region.as_ref()),
                family: families.id(e.registration.family.as_ref()),
                seat: None,
            }
        })
        .collect()
}

/// The pairing score of a format: points, or the McMahon score in points.
pub(crate) fn pairing_score(t: &Tournament, cfg: &TournamentConfig) -> impl Fn(PlayerId, i64) -> i64 {
    let bars = match cfg.format {
        Format::McMahon { bars, .. } => Some(bars),
        _ => None,
    };
    let win = cfg.points.win;
    let ranks: HashMap<PlayerId, i32> = t.players.iter().map(|(&p, e)| (p, e.registration.rank.value())).collect();
    move |p, points| match bars {
        Some(b) => initial_mms(ranks.get(&p).copied().unwrap_or(0), &b) * win + points,
        None => points,
    }
}

/// Swiss, McMahon and the loss-group eliminations: fixed pairs and organiser byes first, then the
/// maximum-weight matching of everyone else.
pub(super) fn swiss_like(
    t: &Tournament,
    cfg: &TournamentConfig,
    next: u32,
    mut players: Vec<PlayerId>,
    policy: PairingPolicy,
    by_losses: bool,
) -> Result<Draft, Rejection> {
    let recs = records(t, next - 1);
    let mut d = Draft::default();
    let fixed = t.fixed.get(&next).cloned().unwrap_or_default();
    for &(black, white) in &fixed {
        let g = d.game(black, white, ColorBy::Organiser);
        g.fixed = true;
    }
    let granted = t.granted_byes.get(&next).cloned().unwrap_or_default();
    for &(player, kind) in &granted {
        d.byes.push(Bye { player, kind, reason: ByeReason::Requested });
    }
    players.retain(|p| !fixed.iter().any(|&(b, w)| b == *p || w == *p) && !granted.iter().any(|&(g, _)| g == *p));
    let swiss_score = pairing_score(t, cfg);
    let losses_cap = match cfg.format {
        Format::Knockout { losses } | Format::SwissElimination { losses, .. } => i64::from(losses),
        _ => 0,
    };
    let win = cfg.points.win;
    let score = |p: PlayerId, points: i64| {
        if by_losses {
            let l = recs.get(p).map_or(0, |r| i64::from(r.losses));
            (losses_cap - l) * win
        } else {
            swiss_score(p, points)
        }
    };
    let mut cands = candidates(t, &recs, &players, &score);
    seat_candidates(&mut cands, policy.seeding.system(next), seeding_salt(cfg, next));
    let params = PairingParams::default();
    let forbidden = t.forbidden_in(next);
    let plan = match pair_round(&cands, &forbidden, &policy, &params) {
        Ok(plan) => plan,
        Err(e) if by_losses || matches!(cfg.format, Format::SwissElimination { .. }) => {
            // Elimination fields shrink: allow a rematch or a second bye rather than stop.
            let relaxed =
                PairingPolicy { rematches: RematchPolicy::Discouraged, byes: ByePolicy::FewestFirst, ..policy };
            pair_round(&cands, &forbidden, &relaxed, &params).map_err(|_| Rejection::Pairing(e))?
        }
        Err(e) => {
            // Swiss and McMahon: no pairing without a rematch exists (e.g. ten players whose first five
            // rounds were top half against bottom half: each half has met all of the other). As in
            // OpenGotha, where avoiding a second game is the heaviest weight rather than a rule, the
            // fewest rematches are then paired rather than the event stopped; the pairing's cost
            // records each (criterion 1), and "why?" names it. Byes still go once per player.
            let relaxed = PairingPolicy { rematches: RematchPolicy::Discouraged, ..policy };
            pair_round(&cands, &forbidden, &relaxed, &params).map_err(|_| Rejection::Pairing(e))?
        }
    };
    let by_id: HashMap<PlayerId, &Candidate> = cands.iter().map(|c| (c.id, c)).collect();
    let mut nigiri = lot::nigiri(cfg.seed, next);
    for pair in &plan.pairs {
        let (a, b) = (by_id[&pair.a], by_id[&pair.b]);
        let (black, white, how) = colors::assign(a, b, pair.cost.handicap, &mut nigiri);
        let g = d.game(black, white, how);
        g.handicap = pair.cost.handicap;
        g.cost = Some(pair.cost);
    }
    if let Some(p) = plan.bye {
        let kind = if by_losses { ByeKind::FullPoint } else { cfg.pairing_bye };
        d.byes.push(Bye { player: p, kind, reason: ByeReason::Pairing });
    }
    Ok(d)
}

/// The salt of a round's split-and-random draw: the tournament's seed and the round.
pub(crate) fn seeding_salt(cfg: &TournamentConfig, round: u32) -> u64 {
    cfg.seed ^ (u64::from(round) << 48) ^ 0x5EED
}

/// The candidates a Swiss or McMahon pairing of the next round would see (every active player,
/// with the format's pairing score and their seats in their score groups): for benchmarks,
/// explanations and diagnostics.
pub fn next_round_candidates(t: &Tournament) -> Vec<Candidate> {
    let Some(cfg) = t.config.as_ref() else { return Vec::new() };
    let recs = records(t, t.current_round());
    let score = pairing_score(t, cfg);
    let mut cands = candidates(t, &recs, &active_players(t), &score);
    let next = t.current_round() + 1;
    seat_candidates(&mut cands, cfg.pairing.seeding.system(next), seeding_salt(cfg, next));
    cands
}
