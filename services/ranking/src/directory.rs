//! The registry as the tournament service's player directory reads it: a
//! `weiqi.v1.TournamentPlayerSnapshot` (an edge: it knows protobuf).

use weiqi_proto::v1 as pb;
use weiqi_rating::PlayerId;

use crate::error::RankingError;
use crate::service::RankingService;

impl RankingService {
    /// The registry entry as the tournament service records it at registration
    /// (`weiqi.v1.TournamentPlayerSnapshot`: names, national rank, current rating rounded, club,
    /// region, EGD PIN); `None` if not registered. The body of the tournament's `PlayerDirectory`.
    ///
    /// # Errors
    /// `bad_player_id`; faults.
    pub async fn tournament_snapshot(
        &self,
        account: &str,
    ) -> Result<Option<pb::TournamentPlayerSnapshot>, RankingError> {
        let player = PlayerId::from(account);
        let Some(entry) = self.player(&player).await? else {
            return Ok(None);
        };
        let rating = self.rating(&player).await?.view.map(|v| v.rating.round() as i32);
        let p = &entry.profile;
        Ok(Some(pb::TournamentPlayerSnapshot {
            name_zh: p.name_zh.clone(),
            name_latin: p.name_latin.clone(),
            rank: entry.state.display_rank().map(|r| r.to_string()).unwrap_or_default(),
            rating,
            club: p.club.clone(),
            region: p.region.clone(),
            family: String::new(),
            country: String::new(),
            egd_pin: p.egd_pin.parse().unwrap_or(0),
        }))
    }
}
