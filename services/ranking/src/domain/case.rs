//! The certification case aggregate (pure): the rating core's case decider, one order at a time.
//!
//! ```text
//! decide_order(&CaseState, &CaseOrder, now) -> Result<(Vec<CaseEvent>, CaseState), RankingRejection>
//! CaseState::evolve(&mut self, &CaseEvent)          (weiqi_rating)
//! ```
//!
//! The state and the events are the rating core's ([`weiqi_rating::CaseState`],
//! [`weiqi_rating::CaseEvent`]). What the service asks is an order of one or more case commands, decided
//! one after the other against the state each leaves and appended together: an application opens the
//! case, attaches its verified evidence and runs the automatic check in one append.

use weiqi_rating::{
    Case, CaseCommand, CaseEvent, CaseState, CaseStatus, CivilDate, Evidence, Ladder, Millis, PlayerId, Revocation,
    decide_case,
};

use super::RankingRejection;

/// What the service asks of a case: case commands, decided in order and appended together.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseOrder(pub Vec<CaseCommand>);

impl CaseOrder {
    /// One command.
    #[must_use]
    pub fn one(command: CaseCommand) -> CaseOrder {
        CaseOrder(vec![command])
    }

    /// What the caller asked, without what the service derived for it: the verified evidence's values
    /// (a rating sample is taken at the time of the check), the rule file and the signed certificate are
    /// named by what identifies them, and the standing (read from the registry) is left out. A retry of
    /// the same request asks the same, even when the values derived again differ; this is what the
    /// command digest covers.
    #[must_use]
    pub fn asked(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|c| match c {
                CaseCommand::Open { case, player, opened_by, applicant, ladder, requested, .. } => {
                    format!("open {case} {player} {opened_by} {applicant:?} {ladder} {requested}")
                }
                CaseCommand::AttachEvidence { items } => {
                    let sources: Vec<String> = items
                        .iter()
                        .map(|e| match e {
                            Evidence::Game(g) => format!("game {}", g.game),
                            Evidence::Placing(p) => format!("placing {}", p.event.id),
                            Evidence::Rating(r) => format!("rating {}", r.system),
                        })
                        .collect();
                    format!("attach {}", sources.join(", "))
                }
                CaseCommand::RunAutomaticCheck { rules } => format!("check {}", rules.ladder.id),
                CaseCommand::IssueCertificate { certificate } => format!("issue {}", certificate.body.serial),
                other => format!("{other:?}"),
            })
            .collect()
    }
}

/// Decides an order: each command against the state the previous ones leave. Returns the events and
/// the state with them folded. Pure: `now` is the decision time. No events when the order is empty.
///
/// # Errors
/// [`RankingRejection::Case`] for the first command the rating core refuses; nothing of the order is
/// appended then.
pub fn decide_order(
    state: &CaseState,
    order: &CaseOrder,
    now: Millis,
) -> Result<(Vec<CaseEvent>, CaseState), RankingRejection> {
    let mut next = state.clone();
    let mut events = Vec::new();
    for command in &order.0 {
        for e in decide_case(&next, command, now)? {
            next.evolve(&e);
            events.push(e);
        }
    }
    Ok((events, next))
}

/// The serial of a case's certificate: `<ASSOCIATION>-<year>-<12 hex digits of the case>`
/// (`WQ` when the association's name has no letters or digits).
#[must_use]
pub fn certificate_serial(association: &str, date: CivilDate, case_digest: &str) -> String {
    let association: String =
        association.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_uppercase();
    let digits: String = case_digest.chars().take(12).collect();
    format!("{}-{}-{digits}", if association.is_empty() { "WQ" } else { &association }, date.year)
}

/// The date a case's certificate carries: the decision's (the opening's if undecided).
#[must_use]
pub fn certificate_date(case: &Case) -> CivilDate {
    CivilDate::from_millis(case.decision.as_ref().map_or(case.opened_at, |d| d.at))
}

/// A grade's name in a ladder (empty if the ladder does not have it).
#[must_use]
pub fn grade_name(ladder: Option<&Ladder>, grade: &str) -> Option<String> {
    ladder.and_then(|l| l.position(grade).and_then(|p| l.grade(p).map(|g| g.name.clone())))
}

