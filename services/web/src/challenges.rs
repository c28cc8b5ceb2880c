//! Challenges: a casual game one member offers, to a named member or to anyone, with its board size,
//! rules preset, handicap and komi, and time system. The other accepts (the game is created at once,
//! through the gateway's `CreateGame` with the accepter's session, so the same checks apply: a player
//! may create an unrated casual game of their own), declines, or the challenger cancels.
//!
//! Open challenges live in this process's memory: they are offers, not records. The game a challenge
//! becomes is an ordinary game log like every other. (A restart withdraws the open offers; the
//! lobby says so on the challenge form.)

use std::collections::BTreeMap;
use std::sync::Mutex;

use weiqi_clock::{ControlError, DurationMs, TimeControl, TimeSystem};

/// The time systems a challenge offers: every system the clock core has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeChoice {
    /// No clock.
    None,
    /// Main time only.
    Absolute,
    /// Chinese byo-yomi: basic time and reserved minutes (读秒).
    Chinese,
    /// Japanese byo-yomi: main time and periods.
    Japanese,
    /// N moves in each period.
    MovesPerPeriod,
    /// Canadian overtime: N moves in a block of time.
    Canadian,
    /// Fischer: an increment per move, with an optional cap.
    Fischer,
}

impl TimeChoice {
    /// Every choice, in the order the form lists them.
    pub const ALL: [TimeChoice; 7] = [
        TimeChoice::Chinese,
        TimeChoice::Japanese,
        TimeChoice::Canadian,
        TimeChoice::MovesPerPeriod,
        TimeChoice::Fischer,
        TimeChoice::Absolute,
        TimeChoice::None,
    ];

    /// The form value.
    pub fn key(self) -> &'static str {
        match self {
            TimeChoice::None => "none",
            TimeChoice::Absolute => "absolute",
            TimeChoice::Chinese => "chinese",
            TimeChoice::Japanese => "japanese",
            TimeChoice::MovesPerPeriod => "moves-per-period",
            TimeChoice::Canadian => "canadian",
            TimeChoice::Fischer => "fischer",
        }
    }

    /// From the form value.
    pub fn parse(s: &str) -> Option<TimeChoice> {
        TimeChoice::ALL.into_iter().find(|c| c.key() == s)
    }
}

/// A time control as the form gives it (minutes and seconds), range-checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeSpec {
    /// The system.
    pub system: TimeChoice,
    /// Main (basic) time, minutes.
    pub main_minutes: u32,
    /// Periods (Japanese) or reserved minutes (Chinese).
    pub periods: u32,
    /// A period's length, seconds (Japanese, moves per period, Canadian).
    pub period_seconds: u32,
    /// Moves per period (moves per period, Canadian).
    pub moves: u32,
    /// Fischer increment, seconds.
    pub increment_seconds: u32,
}

impl Default for TimeSpec {
    /// The Chinese defaults for a casual online game: 10 minutes basic time and 3 reserved minutes.
    fn default() -> TimeSpec {
        TimeSpec {
            system: TimeChoice::Chinese,
            main_minutes: 10,
            periods: 3,
            period_seconds: 30,
            moves: 10,
            increment_seconds: 10,
        }
    }
}

