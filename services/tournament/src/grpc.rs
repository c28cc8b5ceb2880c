//! `weiqi.v1.TournamentService`: each request's token becomes a caller and its protobuf domain values;
//! the [`TournamentApi`] decides who may act (the tournament's [`crate::authority`]) and runs it.
//!
//! Commands need an organiser or referee of the tournament's event; creating a tournament needs an
//! organiser of its event. Reads need any valid token. Standings, pairings and
//! the summary come from the read model (Redis or memory); explanations and exports are computed
//! from the log, which is where the core's full state is.

use std::sync::Arc;

use tonic::{Request, Response, Status};
use weiqi_edge::auth::Authority;
use weiqi_edge::status::{gateway_rejection, rejection_status};
use weiqi_eventlog::AnyEventLog;
use weiqi_game::authority::Caller;
use weiqi_pairing::command::Command;
use weiqi_pairing::event::{Correction, WithdrawalReason};
use weiqi_pairing::ids::{GameRef, PlayerId, TeamId};
use weiqi_proto::v1 as pb;

use crate::aggregate::{ServiceRejection, TournamentCommand};
use crate::api::{ApiError, ExportKind, H9Overrides, TournamentApi};
use crate::codec::log;
use crate::convert;
use crate::directory::PlayerDirectory;
use crate::read_model::AnyReadModel;
use crate::service::{Accepted, ServiceError, TournamentService};

/// A rejection on the wire, with its kind, stable code and message.
pub fn rejection_to_pb(r: &ServiceRejection) -> pb::Rejection {
    weiqi_edge::status::rejection(r.kind(), r.code(), r.to_string())
}

/// The gRPC status of a service error (typed rejection in the details).
pub fn status(e: &ServiceError) -> Status {
    match e {
        ServiceError::Rejected(r) => rejection_status(&rejection_to_pb(r)),
        ServiceError::CommandIdReused(_) => {
            gateway_rejection(pb::rejection::Kind::InvalidArgument, "request_id_reused", e.to_string())
        }
        ServiceError::Unavailable(why) => Status::unavailable(why.clone()),
        ServiceError::Internal(why) => Status::internal(why.clone()),
    }
}

/// The largest OpenGotha file [`ImportOpenGotha`](pb::tournament_service_server::TournamentService::import_open_gotha)
/// reads (a national championship's file is a few hundred KiB).
pub const MAX_IMPORT_BYTES: usize = crate::api::MAX_IMPORT_BYTES;
/// The largest request the tournament RPCs decode: the largest import and its envelope. Every other
/// request is bounded by its fields' limits, which the domain checks.
pub const MAX_DECODED_BYTES: usize = MAX_IMPORT_BYTES + weiqi_edge::serve::MAX_REQUEST_BYTES;

/// An accepted command's reply.
pub fn reply_to_pb(tournament_id: &str, a: &Accepted) -> pb::TournamentCommandReply {
    pb::TournamentCommandReply {
        events: a.events.iter().map(|r| log::envelope(tournament_id, r)).collect(),
        duplicate: a.duplicate,
        sequence: a.sequence,
    }
}

/// The status of an API error: a rejection with its typed reason in the details, a fault as
/// `Unavailable` or `Internal`.
pub fn api_status(e: &ApiError) -> Status {
    match e {
        ApiError::Service(s) => status(s),
        ApiError::Internal(why) => Status::internal(why.clone()),
        _ => match e.kind() {
            Some(kind) => weiqi_edge::status::rejected(kind, e.code(), e.to_string()),
            None => Status::unavailable(e.to_string()),
        },
    }
}

/// The tournament RPCs: each request's token becomes a caller, its protobuf domain values, and both go
/// to the [`TournamentApi`].
#[derive(Clone)]
pub struct TournamentGateway {
    api: TournamentApi,
    auth: Authority,
}

fn invalid(code: &str, message: impl Into<String>) -> Status {
    gateway_rejection(pb::rejection::Kind::InvalidArgument, code, message)
}

type Reply = Result<Response<pb::TournamentCommandReply>, Status>;

