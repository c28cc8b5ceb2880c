//! Rulesets as data: ko rule, scoring, suicide, komi, handicap compensation, cycle ruling, what an
//! illegal move does, and the historical options. Presets follow `RULES.md` section 5.

use std::fmt;
use std::str::FromStr;

/// Which whole-board repetitions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// Only the immediate recapture of a single-stone ko is forbidden. Longer cycles (triple ko,
    /// eternal life) are allowed by the move rules and reported as a cycle; see [`CycleRuling`].
    Simple,
    /// A move may not produce a board (stones only) that occurred before in the game.
    PositionalSuperko,
    /// A move may not produce a board that occurred before with the same player to move.
    SituationalSuperko,
}

/// How the final position is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Area (数子法): living stones plus the empty points they alone surround. Empty points touching
    /// both colours (dame, and shared liberties in seki) are split half to each side (Chinese rules).
    AreaDameSplit,
    /// Area without splitting: an empty region counts for a colour only if it reaches that colour
    /// alone; every other empty point counts for nobody (Tromp-Taylor, AGA, New Zealand, Ing).
    Area,
    /// Territory (数目法): surrounded empty points plus prisoners; no points in seki (Japanese,
    /// Korean).
    Territory,
}

/// Whether a move that leaves its own chain without liberties may be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suicide {
    /// Suicide is illegal (Art. 5).
    Forbidden,
    /// Suicide of more than one stone is allowed and removes the mover's chain. A single-stone
    /// suicide would change nothing on the board: it is refused as suicide under every ruleset.
    Allowed,
}

/// Points returned to White for handicap stones, at the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandicapCompensation {
    /// Nothing (territory rules, where handicap stones earn no points).
    None,
    /// One point per handicap stone (Chinese: N/2 stones).
    N,
    /// One point per handicap stone after the first (AGA).
    NMinusOne,
}

/// What a simple-ko ruleset does when a whole-board position repeats (Art. 20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CycleRuling {
    /// The game has no result (Japanese and Korean rules).
    NoResult,
    /// The game is drawn.
    Draw,
    /// The game is replayed.
    Replay,
}

/// What happens to an illegal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMovePolicy {
    /// The server refuses it; the player must choose another move (the online default).
    Refuse,
    /// The move is void and the player forfeits the turn (Art. 18.3 and 19; for games transcribed
    /// from a board or refereed live).
    VoidAndForfeitTurn,
}

/// Komi in half points (so 7.5 points is `Komi(15)`); positive favours White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Komi(pub i32);

impl Komi {
    /// Komi from a number of points that is a multiple of one half.
    pub fn from_points(points: f64) -> Option<Komi> {
        let halves = points * 2.0;
        (halves.is_finite() && halves.fract() == 0.0 && halves.abs() <= 2000.0).then_some(Komi(halves as i32))
    }

    /// Komi in points.
    pub fn points(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", HalfPoints(self.0))
    }
}

/// A quantity of half points, displayed in points (`15` shows as `7.5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalfPoints(pub i32);

impl fmt::Display for HalfPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        if a.is_multiple_of(2) { write!(f, "{sign}{}", a / 2) } else { write!(f, "{sign}{}.5", a / 2) }
    }
}

/// A complete ruleset. Every field is data; presets are just values of this struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    /// Which repetitions are forbidden.
    pub ko: KoRule,
    /// How the final position is counted.
    pub scoring: Scoring,
    /// Whether multi-stone suicide is allowed.
    pub suicide: Suicide,
    /// Komi for even games.
    pub komi: Komi,
    /// Points returned to White per handicap stone.
    pub handicap_compensation: HandicapCompensation,
    /// What a repetition does under simple ko.
    pub cycle: CycleRuling,
    /// What an illegal move does.
    pub illegal_move: IllegalMovePolicy,
    /// Historical group tax (还棋头): each separate living group costs its owner one stone (two
    /// points) at the count.
    pub group_tax: bool,
    /// Historical seated stones (座子): two black and two white stones on diagonal corner star points
    /// before the first move, and White moves first.
    pub seated_stones: bool,
}

