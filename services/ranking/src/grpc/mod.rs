//! `weiqi.v1.RankingService` at the gateway: who may do what, and the ranking service behind it.
//!
//! | RPC | who |
//! | --- | --- |
//! | `Leaderboard`, `GetRegistryPlayer`, `VerifyCertificate`, `RevocationList`, `AssociationKey` | anyone, no token |
//! | `MyRating`, `MyHistory`, `MyCases` | role `player` (their own) |
//! | `ApplyForRank` | role `player` for themself; `organiser` for any player |
//! | `GetCase` | the player, the applicant, role `reviewer` |
//! | `RegisterPlayer`, `UpdatePlayer` | role `organiser` |
//! | `ReviewQueue`, `AssignReviewer` (self), `DecideCase`, `RevokeCertificate` | role `reviewer` |
//! | `AssignReviewer` (someone else) | role `admin` |
//!
//! Admins have every role. Leaderboards and histories are read from the read model; everything else
//! from the service. Every refusal, the gateway's own (a role missing, a bad band) included, is a
//! [`RankingRejection`]: one mapping to a status, with a typed `weiqi.v1.Rejection` in the details.
//! The views (the service's answers as messages) are in [`views`].

pub mod views;

use std::sync::Arc;

use tonic::{Request, Response, Status};
use weiqi_edge::auth::{Authority, Claims};

use weiqi_proto::v1 as pb;
use weiqi_rating::{ActorId, Applicant, CaseId, PlayerId};

use crate::authority::Asks;
use crate::cases::{Application, Verdict};
use crate::codec::player::{profile_from_pb, rank_pb, rating_pb};
use crate::domain::{BANDS, RankingRejection};
use crate::error::RankingError;
use crate::readmodel::{AnyReadModel, Board, ReadModel};
use crate::service::RankingService;

/// Default page size of a leaderboard.
pub const DEFAULT_LIMIT: usize = 50;
/// Largest page of a leaderboard.
pub const MAX_LIMIT: usize = 500;
/// Default number of rating points in `MyHistory`.
pub const DEFAULT_HISTORY: usize = 100;
/// The largest results table `ImportH9Results` reads (a big open has a few hundred lines: well under).
pub const MAX_H9_BYTES: usize = 1024 * 1024;
/// The largest EGD rating list `ImportEgdRatings` reads (the whole EGD list is about 10 MiB; the desk
/// takes the same).
pub const MAX_EGD_BYTES: usize = 16 * 1024 * 1024;
/// The largest request the ranking RPCs decode: the largest import and its envelope. Every other
/// request is bounded by its fields' limits, which the domain checks.
pub const MAX_DECODED_BYTES: usize = MAX_EGD_BYTES + weiqi_edge::serve::MAX_REQUEST_BYTES;

/// The ranking RPCs.
#[derive(Clone, Debug)]
pub struct RankingGateway {
    service: Arc<RankingService>,
    model: AnyReadModel,
    auth: Authority,
}

/// The gRPC status of a rejection, with the typed reason in the details.
#[must_use]
pub fn rejection_status(r: &RankingRejection) -> Status {
    weiqi_edge::status::rejected(r.kind(), r.code(), r.to_string())
}

/// The gRPC status of a ranking error: rejections with the typed reason in the details, faults as
/// `Unavailable` (retry) or `Internal` (never acted on).
#[must_use]
pub fn status(e: RankingError) -> Status {
    match e {
        RankingError::Rejected(r) => rejection_status(&r),
        RankingError::Unavailable(why) => Status::unavailable(why),
        RankingError::Corrupt(why) => Status::internal(why),
    }
}

fn denied(message: impl Into<String>) -> Status {
    rejection_status(&RankingRejection::PermissionDenied(message.into()))
}

/// What the ranking's authority answers, as a status.
fn authorize(claims: &Claims, asks: Asks<'_>) -> Result<(), Status> {
    crate::authority::authorize(claims, asks).map_err(|d| denied(d.to_string()))
}

fn request_id(id: &str) -> Result<&str, Status> {
    if id.is_empty() { Err(rejection_status(&RankingRejection::MissingRequestId)) } else { Ok(id) }
}

