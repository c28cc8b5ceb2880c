//! weiqi-rating: the pure rating and rank core.

mod armor;
mod book;
mod case;
mod certificate;
mod date;
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
    Applicant, Case, CaseCommand, CaseEvent, CaseRejection, CaseState, CaseStatus, CheckRecord, Decision, decide_case,
};
pub use certificate::{CertificateBody, SignError, SignedCertificate, parse_certificate};
pub use date::{BadDate, CivilDate};
pub use evaluate::{
    Basis, EvaluateError, Evaluation, Ineligible, Proposal, RuleOutcome, Shortfall, Verdict, evaluate, quota_slots,
};
pub use evidence::{
    EventLevel, EventRef, Evidence, GameOutcome, RatingSample, Standing, TournamentPlacing, VerifiedGame,
};
pub use handicap::GameConditions;
pub use ids::{ActorId, CaseId, EventId, GameId, Millis, PlayerId};
pub use keys::{AssociationKey, PublicKey, parse_public_key, parse_signing_key};
pub use ladder::{Grade, Ladder};
pub use mapping::RankMapping;
pub use rank::{BadRank, Rank};
pub use rating_log::{RatingCommand, RatingEvent, RatingRejection, RatingUpdate, decide};
pub use recompute::{
    BenchSummary, RatingInput, RecomputeError, bench_players, bench_recompute, recompute, recompute_games, replay,
    summarise, synthetic_history,
};
pub use revocation::{Revocation, RevocationList, SignedRevocationList, parse_revocation_list};
pub use rule_file::{RuleFileError, RuleFileErrors, RuleProblem, load_rules};
pub use rules::{
    Association, AssociationRules, EventPoints, EventSelector, PlacingTier, PromotionRule, RelativePoints, Rounding,
    RuleKind,
};
pub use system::{EgfSettings, EloSettings, Glicko2Settings, PlayerRating, RatedResult, RatingSystem};
pub use verify::{Verified, VerifyError, verify, verify_texts};
