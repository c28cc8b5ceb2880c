//! Rating ↔ rank: each association says which grade a rating stands for, per rating system.

use serde::{Deserialize, Serialize};

use crate::Ladder;

/// A nominal rating for every grade of a ladder that ratings can reach (honorary grades excluded).
///
/// A rating belongs to the grade whose nominal rating is nearest; a rating exactly halfway goes up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankMapping {
    /// The rating system (`glicko2`, `egf`, `elo`).
    pub system: String,
    /// `(grade code, nominal rating)`, lowest grade first, ratings strictly increasing.
    pub nominal: Vec<(String, f64)>,
}

impl RankMapping {
    /// A linear mapping: `anchor` has `rating`, each grade up or down adds or removes `per_grade`.
    /// Honorary grades are skipped; `top` (if given) is the highest grade ratings can reach.
    #[must_use]
    pub fn linear(
        system: &str,
        ladder: &Ladder,
        anchor: usize,
        rating: f64,
        per_grade: f64,
        top: Option<usize>,
    ) -> RankMapping {
        let nominal = ladder
            .grades
            .iter()
            .enumerate()
            .filter(|(i, g)| !g.honorary && top.is_none_or(|t| *i <= t))
            .map(|(i, g)| {
                let steps = i as f64 - anchor as f64;
                (g.code.clone(), rating + steps * per_grade)
            })
            .collect();
        RankMapping { system: system.to_owned(), nominal }
    }

    /// The EGF's own table: 20 kyu = 100, 1 kyu = 2000, 1 dan = 2100, 7 dan = 2700 (100 a grade).
    #[must_use]
    pub fn egf() -> RankMapping {
        let ladder = Ladder::amateur();
        let one_dan = ladder.position("1d").unwrap_or(25);
        let seven_dan = ladder.position("7d");
        RankMapping::linear("egf", &ladder, one_dan, 2100.0, 100.0, seven_dan)
    }

    /// The grade code a rating stands for.
    #[must_use]
    pub fn grade_for(&self, rating: f64) -> Option<&str> {
        let mut best = self.nominal.first()?;
        for pair in self.nominal.windows(2) {
            let midpoint = (pair[0].1 + pair[1].1) / 2.0;
            if rating >= midpoint {
                best = &pair[1];
            }
        }
        Some(best.0.as_str())
    }

    /// The nominal rating of a grade (e.g. to seed a new player from a declared rank).
    #[must_use]
    pub fn rating_for(&self, code: &str) -> Option<f64> {
        self.nominal.iter().find(|(c, _)| c == code).map(|(_, r)| *r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn egf_table() {
        let m = RankMapping::egf();
        assert_eq!(m.rating_for("20k"), Some(100.0));
        assert_eq!(m.rating_for("1k"), Some(2000.0));
        assert_eq!(m.rating_for("7d"), Some(2700.0));
        assert_eq!(m.rating_for("8d"), None, "honorary grades are not reachable by rating");
        let table = [(2100.0, "1d"), (2149.9, "1d"), (2150.0, "2d"), (2049.0, "1k"), (9999.0, "7d"), (-5000.0, "25k")];
        for (rating, grade) in table {
            assert_eq!(m.grade_for(rating), Some(grade), "{rating}");
        }
    }
}
