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
    /// both colors (dame, and shared liberties in seki) are split half to each side (Chinese rules).
    AreaDameSplit,
    /// Area without splitting: an empty region counts for a color only if it reaches that color
    /// alone; every other empty point counts for nobody (Tromp-Taylor, AGA, New Zealand, Ing).
    Area,
    /// Territory (数目法): surrounded empty points plus prisoners; no points in seki (Japanese,
    /// Korean).
    Territory,
    /// Ing's counting (SST laws, fixed stone counts): area, with the neutral points shared evenly (each
    /// side gets half of them in whole points; when their number is odd, one is left unfilled and counts
    /// for nobody), and a tie goes to Black, so a game under Ing's komi of 8 never ends drawn.
    Ing,
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

/// Whose rules a ruleset is: the name it goes by in presets, views and SGF `RU[]`. Two rulesets
/// that play and count alike (Japanese and Korean) still differ here, so a Korean game is never written
/// down as Japanese.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// The Chinese Weiqi Rules (2002).
    Chinese,
    /// The Japanese rules (1989).
    Japanese,
    /// The Korean Baduk Association's rules.
    Korean,
    /// The American Go Association's rules.
    Aga,
    /// The New Zealand rules.
    NewZealand,
    /// Tromp-Taylor, the logical rules computer Go uses.
    TrompTaylor,
    /// Ing Chang-ki's SST laws (Ing rules).
    Ing,
    /// Historical Chinese rules (seated stones, group tax).
    Ancient,
}

impl Family {
    /// Every family, in the order presets are listed.
    pub const ALL: [Family; 8] = [
        Family::Chinese,
        Family::Japanese,
        Family::Korean,
        Family::Aga,
        Family::NewZealand,
        Family::TrompTaylor,
        Family::Ing,
        Family::Ancient,
    ];

