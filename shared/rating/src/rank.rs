//! National ranks: kyu 25..1, amateur dan 1..8 (8 honorary), professional dan 1..9.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A national rank. Order: 25 kyu < … < 1 kyu < 1 dan < … < 8 dan < 1p < … < 9p.
///
/// Professional and amateur dan are different kinds of grade (Art. 25.3); the order between them is only
/// a convention for sorting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Rank {
    /// Amateur kyu, 25 (lowest) to 1 (highest).
    Kyu(u8),
    /// Amateur dan, 1 to 7; 8 dan is honorary (world amateur champions).
    Dan(u8),
    /// Professional dan, 1 (初段) to 9 (九段).
    Pro(u8),
}

/// Why a text is not a rank.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadRank {
    /// Not of the form `5k`, `3d`, `9p`, `5级`, `5段`, `业余5段`, `职业九段` or `初段`.
    #[error("not a rank: {0:?} (write e.g. 5k, 3d, 9p)")]
    Unrecognised(String),
    /// The number is outside the ladder (kyu 1–25, amateur dan 1–8, professional dan 1–9).
    #[error("no such rank: {0:?} (kyu 1–25, amateur dan 1–8, professional dan 1–9)")]
    OutOfRange(String),
}

const PRO_NUMERALS: [&str; 9] = ["初", "二", "三", "四", "五", "六", "七", "八", "九"];

impl Rank {
    /// A rank, if the number is in range.
    #[must_use]
    pub fn checked(self) -> Option<Rank> {
        let ok = match self {
            Rank::Kyu(n) => (1..=25).contains(&n),
            Rank::Dan(n) => (1..=8).contains(&n),
            Rank::Pro(n) => (1..=9).contains(&n),
        };
        ok.then_some(self)
    }

    /// Position in the total order (25 kyu is 0).
    #[must_use]
    pub fn ordinal(self) -> u16 {
        match self {
            Rank::Kyu(n) => 25 - u16::from(n.min(25)),
            Rank::Dan(n) => 24 + u16::from(n),
            Rank::Pro(n) => 100 + u16::from(n),
        }
    }

    /// Whether the rank is honorary only (amateur 8 dan).
    #[must_use]
    pub fn is_honorary(self) -> bool {
        self == Rank::Dan(8)
    }

    /// The Chinese name: `5级`, `业余5段` (Arabic numerals), `职业九段` (Chinese numerals, 初段 for 1).
    #[must_use]
    pub fn chinese(self) -> String {
        match self {
            Rank::Kyu(n) => format!("{n}级"),
            Rank::Dan(n) => format!("业余{n}段"),
            Rank::Pro(n) => format!("职业{}段", PRO_NUMERALS[usize::from(n.clamp(1, 9)) - 1]),
        }
    }
}

impl PartialOrd for Rank {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Rank {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.ordinal().cmp(&other.ordinal())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rank::Kyu(n) => write!(f, "{n}k"),
            Rank::Dan(n) => write!(f, "{n}d"),
            Rank::Pro(n) => write!(f, "{n}p"),
        }
    }
}

impl FromStr for Rank {
    type Err = BadRank;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let s = text.trim();
        let unrecognised = || BadRank::Unrecognised(text.to_owned());
        let number = |digits: &str| digits.parse::<u8>().map_err(|_| unrecognised());
        let rank = if let Some(n) = s.strip_suffix('k') {
            Rank::Kyu(number(n)?)
        } else if let Some(n) = s.strip_suffix('d') {
            Rank::Dan(number(n)?)
        } else if let Some(n) = s.strip_suffix('p') {
            Rank::Pro(number(n)?)
        } else if let Some(n) = s.strip_suffix('级').or_else(|| s.strip_suffix('級')) {
            Rank::Kyu(number(n)?)
        } else if let Some(body) = s.strip_suffix('段') {
            let (pro, body) = if let Some(b) = body.strip_prefix("职业").or_else(|| body.strip_prefix("職業")) {
                (true, b)
            } else if let Some(b) = body.strip_prefix("业余").or_else(|| body.strip_prefix("業余")) {
                (false, b)
            } else {
                (!body.bytes().all(|c| c.is_ascii_digit()), body)
            };
            if let Some(i) = PRO_NUMERALS.iter().position(|&c| c == body) {
                Rank::Pro(u8::try_from(i + 1).map_err(|_| unrecognised())?)
            } else if pro {
                Rank::Pro(number(body)?)
            } else {
                Rank::Dan(number(body)?)
            }
        } else {
            return Err(unrecognised());
        };
        rank.checked().ok_or_else(|| BadRank::OutOfRange(text.to_owned()))
    }
}

impl From<Rank> for String {
    fn from(r: Rank) -> String {
        r.to_string()
    }
}

impl TryFrom<String> for Rank {
    type Error = BadRank;
    fn try_from(s: String) -> Result<Rank, BadRank> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let table = [
            ("25k", Rank::Kyu(25)),
            ("1k", Rank::Kyu(1)),
            ("1d", Rank::Dan(1)),
            ("8d", Rank::Dan(8)),
            ("9p", Rank::Pro(9)),
            ("5级", Rank::Kyu(5)),
            ("5段", Rank::Dan(5)),
            ("业余6段", Rank::Dan(6)),
            ("初段", Rank::Pro(1)),
            ("职业九段", Rank::Pro(9)),
            ("九段", Rank::Pro(9)),
        ];
        for (text, rank) in table {
            assert_eq!(text.parse::<Rank>(), Ok(rank), "{text}");
        }
        assert_eq!(Rank::Pro(1).chinese(), "职业初段");
        assert_eq!(Rank::Dan(5).chinese(), "业余5段");
        for bad in ["26k", "0k", "9d", "10p", "x", "5 dan", ""] {
            assert!(bad.parse::<Rank>().is_err(), "{bad}");
        }
    }

    #[test]
    fn order_runs_from_25_kyu_up() {
        let mut ranks = vec![Rank::Dan(1), Rank::Kyu(1), Rank::Pro(1), Rank::Kyu(25), Rank::Dan(8)];
        ranks.sort();
        assert_eq!(ranks, vec![Rank::Kyu(25), Rank::Kyu(1), Rank::Dan(1), Rank::Dan(8), Rank::Pro(1)]);
        assert!(Rank::Dan(8).is_honorary() && !Rank::Dan(7).is_honorary());
    }
}

#[cfg(test)]
mod round_trip {
    use super::*;
    use proptest::prelude::*;

    fn any_rank() -> impl Strategy<Value = Rank> {
        prop_oneof![(1u8..=25).prop_map(Rank::Kyu), (1u8..=8).prop_map(Rank::Dan), (1u8..=9).prop_map(Rank::Pro)]
    }

    proptest! {
        #[test]
        fn display_and_chinese_parse_back(rank in any_rank()) {
            prop_assert_eq!(rank.to_string().parse::<Rank>(), Ok(rank));
            prop_assert_eq!(rank.chinese().parse::<Rank>(), Ok(rank));
        }
    }
}
