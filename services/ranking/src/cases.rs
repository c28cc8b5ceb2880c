//! Certification cases: applications and automatic proposals, evidence checked against the logs,
//! the automatic check, review, certificates signed with the association's key, revocation, and the
//! signed revocation list.
//!
//! # Evidence is verified, never taken on trust
//!
//! * A **game** counts if its log replays, it has ended, and the player played in it; the result,
//!   the opponent, the opponent's rank at the time and the event come from the log.
//! * A **tournament result** counts if the results port has the event's final results with the
//!   player placed; every game the placing lists must replay, belong to that tournament, include the
//!   player, and the wins they show (plus byes) must equal the wins claimed.
//! * A **rating** is read from the live book at the time of the check.
//!
//! Anything that fails is refused with the reason (`evidence_refused`); nothing unverified is ever
//! attached.
//!
//! # Automatic proposals
//!
//! When a player's verified results (after new final results, or a rating change) meet a rule of
//! the association's table for a grade above theirs, the service opens a case itself (applicant
//! `organiser`, opened by the service id), attaches the evidence, runs the check, and records
//! `PromotionProposed` in the player's log. The case then waits in the reviewers' queue like any
//! other. One open case per player and ladder at a time.

use weiqi_eventlog::{AggregateId, AggregateKind, AppendError, CommandId, EventLog, NewEvent};
use weiqi_rating::{
    ActorId, Applicant, AssociationRules, Case, CaseCommand, CaseEvent, CaseId, CaseStatus, CivilDate, Evidence,
    GameId, PlayerId, Revocation, RevocationList, SignedRevocationList, Standing, Verified, VerifiedGame, VerifyError,
    decide_case, evaluate, verify,
};

use crate::convert::{self, ActorKind, Meta};
use crate::error::{RankingError, RejectionKind};
use crate::games::load_game;
use crate::logs::{command_id, hex_id};
use crate::registry::{PlayerCommand, PlayerState, ProposalRecord};
use crate::service::{MAX_CONFLICT_RETRIES, RankingService, State};

/// An application for a grade.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Application {
    /// The client's request id (a retry opens nothing new).
    pub request_id: String,
    /// The player to certify.
    pub player: PlayerId,
    /// The ladder (`amateur` by default).
    pub ladder: String,
    /// The grade asked for.
    pub requested: String,
    /// Games to verify and attach.
    pub games: Vec<String>,
    /// Tournaments whose final results to verify and attach.
    pub tournaments: Vec<String>,
    /// Attach the player's current rating.
    pub include_rating: bool,
}

/// A reviewer's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Approve (the certificate is issued at once).
    Approve {
        /// A note for the record.
        note: String,
        /// Needed when the automatic check does not support the request.
        override_reason: Option<String>,
    },
    /// Reject with reasons.
    Reject {
        /// At least one.
        reasons: Vec<String>,
    },
}

/// A case as the service shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseRecord {
    /// The case.
    pub case: Case,
    /// Its log's last sequence.
    pub version: u64,
}

fn refused(reasons: &[String]) -> RankingError {
    RankingError::invalid("evidence_refused", reasons.join("; "))
}

fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.is_empty() { "revoked".to_owned() } else { joined }
}

impl RankingService {
    // ---- evidence ----

    /// Verifies one game for `player` against its log.
    async fn verify_game(&self, player: &PlayerId, game: &str) -> Result<Result<VerifiedGame, String>, RankingError> {
        let record = match load_game(&self.log, game).await {
            Ok(Some(r)) => r,
            Ok(None) => return Ok(Err(format!("game {game}: no such game"))),
            Err(crate::games::GameLogError::Corrupt { reason, .. }) => {
                return Ok(Err(format!("game {game}: its log does not replay ({reason})")));
            }
            Err(e) => return Err(e.into()),
        };
        let Some((opponent, opponent_rank)) = record.opponent_of(player) else {
            return Ok(Err(format!("game {game}: {player} did not play in it")));
        };
        let (Some(outcome), Some(at)) = (record.outcome_for(player), record.ended_at) else {
            return Ok(Err(format!("game {game}: not ended with a result")));
        };
        let event = match &record.tournament {
            Some(t) => self.results.final_results(t).await?.map(|r| r.event),
            None => None,
        };
        Ok(Ok(VerifiedGame {
            game: GameId(game.to_owned()),
            opponent: opponent.clone(),
            opponent_grade: (!opponent_rank.is_empty()).then(|| opponent_rank.to_owned()),
            outcome,
            at,
            event,
        }))
    }

