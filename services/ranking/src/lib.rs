//! `weiqi-ranking`: the ranking service of the association.
//!
//! The pure decisions live in `weiqi-rating` (ratings, ranks, promotion rules, certification cases,
//! certificates) and in [`domain`] (the three aggregates and their refusals). Everything else is the
//! shell around them, on the one aggregate runner ([`weiqi_aggregate::Runner`]).
//!
//! # Module map
//!
//! * [`domain`] — **pure**: [`domain::player`] (registry entry, grades held, rating and rank history;
//!   decide/evolve), [`domain::ledger`] (the rating ledger: the rating book plus where the game follower
//!   resumes; its events are ledger entries, and the rating points each entry records in the players'
//!   logs), [`domain::case`] (orders of the rating core's case commands; serials, revocations),
//!   [`domain::RankingRejection`] (every refusal: a stable code and a kind).
//! * [`aggregate`] — the three aggregates as [`weiqi_aggregate::Aggregate`]s: the domain decides and
//!   evolves, the codec stores; which part of a command the duplicate digest covers.
//! * [`codec`] — stored events ⇄ `weiqi.v1` protobuf (`RankingEnvelope` with a typed body; the JSON
//!   bodies earlier versions wrote are still read), and the event type names.
//! * [`registry::PlayerRegistry`], [`ledger::RatingLedger`], [`cases::CertificationDesk`] — each
//!   aggregate on its runner, with only the lock it needs (below).
//! * [`service::RankingService`] — composes them: registration with a declared rank (seeded in the
//!   book); rating every rated game when its `GameEnded` lands in the game log ([`games`] replays the
//!   log, hashes checked) and tournaments as they finish; certification cases with evidence verified
//!   against the game logs and the tournament results ([`evidence`], [`tournaments`]: the results
//!   port), the automatic check against the association's rule table, review, certificates signed with
//!   the association's Ed25519 key, revocation and the signed revocation list; automatic promotion
//!   proposals. Time comes from an injected [`weiqi_aggregate::Environment`].
//! * [`projector::RankingProjector`] and [`readmodel`]: leaderboards by rank band and region and the
//!   rating and rank histories, in Redis or in memory behind one trait.
//! * [`tournaments`]: the port for events' final results ([`tournaments::TournamentResults`]), over
//!   the tournament service's own log ([`tournaments::TournamentLog`]) or over `weiqi.v1.RankingResults`
//!   messages ([`tournaments::ResultsLog`]). [`convert`] is the path it reads the results codec from.
//! * Edges that know protobuf: [`codec`], [`grpc`] (`weiqi.v1.RankingService` at the gateway, role
//!   checks, the views in [`grpc::views`]), [`directory`] (the registry as the tournament service's
//!   player directory reads it) and [`tournaments`].
//! * [`recompute`]: all ratings rebuilt from the logs, to compare with the live values. [`keys`]: the
//!   association's signing key on disk. (`weiqi bench ratings` lives in the `weiqi` binary.)
//!
//! # Locks
//!
//! * Every aggregate: the runner's per-aggregate async lock (one writer per player, ledger, case in
//!   process) and the expected sequence across instances. The player registry needs nothing more.
//! * [`ledger::RatingLedger`]: a tokio mutex around *append an entry, then fan it out to the players'
//!   logs*, so only the last entry can be half fanned out after a crash; held across appends.
//! * [`cases::CertificationDesk`]: a std mutex over the index of every case (the runner cannot list
//!   aggregates; never held across an await), and a tokio mutex that makes an automatic proposal's
//!   *no open case in this ladder? then open one* one step (held across the verification and the
//!   append; it guards the final results seen too).
//! * [`service::RankingService`]: a once-cell for the start repairs (every request waits for them).
//!
//! # Example: register, rate, read
//!
//! ```no_run
//! use std::sync::Arc;
//! use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog};
//! use weiqi_rating::{AssociationKey, PlayerId};
//! use weiqi_ranking::{RankingConfig, RankingProjector, RankingService, MemoryReadModel, ReadModel, Board};
//! use weiqi_ranking::registry::Profile;
//! use weiqi_ranking::tournaments::ResultsLog;
//!
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! let log: AnyEventLog = EmbeddedLog::open("events.redb", EmbeddedConfig::default())?.into();
//! let key = AssociationKey::from_seed("cwa", [7; 32])?;
//! let rules = weiqi_ranking::shipped_rules();
//! let service = Arc::new(RankingService::new(
//!     log.clone(),
//!     Arc::new(ResultsLog::new(log.clone())),
//!     RankingConfig::new(key, rules),
//! ));
//! let li = Profile { id: PlayerId::from("li"), name_zh: "李明".into(), name_latin: "Li Ming".into(),
//!                    region: "shanghai".into(), ..Profile::default() };
//! service.register_player(li, Some("1k"), "registrar", "req-1").await?;
//! tokio::spawn(service.clone().run()); // rates games as they end
//!
//! let model = MemoryReadModel::new();
//! let projector = RankingProjector::new(log.clone(), model.clone().into());
//! projector.catch_up().await?;
//! let top = model.leaderboard(&Board::all(), 0, 50).await?;
//! # let _ = top; Ok(()) }
//! ```
//!
//! # Logs
//!
//! | aggregate | kind | id | events |
//! | --- | --- | --- | --- |
//! | a player | `player` | player id | `PlayerRegistered`, `PlayerProfileUpdated`, `RatingChanged`, `RankChanged`, `PromotionProposed` (protobuf) |
//! | the rating ledger | `player` | `_ledger-<system>` | ledger entries: rating input + rating-core events (`RatingLedgerEntry`) |
//! | a case | `case` | `case-<32 hex>` | the rating core's case events (`CertificationCaseEvent`) |
//! | final results | `tournament` | `results-<tournament>` | `weiqi.v1.RankingResults` |
//!
//! Every stored event is a `weiqi.v1.RankingEnvelope` with a typed body. Ledger and case events mirror
//! the rating core's types field by field (`proto/weiqi/v1/ranking_events.proto`, converted in
//! [`codec`]); the versioned JSON that earlier versions wrote for them is still read. Every append
//! carries the runner's command digest header.
//!
//! # Invariants
//!
//! * [`domain`] imports nothing async and no protobuf; only the edges above know the `weiqi.v1` types.
//! * The logs are the only source of truth: the service's memory and the read models are rebuilt
//!   from them; recomputing all ratings from the logs gives exactly (bit for bit) the live values.
//! * Only games created as rated, with a result that counts, change ratings; a game log that does
//!   not replay is never acted on.
//! * Evidence is verified against the logs when attached, never taken from the applicant.
//! * Every append names the expected sequence and a deterministic command id. The runner's duplicate
//!   policy: the same command id for the same command from the same actor is answered with the
//!   original outcome; the same id for anything else is refused (`request_id_reused`). A decision that
//!   changes nothing appends nothing.
//! * A ledger entry reaches the players' logs before the next entry is appended.
//! * A certificate is only issued for an approved case and matches it; its grade is recorded in the
//!   player's log; a revocation takes it back and enters the signed revocation list.
//! * Player ids starting with `_` are refused (reserved for the ledger).

