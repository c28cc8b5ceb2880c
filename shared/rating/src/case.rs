//! The certification case: one event log per case, from application to certificate (and revocation).
//!
//! ```text
//! decide(&CaseState, &CaseCommand, now) -> Result<Vec<CaseEvent>, CaseRejection>
//! CaseState::evolve(&mut self, &CaseEvent)
//! ```
//!
//! The life of a case:
//!
//! 1. **Opened** by the player or an organiser, asking for a grade in a ladder, stating the player's
//!    current grade (the service fills it from the registry).
//! 2. **Evidence attached**: games, placings, ratings. The service verifies each item against the logs
//!    before sending it; the case records exactly what was verified, never a claim.
//! 3. **Automatic check** against the association's rule table ([`crate::evaluate`]); the event records
//!    every rule's verdict and the digest of the rule file used. New evidence voids the check.
//! 4. **Reviewer assigned** (never the player or the applicant).
//! 5. **Approved** or **rejected** with reasons by that reviewer. Approval needs a check that supports the
//!    requested grade. Against the check (an honorary grade, evidence the rules do not know) the
//!    reviewer may only **propose** an override, with a written justification of at least
//!    [`MIN_JUSTIFICATION_CHARS`] characters; a **second, different reviewer** who is not a party
//!    **confirms** it (four eyes) or rejects it. Both names are in the decision and the certificate's
//!    basis.
//! 6. **Certificate issued**: the signed certificate, which must match the case.
//! 7. **Revoked**, with a reason (Art. 23.1), after issue.

use serde::{Deserialize, Serialize};

use crate::evaluate::{Basis, Evaluation, Verdict, evaluate};
use crate::evidence::{Evidence, Standing};
use crate::rules::AssociationRules;
use crate::{ActorId, CaseId, CertificateBody, CivilDate, Millis, PlayerId, PublicKey, SignedCertificate};

/// Who opened a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Applicant {
    /// The player applied.
    Player,
    /// An organiser (club, event, provincial association) applied for the player.
    Organiser,
}

/// Where a case stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaseStatus {
    /// Collecting evidence, checking, under review.
    Open,
    /// An override proposed by the reviewer, waiting for a second reviewer's confirmation.
    AwaitingConfirmation,
    /// Approved, certificate not yet issued.
    Approved,
    /// Rejected (final).
    Rejected,
    /// Certificate issued.
    Issued,
    /// Certificate revoked (final).
    Revoked,
}

impl CaseStatus {
    /// Whether the office has yet to decide (open, or an override awaiting its second reviewer).
    #[must_use]
    pub fn is_open(self) -> bool {
        matches!(self, CaseStatus::Open | CaseStatus::AwaitingConfirmation)
    }
}

/// The automatic check as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckRecord {
    /// The association whose rules were used.
    pub association: String,
    /// SHA-256 of the rule file.
    pub rules_digest: String,
    /// Every rule's verdict.
    pub evaluation: Evaluation,
    /// Whether some rule met promotes to the requested grade.
    pub supports_request: bool,
    /// The requested grade is at or above the rules' `two_reviewers_from`: approval always needs
    /// a second reviewer's confirmation.
    #[serde(default)]
    pub two_reviewers: bool,
    /// The rule set's name ([`crate::AssociationRules::name`]); with the digest, which rules decided.
    #[serde(default)]
    pub rule_set: String,
}

/// The decision as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// The reviewer.
    pub reviewer: ActorId,
    /// Approved or not.
    pub approved: bool,
    /// The reviewer's reasons or note.
    pub reasons: Vec<String>,
    /// Set when an approval overrode a check that did not support the request.
    pub override_reason: Option<String>,
    /// The second reviewer who confirmed an override (four eyes).
    #[serde(default)]
    pub confirmed_by: Option<ActorId>,
    /// When.
    pub at: Millis,
}

/// The fewest characters an override's written justification may have.
pub const MIN_JUSTIFICATION_CHARS: usize = 20;

