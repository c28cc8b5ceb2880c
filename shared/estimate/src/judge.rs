//! From the static picture and the playouts to a status per chain and an owner per point.

use weiqi_rules::random::SplitMix64;
use weiqi_rules::{Color, Ruleset, Scoring};

use crate::benson::{Unconditional, unconditional};
use crate::chains::{Chains, NO_ID};
use crate::grid::{BLACK, Cell, EMPTY, Grid, WHITE, color_of, other};
use crate::playout::PlayoutBoard;
use crate::read::{Outcome, Reader};
use crate::semeai::{RaceEnd, races};
use crate::shape::killing_shape;
use crate::{EstimateConfig, Status};

/// A group whose score (the mean ownership of its stones, from its own side) is below this is dead.
/// Above zero: a group that random play captures in nearly half of the playouts is, at the end of a
/// real game, dead far more often than alive (measured on the corpus: see the crate docs).
pub(crate) const DEAD_BELOW: f32 = 0.2;

/// Chains with at most this many liberties are read out tactically.
pub(crate) const READ_LIBS: usize = 2;

/// How deep and how long one tactical question is read, and how many nodes all of them may take.
pub(crate) const READ_DEPTH: u32 = 8;
pub(crate) const READ_NODES: u32 = 300;
pub(crate) const READ_BUDGET: u32 = 3_000;

/// Group scores from this up to [`DEAD_BELOW`] are about even: whether the playouts capture the
/// group depends on who moves first.
pub(crate) const EVEN_FROM: f32 = -0.2;

/// A chain that loses a capturing race by the count (see [`crate::semeai`]) is dead if its group
/// scores below this; below [`RACE_KILL_CLEAR`] if it loses whoever moves first.
pub(crate) const RACE_KILL: f32 = 0.4;
pub(crate) const RACE_KILL_CLEAR: f32 = 0.5;

/// A chain that wins a race or makes seki whoever moves first lives if its group scores from this
/// (from [`EVEN_FROM`] if who moves first decides).
pub(crate) const RACE_KEEP_CLEAR: f32 = -0.5;

/// Two adjacent chains of opposite colors that the playouts both killed: when reading says one
/// cannot be kept even with its owner first, the other's group lives if it scores from this (just
/// under [`DEAD_BELOW`]: the playouts nearly kept it). Of 0, 0.1, 0.12, 0.15 and 0.18, 0.12 did best
/// on the corpus positions outside the committed fixture.
pub(crate) const RACE_WINNER_FROM: f32 = 0.12;

/// Playouts run whatever the move budget.
pub(crate) const MIN_PLAYOUTS: u32 = 64;

/// Per-cell results of the playouts.
pub(crate) struct Playouts {
    /// Mean owner, +1 Black, −1 White.
    pub ownership: Vec<f32>,
    /// How often the cell ended neutral (empty, touching both colors).
    pub neutral: Vec<f32>,
    /// Playouts run.
    pub playouts: u32,
}

/// Runs `config.playouts` playouts from `grid`, alternately with `to_move` and its opponent first,
/// stopping early (after at least [`MIN_PLAYOUTS`]) once `config.moves` moves have been played.
pub(crate) fn run_playouts(grid: &Grid, to_move: u8, seed: u64, config: &EstimateConfig) -> Playouts {
    let base = PlayoutBoard::new(grid);
    let mut board = base.clone();
    let mut rng = SplitMix64(seed);
    let mut sum = vec![0i32; grid.len];
    let mut neutral = vec![0u32; grid.len];
    let limit = 3 * grid.points.len() + 50;
    let mut moves = 0u64;
    let mut n = 0u32;
    while n < config.playouts.max(1) && (n < MIN_PLAYOUTS || moves < config.moves) {
        board.copy_from(&base);
        let first = if n.is_multiple_of(2) { to_move } else { other(to_move) };
        let policy = crate::playout::Policy { patterns: config.patterns };
        moves += board.run(first, limit, &mut rng, &policy) as u64;
        n += 1;
        for &c in &grid.points {
            match board.owner(c) {
                BLACK => sum[c] += 1,
                WHITE => sum[c] -= 1,
                _ => {
                    if board.color(c) == EMPTY {
                        neutral[c] += 1;
                    }
                }
            }
        }
    }
    let scale = 1.0 / n as f32;
    Playouts {
        ownership: sum.iter().map(|&s| s as f32 * scale).collect(),
        neutral: neutral.iter().map(|&s| s as f32 * scale).collect(),
        playouts: n,
    }
}