pub mod aggregate;
pub mod api;
pub mod authority;
pub mod cases;
pub mod codec;
pub mod convert;
pub mod directory;
pub mod domain;
pub mod error;
pub mod evidence;
pub mod games;
pub mod grpc;
pub mod keys;
pub mod ledger;
mod logs;
pub mod projector;
pub mod readmodel;
pub mod recompute;
pub mod registry;
pub mod rules_dir;
pub mod service;
pub mod tournaments;
pub mod views;

pub use cases::{Application, CaseRecord, Verdict};
pub use domain::{RankingRejection, RejectionKind};
pub use error::RankingError;
pub use grpc::RankingGateway;
pub use ledger::RatingReport;
pub use projector::RankingProjector;
pub use readmodel::{AnyReadModel, Board, Leaderboard, MemoryReadModel, ReadModel, ReadModelError, RedisReadModel};
pub use service::{
    ArchiveRating, ArchivedResult, ArchivedWinner, EgdImport, H9Import, RankingConfig, RankingService, RegistryEntry,
};
pub use weiqi_aggregate::{Environment, SystemEnvironment};

/// The example rule files shipped with `weiqi-rating` (amateur, professional, Shanghai and Beijing
/// kyu ladders), loaded and validated.
///
/// # Panics
/// Never: the files are compiled in and tested in `weiqi-rating`.
#[must_use]
pub fn shipped_rules() -> Vec<weiqi_rating::AssociationRules> {
    [
        ("cwa-amateur.toml", include_str!("../../../shared/rating/rules/cwa-amateur.toml")),
        ("professional-example.toml", include_str!("../../../shared/rating/rules/professional-example.toml")),
        ("shanghai-kyu.toml", include_str!("../../../shared/rating/rules/shanghai-kyu.toml")),
        ("beijing-kyu.toml", include_str!("../../../shared/rating/rules/beijing-kyu.toml")),
    ]
    .iter()
    .map(|(file, text)| {
        let mut rules = weiqi_rating::load_rules(text).expect("the shipped rule files are valid");
        rules.name = format!("built-in/{file}");
        rules
    })
    .collect()
}