/// One certification case: the state its events build.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// The case.
    pub id: CaseId,
    /// The player to be certified.
    pub player: PlayerId,
    /// Who opened it.
    pub opened_by: ActorId,
    /// As whom.
    pub applicant: Applicant,
    /// The ladder.
    pub ladder: String,
    /// The player's grade when the case opened.
    pub standing: Standing,
    /// The grade asked for.
    pub requested: String,
    /// When it opened.
    pub opened_at: Millis,
    /// Verified evidence, in the order attached.
    pub evidence: Vec<Evidence>,
    /// The latest automatic check, if still valid.
    pub check: Option<CheckRecord>,
    /// The reviewer.
    pub reviewer: Option<ActorId>,
    /// The decision.
    pub decision: Option<Decision>,
    /// An override waiting for a second reviewer (status `AwaitingConfirmation`).
    #[serde(default)]
    pub proposal: Option<Decision>,
    /// The certificate, once issued.
    pub certificate: Option<SignedCertificate>,
    /// The revocation reason, once revoked.
    pub revocation: Option<(ActorId, String, Millis)>,
    /// Where it stands.
    pub status: CaseStatus,
    /// Evidence that changed after it was attached (a corrected result), in order. One made after the
    /// decision flags the case to the office ([`Case::flagged`]).
    #[serde(default)]
    pub revisions: Vec<EvidenceRevision>,
    /// How many of the revisions the office has looked at ([`CaseEvent::RevisionsAcknowledged`]).
    #[serde(default)]
    pub acknowledged: usize,
}

/// Evidence that changed after it was attached (a game whose result was corrected, a placing in
/// results published again): what the case held, what the logs say now, and whether the case was
/// already decided.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvidenceRevision {
    /// The item as the case held it.
    pub before: Evidence,
    /// The item as the logs say now; `None`: it no longer counts.
    pub after: Option<Evidence>,
    /// The case was approved or its certificate issued when the evidence changed.
    pub after_decision: bool,
    /// When.
    pub at: Millis,
}

/// The state of a case's log: nothing until it is opened.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct CaseState {
    /// The case, once opened.
    pub case: Option<Case>,
}

/// What can be asked of a case.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseCommand {
    /// Open the case.
    Open {
        /// Case id.
        case: CaseId,
        /// The player.
        player: PlayerId,
        /// Who opens it.
        opened_by: ActorId,
        /// As whom.
        applicant: Applicant,
        /// The ladder.
        ladder: String,
        /// The player's current grade (from the registry) and since when.
        current: Option<String>,
        /// Since when.
        since: Millis,
        /// The grade asked for.
        requested: String,
    },
    /// Attach evidence that the service has verified against the logs.
    AttachEvidence {
        /// The items.
        items: Vec<Evidence>,
    },
    /// Check the evidence against the association's rules.
    RunAutomaticCheck {
        /// The rules.
        rules: Box<AssociationRules>,
    },
    /// Assign the reviewer.
    AssignReviewer {
        /// The reviewer.
        reviewer: ActorId,
    },
    /// Approve.
    Approve {
        /// Who.
        reviewer: ActorId,
        /// A note for the record (may be empty).
        note: String,
        /// Required when the automatic check does not support the request.
        override_reason: Option<String>,
    },
    /// A second reviewer confirms a proposed override (four eyes).
    Confirm {
        /// Who: a reviewer other than the one who proposed it, and no party.
        reviewer: ActorId,
    },
    /// Reject (the assigned reviewer; or, while an override waits, the proposer withdrawing it or the
    /// second reviewer declining it).
    Reject {
        /// Who.
        reviewer: ActorId,
        /// Why (at least one reason).
        reasons: Vec<String>,
    },
    /// Record the signed certificate.
    IssueCertificate {
        /// The certificate.
        certificate: SignedCertificate,
    },
    /// Revoke the issued certificate.
    Revoke {
        /// Who.
        by: ActorId,
        /// Why.
        reason: String,
    },
    /// An item of the evidence changed in the logs (a corrected result, results published again): the
    /// case takes it as verified now. An open case's check is void (the service runs it again); a
    /// decided case keeps its decision and is flagged to the office.
    ReviseEvidence {
        /// Which item.
        key: crate::EvidenceKey,
        /// The item as verified now (its key must be `key`); `None`: it no longer counts.
        now: Option<Evidence>,
    },
    /// A reviewer has looked at the evidence that changed after the decision, and keeps the decision
    /// (with a note); to undo it, an issued certificate is revoked instead.
    AcknowledgeRevisions {
        /// Who: a reviewer who is no party.
        reviewer: ActorId,
        /// Why the decision stands.
        note: String,
    },
}

