//! weiqi-rating: the pure rating and rank core.

mod book;
mod date;
mod handicap;
mod ids;
mod rating_log;
mod recompute;
mod system;

pub use book::{RatedGame, RatingBook, RatingView};
pub use date::{BadDate, CivilDate};
pub use handicap::GameConditions;
pub use ids::{ActorId, CaseId, EventId, GameId, Millis, PlayerId};
pub use rating_log::{RatingCommand, RatingEvent, RatingRejection, RatingUpdate, decide};
pub use recompute::{
    BenchSummary, RatingInput, RecomputeError, bench_players, bench_recompute, recompute,
    recompute_games, replay, summarise, synthetic_history,
};
pub use system::{
    EgfSettings, EloSettings, Glicko2Settings, PlayerRating, RatedResult, RatingSystem,
};
