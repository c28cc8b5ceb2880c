//! weiqi-rating: the pure rating and rank core of the association.
//!
//! Everything the ranking service decides lives here, as deterministic functions over plain values:
//! no async, no IO, no clock (time is a [`Millis`] argument), no hidden randomness (the synthetic
//! history generator takes its seed). The service (`services/ranking`) is a thin shell around it:
//! load → decide → append → publish, and projections for leaderboards.
//!
//! # What is here
//!
//! * **Ratings** ([`RatingBook`], [`decide`], [`RatingBook::evolve`]): Glicko-2 with rating periods
//!   and provisional status (the default for online leagues), the EGF GoR formula (2021; a tournament's
//!   games rated together from the ratings before it, as the EGD does) and Elo. The
//!   arithmetic is `skillratings`'; tests reproduce Glickman's worked example and hand-computed EGF
//!   cases. Handicap and komi shift the *expected* result by an effective handicap in ranks
//!   ([`GameConditions::effective_handicap`]; EGF's `100·(h − 0.5)` at the traditional points).
//! * **Recompute** ([`recompute`], [`recompute_games`]): all ratings rebuilt from the inputs, bit-identical
//!   to the live decide/evolve path; [`bench_recompute`] for `weiqi bench ratings`.
//! * **Ranks and ladders** ([`Rank`], [`Ladder`], [`RankMapping`]): kyu 25..1, amateur dan 1..7 (8
//!   honorary), professional 1..9, the Shanghai and Beijing city kyu ladders, and rating ↔ grade
//!   mappings per association and system.
//! * **Promotion rules as data** ([`load_rules`], [`evaluate`]): TOML rule files per association
//!   (examples in `rules/`), validated with line-and-reason errors; rule kinds for dan qualification
//!   (N wins of M in a group), placings in named events, titles, the 6-dan quota, rating thresholds and
//!   a professional points table, with declared jump promotions. The evaluator says which rules are met
//!   and why, and proposes the highest grade met.
//! * **Certification cases** ([`decide_case`], [`CaseState::evolve`]): opened, evidence attached (as
//!   verified by the service), automatic check, reviewer, approval or rejection with reasons,
//!   certificate issued, revoked.
//! * **Certificates** ([`AssociationKey`], [`verify`], [`verify_texts`]): a fixed-line canonical
//!   encoding signed with Ed25519, armored text files for certificates, keys and signed revocation
//!   lists; verification with an exhaustive [`VerifyError`].
//!
//! # Example: rate a league week, then check a certificate
//!
//! ```
//! use weiqi_rating::*;
//!
//! // Two games in one weekly Glicko-2 period; the second is a two-stone handicap game.
//! let mut book = RatingBook::new(RatingSystem::default());
//! let game = |id: &str, black: &str, white: &str, result, conditions, at| RatedGame {
//!     id: GameId::from(id), black: PlayerId::from(black), white: PlayerId::from(white),
//!     result, conditions, ended_at: Millis(at), tournament: None,
//! };
//! for g in [
//!     game("g1", "li", "wang", RatedResult::BlackWins, GameConditions::even(), 1_000),
//!     game("g2", "zhao", "li", RatedResult::WhiteWins, GameConditions::handicap(2), 2_000),
//! ] {
//!     for event in decide(&book, &RatingCommand::RecordGame(g), Millis(3_000)).unwrap() {
//!         book.evolve(&event);
//!     }
//! }
//! // The period closes when it is over (the service sends ClosePeriods on a timer).
//! let week_end = Millis::WEEK;
//! for event in decide(&book, &RatingCommand::ClosePeriods, week_end).unwrap() {
//!     book.evolve(&event);
//! }
//! let li = book.view(&PlayerId::from("li"), week_end).unwrap();
//! assert!(li.rating > 1500.0 && li.provisional);
//!
//! // Certificates: sign with the association's key, verify with the public key file.
//! let key = AssociationKey::from_seed("cwa", [7; 32]).unwrap();
//! let body = CertificateBody {
//!     serial: "CWA-2026-000001".into(), association: "cwa".into(), key_id: key.key_id(),
//!     player: PlayerId::from("li"), player_name: "李明".into(), ladder: "amateur".into(),
//!     grade: "1d".into(), grade_name: "业余1段".into(), date: "2026-11-30".parse().unwrap(),
//!     case: CaseId::from("case-1"), basis: "qualify-1d: 5 wins of 7".into(),
//! };
//! let file = key.sign_certificate(body).unwrap().to_text();
//! assert!(verify_texts(&file, &key.public().to_text(), None).is_ok());
//! assert_eq!(
//!     verify_texts(&file.replace("grade: 1d", "grade: 2d"), &key.public().to_text(), None),
//!     Err(VerifyError::BadSignature),
//! );
//! ```
//!
//! # Invariants
//!
//! * Depends on nothing async and no client library; reads no clock; all randomness is seeded.
//! * A book or case changes only through `evolve` with events; events carry the new values, so a replay
//!   needs no arithmetic and gives exactly the state the live path had.
//! * [`recompute`] over the same inputs gives a bit-identical book to decide/evolve (tested, also with
//!   property tests).
//! * Rejections and errors are enums users can act on; no panics on bad input.
//! * Promotion rules are data: no association's table is in code. Only results dated after the current
//!   grade was granted count, so the same results never promote twice.
//! * A certificate has exactly one canonical encoding; `verify` never accepts a certificate whose
//!   contents differ in any byte from what was signed, nor a revocation list signed by another key.