/// What happened to a case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
#[allow(
    clippy::large_enum_variant,
    reason = "events are built once and appended; boxing would only complicate matching and conversion"
)]
pub enum CaseEvent {
    /// The case was opened.
    Opened {
        /// Case id.
        case: CaseId,
        /// The player.
        player: PlayerId,
        /// Who opened it.
        opened_by: ActorId,
        /// As whom.
        applicant: Applicant,
        /// The ladder.
        ladder: String,
        /// Current grade.
        current: Option<String>,
        /// Since when.
        since: Millis,
        /// Requested grade.
        requested: String,
        /// When.
        at: Millis,
    },
    /// Verified evidence was attached.
    EvidenceAttached {
        /// The items.
        items: Vec<Evidence>,
        /// When.
        at: Millis,
    },
    /// The automatic check ran.
    AutomaticCheckCompleted {
        /// The record.
        check: CheckRecord,
        /// When.
        at: Millis,
    },
    /// A reviewer was assigned.
    ReviewerAssigned {
        /// The reviewer.
        reviewer: ActorId,
        /// When.
        at: Millis,
    },
    /// The reviewer proposed approving against the automatic check; a second reviewer must confirm.
    OverrideProposed {
        /// Who.
        reviewer: ActorId,
        /// Note.
        note: String,
        /// The written justification.
        override_reason: String,
        /// When.
        at: Millis,
    },
    /// Approved.
    Approved {
        /// Who.
        reviewer: ActorId,
        /// Note.
        note: String,
        /// Override, if the check did not support the request.
        override_reason: Option<String>,
        /// The second reviewer who confirmed the override.
        #[serde(default)]
        confirmed_by: Option<ActorId>,
        /// When.
        at: Millis,
    },
    /// Rejected.
    Rejected {
        /// Who.
        reviewer: ActorId,
        /// Why.
        reasons: Vec<String>,
        /// When.
        at: Millis,
    },
    /// The certificate was issued.
    CertificateIssued {
        /// The signed certificate.
        certificate: SignedCertificate,
        /// When.
        at: Millis,
    },
    /// The certificate was revoked.
    CertificateRevoked {
        /// Its serial.
        serial: String,
        /// Who.
        by: ActorId,
        /// Why.
        reason: String,
        /// When.
        at: Millis,
    },
    /// A reviewer looked at the evidence that changed after the decision and kept the decision.
    RevisionsAcknowledged {
        /// Who.
        reviewer: ActorId,
        /// Why the decision stands.
        note: String,
        /// When.
        at: Millis,
    },
    /// An item of the evidence changed in the logs.
    EvidenceRevised {
        /// The item as the case held it.
        before: Evidence,
        /// The item now; `None`: it no longer counts.
        after: Option<Evidence>,
        /// When.
        at: Millis,
    },
}

