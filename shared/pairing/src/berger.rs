//! Berger tables for round robins, with balanced colors.
//!
//! For `n` entrants (a dummy is added when `n` is odd; meeting it is a rest), position `n − 1` is
//! fixed and the others rotate: in round `r` (0-based) positions `i ≠ j` below `m = n − 1` meet when
//! `i + j ≡ r (mod m)`, and the position `k` with `2k ≡ r` meets the fixed one. Colors: for a
//! rotating pair, `i` takes Black when `(j − i) mod m` is odd (the reverse pair has the other parity
//! because `m` is odd); the fixed position takes Black in even rounds. Over one cycle every entrant
//! has Black and White within one of each other; the second cycle of a double round robin reverses
//! every color, so a double round robin is exactly balanced.

/// Rounds in one cycle for `n` entrants.
pub fn rounds_per_cycle(n: usize) -> usize {
    if n < 2 {
        0
    } else if n.is_multiple_of(2) {
        n - 1
    } else {
        n
    }
}

/// The pairs `(black, white)` of positions `0..n` in round `round` (0-based over all cycles).
/// Entrants missing from every pair of a round (odd `n`) rest.
pub fn berger_round(n: usize, round: usize) -> Vec<(usize, usize)> {
    let per = rounds_per_cycle(n);
    if per == 0 {
        return Vec::new();
    }
    let size = if n.is_multiple_of(2) { n } else { n + 1 };
    let m = size - 1;
    let cycle = round / per;
    let r = round % per;
    let mut pairs = Vec::with_capacity(size / 2);
    for i in 0..m {
        for j in i + 1..m {
            if (i + j) % m == r {
                let d = (j + m - i) % m;
                pairs.push(if d % 2 == 1 { (i, j) } else { (j, i) });
            }
        }
        if (2 * i) % m == r {
            pairs.push(if r.is_multiple_of(2) { (m, i) } else { (i, m) });
        }
    }
    if cycle % 2 == 1 {
        for p in &mut pairs {
            *p = (p.1, p.0);
        }
    }
    pairs.retain(|&(a, b)| a < n && b < n);
    pairs.sort_by_key(|&(a, b)| a.min(b));
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyone_meets_everyone_once_with_balanced_colors() {
        for n in 2..=15 {
            let per = rounds_per_cycle(n);
            let mut met = vec![vec![0; n]; n];
            let mut blacks = vec![0i32; n];
            for r in 0..per {
                let pairs = berger_round(n, r);
                let mut seen = vec![false; n];
                for &(b, w) in &pairs {
                    assert!(!seen[b] && !seen[w], "n={n} r={r}: someone plays twice");
                    seen[b] = true;
                    seen[w] = true;
                    met[b][w] += 1;
                    met[w][b] += 1;
                    blacks[b] += 1;
                    blacks[w] -= 1;
                }
                assert_eq!(pairs.len(), n / 2);
            }
            for (a, row) in met.iter().enumerate() {
                for (b, &k) in row.iter().enumerate() {
                    assert_eq!(k, i32::from(a != b), "n={n}: {a} and {b}");
                }
                assert!(blacks[a].abs() <= 1, "n={n}: color balance {} for {a}", blacks[a]);
            }
        }
    }

    #[test]
    fn the_second_cycle_reverses_colors() {
        let n = 6;
        for r in 0..5 {
            let first = berger_round(n, r);
            let second = berger_round(n, r + 5);
            let flipped: Vec<(usize, usize)> = first.iter().map(|&(b, w)| (w, b)).collect();
            assert_eq!(second, flipped);
        }
    }
}