/// The named presets, in the order they are listed to users.
pub const PRESET_NAMES: &[&str] =
    &["chinese", "japanese", "korean", "aga", "new-zealand", "tromp-taylor", "ing", "ancient"];

impl Default for Ruleset {
    fn default() -> Ruleset {
        Ruleset::chinese()
    }
}

impl Ruleset {
    /// Chinese rules, 2002: area with dame split, positional superko, suicide forbidden, komi 7.5
    /// (3¾ stones), N points (N/2 stones) returned per handicap stone. The default.
    pub const fn chinese() -> Ruleset {
        Ruleset {
            ko: KoRule::PositionalSuperko,
            scoring: Scoring::AreaDameSplit,
            suicide: Suicide::Forbidden,
            komi: Komi(15),
            handicap_compensation: HandicapCompensation::N,
            cycle: CycleRuling::NoResult,
            illegal_move: IllegalMovePolicy::Refuse,
            group_tax: false,
            seated_stones: false,
        }
    }

    /// Japanese rules: territory, simple ko with cycles ruled no result, komi 6.5.
    pub const fn japanese() -> Ruleset {
        Ruleset {
            ko: KoRule::Simple,
            scoring: Scoring::Territory,
            suicide: Suicide::Forbidden,
            komi: Komi(13),
            handicap_compensation: HandicapCompensation::None,
            cycle: CycleRuling::NoResult,
            illegal_move: IllegalMovePolicy::Refuse,
            group_tax: false,
            seated_stones: false,
        }
    }

    /// Korean rules: as Japanese for the engine's purposes.
    pub const fn korean() -> Ruleset {
        Ruleset::japanese()
    }

    /// AGA rules: area (pass stones make the territory count agree), situational superko, komi 7.5,
    /// N−1 points returned for N handicap stones.
    pub const fn aga() -> Ruleset {
        Ruleset {
            ko: KoRule::SituationalSuperko,
            scoring: Scoring::Area,
            handicap_compensation: HandicapCompensation::NMinusOne,
            ..Ruleset::chinese()
        }
    }

    /// New Zealand rules: area, situational superko, suicide allowed, komi 7.
    pub const fn new_zealand() -> Ruleset {
        Ruleset {
            ko: KoRule::SituationalSuperko,
            scoring: Scoring::Area,
            suicide: Suicide::Allowed,
            komi: Komi(14),
            handicap_compensation: HandicapCompensation::None,
            ..Ruleset::chinese()
        }
    }

    /// Tromp-Taylor rules: area without dame split, positional superko, suicide allowed, komi 7.5.
    pub const fn tromp_taylor() -> Ruleset {
        Ruleset {
            ko: KoRule::PositionalSuperko,
            scoring: Scoring::Area,
            suicide: Suicide::Allowed,
            komi: Komi(15),
            handicap_compensation: HandicapCompensation::None,
            ..Ruleset::chinese()
        }
    }

    /// Ing rules (simplified to situational superko): area with fixed stone counts, suicide allowed,
    /// komi 8.
    pub const fn ing() -> Ruleset {
        Ruleset {
            ko: KoRule::SituationalSuperko,
            scoring: Scoring::Area,
            suicide: Suicide::Allowed,
            komi: Komi(16),
            handicap_compensation: HandicapCompensation::None,
            ..Ruleset::chinese()
        }
    }

    /// Ancient Chinese rules, for historical records: seated stones, White first, no komi, area
    /// counting with group tax, simple ko.
    pub const fn ancient() -> Ruleset {
        Ruleset {
            ko: KoRule::Simple,
            scoring: Scoring::AreaDameSplit,
            suicide: Suicide::Forbidden,
            komi: Komi(0),
            handicap_compensation: HandicapCompensation::None,
            cycle: CycleRuling::NoResult,
            illegal_move: IllegalMovePolicy::Refuse,
            group_tax: true,
            seated_stones: true,
        }
    }