/// Why a case command was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum CaseRejection {
    /// `Open` on a case that exists.
    #[error("the case is already open")]
    AlreadyOpen,
    /// `AcknowledgeRevisions` on a case whose evidence did not change after its decision (or whose
    /// changes were acknowledged).
    #[error("no evidence changed after the decision")]
    NothingFlagged,
    /// A revision whose new item is not the item named.
    #[error("the revised evidence is not the item named")]
    RevisionMismatch,
    /// Any command but `Open` before the case exists.
    #[error("no such case: open it first")]
    NotOpen,
    /// The command does not fit the case's status.
    #[error("not possible while the case is {0:?}")]
    WrongStatus(CaseStatus),
    /// The requested grade equals the current one.
    #[error("the player already holds {0}")]
    NothingToCertify(String),
    /// No items in an evidence attachment, or no evidence to check.
    #[error("no evidence")]
    NoEvidence,
    /// The rules are for another ladder.
    #[error("the rules are for ladder {rules}, the case for {case}")]
    WrongLadder {
        /// The rules' ladder.
        rules: String,
        /// The case's.
        case: String,
    },
    /// A grade is not in the rules' ladder.
    #[error("grade {0} is not in the rules' ladder")]
    UnknownGrade(String),
    /// The reviewer is the player or the applicant.
    #[error("{0} cannot review a case they are party to")]
    ReviewerIsParty(ActorId),
    /// No reviewer assigned yet.
    #[error("no reviewer is assigned")]
    NoReviewer,
    /// Someone other than the assigned reviewer decided.
    #[error("{actor} is not the assigned reviewer ({assigned})")]
    NotTheReviewer {
        /// The reviewer assigned.
        assigned: ActorId,
        /// Who tried.
        actor: ActorId,
    },
    /// Approval before an automatic check on the current evidence.
    #[error("run the automatic check on the current evidence first")]
    CheckNotRun,
    /// Approval against the check without an override reason.
    #[error("the automatic check does not support {0}; approving needs an override reason")]
    CheckDoesNotSupport(String),
    /// An override's justification is shorter than [`MIN_JUSTIFICATION_CHARS`].
    #[error("an override needs a written justification of at least {min} characters (this one has {found})")]
    JustificationTooShort {
        /// The minimum.
        min: usize,
        /// What was given.
        found: usize,
    },
    /// The reviewer who proposed an override tried to confirm it.
    #[error("{0} proposed this override; a second, different reviewer must confirm it")]
    SameReviewer(ActorId),
    /// A reason is required and missing.
    #[error("a reason is required")]
    ReasonRequired,
    /// A text longer than its limit (or too many reasons).
    #[error("{field} is too long: at most {max}")]
    TooLong {
        /// Which text.
        field: &'static str,
        /// Its limit (characters, or reasons).
        max: usize,
    },
    /// The certificate does not match the case.
    #[error("the certificate's {field} is {found:?}, the case says {expected:?}")]
    CertificateMismatch {
        /// The field.
        field: &'static str,
        /// In the certificate.
        found: String,
        /// In the case.
        expected: String,
    },
}

fn case_of(state: &CaseState) -> Result<&Case, CaseRejection> {
    state.case.as_ref().ok_or(CaseRejection::NotOpen)
}

fn require(case: &Case, status: CaseStatus) -> Result<(), CaseRejection> {
    if case.status == status { Ok(()) } else { Err(CaseRejection::WrongStatus(case.status)) }
}

fn non_empty(text: &str) -> Result<(), CaseRejection> {
    if text.trim().is_empty() { Err(CaseRejection::ReasonRequired) } else { Ok(()) }
}

/// The longest note, reason or justification, in characters.
pub const MAX_TEXT_CHARS: usize = 2_000;
/// The most reasons a rejection gives.
pub const MAX_REASONS: usize = 20;
/// The longest ladder or grade name, in characters.
pub const MAX_GRADE_CHARS: usize = 32;

fn at_most(field: &'static str, text: &str, max: usize) -> Result<(), CaseRejection> {
    if text.chars().count() > max { Err(CaseRejection::TooLong { field, max }) } else { Ok(()) }
}

