//! Challenges: a casual game one member offers, to a named member or to anyone, with its board size,
//! rules preset, handicap and komi, and time system. The other accepts (the game is created at once,
//! through the gateway's `CreateGame` with the accepter's session, so the same checks apply: a player
//! may create a casual game of their own, rated or not), declines, or the challenger cancels.
//!
//! Open challenges are offers, not records: the game a challenge becomes is an ordinary game log
//! like every other. On the embedded log (one process) they live in its memory (a restart withdraws
//! them; the lobby says so on the challenge form). On JetStream they are a key-value bucket every
//! gateway sees (issue 31 item 5): `weiqi_challenges`, one key per offer, kept at most a week. Each
//! gateway mirrors the bucket (a watch of it) for its lobby pages and pokes them when it changes;
//! accepting, declining and cancelling delete the key *at the revision read*, so of two gateways
//! taking one offer at once exactly one succeeds.

use std::collections::BTreeMap;
use std::sync::Mutex;

use weiqi_clock::{ControlError, DurationMs, TimeControl, TimeSystem};

/// The time systems a challenge offers: every system the clock core has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TimeSpec {
    /// The system.
    pub system: TimeChoice,
    /// Main (basic) time, minutes.
    pub main_minutes: u32,
    /// And seconds (0–59), for fast games.
    #[serde(default)]
    pub main_seconds: u32,
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
            main_seconds: 0,
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
    /// A rated game that is not 19×19 with a clock.
    #[error("a rated game is played on 19×19 with a clock")]
    RatedNeeds,
}

fn ranged(field: &'static str, v: i64, min: i64, max: i64) -> Result<i64, FormError> {
    if (min..=max).contains(&v) { Ok(v) } else { Err(FormError::OutOfRange { field, min, max }) }
}

impl TimeSpec {
    /// The form's figures of a game's time control (a rematch offers the same clock).
    #[must_use]
    pub fn of(control: &TimeControl) -> TimeSpec {
        let d = TimeSpec::default();
        let split = |m: DurationMs| {
            let s = u32::try_from(m.as_millis().max(0) / 1000).unwrap_or(u32::MAX);
            (s / 60, s % 60)
        };
        let secs = |m: DurationMs| u32::try_from(m.as_millis().max(0) / 1000).unwrap_or(u32::MAX);
        let with = |system, main: DurationMs| {
            let (main_minutes, main_seconds) = split(main);
            TimeSpec { system, main_minutes, main_seconds, ..d.clone() }
        };
        match control.system {
            TimeSystem::NoClock => TimeSpec { system: TimeChoice::None, ..d.clone() },
            TimeSystem::Absolute { main } => with(TimeChoice::Absolute, main),
            TimeSystem::ChineseByoYomi { basic, reserved_minutes } => {
                TimeSpec { periods: reserved_minutes, ..with(TimeChoice::Chinese, basic) }
            }
            TimeSystem::JapaneseByoYomi { main, periods, period } => {
                TimeSpec { periods, period_seconds: secs(period), ..with(TimeChoice::Japanese, main) }
            }
            TimeSystem::MovesPerPeriod { main, moves, period } => {
                TimeSpec { moves, period_seconds: secs(period), ..with(TimeChoice::MovesPerPeriod, main) }
            }
            TimeSystem::Canadian { main, moves, period } => {
                TimeSpec { moves, period_seconds: secs(period), ..with(TimeChoice::Canadian, main) }
            }
            TimeSystem::Fischer { initial, increment, .. } => {
                TimeSpec { increment_seconds: secs(increment), ..with(TimeChoice::Fischer, initial) }
            }
        }
    }

