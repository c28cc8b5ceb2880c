//! An event's own facts — its dates, city and country, director, and the clubs' short codes — and
//! the EGF class its time control earns. Pure.
//!
//! The facts are not about pairing or play, so the pairing core does not hold them; the service
//! records them as one event (`TournamentFacts`, the whole set each time, the last one holding) that
//! an organiser or referee may replace at any time, and the exports read them: the `.h9` table's
//! `PC` and `DT` lines and its club column, and the OpenGotha file's dates, location and director.
//!
//! # The EGF class
//! The EGF rates a tournament by its class, which its time limits decide (the EGF's tournament class
//! rules, as the EGD's format page states them): the *basic time* and the *adjusted time*,
//!
//! * standard (Japanese) byo-yomi: the basic time plus the time of 45 moves in byo-yomi (45 periods);
//! * Canadian byo-yomi: the basic time plus the time of 60 moves in its periods;
//! * Fischer: the basic time plus the bonus of 120 moves;
//! * sudden death: the basic time.
//!
//! Chinese byo-yomi is standard byo-yomi of one-minute periods after the basic time less the reserved
//! minutes (as the clock plays it), so its adjusted time is that basic time plus 45 minutes.
//!
//! | class | basic ≥ | adjusted ≥ | Fischer: basic ≥ | where |
//! |-------|---------|------------|------------------|-------|
//! | A     | 60 min  | 75 min     | 45 min           | over the board |
//! | B     | 40 min  | 50 min     | 30 min           | over the board |
//! | C     | 25 min  | 30 min     | 20 min           | over the board |
//! | D     | 40 min  | 50 min     | 30 min           | on the Internet |
//!
//! An event below class C (or D on line), or with no clock, has no class: the EGD does not rate it,
//! and the desk says so instead of writing a class the event does not have.

use std::collections::BTreeMap;

use weiqi_clock::{DurationMs, TimeControl, TimeSystem};
use weiqi_pairing::opengotha::{GothaEvent, GothaOvertime};
use weiqi_time::CivilDate;

use crate::convert::BadRequest;
use crate::settings::GameSettings;

/// The longest text a fact may hold (a city, a director's name), in characters.
pub const MAX_FACT_CHARS: usize = 100;

/// The most clubs a club table maps.
pub const MAX_CLUBS: usize = 500;

/// The longest club code, in ASCII letters and digits (the EGD's club column is short).
pub const MAX_CLUB_CODE: usize = 8;

/// An event's facts, as the organiser gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventFacts {
    /// The first day.
    pub start: Option<CivilDate>,
    /// The last day (the first if absent).
    pub end: Option<CivilDate>,
    /// The city as written (杭州, Hangzhou).
    pub city: String,
    /// The city in Latin letters, for the EGD (`Hangzhou`); empty: `city` when it is ASCII.
    pub city_latin: String,
    /// The country, two capital ASCII letters (`CN`); empty: not given.
    pub country: String,
    /// The tournament director.
    pub director: String,
    /// Each club (as players register it) → its short ASCII code.
    pub club_codes: BTreeMap<String, String>,
}

impl EventFacts {
    /// Checks every value from outside: dates in order, a two-letter country, short texts without
    /// control characters, club codes of ASCII letters and digits.
    ///
    /// # Errors
    /// A [`BadRequest`] naming the first value that does not hold.
    pub fn validate(&self) -> Result<(), BadRequest> {
        let bad = |code, message: String| Err(BadRequest { code, message });
        if let (Some(start), Some(end)) = (self.start, self.end)
            && end < start
        {
            return bad("bad_dates", format!("the last day {end} is before the first {start}"));
        }
        let two_capitals = self.country.len() == 2 && self.country.bytes().all(|b| b.is_ascii_uppercase());
        if !(self.country.is_empty() || two_capitals) {
            return bad("bad_country", format!("country {:?} is not two capital letters (CN)", self.country));
        }
        for (what, text) in [("city", &self.city), ("city_latin", &self.city_latin), ("director", &self.director)] {
            if text.chars().count() > MAX_FACT_CHARS || text.chars().any(char::is_control) {
                return bad(
                    "bad_text",
                    format!("{what} is longer than {MAX_FACT_CHARS} characters or has control characters"),
                );
            }
        }
        if !self.city_latin.is_ascii() {
            return bad("bad_city_latin", format!("city_latin {:?} is not in Latin letters", self.city_latin));
        }
        if self.club_codes.len() > MAX_CLUBS {
            return bad("too_many_clubs", format!("{} clubs; at most {MAX_CLUBS}", self.club_codes.len()));
        }
        for (club, code) in &self.club_codes {
            if club.trim().is_empty() || club.chars().count() > MAX_FACT_CHARS || club.chars().any(char::is_control) {
                return bad("bad_club", format!("club {club:?} is empty, too long or has control characters"));
            }
            if code.is_empty() || code.len() > MAX_CLUB_CODE || !code.bytes().all(|b| b.is_ascii_alphanumeric()) {
                return bad(
                    "bad_club_code",
                    format!("the code {code:?} of {club:?} is not 1 to {MAX_CLUB_CODE} ASCII letters or digits"),
                );
            }
        }
        Ok(())
    }

