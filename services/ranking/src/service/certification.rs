//! Certification: applications and automatic proposals, evidence checked against the logs
//! ([`crate::evidence`]), the automatic check, review, certificates signed with the association's key,
//! revocation, and the signed revocation list.
//!
//! # Automatic proposals
//!
//! When a player's verified results (after new final results, or a rating change) meet a rule of
//! the association's table for a grade above theirs, the service opens a case itself (applicant
//! `organiser`, opened by the service id), attaches the evidence, runs the check, and records
//! `PromotionProposed` in the player's log. The case then waits in the reviewers' queue like any
//! other. One open case per player and ladder at a time (the desk's proposals lock makes the check
//! and the opening one step).

use weiqi_rating::{
    ActorId, Applicant, AssociationRules, Case, CaseCommand, CaseId, CaseStatus, CivilDate, Evidence, EvidenceKey,
    PlayerId, RevocationList, SignedCertificate, SignedRevocationList, Verified, VerifyError, evaluate, verify,
};

use super::RankingService;
use crate::cases::{Application, CaseRecord, Verdict};
use crate::domain::case::{certificate_date, certificate_serial, grade_name, revocations};
use crate::domain::{Actor, CaseOrder, PlayerCommand, ProposalRecord, RankingRejection};
use crate::error::RankingError;
use crate::evidence::{EvidenceProblem, verify_game, verify_placing};
use crate::logs::hex_id;
use crate::tournaments::FinalResults;

impl RankingService {
    fn service_actor(&self) -> Actor {
        Actor::system(&self.config.service_id)
    }

    fn rules_or_reject(&self, ladder: &str) -> Result<&AssociationRules, RankingError> {
        self.rules_for(ladder).ok_or_else(|| RankingRejection::NoRules(ladder.to_owned()).into())
    }

    /// Verifies an application's evidence: every item, or the reasons it was refused.
    async fn verify_evidence(
        &self,
        app: &Application,
    ) -> Result<Result<Vec<Evidence>, Vec<EvidenceProblem>>, RankingError> {
        let mut items = Vec::new();
        let mut reasons = Vec::new();
        for g in &app.games {
            match verify_game(&self.log, self.results.as_ref(), &app.player, g).await? {
                Ok(v) => items.push(Evidence::Game(v)),
                Err(why) => reasons.push(why),
            }
        }
        for t in &app.tournaments {
            match verify_placing(&self.log, self.results.as_ref(), &app.player, t).await? {
                Ok(e) => items.push(e),
                Err(why) => reasons.push(why),
            }
        }
        if app.include_rating {
            let now = self.now();
            match self.ledger.read(|book, _, _| book.sample(&app.player, now)).await? {
                Some(s) => items.push(Evidence::Rating(s)),
                None => reasons.push(EvidenceProblem::NoRating {
                    player: app.player.clone(),
                    system: self.config.system.name().to_owned(),
                }),
            }
        }
        Ok(if reasons.is_empty() { Ok(items) } else { Err(reasons) })
    }

    // ---- applications ----

    /// Opens a case for an application: verifies the evidence against the logs, attaches it and runs
    /// the automatic check, in one append. A retry of the same application with the same request id
    /// returns the same case; another application with that request id is refused.
    ///
    /// # Errors
    /// `missing_request_id`, `no_rules`, `unknown_grade`, `not_registered`, `evidence_refused`,
    /// `no_evidence`, `nothing_to_certify`, `request_id_reused`; faults.
    pub async fn apply(
        &self,
        app: Application,
        by: &ActorId,
        applicant: Applicant,
    ) -> Result<CaseRecord, RankingError> {
        self.ready().await?;
        let mut app = app;
        if app.ladder.is_empty() {
            "amateur".clone_into(&mut app.ladder);
        }
        if app.request_id.is_empty() {
            return Err(RankingRejection::MissingRequestId.into());
        }
        let case = CaseId(format!("case-{}", hex_id(&format!("apply/{by}/{}", app.request_id))));
        let rules = self.rules_or_reject(&app.ladder)?;
        if rules.ladder.position(&app.requested).is_none() {
            return Err(RankingRejection::NotAGrade {
                grade: app.requested.clone(),
                ladder: app.ladder.clone(),
                grades: rules.ladder.codes().iter().map(ToString::to_string).collect(),
            }
            .into());
        }
        let items = self.verify_evidence(&app).await?.map_err(RankingRejection::EvidenceRefused)?;
        if items.is_empty() {
            return Err(RankingRejection::NoEvidenceNamed.into());
        }
        let standing = self.registry.standing(&app.player, &app.ladder).await?;
        let order = CaseOrder(vec![
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
        ]);
        let actor = match applicant {
            Applicant::Player => Actor::player(&by.0),
            Applicant::Organiser => Actor::staff(&by.0),
        };
        self.desk.execute(&case, &format!("case/{case}/open"), &actor, &order).await
    }

