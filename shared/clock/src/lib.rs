//! # weiqi-clock: the pure clock core
//!
//! Every time system in the rules (RULES.md section 2, Art. 12, 14, 22), computed only from clock events
//! carrying server timestamps and an instant "now" passed in. Nothing here reads a clock, awaits, logs or
//! does IO; time is integer milliseconds in newtypes ([`Millis`] for instants, [`DurationMs`] for spans).
//! The game service folds the clock on every move and refuses a move after the deadline; the clock service
//! arms a timer at [`Clock::deadline`] and records [`ClockEvent::TimeExpired`]. Both use this crate on the
//! same events, so they cannot disagree.
//!
//! ## Time systems ([`TimeSystem`])
//!
//! | system | rule |
//! | --- | --- |
//! | no clock | nothing is timed |
//! | absolute (包干) | main time only; running out loses |
//! | Chinese byo-yomi | basic time with K reserved minutes: below K minutes a move under 60 s is free, each full 60 s of one move uses a minute, the end of the last minute is time up |
//! | Japanese byo-yomi | main time, then N periods of S (fast forms 30/20/10 s, seed 001: 1 h then 30 s) |
//! | moves per period (定时限步制) | main time, then M moves per period P; unused time carries over |
//! | Canadian | main time, then M moves per period P; the period restarts in full |
//! | Fischer | initial time, increment after each move, optional cap |
//!
//! ## The platform's outage is no player's time (beside Art. 12)
//!
//! Art. 12 charges a player the time their clock runs. A clock that runs while the platform cannot
//! take a move (the server killed and restarted, its event log unreachable) charges the player for a
//! move they could not make. So: **time during which the platform could not take a move is no
//! player's.** The clock service notes, every second, the last moment the log answered; when it
//! learns of an outage (on restart, from the heartbeat file `weiqi up` keeps; when the log answers
//! again) it asks the game service to record `OutageExcused { from, to, reason }` on every running
//! clock the outage overlaps, before any flag. The game folds it as the clock standing still from
//! `from` (never before the game's last event) to `to`, so the clock resumes from the last moment the
//! server could take a move, with the time the player had then. A player whose time ran out before
//! the outage began lost on time then; outages under 2 s are not counted (a late heartbeat).
//!
//! ## Example
//!
//! ```
//! use weiqi_clock::{Clock, ClockEvent, DurationMs, Millis, Side, TimeControl, LagConfig};
//!
//! // A national event: 2 hours with 5 reserved minutes; no lag allowance, to keep the figures round.
//! let control = TimeControl::national(DurationMs::from_hours(2))?.with_lag(LagConfig::NONE)?;
//! let secs = |s: i64| Millis(s * 1_000);
//! let clock = Clock::new(control, Side::Black)?
//!     .apply(&ClockEvent::Started { at: secs(0) })?
//!     // Black thinks for 115 minutes: main time is gone, the 5 reserved minutes remain.
//!     .apply(&ClockEvent::Moved { side: Side::Black, at: secs(115 * 60), report: None })?;
//! assert_eq!(clock.reading(secs(115 * 60)).side(Side::Black).periods_left, 5);
//!
//! // White moves at once; Black takes 125 s: two reserved minutes are used, three are left.
//! let clock = clock
//!     .apply(&ClockEvent::Moved { side: Side::White, at: secs(115 * 60), report: None })?
//!     .apply(&ClockEvent::Moved { side: Side::Black, at: secs(115 * 60 + 125), report: None })?;
//! assert_eq!(clock.bank(Side::Black).periods_left(clock.control()), 3);
//!
//! // White, to move, has used nothing of its 2 hours: the flag falls 2 hours after its turn began.
//! let deadline = secs(115 * 60 + 125 + 120 * 60);
//! assert_eq!(clock.deadline(), Some(deadline));
//! assert!(clock.flag(deadline - DurationMs(1)).is_none());
//! assert_eq!(clock.flag(deadline).map(|f| f.side), Some(Side::White));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Shape
//!
//! - [`Clock`] is an immutable, cheap-to-clone value (the time control sits behind an `Arc`).
//!   [`Clock::apply`] folds one [`ClockEvent`] in O(1); [`replay`] folds a whole log. [`Clock::reading`],
//!   [`Clock::deadline`], [`Clock::flag`], [`Clock::next_call`] and [`Clock::calls_between`] read it at an
//!   instant.
//! - [`Clock::decide`] is the decider for [`ClockCommand`]s (move, pause, seal, correct, prorate, expire…):
//!   it returns the events to record, checked against the clock. [`decide_lateness`] is the decider for
//!   Art. 22 lateness, [`malfunction_ruling`] and [`prorate`] for Art. 22.8.
//! - One [`Bank`] per side holds its time as of the start of its turn; all within-turn figures are
//!   computed from it, the turn's start and "now".
//!
//! ## Invariants
//!
//! - **Time is the server's.** Only event timestamps and the `now` argument enter the arithmetic. Events
//!   must come in time order ([`ClockError::OutOfOrder`]).
//! - **Deterministic.** The same events give the same clock, and the same clock at the same `now` gives
//!   the same reading; replaying a log equals folding it event by event.
//! - **Remaining time never increases except by a rule**: a Fischer increment (never past the cap), a
//!   byo-yomi period starting again after a move made in time, a moves-per-period or Canadian period
//!   renewing after its moves, a referee correction, lag credit within the quota, or an Art. 22.5 pass
//!   (the last period renewed).
//! - **Flag boundary.** The flag falls at the deadline: an action at `deadline - 1 ms` is in time, one at
//!   `deadline` is not ("at '10' the minute is used"). [`Clock::flag`] and a refused
//!   [`ClockEvent::Moved`] use the same comparison.
//! - **No panics on input.** Arithmetic saturates; bad events are [`ClockError`] values.
//!
//! ## Lag compensation (numbers of [`LagConfig::STANDARD`])
//!
//! After scalachess's `LagTracker`. A client may report its lag ([`LagReport::Lag`]) or its own measure of
//! its thinking time ([`LagReport::MoveTime`]); the claim is capped at the server-measured move time, so no
//! move is charged less than zero. Each player has a quota:
//!
//! | figure | value |
//! | --- | --- |
//! | quota at the start | 1,500 ms |
//! | refill after each of the player's moves | +500 ms |
//! | quota cap | 3,500 ms |
//! | flag grace | the quota, at most 1,000 ms |
//!
//! A move's credit is `min(claim, quota)`, and the quota becomes `min(quota - credit + 500 ms, 3,500 ms)`.
//! The deadline is the nominal end of time plus the grace; a move landing in the grace window is credited
//! at least its overrun from the quota. Hence a client, however it lies, gains at most
//! `1,500 ms + 500 ms × its moves` over a game, at most 3,500 ms on one move, and never moves more than
//! 1,000 ms past its nominal time (proved by a property test). [`LagConfig::NONE`] turns it off.
//!
//! ## Referee procedures
//!
//! - Pause and resume (Art. 14): pause time is not charged; the turn continues where it stopped.
//! - Adjournment: [`ClockEvent::Sealed`] charges the sealer's thinking time as a move and stops the clock;
//!   on [`ClockEvent::Resumed`] the sealed move is played (or, on an occupied point, the sealer forfeits a
//!   turn — the game service's part) and the opponent's clock starts.
//! - Corrections (Art. 22.8–9) carry the reason and the referee; a one-sided correction needs the chief
//!   referee. Proration applies when the faulty clock was off by 2 minutes per hour or more.
//! - Lateness (Art. 22.1–4): see [`decide_lateness`].
//! - Art. 22.5: where the event allows it ([`OverrunRule::PassOnRequest`]), a player may ask in advance
//!   ([`ClockEvent::PassOnOverrunRequested`]) that an overrun of the last period count as a pass: the flag
//!   then reports [`ExpiryOutcome::Pass`], the player keeps the last period and the opponent is to move.
//!   Online the request has to be on file before the overrun, as no one can ask after the flag is recorded.

mod bank;
mod byoyomi;
mod calls;
mod clock;
mod error;
mod event;
mod lag;
mod lateness;
mod overtime;
mod reading;
mod referee;
mod side;
mod systems;
mod time;
mod time_control;

pub use bank::{Bank, BankError};
pub use calls::{Call, CallSchedule};
pub use clock::{Clock, MoveCharge, Phase, ReplayError, replay};
pub use error::ClockError;
pub use event::{ClockEvent, CorrectionReason, Expiry, ExpiryOutcome, Referee, RefereeRole};
pub use lag::{LagConfig, LagReport};
pub use lateness::{LatePenalty, LatenessConfig, LatenessRuling, Venue, decide_lateness, rule_absent_expiry};
pub use reading::{Reading, SideReading};
pub use referee::{ClockCommand, MalfunctionRuling, malfunction_ruling, prorate, split_evenly};
pub use side::{BySide, Side};
pub use time::{DurationMs, Millis};
pub use time_control::{ControlError, MAX_COUNT, MAX_DURATION, MINUTE, OverrunRule, TimeControl, TimeSystem};
