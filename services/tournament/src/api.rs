//! The tournament service as the edges in this process call it: the gRPC server ([`crate::grpc`])
//! and the organiser's desk alike. Commands go in as domain values (a [`Caller`], the tournament, a
//! request id and a [`TournamentCommand`]); who may send them is decided here once by the
//! tournament's [`authority`], then the service runs them. Reads answer what the read model stores:
//! the summary, standings and pairings as [`crate::views`] (domain values; the `*_wire` twins hand
//! the gRPC server the wire form the read model keeps), an explanation, an export.
//!
//! No token and no gRPC request cross this API: an edge turns its own input (a gRPC request and its
//! bearer token, a desk form and its session) into a caller and a command.

use std::sync::Arc;

use weiqi_aggregate::RejectionKind;
use weiqi_eventlog::{AnyEventLog, EventLog as _};
use weiqi_game::authority::Caller;
use weiqi_pairing::explain::{Basis, explain_pairing};
use weiqi_pairing::export::{H9Header, export_h9, pairings_csv, standings_csv};
use weiqi_pairing::ids::PlayerId;
use weiqi_pairing::opengotha::export_opengotha_event;
use weiqi_pairing::standings::standings;
use weiqi_proto::v1 as pb;

use crate::aggregate::TournamentCommand;
use crate::authority::{self, Denied};
use crate::convert;
use crate::directory::PlayerDirectory;
use crate::read_model::{AnyReadModel, ReadModel, StoreError};
use crate::service::{Accepted, ServiceError, TournamentService};
use crate::views::{Pairings, Standings, Summary};

/// The largest OpenGotha file [`TournamentApi::import_open_gotha`] reads (a national championship's
/// file is a few hundred KiB).
pub const MAX_IMPORT_BYTES: usize = 4 * 1024 * 1024;

/// Why a call was not carried out. Nothing was appended.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// The caller may not do this.
    #[error(transparent)]
    Denied(#[from] Denied),
    /// The service refused it, or could not be reached.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// The request is malformed (`code`: a stable reason).
    #[error("{message}")]
    Bad {
        /// The stable code.
        code: &'static str,
        /// What is wrong.
        message: String,
    },
    /// No such tournament (or nothing of it in the read model yet).
    #[error("{0}")]
    NotFound(String),
    /// The read model cannot be read, or has not reached the position asked for: retry.
    #[error("{0}")]
    Unavailable(String),
    /// The read model's data does not decode.
    #[error("{0}")]
    Internal(String),
}

impl From<convert::BadRequest> for ApiError {
    fn from(b: convert::BadRequest) -> ApiError {
        ApiError::Bad { code: b.code, message: b.message }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Unavailable(why) => ApiError::Unavailable(why),
            StoreError::Corrupt(why) => ApiError::Internal(why),
        }
    }
}

impl From<weiqi_edge::read_your_writes::Lagging> for ApiError {
    fn from(l: weiqi_edge::read_your_writes::Lagging) -> ApiError {
        ApiError::Unavailable(l.to_string())
    }
}

impl ApiError {
    /// A stable, machine-readable code.
    pub fn code(&self) -> &str {
        match self {
            ApiError::Denied(d) => d.code(),
            ApiError::Service(ServiceError::Rejected(r)) => r.code(),
            ApiError::Service(ServiceError::CommandIdReused(_)) => "request_id_reused",
            ApiError::Service(ServiceError::Unavailable(_)) | ApiError::Unavailable(_) => "unavailable",
            ApiError::Service(ServiceError::Internal(_)) | ApiError::Internal(_) => "internal",
            ApiError::Bad { code, .. } => code,
            ApiError::NotFound(_) => "not_found",
        }
    }

    /// What kind of refusal this is; `None` for a fault (retry, or a log that does not decode).
    pub fn kind(&self) -> Option<RejectionKind> {
        match self {
            ApiError::Denied(_) => Some(RejectionKind::PermissionDenied),
            ApiError::Service(ServiceError::Rejected(r)) => Some(r.kind()),
            ApiError::Service(ServiceError::CommandIdReused(_)) | ApiError::Bad { .. } => {
                Some(RejectionKind::InvalidArgument)
            }
            ApiError::NotFound(_) => Some(RejectionKind::NotFound),
            ApiError::Service(ServiceError::Unavailable(_) | ServiceError::Internal(_))
            | ApiError::Unavailable(_)
            | ApiError::Internal(_) => None,
        }
    }