/// Every text a command carries is within its limit.
fn limits(command: &CaseCommand) -> Result<(), CaseRejection> {
    match command {
        CaseCommand::Open { ladder, current, requested, .. } => {
            at_most("the ladder", ladder, MAX_GRADE_CHARS)?;
            at_most("the grade", requested, MAX_GRADE_CHARS)?;
            current.as_deref().map_or(Ok(()), |c| at_most("the grade", c, MAX_GRADE_CHARS))
        }
        CaseCommand::Approve { note, override_reason, .. } => {
            at_most("the note", note, MAX_TEXT_CHARS)?;
            override_reason.as_deref().map_or(Ok(()), |r| at_most("the override's reason", r, MAX_TEXT_CHARS))
        }
        CaseCommand::Reject { reasons, .. } => {
            if reasons.len() > MAX_REASONS {
                return Err(CaseRejection::TooLong { field: "the list of reasons", max: MAX_REASONS });
            }
            reasons.iter().try_for_each(|r| at_most("a reason", r, MAX_TEXT_CHARS))
        }
        CaseCommand::Revoke { reason, .. } => at_most("the reason", reason, MAX_TEXT_CHARS),
        CaseCommand::AcknowledgeRevisions { note, .. } => at_most("the note", note, MAX_TEXT_CHARS),
        _ => Ok(()),
    }
}

