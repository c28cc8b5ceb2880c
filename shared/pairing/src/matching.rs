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
