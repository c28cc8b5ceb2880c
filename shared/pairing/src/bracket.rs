//! Knockout brackets: standard seeding with byes for the top seeds, and advancing winners.

/// Bracket positions of seeds `1..=size` (size a power of two): seed 1 and seed 2 can meet only in
/// the final, seeds 1–4 only in the semi-finals, and so on. `order[k]` is the seed at position `k`.
pub fn seed_positions(size: usize) -> Vec<usize> {
    let mut order = vec![1usize];
    while order.len() < size {
        let n = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, n + 1 - s]).collect();
    }
    order
}

/// The smallest power of two ≥ `n` (at least 2).
pub fn bracket_size(n: usize) -> usize {
    n.max(2).next_power_of_two()
}

/// First-round slots for `n` seeded entrants (index 0 = seed 1): pairs of entrant indices, with
/// `None` for a bye position. Top seeds get the byes.
pub fn first_round(n: usize) -> Vec<(Option<usize>, Option<usize>)> {
    let size = bracket_size(n);
    let pos = seed_positions(size);
    pos.chunks(2)
        .map(|c| {
            let f = |s: usize| (s <= n).then(|| s - 1);
            (f(c[0]), f(c[1]))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_spread_so_the_best_meet_last() {
        assert_eq!(seed_positions(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        assert_eq!(bracket_size(5), 8);
        // 5 entrants: seeds 1, 2, 3 get byes.
        let r = first_round(5);
        assert_eq!(r, vec![(Some(0), None), (Some(3), Some(4)), (Some(1), None), (Some(2), None)]);
    }
}