    /// Verifies a player's placing in a tournament's final results.
    async fn verify_placing(
        &self,
        player: &PlayerId,
        tournament: &str,
    ) -> Result<Result<Evidence, String>, RankingError> {
        let Some(results) = self.results.final_results(tournament).await? else {
            return Ok(Err(format!("tournament {tournament}: no final results")));
        };
        let Some((group, placing)) = results.placing_of(player) else {
            return Ok(Err(format!("tournament {tournament}: {player} is not placed")));
        };
        if !placing.games.is_empty() {
            let mut wins = 0u32;
            for game in &placing.games {
                let record = match load_game(&self.log, &game.0).await {
                    Ok(Some(r)) => r,
                    Ok(None) => return Ok(Err(format!("tournament {tournament}: game {game} does not exist"))),
                    Err(crate::games::GameLogError::Corrupt { reason, .. }) => {
                        return Ok(Err(format!("tournament {tournament}: game {game} does not replay ({reason})")));
                    }
                    Err(e) => return Err(e.into()),
                };
                if record.tournament.as_deref() != Some(tournament) {
                    return Ok(Err(format!("tournament {tournament}: game {game} belongs to another event")));
                }
                match record.outcome_for(player) {
                    Some(weiqi_rating::GameOutcome::Win) => wins += 1,
                    Some(_) => {}
                    None if record.opponent_of(player).is_none() => {
                        return Ok(Err(format!("tournament {tournament}: {player} did not play game {game}")));
                    }
                    None => return Ok(Err(format!("tournament {tournament}: game {game} has no result"))),
                }
            }
            if wins + placing.byes != placing.wins {
                return Ok(Err(format!(
                    "tournament {tournament}: {} wins claimed, the game logs show {wins} and {} byes",
                    placing.wins, placing.byes
                )));
            }
            let played = u32::try_from(placing.games.len()).unwrap_or(u32::MAX);
            if played + placing.byes > group.rounds {
                return Ok(Err(format!(
                    "tournament {tournament}: {played} games and {} byes in {} rounds",
                    placing.byes, group.rounds
                )));
            }
        }
        Ok(results.evidence_for(player).map(Evidence::Placing).ok_or_else(|| "not placed".to_owned()))
    }

    /// Verifies an application's evidence: every item, or the reasons it was refused.
    async fn verify_evidence(&self, app: &Application) -> Result<Result<Vec<Evidence>, Vec<String>>, RankingError> {
        let mut items = Vec::new();
        let mut reasons = Vec::new();
        for g in &app.games {
            match self.verify_game(&app.player, g).await? {
                Ok(v) => items.push(Evidence::Game(v)),
                Err(why) => reasons.push(why),
            }
        }
        for t in &app.tournaments {
            match self.verify_placing(&app.player, t).await? {
                Ok(e) => items.push(e),
                Err(why) => reasons.push(why),
            }
        }
        if app.include_rating {
            let st = self.lock().await?;
            match st.book.sample(&app.player, self.clock.now()) {
                Some(s) => items.push(Evidence::Rating(s)),
                None => reasons.push(format!("{} has no {} rating", app.player, self.config.system.name())),
            }
        }
        Ok(if reasons.is_empty() { Ok(items) } else { Err(reasons) })
    }

    // ---- case appends ----