/// Whether a case keeps a player's ladder busy: one open (or approved, not yet issued) case per player
/// and ladder at a time.
#[must_use]
pub fn keeps_busy(case: &Case, player: &PlayerId, ladder: &str) -> bool {
    case.player == *player
        && case.ladder == ladder
        && matches!(case.status, CaseStatus::Open | CaseStatus::AwaitingConfirmation | CaseStatus::Approved)
}

/// A revocation reason on one line (`revoked` if there is none).
#[must_use]
pub fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.is_empty() { "revoked".to_owned() } else { joined }
}

/// The entries of the revocation list: every revoked case's certificate, ordered by date and serial.
#[must_use]
pub fn revocations<'a>(cases: impl IntoIterator<Item = &'a Case>) -> Vec<Revocation> {
    let mut entries: Vec<Revocation> = cases
        .into_iter()
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
    entries
}

#[cfg(test)]
mod tests {
    use weiqi_rating::{ActorId, Applicant, CaseId, CaseRejection, RatingSample};

    use super::*;

    fn open() -> CaseCommand {
        CaseCommand::Open {
            case: CaseId::from("case-1"),
            player: PlayerId::from("li"),
            opened_by: ActorId::from("li"),
            applicant: Applicant::Player,
            ladder: "amateur".into(),
            current: Some("1k".into()),
            since: Millis(0),
            requested: "1d".into(),
        }
    }

    fn rating(at: i64, rating: f64) -> Evidence {
        Evidence::Rating(RatingSample { system: "glicko2".into(), rating, deviation: 80.0, games: 30, at: Millis(at) })
    }

    #[test]
    fn given_nothing_when_an_application_opens_with_evidence_then_both_events_in_one_order() {
        let order = CaseOrder(vec![open(), CaseCommand::AttachEvidence { items: vec![rating(5, 2000.0)] }]);
        let (events, next) = decide_order(&CaseState::default(), &order, Millis(10)).unwrap();
        assert_eq!(events.len(), 2);
        let case = next.case.as_ref().unwrap();
        assert_eq!((case.status, case.evidence.len(), case.opened_at), (CaseStatus::Open, 1, Millis(10)));
        assert!(keeps_busy(case, &PlayerId::from("li"), "amateur"));
        assert!(!keeps_busy(case, &PlayerId::from("li"), "professional"));
        // Opening again refuses the whole order.
        assert_eq!(decide_order(&next, &order, Millis(11)), Err(RankingRejection::Case(CaseRejection::AlreadyOpen)));
    }

    #[test]
    fn given_an_open_case_when_evidence_is_empty_then_refused_and_nothing_decided() {
        let (_, open_case) = decide_order(&CaseState::default(), &CaseOrder::one(open()), Millis(1)).unwrap();
        let empty = CaseOrder::one(CaseCommand::AttachEvidence { items: vec![] });
        assert_eq!(decide_order(&open_case, &empty, Millis(2)), Err(RankingRejection::Case(CaseRejection::NoEvidence)));
        let review = CaseOrder::one(CaseCommand::AssignReviewer { reviewer: ActorId::from("li") });
        assert!(matches!(
            decide_order(&open_case, &review, Millis(2)),
            Err(RankingRejection::Case(CaseRejection::ReviewerIsParty(_)))
        ));
    }

    #[test]
    fn what_was_asked_leaves_out_the_values_derived_for_it() {
        let at = |t, r| CaseOrder(vec![open(), CaseCommand::AttachEvidence { items: vec![rating(t, r)] }]);
        assert_eq!(at(5, 2000.0).asked(), at(9, 2001.5).asked(), "the same application, sampled later");
        let other = CaseOrder(vec![open(), CaseCommand::AttachEvidence { items: vec![] }]);
        assert_ne!(at(5, 2000.0).asked(), other.asked());
        let assign = |r: &str| CaseOrder::one(CaseCommand::AssignReviewer { reviewer: ActorId::from(r) }).asked();
        assert_ne!(assign("rev"), assign("zhang"));
    }

    #[test]
    fn serials_and_one_line_reasons() {
        let date = CivilDate::from_millis(Millis(1_772_409_600_000));
        assert_eq!(certificate_serial("cwa", date, "0123456789abcdef"), "CWA-2026-0123456789ab");
        assert_eq!(certificate_serial("--", date, "0123456789abcdef"), "WQ-2026-0123456789ab");
        assert_eq!(one_line("  voided\n for cheating "), "voided for cheating");
        assert_eq!(one_line(" \n"), "revoked");
    }
}