    /// A game changed in its log (a corrected result): every case holding it as evidence takes the game
    /// as verified now (or drops it when it no longer counts). `position` (the correction's place in
    /// the game log) makes each revision one command. See [`RankingService::revise_case`].
    ///
    /// # Errors
    /// Faults.
    pub(super) async fn revise_evidence(
        &self,
        game: &crate::games::GameRecord,
        position: Option<weiqi_eventlog::Position>,
    ) -> Result<(), RankingError> {
        let key = EvidenceKey::Game(game.id.clone());
        let holds = |c: &Case| c.evidence.iter().any(|e| e.key().as_ref() == Some(&key));
        let at = position.map_or(0, weiqi_eventlog::Position::raw);
        for record in self.desk.select(holds) {
            let case = &record.case;
            let now = verify_game(&self.log, self.results.as_ref(), &case.player, &game.id.0).await?.ok();
            let description = format!("case/{}/revise/{}/{at}", case.id, game.id);
            self.revise_case(case, key.clone(), now.map(Evidence::Game), &description).await?;
        }
        Ok(())
    }

    /// An event's results were published (again, after a correction or a withdrawal): every case
    /// holding a placing in them takes the placing as verified now.
    ///
    /// # Errors
    /// Faults.
    pub(super) async fn revise_placings(&self, results: &FinalResults) -> Result<(), RankingError> {
        let event = &results.event.id;
        let placed = |c: &Case| c.evidence.iter().any(|e| matches!(e, Evidence::Placing(p) if p.event.id == *event));
        for record in self.desk.select(placed) {
            let case = &record.case;
            let held: Vec<EvidenceKey> = case
                .evidence
                .iter()
                .filter(|e| matches!(e, Evidence::Placing(p) if p.event.id == *event))
                .filter_map(Evidence::key)
                .collect();
            // Only a placing that verifies is taken: the results may be published before the game
            // logs they list are corrected (the game's correction verifies it again, see
            // `game_corrected`); a placing that moved to another group is left as it is.
            let Ok(now) = verify_placing(&self.log, self.results.as_ref(), &case.player, &event.0).await? else {
                continue;
            };
            for key in held.into_iter().filter(|k| now.key().as_ref() == Some(k)) {
                let digest = crate::logs::hex_id(&format!("{now:?}"));
                let description = format!("case/{}/revise-placing/{}/{digest}", case.id, event);
                self.revise_case(case, key, Some(now.clone()), &description).await?;
            }
        }
        Ok(())
    }

    /// Revises one item of a case's evidence: an open case's check is run again with the association's
    /// rules (when evidence remains); a decided case keeps its decision and is flagged to the office
    /// ([`weiqi_rating::Case::flagged`]).
    async fn revise_case(
        &self,
        case: &Case,
        key: EvidenceKey,
        now: Option<Evidence>,
        description: &str,
    ) -> Result<(), RankingError> {
        let remains = now.is_some() || case.evidence.len() > 1;
        let mut order = vec![CaseCommand::ReviseEvidence { key, now }];
        if case.status == CaseStatus::Open
            && remains
            && let Some(rules) = self.rules_for(&case.ladder)
        {
            order.push(CaseCommand::RunAutomaticCheck { rules: Box::new(rules.clone()) });
        }
        self.desk.execute(&case.id, description, &self.service_actor(), &CaseOrder(order)).await?;
        Ok(())
    }

    // ---- review ----

    /// Assigns a reviewer (never the player or the applicant).
    ///
    /// # Errors
    /// `no_such_case`, `wrong_status`, `reviewer_is_party`, `request_id_reused`; faults.
    pub async fn assign_reviewer(
        &self,
        case: &CaseId,
        reviewer: &ActorId,
        by: &str,
        request_id: &str,
    ) -> Result<CaseRecord, RankingError> {
        self.ready().await?;
        self.desk.require(case)?;
        let order = CaseOrder::one(CaseCommand::AssignReviewer { reviewer: reviewer.clone() });
        self.desk.execute(case, &format!("case/{case}/assign/{by}/{request_id}"), &Actor::staff(by), &order).await
    }