    /// Decides `commands` one after the other on a case and appends all their events in one batch.
    async fn case_commands(
        &self,
        st: &mut State,
        case: &CaseId,
        commands: &[CaseCommand],
        command_id: &CommandId,
        actor: (ActorKind, &str),
    ) -> Result<Vec<CaseEvent>, RankingError> {
        let id = AggregateId::new(&case.0).map_err(|e| RankingError::invalid("bad_case_id", e.to_string()))?;
        for _ in 0..MAX_CONFLICT_RETRIES {
            let now = self.clock.now();
            let slot = st.cases.entry(case.clone()).or_default();
            if slot.commands.contains(command_id.as_str()) {
                // A retry of a command that landed: the case as it is now is the answer.
                return Ok(Vec::new());
            }
            let mut scratch = slot.state.clone();
            let mut events = Vec::new();
            for c in commands {
                for e in decide_case(&scratch, c, now)? {
                    scratch.evolve(&e);
                    events.push(e);
                }
            }
            if events.is_empty() {
                return Ok(events);
            }
            let meta =
                Meta { causation: command_id.to_string(), actor: actor.0, actor_id: actor.1.to_owned(), at: now };
            let encoded: Vec<NewEvent> = events.iter().map(|e| convert::case_event(e, &meta)).collect();
            match self.log.append(AggregateKind::Case, &id, slot.version, command_id, &encoded).await {
                Ok(outcome) if !outcome.duplicate => {
                    slot.state = scratch;
                    slot.version = outcome.last_sequence;
                    slot.commands.insert(command_id.to_string());
                    return Ok(events);
                }
                Ok(_) => {
                    self.reload_case(st, case).await?;
                    return Ok(Vec::new());
                }
                Err(AppendError::Conflict { .. }) => self.reload_case(st, case).await?,
                Err(e) => return Err(e.into()),
            }
        }
        Err(RankingError::Internal(format!("case {case}: conflicts did not settle")))
    }

    async fn reload_case(&self, st: &mut State, case: &CaseId) -> Result<(), RankingError> {
        let id = AggregateId::new(&case.0).map_err(|e| RankingError::invalid("bad_case_id", e.to_string()))?;
        let slot = st.cases.entry(case.clone()).or_default();
        for r in self.log.read(AggregateKind::Case, &id, slot.version + 1).await? {
            slot.state.evolve(&convert::read_case(&r)?);
            slot.version = r.sequence;
            slot.commands.insert(r.command_id.to_string());
        }
        if slot.version == 0 {
            st.cases.remove(case);
        }
        Ok(())
    }

    fn record(st: &State, case: &CaseId) -> Option<CaseRecord> {
        let slot = st.cases.get(case)?;
        Some(CaseRecord { case: slot.state.case.clone()?, version: slot.version })
    }

    fn require_case(st: &State, case: &CaseId) -> Result<CaseRecord, RankingError> {
        RankingService::record(st, case)
            .ok_or_else(|| RankingError::not_found("no_such_case", format!("no case {case}")))
    }

    fn rules_or_reject(&self, ladder: &str) -> Result<&AssociationRules, RankingError> {
        self.rules_for(ladder).ok_or_else(|| {
            RankingError::rejected(
                RejectionKind::FailedPrecondition,
                "no_rules",
                format!("the association has no promotion rules for ladder {ladder}"),
            )
        })
    }

    // ---- applications ----

    /// Opens a case for an application: verifies the evidence against the logs, attaches it and runs
    /// the automatic check, in one append. A retry with the same request id returns the same case.
    ///
    /// # Errors
    /// `no_rules`, `unknown_grade`, `not_registered`, `evidence_refused`, `no_evidence`,
    /// `nothing_to_certify`; faults.
    pub async fn apply(
        &self,
        app: Application,
        by: &ActorId,
        applicant: Applicant,
    ) -> Result<CaseRecord, RankingError> {
        let mut app = app;
        if app.ladder.is_empty() {
            "amateur".clone_into(&mut app.ladder);
        }
        if app.request_id.is_empty() {
            return Err(RankingError::invalid("missing_request_id", "request_id is required (a retry reuses it)"));
        }
        let case = CaseId(format!("case-{}", hex_id(&format!("apply/{by}/{}", app.request_id))));
        {
            let st = self.lock().await?;
            if let Some(existing) = RankingService::record(&st, &case) {
                return Ok(existing);
            }
        }
        let rules = self.rules_or_reject(&app.ladder)?;
        if rules.ladder.position(&app.requested).is_none() {
            return Err(RankingError::invalid(
                "unknown_grade",
                format!(
                    "{:?} is not a grade of ladder {} ({})",
                    app.requested,
                    app.ladder,
                    rules.ladder.codes().join(", ")
                ),
            ));
        }
        let items = self.verify_evidence(&app).await?.map_err(|r| refused(&r))?;
        if items.is_empty() {
            return Err(RankingError::invalid("no_evidence", "name games, tournaments or the rating as evidence"));
        }
        let mut st = self.lock().await?;
        let standing = self.standing(&mut st, &app.player, &app.ladder).await?;
        let commands = [
            CaseCommand::Open {
                case: case.clone(),
                player: app.player.clone(),
                opened_by: by.clone(),
                applicant,
                ladder: app.ladder.clone(),
                current: standing.grade,
                since: standing.since,
                requested: app.requested.clone(),
            },
            CaseCommand::AttachEvidence { items },
            CaseCommand::RunAutomaticCheck { rules: Box::new(rules.clone()) },
        ];
        let actor = match applicant {
            Applicant::Player => ActorKind::Player,
            Applicant::Organiser => ActorKind::Staff,
        };
        let cid = command_id(&format!("case/{case}/open"));
        self.case_commands(&mut st, &case, &commands, &cid, (actor, &by.0)).await?;
        RankingService::require_case(&st, &case)
    }

