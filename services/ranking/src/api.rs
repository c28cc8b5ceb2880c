//! The ranking service as the edges in this process call it: the gRPC server ([`crate::grpc`]) and the
//! web's pages (leaderboards, profiles, the certification office, a player's application,
//! certificates) alike. Over the caller's verified claims and domain values; the ranking's
//! [`authority`](crate::authority) decides first. The answers are the ranking's [`views`], domain
//! values the pages render and the gRPC server makes messages of.
//!
//! No token and no gRPC request cross this API.

use std::sync::Arc;

use weiqi_aggregate::RejectionKind;
use weiqi_edge::auth::Claims;
use weiqi_rating::{ActorId, Applicant, CaseId, PlayerId};

use crate::authority::{self, Asks, Denied};
use crate::cases::{Application, Verdict};
use crate::domain::{BANDS, RankingRejection};
use crate::error::RankingError;
use crate::readmodel::{AnyReadModel, Board, ReadModel};
use crate::service::RankingService;
use crate::views::{
    self, AssociationKey, CaseView, CertificateView, EgdImport, H9Import, H9Line, History, LeaderboardPage,
    RatingSummary, RegistryPlayer, RevocationList, Seeded, Verification,
};

/// Default page size of a leaderboard.
pub const DEFAULT_LIMIT: usize = 50;
/// Largest page of a leaderboard.
pub const MAX_LIMIT: usize = 500;
/// Default number of rating points in a history.
pub const DEFAULT_HISTORY: usize = 100;
/// The largest results table [`RankingApi::import_h9_results`] reads (a big open has a few hundred
/// lines: well under).
pub const MAX_H9_BYTES: usize = 1024 * 1024;
/// The largest EGD rating list [`RankingApi::import_egd_ratings`] reads (the whole EGD list is about
/// 10 MiB).
pub const MAX_EGD_BYTES: usize = 16 * 1024 * 1024;

/// Why a call was not carried out. Nothing was appended.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// The ranking service refused it (or the authority did), or could not be reached.
    #[error(transparent)]
    Ranking(#[from] RankingError),
    /// A file that is too large or does not read (`too_large`, `bad_rating_list`, `bad_h9`).
    #[error("{message}")]
    Bad {
        /// The stable code.
        code: &'static str,
        /// What is wrong.
        message: String,
    },
}

impl From<Denied> for ApiError {
    fn from(d: Denied) -> ApiError {
        ApiError::Ranking(RankingError::Rejected(RankingRejection::PermissionDenied(d.to_string())))
    }
}

impl From<RankingRejection> for ApiError {
    fn from(r: RankingRejection) -> ApiError {
        ApiError::Ranking(RankingError::Rejected(r))
    }
}

impl From<weiqi_edge::read_your_writes::Lagging> for ApiError {
    fn from(l: weiqi_edge::read_your_writes::Lagging) -> ApiError {
        ApiError::Ranking(RankingError::Unavailable(l.to_string()))
    }
}

impl ApiError {
    /// A stable, machine-readable code.
    pub fn code(&self) -> &str {
        match self {
            ApiError::Ranking(RankingError::Rejected(r)) => r.code(),
            ApiError::Ranking(RankingError::Unavailable(_)) => "unavailable",
            ApiError::Ranking(RankingError::Corrupt(_)) => "internal",
            ApiError::Bad { code, .. } => code,
        }
    }

    /// What kind of refusal this is; `None` for a fault.
    pub fn kind(&self) -> Option<RejectionKind> {
        match self {
            ApiError::Ranking(RankingError::Rejected(r)) => Some(r.kind()),
            ApiError::Ranking(_) => None,
            ApiError::Bad { .. } => Some(RejectionKind::InvalidArgument),
        }
    }
}