    /// The preset name (`chinese`, `new-zealand`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Family::Chinese => "chinese",
            Family::Japanese => "japanese",
            Family::Korean => "korean",
            Family::Aga => "aga",
            Family::NewZealand => "new-zealand",
            Family::TrompTaylor => "tromp-taylor",
            Family::Ing => "ing",
            Family::Ancient => "ancient",
        }
    }

    /// The name SGF `RU[]` uses: the FF[4] names where the standard has them (`Japanese`, `AGA`, `NZ`,
    /// `GOE` for Ing), and the names other programs write for the rest (`Chinese`, `Korean`,
    /// `Tromp-Taylor`, `Ancient`).
    pub const fn sgf_name(self) -> &'static str {
        match self {
            Family::Chinese => "Chinese",
            Family::Japanese => "Japanese",
            Family::Korean => "Korean",
            Family::Aga => "AGA",
            Family::NewZealand => "NZ",
            Family::TrompTaylor => "Tromp-Taylor",
            Family::Ing => "GOE",
            Family::Ancient => "Ancient",
        }
    }

    /// The family's preset.
    pub const fn preset(self) -> Ruleset {
        match self {
            Family::Chinese => Ruleset::chinese(),
            Family::Japanese => Ruleset::japanese(),
            Family::Korean => Ruleset::korean(),
            Family::Aga => Ruleset::aga(),
            Family::NewZealand => Ruleset::new_zealand(),
            Family::TrompTaylor => Ruleset::tromp_taylor(),
            Family::Ing => Ruleset::ing(),
            Family::Ancient => Ruleset::ancient(),
        }
    }

    /// A family by any common spelling: preset names, SGF `RU[]` values (`Japanese`, `Chinese`, `AGA`,
    /// `NZ`, `New Zealand`, `Tromp/Taylor`, `TT`, `GOE`, `Ing`, `Korean`) and short forms (`cn`, `jp`,
    /// `kr`), case, spaces and punctuation ignored.
    pub fn parse(name: &str) -> Option<Family> {
        let key: String = name.trim().to_ascii_lowercase().chars().filter(|c| c.is_ascii_alphanumeric()).collect();
        Some(match key.as_str() {
            "chinese" | "cn" | "china" | "chn" => Family::Chinese,
            "japanese" | "jp" | "japan" | "jpn" => Family::Japanese,
            "korean" | "kr" | "korea" | "kor" => Family::Korean,
            "aga" | "american" => Family::Aga,
            "newzealand" | "nz" => Family::NewZealand,
            "trompt" | "tromptaylor" | "tt" => Family::TrompTaylor,
            "ing" | "goe" | "sst" | "ingsst" => Family::Ing,
            "ancient" => Family::Ancient,
            _ => return None,
        })
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
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

impl HalfPoints {
    /// Half points from a wide count, clamped to the `i32` range (counts of range-checked games never
    /// come near it; the clamp keeps a hostile input from wrapping round to the other sign).
    pub fn saturating(halves: i64) -> HalfPoints {
        HalfPoints(i32::try_from(halves).unwrap_or(if halves < 0 { i32::MIN } else { i32::MAX }))
    }
}

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
    /// Whose rules these are (the name written in views and SGF `RU[]`).
    pub family: Family,
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
    /// AGA pass stones: a pass hands the opponent one prisoner, and play ends only when White passes
    /// last, so that a territory count (territory + prisoners) gives the same result as the area count.
    pub pass_stones: bool,
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
            family: Family::Chinese,
            ko: KoRule::PositionalSuperko,
            scoring: Scoring::AreaDameSplit,
            suicide: Suicide::Forbidden,
            komi: Komi(15),
            handicap_compensation: HandicapCompensation::N,
            cycle: CycleRuling::NoResult,
            illegal_move: IllegalMovePolicy::Refuse,
            group_tax: false,
            seated_stones: false,
            pass_stones: false,
        }
    }

    /// Japanese rules: territory, simple ko with cycles ruled no result, komi 6.5.
    pub const fn japanese() -> Ruleset {
        Ruleset {
            family: Family::Japanese,
            ko: KoRule::Simple,
            scoring: Scoring::Territory,
            suicide: Suicide::Forbidden,
            komi: Komi(13),
            handicap_compensation: HandicapCompensation::None,
            cycle: CycleRuling::NoResult,
            illegal_move: IllegalMovePolicy::Refuse,
            group_tax: false,
            seated_stones: false,
            pass_stones: false,
        }
    }

    /// Korean rules: they play and count as the Japanese rules do for the engine's purposes (territory,
    /// simple ko, komi 6.5), under their own name.
    pub const fn korean() -> Ruleset {
        Ruleset { family: Family::Korean, ..Ruleset::japanese() }
    }

    /// AGA rules: area, with pass stones (a pass hands the opponent a prisoner and White passes last),
    /// so a territory count agrees with it; situational superko, komi 7.5, N−1 points returned for N
    /// handicap stones.
    pub const fn aga() -> Ruleset {
        Ruleset {
            family: Family::Aga,
            ko: KoRule::SituationalSuperko,
            scoring: Scoring::Area,
            handicap_compensation: HandicapCompensation::NMinusOne,
            pass_stones: true,
            ..Ruleset::chinese()
        }
    }

    /// New Zealand rules: area, situational superko, suicide allowed, komi 7.
    pub const fn new_zealand() -> Ruleset {
        Ruleset {
            family: Family::NewZealand,
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
            family: Family::TrompTaylor,
            ko: KoRule::PositionalSuperko,
            scoring: Scoring::Area,
            suicide: Suicide::Allowed,
            komi: Komi(15),
            handicap_compensation: HandicapCompensation::None,
            ..Ruleset::chinese()
        }
    }

    /// Ing's SST laws: Ing's counting ([`Scoring::Ing`]: area, neutral points shared evenly, a tie to
    /// Black) with komi 8, multi-stone suicide allowed (a single-stone suicide is refused, as under every
    /// ruleset). Ing's own ko rules (which classify cycles by the kind of ko) are approximated by
    /// situational superko.
    pub const fn ing() -> Ruleset {
        Ruleset {
            family: Family::Ing,
            ko: KoRule::SituationalSuperko,
            scoring: Scoring::Ing,
            suicide: Suicide::Allowed,
            komi: Komi(16),
            handicap_compensation: HandicapCompensation::None,
            ..Ruleset::chinese()
        }
    }

    /// Ancient Chinese rules, for historical records: seated stones, White first, no komi, area
    /// counting with group tax, simple ko. Seated stones are a 19×19 convention: games under these
    /// rules are refused on other sizes ([`Ruleset::check_size`]).
    pub const fn ancient() -> Ruleset {
        Ruleset {
            family: Family::Ancient,
            ko: KoRule::Simple,
            scoring: Scoring::AreaDameSplit,
            suicide: Suicide::Forbidden,
            komi: Komi(0),
            handicap_compensation: HandicapCompensation::None,
            cycle: CycleRuling::NoResult,
            illegal_move: IllegalMovePolicy::Refuse,
            group_tax: true,
            seated_stones: true,
            pass_stones: false,
        }
    }

    /// A preset by name (see [`PRESET_NAMES`]); also accepts the spellings SGF `RU[]` uses
    /// (`Japanese`, `Chinese`, `AGA`, `NZ`, `New Zealand`, `Tromp/Taylor`, `TT`, `GOE`, `Ing`, `Korean`):
    /// see [`Family::parse`].
    pub fn preset(name: &str) -> Option<Ruleset> {
        Family::parse(name).map(Family::preset)
    }

    /// The preset this ruleset equals apart from komi, if any (komi is a game parameter: a Chinese game
    /// with 6.5 komi is still played under Chinese rules).
    pub fn preset_name(&self) -> Option<&'static str> {
        (self.family.preset().with_komi(self.komi) == *self).then(|| self.family.name())
    }

    /// The largest komi a game on a board of `size` may have, either way, in half points: the board's
    /// point count (361 points, 722 half points, on 19×19). Anything beyond cannot change a result.
    pub const fn max_komi(size: u8) -> i32 {
        2 * (size as i32) * (size as i32)
    }

    /// Checks that these rules can be played on a board of `size`: seated stones (座子) are a 19×19
    /// convention, and komi is at most the board's point count either way.
    pub fn check_size(&self, size: u8) -> Result<(), RulesetError> {
        if self.seated_stones && size != 19 {
            return Err(RulesetError::SeatedStonesNeed19 { size });
        }
        let max = Ruleset::max_komi(size);
        if self.komi.0.unsigned_abs() > max.unsigned_abs() {
            return Err(RulesetError::KomiOutOfRange { komi: self.komi, max: Komi(max) });
        }
        Ok(())
    }

    /// The same ruleset with another komi.
    pub const fn with_komi(mut self, komi: Komi) -> Ruleset {
        self.komi = komi;
        self
    }
}

