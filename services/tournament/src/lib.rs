//! # weiqi-tournament: the tournament service
//!
//! Every tournament is its own event log (`AggregateKind::Tournament`, one subject per tournament),
//! decided by the pure core [`weiqi_pairing`]. This crate is the shell around it:
//!
//! - [`aggregate`] (pure): the tournament as the service keeps it (the core's state, [`settings`],
//!   accounts, publications), [`aggregate::decide`] (every tournament rule deferred to
//!   `weiqi_pairing::decide`), published standings with each placing's games and byes.
//! - [`service::TournamentService`]: the tournament on the one aggregate runner
//!   ([`weiqi_aggregate::Runner`]): cached state, catch-up, append with the expected sequence and the
//!   command id, bounded conflict retry, one duplicate policy; faults append nothing.
//! - [`manager::ProcessManager`]: round paired → every game created in the game service (ruleset,
//!   time control, handicap and colors of the pairing; deterministic ids); `GameEnded` → result
//!   recorded; round completed → next round paired (when the settings ask); no-shows forfeited
//!   (`ClaimNoShow`); games the tournament decided closed. Crash-safe: idempotent commands and
//!   stored positions ([`ids`] lists every derived id).
//! - [`projector::Projector`] and [`read_model`]: standings and pairings in Redis (sorted sets and
//!   hashes, [`redis_model`]) or in memory ([`memory`]), behind one trait, rebuildable from the logs.
//! - [`authority`] (pure): who may act on a tournament and as whom (its event's staff), who may
//!   create one (its event's organisers).
//! - [`api::TournamentApi`]: the service as the edges in this process call it, over domain values (a
//!   caller, a command): the authority first, then the service; reads from the read model. The
//!   organiser's desk calls it directly.
//! - [`grpc::TournamentGateway`]: `weiqi.v1.TournamentService` (proto/weiqi/v1/tournament.proto): a
//!   request's token and protobuf made a caller and domain values for the same API.
//! - [`directory::PlayerDirectory`]: where registration snapshots come from when the request does not
//!   carry one (the ranking service's registry, once plugged in).
//!
//! ## The log's encoding
//! Each stored event is an encoded `weiqi.v1.TournamentEventEnvelope` (ids, sequence, server time,
//! causation, actor). Its body is one of:
//! - `core`: a **core event as a typed message**, `TournamentCoreEvent`
//!   (proto/weiqi/v1/tournament_events.proto), one variant per `weiqi_pairing::event::TournamentEvent`
//!   and field by field below it (configuration and format, registrations, lots, paired games with
//!   their pairing costs, byes, team matches, brackets, results, corrections, withdrawals with their
//!   rulings, the champion). [`codec`] maps it both ways; reading refuses, naming the field, a message
//!   that lacks a field the core always has, a number the core's type cannot hold, or an enum value
//!   this version does not know: nothing is defaulted.
//! - `settings`, `entrant`: typed messages for what only the service knows: `TournamentGameSettings`
//!   (recorded with `Created`) and `TournamentEntrant` (the platform account of a player, recorded with
//!   `PlayerRegistered`). `published` (read-only: `TournamentStandingsPublished`, as earlier versions
//!   stored official placings).
//!
//! Official placings are a **public event**: type `weiqi.v1.TournamentResultsPublished`, the message
//! of that name the whole payload (no envelope), each placing with the games the entrant played and
//! their byes, so the ranking service reads tournaments' results without the private envelope
//! ([`codec::log::RESULTS_PUBLISHED`]).
//! - `domain` (read-only): the core event as **versioned JSON**,
//!   `TournamentDomainEvent { type, schema: 1, json }` (serde's externally tagged form of
//!   `TournamentEvent`), as versions before the typed encoding wrote it.
//!
//! Recorded and corrected results also carry a `TournamentResultFact` (round, table, game id, both
//! accounts, outcome) beside the body, for consumers that only want results.
//!
//! **Upgrade path.** Logs are append-only, so events written as JSON stay JSON. [`aggregate::Body`]
//! reads both encodings into the same `TournamentEvent` ([`convert::core_from_pb`],
//! [`convert::domain_from_pb`]) and writes only `core`: a log written by an earlier version replays
//! unchanged, and every event appended to it from now on is typed, so a log may mix the two. The JSON
//! reader is frozen at schema 1; the typed messages evolve as protobuf does (new fields and variants
//! under fresh numbers, never reused).
//!
//! ## Example
//! ```
//! use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog};
//! use weiqi_pairing::command::Command;
//! use weiqi_pairing::config::{Format, TournamentConfig};
//! use weiqi_pairing::ids::PlayerId;
//! use weiqi_pairing::rank::Rank;
//! use weiqi_pairing::registration::Registration;
//! use weiqi_game::domain::Actor;
//! use weiqi_tournament::aggregate::TournamentCommand;
//! use weiqi_tournament::service::TournamentService;
//! use weiqi_tournament::settings::GameSettings;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! let log = AnyEventLog::Embedded(EmbeddedLog::open(dir.path().join("e.redb"), EmbeddedConfig::default())?);
//! let svc = TournamentService::new(log);
//! let organiser = Actor::Organiser("org".into());
//! let config = TournamentConfig::new("Club Swiss", Format::Swiss { rounds: 3 }, 7);
//! let settings = GameSettings::default();
//! svc.execute("club", "c1", &organiser, &TournamentCommand::Create { config, settings }).await?;
//! for i in 1..=4 {
//!     let registration = Registration::new(PlayerId(0), &format!("Player {i}"), Rank::Kyu(i));
//!     let cmd = TournamentCommand::Register { account: format!("acct-{i}"), registration };
//!     svc.execute("club", &format!("r{i}"), &organiser, &cmd).await?;
//! }
//! svc.execute("club", "s", &organiser, &TournamentCommand::Core(Command::Start)).await?;
//! let paired = svc.execute("club", "p1", &organiser, &TournamentCommand::PairRound { round: Some(1) }).await?;
//! assert!(!paired.duplicate);
//! // A retry of the same request appends nothing and answers with the same events.
//! let again = svc.execute("club", "p1", &organiser, &TournamentCommand::PairRound { round: Some(1) }).await?;
//! assert!(again.duplicate && again.events == paired.events);
//! let games = svc.read("club", |t| t.core.rounds[0].games.len()).await?;
//! assert_eq!(games, Some(2));
//! # Ok(())
//! # }
//! ```
//!
//! ## Invariants
//! - **The log is the only truth.** The service's cache, the manager's tracks and the read model are
//!   all rebuilt from the tournament and game logs.
//! - **Every append names the expected sequence and a command id.** Commands the service issues on
//!   its own have ids derived from tournament, round and table, so no game is created twice, no
//!   result recorded twice and no round paired twice, whatever crashes or retries.
//! - **Pairing a round names the round** (`PairRound { round }`): a replayed request is refused
//!   rather than pairing the round after.
//! - **The read model is idempotent**: every write carries the last tournament-log sequence it folds
//!   and is ignored unless it is newer.
//! - **Only staff command**: organisers and referees of the tournament's event (creating: an
//!   organiser of it); any authenticated caller reads.
//! - This crate decides no tournament rule (that is `weiqi-pairing`) and no game rule (that is
//!   `weiqi-game`); only `convert.rs` and [`codec`] map the core's types to protobuf.

pub mod aggregate;
pub mod api;
pub mod authority;
pub mod codec;
pub mod convert;
pub mod directory;
pub mod facts;
pub mod grpc;
pub mod ids;
pub mod manager;
pub mod memory;
pub mod projector;
pub mod read_model;
pub mod redis_model;
pub mod service;
pub mod settings;
pub mod views;