/// Why a challenge form is refused (the field, for the message).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    /// A number out of its range.
    #[error("{field} must be between {min} and {max}")]
    OutOfRange {
        /// The field's catalogue key.
        field: &'static str,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// An unknown choice.
    #[error("unknown {0}")]
    Unknown(&'static str),
    /// A challenge to oneself.
    #[error("you cannot challenge yourself")]
    Yourself,
    /// No such account.
    #[error("no such player")]
    NoSuchPlayer,
}

fn ranged(field: &'static str, v: i64, min: i64, max: i64) -> Result<i64, FormError> {
    if (min..=max).contains(&v) { Ok(v) } else { Err(FormError::OutOfRange { field, min, max }) }
}

impl TimeSpec {
    /// Checks every field the system uses.
    ///
    /// # Errors
    /// The first field out of range.
    pub fn check(&self) -> Result<(), FormError> {
        use TimeChoice as T;
        if self.system != T::None {
            let min = if self.system == T::Absolute || self.system == T::Fischer { 1 } else { 0 };
            ranged("field-main-minutes", self.main_minutes.into(), min, 600)?;
        }
        match self.system {
            T::Chinese | T::Japanese => {
                ranged("field-periods", self.periods.into(), 1, 60)?;
            }
            _ => {}
        }
        if matches!(self.system, T::Japanese | T::MovesPerPeriod | T::Canadian) {
            ranged("field-period-seconds", self.period_seconds.into(), 5, 3600)?;
        }
        if matches!(self.system, T::MovesPerPeriod | T::Canadian) {
            ranged("field-moves", self.moves.into(), 1, 100)?;
        }
        if self.system == T::Fischer {
            ranged("field-increment", self.increment_seconds.into(), 0, 600)?;
        }
        Ok(())
    }

    /// The time control it describes (the figures are range-checked by [`TimeSpec::check`]).
    ///
    /// # Errors
    /// A control the clock refuses.
    pub fn to_control(&self) -> Result<TimeControl, ControlError> {
        let minutes = |m: u32| DurationMs(i64::from(m) * 60_000);
        let seconds = |x: u32| DurationMs(i64::from(x) * 1000);
        let system = match self.system {
            TimeChoice::None => TimeSystem::NoClock,
            TimeChoice::Absolute => TimeSystem::Absolute { main: minutes(self.main_minutes) },
            TimeChoice::Chinese => {
                TimeSystem::ChineseByoYomi { basic: minutes(self.main_minutes), reserved_minutes: self.periods }
            }
            TimeChoice::Japanese => TimeSystem::JapaneseByoYomi {
                main: minutes(self.main_minutes),
                periods: self.periods,
                period: seconds(self.period_seconds),
            },
            TimeChoice::MovesPerPeriod => TimeSystem::MovesPerPeriod {
                main: minutes(self.main_minutes),
                moves: self.moves,
                period: seconds(self.period_seconds),
            },
            TimeChoice::Canadian => TimeSystem::Canadian {
                main: minutes(self.main_minutes),
                moves: self.moves,
                period: seconds(self.period_seconds),
            },
            TimeChoice::Fischer => TimeSystem::Fischer {
                initial: minutes(self.main_minutes),
                increment: seconds(self.increment_seconds),
                cap: None,
            },
        };
        TimeControl::new(system)
    }
}

/// Who plays Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// Nigiri (猜先).
    Nigiri,
    /// The challenger takes Black.
    Black,
    /// The challenger takes White.
    White,
}

/// An offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// The challenger.
    pub by: String,
    /// The one challenged (`None`: anyone).
    pub to: Option<String>,
    /// Board size.
    pub size: u32,
    /// Rules preset.
    pub rules: String,
    /// Handicap stones (0: even).
    pub handicap: u32,
    /// Komi in half points (`None`: the preset's).
    pub komi_half_points: Option<i32>,
    /// Colours.
    pub color: ColorChoice,
    /// Time.
    pub time: TimeSpec,
}

/// What a challenge may become.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChallengeError {
    /// It is gone (taken, declined, cancelled, or never was).
    #[error("this challenge is no longer open")]
    Gone,
    /// The caller may not do that with it.
    #[error("this challenge is not yours to do that with")]
    NotYours,
}

/// The open challenges.
#[derive(Default)]
pub struct Challenges {
    open: Mutex<BTreeMap<String, Challenge>>,
}

impl Challenges {
    /// Offers `c`.
    pub fn offer(&self, c: Challenge) {
        self.open.lock().expect("challenges lock").insert(c.id.clone(), c);
    }