    /// The assigned reviewer approves (the certificate is signed and issued, and the grade recorded in
    /// the player's log) or rejects. Approving against the automatic check only proposes the override;
    /// while it waits, another reviewer's approval confirms it (four eyes) and a rejection declines it.
    ///
    /// # Errors
    /// `no_such_case`, `no_reviewer`, `not_the_reviewer`, `check_not_run`, `check_does_not_support`,
    /// `justification_too_short`, `same_reviewer`, `reason_required`, `wrong_status`,
    /// `request_id_reused`; faults.
    pub async fn decide(
        &self,
        case: &CaseId,
        reviewer: &ActorId,
        verdict: Verdict,
        request_id: &str,
    ) -> Result<CaseRecord, RankingError> {
        self.ready().await?;
        let awaiting = self.desk.require(case)?.case.status == CaseStatus::AwaitingConfirmation;
        let command = match verdict {
            // While an override waits, an approval is the second reviewer's confirmation.
            Verdict::Approve { .. } if awaiting => CaseCommand::Confirm { reviewer: reviewer.clone() },
            Verdict::Approve { note, override_reason } => {
                CaseCommand::Approve { reviewer: reviewer.clone(), note, override_reason }
            }
            Verdict::Reject { reasons } => CaseCommand::Reject { reviewer: reviewer.clone(), reasons },
        };
        let description = format!("case/{case}/decide/{reviewer}/{request_id}");
        self.desk.execute(case, &description, &Actor::staff(&reviewer.0), &CaseOrder::one(command)).await?;
        self.complete_case(case).await?;
        self.desk.require(case)
    }

    /// Revokes an issued certificate with a reason (Art. 23.1); the player's grade reverts.
    ///
    /// # Errors
    /// `no_such_case`, `wrong_status`, `reason_required`, `request_id_reused`; faults.
    pub async fn revoke(
        &self,
        case: &CaseId,
        by: &ActorId,
        reason: &str,
        request_id: &str,
    ) -> Result<CaseRecord, RankingError> {
        self.ready().await?;
        self.desk.require(case)?;
        let order = CaseOrder::one(CaseCommand::Revoke { by: by.clone(), reason: reason.to_owned() });
        self.desk.execute(case, &format!("case/{case}/revoke/{by}/{request_id}"), &Actor::staff(&by.0), &order).await?;
        self.complete_case(case).await?;
        self.desk.require(case)
    }

    /// Keeps a decision whose evidence changed after it (a corrected result), with the reviewer's note:
    /// the case is no longer flagged and leaves the queue.
    ///
    /// # Errors
    /// `no_such_case`, `nothing_flagged`, `reviewer_is_party`, `reason_required`, `request_id_reused`;
    /// faults.
    pub async fn acknowledge_revisions(
        &self,
        case: &CaseId,
        by: &ActorId,
        note: &str,
        request_id: &str,
    ) -> Result<CaseRecord, RankingError> {
        self.ready().await?;
        self.desk.require(case)?;
        let order = CaseOrder::one(CaseCommand::AcknowledgeRevisions { reviewer: by.clone(), note: note.to_owned() });
        let description = format!("case/{case}/acknowledge/{by}/{request_id}");
        self.desk.execute(case, &description, &Actor::staff(&by.0), &order).await
    }

    /// Brings a case's consequences up to date (idempotent): an approved case gets its certificate,
    /// an issued one its grade in the player's log, a revoked one the grade taken back.
    pub(super) async fn complete_case(&self, case: &CaseId) -> Result<(), RankingError> {
        let Some(record) = self.desk.record(case) else {
            return Ok(());
        };
        let service = self.service_actor();
        let mut c = record.case;
        if c.status == CaseStatus::Approved {
            let certificate = self.sign_for(&c).await?;
            let order = CaseOrder::one(CaseCommand::IssueCertificate { certificate });
            c = self.desk.execute(case, &format!("case/{case}/issue"), &service, &order).await?.case;
        }
        let Some(certificate) = c.certificate.clone() else {
            return Ok(());
        };
        let serial = certificate.body.serial.clone();
        let grant = PlayerCommand::GrantRank {
            ladder: c.ladder.clone(),
            grade: c.requested.clone(),
            grade_name: certificate.body.grade_name.clone(),
            case: c.id.clone(),
            serial: serial.clone(),
        };
        self.registry.execute(&c.player, &format!("grant/{case}"), &service, &grant).await?;
        if c.status == CaseStatus::Revoked {
            let ladder = self.ladder(&c.ladder);
            let previous = c.standing.grade.clone().map(|g| {
                let name = grade_name(ladder.as_ref(), &g).unwrap_or_default();
                (g, name)
            });
            let reason = c.revocation.as_ref().map(|(_, r, _)| r.clone()).unwrap_or_default();
            let revoke =
                PlayerCommand::RevokeRank { ladder: c.ladder.clone(), case: c.id.clone(), serial, reason, previous };
            self.registry.execute(&c.player, &format!("revoke/{case}"), &service, &revoke).await?;
        }
        Ok(())
    }