/// Decides what a command does to a case. Pure: `now` is the decision time.
pub fn decide_case(state: &CaseState, command: &CaseCommand, now: Millis) -> Result<Vec<CaseEvent>, CaseRejection> {
    limits(command)?;
    let event = match command {
        CaseCommand::ReviseEvidence { key, now: verified } => {
            case_of(state)?;
            if verified.as_ref().is_some_and(|v| v.key().as_ref() != Some(key)) {
                return Err(CaseRejection::RevisionMismatch);
            }
            return Ok(revise(state, key, verified.as_ref(), now));
        }
        CaseCommand::AcknowledgeRevisions { reviewer, note } => {
            let case = case_of(state)?;
            if !case.flagged() {
                return Err(CaseRejection::NothingFlagged);
            }
            if *reviewer == ActorId(case.player.0.clone()) || *reviewer == case.opened_by {
                return Err(CaseRejection::ReviewerIsParty(reviewer.clone()));
            }
            non_empty(note)?;
            CaseEvent::RevisionsAcknowledged { reviewer: reviewer.clone(), note: note.clone(), at: now }
        }
        CaseCommand::Open { case, player, opened_by, applicant, ladder, current, since, requested } => {
            if state.case.is_some() {
                return Err(CaseRejection::AlreadyOpen);
            }
            if current.as_ref() == Some(requested) {
                return Err(CaseRejection::NothingToCertify(requested.clone()));
            }
            CaseEvent::Opened {
                case: case.clone(),
                player: player.clone(),
                opened_by: opened_by.clone(),
                applicant: *applicant,
                ladder: ladder.clone(),
                current: current.clone(),
                since: *since,
                requested: requested.clone(),
                at: now,
            }
        }
        CaseCommand::AttachEvidence { items } => {
            let case = case_of(state)?;
            require(case, CaseStatus::Open)?;
            if items.is_empty() {
                return Err(CaseRejection::NoEvidence);
            }
            CaseEvent::EvidenceAttached { items: items.clone(), at: now }
        }
        CaseCommand::RunAutomaticCheck { rules } => {
            let case = case_of(state)?;
            require(case, CaseStatus::Open)?;
            if case.evidence.is_empty() {
                return Err(CaseRejection::NoEvidence);
            }
            if rules.ladder.id != case.ladder {
                return Err(CaseRejection::WrongLadder { rules: rules.ladder.id.clone(), case: case.ladder.clone() });
            }
            let requested = rules
                .ladder
                .position(&case.requested)
                .ok_or_else(|| CaseRejection::UnknownGrade(case.requested.clone()))?;
            let evaluation = evaluate(rules, &case.standing, &case.evidence, now)
                .map_err(|_| CaseRejection::UnknownGrade(case.standing.grade.clone().unwrap_or_default()))?;
            let supports_request = evaluation.supports(&rules.ladder.grades[requested].code);
            CaseEvent::AutomaticCheckCompleted {
                check: CheckRecord {
                    association: rules.association.id.clone(),
                    rules_digest: rules.digest.clone(),
                    evaluation,
                    supports_request,
                    two_reviewers: rules.needs_two_reviewers(&case.requested),
                    rule_set: rules.name.clone(),
                },
                at: now,
            }
        }
        CaseCommand::AssignReviewer { reviewer } => {
            let case = case_of(state)?;
            require(case, CaseStatus::Open)?;
            if reviewer.0 == case.player.0 || *reviewer == case.opened_by {
                return Err(CaseRejection::ReviewerIsParty(reviewer.clone()));
            }
            CaseEvent::ReviewerAssigned { reviewer: reviewer.clone(), at: now }
        }
        CaseCommand::Approve { reviewer, note, override_reason } => {
            let case = case_of(state)?;
            require(case, CaseStatus::Open)?;
            check_reviewer(case, reviewer)?;
            let check = case.check.as_ref().ok_or(CaseRejection::CheckNotRun)?;
            if check.supports_request && check.two_reviewers {
                // Supported, but the grade always needs four eyes: the proposal waits for a second
                // reviewer, with no justification needed (the check is the justification).
                CaseEvent::OverrideProposed {
                    reviewer: reviewer.clone(),
                    note: note.clone(),
                    override_reason: String::new(),
                    at: now,
                }
            } else if check.supports_request {
                // An override on a supporting check is moot: not recorded.
                CaseEvent::Approved {
                    reviewer: reviewer.clone(),
                    note: note.clone(),
                    override_reason: None,
                    confirmed_by: None,
                    at: now,
                }
            } else {
                let Some(reason) = override_reason.as_ref().map(|r| r.trim()).filter(|r| !r.is_empty()) else {
                    return Err(CaseRejection::CheckDoesNotSupport(case.requested.clone()));
                };
                let found = reason.chars().count();
                if found < MIN_JUSTIFICATION_CHARS {
                    return Err(CaseRejection::JustificationTooShort { min: MIN_JUSTIFICATION_CHARS, found });
                }
                CaseEvent::OverrideProposed {
                    reviewer: reviewer.clone(),
                    note: note.clone(),
                    override_reason: reason.to_owned(),
                    at: now,
                }
            }
        }
        CaseCommand::Confirm { reviewer } => {
            let case = case_of(state)?;
            require(case, CaseStatus::AwaitingConfirmation)?;
            let proposal = case.proposal.as_ref().ok_or(CaseRejection::WrongStatus(case.status))?;
            if *reviewer == proposal.reviewer {
                return Err(CaseRejection::SameReviewer(reviewer.clone()));
            }
            if reviewer.0 == case.player.0 || *reviewer == case.opened_by {
                return Err(CaseRejection::ReviewerIsParty(reviewer.clone()));
            }
            CaseEvent::Approved {
                reviewer: proposal.reviewer.clone(),
                note: proposal.reasons.join("; "),
                override_reason: proposal.override_reason.clone(),
                confirmed_by: Some(reviewer.clone()),
                at: now,
            }
        }
        CaseCommand::Reject { reviewer, reasons } => {
            let case = case_of(state)?;
            if case.status == CaseStatus::AwaitingConfirmation {
                if reviewer.0 == case.player.0 || *reviewer == case.opened_by {
                    return Err(CaseRejection::ReviewerIsParty(reviewer.clone()));
                }
            } else {
                require(case, CaseStatus::Open)?;
                check_reviewer(case, reviewer)?;
            }
            if reasons.iter().all(|r| r.trim().is_empty()) {
                return Err(CaseRejection::ReasonRequired);
            }
            CaseEvent::Rejected { reviewer: reviewer.clone(), reasons: reasons.clone(), at: now }
        }
        CaseCommand::IssueCertificate { certificate } => {
            let case = case_of(state)?;
            require(case, CaseStatus::Approved)?;
            let body = &certificate.body;
            let pairs: [(&'static str, &str, &str); 4] = [
                ("player", &body.player.0, &case.player.0),
                ("grade", &body.grade, &case.requested),
                ("ladder", &body.ladder, &case.ladder),
                ("case", &body.case.0, &case.id.0),
            ];
            for (field, found, expected) in pairs {
                if found != expected {
                    return Err(CaseRejection::CertificateMismatch {
                        field,
                        found: found.to_owned(),
                        expected: expected.to_owned(),
                    });
                }
            }
            CaseEvent::CertificateIssued { certificate: certificate.clone(), at: now }
        }
        CaseCommand::Revoke { by, reason } => {
            let case = case_of(state)?;
            require(case, CaseStatus::Issued)?;
            non_empty(reason)?;
            CaseEvent::CertificateRevoked {
                serial: case.certificate.as_ref().map(|c| c.body.serial.clone()).unwrap_or_default(),
                by: by.clone(),
                reason: reason.clone(),
                at: now,
            }
        }
    };
    Ok(vec![event])
}

/// A revision of the evidence: decided by [`decide_case`] for [`CaseCommand::ReviseEvidence`]. Nothing
/// when the case does not hold the item or holds it as it is now.
fn revise(state: &CaseState, key: &crate::EvidenceKey, now: Option<&Evidence>, at: Millis) -> Vec<CaseEvent> {
    let Some(case) = state.case.as_ref() else { return Vec::new() };
    match case.evidence.iter().find(|e| e.key().as_ref() == Some(key)) {
        Some(before) if Some(before) != now => {
            vec![CaseEvent::EvidenceRevised { before: before.clone(), after: now.cloned(), at }]
        }
        _ => Vec::new(),
    }
}

fn check_reviewer(case: &Case, actor: &ActorId) -> Result<(), CaseRejection> {
    match &case.reviewer {
        None => Err(CaseRejection::NoReviewer),
        Some(assigned) if assigned != actor => {
            Err(CaseRejection::NotTheReviewer { assigned: assigned.clone(), actor: actor.clone() })
        }
        Some(_) => Ok(()),
    }
}

impl CaseState {
    /// Applies one event.
    pub fn evolve(&mut self, event: &CaseEvent) {
        if let CaseEvent::Opened { case, player, opened_by, applicant, ladder, current, since, requested, at } = event {
            self.case = Some(Case {
                id: case.clone(),
                player: player.clone(),
                opened_by: opened_by.clone(),
                applicant: *applicant,
                ladder: ladder.clone(),
                standing: Standing { player: player.clone(), grade: current.clone(), since: *since },
                requested: requested.clone(),
                opened_at: *at,
                evidence: Vec::new(),
                check: None,
                reviewer: None,
                decision: None,
                proposal: None,
                certificate: None,
                revocation: None,
                status: CaseStatus::Open,
                revisions: Vec::new(),
                acknowledged: 0,
            });
            return;
        }
        let Some(case) = self.case.as_mut() else {
            return;
        };
        match event {
            CaseEvent::Opened { .. } => {}
            CaseEvent::EvidenceAttached { items, .. } => {
                case.evidence.extend(items.iter().cloned());
                case.check = None;
            }
            CaseEvent::EvidenceRevised { before, after, at } => {
                let decided = !matches!(case.status, CaseStatus::Open | CaseStatus::AwaitingConfirmation);
                let key = before.key();
                if let Some(i) = case.evidence.iter().position(|e| key.is_some() && e.key() == key) {
                    match after {
                        Some(e) => case.evidence[i] = e.clone(),
                        None => {
                            case.evidence.remove(i);
                        }
                    }
                }
                if !decided {
                    // What the check weighed changed: it no longer stands.
                    case.check = None;
                }
                case.revisions.push(EvidenceRevision {
                    before: before.clone(),
                    after: after.clone(),
                    after_decision: decided,
                    at: *at,
                });
            }
            CaseEvent::RevisionsAcknowledged { .. } => case.acknowledged = case.revisions.len(),
            CaseEvent::AutomaticCheckCompleted { check, .. } => case.check = Some(check.clone()),
            CaseEvent::ReviewerAssigned { reviewer, .. } => case.reviewer = Some(reviewer.clone()),
            CaseEvent::OverrideProposed { reviewer, note, override_reason, at } => {
                case.proposal = Some(Decision {
                    reviewer: reviewer.clone(),
                    approved: true,
                    reasons: if note.is_empty() { Vec::new() } else { vec![note.clone()] },
                    override_reason: (!override_reason.is_empty()).then(|| override_reason.clone()),
                    confirmed_by: None,
                    at: *at,
                });
                case.status = CaseStatus::AwaitingConfirmation;
            }
            CaseEvent::Approved { reviewer, note, override_reason, confirmed_by, at } => {
                case.decision = Some(Decision {
                    reviewer: reviewer.clone(),
                    approved: true,
                    reasons: if note.is_empty() { Vec::new() } else { vec![note.clone()] },
                    override_reason: override_reason.clone(),
                    confirmed_by: confirmed_by.clone(),
                    at: *at,
                });
                case.status = CaseStatus::Approved;
            }
            CaseEvent::Rejected { reviewer, reasons, at } => {
                case.decision = Some(Decision {
                    reviewer: reviewer.clone(),
                    approved: false,
                    reasons: reasons.clone(),
                    override_reason: None,
                    confirmed_by: None,
                    at: *at,
                });
                case.status = CaseStatus::Rejected;
            }
            CaseEvent::CertificateIssued { certificate, .. } => {
                case.certificate = Some(certificate.clone());
                case.status = CaseStatus::Issued;
            }
            CaseEvent::CertificateRevoked { by, reason, at, .. } => {
                case.revocation = Some((by.clone(), reason.clone(), *at));
                case.status = CaseStatus::Revoked;
            }
        }
    }

    /// Replays events into a state.
    #[must_use]
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a CaseEvent>) -> CaseState {
        let mut state = CaseState::default();
        for e in events {
            state.evolve(e);
        }
        state
    }
}

