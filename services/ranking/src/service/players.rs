//! The registry's requests: register (with a declared rank, seeded in the book), update, read.

use weiqi_rating::PlayerId;

use super::RankingService;
use crate::domain::player::declared_grade;
use crate::domain::{Actor, PlayerCommand, Profile, RankingRejection};
use crate::error::RankingError;
use crate::registry::{RegistryEntry, player_aggregate};

impl RankingService {
    /// Enters a player in the registry, with a declared rank (`3k`, `2d`, `5p`, `sh-3`) if given.
    ///
    /// `request_id` makes a retry harmless: the same request from the same organiser is answered with
    /// the entry; the same id for another request is refused (`request_id_reused`).
    ///
    /// # Errors
    /// `already_registered`, `bad_profile`, `bad_player_id`, `unknown_rank`, `request_id_reused`; faults.
    pub async fn register_player(
        &self,
        profile: Profile,
        rank: Option<&str>,
        by: &str,
        request_id: &str,
    ) -> Result<RegistryEntry, RankingError> {
        self.ready().await?;
        let player = profile.id.clone();
        player_aggregate(&player)?;
        let declared = declared_grade(rank, |id| self.ladder(id))?;
        let actor = Actor::staff(by);
        let register = PlayerCommand::Register { profile };
        self.registry.execute(&player, &format!("register/{player}/{request_id}"), &actor, &register).await?;
        if let Some(d) = declared {
            let declare = PlayerCommand::DeclareRank {
                ladder: d.ladder.clone(),
                grade: d.grade.clone(),
                grade_name: d.grade_name,
            };
            self.registry.execute(&player, &format!("declare/{player}/{request_id}"), &actor, &declare).await?;
            self.seed_from_rank(&player, &d.ladder, &d.grade).await?;
        }
        self.registry.entry(&player).await?.ok_or_else(|| RankingError::Corrupt("registered player vanished".into()))
    }

    /// Replaces a player's profile (names, region, club, EGD PIN).
    ///
    /// # Errors
    /// `not_registered`, `bad_profile`, `request_id_reused`; faults.
    pub async fn update_player(
        &self,
        profile: Profile,
        by: &str,
        request_id: &str,
    ) -> Result<RegistryEntry, RankingError> {
        self.ready().await?;
        let player = profile.id.clone();
        player_aggregate(&player)?;
        let update = PlayerCommand::UpdateProfile { profile };
        self.registry.execute(&player, &format!("update/{player}/{request_id}"), &Actor::staff(by), &update).await?;
        self.registry.entry(&player).await?.ok_or_else(|| RankingError::Corrupt("player vanished".into()))
    }

    /// Corrects a registered player's declared grade (`3段`, `5级`, `2d`), with the reason recorded in
    /// their log; a certified grade is refused (`certified_grade`).
    ///
    /// # Errors
    /// `not_registered`, `unknown_rank`, `certified_grade`, `bad_profile` (no reason); faults.
    pub async fn correct_declared_rank(
        &self,
        player: &PlayerId,
        rank: &str,
        reason: &str,
        by: &str,
        request_id: &str,
    ) -> Result<RegistryEntry, RankingError> {
        self.ready().await?;
        player_aggregate(player)?;
        let Some(d) = declared_grade(Some(rank), |id| self.ladder(id))? else {
            return Err(RankingRejection::UnknownRank(rank.to_owned()).into());
        };
        let command = PlayerCommand::CorrectDeclaredRank {
            ladder: d.ladder,
            grade: d.grade,
            grade_name: d.grade_name,
            reason: reason.to_owned(),
        };
        self.registry
            .execute(player, &format!("correct-rank/{player}/{request_id}"), &Actor::staff(by), &command)
            .await?;
        self.registry.entry(player).await?.ok_or_else(|| RankingError::Corrupt("player vanished".into()))
    }

    /// The registry entry of a player (what tournaments read at registration); `None` if not registered.
    ///
    /// # Errors
    /// `bad_player_id`; faults.
    pub async fn player(&self, player: &PlayerId) -> Result<Option<RegistryEntry>, RankingError> {
        self.ready().await?;
        self.registry.entry(player).await
    }
}