impl TournamentGateway {
    /// The tournament RPCs over the service (commands, explanations, exports), the read model
    /// (standings, pairings, summaries), the gateway's token authority, and the player directory
    /// that supplies registration snapshots ([`crate::directory::NoDirectory`] until the ranking
    /// service's registry is plugged in).
    pub fn new(
        service: Arc<TournamentService<AnyEventLog>>,
        model: AnyReadModel,
        auth: Authority,
        directory: Arc<dyn PlayerDirectory>,
    ) -> TournamentGateway {
        TournamentGateway { api: TournamentApi::new(service, model, directory), auth }
    }

    /// The API behind the RPCs.
    pub fn api(&self) -> &TournamentApi {
        &self.api
    }

    /// The tonic service, ready for `RoutesBuilder::add_service`.
    pub fn into_server(self) -> pb::tournament_service_server::TournamentServiceServer<TournamentGateway> {
        pb::tournament_service_server::TournamentServiceServer::new(self).max_decoding_message_size(MAX_DECODED_BYTES)
    }

    fn caller<T>(&self, request: &Request<T>) -> Result<Caller, Status> {
        Ok(weiqi_game::api::caller(&self.auth.caller(request)?))
    }

    async fn run(&self, caller: &Caller, id: &str, request_id: &str, cmd: TournamentCommand) -> Reply {
        let accepted = self.api.act(caller, id, request_id, cmd).await.map_err(|e| api_status(&e))?;
        Ok(Response::new(reply_to_pb(id, &accepted)))
    }

    async fn core<T>(&self, request: Request<T>, id: impl Fn(&T) -> (String, String), cmd: Command) -> Reply {
        let caller = self.caller(&request)?;
        let (tid, rid) = id(request.get_ref());
        self.run(&caller, &tid, &rid, TournamentCommand::Core(cmd)).await
    }
}

fn ids2(tid: &str, rid: &str) -> (String, String) {
    (tid.to_string(), rid.to_string())
}

#[tonic::async_trait]
impl pb::tournament_service_server::TournamentService for TournamentGateway {
    async fn create_tournament(&self, request: Request<pb::CreateTournamentRequest>) -> Reply {
        let caller = self.caller(&request)?;
        let r = request.into_inner();
        let settings = r.settings.unwrap_or_default();
        let chose_delay = settings.spectator_delay_minutes.is_some() || settings.spectator_delay_moves.is_some();
        let config = r.config.ok_or_else(|| invalid("missing_config", "config is required"))?;
        let config = convert::config_from_pb(&config, 0).map_err(|e| invalid(e.code, e.message))?;
        let mut settings = log::settings_from_pb(&settings).map_err(|e| invalid(e.code, e.message))?;
        if !chose_delay {
            settings.spectator_delay = crate::settings::GameSettings::default_spectator_delay(settings.rated);
        }
        if settings.event_id.as_deref().is_some_and(str::is_empty) {
            settings.event_id = None;
        }
        let accepted = self
            .api
            .create(&caller, &r.tournament_id, &r.request_id, config, settings)
            .await
            .map_err(|e| api_status(&e))?;
        Ok(Response::new(reply_to_pb(&r.tournament_id, &accepted)))
    }

    async fn register_player(&self, request: Request<pb::RegisterPlayerRequest>) -> Reply {
        let caller = self.caller(&request)?;
        let r = request.into_inner();
        let entry = r.snapshot.as_ref().map(TournamentApi::entry_of);
        let accepted = self
            .api
            .register(&caller, &r.tournament_id, &r.request_id, &r.account_id, r.player, entry)
            .await
            .map_err(|e| api_status(&e))?;
        Ok(Response::new(reply_to_pb(&r.tournament_id, &accepted)))
    }

    async fn register_team(&self, request: Request<pb::RegisterTeamRequest>) -> Reply {
        let r = request.get_ref().clone();
        let cmd = Command::RegisterTeam {
            team: TeamId(r.team),
            name: r.name.clone(),
            members: r.members.iter().map(|&m| PlayerId(m)).collect(),
        };
        self.core(request, |r| ids2(&r.tournament_id, &r.request_id), cmd).await
    }

    async fn start_tournament(&self, request: Request<pb::TournamentRequest>) -> Reply {
        self.core(request, |r| ids2(&r.tournament_id, &r.request_id), Command::Start).await
    }

