//! `weiqi-ranking`: the ranking service of the association.
//!
//! The pure decisions live in `weiqi-rating` (ratings, ranks, promotion rules, certification cases,
//! certificates) and in [`registry`] (the player aggregate). This crate is the shell around them:
//!
//! * [`registry`]: the player registry (ids, names in Chinese and Latin script, region, club, EGD
//!   PIN, grades held per ladder) and each player's log with rating and rank history; pure.
//! * [`service::RankingService`]: rates every rated game when its `GameEnded` lands in the game
//!   log ([`games`] replays the log, hashes checked), keeps the rating ledger ([`ledger`]) and fans
//!   every rating change out to the player's log; runs certification cases ([`cases`]) with evidence
//!   verified against the game logs and the tournament results ([`tournaments`], a port), the
//!   automatic check against the association's rule table, review, certificates signed with the
//!   association's Ed25519 key, revocation and the signed revocation list; proposes promotions by
//!   itself when results meet a rule.
//! * [`projector::RankingProjector`] and [`readmodel`]: leaderboards by rank band and region and the
//!   rating and rank histories, in Redis or in memory behind one trait.
//! * [`tournaments`]: the port for events' final results ([`tournaments::TournamentResults`]), with
//!   two implementations: [`tournaments::TournamentLog`] over the tournament service's own log
//!   (final published standings and result facts; a classifier says which events count and as
//!   what), and [`tournaments::ResultsLog`] (`weiqi.v1.RankingResults` messages, for events run
//!   off the platform and for tests). Tournaments read the registry through
//!   [`service::RankingService::tournament_snapshot`].
//! * [`grpc::RankingGateway`]: `weiqi.v1.RankingService` at the gateway, with role checks.
//! * [`recompute`]: all ratings rebuilt from the logs, to compare with the live values.
//! * [`bench`]: the library half of `weiqi bench ratings`.
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
//! [`codec`]); the versioned JSON that earlier versions wrote for them is still read (see [`convert`]).
//!
//! # Invariants
//!
//! * The logs are the only source of truth: the service's memory and the read models are rebuilt
//!   from them; recomputing all ratings from the logs gives exactly (bit for bit) the live values.
//! * Only games created as rated, with a result that counts, change ratings; a game log that does
//!   not replay is never acted on.
//! * Evidence is verified against the logs when attached, never taken from the applicant.
//! * Every append names the expected sequence and a deterministic command id: a retry appends
//!   nothing, a conflict reloads and decides again.
//! * A certificate is only issued for an approved case and matches it; its grade is recorded in the
//!   player's log; a revocation takes it back and enters the signed revocation list.
//! * Player ids starting with `_` are refused (reserved for the ledger).

pub mod bench;
pub mod cases;
pub mod codec;
pub mod convert;
pub mod error;
pub mod games;
pub mod grpc;
pub mod keys;
pub mod ledger;
mod logs;
pub mod projector;
pub mod readmodel;
pub mod recompute;
pub mod registry;
pub mod service;
pub mod tournaments;

pub use cases::{Application, CaseRecord, Verdict};
pub use error::{RankingError, RejectionKind};
pub use grpc::RankingGateway;
pub use ledger::RatingReport;
pub use projector::RankingProjector;
pub use readmodel::{AnyReadModel, Board, Leaderboard, MemoryReadModel, ReadModel, ReadModelError, RedisReadModel};
pub use service::{Clock, RankingConfig, RankingService, RegistryEntry, SystemClock};

/// The example rule files shipped with `weiqi-rating` (amateur, professional, Shanghai and Beijing
/// kyu ladders), loaded and validated.
///
/// # Panics
/// Never: the files are compiled in and tested in `weiqi-rating`.
#[must_use]
pub fn shipped_rules() -> Vec<weiqi_rating::AssociationRules> {
    [
        include_str!("../../../shared/rating/rules/cwa-amateur.toml"),
        include_str!("../../../shared/rating/rules/professional-example.toml"),
        include_str!("../../../shared/rating/rules/shanghai-kyu.toml"),
        include_str!("../../../shared/rating/rules/beijing-kyu.toml"),
    ]
    .iter()
    .map(|text| weiqi_rating::load_rules(text).expect("the shipped rule files are valid"))
    .collect()
}