/// Disjoint sets over chain indices.
struct UnionFind(Vec<u32>);

impl UnionFind {
    fn new(n: usize) -> UnionFind {
        UnionFind((0..n as u32).collect())
    }
    fn find(&mut self, mut a: u32) -> u32 {
        while self.0[a as usize] != a {
            let up = self.0[self.0[a as usize] as usize];
            self.0[a as usize] = up;
            a = up;
        }
        a
    }
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra.max(rb) as usize] = ra.min(rb);
        }
    }
}

/// Groups: chains of one color that share an empty region touching only their color, or two
/// liberties. Returns the group index of every chain.
fn groups(grid: &Grid, chains: &Chains) -> Vec<u32> {
    let mut uf = UnionFind::new(chains.chains.len());
    for region in &chains.regions {
        if region.touches != 1 && region.touches != 2 {
            continue;
        }
        let mut first = NO_ID;
        for &c in &region.cells {
            for n in grid.neighbours(c) {
                let ch = chains.chain_of[n];
                if ch == NO_ID {
                    continue;
                }
                if first == NO_ID {
                    first = ch;
                } else {
                    uf.union(first, ch);
                }
            }
        }
    }
    // Two shared liberties: a miai connection. Each liberty lists the chains around it.
    let mut shared: Vec<(u32, u32)> = Vec::new();
    for &c in &grid.points {
        if grid.color[c] != EMPTY {
            continue;
        }
        let mut around = [NO_ID; 4];
        let mut n_around = 0;
        for n in grid.neighbours(c) {
            let ch = chains.chain_of[n];
            if ch != NO_ID && !around[..n_around].contains(&ch) {
                around[n_around] = ch;
                n_around += 1;
            }
        }
        for i in 0..n_around {
            for j in i + 1..n_around {
                let (a, b) = (around[i], around[j]);
                if chains.chains[a as usize].color == chains.chains[b as usize].color {
                    shared.push((a.min(b), a.max(b)));
                }
            }
        }
    }
    shared.sort_unstable();
    for w in shared.windows(2) {
        if w[0] == w[1] {
            uf.union(w[0].0, w[0].1);
        }
    }
    (0..chains.chains.len() as u32).map(|i| uf.find(i)).collect()
}

/// Whether `me` could fill the empty cell `c` of `color` and keep at least two liberties, or capture.
fn fill_is_safe(grid: &Grid, color: &[u8], chains: &Chains, c: Cell, me: u8) -> bool {
    let mut libs: Vec<Cell> = Vec::with_capacity(8);
    for n in grid.neighbours(c) {
        match color[n] {
            EMPTY => libs.push(n),
            k if k == me => {
                libs.extend(chains.chains[chains.chain_of[n] as usize].liberties.iter().copied().filter(|&l| l != c))
            }
            k if k == other(me) && chains.chains[chains.chain_of[n] as usize].liberties.len() == 1 => return true,
            _ => {}
        }
    }
    libs.sort_unstable();
    libs.dedup();
    libs.len() >= 2
}

/// The most liberties of a chain that [`nakade_kills`] reads.
const MAX_NAKADE_LIBS: usize = 4;

fn empties_sorted(e: &[Cell]) -> Vec<Cell> {
    let mut v = e.to_vec();
    v.sort_unstable();
    v
}

/// The largest eye region [`nakade_kills`] reads.
const MAX_EYE_REGION: usize = 7;

