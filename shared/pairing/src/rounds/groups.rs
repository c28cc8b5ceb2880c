//! Groups then a cross knockout (Art. 26, RULES.md section 4; seed 001's local event): snake-seeded
//! groups played as round robins ([`round_robin`](mod@super::round_robin)), then the top
//! qualifiers of each group in a cross knockout ([`knockout`](mod@super::knockout)).

use super::knockout::bracket_round;
use super::{Draft, entrants, seeded};
use crate::bracket::first_round;
use crate::config::TournamentConfig;
use crate::event::Stage;
use crate::ids::PlayerId;
use crate::record::records;
use crate::rejection::Rejection;
use crate::standings::rank_players;
use crate::state::Tournament;

/// Groups by snake seeding (1 2 3 3 2 1 …) over everyone who entered.
pub(crate) fn group_members(t: &Tournament, groups: u32) -> Vec<Vec<PlayerId>> {
    let g = groups.max(1) as usize;
    let mut out = vec![Vec::new(); g];
    for (k, p) in seeded(t, entrants(t)).into_iter().enumerate() {
        let lap = k / g;
        let pos = k % g;
        out[if lap.is_multiple_of(2) { pos } else { g - 1 - pos }].push(p);
    }
    for members in &mut out {
        members.sort_by_key(|p| (t.players[p].lot, *p));
    }
    out
}

/// The knockout after the groups: for two qualifiers per group and an even number of groups,
/// winners meet the runners-up of the partner group (A1–B2, B1–A2; group-mates can only meet in
/// the final); otherwise qualifiers are seeded by group place into a standard bracket.
pub(super) fn cross_knockout(
    t: &Tournament,
    cfg: &TournamentConfig,
    next: u32,
    groups: &[Vec<PlayerId>],
    advance: u32,
    group_rounds: u32,
) -> Result<Draft, Rejection> {
    let recs = records(t, group_rounds);
    let mut placed: Vec<Vec<Option<PlayerId>>> = Vec::new();
    let st = rank_players(t, &recs, &cfg.ranking);
    for g in groups {
        let mut order: Vec<Option<PlayerId>> =
            st.rows.iter().map(|r| r.player).filter(|p| g.contains(p) && t.is_active(*p)).map(Some).collect();
        order.resize(advance as usize, None);
        order.truncate(advance as usize);
        placed.push(order);
    }
    let mut d = Draft { stage: Some(Stage::Knockout), ..Draft::default() };
    let slots: Vec<(Option<PlayerId>, Option<PlayerId>)> = if advance == 2 && groups.len().is_multiple_of(2) {
        let half = groups.len() / 2;
        let mut s = Vec::new();
        for k in 0..half {
            s.push((placed[2 * k][0], placed[2 * k + 1][1]));
        }
        for k in 0..half {
            s.push((placed[2 * k + 1][0], placed[2 * k][1]));
        }
        s
    } else {
        let mut seeds = Vec::new();
        for place in 0..advance as usize {
            for g in &placed {
                seeds.push(g[place]);
            }
        }
        first_round(seeds.len())
            .into_iter()
            .map(|(a, b)| (a.and_then(|i| seeds[i]), b.and_then(|i| seeds[i])))
            .collect()
    };
    bracket_round(t, cfg, next, &mut d, slots);
    Ok(d)
}
