//! `weiqi.v1.TournamentService` at the gateway.
//!
//! Commands need an organiser or referee of the tournament's event (`Claims::referees`); creating a
//! tournament needs an organiser of its event. Reads need any valid token. Standings, pairings and
//! the summary come from the read model (Redis or memory); explanations and exports are computed
//! from the log, which is where the core's full state is.

use std::sync::Arc;

use tonic::{Request, Response, Status};
use weiqi_edge::auth::{Authority, Claims, Role};
use weiqi_edge::status::{gateway_rejection, rejection_status};
use weiqi_eventlog::AnyEventLog;
use weiqi_pairing::command::Command;
use weiqi_pairing::event::{Correction, WithdrawalReason};
use weiqi_pairing::explain::{Basis, explain_pairing};
use weiqi_pairing::export::{H9Header, export_h9, pairings_csv, standings_csv};
use weiqi_pairing::ids::{GameRef, PlayerId, TeamId};
use weiqi_pairing::opengotha::export_opengotha;
use weiqi_pairing::standings::standings;
use weiqi_proto::v1 as pb;

use weiqi_game::domain::Actor;

use crate::aggregate::{ServiceRejection, TournamentCommand};
use crate::codec::log;
use crate::convert;
use crate::directory::PlayerDirectory;
use crate::read_model::{AnyReadModel, ReadModel};
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
pub const MAX_IMPORT_BYTES: usize = 4 * 1024 * 1024;
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

/// The tournament RPCs.
#[derive(Clone)]
pub struct TournamentGateway {
    service: Arc<TournamentService<AnyEventLog>>,
    model: AnyReadModel,
    auth: Authority,
    directory: Arc<dyn PlayerDirectory>,
}

fn invalid(code: &str, message: impl Into<String>) -> Status {
    gateway_rejection(pb::rejection::Kind::InvalidArgument, code, message)
}

fn denied(message: impl Into<String>) -> Status {
    gateway_rejection(pb::rejection::Kind::PermissionDenied, "permission_denied", message)
}

impl TournamentGateway {
    /// Read your writes: waits until the read model has folded tournament `id` up to `min` (0: at
    /// once), polling its summary ([`weiqi_edge::read_your_writes::wait_for`]).
    async fn caught_up(&self, id: &str, min: u64) -> Result<(), Status> {
        if min == 0 {
            return Ok(());
        }
        let what = format!("the read model of {id}");
        weiqi_edge::read_your_writes::wait_for(&what, min, || async {
            Ok(self.model.summary(id).await.map_err(|e| e.to_status())?.map_or(0, |s| s.sequence))
        })
        .await
        .map(|_| ())
    }
}

fn not_found(message: impl Into<String>) -> Status {
    gateway_rejection(pb::rejection::Kind::NotFound, "not_found", message)
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
        TournamentGateway { service, model, auth, directory }
    }

    /// The tonic service, ready for `RoutesBuilder::add_service`.
    pub fn into_server(self) -> pb::tournament_service_server::TournamentServiceServer<TournamentGateway> {
        pb::tournament_service_server::TournamentServiceServer::new(self).max_decoding_message_size(MAX_DECODED_BYTES)
    }

    fn actor(claims: &Claims) -> Actor {
        let id = claims.sub.clone();
        if claims.has(Role::Organiser) {
            Actor::Organiser(id)
        } else if claims.has(Role::ChiefReferee) {
            Actor::ChiefReferee(id)
        } else {
            Actor::Referee(id)
        }
    }

    /// The actor for a command on an existing tournament, if the caller is its staff.
    async fn staff<T>(&self, request: &Request<T>, tournament_id: &str) -> Result<Actor, Status> {
        let claims = self.auth.caller(request)?;
        if tournament_id.is_empty() {
            return Err(invalid("missing_tournament_id", "tournament_id is required"));
        }
        let event = self
            .service
            .read(tournament_id, |t| t.event_id(tournament_id).to_string())
            .await
            .map_err(|e| status(&e))?
            .ok_or_else(|| not_found(format!("no tournament {tournament_id}")))?;
        if !claims.referees(Some(&event)) {
            return Err(denied(format!("only organisers and referees of event {event} act on this tournament")));
        }
        Ok(Self::actor(&claims))
    }

    async fn run(&self, tournament_id: &str, request_id: &str, actor: &Actor, cmd: TournamentCommand) -> Reply {
        if request_id.is_empty() {
            return Err(invalid("missing_request_id", "request_id is required (a retry reuses it)"));
        }
        let outcome = self.service.execute(tournament_id, request_id, actor, &cmd).await.map_err(|e| status(&e))?;
        Ok(Response::new(reply_to_pb(tournament_id, &outcome)))
    }

    async fn core<T>(&self, request: Request<T>, id: impl Fn(&T) -> (String, String), cmd: Command) -> Reply {
        let (tid, rid) = id(request.get_ref());
        let actor = self.staff(&request, &tid).await?;
        self.run(&tid, &rid, &actor, TournamentCommand::Core(cmd)).await
    }
}