    /// The city as the EGD's `PC` line writes it (Latin letters), if there is one.
    #[must_use]
    pub fn city_for_egd(&self) -> Option<&str> {
        let latin = self.city_latin.trim();
        if !latin.is_empty() {
            return Some(latin);
        }
        let city = self.city.trim();
        (!city.is_empty() && city.is_ascii()).then_some(city)
    }

    /// A club's code for the EGD's club column: its mapped code, or the club itself when it is ASCII;
    /// `None` when it has neither (the table would write `-`; the desk lists such clubs).
    #[must_use]
    pub fn club_code<'a>(&'a self, club: &'a str) -> Option<&'a str> {
        let club = club.trim();
        match self.club_codes.get(club) {
            Some(code) => Some(code),
            None => (!club.is_empty() && club.is_ascii()).then_some(club),
        }
    }
}

/// A time control's basic and adjusted time for the EGF, and whether it is Fischer (its own
/// thresholds); `None` without a clock.
#[must_use]
pub fn egf_times(control: &TimeControl) -> Option<(DurationMs, DurationMs, bool)> {
    let times = |basic: DurationMs, extra: i64| (basic, DurationMs(basic.0.saturating_add(extra)), false);
    Some(match control.system {
        TimeSystem::NoClock => return None,
        TimeSystem::Absolute { main } => times(main, 0),
        TimeSystem::ChineseByoYomi { basic, reserved_minutes } => {
            let main = DurationMs(basic.0 - 60_000 * i64::from(reserved_minutes));
            times(main, 45 * 60_000)
        }
        TimeSystem::JapaneseByoYomi { main, period, .. } => times(main, 45 * period.0),
        // Moves per period: the time of 60 moves at the period's pace.
        TimeSystem::MovesPerPeriod { main, moves, period } | TimeSystem::Canadian { main, moves, period } => {
            times(main, period.0.saturating_mul(60) / i64::from(moves.max(1)))
        }
        TimeSystem::Fischer { initial, increment, .. } => {
            (initial, DurationMs(initial.0.saturating_add(increment.0.saturating_mul(120))), true)
        }
    })
}

/// The EGF class a time control earns (see the module doc), over the board or on the Internet.
#[must_use]
pub fn egf_class(control: &TimeControl, over_the_board: bool) -> Option<char> {
    let (basic, adjusted, fischer) = egf_times(control)?;
    let minutes = |d: DurationMs| d.0 as f64 / 60_000.0;
    let (basic, adjusted) = (minutes(basic), minutes(adjusted));
    // (class, basic, adjusted, Fischer's basic)
    let classes: &[(char, f64, f64, f64)] = if over_the_board {
        &[('A', 60.0, 75.0, 45.0), ('B', 40.0, 50.0, 30.0), ('C', 25.0, 30.0, 20.0)]
    } else {
        &[('D', 40.0, 50.0, 30.0)]
    };
    classes
        .iter()
        .find(|&&(_, b, a, fb)| basic >= if fischer { fb } else { b } && adjusted >= a)
        .map(|&(class, ..)| class)
}