    /// Where a registered player stands in a ladder.
    async fn standing(&self, st: &mut State, player: &PlayerId, ladder: &str) -> Result<Standing, RankingError> {
        let state = self.player_state(st, player).await?;
        let registered = state
            .registered_at
            .ok_or_else(|| RankingError::not_found("not_registered", format!("player {player} is not registered")))?;
        let held = state.grades.get(ladder);
        Ok(Standing {
            player: player.clone(),
            grade: held.map(|h| h.grade.clone()),
            since: held.map_or(registered, |h| h.since),
        })
    }

    // ---- review ----

    /// Assigns a reviewer (never the player or the applicant).
    ///
    /// # Errors
    /// `no_such_case`, `wrong_status`, `reviewer_is_party`; faults.
    pub async fn assign_reviewer(
        &self,
        case: &CaseId,
        reviewer: &ActorId,
        by: &str,
        request_id: &str,
    ) -> Result<CaseRecord, RankingError> {
        let mut st = self.lock().await?;
        RankingService::require_case(&st, case)?;
        let cid = command_id(&format!("case/{case}/assign/{by}/{request_id}"));
        self.case_commands(
            &mut st,
            case,
            &[CaseCommand::AssignReviewer { reviewer: reviewer.clone() }],
            &cid,
            (ActorKind::Staff, by),
        )
        .await?;
        RankingService::require_case(&st, case)
    }

    /// The assigned reviewer approves (the certificate is signed and issued, and the grade recorded in
    /// the player's log) or rejects.
    ///
    /// # Errors
    /// `no_such_case`, `no_reviewer`, `not_the_reviewer`, `check_not_run`, `check_does_not_support`,
    /// `reason_required`, `wrong_status`; faults.
    pub async fn decide(
        &self,
        case: &CaseId,
        reviewer: &ActorId,
        verdict: Verdict,
        request_id: &str,
    ) -> Result<CaseRecord, RankingError> {
        let mut st = self.lock().await?;
        RankingService::require_case(&st, case)?;
        let command = match verdict {
            Verdict::Approve { note, override_reason } => {
                CaseCommand::Approve { reviewer: reviewer.clone(), note, override_reason }
            }
            Verdict::Reject { reasons } => CaseCommand::Reject { reviewer: reviewer.clone(), reasons },
        };
        let cid = command_id(&format!("case/{case}/decide/{reviewer}/{request_id}"));
        self.case_commands(&mut st, case, &[command], &cid, (ActorKind::Staff, &reviewer.0)).await?;
        self.complete_case(&mut st, case).await?;
        RankingService::require_case(&st, case)
    }

    /// Revokes an issued certificate with a reason (Art. 23.1); the player's grade reverts.
    ///
    /// # Errors
    /// `no_such_case`, `wrong_status`, `reason_required`; faults.
    pub async fn revoke(
        &self,
        case: &CaseId,
        by: &ActorId,
        reason: &str,
        request_id: &str,
    ) -> Result<CaseRecord, RankingError> {
        let mut st = self.lock().await?;
        RankingService::require_case(&st, case)?;
        let cid = command_id(&format!("case/{case}/revoke/{by}/{request_id}"));
        let command = CaseCommand::Revoke { by: by.clone(), reason: reason.to_owned() };
        self.case_commands(&mut st, case, &[command], &cid, (ActorKind::Staff, &by.0)).await?;
        self.complete_case(&mut st, case).await?;
        RankingService::require_case(&st, case)
    }