fn ids2(tid: &str, rid: &str) -> (String, String) {
    (tid.to_string(), rid.to_string())
}

#[tonic::async_trait]
impl pb::tournament_service_server::TournamentService for TournamentGateway {
    async fn create_tournament(&self, request: Request<pb::CreateTournamentRequest>) -> Reply {
        let claims = self.auth.caller(&request)?;
        let r = request.into_inner();
        let settings = r.settings.unwrap_or_default();
        let event = if settings.event_id.is_empty() { r.tournament_id.clone() } else { settings.event_id.clone() };
        if !(claims.has(Role::Organiser) && claims.covers_event(&event)) {
            return Err(denied(format!("only organisers of event {event} create its tournaments")));
        }
        let config = r.config.ok_or_else(|| invalid("missing_config", "config is required"))?;
        let config = convert::config_from_pb(&config, 0).map_err(|e| invalid(e.code, e.message))?;
        let settings = log::settings_from_pb(&settings).map_err(|e| invalid(e.code, e.message))?;
        let actor = Self::actor(&claims);
        self.run(&r.tournament_id, &r.request_id, &actor, TournamentCommand::Create { config, settings }).await
    }

    async fn register_player(&self, request: Request<pb::RegisterPlayerRequest>) -> Reply {
        let actor = self.staff(&request, &request.get_ref().tournament_id).await?;
        let r = request.into_inner();
        if r.account_id.is_empty() {
            return Err(invalid("missing_account_id", "account_id is required (the player's platform id)"));
        }
        let snapshot = match r.snapshot {
            Some(s) => s,
            None => self
                .directory
                .snapshot(&r.account_id)
                .await
                .map_err(|e| Status::unavailable(e.to_string()))?
                .ok_or_else(|| {
                    not_found(format!("no snapshot given and the directory does not know {}", r.account_id))
                })?,
        };
        let registration = convert::registration_from_snapshot(PlayerId(r.player), &snapshot)
            .map_err(|e| invalid(e.code, e.message))?;
        let cmd = TournamentCommand::Register { account: r.account_id.clone(), registration };
        self.run(&r.tournament_id, &r.request_id, &actor, cmd).await
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
        let actor = self.staff(&request, &request.get_ref().tournament_id).await?;
        let r = request.into_inner();
        let cmd = TournamentCommand::PairRound { round: (r.round != 0).then_some(r.round) };
        self.run(&r.tournament_id, &r.request_id, &actor, cmd).await
    }

    async fn preview_pairing(
        &self,
        request: Request<pb::PreviewPairingRequest>,
    ) -> Result<Response<pb::TournamentPairings>, Status> {
        let id = request.get_ref().tournament_id.clone();
        self.staff(&request, &id).await?;
        match self.service.preview_round(&id).await.map_err(|e| status(&e))? {
            Some(p) => Ok(Response::new(p)),
            None => Err(not_found(format!("no tournament {id}"))),
        }
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
        let actor = self.staff(&request, &request.get_ref().tournament_id).await?;
        let r = request.into_inner();
        self.run(&r.tournament_id, &r.request_id, &actor, TournamentCommand::Publish).await
    }

    async fn get_tournament(
        &self,
        request: Request<pb::GetTournamentRequest>,
    ) -> Result<Response<pb::TournamentSummary>, Status> {
        self.auth.caller(&request)?;
        let r = request.into_inner();
        let id = r.tournament_id;
        self.caught_up(&id, r.min_sequence).await?;
        let s = self.model.summary(&id).await.map_err(|e| e.to_status())?;
        s.map(Response::new).ok_or_else(|| not_found(format!("no tournament {id} (yet) in the read model")))
    }

    async fn get_standings(
        &self,
        request: Request<pb::GetTournamentStandingsRequest>,
    ) -> Result<Response<pb::TournamentStandings>, Status> {
        self.auth.caller(&request)?;
        let r = request.into_inner();
        self.caught_up(&r.tournament_id, r.min_sequence).await?;
        let s = self.model.standings(&r.tournament_id, r.offset, r.limit).await.map_err(|e| e.to_status())?;
        s.map(Response::new).ok_or_else(|| not_found(format!("no standings for {} (yet)", r.tournament_id)))
    }

    async fn get_pairings(
        &self,
        request: Request<pb::GetTournamentPairingsRequest>,
    ) -> Result<Response<pb::TournamentPairings>, Status> {
        self.auth.caller(&request)?;
        let r = request.into_inner();
        self.caught_up(&r.tournament_id, r.min_sequence).await?;
        let p = self.model.pairings(&r.tournament_id, r.round).await.map_err(|e| e.to_status())?;
        p.map(Response::new).ok_or_else(|| not_found(format!("no pairings for {} round {}", r.tournament_id, r.round)))
    }