/// Chains that look like a seki but die to a nakade: a chain `D` whose only liberties are the two
/// empty points of one small region `R` that only `D` encloses, with enemy stones inside, where `D`
/// cannot fill either point without self-atari and the enemy can fill one of them so that its stones
/// in `R` make one chain in atari whose shape, once `D` captures it, is a killing eye shape (the bent
/// four in the corner among them). Returns each such `D` with the enemy chains inside its region.
fn nakade_kills(grid: &Grid, chains: &Chains) -> Vec<(usize, Vec<usize>)> {
    let color = &grid.color;
    let mut out = Vec::new();
    for (d, chain) in chains.chains.iter().enumerate() {
        if !(2..=MAX_NAKADE_LIBS).contains(&chain.liberties.len()) {
            continue;
        }
        let me = chain.color;
        // The region of non-`me` points around the two liberties.
        let mut region: Vec<Cell> = chain.liberties.clone();
        let mut i = 0;
        let mut enclosed = true;
        while i < region.len() && region.len() <= MAX_EYE_REGION {
            let c = region[i];
            i += 1;
            for n in grid.neighbours(c) {
                match color[n] {
                    k if k == me => enclosed &= chains.chain_of[n] as usize == d,
                    crate::grid::BORDER => {}
                    _ => {
                        if !region.contains(&n) {
                            region.push(n);
                        }
                    }
                }
            }
        }
        if !enclosed || region.len() > MAX_EYE_REGION {
            continue;
        }
        let empties: Vec<Cell> = region.iter().copied().filter(|&c| color[c] == EMPTY).collect();
        if empties.len() != chain.liberties.len() || empties.len() == region.len() {
            continue;
        }
        let inside: Vec<usize> = {
            let mut v: Vec<usize> =
                region.iter().filter(|&&c| color[c] != EMPTY).map(|&c| chains.chain_of[c] as usize).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        // `D` filling an empty point must not capture: every enemy chain next to it has another
        // liberty.
        let captures_at = |e: Cell| {
            grid.neighbours(e)
                .iter()
                .any(|&n| color[n] == other(me) && chains.chains[chains.chain_of[n] as usize].liberties == [e])
        };
        if empties.iter().any(|&e| captures_at(e)) {
            continue;
        }
        // With more than two liberties, every enemy chain inside must have all of them: then
        // neither side can fill one without losing one too, and the enemy fills all but one.
        if empties.len() > 2 && inside.iter().any(|&k| chains.chains[k].liberties != empties_sorted(&empties)) {
            continue;
        }
        // Nor can `D` capture an enemy chain outside the region that is already in atari: that
        // gives it liberties, often an eye, and the nakade no longer kills.
        if chain.stones.iter().any(|&s| {
            grid.neighbours(s).iter().any(|&n| {
                color[n] == other(me)
                    && !region.contains(&n)
                    && chains.chains[chains.chain_of[n] as usize].liberties.len() == 1
            })
        }) {
            continue;
        }
        // The enemy fills one empty point and keeps the other as its last liberty.
        let kills = empties.iter().any(|&keep| {
            let shape: Vec<Cell> = region.iter().copied().filter(|&c| c != keep).collect();
            // The enemy's stones with `fill` must be one chain: flood within the shape.
            let mut reached = vec![shape[0]];
            let mut j = 0;
            while j < reached.len() {
                let c = reached[j];
                j += 1;
                for n in grid.neighbours(c) {
                    if shape.contains(&n) && !reached.contains(&n) {
                        reached.push(n);
                    }
                }
            }
            let keep_is_its_liberty = grid.neighbours(keep).iter().any(|n| shape.contains(n));
            reached.len() == shape.len()
                && keep_is_its_liberty
                && killing_shape(&shape, grid.stride, |c| color[c] == crate::grid::BORDER)
        });
        if kills {
            out.push((d, inside));
        }
    }
    out
}

/// The verdict on a position: a status per stone cell, an owner per cell.
pub(crate) struct Verdict {
    pub status: Vec<Option<Status>>,
    pub owner: Vec<Option<Color>>,
    pub ownership: Vec<f32>,
    pub playouts: u32,
    /// Per stone cell, the step that last decided its chain's status.
    pub why: Vec<Option<Why>>,
}

/// Which step of the method decided a chain's status (see the crate docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Why {
    /// Benson's unconditional life, for it or against it (step 1).
    Proof,
    /// Its group's score in the playouts (steps 2 and 3).
    Playouts,
    /// The static reading of a nakade (step 4).
    Nakade,
    /// Tactical reading of a chain short of liberties (step 5).
    Reading,
    /// It is next to a chain that reading killed although the playouts kept it: it won that race
    /// (step 5).
    RaceWinner,
    /// Counting liberties in a capturing race or seki (step 6).
    Count,
    /// Its removal would have left its points in its own area (step 6, last paragraph).
    OwnArea,
}