    /// Brings a case's consequences up to date (idempotent): an approved case gets its certificate,
    /// an issued one its grade in the player's log, a revoked one the grade taken back.
    pub(crate) async fn complete_case(&self, st: &mut State, case: &CaseId) -> Result<(), RankingError> {
        let Some(record) = RankingService::record(st, case) else {
            return Ok(());
        };
        let c = record.case;
        if c.status == CaseStatus::Approved {
            let certificate = self.sign_for(st, &c).await?;
            let cid = command_id(&format!("case/{case}/issue"));
            self.case_commands(
                st,
                case,
                &[CaseCommand::IssueCertificate { certificate }],
                &cid,
                (ActorKind::System, &self.config.service_id.clone()),
            )
            .await?;
        }
        let Some(c) = RankingService::record(st, case).map(|r| r.case) else {
            return Ok(());
        };
        let Some(certificate) = c.certificate.clone() else {
            return Ok(());
        };
        let serial = certificate.body.serial.clone();
        let service = self.config.service_id.clone();
        let grade_name = certificate.body.grade_name.clone();
        let state = self.player_state(st, &c.player).await?;
        let grant = PlayerCommand::GrantRank {
            ladder: c.ladder.clone(),
            grade: c.requested.clone(),
            grade_name,
            case: c.id.clone(),
            serial: serial.clone(),
        };
        let mut state_copy = std::mem::take(state);
        let result = async {
            self.player_command(
                &mut state_copy,
                &c.player,
                &grant,
                &command_id(&format!("grant/{case}")),
                (ActorKind::System, &service),
            )
            .await?;
            if c.status == CaseStatus::Revoked {
                let previous = c.standing.grade.clone().map(|g| {
                    let name = self
                        .ladder(&c.ladder)
                        .and_then(|l| l.position(&g).and_then(|p| l.grade(p).map(|x| x.name.clone())))
                        .unwrap_or_default();
                    (g, name)
                });
                let reason = c.revocation.as_ref().map(|(_, r, _)| r.clone()).unwrap_or_default();
                let revoke = PlayerCommand::RevokeRank {
                    ladder: c.ladder.clone(),
                    case: c.id.clone(),
                    serial,
                    reason,
                    previous,
                };
                self.player_command(
                    &mut state_copy,
                    &c.player,
                    &revoke,
                    &command_id(&format!("revoke/{case}")),
                    (ActorKind::System, &service),
                )
                .await?;
            }
            Ok::<_, RankingError>(())
        }
        .await;
        st.players.insert(c.player.clone(), state_copy);
        result
    }

    /// Signs the certificate of an approved case.
    async fn sign_for(&self, st: &mut State, c: &Case) -> Result<weiqi_rating::SignedCertificate, RankingError> {
        let at = c.decision.as_ref().map_or(c.opened_at, |d| d.at);
        let date = CivilDate::from_millis(at);
        let association: String = self
            .config
            .key
            .association()
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_uppercase();
        let serial = format!(
            "{}-{}-{}",
            if association.is_empty() { "WQ" } else { &association },
            date.year,
            &hex_id(&c.id.0)[..12]
        );
        let state = self.player_state(st, &c.player).await?;
        let name = state.profile.as_ref().map_or_else(|| c.player.0.clone(), |p| p.display_name());
        let grade_name = self
            .ladder(&c.ladder)
            .and_then(|l| l.position(&c.requested).and_then(|p| l.grade(p).map(|g| g.name.clone())))
            .unwrap_or_else(|| c.requested.clone());
        let body = c.certificate_body(&serial, &self.config.key.public(), &name, &grade_name, date);
        self.config
            .key
            .sign_certificate(body)
            .map_err(|e| RankingError::Internal(format!("signing case {}: {e}", c.id)))
    }

    // ---- proposals ----

    /// Evaluates a registered player's verified results against every ladder's rules and opens a
    /// case when they meet a rule for a higher grade (see the module doc).
    ///
    /// # Errors
    /// Faults.
    pub async fn consider_promotion(&self, player: &PlayerId) -> Result<Vec<CaseId>, RankingError> {
        let mut opened = Vec::new();
        for rules in &self.config.rules {
            if let Some(case) = self.consider_ladder(player, rules).await? {
                opened.push(case);
            }
        }
        Ok(opened)
    }