    async fn withdraw_player(&self, request: Request<pb::WithdrawPlayerRequest>) -> Reply {
        use pb::withdraw_player_request::Reason as R;
        let r = request.get_ref();
        let reason = match R::try_from(r.reason) {
            Ok(R::NoShows) => WithdrawalReason::NoShows,
            Ok(R::Disqualified) => WithdrawalReason::Disqualified,
            _ => WithdrawalReason::Request,
        };
        let cmd = Command::Withdraw { player: PlayerId(r.player), reason };
        self.core(request, |r| ids2(&r.tournament_id, &r.request_id), cmd).await
    }

    async fn forbid_pair(&self, request: Request<pb::ForbidPairRequest>) -> Reply {
        let r = request.get_ref();
        let cmd = if r.lift {
            Command::AllowPair { a: PlayerId(r.a), b: PlayerId(r.b) }
        } else {
            Command::ForbidPair { a: PlayerId(r.a), b: PlayerId(r.b), round: (r.round > 0).then_some(r.round) }
        };
        self.core(request, |r| ids2(&r.tournament_id, &r.request_id), cmd).await
    }

    async fn fix_pairing(&self, request: Request<pb::FixPairingRequest>) -> Reply {
        let r = request.get_ref();
        let cmd = Command::FixPairing { round: r.round, black: PlayerId(r.black), white: PlayerId(r.white) };
        self.core(request, |r| ids2(&r.tournament_id, &r.request_id), cmd).await
    }

    async fn grant_bye(&self, request: Request<pb::GrantByeRequest>) -> Reply {
        let r = request.get_ref();
        let cmd =
            Command::GrantBye { round: r.round, player: PlayerId(r.player), kind: convert::bye_kind_from_pb(r.kind) };
        self.core(request, |r| ids2(&r.tournament_id, &r.request_id), cmd).await
    }

    async fn submit_line_up(&self, request: Request<pb::SubmitLineUpRequest>) -> Reply {
        let r = request.get_ref();
        let cmd = Command::SubmitLineUp {
            round: r.round,
            team: TeamId(r.team),
            players: r.players.iter().map(|&p| PlayerId(p)).collect(),
        };
        self.core(request, |r| ids2(&r.tournament_id, &r.request_id), cmd).await
    }

    async fn pair_round(&self, request: Request<pb::PairRoundRequest>) -> Reply {
        let caller = self.caller(&request)?;
        let r = request.into_inner();
        let cmd = TournamentCommand::PairRound { round: (r.round != 0).then_some(r.round) };
        self.run(&caller, &r.tournament_id, &r.request_id, cmd).await
    }

    async fn preview_pairing(
        &self,
        request: Request<pb::PreviewPairingRequest>,
    ) -> Result<Response<pb::TournamentPairings>, Status> {
        let caller = self.caller(&request)?;
        let id = request.into_inner().tournament_id;
        self.api.preview_wire(&caller, &id).await.map(Response::new).map_err(|e| api_status(&e))
    }

    async fn record_result(&self, request: Request<pb::RecordTournamentResultRequest>) -> Reply {
        let r = request.get_ref();
        let game = GameRef { round: r.round, table: r.table };
        let result = convert::result_from_pb(r.result.as_ref()).map_err(|e| invalid(e.code, e.message))?;
        let cmd = if r.correction {
            let reason = if r.cheating { Correction::Cheating } else { Correction::RecordingError };
            Command::CorrectResult { game, result, reason }
        } else {
            Command::RecordResult { game, result }
        };
        self.core(request, |r| ids2(&r.tournament_id, &r.request_id), cmd).await
    }

    async fn issue_warning(&self, request: Request<pb::TournamentWarningRequest>) -> Reply {
        let r = request.get_ref();
        let cmd =
            Command::IssueWarning { game: GameRef { round: r.round, table: r.table }, player: PlayerId(r.player) };
        self.core(request, |r| ids2(&r.tournament_id, &r.request_id), cmd).await
    }

    async fn publish(&self, request: Request<pb::TournamentRequest>) -> Reply {
        let caller = self.caller(&request)?;
        let r = request.into_inner();
        self.run(&caller, &r.tournament_id, &r.request_id, TournamentCommand::Publish).await
    }