mod armor;
mod book;
mod case;
mod certificate;
mod date;
pub mod egd_list;
mod evaluate;
mod evidence;
mod handicap;
mod ids;
mod keys;
mod ladder;
mod mapping;
mod rank;
mod rating_log;
mod recompute;
mod revocation;
mod rule_file;
mod rules;
mod system;
mod verify;

pub use armor::{Malformed, ParseError};
pub use book::{RatedGame, RatingBook, RatingView};
pub use case::{
    Applicant, Case, CaseCommand, CaseEvent, CaseRejection, CaseState, CaseStatus, CheckRecord, Decision,
    EvidenceRevision, MIN_JUSTIFICATION_CHARS, decide_case,
};
pub use certificate::{CertificateBody, SignError, SignedCertificate, parse_certificate};
pub use date::{BadDate, CivilDate};
pub use evaluate::{
    Basis, EvaluateError, Evaluation, Ineligible, Proposal, RuleOutcome, Shortfall, Verdict, evaluate, quota_slots,
};
pub use evidence::{
    EventLevel, EventRef, Evidence, EvidenceKey, GameOutcome, RatingSample, Standing, TournamentPlacing, VerifiedGame,
};
pub use handicap::GameConditions;
pub use ids::{ActorId, CaseId, EventId, GameId, Millis, PlayerId};
pub use keys::{AssociationKey, PublicKey, parse_public_key, parse_signing_key};
pub use ladder::{Grade, Ladder};
pub use mapping::RankMapping;
pub use rank::{BadRank, Rank};
pub use rating_log::{RatingCommand, RatingEvent, RatingRejection, RatingUpdate, decide, decide_correction};
pub use recompute::{
    BenchSummary, RatingInput, RecomputeError, bench_players, bench_recompute, recompute, recompute_games, replay,
    summarise, synthetic_history,
};
pub use revocation::{
    Freshness, Revocation, RevocationList, SignedRevocationList, check_freshness, format_utc, parse_revocation_list,
    parse_utc,
};
pub use rule_file::{RuleFileError, RuleFileErrors, RuleProblem, load_rules};
pub use rules::{
    Association, AssociationRules, EventPoints, EventSelector, PlacingTier, PromotionRule, RelativePoints, Rounding,
    RuleKind,
};
pub use system::{EgfHandicap, EgfSettings, EloSettings, Glicko2Settings, PlayerRating, RatedResult, RatingSystem};
pub use verify::{Verified, VerifyError, verify, verify_texts};