    async fn consider_ladder(
        &self,
        player: &PlayerId,
        rules: &AssociationRules,
    ) -> Result<Option<CaseId>, RankingError> {
        let ladder = rules.ladder.id.clone();
        let (standing, tournaments) = {
            let mut st = self.lock().await?;
            let state: &PlayerState = self.player_state(&mut st, player).await?;
            if state.registered_at.is_none() {
                return Ok(None);
            }
            let busy = st.cases.values().filter_map(|s| s.state.case.as_ref()).any(|c| {
                c.player == *player && c.ladder == ladder && matches!(c.status, CaseStatus::Open | CaseStatus::Approved)
            });
            if busy {
                return Ok(None);
            }
            let standing = self.standing(&mut st, player, &ladder).await?;
            let mut tournaments: Vec<(weiqi_rating::Millis, String)> = st
                .results
                .values()
                .filter(|r| r.ended_at >= standing.since && r.placing_of(player).is_some())
                .map(|r| (r.ended_at, r.event.id.0.clone()))
                .collect();
            tournaments.sort();
            (standing, tournaments)
        };
        let mut evidence = Vec::new();
        for (_, t) in &tournaments {
            match self.verify_placing(player, t).await? {
                Ok(e) => evidence.push(e),
                Err(why) => tracing::warn!(%player, tournament = %t, %why, "placing not usable as evidence"),
            }
        }
        let now = self.clock.now();
        let mut st = self.lock().await?;
        if let Some(sample) = st.book.sample(player, now) {
            evidence.push(Evidence::Rating(sample));
        }
        if evidence.is_empty() {
            return Ok(None);
        }
        let Ok(evaluation) = evaluate(rules, &standing, &evidence, now) else {
            return Ok(None);
        };
        let Some(proposal) = evaluation.proposal else {
            return Ok(None);
        };
        let current = standing.grade.as_deref().and_then(|g| rules.ladder.position(g));
        let proposed = rules.ladder.position(&proposal.to);
        if proposed <= current {
            return Ok(None);
        }
        let case = CaseId(format!(
            "case-{}",
            hex_id(&format!("proposal/{player}/{ladder}/{}/{}", proposal.to, standing.since.0))
        ));
        if st.cases.contains_key(&case) {
            return Ok(None);
        }
        let service = ActorId(self.config.service_id.clone());
        let commands = [
            CaseCommand::Open {
                case: case.clone(),
                player: player.clone(),
                opened_by: service.clone(),
                applicant: Applicant::Organiser,
                ladder: ladder.clone(),
                current: standing.grade.clone(),
                since: standing.since,
                requested: proposal.to.clone(),
            },
            CaseCommand::AttachEvidence { items: evidence },
            CaseCommand::RunAutomaticCheck { rules: Box::new(rules.clone()) },
        ];
        let cid = command_id(&format!("case/{case}/open"));
        self.case_commands(&mut st, &case, &commands, &cid, (ActorKind::System, &service.0)).await?;
        let record = ProposalRecord { ladder, to: proposal.to, rules: proposal.rules, case: case.clone(), at: now };
        let state = self.player_state(&mut st, player).await?;
        let mut copy = std::mem::take(state);
        let result = self
            .player_command(
                &mut copy,
                player,
                &PlayerCommand::RecordProposal(record),
                &command_id(&format!("propose/{case}")),
                (ActorKind::System, &service.0),
            )
            .await;
        st.players.insert(player.clone(), copy);
        result?;
        tracing::info!(%player, %case, "promotion proposed");
        Ok(Some(case))
    }

    /// Takes in an event's final results: remembers them and considers every placed player.
    ///
    /// # Errors
    /// Faults.
    pub async fn on_results(&self, results: crate::tournaments::FinalResults) -> Result<(), RankingError> {
        let players: Vec<PlayerId> = results.players().cloned().collect();
        // EGF: the tournament's games are rated now, together (a no-op under other systems).
        self.close_tournament(&results).await?;
        {
            let mut st = self.lock().await?;
            st.results.insert(results.event.id.0.clone(), results);
        }
        for p in &players {
            self.consider_promotion(p).await?;
        }
        Ok(())
    }

    /// Follows final results from the port. Runs until aborted.
    pub(crate) async fn follow_results(&self) {
        use futures::StreamExt;
        let mut backoff = std::time::Duration::from_millis(100);
        loop {
            let mut stream = match self.results.follow_finished().await {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(error = %e, "ranking: cannot follow tournament results, retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(std::time::Duration::from_secs(5));
                    continue;
                }
            };
            while let Some(item) = stream.next().await {
                match item {
                    Ok(results) => loop {
                        match self.on_results(results.clone()).await {
                            Ok(()) => break,
                            Err(RankingError::Unavailable(e)) => {
                                tracing::warn!(error = %e, tournament = %results.event.id, "ranking: results, retrying");
                                tokio::time::sleep(backoff).await;
                            }
                            Err(e) => {
                                tracing::error!(error = %e, tournament = %results.event.id, "ranking: results not considered");
                                break;
                            }
                        }
                    },
                    Err(e) => tracing::warn!(error = %e, "ranking: tournament results follow"),
                }
            }
            tokio::time::sleep(backoff).await;
        }
    }

