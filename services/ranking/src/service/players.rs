//! The registry's requests: register (with a declared rank, seeded in the book), update, read.

use weiqi_rating::PlayerId;

use super::RankingService;
use crate::domain::player::declared_grade;
use crate::domain::{Actor, PlayerCommand, Profile, RankingRejection};
use crate::error::RankingError;
use crate::registry::{RegistryEntry, player_aggregate};

/// The SHA-256 (hex) of an invitation link's secret: what the player's log records.
#[must_use]
pub fn token_hash(secret: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(secret.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

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

    /// Invites the person to take a registry entry as their account: records the SHA-256 of the link's
    /// secret (never the secret) and its expiry; an earlier invitation stops working.
    ///
    /// # Errors
    /// `not_registered`, `merged`, `has_account`; faults.
    pub async fn invite_player(
        &self,
        player: &PlayerId,
        secret: &str,
        expires_at: weiqi_rating::Millis,
        has_account: bool,
        by: &str,
        request_id: &str,
    ) -> Result<RegistryEntry, RankingError> {
        self.ready().await?;
        let command =
            PlayerCommand::Invite { token_hash: token_hash(secret), expires_at, by: by.to_owned(), has_account };
        self.registry.execute(player, &format!("invite/{player}/{request_id}"), &Actor::staff(by), &command).await?;
        self.registry.entry(player).await?.ok_or_else(|| RankingError::Corrupt("player vanished".into()))
    }

    /// Whether `secret` opens `player`'s invitation now (the page's check before it makes the account).
    ///
    /// # Errors
    /// `not_registered`, `merged`, `no_invitation`, `invitation_expired`; faults.
    pub async fn check_invitation(&self, player: &PlayerId, secret: &str) -> Result<RegistryEntry, RankingError> {
        self.ready().await?;
        let entry =
            self.registry.entry(player).await?.ok_or_else(|| RankingRejection::NotRegistered(player.clone()))?;
        let command = PlayerCommand::AcceptInvitation { token_hash: token_hash(secret) };
        crate::domain::player::decide_player(&entry.state, &command, self.now())?;
        Ok(entry)
    }

    /// Records that the invitation was accepted (after its account was made).
    ///
    /// # Errors
    /// As [`Self::check_invitation`].
    pub async fn accept_invitation(&self, player: &PlayerId, secret: &str) -> Result<RegistryEntry, RankingError> {
        self.ready().await?;
        let hash = token_hash(secret);
        let command = PlayerCommand::AcceptInvitation { token_hash: hash.clone() };
        let actor = Actor::player(&player.0);
        self.registry.execute(player, &format!("accept-invitation/{player}/{hash}"), &actor, &command).await?;
        self.registry.entry(player).await?.ok_or_else(|| RankingError::Corrupt("player vanished".into()))
    }

    /// Merges the duplicate entry `from` into `into` (logged on both): `into` takes the duplicate's
    /// names, region and club where its own are empty, and its declared grades in ladders where it
    /// holds none; `from` is retired. Refused when `from` has an account, rated games or a certified
    /// grade (those records name it and stay with it).
    ///
    /// # Errors
    /// `not_registered`, `merged`, `cannot_merge`, `bad_profile` (no reason); faults.
    pub async fn merge_players(
        &self,
        from: &PlayerId,
        into: &PlayerId,
        reason: &str,
        from_has_account: bool,
        by: &str,
        request_id: &str,
    ) -> Result<RegistryEntry, RankingError> {
        self.ready().await?;
        let actor = Actor::staff(by);
        let duplicate =
            self.registry.entry(from).await?.ok_or_else(|| RankingRejection::NotRegistered(from.clone()))?;
        let kept = self.registry.entry(into).await?.ok_or_else(|| RankingRejection::NotRegistered(into.clone()))?;
        if let Some(m) = &kept.state.merged_into {
            return Err(RankingRejection::CannotMerge {
                player: m.from.clone(),
                why: crate::domain::player::MergeBlock::KeptMerged,
            }
            .into());
        }
        let retire = PlayerCommand::MergeInto {
            into: into.clone(),
            reason: reason.to_owned(),
            by: by.to_owned(),
            has_account: from_has_account,
        };
        // Decide the retirement first, so that nothing is written to the kept entry when it is refused.
        crate::domain::player::decide_player(&duplicate.state, &retire, self.now())?;
        let fill = |mine: &str, theirs: &str| if mine.is_empty() { theirs.to_owned() } else { mine.to_owned() };
        let (d, k) = (&duplicate.profile, &kept.profile);
        let profile = Profile {
            name_zh: fill(&k.name_zh, &d.name_zh),
            name_latin: fill(&k.name_latin, &d.name_latin),
            region: fill(&k.region, &d.region),
            club: fill(&k.club, &d.club),
            egd_pin: fill(&k.egd_pin, &d.egd_pin),
            ..k.clone()
        };
        let tag = format!("{from}/{request_id}");
        let update = PlayerCommand::UpdateProfile { profile };
        self.registry.execute(into, &format!("merge-profile/{into}/{tag}"), &actor, &update).await?;
        for (ladder, held) in &duplicate.state.grades {
            if kept.state.grades.contains_key(ladder) {
                continue;
            }
            let grade_name = self
                .ladder(ladder)
                .and_then(|l| l.position(&held.grade).and_then(|p| l.grade(p).map(|g| g.name.clone())))
                .unwrap_or_default();
            let declare = PlayerCommand::DeclareRank { ladder: ladder.clone(), grade: held.grade.clone(), grade_name };
            self.registry.execute(into, &format!("merge-grade/{into}/{ladder}/{tag}"), &actor, &declare).await?;
        }
        let absorb = PlayerCommand::Absorb { from: from.clone(), reason: reason.to_owned(), by: by.to_owned() };
        self.registry.execute(into, &format!("absorb/{into}/{tag}"), &actor, &absorb).await?;
        self.registry.execute(from, &format!("merge-into/{from}/{tag}"), &actor, &retire).await?;
        self.registry.entry(into).await?.ok_or_else(|| RankingError::Corrupt("player vanished".into()))
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
