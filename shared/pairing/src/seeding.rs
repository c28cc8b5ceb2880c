//! Seeding inside a score group: who meets whom among players on the same score (issue 15 item 1).
//!
//! Directors expect the top half of a score group to meet the bottom half, not the two strongest
//! to meet each other in round 1. This module offers what OpenGotha offers (Luc Vannier's
//! OpenGotha, `PairingParameterSet` and `Tournament.costValue`, "Main Criterion 4: Seeding"), as
//! one tier of the matching weights of [`crate::weights`], not as a pass after the matching:
//!
//! * The players of a group (same pairing score) are ranked in pairing order (rank, then the
//!   recorded lot): position `c` = 0 for the best of `n`.
//! * [`SeedSystem::SplitAndFold`]: 1st meets last, 2nd meets second-to-last … The ideal is
//!   `c₁ + c₂ = n − 1`; a pair costs `S · x² / (n − 1)²` for `x = c₁ + c₂ − (n − 1)`.
//! * [`SeedSystem::SplitAndSlip`]: the top half slides along the bottom half: 1st meets
//!   `n/2 + 1`-th, 2nd meets `n/2 + 2`-th … The ideal is `|c₁ − c₂| = n/2`; a pair costs
//!   `S · x² / n²` for `x = 2·|c₁ − c₂| − n`.
//! * [`SeedSystem::SplitAndRandom`]: top half against bottom half, partners drawn at random: a
//!   pair across the halves costs a seeded pseudo-random `0 ..= S/5` (OpenGotha draws in `0.2 · W`),
//!   a pair inside one half costs `S`.
//! * Two players of different groups cost `S` (no seeding benefit, as in OpenGotha): the score
//!   tier above already fixes how many pairs cross groups.
//!
//! `S` is [`SEEDING_SCALE`]. OpenGotha maximises `W − cost` with `W = 5,000,000`; this crate
//! minimises the same quadratic shape at a resolution of 100,000, which keeps the weights' tiers
//! inside an `i128`.
//!
//! **Which system when.** [`Seeding`] holds a first system for rounds `1..=last_round_first` and a
//! second for the rounds after: OpenGotha's `paiMaSeedSystem1`, `paiMaLastRoundForSeedSystem1`
//! and `paiMaSeedSystem2`. OpenGotha's defaults are the defaults here: for McMahon, split and
//! random in rounds 1–2 then split and fold ([`Seeding::OPENGOTHA_MCMAHON`]); for Swiss, split
//! and slip throughout ([`Seeding::OPENGOTHA_SWISS`], OpenGotha's `initForSwiss`).
//!
//! **Where the tier sits.** Below rematches, byes and score difference, *below color balance* and
//! above handicap and club separation. OpenGotha weighs seeding (5·10⁶) a little above color
//! balance (10⁶) in one sum; with strictly lexicographic tiers, seeding above color would let it
//! give a player the same color three times for a slightly better fold, so color comes first and
//! seeding decides among the pairings that are equally good for colors. In round 1 nobody has a
//! color yet, so seeding alone decides within each group.
//!
//! Randomness is seeded (the tournament's seed and the round): the same state pairs the same way.

use crate::weights::Candidate;
use serde::{Deserialize, Serialize};

/// The seeding cost of the worst pair in a group (and of a pair across groups).
pub const SEEDING_SCALE: u32 = 100_000;

/// How players of one score group are paired (OpenGotha's seed systems).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SeedSystem {
    /// Top half against bottom half, partners drawn at random (seeded).
    SplitAndRandom,
    /// Top half against bottom half, folded: 1st v last, 2nd v second-to-last.
    SplitAndFold,
    /// Top half against bottom half, slipped: 1st v `n/2 + 1`-th, 2nd v `n/2 + 2`-th.
    SplitAndSlip,
}

