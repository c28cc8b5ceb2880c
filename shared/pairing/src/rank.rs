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

/// A number written in digits (`12`) or Chinese numerals up to 39 (`十二`, `二十`, `三十`; `初` is 1).
fn number(text: &str) -> Option<u8> {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().ok();
    }
    const DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let digit = |c: char| DIGITS.iter().position(|&d| d == c).and_then(|i| u8::try_from(i + 1).ok());
    let chars: Vec<char> = text.chars().collect();
    match chars.as_slice() {
        ['初'] => Some(1),
        ['十'] => Some(10),
        [c] => digit(*c),
        ['十', u] => Some(10 + digit(*u)?),
        [t, '十'] => Some(10 * digit(*t)?),
        [t, '十', u] => Some(10 * digit(*t)? + digit(*u)?),
        _ => None,
    }
}

impl FromStr for Rank {
    type Err = RankParseError;

    /// Reads a rank as players and organisers write it: `5k`, `3d`, `1p` (any case, `5 kyu`, `3 dan`),
    /// and in Chinese `12级`, `3段`, `业余3段`, `业余三段`, `初段` (amateur 1 dan), `职业九段`, `九段`
    /// (a rank written in Chinese numerals without 业余 is a professional's, as the rating crate reads
    /// it; `初段` alone is the amateur 1 dan of club lists). Traditional 級/職業/業餘 too.
    fn from_str(s: &str) -> Result<Rank, RankParseError> {
        let malformed = || RankParseError::Malformed(s.to_string());
        let t: String = s.trim().chars().filter(|c| !c.is_whitespace()).collect::<String>().to_lowercase();
        let latin = [("kyu", 'k'), ("dan", 'd'), ("pro", 'p'), ("k", 'k'), ("d", 'd'), ("p", 'p')];
        let rank = if let Some((n, kind)) =
            latin.iter().find_map(|(suffix, kind)| Some((t.strip_suffix(suffix)?, *kind)))
        {
            let n: u8 = n.parse().map_err(|_| malformed())?;
            match kind {
                'k' => Rank::Kyu(n),
                'd' => Rank::Dan(n),
                _ => Rank::Pro(n),
            }
        } else if let Some(n) = t.strip_suffix('级').or_else(|| t.strip_suffix('級')) {
            let n = n
                .strip_prefix("业余")
                .or_else(|| n.strip_prefix("業餘"))
                .or_else(|| n.strip_prefix("業余"))
                .unwrap_or(n);
            Rank::Kyu(number(n).ok_or_else(malformed)?)
        } else if let Some(body) = t.strip_suffix('段') {
            if let Some(n) = body.strip_prefix("职业").or_else(|| body.strip_prefix("職業")) {
                Rank::Pro(number(n).ok_or_else(malformed)?)
            } else if let Some(n) =
                body.strip_prefix("业余").or_else(|| body.strip_prefix("業餘")).or_else(|| body.strip_prefix("業余"))
            {
                Rank::Dan(number(n).ok_or_else(malformed)?)
            } else if body == "初" || body.bytes().all(|b| b.is_ascii_digit()) {
                Rank::Dan(number(body).ok_or_else(malformed)?)
            } else {
                Rank::Pro(number(body).ok_or_else(malformed)?)
            }
        } else {
            return Err(malformed());
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
    fn ranks_are_read_as_chinese_organisers_write_them() {
        let cases = [
            ("3段", Rank::Dan(3)),
            ("12级", Rank::Kyu(12)),
            ("十二级", Rank::Kyu(12)),
            ("业余3段", Rank::Dan(3)),
            ("业余三段", Rank::Dan(3)),
            ("業餘五段", Rank::Dan(5)),
            ("初段", Rank::Dan(1)),
            ("职业初段", Rank::Pro(1)),
            ("职业九段", Rank::Pro(9)),
            ("九段", Rank::Pro(9)),
            ("25級", Rank::Kyu(25)),
            ("二十五级", Rank::Kyu(25)),
            (" 3D ", Rank::Dan(3)),
            ("5 kyu", Rank::Kyu(5)),
            ("2 dan", Rank::Dan(2)),
        ];
        for (text, rank) in cases {
            assert_eq!(text.parse::<Rank>(), Ok(rank), "{text}");
        }
        for bad in ["段", "级", "3级段", "业余", "十段", "三十一级", "0段", "段3", "ü", "3é", "🀄d"] {
            assert!(bad.parse::<Rank>().is_err(), "{bad}");
        }
    }

    proptest::proptest! {
        /// Whatever a CSV cell holds, reading it as a rank answers (never panics), and a rank read
        /// back from its own text is itself.
        #[test]
        fn any_text_is_read_or_refused(text in "\\PC{0,12}") {
            if let Ok(rank) = text.parse::<Rank>() {
                proptest::prop_assert_eq!(rank.to_string().parse::<Rank>(), Ok(rank));
            }
        }
    }

    #[test]
    fn malformed_ranks_are_refused() {
        assert!(matches!("5x".parse::<Rank>(), Err(RankParseError::Malformed(_))));
        assert!(matches!("0d".parse::<Rank>(), Err(RankParseError::OutOfRange(_))));
        assert!(matches!("31k".parse::<Rank>(), Err(RankParseError::OutOfRange(_))));
    }
}
