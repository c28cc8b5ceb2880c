//! An exact rational number for tie-break values (virtual scores and the Art. 27 formula divide).

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

/// `num / den` in lowest terms with `den > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ratio {
    num: i64,
    den: i64,
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };

    /// `num / den`; a zero denominator is treated as 1 (callers never divide by zero on purpose).
    pub fn new(num: i64, den: i64) -> Ratio {
        let (num, den) = if den == 0 {
            (num, 1)
        } else if den < 0 {
            (-num, -den)
        } else {
            (num, den)
        };
        let g = gcd(num, den);
        Ratio { num: num / g, den: den / g }
    }

    /// An integer.
    pub fn int(n: i64) -> Ratio {
        Ratio { num: n, den: 1 }
    }

    /// Numerator (lowest terms).
    pub fn numer(self) -> i64 {
        self.num
    }

    /// Denominator (lowest terms, positive).
    pub fn denom(self) -> i64 {
        self.den
    }

    /// The smaller of two.
    pub fn min(self, other: Ratio) -> Ratio {
        if self <= other { self } else { other }
    }

    /// Approximate value (display only; comparisons are exact).
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        (i128::from(self.num) * i128::from(other.den)).cmp(&(i128::from(other.num) * i128::from(self.den)))
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Ratio {
    type Output = Ratio;
    fn add(self, o: Ratio) -> Ratio {
        let g = gcd(self.den, o.den);
        Ratio::new(self.num * (o.den / g) + o.num * (self.den / g), self.den / g * o.den)
    }
}

impl Sub for Ratio {
    type Output = Ratio;
    fn sub(self, o: Ratio) -> Ratio {
        self + (-o)
    }
}

impl Neg for Ratio {
    type Output = Ratio;
    fn neg(self) -> Ratio {
        Ratio { num: -self.num, den: self.den }
    }
}

impl Mul for Ratio {
    type Output = Ratio;
    fn mul(self, o: Ratio) -> Ratio {
        let g1 = gcd(self.num, o.den);
        let g2 = gcd(o.num, self.den);
        Ratio::new((self.num / g1) * (o.num / g2), (self.den / g2) * (o.den / g1))
    }
}

impl std::iter::Sum for Ratio {
    fn sum<I: Iterator<Item = Ratio>>(iter: I) -> Ratio {
        iter.fold(Ratio::ZERO, |a, b| a + b)
    }
}

impl Ratio {
    /// The exact form the wire promises: `"7"`, `"29/2"`, `"13/3"` (lowest terms, sign on the
    /// numerator).
    pub fn exact(&self) -> String {
        if self.den == 1 { self.num.to_string() } else { format!("{}/{}", self.num, self.den) }
    }
}

impl fmt::Display for Ratio {
    /// Integers print as integers; other values with up to three decimals (for CSV and people;
    /// [`Ratio::exact`] for the wire).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            let s = format!("{:.3}", self.to_f64());
            write!(f, "{}", s.trim_end_matches('0').trim_end_matches('.'))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_exact() {
        let third = Ratio::new(1, 3);
        assert_eq!(third + third + third, Ratio::int(1));
        assert_eq!(Ratio::new(2, 4), Ratio::new(1, 2));
        assert_eq!(Ratio::new(1, -2), Ratio::new(-1, 2));
        assert_eq!(Ratio::new(3, 2) * Ratio::new(4, 3), Ratio::int(2));
        assert!(Ratio::new(2, 3) > Ratio::new(3, 5));
        assert_eq!(Ratio::new(7, 2).to_string(), "3.5");
        assert_eq!(Ratio::new(1, 3).to_string(), "0.333");
    }
}