fn non_empty(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

impl RankingGateway {
    /// The player logs' position the leaderboards have folded: just past the last batch the
    /// projector handled (what `head` was when that batch was the last).
    async fn folded(&self) -> Result<u64, Status> {
        let checkpoint = self.model.checkpoint().await.map_err(|e| status(e.into()))?;
        Ok(checkpoint.map_or(0, |c| ((c >> 16) + 1) << 16))
    }

    /// Read your writes: waits until the leaderboards have folded the player logs up to `min`
    /// (0: at once; [`weiqi_edge::read_your_writes::wait_for`]). Answers the position folded.
    async fn caught_up(&self, min: u64) -> Result<u64, Status> {
        weiqi_edge::read_your_writes::wait_for("the leaderboards", min, || self.folded()).await
    }
}

impl RankingGateway {
    /// The ranking RPCs over the service, its read model and the gateway's token authority.
    #[must_use]
    pub fn new(service: Arc<RankingService>, model: AnyReadModel, auth: Authority) -> RankingGateway {
        RankingGateway { service, model, auth }
    }

    /// The tonic service, ready for `RoutesBuilder::add_service`.
    #[must_use]
    pub fn into_server(self) -> pb::ranking_service_server::RankingServiceServer<RankingGateway> {
        pb::ranking_service_server::RankingServiceServer::new(self).max_decoding_message_size(MAX_DECODED_BYTES)
    }

    fn caller<T>(&self, request: &Request<T>) -> Result<Claims, Status> {
        Ok(self.auth.caller(request)?)
    }

    /// Every handler's prologue: who asks (the token checked against the account now), that the
    /// ranking's authority lets them do what they ask, and the request's message.
    fn holding<T>(&self, request: Request<T>, asks: Asks<'_>) -> Result<(Claims, T), Status> {
        let claims = self.caller(&request)?;
        authorize(&claims, asks)?;
        Ok((claims, request.into_inner()))
    }

    /// A player's latest `limit` rating points and their rank history, from the read model.
    async fn history(&self, player: &str, limit: usize) -> Result<pb::RankingHistory, Status> {
        let ratings = self.model.rating_history(player, limit).await.map_err(|e| status(e.into()))?;
        let ranks = self.model.rank_history(player).await.map_err(|e| status(e.into()))?;
        Ok(pb::RankingHistory {
            ratings: ratings.iter().map(rating_pb).collect(),
            ranks: ranks.iter().map(rank_pb).collect(),
        })
    }
}

#[tonic::async_trait]
impl pb::ranking_service_server::RankingService for RankingGateway {
    async fn leaderboard(
        &self,
        request: Request<pb::LeaderboardRequest>,
    ) -> Result<Response<pb::LeaderboardResponse>, Status> {
        let r = request.into_inner();
        let band = non_empty(&r.band);
        if let Some(b) = &band
            && !BANDS.contains(&b.as_str())
        {
            let bands = BANDS.iter().map(|b| (*b).to_owned()).collect();
            return Err(rejection_status(&RankingRejection::UnknownBand { band: b.clone(), bands }));
        }
        let limit = if r.limit == 0 { DEFAULT_LIMIT } else { (r.limit as usize).min(MAX_LIMIT) };
        let board = Board { band, region: non_empty(&r.region) };
        let position = self.caught_up(r.min_position).await?;
        let page = self.model.leaderboard(&board, r.offset as usize, limit).await.map_err(|e| status(e.into()))?;
        let mut view = views::leaderboard_view(&page);
        view.position = position;
        Ok(Response::new(view))
    }

    async fn get_registry_player(
        &self,
        request: Request<pb::RegistryGetPlayerRequest>,
    ) -> Result<Response<pb::RegistryPlayer>, Status> {
        let id = PlayerId(request.into_inner().player_id);
        match self.service.player(&id).await.map_err(status)? {
            Some(entry) => Ok(Response::new(views::registry_view(&entry, |l| self.service.ladder(l)))),
            None => Err(rejection_status(&RankingRejection::NotRegistered(id))),
        }
    }

    async fn verify_certificate(
        &self,
        request: Request<pb::VerifyCertificateRequest>,
    ) -> Result<Response<pb::VerifyCertificateResponse>, Status> {
        let text = request.into_inner().certificate;
        let (outcome, sequence) = self.service.verify_certificate_against_list(&text).await.map_err(status)?;
        Ok(Response::new(views::verify_view(&text, &outcome, sequence)))
    }

    async fn revocation_list(
        &self,
        _: Request<pb::RevocationListRequest>,
    ) -> Result<Response<pb::RevocationListResponse>, Status> {
        let list = self.service.revocation_list().await.map_err(status)?;
        Ok(Response::new(pb::RevocationListResponse {
            text: list.to_text(),
            sequence: list.list.sequence,
            entries: u32::try_from(list.list.entries.len()).unwrap_or(u32::MAX),
        }))
    }

    async fn association_key(
        &self,
        _: Request<pb::AssociationKeyRequest>,
    ) -> Result<Response<pb::AssociationKeyResponse>, Status> {
        let key = self.service.config().key.public();
        Ok(Response::new(pb::AssociationKeyResponse {
            text: key.to_text(),
            association: key.association.clone(),
            key_id: key.key_id(),
        }))
    }

    async fn player_history(
        &self,
        request: Request<pb::PlayerHistoryRequest>,
    ) -> Result<Response<pb::RankingHistory>, Status> {
        let r = request.into_inner();
        let limit = match r.limit {
            0 => DEFAULT_HISTORY,
            n => (n as usize).min(MAX_LIMIT),
        };
        self.history(&r.player_id, limit).await.map(Response::new)
    }

    async fn get_certificate(
        &self,
        request: Request<pb::GetCertificateRequest>,
    ) -> Result<Response<pb::CertificateRecord>, Status> {
        let serial = request.into_inner().serial;
        let Some(record) = self.service.certificate(&serial).await.map_err(status)? else {
            return Err(rejection_status(&RankingRejection::NoSuchCertificate(serial)));
        };
        let c = &record.case;
        let certificate = c.certificate.as_ref().map(|x| x.to_text()).unwrap_or_default();
        Ok(Response::new(pb::CertificateRecord {
            certificate,
            serial,
            case_id: c.id.0.clone(),
            player_id: c.player.0.clone(),
            revoked: c.status == weiqi_rating::CaseStatus::Revoked,
            revocation_reason: c.revocation.as_ref().map(|(_, r, _)| r.clone()).unwrap_or_default(),
        }))
    }

    async fn my_rating(&self, request: Request<pb::MyRatingRequest>) -> Result<Response<pb::RatingSummary>, Status> {
        let claims = self.caller(&request)?;
        authorize(&claims, Asks::OwnRating)?;
        let report = self.service.rating(&PlayerId(claims.sub.clone())).await.map_err(status)?;
        Ok(Response::new(views::rating_view(&claims.sub, &report)))
    }

    async fn my_history(&self, request: Request<pb::MyHistoryRequest>) -> Result<Response<pb::RankingHistory>, Status> {
        let claims = self.caller(&request)?;
        authorize(&claims, Asks::OwnRating)?;
        let limit = match request.get_ref().limit {
            0 => DEFAULT_HISTORY,
            n => n as usize,
        };
        self.history(&claims.sub, limit).await.map(Response::new)
    }

    async fn apply_for_rank(
        &self,
        request: Request<pb::ApplyForRankRequest>,
    ) -> Result<Response<pb::CaseView>, Status> {
        let claims = self.caller(&request)?;
        let r = request.into_inner();
        request_id(&r.request_id)?;
        let player = non_empty(&r.player_id).unwrap_or_else(|| claims.sub.clone());
        authorize(&claims, Asks::Apply { player: &player })?;
        let applicant = if player == claims.sub { Applicant::Player } else { Applicant::Organiser };
        let app = Application {
            request_id: r.request_id,
            player: PlayerId(player),
            ladder: r.ladder,
            requested: r.requested_grade,
            games: r.game_ids,
            tournaments: r.tournament_ids,
            include_rating: r.include_rating,
        };
        let record = self.service.apply(app, &ActorId(claims.sub), applicant).await.map_err(status)?;
        Ok(Response::new(views::case_view(&record)))
    }

    async fn my_cases(&self, request: Request<pb::MyCasesRequest>) -> Result<Response<pb::CaseList>, Status> {
        let claims = self.caller(&request)?;
        let cases = self.service.cases_of(&claims.sub).await.map_err(status)?;
        Ok(Response::new(pb::CaseList { cases: cases.iter().map(views::case_view).collect() }))
    }

    async fn get_case(&self, request: Request<pb::GetCaseRequest>) -> Result<Response<pb::CaseView>, Status> {
        let claims = self.caller(&request)?;
        let record = self.service.case(&CaseId(request.into_inner().case_id)).await.map_err(status)?;
        authorize(&claims, Asks::ReadCase { player: &record.case.player.0, applicant: &record.case.opened_by.0 })?;
        Ok(Response::new(views::case_view(&record)))
    }

    async fn register_player(
        &self,
        request: Request<pb::RegistryRegisterRequest>,
    ) -> Result<Response<pb::RegistryPlayer>, Status> {
        let (claims, r) = self.holding(request, Asks::Organise)?;
        let id = request_id(&r.request_id)?;
        let profile = profile_from_pb(&r.profile.unwrap_or_default());
        let rank = non_empty(&r.rank);
        let entry = self.service.register_player(profile, rank.as_deref(), &claims.sub, id).await.map_err(status)?;
        let mut view = views::registry_view(&entry, |l| self.service.ladder(l));
        view.position = self.service.player_log_head().await.map_err(status)?;
        Ok(Response::new(view))
    }

    async fn import_egd_ratings(
        &self,
        request: Request<pb::ImportEgdRatingsRequest>,
    ) -> Result<Response<pb::ImportEgdRatingsResponse>, Status> {
        let claims = self.caller(&request)?;
        authorize(&claims, Asks::Organise)?;
        let text = request.into_inner().text;
        if text.len() > MAX_EGD_BYTES {
            return Err(weiqi_edge::status::gateway_rejection(
                pb::rejection::Kind::InvalidArgument,
                "too_large",
                format!("the list has {} bytes; at most {MAX_EGD_BYTES} are read", text.len()),
            ));
        }
        let list = weiqi_rating::egd_list::parse_egd_rating_list(&text).map_err(|e| {
            weiqi_edge::status::gateway_rejection(
                pb::rejection::Kind::InvalidArgument,
                "bad_rating_list",
                e.to_string(),
            )
        })?;
        let done = self.service.import_egd_ratings(&list).await.map_err(status)?;
        let ids = |v: &[weiqi_rating::PlayerId]| v.iter().map(|p| p.0.clone()).collect();
        Ok(Response::new(pb::ImportEgdRatingsResponse {
            seeded: done
                .seeded
                .iter()
                .map(|(p, r)| pb::import_egd_ratings_response::Seeded { player_id: p.0.clone(), rating: *r })
                .collect(),
            not_in_list: ids(&done.not_in_list),
            already_rated: ids(&done.already_rated),
            unmapped: ids(&done.unmapped),
            list_players: u32::try_from(list.players.len()).unwrap_or(u32::MAX),
            list_date: list.date.map(|d| d.to_string()).unwrap_or_default(),
        }))
    }

    async fn import_h9_results(
        &self,
        request: Request<pb::ImportH9ResultsRequest>,
    ) -> Result<Response<pb::ImportH9ResultsResponse>, Status> {
        use sha2::Digest as _;
        let claims = self.caller(&request)?;
        authorize(&claims, Asks::Organise)?;
        let text = request.into_inner().text;
        let bad =
            |why: String| weiqi_edge::status::gateway_rejection(pb::rejection::Kind::InvalidArgument, "bad_h9", why);
        if text.len() > MAX_H9_BYTES {
            return Err(bad(format!("the table has {} bytes; at most {MAX_H9_BYTES} are read", text.len())));
        }
        let file = weiqi_pairing::h9::parse_h9(&text).map_err(|e| bad(e.to_string()))?;
        // A table that contradicts itself (both players of a game won, a handicap of 99) is refused
        // with its reasons, before anything is rated.
        let problems: Vec<String> = weiqi_pairing::h9::check_h9(&text)
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
        let done = self.service.import_h9_results(&file, &hex).await.map_err(status)?;
        let line = |(line, player): &(u32, weiqi_rating::PlayerId)| pb::import_h9_results_response::Line {
            line: *line,
            player_id: player.0.clone(),
            ..Default::default()
        };
        Ok(Response::new(pb::ImportH9ResultsResponse {
            tournament: done.tournament.clone(),
            already_imported: done.already_imported,
            matched: done.matched.iter().map(line).collect(),
            not_registered: done
                .not_registered
                .iter()
                .map(|(line, name, pin)| pb::import_h9_results_response::Line {
                    line: *line,
                    name: name.clone(),
                    egd_pin: pin.unwrap_or(0),
                    ..Default::default()
                })
                .collect(),
            seeded: done
                .seeded
                .iter()
                .map(|(p, r)| pb::import_egd_ratings_response::Seeded { player_id: p.0.clone(), rating: *r })
                .collect(),
            games: u32::try_from(done.games).unwrap_or(u32::MAX),
            games_left_out: u32::try_from(done.games_left_out).unwrap_or(u32::MAX),
            rated: u32::try_from(done.rated).unwrap_or(u32::MAX),
        }))
    }

    async fn update_player(
        &self,
        request: Request<pb::RegistryUpdateRequest>,
    ) -> Result<Response<pb::RegistryPlayer>, Status> {
        let (claims, r) = self.holding(request, Asks::Organise)?;
        let id = request_id(&r.request_id)?;
        let profile = profile_from_pb(&r.profile.unwrap_or_default());
        let entry = self.service.update_player(profile, &claims.sub, id).await.map_err(status)?;
        let mut view = views::registry_view(&entry, |l| self.service.ladder(l));
        view.position = self.service.player_log_head().await.map_err(status)?;
        Ok(Response::new(view))
    }

    async fn review_queue(&self, request: Request<pb::ReviewQueueRequest>) -> Result<Response<pb::CaseList>, Status> {
        let claims = self.caller(&request)?;
        authorize(&claims, Asks::Review)?;
        let me = ActorId(claims.sub.clone());
        let reviewer = if request.get_ref().all { None } else { Some(&me) };
        let cases = self.service.review_queue(reviewer).await.map_err(status)?;
        Ok(Response::new(pb::CaseList { cases: cases.iter().map(views::case_view).collect() }))
    }

    async fn assign_reviewer(
        &self,
        request: Request<pb::AssignReviewerRequest>,
    ) -> Result<Response<pb::CaseView>, Status> {
        let (claims, r) = self.holding(request, Asks::Review)?;
        let id = request_id(&r.request_id)?;
        let reviewer = non_empty(&r.reviewer).unwrap_or_else(|| claims.sub.clone());
        authorize(&claims, Asks::Assign { reviewer: &reviewer })?;
        let record = self
            .service
            .assign_reviewer(&CaseId(r.case_id), &ActorId(reviewer), &claims.sub, id)
            .await
            .map_err(status)?;
        Ok(Response::new(views::case_view(&record)))
    }

    async fn decide_case(&self, request: Request<pb::DecideCaseRequest>) -> Result<Response<pb::CaseView>, Status> {
        let (claims, r) = self.holding(request, Asks::Review)?;
        let id = request_id(&r.request_id)?;
        let verdict = if r.approve {
            Verdict::Approve { note: r.reasons.join("; "), override_reason: non_empty(&r.override_reason) }
        } else {
            Verdict::Reject { reasons: r.reasons }
        };
        let record =
            self.service.decide(&CaseId(r.case_id), &ActorId(claims.sub), verdict, id).await.map_err(status)?;
        Ok(Response::new(views::case_view(&record)))
    }

    async fn revoke_certificate(
        &self,
        request: Request<pb::RevokeCertificateRequest>,
    ) -> Result<Response<pb::CaseView>, Status> {
        let (claims, r) = self.holding(request, Asks::Review)?;
        let id = request_id(&r.request_id)?;
        let record =
            self.service.revoke(&CaseId(r.case_id), &ActorId(claims.sub), &r.reason, id).await.map_err(status)?;
        Ok(Response::new(views::case_view(&record)))
    }

    async fn acknowledge_revisions(
        &self,
        request: Request<pb::AcknowledgeRevisionsRequest>,
    ) -> Result<Response<pb::CaseView>, Status> {
        let (claims, r) = self.holding(request, Asks::Review)?;
        let id = request_id(&r.request_id)?;
        let record = self
            .service
            .acknowledge_revisions(&CaseId(r.case_id), &ActorId(claims.sub), &r.note, id)
            .await
            .map_err(status)?;
        Ok(Response::new(views::case_view(&record)))
    }
}