    /// A preset by name (see [`PRESET_NAMES`]); also accepts the spellings SGF `RU[]` uses
    /// (`Japanese`, `Chinese`, `AGA`, `NZ`, `New Zealand`, `Tromp/Taylor`, `TT`, `GOE`, `Ing`).
    pub fn preset(name: &str) -> Option<Ruleset> {
        let key: String = name.trim().to_ascii_lowercase().chars().filter(|c| c.is_ascii_alphanumeric()).collect();
        Some(match key.as_str() {
            "chinese" | "cn" | "china" => Ruleset::chinese(),
            "japanese" | "jp" | "japan" => Ruleset::japanese(),
            "korean" | "kr" | "korea" => Ruleset::korean(),
            "aga" => Ruleset::aga(),
            "newzealand" | "nz" => Ruleset::new_zealand(),
            "trompt" | "tromptaylor" | "tt" => Ruleset::tromp_taylor(),
            "ing" | "goe" => Ruleset::ing(),
            "ancient" => Ruleset::ancient(),
            _ => return None,
        })
    }

    /// The preset this ruleset equals apart from komi, if any (komi is a game parameter: a Chinese game
    /// with 6.5 komi is still played under Chinese rules).
    pub fn preset_name(&self) -> Option<&'static str> {
        PRESET_NAMES.iter().copied().find(|n| Ruleset::preset(n).map(|p| p.with_komi(self.komi)).as_ref() == Some(self))
    }

    /// The same ruleset with another komi.
    pub const fn with_komi(mut self, komi: Komi) -> Ruleset {
        self.komi = komi;
        self
    }
}

/// A ruleset name that is not a preset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset {0:?} (known: chinese, japanese, korean, aga, new-zealand, tromp-taylor, ing, ancient)")]
pub struct UnknownRuleset(pub String);

impl FromStr for Ruleset {
    type Err = UnknownRuleset;
    fn from_str(s: &str) -> Result<Ruleset, UnknownRuleset> {
        Ruleset::preset(s).ok_or_else(|| UnknownRuleset(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_follow_rules_md_section_5() {
        let c = Ruleset::preset("chinese").unwrap();
        assert_eq!(
            (c.ko, c.scoring, c.suicide, c.komi),
            (KoRule::PositionalSuperko, Scoring::AreaDameSplit, Suicide::Forbidden, Komi(15))
        );
        assert_eq!(c.handicap_compensation, HandicapCompensation::N);
        let j = Ruleset::preset("Japanese").unwrap();
        assert_eq!(
            (j.ko, j.scoring, j.komi, j.cycle),
            (KoRule::Simple, Scoring::Territory, Komi(13), CycleRuling::NoResult)
        );
        assert_eq!(Ruleset::preset("korean"), Some(j));
        let a = Ruleset::preset("AGA").unwrap();
        assert_eq!((a.ko, a.handicap_compensation), (KoRule::SituationalSuperko, HandicapCompensation::NMinusOne));
        let nz = Ruleset::preset("New Zealand").unwrap();
        assert_eq!((nz.ko, nz.suicide, nz.komi), (KoRule::SituationalSuperko, Suicide::Allowed, Komi(14)));
        let tt = Ruleset::preset("Tromp/Taylor").unwrap();
        assert_eq!(
            (tt.ko, tt.scoring, tt.suicide, tt.komi),
            (KoRule::PositionalSuperko, Scoring::Area, Suicide::Allowed, Komi(15))
        );
        let ing = Ruleset::preset("ing").unwrap();
        assert_eq!((ing.suicide, ing.komi), (Suicide::Allowed, Komi(16)));
        assert!(Ruleset::preset("ancient").unwrap().group_tax);
        assert_eq!(Ruleset::default(), c);
        assert!(Ruleset::preset("martian").is_none());
        for name in PRESET_NAMES {
            assert!(Ruleset::preset(name).is_some(), "{name}");
        }
    }

    #[test]
    fn komi_is_kept_in_half_points() {
        assert_eq!(Komi::from_points(7.5), Some(Komi(15)));
        assert_eq!(Komi::from_points(-3.0), Some(Komi(-6)));
        assert_eq!(Komi::from_points(7.25), None);
        assert_eq!(Komi(15).to_string(), "7.5");
        assert_eq!(Komi(-7).to_string(), "-3.5");
        assert_eq!(Komi(0).to_string(), "0");
    }
}