/// What an OpenGotha file says of the event: its facts, and its time and komi as OpenGotha names
/// them (a Chinese byo-yomi is standard byo-yomi of one minute after the basic time less the reserved
/// minutes; played on line unless over the board).
#[must_use]
pub fn gotha_event(facts: Option<&EventFacts>, settings: Option<&GameSettings>) -> GothaEvent {
    let facts = facts.cloned().unwrap_or_default();
    let settings = settings.cloned().unwrap_or_default();
    let place = [facts.city.trim(), facts.country.trim()].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>();
    let minutes = |d: DurationMs| u32::try_from(d.0 / 60_000).unwrap_or(0);
    let seconds = |d: DurationMs| u32::try_from(d.0 / 1000).unwrap_or(0);
    let (basic, overtime) = match settings.time_control.system {
        TimeSystem::NoClock => (0, GothaOvertime::SuddenDeath),
        TimeSystem::Absolute { main } => (minutes(main), GothaOvertime::SuddenDeath),
        TimeSystem::ChineseByoYomi { basic, reserved_minutes } => {
            (minutes(basic).saturating_sub(reserved_minutes), GothaOvertime::Standard { seconds: 60 })
        }
        TimeSystem::JapaneseByoYomi { main, period, .. } => {
            (minutes(main), GothaOvertime::Standard { seconds: seconds(period) })
        }
        TimeSystem::MovesPerPeriod { main, moves, period } | TimeSystem::Canadian { main, moves, period } => {
            (minutes(main), GothaOvertime::Canadian { moves, seconds: seconds(period) })
        }
        TimeSystem::Fischer { initial, increment, .. } => {
            (minutes(initial), GothaOvertime::Fischer { seconds: seconds(increment) })
        }
    };
    GothaEvent {
        location: place.join(", "),
        director: facts.director.clone(),
        begin: facts.start,
        end: facts.end,
        internet: !settings.manual_start,
        size: u32::from(settings.size),
        komi: settings.ruleset.komi.to_string(),
        basic_minutes: basic,
        overtime,
        club_codes: facts.club_codes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn min(m: i64) -> DurationMs {
        DurationMs(m * 60_000)
    }

    fn sec(s: i64) -> DurationMs {
        DurationMs(s * 1000)
    }

    fn control(system: TimeSystem) -> TimeControl {
        TimeControl::new(system).expect("a valid control")
    }

    /// The class of each time control, over the board (otb) and on line, by the EGF's table.
    #[test]
    fn the_egf_class_follows_the_time_control() {
        use TimeSystem::*;
        let table: &[(TimeSystem, Option<char>, Option<char>)] = &[
            //  time control                                                   otb        online
            (JapaneseByoYomi { main: min(60), periods: 5, period: sec(30) }, Some('A'), Some('D')), // 60 + 22.5
            (JapaneseByoYomi { main: min(60), periods: 3, period: sec(10) }, Some('B'), Some('D')), // 60 + 7.5
            (JapaneseByoYomi { main: min(40), periods: 3, period: sec(30) }, Some('B'), Some('D')), // 40 + 22.5
            (JapaneseByoYomi { main: min(30), periods: 3, period: sec(30) }, Some('C'), None),      // 30 + 22.5
            (JapaneseByoYomi { main: min(20), periods: 3, period: sec(30) }, None, None),           // basic < 25
            (ChineseByoYomi { basic: min(33), reserved_minutes: 3 }, Some('C'), None),              // 30 + 45
            (ChineseByoYomi { basic: min(65), reserved_minutes: 5 }, Some('A'), Some('D')),         // 60 + 45
            (Canadian { main: min(60), moves: 25, period: min(10) }, Some('A'), Some('D')),         // 60 + 24
            (Canadian { main: min(45), moves: 20, period: min(5) }, Some('B'), Some('D')),          // 45 + 15
            (Fischer { initial: min(45), increment: sec(15), cap: None }, Some('A'), Some('D')),    // 45 + 30
            (Fischer { initial: min(30), increment: sec(10), cap: None }, Some('B'), Some('D')),    // 30 + 20
            (Fischer { initial: min(20), increment: sec(5), cap: None }, Some('C'), None),          // 20 + 10
            (Absolute { main: min(90) }, Some('A'), Some('D')),
            (Absolute { main: min(30) }, Some('C'), None),
            (NoClock, None, None),
        ];
        for (system, otb, online) in table {
            let c = if *system == NoClock { TimeControl::no_clock() } else { control(*system) };
            assert_eq!((egf_class(&c, true), egf_class(&c, false)), (*otb, *online), "{system:?}");
        }
    }

    #[test]
    fn facts_are_checked() {
        let date = |s: &str| Some(s.parse::<CivilDate>().unwrap());
        let good = EventFacts {
            start: date("2026-11-28"),
            end: date("2026-11-29"),
            city: "杭州".into(),
            city_latin: "Hangzhou".into(),
            country: "CN".into(),
            director: "王立诚".into(),
            club_codes: [("杭州棋院".to_string(), "Hang".to_string())].into(),
        };
        assert_eq!(good.validate(), Ok(()));
        assert_eq!(good.city_for_egd(), Some("Hangzhou"));
        assert_eq!(good.club_code("杭州棋院"), Some("Hang"));
        assert_eq!(good.club_code("Paris"), Some("Paris"));
        assert_eq!(good.club_code("上海棋院"), None);
        let refused = |f: EventFacts| f.validate().unwrap_err().code;
        assert_eq!(refused(EventFacts { end: date("2026-11-27"), ..good.clone() }), "bad_dates");
        assert_eq!(refused(EventFacts { country: "中国".into(), ..good.clone() }), "bad_country");
        assert_eq!(refused(EventFacts { country: "cn".into(), ..good.clone() }), "bad_country");
        assert_eq!(refused(EventFacts { city_latin: "杭州".into(), ..good.clone() }), "bad_city_latin");
        assert_eq!(refused(EventFacts { director: "a\u{7}".into(), ..good.clone() }), "bad_text");
        let codes = [("杭州棋院".to_string(), "杭".to_string())].into();
        assert_eq!(refused(EventFacts { club_codes: codes, ..good.clone() }), "bad_club_code");
    }
}