    async fn explain_pairing(
        &self,
        request: Request<pb::ExplainPairingRequest>,
    ) -> Result<Response<pb::TournamentPairingExplanation>, Status> {
        self.auth.caller(&request)?;
        let r = request.into_inner();
        let alternatives = if r.alternatives == 0 { 4 } else { r.alternatives.min(32) as usize };
        let explained = self
            .service
            .read(&r.tournament_id, |t| explain_pairing(&t.core, r.round, PlayerId(r.a), PlayerId(r.b), alternatives))
            .await
            .map_err(|e| status(&e))?
            .ok_or_else(|| not_found(format!("no tournament {}", r.tournament_id)))?
            .map_err(|e| gateway_rejection(pb::rejection::Kind::NotFound, "not_paired", e.to_string()))?;
        let basis = match explained.basis {
            Basis::Matching => "matching",
            Basis::Organiser => "organiser",
            Basis::BergerTable => "berger-table",
            Basis::Bracket => "bracket",
            Basis::BoardOrder => "board-order",
        }
        .to_string();
        Ok(Response::new(pb::TournamentPairingExplanation {
            round: r.round,
            a: r.a,
            b: r.b,
            basis,
            text: explained.to_string(),
            json: serde_json::to_string(&explained).unwrap_or_default(),
        }))
    }

    async fn export(
        &self,
        request: Request<pb::ExportTournamentRequest>,
    ) -> Result<Response<pb::TournamentExport>, Status> {
        use pb::export_tournament_request::Kind;
        self.auth.caller(&request)?;
        let r = request.into_inner();
        let id = r.tournament_id.clone();
        let kind = Kind::try_from(r.kind).unwrap_or(Kind::Unspecified);
        if kind == Kind::Unspecified {
            return Err(invalid("missing_kind", "kind is required (standings CSV, pairings CSV, .h9 or OpenGotha)"));
        }
        let tid = id.clone();
        let out = self
            .service
            .read(&tid, move |t| match kind {
                Kind::PairingsCsv => {
                    let round = if r.round == 0 { t.core.current_round() } else { r.round };
                    (format!("{id}-round-{round}.csv"), "text/csv", pairings_csv(&t.core, round))
                }
                Kind::H9 => {
                    let s = t.settings.clone().unwrap_or_default();
                    let or = |v: &str, d: String| if v.is_empty() { d } else { v.to_string() };
                    let komi = s.ruleset.komi.to_string();
                    // The basic time: main time, or a Chinese byo-yomi's whole basic time.
                    let basic = match s.time_control.system {
                        weiqi_clock::TimeSystem::ChineseByoYomi { basic, .. } => basic.as_millis() / 60_000,
                        system => system.main_time().as_millis() / 60_000,
                    };
                    // DT, HA, KM and TM from the tournament's own data unless the request overrides them.
                    let own = H9Header::for_tournament(&t.core, komi, basic as u32);
                    let header = H9Header {
                        class: r.h9_class.chars().next().unwrap_or(own.class),
                        place: or(&r.h9_place, own.place),
                        dates: or(&r.h9_dates, own.dates),
                        handicap: or(&r.h9_handicap, own.handicap),
                        komi: or(&r.h9_komi, own.komi),
                        basic_minutes: if r.h9_basic_minutes > 0 { r.h9_basic_minutes } else { own.basic_minutes },
                    };
                    (format!("{id}.h9"), "text/plain; charset=utf-8", export_h9(&t.core, &header))
                }
                Kind::Opengotha => {
                    let planned = weiqi_pairing::rounds::rounds_planned(&t.core);
                    (format!("{id}.xml"), "application/xml; charset=utf-8", export_opengotha(&t.core, planned))
                }
                _ => (format!("{id}-standings.csv"), "text/csv", standings_csv(&t.core, &standings(&t.core))),
            })
            .await
            .map_err(|e| status(&e))?
            .ok_or_else(|| not_found(format!("no tournament {tid}")))?;
        Ok(Response::new(pb::TournamentExport { filename: out.0, content_type: out.1.into(), content: out.2 }))
    }

    async fn import_open_gotha(&self, request: Request<pb::ImportOpenGothaRequest>) -> Reply {
        use sha2::Digest as _;
        let actor = self.staff(&request, &request.get_ref().tournament_id).await?;
        let r = request.into_inner();
        if r.file.len() > MAX_IMPORT_BYTES {
            return Err(invalid(
                "too_large",
                format!("the file has {} bytes; at most {MAX_IMPORT_BYTES} are read", r.file.len()),
            ));
        }
        let file = weiqi_pairing::opengotha::read_tournament(&r.file)
            .map_err(|e| invalid("bad_opengotha_file", e.to_string()))?;
        let sha256 = hex::encode(sha2::Sha256::digest(r.file.as_bytes()));
        let cmd = TournamentCommand::ImportOpenGotha { file: Box::new(file), sha256 };
        if r.dry_run {
            let outcome = self.service.dry_run(&r.tournament_id, &actor, &cmd).await.map_err(|e| status(&e))?;
            return Ok(Response::new(reply_to_pb(&r.tournament_id, &outcome)));
        }
        self.run(&r.tournament_id, &r.request_id, &actor, cmd).await
    }
}