impl SeedSystem {
    /// The name directors know ("split and fold").
    pub fn label(self) -> &'static str {
        match self {
            SeedSystem::SplitAndRandom => "split and random",
            SeedSystem::SplitAndFold => "split and fold",
            SeedSystem::SplitAndSlip => "split and slip",
        }
    }

    /// OpenGotha's name in its tournament files (`SPLITANDFOLD`).
    pub fn opengotha(self) -> &'static str {
        match self {
            SeedSystem::SplitAndRandom => "SPLITANDRANDOM",
            SeedSystem::SplitAndFold => "SPLITANDFOLD",
            SeedSystem::SplitAndSlip => "SPLITANDSLIP",
        }
    }

    /// The system of an OpenGotha name, or of a short name (`fold`, `slip`, `random`).
    pub fn parse(name: &str) -> Option<SeedSystem> {
        match name.trim().to_ascii_lowercase().replace(['-', '_', ' '], "").as_str() {
            "splitandrandom" | "random" => Some(SeedSystem::SplitAndRandom),
            "splitandfold" | "fold" => Some(SeedSystem::SplitAndFold),
            "splitandslip" | "slip" => Some(SeedSystem::SplitAndSlip),
            _ => None,
        }
    }
}

/// The seed systems of a tournament: `first` in rounds `1..=last_round_first`, `second` after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seeding {
    /// The system of the first rounds.
    pub first: SeedSystem,
    /// The last round of the first system (0: the second system from round 1).
    pub last_round_first: u32,
    /// The system of the later rounds.
    pub second: SeedSystem,
}

impl Seeding {
    /// OpenGotha's McMahon default: split and random in rounds 1–2, then split and fold.
    pub const OPENGOTHA_MCMAHON: Seeding =
        Seeding { first: SeedSystem::SplitAndRandom, last_round_first: 2, second: SeedSystem::SplitAndFold };
    /// OpenGotha's Swiss default: split and slip in every round.
    pub const OPENGOTHA_SWISS: Seeding =
        Seeding { first: SeedSystem::SplitAndSlip, last_round_first: 2, second: SeedSystem::SplitAndSlip };

    /// The system of round `round` (1-based).
    pub fn system(&self, round: u32) -> SeedSystem {
        if round <= self.last_round_first { self.first } else { self.second }
    }
}

impl Default for Seeding {
    fn default() -> Self {
        Seeding::OPENGOTHA_MCMAHON
    }
}

/// A player's place in their score group for one round's pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// 0 for the best of the group (pairing order: rank, then lot).
    pub position: u32,
    /// Players in the group.
    pub size: u32,
    /// The round's seed system.
    pub system: SeedSystem,
    /// The player's seeded random key (split and random).
    pub key: u64,
}

fn mix(mut z: u64) -> u64 {
    // SplitMix64's finaliser: a fixed bijection, so keys are deterministic and well spread.
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Gives every candidate their seat in their score group under `system`; `salt` (the
/// tournament's seed and the round) seeds split and random.
pub fn seat_candidates(cands: &mut [Candidate], system: SeedSystem, salt: u64) {
    let order = crate::swiss::pairing_order(cands);
    let mut start = 0;
    while start < order.len() {
        let score = cands[order[start]].score;
        let end = start + order[start..].iter().take_while(|&&i| cands[i].score == score).count();
        for (k, &i) in order[start..end].iter().enumerate() {
            let key = mix(salt ^ mix(u64::from(cands[i].id.0)));
            cands[i].seat = Some(Seat { position: k as u32, size: (end - start) as u32, system, key });
        }
        start = end;
    }
}

/// The seeding cost of pairing `a` with `b` (0 = the system's ideal partner; see the module doc).
pub fn seeding_cost(a: &Candidate, b: &Candidate) -> u32 {
    let (Some(x), Some(y)) = (a.seat, b.seat) else { return 0 };
    if a.score != b.score || x.size < 2 {
        return SEEDING_SCALE;
    }
    let s = u64::from(SEEDING_SCALE);
    let n = i64::from(x.size);
    let (c1, c2) = (i64::from(x.position), i64::from(y.position));
    let quadratic = |dev: i64, span: i64| (s * dev.unsigned_abs().pow(2) / span.unsigned_abs().pow(2).max(1)).min(s);
    let cost = match x.system {
        SeedSystem::SplitAndFold => quadratic(c1 + c2 - (n - 1), n - 1),
        SeedSystem::SplitAndSlip => quadratic(2 * (c1 - c2).abs() - n, n),
        SeedSystem::SplitAndRandom => {
            if (2 * c1 < n) != (2 * c2 < n) {
                mix(x.key ^ y.key) % (s / 5 + 1)
            } else {
                s
            }
        }
    };
    cost as u32
}