fn non_empty(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

fn request_id(id: &str) -> Result<&str, ApiError> {
    if id.is_empty() { Err(RankingRejection::MissingRequestId.into()) } else { Ok(id) }
}

/// The ranking service for the edges.
#[derive(Clone, Debug)]
pub struct RankingApi {
    service: Arc<RankingService>,
    model: AnyReadModel,
}

impl RankingApi {
    /// The API over the service and its read model (leaderboards, histories).
    pub fn new(service: Arc<RankingService>, model: AnyReadModel) -> RankingApi {
        RankingApi { service, model }
    }

    /// The player logs' position the leaderboards have folded: just past the last batch the
    /// projector handled (what `head` was when that batch was the last).
    async fn folded(&self) -> Result<u64, ApiError> {
        let checkpoint = self.model.checkpoint().await.map_err(RankingError::from)?;
        Ok(checkpoint.map_or(0, |c| ((c >> 16) + 1) << 16))
    }

    /// Read your writes: waits until the leaderboards have folded the player logs up to `min` (0: at
    /// once). Answers the position folded.
    async fn caught_up(&self, min: u64) -> Result<u64, ApiError> {
        weiqi_edge::read_your_writes::wait_for("the leaderboards", min, || self.folded()).await
    }

    /// The amateur grade `rating` stands for under the association's mapping for the rating system in
    /// force ("" when it has none).
    #[must_use]
    pub fn grade_for_rating(&self, rating: f64) -> String {
        self.service.grade_for_rating(rating).unwrap_or_default()
    }

    /// A leaderboard page: `band` and `region` filter (empty: all); `limit` 0 is the default page.
    ///
    /// # Errors
    /// An unknown band, or unavailable.
    pub async fn leaderboard(
        &self,
        band: &str,
        region: &str,
        offset: u32,
        limit: u32,
        min_position: u64,
    ) -> Result<LeaderboardPage, ApiError> {
        let band = non_empty(band);
        if let Some(b) = &band
            && !BANDS.contains(&b.as_str())
        {
            let bands = BANDS.iter().map(|b| (*b).to_owned()).collect();
            return Err(RankingRejection::UnknownBand { band: b.clone(), bands }.into());
        }
        let limit = if limit == 0 { DEFAULT_LIMIT } else { (limit as usize).min(MAX_LIMIT) };
        let board = Board { band, region: non_empty(region) };
        let position = self.caught_up(min_position).await?;
        let page = self.model.leaderboard(&board, offset as usize, limit).await.map_err(RankingError::from)?;
        let mut view = views::leaderboard_view(&page);
        view.position = position;
        for line in &mut view.entries {
            line.rating_grade = self.service.grade_for_rating(line.rating).unwrap_or_default();
        }
        Ok(view)
    }

    /// A registered player's entry (public).
    ///
    /// # Errors
    /// Not registered, or unavailable.
    pub async fn registry_player(&self, id: &str) -> Result<RegistryPlayer, ApiError> {
        let id = PlayerId(id.to_string());
        match self.service.player(&id).await? {
            Some(entry) => Ok(views::registry_view(&entry, |l| self.service.ladder(l))),
            None => Err(RankingRejection::NotRegistered(id).into()),
        }
    }

    /// A player's latest `limit` rating points (0: the default; at most [`MAX_LIMIT`]) and rank
    /// history, from the read model (public).
    ///
    /// # Errors
    /// Unavailable.
    pub async fn history(&self, player: &str, limit: u32) -> Result<History, ApiError> {
        let limit = match limit {
            0 => DEFAULT_HISTORY,
            n => (n as usize).min(MAX_LIMIT),
        };
        self.history_view(player, limit).await
    }

    /// A player's latest `limit` rating points and rank history as the view.
    async fn history_view(&self, player: &str, limit: usize) -> Result<History, ApiError> {
        let ratings = self.model.rating_history(player, limit).await.map_err(RankingError::from)?;
        let ranks = self.model.rank_history(player).await.map_err(RankingError::from)?;
        Ok(History { ratings, ranks })
    }

    /// A registry entry as the view, with the player logs' position after it (read your writes).
    async fn entry_view(&self, entry: &crate::registry::RegistryEntry) -> Result<RegistryPlayer, ApiError> {
        let mut view = views::registry_view(entry, |l| self.service.ladder(l));
        view.position = self.service.player_log_head().await?;
        Ok(view)
    }

    /// Checks a certificate's text against the association's key and revocation list (public).
    ///
    /// # Errors
    /// Unavailable.
    pub async fn verify_certificate(&self, text: &str) -> Result<Verification, ApiError> {
        let (outcome, sequence) = self.service.verify_certificate_against_list(text).await?;
        Ok(views::verify_view(text, &outcome, sequence))
    }

    /// The signed revocation list (public).
    ///
    /// # Errors
    /// Unavailable.
    pub async fn revocation_list(&self) -> Result<RevocationList, ApiError> {
        let list = self.service.revocation_list().await?;
        Ok(RevocationList {
            text: list.to_text(),
            sequence: list.list.sequence,
            entries: u32::try_from(list.list.entries.len()).unwrap_or(u32::MAX),
        })
    }

    /// The association's public key (public).
    pub fn association_key(&self) -> AssociationKey {
        let key = self.service.config().key.public();
        AssociationKey { text: key.to_text(), association: key.association.clone(), key_id: key.key_id() }
    }

    /// A certificate by its serial (public).
    ///
    /// # Errors
    /// No such certificate, or unavailable.
    pub async fn certificate(&self, serial: &str) -> Result<CertificateView, ApiError> {
        let Some(record) = self.service.certificate(serial).await? else {
            return Err(RankingRejection::NoSuchCertificate(serial.to_string()).into());
        };
        let c = &record.case;
        Ok(CertificateView {
            certificate: c.certificate.as_ref().map(|x| x.to_text()).unwrap_or_default(),
            serial: serial.to_string(),
            case_id: c.id.0.clone(),
            player_id: c.player.0.clone(),
            revoked: c.status == weiqi_rating::CaseStatus::Revoked,
            revocation_reason: c.revocation.as_ref().map(|(_, r, _)| r.clone()).unwrap_or_default(),
        })
    }

    /// The caller's own rating.
    ///
    /// # Errors
    /// Not a player, or unavailable.
    pub async fn my_rating(&self, claims: &Claims) -> Result<RatingSummary, ApiError> {
        authority::authorize(claims, Asks::OwnRating)?;
        let report = self.service.rating(&PlayerId(claims.sub.clone())).await?;
        Ok(views::rating_view(&claims.sub, &report))
    }

    /// The caller's own history (`limit` 0: the default).
    ///
    /// # Errors
    /// Not a player, or unavailable.
    pub async fn my_history(&self, claims: &Claims, limit: u32) -> Result<History, ApiError> {
        authority::authorize(claims, Asks::OwnRating)?;
        let limit = if limit == 0 { DEFAULT_HISTORY } else { limit as usize };
        self.history_view(&claims.sub, limit).await
    }

    /// A rank application, for the caller (an empty `player`) or, by an organiser, another player.
    ///
    /// # Errors
    /// Denied, refused (evidence, grade, an open case), or unavailable.
    pub async fn apply(&self, claims: &Claims, mut app: Application) -> Result<CaseView, ApiError> {
        request_id(&app.request_id)?;
        app.player = PlayerId(non_empty(&app.player.0).unwrap_or_else(|| claims.sub.clone()));
        authority::authorize(claims, Asks::Apply { player: &app.player.0 })?;
        let applicant = if app.player.0 == claims.sub { Applicant::Player } else { Applicant::Organiser };
        let record = self.service.apply(app, &ActorId(claims.sub.clone()), applicant).await?;
        Ok(views::case_view(&record))
    }

    /// The cases of the caller (as player or applicant).
    ///
    /// # Errors
    /// Unavailable.
    pub async fn my_cases(&self, claims: &Claims) -> Result<Vec<CaseView>, ApiError> {
        let cases = self.service.cases_of(&claims.sub).await?;
        Ok(cases.iter().map(views::case_view).collect())
    }

    /// A case, for its player, its applicant or a reviewer.
    ///
    /// # Errors
    /// Denied, no such case, or unavailable.
    pub async fn case(&self, claims: &Claims, id: &str) -> Result<CaseView, ApiError> {
        let record = self.service.case(&CaseId(id.to_string())).await?;
        authority::authorize(
            claims,
            Asks::ReadCase { player: &record.case.player.0, applicant: &record.case.opened_by.0 },
        )?;
        Ok(views::case_view(&record))
    }

    /// The review queue: the caller's (or, `all`, every reviewer's) cases.
    ///
    /// # Errors
    /// Not a reviewer, or unavailable.
    pub async fn review_queue(&self, claims: &Claims, all: bool) -> Result<Vec<CaseView>, ApiError> {
        authority::authorize(claims, Asks::Review)?;
        let me = ActorId(claims.sub.clone());
        let cases = self.service.review_queue(if all { None } else { Some(&me) }).await?;
        Ok(cases.iter().map(views::case_view).collect())
    }

    /// Assigns a case to `reviewer` (empty: the caller).
    ///
    /// # Errors
    /// Denied, refused, or unavailable.
    pub async fn assign_reviewer(
        &self,
        claims: &Claims,
        case: &str,
        reviewer: &str,
        request: &str,
    ) -> Result<CaseView, ApiError> {
        authority::authorize(claims, Asks::Review)?;
        let id = request_id(request)?;
        let reviewer = non_empty(reviewer).unwrap_or_else(|| claims.sub.clone());
        authority::authorize(claims, Asks::Assign { reviewer: &reviewer })?;
        let record =
            self.service.assign_reviewer(&CaseId(case.to_string()), &ActorId(reviewer), &claims.sub, id).await?;
        Ok(views::case_view(&record))
    }

    /// A reviewer's decision on a case.
    ///
    /// # Errors
    /// Denied, refused (four eyes, an override without a reason…), or unavailable.
    pub async fn decide(
        &self,
        claims: &Claims,
        case: &str,
        verdict: Verdict,
        request: &str,
    ) -> Result<CaseView, ApiError> {
        authority::authorize(claims, Asks::Review)?;
        let id = request_id(request)?;
        let record = self.service.decide(&CaseId(case.to_string()), &ActorId(claims.sub.clone()), verdict, id).await?;
        Ok(views::case_view(&record))
    }

    /// Revokes a case's certificate.
    ///
    /// # Errors
    /// Denied, refused, or unavailable.
    pub async fn revoke(&self, claims: &Claims, case: &str, reason: &str, request: &str) -> Result<CaseView, ApiError> {
        authority::authorize(claims, Asks::Review)?;
        let id = request_id(request)?;
        let record = self.service.revoke(&CaseId(case.to_string()), &ActorId(claims.sub.clone()), reason, id).await?;
        Ok(views::case_view(&record))
    }

    /// Keeps a decision whose evidence changed after it, with a note.
    ///
    /// # Errors
    /// Denied, refused, or unavailable.
    pub async fn acknowledge_revisions(
        &self,
        claims: &Claims,
        case: &str,
        note: &str,
        request: &str,
    ) -> Result<CaseView, ApiError> {
        authority::authorize(claims, Asks::Review)?;
        let id = request_id(request)?;
        let record = self
            .service
            .acknowledge_revisions(&CaseId(case.to_string()), &ActorId(claims.sub.clone()), note, id)
            .await?;
        Ok(views::case_view(&record))
    }

    /// Seeds players' ratings from an EGD rating list (organisers).
    ///
    /// # Errors
    /// Denied, a list too large or that does not read, or unavailable.
    pub async fn import_egd_ratings(&self, claims: &Claims, text: &str) -> Result<EgdImport, ApiError> {
        authority::authorize(claims, Asks::Organise)?;
        if text.len() > MAX_EGD_BYTES {
            return Err(ApiError::Bad {
                code: "too_large",
                message: format!("the list has {} bytes; at most {MAX_EGD_BYTES} are read", text.len()),
            });
        }
        let list = weiqi_rating::egd_list::parse_egd_rating_list(text)
            .map_err(|e| ApiError::Bad { code: "bad_rating_list", message: e.to_string() })?;
        let done = self.service.import_egd_ratings(&list).await?;
        let ids = |v: &[weiqi_rating::PlayerId]| v.iter().map(|p| p.0.clone()).collect();
        Ok(EgdImport {
            seeded: done.seeded.iter().map(|(p, r)| Seeded { player_id: p.0.clone(), rating: *r }).collect(),
            not_in_list: ids(&done.not_in_list),
            already_rated: ids(&done.already_rated),
            unmapped: ids(&done.unmapped),
            list_players: u32::try_from(list.players.len()).unwrap_or(u32::MAX),
            list_date: list.date.map(|d| d.to_string()).unwrap_or_default(),
        })
    }

    /// Rates a past tournament's `.h9` results table (organisers).
    ///
    /// # Errors
    /// Denied, a table too large, that does not read or contradicts itself, or unavailable.
    pub async fn import_h9_results(&self, claims: &Claims, text: &str) -> Result<H9Import, ApiError> {
        use sha2::Digest as _;
        authority::authorize(claims, Asks::Organise)?;
        let bad = |message: String| ApiError::Bad { code: "bad_h9", message };
        if text.len() > MAX_H9_BYTES {
            return Err(bad(format!("the table has {} bytes; at most {MAX_H9_BYTES} are read", text.len())));
        }
        let file = weiqi_pairing::h9::parse_h9(text).map_err(|e| bad(e.to_string()))?;
        // A table that contradicts itself (both players of a game won, a handicap of 99) is refused
        // with its reasons, before anything is rated.
        let problems: Vec<String> = weiqi_pairing::h9::check_h9(text)
            .into_iter()
            .filter(weiqi_pairing::h9::H9Problem::is_inconsistent)
            .map(|p| p.to_string())
            .collect();
        if !problems.is_empty() {
            let more = if problems.len() > 5 { format!(" (and {} more)", problems.len() - 5) } else { String::new() };
            return Err(bad(format!(
                "the table contradicts itself: {}{more}",
                problems.iter().take(5).cloned().collect::<Vec<_>>().join("; ")
            )));
        }
        if file.players.is_empty() {
            return Err(bad("the table has no player lines".into()));
        }
        let sha = sha2::Sha256::digest(text.as_bytes());
        let hex: String = sha.iter().map(|b| format!("{b:02x}")).collect();
        let done = self.service.import_h9_results(&file, &hex).await?;
        let line = |(line, player): &(u32, weiqi_rating::PlayerId)| H9Line {
            line: *line,
            player_id: player.0.clone(),
            ..Default::default()
        };
        Ok(H9Import {
            tournament: done.tournament.clone(),
            already_imported: done.already_imported,
            matched: done.matched.iter().map(line).collect(),
            not_registered: done
                .not_registered
                .iter()
                .map(|(line, name, pin)| H9Line {
                    line: *line,
                    name: name.clone(),
                    egd_pin: pin.unwrap_or(0),
                    ..Default::default()
                })
                .collect(),
            seeded: done.seeded.iter().map(|(p, r)| Seeded { player_id: p.0.clone(), rating: *r }).collect(),
            games: u32::try_from(done.games).unwrap_or(u32::MAX),
            games_left_out: u32::try_from(done.games_left_out).unwrap_or(u32::MAX),
            rated: u32::try_from(done.rated).unwrap_or(u32::MAX),
        })
    }

    /// Registers a player (organisers): the entry, with the player logs' position after it.
    ///
    /// # Errors
    /// Denied, refused, or unavailable.
    pub async fn register_player(
        &self,
        claims: &Claims,
        profile: crate::registry::Profile,
        rank: Option<&str>,
        request: &str,
    ) -> Result<RegistryPlayer, ApiError> {
        authority::authorize(claims, Asks::Organise)?;
        let id = request_id(request)?;
        let entry = self.service.register_player(profile, rank, &claims.sub, id).await?;
        self.entry_view(&entry).await
    }

    /// Registered players matching `query` (id, names, region, club), at most 100 (organisers).
    ///
    /// # Errors
    /// Denied, or unavailable.
    pub async fn search_registry(&self, claims: &Claims, query: &str) -> Result<Vec<RegistryPlayer>, ApiError> {
        authority::authorize(claims, Asks::Organise)?;
        let rows = self.model.search(query, 100).await.map_err(RankingError::from)?;
        let mut found = Vec::with_capacity(rows.len());
        for row in rows {
            if let Some(entry) = self.service.player(&weiqi_rating::PlayerId(row.player.clone())).await?
                && entry.state.merged_into.is_none()
            {
                found.push(self.entry_view(&entry).await?);
            }
        }
        Ok(found)
    }

    /// Corrects a player's declared grade, with the reason (organisers); a certified grade is the
    /// office's.
    ///
    /// # Errors
    /// Denied, refused, or unavailable.
    pub async fn correct_declared_rank(
        &self,
        claims: &Claims,
        player: &str,
        rank: &str,
        reason: &str,
        request: &str,
    ) -> Result<RegistryPlayer, ApiError> {
        authority::authorize(claims, Asks::Organise)?;
        let id = request_id(request)?;
        let entry = self
            .service
            .correct_declared_rank(&weiqi_rating::PlayerId(player.to_owned()), rank, reason, &claims.sub, id)
            .await?;
        self.entry_view(&entry).await
    }

    /// The association's full name as its rules give it (`中国围棋协会`), for a certificate of `ladder`
    /// signed by the association `id`; the id when no rules name it.
    #[must_use]
    pub fn association_name(&self, id: &str, ladder: &str) -> String {
        self.service.association_name(id, ladder)
    }

    /// Invites the person to take `player`'s registry entry as their account (organisers): the link's
    /// `secret` is made by the caller and only its hash recorded; `has_account` is read by the caller
    /// from the accounts. The invitation lasts `days` (1–90).
    ///
    /// # Errors
    /// Denied, refused, or unavailable.
    pub async fn invite_player(
        &self,
        claims: &Claims,
        player: &str,
        secret: &str,
        days: u32,
        has_account: bool,
        request: &str,
    ) -> Result<RegistryPlayer, ApiError> {
        authority::authorize(claims, Asks::Organise)?;
        let id = request_id(request)?;
        if !(1..=90).contains(&days) || secret.len() < 32 {
            return Err(RankingRejection::BadProfile {
                field: "invitation",
                reason: "1 to 90 days, and a secret of at least 32 characters".into(),
            }
            .into());
        }
        let expires = weiqi_rating::Millis(self.service.now().0 + i64::from(days) * 86_400_000);
        let player = PlayerId(player.to_owned());
        let entry = self.service.invite_player(&player, secret, expires, has_account, &claims.sub, id).await?;
        self.entry_view(&entry).await
    }

    /// The registry entry an invitation link opens, if it opens one now (anyone holding the link).
    ///
    /// # Errors
    /// `no_invitation`, `invitation_expired`, `not_registered`, `merged`; unavailable.
    pub async fn invitation(&self, player: &str, secret: &str) -> Result<RegistryPlayer, ApiError> {
        let entry = self.service.check_invitation(&PlayerId(player.to_owned()), secret).await?;
        Ok(views::registry_view(&entry, |l| self.service.ladder(l)))
    }

    /// Records an invitation accepted (its account made by the caller, the web's accept page).
    ///
    /// # Errors
    /// As [`Self::invitation`].
    pub async fn accept_invitation(&self, player: &str, secret: &str) -> Result<RegistryPlayer, ApiError> {
        let entry = self.service.accept_invitation(&PlayerId(player.to_owned()), secret).await?;
        self.entry_view(&entry).await
    }

    /// Merges the duplicate registry entry `from` into `into`, with the reason (organisers; logged on
    /// both). `from_has_account` is read by the caller from the accounts.
    ///
    /// # Errors
    /// Denied, refused, or unavailable.
    pub async fn merge_players(
        &self,
        claims: &Claims,
        from: &str,
        into: &str,
        reason: &str,
        from_has_account: bool,
        request: &str,
    ) -> Result<RegistryPlayer, ApiError> {
        authority::authorize(claims, Asks::Organise)?;
        let id = request_id(request)?;
        let (from, into) = (PlayerId(from.to_owned()), PlayerId(into.to_owned()));
        let entry = self.service.merge_players(&from, &into, reason, from_has_account, &claims.sub, id).await?;
        self.entry_view(&entry).await
    }

    /// Updates a player's profile (organisers).
    ///
    /// # Errors
    /// Denied, refused, or unavailable.
    pub async fn update_player(
        &self,
        claims: &Claims,
        profile: crate::registry::Profile,
        request: &str,
    ) -> Result<RegistryPlayer, ApiError> {
        authority::authorize(claims, Asks::Organise)?;
        let id = request_id(request)?;
        let entry = self.service.update_player(profile, &claims.sub, id).await?;
        self.entry_view(&entry).await
    }
}