    /// Checks every field the system uses.
    ///
    /// # Errors
    /// The first field out of range.
    pub fn check(&self) -> Result<(), FormError> {
        use TimeChoice as T;
        if self.system != T::None {
            ranged("field-main-minutes", self.main_minutes.into(), 0, 600)?;
            ranged("field-main-extra-seconds", self.main_seconds.into(), 0, 59)?;
            // Absolute time and Fischer need some time to start with.
            if matches!(self.system, T::Absolute | T::Fischer) && self.main_minutes == 0 && self.main_seconds == 0 {
                return Err(FormError::OutOfRange { field: "field-main-extra-seconds", min: 1, max: 59 });
            }
        }
        match self.system {
            T::Japanese => {
                ranged("field-periods", self.periods.into(), 1, 60)?;
            }
            // The reserved minutes are part of the basic time (Chinese rules): no more than it holds.
            T::Chinese => {
                ranged("field-reserved-minutes", self.periods.into(), 1, self.main_minutes.clamp(1, 60).into())?;
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
        let seconds = |x: u32| DurationMs(i64::from(x) * 1000);
        let main = DurationMs(i64::from(self.main_minutes) * 60_000 + i64::from(self.main_seconds) * 1000);
        let system = match self.system {
            TimeChoice::None => TimeSystem::NoClock,
            TimeChoice::Absolute => TimeSystem::Absolute { main },
            TimeChoice::Chinese => TimeSystem::ChineseByoYomi { basic: main, reserved_minutes: self.periods },
            TimeChoice::Japanese => {
                TimeSystem::JapaneseByoYomi { main, periods: self.periods, period: seconds(self.period_seconds) }
            }
            TimeChoice::MovesPerPeriod => {
                TimeSystem::MovesPerPeriod { main, moves: self.moves, period: seconds(self.period_seconds) }
            }
            TimeChoice::Canadian => {
                TimeSystem::Canadian { main, moves: self.moves, period: seconds(self.period_seconds) }
            }
            TimeChoice::Fischer => {
                TimeSystem::Fischer { initial: main, increment: seconds(self.increment_seconds), cap: None }
            }
        };
        TimeControl::new(system)
    }
}

/// Who plays Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ColorChoice {
    /// Nigiri (猜先).
    Nigiri,
    /// The challenger takes Black.
    Black,
    /// The challenger takes White.
    White,
}

/// An offer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Seconds the opponent may be away before a player may claim the win (`None`: 3 minutes).
    #[serde(default)]
    pub absence_claim_seconds: Option<u32>,
    /// Komi in half points (`None`: the preset's).
    pub komi_half_points: Option<i32>,
    /// Colours.
    pub color: ColorChoice,
    /// Time.
    pub time: TimeSpec,
    /// Whether the game is rated (19×19 with a clock; the game's domain decides).
    #[serde(default)]
    pub rated: bool,
    /// The challenger's rank in the registry when the offer was made ("" when not registered), for
    /// the open-seek list's rank band.
    #[serde(default)]
    pub by_rank: String,
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

/// The open challenges: this process's mirror, and the bucket behind it when there is one.
#[derive(Default)]
pub struct Challenges {
    open: std::sync::Arc<Mutex<BTreeMap<String, Challenge>>>,
    bucket: std::sync::OnceLock<async_nats::jetstream::kv::Store>,
}

/// The bucket of open challenges on JetStream.
pub const BUCKET: &str = "weiqi_challenges";

/// Why the shared challenges could not be read or written.
#[derive(Debug, thiserror::Error)]
#[error("the challenges' store is unreachable: {0}")]
pub struct StoreError(String);

fn store_error(e: impl std::fmt::Display) -> StoreError {
    StoreError(e.to_string())
}

impl Challenges {
    /// Shares the challenges through JetStream from now on: opens (or creates) the bucket, mirrors
    /// it, and calls `changed` whenever an offer comes or goes, from any gateway.
    ///
    /// # Errors
    /// JetStream is unreachable or refuses the bucket.
    pub async fn share_through(
        &self,
        client: async_nats::Client,
        changed: impl Fn() + Send + Sync + 'static,
    ) -> Result<(), StoreError> {
        use futures::StreamExt;
        let week = std::time::Duration::from_secs(7 * 24 * 3600);
        let bucket = crate::kv::bucket(client, BUCKET, "open casual-game offers (weiqi web lobby)", week)
            .await
            .map_err(store_error)?;
        let mut watch = bucket.watch_with_history(">").await.map_err(store_error)?;
        let mirror = self.open.clone();
        tokio::spawn(async move {
            while let Some(entry) = watch.next().await {
                let Ok(entry) = entry else { continue };
                let mut open = mirror.lock().expect("challenges lock");
                match entry.operation {
                    async_nats::jetstream::kv::Operation::Put => match serde_json::from_slice(&entry.value) {
                        Ok(c) => {
                            open.insert(entry.key, c);
                        }
                        Err(e) => tracing::warn!(key = entry.key, "an unreadable challenge is skipped: {e}"),
                    },
                    _ => {
                        open.remove(&entry.key);
                    }
                }
                drop(open);
                changed();
            }
            tracing::warn!("the challenges' watch ended: this gateway's lobby no longer sees other gateways' offers");
        });
        let _ = self.bucket.set(bucket);
        Ok(())
    }

    /// Whether the challenges are shared through JetStream (they then outlive a restart, for a week).
    pub fn shared(&self) -> bool {
        self.bucket.get().is_some()
    }

