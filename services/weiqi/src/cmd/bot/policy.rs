//! Which casual challenges a bot accepts. Tournament games are always played: the bot entered the
//! tournament, so its games are not offers.

use weiqi_proto::v1 as pb;
use weiqi_proto::v1::time_control::System;

/// What the bot's owner allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Board sizes it plays.
    pub sizes: Vec<u8>,
    /// Rules presets it plays (`chinese`, `japanese`, …); empty: any.
    pub rules: Vec<String>,
    /// The longest main time it accepts, in minutes (`None`: any).
    pub max_main_minutes: Option<u64>,
    /// Whether it plays games without a clock.
    pub untimed: bool,
    /// Whether it plays handicap games.
    pub handicap: bool,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy { sizes: vec![9, 13, 19], rules: Vec::new(), max_main_minutes: None, untimed: true, handicap: true }
    }
}

/// Why an offer is declined (logged, and the game is left unstarted for its creator to cancel).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Decline {
    /// Board size.
    #[error("plays {allowed:?} boards, not {size}×{size}")]
    Size { size: u32, allowed: Vec<u8> },
    /// Rules.
    #[error("plays the {allowed:?} rules, not {rules}")]
    Rules { rules: String, allowed: Vec<String> },
    /// Main time.
    #[error("accepts at most {max} minutes of main time, not {minutes}")]
    MainTime { minutes: u64, max: u64 },
    /// No clock.
    #[error("plays only games with a clock")]
    Untimed,
    /// Handicap.
    #[error("plays only even games")]
    Handicap,
}

impl Policy {
    /// Whether a casual game is accepted.
    ///
    /// # Errors
    /// Why not.
    pub fn accepts(&self, game: &pb::MyGame) -> Result<(), Decline> {
        if !u8::try_from(game.size).is_ok_and(|s| self.sizes.contains(&s)) {
            return Err(Decline::Size { size: game.size, allowed: self.sizes.clone() });
        }
        if !self.rules.is_empty() {
            let name = game
                .ruleset
                .as_ref()
                .and_then(|r| weiqi_game::convert::ruleset_from_pb(r).ok())
                .and_then(|r| r.preset_name())
                .unwrap_or("custom");
            if !self.rules.iter().any(|r| r == name) {
                return Err(Decline::Rules { rules: name.to_string(), allowed: self.rules.clone() });
            }
        }
        if game.handicap > 1 && !self.handicap {
            return Err(Decline::Handicap);
        }
        match main_ms(game.time_control.as_ref()) {
            None if !self.untimed => Err(Decline::Untimed),
            Some(ms) => match self.max_main_minutes {
                Some(max) if (ms as u64) > max * 60_000 => {
                    Err(Decline::MainTime { minutes: (ms as u64).div_ceil(60_000), max })
                }
                _ => Ok(()),
            },
            None => Ok(()),
        }
    }
}

/// Main time of a time control (`None`: no clock).
pub fn main_ms(t: Option<&pb::TimeControl>) -> Option<i64> {
    match t.and_then(|t| t.system.as_ref())? {
        System::None(_) => None,
        System::Absolute(a) => Some(a.main_ms),
        System::Chinese(c) => Some(c.basic_ms),
        System::Japanese(j) => Some(j.main_ms),
        System::MovesPerPeriod(m) => Some(m.main_ms),
        System::Canadian(c) => Some(c.main_ms),
        System::Fischer(f) => Some(f.initial_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(size: u32, handicap: u32, main_minutes: Option<i64>) -> pb::MyGame {
        let time_control = main_minutes.map(|m| pb::TimeControl {
            system: Some(System::Absolute(pb::time_control::Absolute { main_ms: m * 60_000 })),
            ..Default::default()
        });
        let ruleset = Some(weiqi_game::convert::ruleset_to_pb(&weiqi_rules::Ruleset::japanese()));
        pb::MyGame { size, handicap, time_control, ruleset, ..Default::default() }
    }

    #[test]
    fn the_default_policy_plays_the_usual_sizes_with_any_rules_and_clock() {
        let p = Policy::default();
        assert_eq!(p.accepts(&offer(9, 0, None)), Ok(()));
        assert_eq!(p.accepts(&offer(19, 4, Some(90))), Ok(()));
        assert_eq!(p.accepts(&offer(7, 0, None)), Err(Decline::Size { size: 7, allowed: vec![9, 13, 19] }));
    }

    #[test]
    fn each_limit_declines_with_its_reason() {
        let p = Policy {
            sizes: vec![9],
            rules: vec!["chinese".into()],
            max_main_minutes: Some(10),
            untimed: false,
            handicap: false,
        };
        assert_eq!(
            p.accepts(&offer(9, 0, Some(5))),
            Err(Decline::Rules { rules: "japanese".into(), allowed: vec!["chinese".into()] })
        );
        let p = Policy { rules: Vec::new(), ..p };
        assert_eq!(p.accepts(&offer(9, 0, Some(5))), Ok(()));
        assert_eq!(p.accepts(&offer(9, 0, Some(30))), Err(Decline::MainTime { minutes: 30, max: 10 }));
        assert_eq!(p.accepts(&offer(9, 0, None)), Err(Decline::Untimed));
        assert_eq!(p.accepts(&offer(9, 3, Some(5))), Err(Decline::Handicap));
    }
}