    // ---- reads ----

    /// One case.
    ///
    /// # Errors
    /// `no_such_case`; faults.
    pub async fn case(&self, case: &CaseId) -> Result<CaseRecord, RankingError> {
        let st = self.lock().await?;
        RankingService::require_case(&st, case)
    }

    /// Cases waiting for review: open ones not yet decided, unassigned or assigned to `reviewer`
    /// (every open case when `reviewer` is `None`), oldest first.
    ///
    /// # Errors
    /// Faults while loading.
    pub async fn review_queue(&self, reviewer: Option<&ActorId>) -> Result<Vec<CaseRecord>, RankingError> {
        let st = self.lock().await?;
        let mut out: Vec<CaseRecord> = st
            .cases
            .values()
            .filter_map(|s| Some(CaseRecord { case: s.state.case.clone()?, version: s.version }))
            .filter(|r| r.case.status == CaseStatus::Open)
            .filter(|r| reviewer.is_none_or(|me| r.case.reviewer.as_ref().is_none_or(|a| a == me)))
            .collect();
        out.sort_by(|a, b| (a.case.opened_at, &a.case.id).cmp(&(b.case.opened_at, &b.case.id)));
        Ok(out)
    }

    /// The cases of a player (or opened by them), oldest first.
    ///
    /// # Errors
    /// Faults while loading.
    pub async fn cases_of(&self, who: &str) -> Result<Vec<CaseRecord>, RankingError> {
        let st = self.lock().await?;
        let mut out: Vec<CaseRecord> = st
            .cases
            .values()
            .filter_map(|s| Some(CaseRecord { case: s.state.case.clone()?, version: s.version }))
            .filter(|r| r.case.player.0 == who || r.case.opened_by.0 == who)
            .collect();
        out.sort_by(|a, b| (a.case.opened_at, &a.case.id).cmp(&(b.case.opened_at, &b.case.id)));
        Ok(out)
    }

    /// The signed revocation list, built from every revoked case: entries ordered by date and
    /// serial, `sequence` = the number of revocations (it grows with each), issued on the date of
    /// the latest revocation (today's date while there is none).
    ///
    /// # Errors
    /// Faults while loading; `Internal` if the list cannot be signed.
    pub async fn revocation_list(&self) -> Result<SignedRevocationList, RankingError> {
        let st = self.lock().await?;
        let mut entries: Vec<Revocation> = st
            .cases
            .values()
            .filter_map(|s| s.state.case.as_ref())
            .filter(|c| c.status == CaseStatus::Revoked)
            .filter_map(|c| {
                let cert = c.certificate.as_ref()?;
                let (_, reason, at) = c.revocation.as_ref()?;
                Some(Revocation {
                    serial: cert.body.serial.clone(),
                    date: CivilDate::from_millis(*at),
                    reason: one_line(reason),
                })
            })
            .collect();
        entries.sort_by(|a, b| (a.date, &a.serial).cmp(&(b.date, &b.serial)));
        let issued = entries.iter().map(|e| e.date).max().unwrap_or_else(|| CivilDate::from_millis(self.clock.now()));
        let list = RevocationList {
            association: self.config.key.association().to_owned(),
            key_id: self.config.key.key_id(),
            issued,
            sequence: entries.len() as u64,
            entries,
        };
        self.config.key.sign_revocations(list).map_err(|e| RankingError::Internal(format!("revocation list: {e}")))
    }

    /// Verifies a certificate file with the association's key and the current revocation list.
    ///
    /// # Errors
    /// Faults while building the list; a certificate that does not verify is `Ok(Err(..))`.
    pub async fn verify_certificate(&self, text: &str) -> Result<Result<Verified, VerifyError>, RankingError> {
        let list = self.revocation_list().await?;
        let certificate = match weiqi_rating::parse_certificate(text) {
            Ok(c) => c,
            Err(e) => return Ok(Err(VerifyError::MalformedCertificate(e))),
        };
        Ok(verify(&certificate, &self.config.key.public(), Some(&list)))
    }
}