    fn missing(code: &'static str, message: &str) -> ApiError {
        ApiError::Bad { code, message: message.to_string() }
    }
}

/// Every command carries a request id (a retry reuses it, and appends nothing new).
fn required_request_id(request_id: &str) -> Result<(), ApiError> {
    if request_id.is_empty() {
        return Err(ApiError::missing("missing_request_id", "request_id is required (a retry reuses it)"));
    }
    Ok(())
}

/// The names, rank and places of a player to register, as entered (a desk form, a gRPC snapshot, the
/// player registry).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The name in Chinese script.
    pub name_zh: String,
    /// The name in Latin script.
    pub name_latin: String,
    /// The rank as written (`3d`, `3段`, `12级`, `业余初段`).
    pub rank: String,
    /// A rating, if known (EGD GoR).
    pub rating: Option<i32>,
    /// The club.
    pub club: String,
    /// The region (province, city).
    pub region: String,
    /// The family (e.g. `王家`), for separating families in the pairing.
    pub family: String,
    /// The country.
    pub country: String,
    /// The EGD PIN (0: none).
    pub egd_pin: u64,
}

impl Entry {
    fn of_snapshot(s: &pb::TournamentPlayerSnapshot) -> Entry {
        Entry {
            name_zh: s.name_zh.clone(),
            name_latin: s.name_latin.clone(),
            rank: s.rank.clone(),
            rating: s.rating,
            club: s.club.clone(),
            region: s.region.clone(),
            family: s.family.clone(),
            country: s.country.clone(),
            egd_pin: s.egd_pin,
        }
    }

    fn snapshot(&self) -> pb::TournamentPlayerSnapshot {
        pb::TournamentPlayerSnapshot {
            name_zh: self.name_zh.clone(),
            name_latin: self.name_latin.clone(),
            rank: self.rank.clone(),
            rating: self.rating,
            club: self.club.clone(),
            region: self.region.clone(),
            family: self.family.clone(),
            country: self.country.clone(),
            egd_pin: self.egd_pin,
        }
    }
}

/// Which file an export is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    /// The standings as CSV.
    StandingsCsv,
    /// A round's pairings as CSV (round 0: the current one).
    PairingsCsv {
        /// The round.
        round: u32,
    },
    /// The results table the EGD takes (`.h9`).
    H9,
    /// The OpenGotha XML file.
    OpenGotha,
}

/// What an `.h9` header says when the tournament's own data is not what the organiser sends (empty
/// or zero: the tournament's own).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct H9Overrides {
    /// The EGD class (`A`…`D`).
    pub class: Option<char>,
    /// The place.
    pub place: String,
    /// The dates.
    pub dates: String,
    /// The handicap rule.
    pub handicap: String,
    /// The komi.
    pub komi: String,
    /// The basic time in minutes.
    pub basic_minutes: u32,
}

/// An exported file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    /// Its name.
    pub filename: String,
    /// Its media type.
    pub content_type: &'static str,
    /// Its text.
    pub content: String,
}

/// A pairing's explanation: the basis, the text and the structured explanation (JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// `matching`, `organiser`, `berger-table`, `bracket`, `board-order`.
    pub basis: &'static str,
    /// In English, for programs' logs.
    pub text: String,
    /// The explanation's data, which pages render in their own language.
    pub json: String,
}

/// The tournament service for the edges: authority first, then the command; reads from the read
/// model (waiting, when asked, until it has folded a position: read your writes).
#[derive(Clone)]
pub struct TournamentApi {
    service: Arc<TournamentService<AnyEventLog>>,
    model: AnyReadModel,
    directory: Arc<dyn PlayerDirectory>,
}