    fn mirror(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Challenge>> {
        self.open.lock().expect("challenges lock")
    }

    /// Offers `c`.
    ///
    /// # Errors
    /// The shared store is unreachable (nothing is offered).
    pub async fn offer(&self, c: Challenge) -> Result<(), StoreError> {
        if let Some(bucket) = self.bucket.get() {
            let value = serde_json::to_vec(&c).map_err(store_error)?;
            bucket.put(&c.id, value.into()).await.map_err(store_error)?;
        }
        self.mirror().insert(c.id.clone(), c);
        Ok(())
    }

    /// The challenges `member` may see: their own, those to them, and open ones.
    pub fn visible_to(&self, member: &str) -> Vec<Challenge> {
        let open = self.mirror();
        open.values().filter(|c| c.by == member || c.to.as_deref().is_none_or(|t| t == member)).cloned().collect()
    }

    /// Removes `id` if `allowed` says `member` may: from the bucket at the revision read, so that
    /// one remover only succeeds.
    async fn remove_if(
        &self,
        id: &str,
        allowed: impl Fn(&Challenge) -> bool,
    ) -> Result<Result<Challenge, ChallengeError>, StoreError> {
        let Some(bucket) = self.bucket.get() else {
            let mut open = self.mirror();
            let Some(c) = open.get(id) else { return Ok(Err(ChallengeError::Gone)) };
            if !allowed(c) {
                return Ok(Err(ChallengeError::NotYours));
            }
            return Ok(Ok(open.remove(id).expect("present")));
        };
        let entry = match bucket.entry(id).await {
            Ok(Some(e)) if e.operation == async_nats::jetstream::kv::Operation::Put => e,
            Ok(_) => return Ok(Err(ChallengeError::Gone)),
            // Not a key a challenge could have (ids are UUIDs).
            Err(e) if matches!(e.kind(), async_nats::jetstream::kv::EntryErrorKind::InvalidKey) => {
                return Ok(Err(ChallengeError::Gone));
            }
            Err(e) => return Err(store_error(e)),
        };
        let c: Challenge = serde_json::from_slice(&entry.value).map_err(store_error)?;
        if !allowed(&c) {
            return Ok(Err(ChallengeError::NotYours));
        }
        match bucket.delete_expect_revision(id, Some(entry.revision)).await {
            Ok(()) => {
                self.mirror().remove(id);
                Ok(Ok(c))
            }
            // Another gateway took, declined or cancelled it first.
            Err(e) if matches!(e.kind(), async_nats::jetstream::kv::DeleteErrorKind::WrongLastRevision) => {
                Ok(Err(ChallengeError::Gone))
            }
            Err(e) => Err(store_error(e)),
        }
    }

    /// Takes `id` out to accept it (anyone but the challenger, if it is open or addressed to them).
    ///
    /// # Errors
    /// The shared store is unreachable; inside, gone or not addressed to `member`.
    pub async fn take_for(&self, id: &str, member: &str) -> Result<Result<Challenge, ChallengeError>, StoreError> {
        self.remove_if(id, |c| c.by != member && c.to.as_deref().is_none_or(|t| t == member)).await
    }

    /// Puts a taken challenge back (the game could not be created).
    ///
    /// # Errors
    /// The shared store is unreachable.
    pub async fn put_back(&self, c: Challenge) -> Result<(), StoreError> {
        self.offer(c).await
    }

    /// Declines (the one challenged) or cancels (the challenger) `id`.
    ///
    /// # Errors
    /// The shared store is unreachable; inside, gone or `member` is neither.
    pub async fn withdraw(
        &self,
        id: &str,
        member: &str,
        cancel: bool,
    ) -> Result<Result<Challenge, ChallengeError>, StoreError> {
        self.remove_if(id, |c| if cancel { c.by == member } else { c.to.as_deref() == Some(member) }).await
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
            absence_claim_seconds: None,
            color: ColorChoice::Nigiri,
            time: TimeSpec::default(),
            rated: false,
            by_rank: String::new(),
        }
    }