/// Judges the position of `grid` under `ruleset`.
pub(crate) fn judge(grid: &Grid, to_move: u8, ruleset: &Ruleset, seed: u64, config: &EstimateConfig) -> Verdict {
    let chains = Chains::of(grid, &grid.color);
    let proofs: [Unconditional; 2] =
        [unconditional(grid, &grid.color, &chains, BLACK), unconditional(grid, &grid.color, &chains, WHITE)];
    let playouts = run_playouts(grid, to_move, seed, config);
    let mut ownership = playouts.ownership.clone();
    for &c in &grid.points {
        if proofs[0].safe[c] {
            ownership[c] = 1.0;
        } else if proofs[1].safe[c] {
            ownership[c] = -1.0;
        }
    }

    // A chain's score: how much of it its own color keeps, in [-1, 1]; a group's: the mean over
    // its stones.
    let n_chains = chains.chains.len();
    let sign = |k: u8| if k == BLACK { 1.0f32 } else { -1.0 };
    let group_of = groups(grid, &chains);
    let mut group_sum = vec![0f32; n_chains];
    let mut group_stones = vec![0u32; n_chains];
    for (i, chain) in chains.chains.iter().enumerate() {
        let s: f32 = chain.stones.iter().map(|&c| ownership[c]).sum::<f32>() * sign(chain.color);
        group_sum[group_of[i] as usize] += s;
        group_stones[group_of[i] as usize] += chain.stones.len() as u32;
    }
    let mut dead = vec![false; n_chains];
    let mut why = vec![Why::Playouts; n_chains];
    for (i, chain) in chains.chains.iter().enumerate() {
        let ci = if chain.color == BLACK { 0 } else { 1 };
        let proven_alive = proofs[ci].alive[i];
        let proven_dead = proofs[1 - ci].safe[chain.stones[0]];
        let g = group_of[i] as usize;
        let score = group_sum[g] / group_stones[g] as f32;
        dead[i] = !proven_alive && (proven_dead || score < DEAD_BELOW);
        why[i] = if proven_alive || proven_dead { Why::Proof } else { Why::Playouts };
    }
    let mut nakade: Vec<usize> = Vec::new();
    for (d, inside) in nakade_kills(grid, &chains) {
        dead[d] = true;
        why[d] = Why::Nakade;
        nakade.push(d);
        for k in inside {
            dead[k] = false;
            why[k] = Why::Nakade;
            nakade.push(k);
        }
    }

    // Tactical reading of the chains short of liberties. One that cannot be kept even when its
    // owner moves first is dead; one that the playouts leave about even, that its owner to move can
    // keep (and its opponent to move could take), is alive: the owner would keep it.
    let mut reader = Reader::new(grid, &grid.color, READ_BUDGET);
    let mut changes: Vec<(usize, bool)> = Vec::new();
    for (i, chain) in chains.chains.iter().enumerate() {
        let ci = if chain.color == BLACK { 0 } else { 1 };
        if proofs[ci].alive[i] || proofs[1 - ci].safe[chain.stones[0]] || chain.liberties.len() > READ_LIBS {
            continue;
        }
        let t = chain.stones[0];
        let g = group_of[i] as usize;
        let score = group_sum[g] / group_stones[g] as f32;
        if !dead[i] {
            if reader.can_save(t, READ_DEPTH, READ_NODES) == Outcome::No {
                changes.push((i, true));
            }
        } else if chain.color == to_move
            && score >= EVEN_FROM
            && reader.can_save(t, READ_DEPTH, READ_NODES) == Outcome::Yes
            && reader.can_capture(t, READ_DEPTH, READ_NODES) == Outcome::Yes
        {
            changes.push((i, false));
        }
    }
    // A chain that the playouts killed next to an enemy chain they killed too cannot be so: one of
    // the two captures the other. When reading says the first cannot be kept even with its owner
    // first, it lost the race like the chains below.
    let mut lost: Vec<usize> = changes.iter().filter(|&&(_, d)| d).map(|&(i, _)| i).collect();
    for (i, chain) in chains.chains.iter().enumerate() {
        let ci = if chain.color == BLACK { 0 } else { 1 };
        if !dead[i] || proofs[1 - ci].safe[chain.stones[0]] || chain.liberties.len() > READ_LIBS {
            continue;
        }
        let near_even = |e: usize| {
            let g = group_of[e] as usize;
            group_sum[g] / group_stones[g] as f32 >= RACE_WINNER_FROM
        };
        let next_to_dead_enemy = chain.stones.iter().any(|&s| {
            grid.neighbours(s).iter().any(|&n| {
                let e = chains.chain_of[n];
                e != NO_ID
                    && chains.chains[e as usize].color != chain.color
                    && dead[e as usize]
                    && near_even(e as usize)
            })
        });
        if next_to_dead_enemy && reader.can_save(chain.stones[0], READ_DEPTH, READ_NODES) == Outcome::No {
            lost.push(i);
        }
    }
    // A chain the playouts kept but that reading kills lost its capturing races: an enemy group next
    // to it that the playouts left about even wins the race and lives.
    let mut winners: Vec<u32> = Vec::new();
    for &i in &lost {
        let chain = &chains.chains[i];
        for &s in &chain.stones {
            for n in grid.neighbours(s) {
                let e = chains.chain_of[n];
                if e == NO_ID || chains.chains[e as usize].color == chain.color || !dead[e as usize] {
                    continue;
                }
                let g = group_of[e as usize];
                if group_sum[g as usize] / group_stones[g as usize] as f32 >= EVEN_FROM && !winners.contains(&g) {
                    winners.push(g);
                }
            }
        }
    }
    let read_dead: Vec<usize> = changes.iter().filter(|&&(_, d)| d).map(|&(i, _)| i).collect();
    let read: Vec<usize> = changes.iter().map(|&(i, _)| i).collect();
    for (i, d) in changes {
        dead[i] = d;
        why[i] = Why::Reading;
    }
    for (i, chain) in chains.chains.iter().enumerate() {
        let ci = if chain.color == BLACK { 0 } else { 1 };
        let proven_dead = proofs[1 - ci].safe[chain.stones[0]];
        if winners.contains(&group_of[i]) && !proven_dead && !read_dead.contains(&i) {
            if dead[i] {
                why[i] = Why::RaceWinner;
            }
            dead[i] = false;
        }
    }

    // Capturing races and seki by counting liberties (see `semeai`), where the playouts are unsure:
    // the side to move decides a race whose end depends on who moves first. A chain that loses a
    // race dies if its group scores below [`RACE_KILL`] ([`RACE_KILL_CLEAR`] when it loses whoever
    // moves first); one that wins or makes seki (and loses no race) lives if its group scores from
    // [`EVEN_FROM`] ([`RACE_KEEP_CLEAR`]). The shared liberties of a seki so found are seki points.
    let mut seki_points: Vec<Cell> = Vec::new();
    {
        let weak: Vec<bool> = chains
            .chains
            .iter()
            .enumerate()
            .map(|(i, chain)| {
                let ci = if chain.color == BLACK { 0 } else { 1 };
                !proofs[ci].alive[i] && !proofs[1 - ci].safe[chain.stones[0]]
            })
            .collect();
        let score = |i: usize| {
            let g = group_of[i] as usize;
            group_sum[g] / group_stones[g] as f32
        };
        let races = races(grid, &chains, &group_of, &weak);
        let mut loses = vec![0u8; n_chains]; // bit 1: loses a race; bit 2: clearly
        let mut lives = vec![0u8; n_chains];
        for r in &races {
            let chosen = if to_move == BLACK { r.black_first } else { r.white_first };
            let clear = 1 | (u8::from(r.black_first == r.white_first) << 1);
            match chosen {
                RaceEnd::FirstWins => {
                    loses[r.white] |= clear;
                    lives[r.black] |= clear;
                }
                RaceEnd::SecondWins => {
                    loses[r.black] |= clear;
                    lives[r.white] |= clear;
                }
                RaceEnd::Seki => {
                    lives[r.black] |= clear;
                    lives[r.white] |= clear;
                }
            }
        }
        for i in 0..n_chains {
            // Reading and the nakade answer for their chains more surely than a count.
            if read.contains(&i) || nakade.contains(&i) {
                continue;
            }
            if loses[i] != 0 {
                let below = if loses[i] & 2 != 0 { RACE_KILL_CLEAR } else { RACE_KILL };
                if !dead[i] && score(i) < below {
                    dead[i] = true;
                    why[i] = Why::Count;
                }
            } else if lives[i] != 0 {
                let from = if lives[i] & 2 != 0 { RACE_KEEP_CLEAR } else { EVEN_FROM };
                if dead[i] && score(i) >= from {
                    dead[i] = false;
                    why[i] = Why::Count;
                }
            }
        }
        for r in &races {
            let chosen = if to_move == BLACK { r.black_first } else { r.white_first };
            if chosen == RaceEnd::Seki && !dead[r.black] && !dead[r.white] {
                seki_points.extend(&r.shared);
            }
        }
    }

    // The position with the dead removed, and its seki: shared liberties that neither side can fill
    // without self-atari and that the playouts left neutral.
    //
    // A dead chain must leave its points to the opponent or to nobody: one whose removal would leave
    // them in a region touching only its own color is alive after all (it sits in its own area).
    let (cleaned, after) = loop {
        let mut cleaned = grid.color.clone();
        for (i, chain) in chains.chains.iter().enumerate() {
            if dead[i] {
                for &s in &chain.stones {
                    cleaned[s] = EMPTY;
                }
            }
        }
        let after = Chains::of(grid, &cleaned);
        let own_area = |chain: &crate::chains::Chain| {
            let touches = after.regions[after.region_of[chain.stones[0]] as usize].touches;
            touches == if chain.color == BLACK { 1 } else { 2 }
        };
        let mut revived = false;
        for (i, chain) in chains.chains.iter().enumerate() {
            let ci = if chain.color == BLACK { 1 } else { 0 };
            if dead[i] && !proofs[ci].safe[chain.stones[0]] && own_area(chain) {
                dead[i] = false;
                why[i] = Why::OwnArea;
                revived = true;
            }
        }
        if !revived {
            break (cleaned, after);
        }
    };
    let mut seki_chain = vec![false; after.chains.len()];
    for &c in &grid.points {
        if cleaned[c] != EMPTY || (playouts.neutral[c] < 0.5 && !seki_points.contains(&c)) {
            continue;
        }
        let mut touches = 0;
        for n in grid.neighbours(c) {
            touches |= match cleaned[n] {
                BLACK => 1,
                WHITE => 2,
                _ => 0,
            };
        }
        let counted = seki_points.contains(&c);
        if touches != 3
            || (!counted
                && (fill_is_safe(grid, &cleaned, &after, c, BLACK) || fill_is_safe(grid, &cleaned, &after, c, WHITE)))
        {
            continue;
        }
        for n in grid.neighbours(c) {
            let ch = after.chain_of[n];
            if ch != NO_ID {
                seki_chain[ch as usize] = true;
            }
        }
    }
    // Benson-alive chains are never in seki.
    for (i, chain) in after.chains.iter().enumerate() {
        let before = chains.chain_of[chain.stones[0]] as usize;
        let ci = if chain.color == BLACK { 0 } else { 1 };
        if proofs[ci].alive[before] {
            seki_chain[i] = false;
        }
    }

    let mut status = vec![None; grid.len];
    let mut owner = vec![None; grid.len];
    let mut why_of = vec![None; grid.len];
    for (i, chain) in chains.chains.iter().enumerate() {
        for &s in &chain.stones {
            why_of[s] = Some(why[i]);
            if dead[i] {
                status[s] = Some(Status::Dead);
            } else {
                let seki = seki_chain[after.chain_of[s] as usize];
                status[s] = Some(if seki { Status::Seki } else { Status::Alive });
                owner[s] = color_of(chain.color);
            }
        }
    }
    // Empty points (and the points of dead stones) belong to the one color their region touches;
    // under territory scoring the eyes of a group in seki belong to nobody.
    for region in &after.regions {
        let mut k = match region.touches {
            1 => color_of(BLACK),
            2 => color_of(WHITE),
            _ => None,
        };
        if k.is_some() && ruleset.scoring == Scoring::Territory {
            let in_seki = region.cells.iter().any(|&c| {
                grid.neighbours(c).iter().any(|&n| after.chain_of[n] != NO_ID && seki_chain[after.chain_of[n] as usize])
            });
            if in_seki {
                k = None;
            }
        }
        for &c in &region.cells {
            owner[c] = k;
        }
    }
    Verdict { status, owner, ownership, playouts: playouts.playouts, why: why_of }
}