impl TournamentApi {
    /// The API over the service (commands, explanations, exports), the read model (summaries,
    /// standings, pairings) and the player directory registration snapshots come from.
    pub fn new(
        service: Arc<TournamentService<AnyEventLog>>,
        model: AnyReadModel,
        directory: Arc<dyn PlayerDirectory>,
    ) -> TournamentApi {
        TournamentApi { service, model, directory }
    }

    /// The event of tournament `id` (whose staff act on it).
    ///
    /// # Errors
    /// No such tournament, or the log cannot be read.
    pub async fn event_of(&self, id: &str) -> Result<String, ApiError> {
        if id.is_empty() {
            return Err(ApiError::missing("missing_tournament_id", "tournament_id is required"));
        }
        self.service
            .read(id, |t| t.event_id(id).to_string())
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("no tournament {id}")))
    }

    /// Runs `command` on tournament `id` for `caller` (staff of its event).
    ///
    /// # Errors
    /// [`ApiError`]: denied, refused, or unavailable.
    pub async fn act(
        &self,
        caller: &Caller,
        id: &str,
        request_id: &str,
        command: TournamentCommand,
    ) -> Result<Accepted, ApiError> {
        let actor = authority::staff(caller, &self.event_of(id).await?)?;
        required_request_id(request_id)?;
        Ok(self.service.execute(id, request_id, &actor, &command).await?)
    }

    /// Creates tournament `id` for `caller` (an organiser of its event: the settings', else the
    /// tournament's own id).
    ///
    /// # Errors
    /// [`ApiError`]: denied, refused, or unavailable.
    pub async fn create(
        &self,
        caller: &Caller,
        id: &str,
        request_id: &str,
        config: weiqi_pairing::config::TournamentConfig,
        settings: crate::settings::GameSettings,
    ) -> Result<Accepted, ApiError> {
        let event = settings.event_id.clone().filter(|e| !e.is_empty()).unwrap_or_else(|| id.to_string());
        let actor = authority::creator(caller, &event)?;
        required_request_id(request_id)?;
        let command = TournamentCommand::Create { config, settings };
        Ok(self.service.execute(id, request_id, &actor, &command).await?)
    }

    /// Registers the player of `account` as number `player` (0: the next free one), with `entry` as
    /// entered, else the player registry's snapshot of the account.
    ///
    /// # Errors
    /// [`ApiError`]: denied, no name or a rank that does not read, refused, or unavailable.
    pub async fn register(
        &self,
        caller: &Caller,
        id: &str,
        request_id: &str,
        account: &str,
        player: u32,
        entry: Option<Entry>,
    ) -> Result<Accepted, ApiError> {
        let actor = authority::staff(caller, &self.event_of(id).await?)?;
        if account.is_empty() {
            return Err(ApiError::missing("missing_account_id", "account_id is required (the player's platform id)"));
        }
        let snapshot = match entry {
            Some(e) => e.snapshot(),
            None => {
                self.directory.snapshot(account).await.map_err(|e| ApiError::Unavailable(e.to_string()))?.ok_or_else(
                    || ApiError::NotFound(format!("no snapshot given and the directory does not know {account}")),
                )?
            }
        };
        let registration = convert::registration_from_snapshot(PlayerId(player), &snapshot)?;
        let command = TournamentCommand::Register { account: account.to_string(), registration };
        required_request_id(request_id)?;
        Ok(self.service.execute(id, request_id, &actor, &command).await?)
    }

    /// The standings after `round` (0: as they stand), computed from the log (a print of the
    /// standings after any round; the read model keeps only the latest).
    ///
    /// # Errors
    /// No such tournament, or unavailable.
    pub async fn standings_after(&self, id: &str, round: u32) -> Result<Standings, ApiError> {
        let tid = id.to_string();
        self.service
            .read(id, move |t| {
                let cfg = t.config()?;
                let (after_round, criteria, rows) =
                    crate::aggregate::standing_rows_after(t, cfg, (round > 0).then_some(round));
                Some(Standings {
                    tournament_id: tid,
                    after_round,
                    criteria,
                    total: u32::try_from(rows.len()).unwrap_or(u32::MAX),
                    rows,
                    team: cfg.format.is_team(),
                    sequence: t.version,
                })
            })
            .await?
            .flatten()
            .ok_or_else(|| ApiError::NotFound(format!("no tournament {id}")))
    }

    /// What may change mid-event and every change so far (for staff).
    ///
    /// # Errors
    /// Denied, no such tournament, or unavailable.
    pub async fn settings(&self, caller: &Caller, id: &str) -> Result<crate::views::Settings, ApiError> {
        use weiqi_pairing::config::Format;
        authority::staff(caller, &self.event_of(id).await?)?;
        let of = |f: &Format| match f {
            Format::Swiss { rounds } => (Some(*rounds), None),
            Format::McMahon { rounds, bars } => (Some(*rounds), Some((bars.top.to_string(), bars.bottom.to_string()))),
            _ => (None, None),
        };
        let codes = |r: &[weiqi_pairing::standings::TieBreak]| r.iter().map(|c| c.name()).collect::<Vec<_>>();
        let settings = self
            .service
            .read(id, |t| {
                let cfg = t.config()?;
                let (rounds, bars) = of(&cfg.format);
                let settings = crate::views::Settings {
                    format_key: convert::format_message(&cfg.format).0.to_string(),
                    rounds,
                    bars,
                    ranking: codes(&cfg.ranking),
                    changes: Vec::new(),
                };
                Some((settings, t.settings_changes))
            })
            .await?
            .flatten()
            .ok_or_else(|| ApiError::NotFound(format!("no tournament {id}")))?;
        let (mut settings, changed) = settings;
        // The desk draws this on every page: the log is read only when it holds a change.
        if changed == 0 {
            return Ok(settings);
        }
        // Every change, with who made it, from the log (the fold keeps no actors).
        let aggregate = weiqi_eventlog::AggregateId::new(id).map_err(|e| ApiError::NotFound(e.to_string()))?;
        let events = self
            .service
            .log()
            .read(weiqi_eventlog::AggregateKind::Tournament, &aggregate, 1)
            .await
            .map_err(|e| ApiError::Unavailable(e.to_string()))?;
        for r in &events {
            let Ok(recorded) = crate::service::decode_recorded(r) else { continue };
            if let crate::aggregate::Body::Domain(weiqi_pairing::event::TournamentEvent::SettingsChanged {
                format,
                ranking,
                at,
            }) = &recorded.event.body
            {
                let (rounds, bars) = of(format);
                settings.changes.push(crate::views::SettingsChange {
                    at_ms: at.0,
                    by: recorded.actor.id().to_string(),
                    rounds,
                    bars,
                    ranking: codes(ranking),
                });
            }
        }
        Ok(settings)
    }

    /// Changes what may change mid-event: the rounds and bars of a Swiss or McMahon (`None`: as they
    /// are) and the ranking (`None`: as it is), checked by the core.
    ///
    /// # Errors
    /// Denied, no such tournament, refused, or unavailable.
    pub async fn change_settings(
        &self,
        caller: &Caller,
        id: &str,
        request_id: &str,
        rounds: Option<u32>,
        bars: Option<weiqi_pairing::config::McMahonBars>,
        ranking: Option<Vec<weiqi_pairing::standings::TieBreak>>,
    ) -> Result<Accepted, ApiError> {
        use weiqi_pairing::config::Format;
        let actor = authority::staff(caller, &self.event_of(id).await?)?;
        required_request_id(request_id)?;
        let current = self
            .service
            .read(id, |t| t.config().map(|c| (c.format.clone(), c.ranking.clone())))
            .await?
            .flatten()
            .ok_or_else(|| ApiError::NotFound(format!("no tournament {id}")))?;
        let format = match current.0 {
            Format::Swiss { rounds: r } => Format::Swiss { rounds: rounds.unwrap_or(r) },
            Format::McMahon { rounds: r, bars: b } => {
                Format::McMahon { rounds: rounds.unwrap_or(r), bars: bars.unwrap_or(b) }
            }
            other => other,
        };
        let command = TournamentCommand::Core(weiqi_pairing::command::Command::ChangeSettings {
            format,
            ranking: ranking.unwrap_or(current.1),
        });
        Ok(self.service.execute(id, request_id, &actor, &command).await?)
    }

    /// The registered players, by number, from the tournament's log (for staff: the desk's list).
    ///
    /// # Errors
    /// Denied, no such tournament, or unavailable.
    pub async fn players(&self, caller: &Caller, id: &str) -> Result<Vec<crate::views::PlayerLine>, ApiError> {
        authority::staff(caller, &self.event_of(id).await?)?;
        self.service
            .read(id, |t| {
                t.core
                    .players
                    .iter()
                    .map(|(p, e)| {
                        let r = &e.registration;
                        let placed = t.core.rounds.iter().any(|round| {
                            round.games.iter().any(|g| g.paired.black == *p || g.paired.white == *p)
                                || round.byes.iter().any(|b| b.player == *p)
                        });
                        crate::views::PlayerLine {
                            player: p.0,
                            account: t.accounts.get(p).cloned().unwrap_or_default(),
                            name_zh: r.name_zh.clone(),
                            name_latin: r.name_latin.clone(),
                            rank: r.rank.to_string(),
                            club: r.club.clone().unwrap_or_default(),
                            region: r.region.clone().unwrap_or_default(),
                            family: r.family.clone().unwrap_or_default(),
                            withdrawn: e.withdrawn.is_some(),
                            placed,
                            bye_next: t
                                .core
                                .granted_byes
                                .get(&(t.core.current_round() + 1))
                                .and_then(|b| b.iter().find(|(q, _)| q == p))
                                .map(|(_, kind)| convert::bye_kind_text(*kind).to_string()),
                        }
                    })
                    .collect()
            })
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("no tournament {id}")))
    }

    /// Changes a registered player's names, rank (before the first round is paired), club, region,
    /// family, country, rating or EGD PIN, as entered (a rank as Chinese organisers write it too).
    /// Names, rank, club, region and family are taken as entered; the country, rating and PIN, which
    /// the desk's form does not show, are kept when the entry leaves them empty.
    ///
    /// # Errors
    /// [`ApiError`]: denied, a rank that does not read, no such player, refused, or unavailable.
    pub async fn edit_player(
        &self,
        caller: &Caller,
        id: &str,
        request_id: &str,
        player: u32,
        entry: Entry,
    ) -> Result<Accepted, ApiError> {
        let actor = authority::staff(caller, &self.event_of(id).await?)?;
        let mut registration = convert::registration_from_snapshot(PlayerId(player), &entry.snapshot())?;
        let before =
            self.service.read(id, |t| t.core.players.get(&PlayerId(player)).map(|e| e.registration.clone())).await?;
        if let Some(Some(before)) = before {
            registration.country = registration.country.or(before.country);
            registration.rating = registration.rating.or(before.rating);
            registration.egd_pin = registration.egd_pin.or(before.egd_pin);
        }
        let command = TournamentCommand::Core(weiqi_pairing::command::Command::EditPlayer { registration });
        required_request_id(request_id)?;
        Ok(self.service.execute(id, request_id, &actor, &command).await?)
    }

    /// Imports an OpenGotha file's rounds (with `dry_run`, what it would append, appending nothing).
    ///
    /// # Errors
    /// [`ApiError`]: denied, a file too large or that does not read, refused, or unavailable.
    pub async fn import_open_gotha(
        &self,
        caller: &Caller,
        id: &str,
        request_id: &str,
        file: &str,
        dry_run: bool,
    ) -> Result<Accepted, ApiError> {
        use sha2::Digest as _;
        let actor = authority::staff(caller, &self.event_of(id).await?)?;
        if file.len() > MAX_IMPORT_BYTES {
            return Err(ApiError::Bad {
                code: "too_large",
                message: format!("the file has {} bytes; at most {MAX_IMPORT_BYTES} are read", file.len()),
            });
        }
        let read = weiqi_pairing::opengotha::read_tournament(file)
            .map_err(|e| ApiError::Bad { code: "bad_opengotha_file", message: e.to_string() })?;
        let sha256 = hex::encode(sha2::Sha256::digest(file.as_bytes()));
        let command = TournamentCommand::ImportOpenGotha { file: Box::new(read), sha256 };
        if dry_run {
            return Ok(self.service.dry_run(id, &actor, &command).await?);
        }
        required_request_id(request_id)?;
        Ok(self.service.execute(id, request_id, &actor, &command).await?)
    }

    /// The round `PairRound` would pair next, nothing appended (the desk's draft): for staff.
    ///
    /// # Errors
    /// [`ApiError`]: denied, no such tournament, or unavailable.
    pub async fn preview(&self, caller: &Caller, id: &str) -> Result<Pairings, ApiError> {
        self.preview_wire(caller, id).await.map(Into::into)
    }

    /// [`TournamentApi::preview`] in the wire form the gRPC server serves.
    ///
    /// # Errors
    /// As [`TournamentApi::preview`].
    pub async fn preview_wire(&self, caller: &Caller, id: &str) -> Result<pb::TournamentPairings, ApiError> {
        authority::staff(caller, &self.event_of(id).await?)?;
        self.service.preview_round(id).await?.ok_or_else(|| ApiError::NotFound(format!("no tournament {id}")))
    }

    /// Read your writes: waits until the read model has folded tournament `id` up to `min` (0: at
    /// once).
    async fn caught_up(&self, id: &str, min: u64) -> Result<(), ApiError> {
        if min == 0 {
            return Ok(());
        }
        let what = format!("the read model of {id}");
        weiqi_edge::read_your_writes::wait_for(&what, min, || async {
            Ok::<_, ApiError>(self.model.summary(id).await?.map_or(0, |s| s.sequence))
        })
        .await
        .map(|_| ())
    }

    /// The tournament's summary, once the read model has folded `min`.
    ///
    /// # Errors
    /// Not in the read model (yet), or unavailable.
    pub async fn summary(&self, id: &str, min: u64) -> Result<Summary, ApiError> {
        self.summary_wire(id, min).await.map(Into::into)
    }

    /// [`TournamentApi::summary`] in the wire form the read model keeps and the gRPC server serves.
    ///
    /// # Errors
    /// As [`TournamentApi::summary`].
    pub async fn summary_wire(&self, id: &str, min: u64) -> Result<pb::TournamentSummary, ApiError> {
        self.caught_up(id, min).await?;
        self.model
            .summary(id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("no tournament {id} (yet) in the read model")))
    }

    /// The standings (`limit` 0: all from `offset`), once the read model has folded `min`.
    ///
    /// # Errors
    /// None yet, or unavailable.
    pub async fn standings(&self, id: &str, offset: u32, limit: u32, min: u64) -> Result<Standings, ApiError> {
        self.standings_wire(id, offset, limit, min).await.map(Into::into)
    }

    /// [`TournamentApi::standings`] in the wire form.
    ///
    /// # Errors
    /// As [`TournamentApi::standings`].
    pub async fn standings_wire(
        &self,
        id: &str,
        offset: u32,
        limit: u32,
        min: u64,
    ) -> Result<pb::TournamentStandings, ApiError> {
        self.caught_up(id, min).await?;
        self.model
            .standings(id, offset, limit)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("no standings for {id} (yet)")))
    }

    /// A round's pairings (0: the current round), once the read model has folded `min`.
    ///
    /// # Errors
    /// No such round, or unavailable.
    pub async fn pairings(&self, id: &str, round: u32, min: u64) -> Result<Pairings, ApiError> {
        self.pairings_wire(id, round, min).await.map(Into::into)
    }

    /// [`TournamentApi::pairings`] in the wire form.
    ///
    /// # Errors
    /// As [`TournamentApi::pairings`].
    pub async fn pairings_wire(&self, id: &str, round: u32, min: u64) -> Result<pb::TournamentPairings, ApiError> {
        self.caught_up(id, min).await?;
        self.model
            .pairings(id, round)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("no pairings for {id} round {round}")))
    }

    /// Why players `a` and `b` were paired (or not) in `round`, with up to `alternatives` other
    /// pairings weighed (0: 4; at most 32).
    ///
    /// # Errors
    /// No such tournament or pairing, or unavailable.
    pub async fn explain(
        &self,
        id: &str,
        round: u32,
        a: u32,
        b: u32,
        alternatives: u32,
    ) -> Result<Explained, ApiError> {
        let alternatives = if alternatives == 0 { 4 } else { alternatives.min(32) as usize };
        let explained = self
            .service
            .read(id, |t| explain_pairing(&t.core, round, PlayerId(a), PlayerId(b), alternatives))
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("no tournament {id}")))?
            .map_err(|e| ApiError::NotFound(e.to_string()))?;
        let basis = match explained.basis {
            Basis::Matching => "matching",
            Basis::Organiser => "organiser",
            Basis::BergerTable => "berger-table",
            Basis::Bracket => "bracket",
            Basis::BoardOrder => "board-order",
        };
        Ok(Explained {
            basis,
            text: explained.to_string(),
            json: serde_json::to_string(&explained).unwrap_or_default(),
        })
    }

    /// A file of the tournament, computed from its log.
    ///
    /// # Errors
    /// No such tournament, or unavailable.
    pub async fn export(&self, id: &str, kind: ExportKind, h9: H9Overrides) -> Result<Exported, ApiError> {
        let name = id.to_string();
        self.service
            .read(id, move |t| match kind {
                ExportKind::PairingsCsv { round } => {
                    let round = if round == 0 { t.core.current_round() } else { round };
                    Exported {
                        filename: format!("{name}-round-{round}.csv"),
                        content_type: "text/csv",
                        content: pairings_csv(&t.core, round),
                    }
                }
                ExportKind::H9 => {
                    let s = t.settings.clone().unwrap_or_default();
                    let facts = t.facts.clone().unwrap_or_default();
                    let or = |v: &str, d: String| if v.is_empty() { d } else { v.to_string() };
                    let komi = s.ruleset.komi.to_string();
                    // TM is the basic time before overtime, as the EGF's class rule counts it (a
                    // Chinese byo-yomi's basic time less its reserved minutes).
                    let basic = crate::facts::egf_times(&s.time_control).map_or(0, |(basic, ..)| basic.0 / 60_000);
                    // DT, HA, KM and TM from the tournament's own data; CL from its time control and
                    // whether it is played over the board; PC, DT and the club codes from the event's
                    // facts; the organiser's overrides over all.
                    let mut own = H9Header::for_tournament(&t.core, komi, u32::try_from(basic).unwrap_or(0));
                    own.class = crate::facts::egf_class(&s.time_control, s.manual_start);
                    let country = if facts.country.is_empty() { "CN" } else { facts.country.as_str() };
                    own.place = match facts.city_for_egd() {
                        Some(city) => format!("{country},{city}"),
                        None => country.to_string(),
                    };
                    if let Some(start) = facts.start {
                        own.dates = format!("{start},{}", facts.end.unwrap_or(start));
                    }
                    let header = H9Header {
                        class: h9.class.or(own.class),
                        place: or(&h9.place, own.place),
                        dates: or(&h9.dates, own.dates),
                        handicap: or(&h9.handicap, own.handicap),
                        komi: or(&h9.komi, own.komi),
                        basic_minutes: if h9.basic_minutes > 0 { h9.basic_minutes } else { own.basic_minutes },
                        club_codes: facts.club_codes.clone(),
                    };
                    Exported {
                        filename: format!("{name}.h9"),
                        content_type: "text/plain; charset=utf-8",
                        content: export_h9(&t.core, &header),
                    }
                }
                ExportKind::OpenGotha => {
                    let planned = weiqi_pairing::rounds::rounds_planned(&t.core);
                    let event = crate::facts::gotha_event(t.facts.as_ref(), t.settings.as_ref());
                    Exported {
                        filename: format!("{name}.xml"),
                        content_type: "application/xml; charset=utf-8",
                        content: export_opengotha_event(&t.core, planned, &event),
                    }
                }
                ExportKind::StandingsCsv => Exported {
                    filename: format!("{name}-standings.csv"),
                    content_type: "text/csv",
                    content: standings_csv(&t.core, &standings(&t.core)),
                },
            })
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("no tournament {id}")))
    }

    /// The entry a gRPC snapshot carries.
    pub(crate) fn entry_of(snapshot: &pb::TournamentPlayerSnapshot) -> Entry {
        Entry::of_snapshot(snapshot)
    }
}