    #[tokio::test]
    async fn given_a_challenge_to_wang_when_li_or_zhao_act_then_only_the_right_one_may() {
        let all = Challenges::default();
        all.offer(offer("li", Some("wang"))).await.unwrap();
        assert_eq!(all.visible_to("zhao").len(), 0, "a challenge to wang is not shown to zhao");
        assert_eq!(all.take_for("c-li", "zhao").await.unwrap(), Err(ChallengeError::NotYours));
        assert_eq!(all.take_for("c-li", "li").await.unwrap(), Err(ChallengeError::NotYours), "no accepting one's own");
        assert_eq!(
            all.withdraw("c-li", "li", false).await.unwrap(),
            Err(ChallengeError::NotYours),
            "the challenger cancels, not declines"
        );
        assert!(all.take_for("c-li", "wang").await.unwrap().is_ok());
        assert_eq!(all.take_for("c-li", "wang").await.unwrap(), Err(ChallengeError::Gone));
    }

    #[tokio::test]
    async fn an_open_challenge_is_for_anyone_and_the_challenger_cancels_it() {
        let all = Challenges::default();
        all.offer(offer("li", None)).await.unwrap();
        assert_eq!(all.visible_to("zhao").len(), 1);
        assert_eq!(all.withdraw("c-li", "zhao", true).await.unwrap(), Err(ChallengeError::NotYours));
        assert!(all.withdraw("c-li", "li", true).await.unwrap().is_ok());
        assert!(all.visible_to("zhao").is_empty());
    }

    /// Two gateways on one nats-server: an offer made through one is seen and taken through the
    /// other, and of two takers at once exactly one has it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn gateways_on_one_nats_server_share_their_challenges() {
        let Some(nats) = weiqi_testkit::skip_or_fail(weiqi_testkit::NatsServer::start_async().await) else { return };
        let connect = || async { async_nats::connect(nats.url()).await.unwrap() };
        let pokes = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (a, b) = (Challenges::default(), Challenges::default());
        a.share_through(connect().await, || {}).await.unwrap();
        let seen = pokes.clone();
        b.share_through(connect().await, move || {
            seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .await
        .unwrap();
        let mut c = offer("li", None);
        c.id = uuid::Uuid::new_v4().to_string();
        a.offer(c.clone()).await.unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while b.visible_to("wang").is_empty() {
            assert!(std::time::Instant::now() < deadline, "B never saw A's offer");
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert!(pokes.load(std::sync::atomic::Ordering::Relaxed) > 0, "B's lobby was told");
        assert_eq!(b.visible_to("wang")[0], c);
        // Wang through B and Zhao through A accept at once: one game, not two.
        let (x, y) = tokio::join!(b.take_for(&c.id, "wang"), a.take_for(&c.id, "zhao"));
        let (x, y) = (x.unwrap(), y.unwrap());
        assert!(x.is_ok() != y.is_ok(), "exactly one taker: {x:?} {y:?}");
        assert_eq!([&x, &y].iter().filter(|r| r.as_ref().err() == Some(&ChallengeError::Gone)).count(), 1);
        while !a.visible_to("li").is_empty() || !b.visible_to("li").is_empty() {
            assert!(std::time::Instant::now() < deadline, "the taken offer stayed listed");
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }

    #[test]
    fn time_fields_are_range_checked_for_the_system_that_uses_them() {
        let mut t = TimeSpec::default();
        assert!(t.check().is_ok());
        t.periods = 0;
        assert_eq!(t.check(), Err(FormError::OutOfRange { field: "field-reserved-minutes", min: 1, max: 10 }));
        t.system = TimeChoice::Japanese;
        assert_eq!(t.check(), Err(FormError::OutOfRange { field: "field-periods", min: 1, max: 60 }));
        t.system = TimeChoice::Fischer;
        assert!(t.check().is_ok(), "Fischer has no periods");
        t.main_minutes = 0;
        assert!(t.check().is_err(), "Fischer needs time to start with");
        t.main_seconds = 45;
        assert!(t.check().is_ok(), "45 seconds is some");
        assert_eq!(
            t.to_control().unwrap().system,
            TimeSystem::Fischer { initial: DurationMs(45_000), increment: DurationMs(10_000), cap: None }
        );
        t.main_seconds = 60;
        assert!(t.check().is_err(), "seconds are 0 to 59");
        let chinese = TimeSpec::default().to_control().expect("a usable control");
        assert_eq!(chinese.system, TimeSystem::ChineseByoYomi { basic: DurationMs(600_000), reserved_minutes: 3 });
        // Chinese byo-yomi reserves whole minutes of the basic time: never more than it holds.
        let mut c = TimeSpec { main_minutes: 2, periods: 3, ..TimeSpec::default() };
        assert_eq!(c.check(), Err(FormError::OutOfRange { field: "field-reserved-minutes", min: 1, max: 2 }));
        c.periods = 2;
        assert!(c.check().is_ok());
    }
}