    /// The challenges `member` may see: their own, those to them, and open ones.
    pub fn visible_to(&self, member: &str) -> Vec<Challenge> {
        let open = self.open.lock().expect("challenges lock");
        open.values().filter(|c| c.by == member || c.to.as_deref().is_none_or(|t| t == member)).cloned().collect()
    }

    /// Takes `id` out to accept it (anyone but the challenger, if it is open or addressed to them).
    ///
    /// # Errors
    /// Gone, or not addressed to `member`.
    pub fn take_for(&self, id: &str, member: &str) -> Result<Challenge, ChallengeError> {
        let mut open = self.open.lock().expect("challenges lock");
        let c = open.get(id).ok_or(ChallengeError::Gone)?;
        if c.by == member || c.to.as_deref().is_some_and(|t| t != member) {
            return Err(ChallengeError::NotYours);
        }
        Ok(open.remove(id).expect("present"))
    }

    /// Puts a taken challenge back (the game could not be created).
    pub fn put_back(&self, c: Challenge) {
        self.offer(c);
    }

    /// Declines (the one challenged) or cancels (the challenger) `id`.
    ///
    /// # Errors
    /// Gone, or `member` is neither.
    pub fn withdraw(&self, id: &str, member: &str, cancel: bool) -> Result<Challenge, ChallengeError> {
        let mut open = self.open.lock().expect("challenges lock");
        let c = open.get(id).ok_or(ChallengeError::Gone)?;
        let allowed = if cancel { c.by == member } else { c.to.as_deref() == Some(member) };
        if !allowed {
            return Err(ChallengeError::NotYours);
        }
        Ok(open.remove(id).expect("present"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(by: &str, to: Option<&str>) -> Challenge {
        Challenge {
            id: format!("c-{by}"),
            by: by.into(),
            to: to.map(String::from),
            size: 9,
            rules: "chinese".into(),
            handicap: 0,
            komi_half_points: None,
            color: ColorChoice::Nigiri,
            time: TimeSpec::default(),
        }
    }

    #[test]
    fn given_a_challenge_to_wang_when_li_or_zhao_act_then_only_the_right_one_may() {
        let all = Challenges::default();
        all.offer(offer("li", Some("wang")));
        assert_eq!(all.visible_to("zhao").len(), 0, "a challenge to wang is not shown to zhao");
        assert_eq!(all.take_for("c-li", "zhao"), Err(ChallengeError::NotYours));
        assert_eq!(all.take_for("c-li", "li"), Err(ChallengeError::NotYours), "no accepting one's own");
        assert_eq!(
            all.withdraw("c-li", "li", false),
            Err(ChallengeError::NotYours),
            "the challenger cancels, not declines"
        );
        assert!(all.take_for("c-li", "wang").is_ok());
        assert_eq!(all.take_for("c-li", "wang"), Err(ChallengeError::Gone));
    }

    #[test]
    fn an_open_challenge_is_for_anyone_and_the_challenger_cancels_it() {
        let all = Challenges::default();
        all.offer(offer("li", None));
        assert_eq!(all.visible_to("zhao").len(), 1);
        assert_eq!(all.withdraw("c-li", "zhao", true), Err(ChallengeError::NotYours));
        assert!(all.withdraw("c-li", "li", true).is_ok());
        assert!(all.visible_to("zhao").is_empty());
    }

    #[test]
    fn time_fields_are_range_checked_for_the_system_that_uses_them() {
        let mut t = TimeSpec::default();
        assert!(t.check().is_ok());
        t.periods = 0;
        assert_eq!(t.check(), Err(FormError::OutOfRange { field: "field-periods", min: 1, max: 60 }));
        t.system = TimeChoice::Fischer;
        assert!(t.check().is_ok(), "Fischer has no periods");
        t.main_minutes = 0;
        assert!(t.check().is_err());
        let chinese = TimeSpec::default().to_control().expect("a usable control");
        assert_eq!(chinese.system, TimeSystem::ChineseByoYomi { basic: DurationMs(600_000), reserved_minutes: 3 });
    }
}