/// Why a ruleset cannot be played on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesetError {
    /// Seated stones (座子) are placed on the corner star points of a 19×19 board only.
    #[error("seated stones (座子) are a 19×19 convention; the ancient rules cannot be played on {size}×{size}")]
    SeatedStonesNeed19 {
        /// The board size asked for.
        size: u8,
    },
    /// Komi beyond the board's point count.
    #[error("komi {komi} is out of range: at most {max} points either way on this board")]
    KomiOutOfRange {
        /// The komi asked for.
        komi: Komi,
        /// The largest allowed, either way.
        max: Komi,
    },
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
        let k = Ruleset::preset("Korean").unwrap();
        assert_eq!(k.family, Family::Korean);
        assert_eq!(k, Ruleset { family: Family::Korean, ..j }, "Korean plays as Japanese under its own name");
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
        assert_eq!((ing.suicide, ing.komi, ing.scoring), (Suicide::Allowed, Komi(16), Scoring::Ing));
        assert_eq!(Ruleset::preset("GOE"), Some(ing));
        assert_ne!(ing.with_komi(nz.komi), nz, "Ing is not New Zealand with another komi");
        assert!(a.pass_stones && !c.pass_stones);
        assert!(Ruleset::preset("ancient").unwrap().group_tax);
        assert_eq!(Ruleset::default(), c);
        assert!(Ruleset::preset("martian").is_none());
        for name in PRESET_NAMES {
            let r = Ruleset::preset(name).unwrap();
            assert_eq!(r.preset_name(), Some(*name), "{name}");
            assert_eq!(Ruleset::preset(r.family.sgf_name()), Some(r), "{name} read back from its RU[] name");
        }
        assert_eq!(Family::ALL.len(), PRESET_NAMES.len());
    }

    #[test]
    fn komi_and_seated_stones_are_checked_against_the_board() {
        let c = Ruleset::chinese();
        assert_eq!(Ruleset::max_komi(19), 722);
        assert!(c.with_komi(Komi(722)).check_size(19).is_ok());
        assert!(c.with_komi(Komi(-722)).check_size(19).is_ok());
        assert_eq!(
            c.with_komi(Komi(i32::MAX)).check_size(19),
            Err(RulesetError::KomiOutOfRange { komi: Komi(i32::MAX), max: Komi(722) })
        );
        assert!(c.with_komi(Komi(i32::MIN)).check_size(9).is_err());
        assert_eq!(Ruleset::ancient().check_size(9), Err(RulesetError::SeatedStonesNeed19 { size: 9 }));
        assert!(Ruleset::ancient().check_size(19).is_ok());
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
