//! Maximum-weight matching (Edmonds' blossom algorithm) and a brute-force oracle.
//!
//! The solver is `integer-blossom`'s exact O(n³) primal–dual algorithm on a dense, symmetric, row-major
//! `n × n` matrix of `i128` weights. A weight of zero or less means "no edge": those two players may not
//! meet (a rematch, a forbidden pair). A vertex may be left unmatched when that is optimal.

/// Weight type of every matching in this crate: wide enough to stack the lexicographic tiers of
/// [`crate::weights`] without overflow.
pub type Weight = i128;

/// A dense symmetric weight matrix for `n` vertices (row-major; only `i < j` is read by the solver).
#[derive(Clone, Debug)]
pub struct WeightMatrix {
    n: usize,
    cells: Vec<Weight>,
}

impl WeightMatrix {
    /// An `n × n` matrix with no edges.
    pub fn new(n: usize) -> WeightMatrix {
        WeightMatrix { n, cells: vec![0; n * n] }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Sets the weight of edge `{i, j}` (both triangles). Non-positive means no edge.
    pub fn set(&mut self, i: usize, j: usize, w: Weight) {
        self.cells[i * self.n + j] = w;
        self.cells[j * self.n + i] = w;
    }

    /// The weight of edge `{i, j}`.
    pub fn get(&self, i: usize, j: usize) -> Weight {
        self.cells[i * self.n + j]
    }

    /// Sum of the weights of a matching given as `mate` (each edge counted once).
    pub fn total(&self, mate: &[Option<usize>]) -> Weight {
        mate.iter().enumerate().filter_map(|(i, m)| m.filter(|&j| i < j).map(|j| self.get(i, j))).sum()
    }
}

/// An exact maximum-weight matching: `mate[i] = Some(j)` when `i` is matched to `j`.
pub fn max_weight_matching(w: &WeightMatrix) -> Vec<Option<usize>> {
    if w.n == 0 {
        return Vec::new();
    }
    integer_blossom::max_weight_matching(&w.cells, w.n)
}

/// Number of criteria tiers of a [`lexicographic_matching`] edge.
pub const TIERS: usize = 6;

/// A maximum *lexicographic* matching of `n` vertices: `cost(i, j)` (asked for `i < j`, twice per
/// pair) is `None` when `i` and `j` may not meet, else the pair's criteria costs in priority order
/// (see [`crate::weights`]). The matching first pairs as many vertices as possible, then minimises the
/// sum of the first tier, then of the second, and so on.
///
/// The tiers are stacked into one weight per edge with multipliers fitted to this instance: a tier's
/// multiplier exceeds the largest sum the tiers below it can reach over `⌊n/2⌋` pairs, counting only
/// the largest value each tier takes here. The order of matchings is the same as under the fixed
/// multipliers of [`crate::weights`], so the optimum is too; but a typical window needs under 60
/// bits instead of 111, and then the blossom runs on `i64` rather than `i128` (half the memory per
/// edge and cheaper arithmetic in its O(n³) loop). Instances that do not fit fall back to `i128`.
pub fn lexicographic_matching(n: usize, cost: impl Fn(usize, usize) -> Option<[u32; TIERS]>) -> Vec<Option<usize>> {
    if n == 0 {
        return Vec::new();
    }
    let mut top = [0u32; TIERS];
    for i in 0..n {
        for c in (i + 1..n).filter_map(|j| cost(i, j)) {
            for (t, v) in top.iter_mut().zip(c) {
                *t = (*t).max(v);
            }
        }
    }
    // Multipliers from the lowest tier up; `base` is the next one: it outweighs every cost together.
    let pairs = (n / 2).max(1) as i128;
    let mut mult = [0i128; TIERS];
    let mut next: Option<i128> = Some(1);
    for t in (0..TIERS).rev() {
        mult[t] = next.unwrap_or(0);
        next = next.and_then(|m| m.checked_mul(i128::from(top[t]).checked_mul(pairs)?.checked_add(1)?));
    }
    let scalar = |c: &[u32; TIERS]| -> i128 { c.iter().zip(&mult).map(|(&v, &m)| i128::from(v) * m).sum() };
    // The solver's duals and slacks reach a few times the largest weight: keep 2⁵⁷ under i64's 2⁶³.
    match next {
        Some(base) if base <= 1 << 57 => {
            let mut w = vec![0i64; n * n];
            for i in 0..n {
                for j in i + 1..n {
                    if let Some(c) = cost(i, j) {
                        w[i * n + j] = (base - scalar(&c)) as i64;
                    }
                }
            }
            integer_blossom::max_weight_matching(&w, n)
        }
        _ => {
            // Too wide for i64: the fixed tiers of `crate::weights` on i128.
            let mut w = WeightMatrix::new(n);
            for i in 0..n {
                for j in i + 1..n {
                    if let Some(c) = cost(i, j) {
                        w.set(i, j, crate::weights::BASE - crate::weights::tiers_scalar(&c));
                    }
                }
            }
            max_weight_matching(&w)
        }
    }
}

/// The weight of a maximum-weight matching by exhaustive search: the oracle the blossom solver is
/// property-tested against. Exponential; meant for `n ≤ 12`.
pub fn brute_force_max_weight(w: &WeightMatrix) -> Weight {
    fn best(w: &WeightMatrix, used: &mut Vec<bool>) -> Weight {
        let Some(i) = used.iter().position(|u| !u) else {
            return 0;
        };
        used[i] = true;
        // Either i stays unmatched ...
        let mut top = best(w, used);
        // ... or it is matched to some later free j through a real edge.
        for j in i + 1..w.n {
            if !used[j] && w.get(i, j) > 0 {
                used[j] = true;
                top = top.max(w.get(i, j) + best(w, used));
                used[j] = false;
            }
        }
        used[i] = false;
        top
    }
    best(w, &mut vec![false; w.n])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangle_takes_the_heaviest_edge() {
        let mut w = WeightMatrix::new(3);
        w.set(0, 1, 5);
        w.set(0, 2, 3);
        w.set(1, 2, 4);
        let mate = max_weight_matching(&w);
        assert_eq!(mate[0], Some(1));
        assert_eq!(mate[2], None);
        assert_eq!(w.total(&mate), brute_force_max_weight(&w));
    }

    #[test]
    fn missing_edges_leave_vertices_unmatched() {
        let mut w = WeightMatrix::new(4);
        w.set(0, 1, 7);
        let mate = max_weight_matching(&w);
        assert_eq!(mate, vec![Some(1), Some(0), None, None]);
    }
}
