//! `weiqi.v1.RankingService`: each request's token becomes the caller's claims and its protobuf domain
//! values, for the [`RankingApi`], where the ranking's authority decides who may do what.
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
//! The answers are the API's [`crate::views`], made messages once in `wire.rs`.

mod wire;

use std::sync::Arc;

use tonic::{Request, Response, Status};
use weiqi_edge::auth::{Authority, Claims};
use weiqi_proto::v1 as pb;

use crate::api::{ApiError, RankingApi};
use crate::cases::{Application, Verdict};
use crate::codec::player::profile_from_pb;
use crate::domain::RankingRejection;
use crate::error::RankingError;
use crate::readmodel::AnyReadModel;
use crate::service::RankingService;
use weiqi_rating::PlayerId;

pub use crate::api::{DEFAULT_HISTORY, DEFAULT_LIMIT, MAX_EGD_BYTES, MAX_H9_BYTES, MAX_LIMIT};

/// The largest request the ranking RPCs decode: the largest import and its envelope. Every other
/// request is bounded by its fields' limits, which the domain checks.
pub const MAX_DECODED_BYTES: usize = MAX_EGD_BYTES + weiqi_edge::serve::MAX_REQUEST_BYTES;

/// The ranking RPCs: each request's token becomes the caller's claims, its protobuf domain values,
/// and both go to the [`RankingApi`].
#[derive(Clone, Debug)]
pub struct RankingGateway {
    api: RankingApi,
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

/// The gRPC status of an API error.
#[must_use]
pub fn api_status(e: ApiError) -> Status {
    match e {
        ApiError::Ranking(e) => status(e),
        ApiError::Bad { code, message } => {
            weiqi_edge::status::rejected(weiqi_aggregate::RejectionKind::InvalidArgument, code, message)
        }
    }
}

/// An answer of the API as the RPC's reply: the view as its message (see [`wire`]), or the status.
fn answer<T, W: From<T>>(r: Result<T, ApiError>) -> Result<Response<W>, Status> {
    r.map(|view| Response::new(view.into())).map_err(api_status)
}

/// A list of cases as its message.
fn case_list(r: Result<Vec<crate::views::CaseView>, ApiError>) -> Result<Response<pb::CaseList>, Status> {
    answer(r.map(|cases| cases.into_iter().map(Into::into).collect::<Vec<pb::CaseView>>()))
        .map(|r| r.map(|cases| pb::CaseList { cases }))
}

impl RankingGateway {
    /// The ranking RPCs over the service, its read model and the gateway's token authority.
    #[must_use]
    pub fn new(service: Arc<RankingService>, model: AnyReadModel, auth: Authority) -> RankingGateway {
        RankingGateway { api: RankingApi::new(service, model), auth }
    }

    /// The API behind the RPCs.
    #[must_use]
    pub fn api(&self) -> &RankingApi {
        &self.api
    }

    /// The tonic service, ready for `RoutesBuilder::add_service`.
    #[must_use]
    pub fn into_server(self) -> pb::ranking_service_server::RankingServiceServer<RankingGateway> {
        pb::ranking_service_server::RankingServiceServer::new(self).max_decoding_message_size(MAX_DECODED_BYTES)
    }

    /// Who asks: the token checked against the account now.
    fn caller<T>(&self, request: &Request<T>) -> Result<Claims, Status> {
        Ok(self.auth.caller(request)?)
    }
}

#[tonic::async_trait]
impl pb::ranking_service_server::RankingService for RankingGateway {
    async fn leaderboard(
        &self,
        request: Request<pb::LeaderboardRequest>,
    ) -> Result<Response<pb::LeaderboardResponse>, Status> {
        let r = request.into_inner();
        answer(self.api.leaderboard(&r.band, &r.region, r.offset, r.limit, r.min_position).await)
    }

    async fn get_registry_player(
        &self,
        request: Request<pb::RegistryGetPlayerRequest>,
    ) -> Result<Response<pb::RegistryPlayer>, Status> {
        answer(self.api.registry_player(&request.into_inner().player_id).await)
    }

    async fn verify_certificate(
        &self,
        request: Request<pb::VerifyCertificateRequest>,
    ) -> Result<Response<pb::VerifyCertificateResponse>, Status> {
        answer(self.api.verify_certificate(&request.into_inner().certificate).await)
    }

    async fn revocation_list(
        &self,
        _: Request<pb::RevocationListRequest>,
    ) -> Result<Response<pb::RevocationListResponse>, Status> {
        answer(self.api.revocation_list().await)
    }

    async fn association_key(
        &self,
        _: Request<pb::AssociationKeyRequest>,
    ) -> Result<Response<pb::AssociationKeyResponse>, Status> {
        Ok(Response::new(self.api.association_key().into()))
    }

    async fn player_history(
        &self,
        request: Request<pb::PlayerHistoryRequest>,
    ) -> Result<Response<pb::RankingHistory>, Status> {
        let r = request.into_inner();
        answer(self.api.history(&r.player_id, r.limit).await)
    }