impl Case {
    /// Evidence changed after the case was decided (approved, issued, rejected) and no reviewer has
    /// looked at it since (a revoked certificate needs nothing more): the office must look again.
    #[must_use]
    pub fn flagged(&self) -> bool {
        self.status != CaseStatus::Revoked && self.revisions.iter().skip(self.acknowledged).any(|r| r.after_decision)
    }

    /// The certificate's basis line: the rules met for the requested grade with their reasons, or the
    /// reviewer's override.
    #[must_use]
    pub fn basis(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(check) = &self.check {
            for o in &check.evaluation.outcomes {
                if let (true, Verdict::Met(basis)) = (o.to == self.requested, &o.verdict) {
                    parts.push(format!("{}: {}", o.rule, one_line(basis)));
                }
            }
        }
        if let Some(d) = &self.decision
            && let Some(reason) = &d.override_reason
        {
            match &d.confirmed_by {
                Some(second) => parts
                    .push(format!("approved by review: {reason} (proposed by {}, confirmed by {second})", d.reviewer)),
                None => parts.push(format!("approved by review: {reason}")),
            }
        }
        if parts.is_empty() {
            parts.push("approved by review".to_owned());
        }
        parts.join("; ").replace(['\n', '\r'], " ").trim().to_owned()
    }

    /// The body of this case's certificate, ready to sign with the association's key.
    #[must_use]
    pub fn certificate_body(
        &self,
        serial: &str,
        key: &PublicKey,
        player_name: &str,
        grade_name: &str,
        date: CivilDate,
    ) -> CertificateBody {
        CertificateBody {
            serial: serial.to_owned(),
            association: key.association.clone(),
            key_id: key.key_id(),
            player: self.player.clone(),
            player_name: player_name.to_owned(),
            ladder: self.ladder.clone(),
            grade: self.requested.clone(),
            grade_name: grade_name.to_owned(),
            date,
            case: self.id.clone(),
            basis: self.basis(),
        }
    }
}

fn one_line(basis: &Basis) -> String {
    basis.to_string()
}