    /// Signs the certificate of an approved case.
    async fn sign_for(&self, c: &Case) -> Result<SignedCertificate, RankingError> {
        let date = certificate_date(c);
        let serial = certificate_serial(self.config.key.association(), date, &hex_id(&c.id.0));
        let name = self.registry.state(&c.player).await?.display_name(&c.player);
        let grade_name =
            grade_name(self.ladder(&c.ladder).as_ref(), &c.requested).unwrap_or_else(|| c.requested.clone());
        let body = c.certificate_body(&serial, &self.config.key.public(), &name, &grade_name, date);
        self.config.key.sign_certificate(body).map_err(|e| RankingError::Corrupt(format!("signing case {}: {e}", c.id)))
    }

    // ---- proposals ----

    /// Evaluates a registered player's verified results against every ladder's rules and opens a
    /// case when they meet a rule for a higher grade (see the module doc).
    ///
    /// # Errors
    /// Faults.
    pub async fn consider_promotion(&self, player: &PlayerId) -> Result<Vec<CaseId>, RankingError> {
        self.ready().await?;
        self.promotions_for(player).await
    }

    pub(super) async fn promotions_for(&self, player: &PlayerId) -> Result<Vec<CaseId>, RankingError> {
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
        // Check and open in one step (see the desk's module doc).
        let proposals = self.desk.proposals().lock().await;
        let state = self.registry.state(player).await?;
        if state.registered_at.is_none() || self.desk.busy(player, &ladder) {
            return Ok(None);
        }
        let standing = state.standing(player, &ladder)?;
        let mut tournaments: Vec<(weiqi_rating::Millis, String)> = proposals
            .results
            .values()
            .filter(|r| r.ended_at >= standing.since && r.placing_of(player).is_some())
            .map(|r| (r.ended_at, r.event.id.0.clone()))
            .collect();
        tournaments.sort();
        let mut evidence = Vec::new();
        for (_, t) in &tournaments {
            match verify_placing(&self.log, self.results.as_ref(), player, t).await? {
                Ok(e) => evidence.push(e),
                Err(why) => tracing::warn!(%player, tournament = %t, %why, "placing not usable as evidence"),
            }
        }
        let now = self.now();
        if let Some(sample) = self.ledger.read(|book, _, _| book.sample(player, now)).await? {
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
        if self.desk.record(&case).is_some() {
            return Ok(None);
        }
        let service = self.service_actor();
        let order = CaseOrder(vec![
            CaseCommand::Open {
                case: case.clone(),
                player: player.clone(),
                opened_by: ActorId(self.config.service_id.clone()),
                applicant: Applicant::Organiser,
                ladder: ladder.clone(),
                current: standing.grade.clone(),
                since: standing.since,
                requested: proposal.to.clone(),
            },
            CaseCommand::AttachEvidence { items: evidence },
            CaseCommand::RunAutomaticCheck { rules: Box::new(rules.clone()) },
        ]);
        self.desk.execute(&case, &format!("case/{case}/open"), &service, &order).await?;
        let record = ProposalRecord { ladder, to: proposal.to, rules: proposal.rules, case: case.clone(), at: now };
        self.registry
            .execute(player, &format!("propose/{case}"), &service, &PlayerCommand::RecordProposal(record))
            .await?;
        tracing::info!(%player, %case, "promotion proposed");
        Ok(Some(case))
    }

    /// Takes in an event's final results: remembers them and considers every placed player.
    ///
    /// # Errors
    /// Faults.
    pub async fn on_results(&self, results: FinalResults) -> Result<(), RankingError> {
        self.ready().await?;
        let players: Vec<PlayerId> = results.players().cloned().collect();
        // EGF: the tournament's games are rated now, together (a no-op under other systems).
        self.rate_tournament(&results).await?;
        // Results published again (a correction, a withdrawal): the placings cases hold follow them.
        self.revise_placings(&results).await?;
        self.desk.proposals().lock().await.results.insert(results.event.id.0.clone(), results);
        for p in &players {
            self.promotions_for(p).await?;
        }
        Ok(())
    }

    /// Follows final results from the port. Runs until aborted.
    pub(super) async fn follow_results(&self) {
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
        self.ready().await?;
        self.desk.require(case)
    }

    /// Cases waiting for review: open ones not yet decided, unassigned or assigned to `reviewer`, and
    /// overrides waiting for a second reviewer other than `reviewer` (every waiting case when
    /// `reviewer` is `None`), and decided cases whose evidence changed since (flagged), oldest first.
    ///
    /// # Errors
    /// Faults while loading.
    pub async fn review_queue(&self, reviewer: Option<&ActorId>) -> Result<Vec<CaseRecord>, RankingError> {
        self.ready().await?;
        Ok(self.desk.select(|c| match c.status {
            CaseStatus::Open => reviewer.is_none_or(|me| c.reviewer.as_ref().is_none_or(|a| a == me)),
            // An override waits for any reviewer but the one who proposed it (and the proposer sees
            // it in the full queue).
            CaseStatus::AwaitingConfirmation => {
                reviewer.is_none_or(|me| c.proposal.as_ref().is_none_or(|p| p.reviewer != *me))
            }
            // A decided case whose evidence changed since (a corrected result) waits for any reviewer.
            _ => c.flagged(),
        }))
    }

    /// The case whose issued certificate has `serial`, if any.
    ///
    /// # Errors
    /// Faults while loading.
    pub async fn certificate(&self, serial: &str) -> Result<Option<CaseRecord>, RankingError> {
        self.ready().await?;
        Ok(self.desk.select(|c| c.certificate.as_ref().is_some_and(|x| x.body.serial == serial)).into_iter().next())
    }

    /// The cases of a player (or opened by them), oldest first.
    ///
    /// # Errors
    /// Faults while loading.
    pub async fn cases_of(&self, who: &str) -> Result<Vec<CaseRecord>, RankingError> {
        self.ready().await?;
        Ok(self.desk.select(|c| c.player.0 == who || c.opened_by.0 == who))
    }

    /// The signed revocation list, built from every revoked case: entries ordered by date and
    /// serial, `sequence` = the number of revocations (it grows with each), issued on the date of
    /// the latest revocation (today's date while there is none).
    ///
    /// # Errors
    /// Faults while loading; `Corrupt` if the list cannot be signed.
    pub async fn revocation_list(&self) -> Result<SignedRevocationList, RankingError> {
        self.ready().await?;
        let cases = self.desk.select(|c| c.status == CaseStatus::Revoked);
        let entries = revocations(cases.iter().map(|r| &r.case));
        let issued = entries.iter().map(|e| e.date).max().unwrap_or_else(|| CivilDate::from_millis(self.now()));
        let list = RevocationList {
            association: self.config.key.association().to_owned(),
            key_id: self.config.key.key_id(),
            issued,
            sequence: entries.len() as u64,
            // Signed now, due again after the configured validity: a client refuses a list past it.
            issued_at: Some(self.now()),
            next_update: Some(self.now().plus(self.config.revocations_valid_for)),
            entries,
        };
        self.config.key.sign_revocations(list).map_err(|e| RankingError::Corrupt(format!("revocation list: {e}")))
    }

    /// Verifies a certificate file with the association's key and the current revocation list.
    ///
    /// # Errors
    /// Faults while building the list; a certificate that does not verify is `Ok(Err(..))`.
    pub async fn verify_certificate(&self, text: &str) -> Result<Result<Verified, VerifyError>, RankingError> {
        Ok(self.verify_certificate_against_list(text).await?.0)
    }

    /// As [`Self::verify_certificate`], with the sequence of the revocation list consulted (whatever
    /// the outcome: a revoked certificate names the list that revoked it).
    ///
    /// # Errors
    /// Faults while building the list.
    pub async fn verify_certificate_against_list(
        &self,
        text: &str,
    ) -> Result<(Result<Verified, VerifyError>, u64), RankingError> {
        let list = self.revocation_list().await?;
        let sequence = list.list.sequence;
        let certificate = match weiqi_rating::parse_certificate(text) {
            Ok(c) => c,
            Err(e) => return Ok((Err(VerifyError::MalformedCertificate(e)), sequence)),
        };
        Ok((verify(&certificate, &self.config.key.public(), Some(&list)), sequence))
    }
}
