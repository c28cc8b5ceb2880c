//! Go ranks (Art. 25): kyu, amateur dan and professional dan, with a numeric strength scale.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A rank as registered. Kyu 30 (lowest) to 1, amateur dan 1 to 9, professional dan 1 to 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rank {
    /// Kyu grade, 1 (highest) to 30.
    Kyu(u8),
    /// Amateur dan, 1 to 9 (8 honorary; the rules know no amateur 9 dan, but EGD data does).
    Dan(u8),
    /// Professional dan, 1 to 9.
    Pro(u8),
}

impl Rank {
    /// Strength on one integer scale: 1 kyu = 0, 2 kyu = -1, ..., 30 kyu = -29; 1 dan = 1 ... 9 dan = 9;
    /// professional p dan = 6 + p (1p ranks with 7d, 3p above 8d), the EGF convention for pairing.
    pub fn value(self) -> i32 {
        match self {
            Rank::Kyu(k) => 1 - i32::from(k),
            Rank::Dan(d) => i32::from(d),
            Rank::Pro(p) => 6 + i32::from(p),
        }
    }

    /// The amateur rank at a strength value (inverse of [`Rank::value`] for amateur ranks;
    /// values above 9 map to 9 dan, below 30 kyu to 30 kyu).
    pub fn from_value(v: i32) -> Rank {
        if v >= 1 { Rank::Dan(v.min(9) as u8) } else { Rank::Kyu((1 - v).min(30) as u8) }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rank::Kyu(k) => write!(f, "{k}k"),
            Rank::Dan(d) => write!(f, "{d}d"),
            Rank::Pro(p) => write!(f, "{p}p"),
        }
    }
}

/// Why a rank string was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RankParseError {
    /// Not of the form `<number><k|d|p>`.
    #[error("rank {0:?} is not of the form 5k, 3d or 1p")]
    Malformed(String),
    /// The number is outside the grade's range.
    #[error("rank {0:?} is out of range (kyu 1-30, dan 1-9)")]
    OutOfRange(String),
}

impl FromStr for Rank {
    type Err = RankParseError;

    fn from_str(s: &str) -> Result<Rank, RankParseError> {
        let t = s.trim().to_ascii_lowercase();
        let (num, kind) = t.split_at(t.len().saturating_sub(1));
        let n: u8 = num.parse().map_err(|_| RankParseError::Malformed(s.to_string()))?;
        let rank = match kind {
            "k" => Rank::Kyu(n),
            "d" => Rank::Dan(n),
            "p" => Rank::Pro(n),
            _ => return Err(RankParseError::Malformed(s.to_string())),
        };
        let ok = match rank {
            Rank::Kyu(k) => (1..=30).contains(&k),
            Rank::Dan(d) | Rank::Pro(d) => (1..=9).contains(&d),
        };
        if ok { Ok(rank) } else { Err(RankParseError::OutOfRange(s.to_string())) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_order_from_thirty_kyu_to_professional() {
        let ranks: Vec<Rank> =
            ["30k", "10k", "1k", "1d", "7d", "1p", "9p"].iter().map(|s| s.parse().unwrap()).collect();
        let values: Vec<i32> = ranks.iter().map(|r| r.value()).collect();
        assert_eq!(values, vec![-29, -9, 0, 1, 7, 7, 15]);
        for r in ranks {
            assert_eq!(r.to_string().parse::<Rank>().unwrap(), r);
        }
    }

    #[test]
    fn malformed_ranks_are_refused() {
        assert!(matches!("5x".parse::<Rank>(), Err(RankParseError::Malformed(_))));
        assert!(matches!("0d".parse::<Rank>(), Err(RankParseError::OutOfRange(_))));
        assert!(matches!("31k".parse::<Rank>(), Err(RankParseError::OutOfRange(_))));
    }
}