    async fn get_certificate(
        &self,
        request: Request<pb::GetCertificateRequest>,
    ) -> Result<Response<pb::CertificateRecord>, Status> {
        answer(self.api.certificate(&request.into_inner().serial).await)
    }

    async fn my_rating(&self, request: Request<pb::MyRatingRequest>) -> Result<Response<pb::RatingSummary>, Status> {
        let claims = self.caller(&request)?;
        answer(self.api.my_rating(&claims).await)
    }

    async fn my_history(&self, request: Request<pb::MyHistoryRequest>) -> Result<Response<pb::RankingHistory>, Status> {
        let claims = self.caller(&request)?;
        answer(self.api.my_history(&claims, request.get_ref().limit).await)
    }

    async fn apply_for_rank(
        &self,
        request: Request<pb::ApplyForRankRequest>,
    ) -> Result<Response<pb::CaseView>, Status> {
        let claims = self.caller(&request)?;
        let r = request.into_inner();
        let app = Application {
            request_id: r.request_id,
            player: PlayerId(r.player_id),
            ladder: r.ladder,
            requested: r.requested_grade,
            games: r.game_ids,
            tournaments: r.tournament_ids,
            include_rating: r.include_rating,
        };
        answer(self.api.apply(&claims, app).await)
    }

    async fn my_cases(&self, request: Request<pb::MyCasesRequest>) -> Result<Response<pb::CaseList>, Status> {
        let claims = self.caller(&request)?;
        case_list(self.api.my_cases(&claims).await)
    }

    async fn get_case(&self, request: Request<pb::GetCaseRequest>) -> Result<Response<pb::CaseView>, Status> {
        let claims = self.caller(&request)?;
        answer(self.api.case(&claims, &request.into_inner().case_id).await)
    }

    async fn register_player(
        &self,
        request: Request<pb::RegistryRegisterRequest>,
    ) -> Result<Response<pb::RegistryPlayer>, Status> {
        let claims = self.caller(&request)?;
        let r = request.into_inner();
        let profile = profile_from_pb(&r.profile.unwrap_or_default());
        let rank = Some(r.rank.trim()).filter(|r| !r.is_empty());
        answer(self.api.register_player(&claims, profile, rank, &r.request_id).await)
    }

    async fn import_egd_ratings(
        &self,
        request: Request<pb::ImportEgdRatingsRequest>,
    ) -> Result<Response<pb::ImportEgdRatingsResponse>, Status> {
        let claims = self.caller(&request)?;
        answer(self.api.import_egd_ratings(&claims, &request.into_inner().text).await)
    }

    async fn import_h9_results(
        &self,
        request: Request<pb::ImportH9ResultsRequest>,
    ) -> Result<Response<pb::ImportH9ResultsResponse>, Status> {
        let claims = self.caller(&request)?;
        answer(self.api.import_h9_results(&claims, &request.into_inner().text).await)
    }

    async fn update_player(
        &self,
        request: Request<pb::RegistryUpdateRequest>,
    ) -> Result<Response<pb::RegistryPlayer>, Status> {
        let claims = self.caller(&request)?;
        let r = request.into_inner();
        let profile = profile_from_pb(&r.profile.unwrap_or_default());
        answer(self.api.update_player(&claims, profile, &r.request_id).await)
    }

    async fn review_queue(&self, request: Request<pb::ReviewQueueRequest>) -> Result<Response<pb::CaseList>, Status> {
        let claims = self.caller(&request)?;
        case_list(self.api.review_queue(&claims, request.get_ref().all).await)
    }

    async fn assign_reviewer(
        &self,
        request: Request<pb::AssignReviewerRequest>,
    ) -> Result<Response<pb::CaseView>, Status> {
        let claims = self.caller(&request)?;
        let r = request.into_inner();
        answer(self.api.assign_reviewer(&claims, &r.case_id, &r.reviewer, &r.request_id).await)
    }

    async fn decide_case(&self, request: Request<pb::DecideCaseRequest>) -> Result<Response<pb::CaseView>, Status> {
        let claims = self.caller(&request)?;
        let r = request.into_inner();
        let decision = if r.approve {
            let override_reason = Some(r.override_reason.trim().to_string()).filter(|o| !o.is_empty());
            Verdict::Approve { note: r.reasons.join("; "), override_reason }
        } else {
            Verdict::Reject { reasons: r.reasons }
        };
        answer(self.api.decide(&claims, &r.case_id, decision, &r.request_id).await)
    }

    async fn revoke_certificate(
        &self,
        request: Request<pb::RevokeCertificateRequest>,
    ) -> Result<Response<pb::CaseView>, Status> {
        let claims = self.caller(&request)?;
        let r = request.into_inner();
        answer(self.api.revoke(&claims, &r.case_id, &r.reason, &r.request_id).await)
    }

    async fn acknowledge_revisions(
        &self,
        request: Request<pb::AcknowledgeRevisionsRequest>,
    ) -> Result<Response<pb::CaseView>, Status> {
        let claims = self.caller(&request)?;
        let r = request.into_inner();
        answer(self.api.acknowledge_revisions(&claims, &r.case_id, &r.note, &r.request_id).await)
    }
}
