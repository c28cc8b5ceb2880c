//! # weiqi-pairing: the pure tournament core
//!
//! Formats, pairing, standings, rulings and exports for the association's competitions, from a
//! 16-player knockout to a 10,000-player online McMahon league (RULES.md section 4, Art. 25–28,
//! seeds 001 and 004). The crate is an event-sourced aggregate plus the pure functions it is
//! built from:
//!
//! - [`decide()`](decide::decide)`(&Tournament, &Command, now) -> Result<Vec<TournamentEvent>, Rejection>`
//!   and [`evolve()`](state::evolve)`(&mut Tournament, &TournamentEvent)`. A service loads the log,
//!   folds it with `evolve`, decides, appends, publishes. [`Tournament::replay`](state::Tournament::replay)
//!   rebuilds the state from a log.
//! - [`swiss::pair_round`]: Swiss and McMahon pairing by maximum-weight matching (Edmonds'
//!   blossom, `integer-blossom`), exact for fields up to ~380 players and in overlapping windows by
//!   score above that; the criteria and their weights are documented in [`weights`].
//! - [`standings::standings`] and [`team::team_standings`]: points, every Art. 27 tie-break,
//!   McMahon SOSM/SOSOSM, and the tie-break that decided each tied place.
//! - [`explain::explain_pairing`]: why A met B, and why not the nearby alternatives.
//! - [`export`]: standings and pairings as CSV, results as an EGD `.h9` table.
//! - [`simulate`]: tournaments driven through `decide` with seeded results, and synthetic fields (tests, benchmarks).
//!
//! ## Formats ([`config::Format`])
//! Knockout (single with a seeded bracket; double and multi-loss elimination by loss groups),
//! round robin by Berger tables (single, double, multiple; balanced colors), Swiss (积分编排),
//! McMahon (bars), Swiss plus multi-loss elimination (the field kept even by reprieves), best-of-N
//! matches, groups then a cross knockout (seed 001), team events (fixed board order or line-ups
//! per match; round robin or Swiss), full team rotation, and 擂台赛 win-and-continue. Each format's
//! round logic has its own file under `src/rounds/` (module [`rounds`], which lists them).
//!
//! ## Example
//! ```
//! use weiqi_pairing::command::Command;
//! use weiqi_pairing::config::{Format, TournamentConfig};
//! use weiqi_pairing::decide::decide;
//! use weiqi_pairing::ids::{Color, GameRef, Millis, PlayerId};
//! use weiqi_pairing::outcome::GameResult;
//! use weiqi_pairing::rank::Rank;
//! use weiqi_pairing::registration::Registration;
//! use weiqi_pairing::standings::standings;
//! use weiqi_pairing::state::{Tournament, evolve};
//!
//! let mut t = Tournament::default();
//! let mut run = |t: &mut Tournament, cmd: Command| {
//!     for e in decide(t, &cmd, Millis(0)).expect("accepted") {
//!         evolve(t, &e);
//!     }
//! };
//! let config = TournamentConfig::new("Club Swiss", Format::Swiss { rounds: 3 }, 2026);
//! run(&mut t, Command::Create { config });
//! for i in 1..=4 {
//!     let registration = Registration::new(PlayerId(i), &format!("Player {i}"), Rank::Kyu(i as u8));
//!     run(&mut t, Command::Register { registration });
//! }
//! run(&mut t, Command::Start);
//! run(&mut t, Command::PairRound);
//! assert_eq!(t.rounds[0].games.len(), 2);
//! for table in 1..=2 {
//!     let game = GameRef { round: 1, table };
//!     run(&mut t, Command::RecordResult { game, result: GameResult::win(Color::Black) });
//! }
//! assert!(t.rounds[0].completed);
//! let st = standings(&t);
//! assert_eq!(st.rows.len(), 4);
//! ```
//!
//! ## Invariants
//! - **Pure.** No IO, no async, no clock: time is the `now` argument (and the benchmark's timer is
//!   a closure the caller passes). Every random choice (lots, nigiri) comes from the seed in the
//!   `Created` event through [`lot`] and is recorded in an event, so a log replays identically.
//! - **`evolve` is total**: events are facts; `decide` is where commands are checked.
//! - **Swiss and McMahon never pair a rematch** and never give a second bye; if no such pairing
//!   exists the command is rejected (`Rejection::Pairing`), never silently degraded. Elimination
//!   formats, whose fields shrink, may fall back to a rematch rather than stop.
//! - **Standings are a function of the state**: a corrected result (Art. 23.1) changes them with no
//!   further event; withdrawals carry their Art. 28 ruling in the event.
//! - This crate knows nothing of NATS, Redis, protobuf or the game service; the tournament service
//!   wraps it.

pub mod berger;
pub mod bracket;
pub mod colors;
pub mod command;
pub mod config;
pub mod decide;
pub mod event;
pub mod explain;
pub mod export;
pub mod h9;
pub mod ids;
pub mod lot;
pub mod matching;
pub mod opengotha;
pub mod outcome;
pub mod rank;
pub mod ratio;
pub mod record;
pub mod registration;
pub mod rejection;
pub mod romanize;
pub mod rounds;
pub mod seeding;
pub mod simulate;
pub mod standings;
pub mod state;
pub mod swiss;
pub mod team;
pub mod weights;