    async fn get_tournament(
        &self,
        request: Request<pb::GetTournamentRequest>,
    ) -> Result<Response<pb::TournamentSummary>, Status> {
        self.auth.caller(&request)?;
        let r = request.into_inner();
        self.api.summary_wire(&r.tournament_id, r.min_sequence).await.map(Response::new).map_err(|e| api_status(&e))
    }

    async fn get_standings(
        &self,
        request: Request<pb::GetTournamentStandingsRequest>,
    ) -> Result<Response<pb::TournamentStandings>, Status> {
        self.auth.caller(&request)?;
        let r = request.into_inner();
        let standings = self.api.standings_wire(&r.tournament_id, r.offset, r.limit, r.min_sequence).await;
        standings.map(Response::new).map_err(|e| api_status(&e))
    }

    async fn get_pairings(
        &self,
        request: Request<pb::GetTournamentPairingsRequest>,
    ) -> Result<Response<pb::TournamentPairings>, Status> {
        self.auth.caller(&request)?;
        let r = request.into_inner();
        self.api
            .pairings_wire(&r.tournament_id, r.round, r.min_sequence)
            .await
            .map(Response::new)
            .map_err(|e| api_status(&e))
    }

    async fn explain_pairing(
        &self,
        request: Request<pb::ExplainPairingRequest>,
    ) -> Result<Response<pb::TournamentPairingExplanation>, Status> {
        self.auth.caller(&request)?;
        let r = request.into_inner();
        let explained = match self.api.explain(&r.tournament_id, r.round, r.a, r.b, r.alternatives).await {
            Ok(e) => e,
            // A pair that did not meet in that round: `not_paired`, as clients know it.
            Err(ApiError::NotFound(why)) if !why.starts_with("no tournament") => {
                return Err(gateway_rejection(pb::rejection::Kind::NotFound, "not_paired", why));
            }
            Err(e) => return Err(api_status(&e)),
        };
        Ok(Response::new(pb::TournamentPairingExplanation {
            round: r.round,
            a: r.a,
            b: r.b,
            basis: explained.basis.to_string(),
            text: explained.text,
            json: explained.json,
        }))
    }

    async fn export(
        &self,
        request: Request<pb::ExportTournamentRequest>,
    ) -> Result<Response<pb::TournamentExport>, Status> {
        use pb::export_tournament_request::Kind;
        self.auth.caller(&request)?;
        let r = request.into_inner();
        let kind = match Kind::try_from(r.kind).unwrap_or(Kind::Unspecified) {
            Kind::Unspecified => {
                return Err(invalid(
                    "missing_kind",
                    "kind is required (standings CSV, pairings CSV, .h9 or OpenGotha)",
                ));
            }
            Kind::PairingsCsv => ExportKind::PairingsCsv { round: r.round },
            Kind::H9 => ExportKind::H9,
            Kind::Opengotha => ExportKind::OpenGotha,
            _ => ExportKind::StandingsCsv,
        };
        let h9 = H9Overrides {
            class: r.h9_class.chars().next(),
            place: r.h9_place,
            dates: r.h9_dates,
            handicap: r.h9_handicap,
            komi: r.h9_komi,
            basic_minutes: r.h9_basic_minutes,
        };
        let out = self.api.export(&r.tournament_id, kind, h9).await.map_err(|e| api_status(&e))?;
        Ok(Response::new(pb::TournamentExport {
            filename: out.filename,
            content_type: out.content_type.into(),
            content: out.content,
        }))
    }

    async fn import_open_gotha(&self, request: Request<pb::ImportOpenGothaRequest>) -> Reply {
        let caller = self.caller(&request)?;
        let r = request.into_inner();
        let accepted = self
            .api
            .import_open_gotha(&caller, &r.tournament_id, &r.request_id, &r.file, r.dry_run)
            .await
            .map_err(|e| api_status(&e))?;
        Ok(Response::new(reply_to_pb(&r.tournament_id, &accepted)))
    }

    async fn set_facts(&self, request: Request<pb::SetTournamentFactsRequest>) -> Reply {
        let caller = self.caller(&request)?;
        let r = request.into_inner();
        let facts =
            crate::codec::log::facts_from_pb(&r.facts.unwrap_or_default()).map_err(|e| invalid(e.code, e.message))?;
        self.run(&caller, &r.tournament_id, &r.request_id, TournamentCommand::SetFacts(facts)).await
    }
}
