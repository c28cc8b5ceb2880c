//! The certification case decider, given events / when a command / then events or a rejection; and one
//! case from application to revoked certificate.

use std::collections::BTreeMap;

use weiqi_rating::{
    ActorId, Applicant, AssociationKey, AssociationRules, CaseCommand, CaseEvent, CaseId, CaseRejection, CaseState,
    CaseStatus, CivilDate, EventId, EventLevel, EventRef, Evidence, MIN_JUSTIFICATION_CHARS, Millis, PlayerId,
    Revocation, RevocationList, TournamentPlacing, VerifyError, decide_case, load_rules, verify,
};

const DAY: i64 = 86_400_000;

fn rules() -> Box<AssociationRules> {
    Box::new(load_rules(include_str!("../rules/cwa-amateur.toml")).unwrap())
}

fn qualification(wins: u32) -> Evidence {
    Evidence::Placing(TournamentPlacing {
        event: EventRef {
            id: EventId::from("dq-2026"),
            name: "2026 全国业余围棋定段赛".into(),
            kind: "dan-qualification".into(),
            level: EventLevel::National,
        },
        group: Some("5d".into()),
        place: 3,
        rounds: 7,
        wins,
        field: 48,
        field_by_grade: BTreeMap::new(),
        at: Millis(100 * DAY),
    })
}

fn open_command() -> CaseCommand {
    CaseCommand::Open {
        case: CaseId::from("case-42"),
        player: PlayerId::from("li-ming"),
        opened_by: ActorId::from("li-ming"),
        applicant: Applicant::Player,
        ladder: "amateur".into(),
        current: Some("4d".into()),
        since: Millis(10 * DAY),
        requested: "5d".into(),
    }
}

fn opened() -> CaseEvent {
    CaseEvent::Opened {
        case: CaseId::from("case-42"),
        player: PlayerId::from("li-ming"),
        opened_by: ActorId::from("li-ming"),
        applicant: Applicant::Player,
        ladder: "amateur".into(),
        current: Some("4d".into()),
        since: Millis(10 * DAY),
        requested: "5d".into(),
        at: Millis(200 * DAY),
    }
}

fn attached(wins: u32) -> CaseEvent {
    CaseEvent::EvidenceAttached { items: vec![qualification(wins)], at: Millis(201 * DAY) }
}

fn reviewer() -> ActorId {
    ActorId::from("reviewer-zhang")
}

fn assigned() -> CaseEvent {
    CaseEvent::ReviewerAssigned { reviewer: reviewer(), at: Millis(202 * DAY) }
}

/// Runs the automatic check on the given history and returns its event (so tests can use it as given).
fn checked(history: &[CaseEvent]) -> CaseEvent {
    let events = when(history, CaseCommand::RunAutomaticCheck { rules: rules() }, 203).unwrap();
    events.into_iter().next().unwrap()
}

fn when(given: &[CaseEvent], command: CaseCommand, day: i64) -> Result<Vec<CaseEvent>, CaseRejection> {
    decide_case(&CaseState::replay(given), &command, Millis(day * DAY))
}

fn approve(override_reason: Option<&str>) -> CaseCommand {
    CaseCommand::Approve {
        reviewer: reviewer(),
        note: "results verified".into(),
        override_reason: override_reason.map(Into::into),
    }
}

#[test]
fn open_then_opened() {
    assert_eq!(when(&[], open_command(), 200), Ok(vec![opened()]));
    assert_eq!(when(&[opened()], open_command(), 200), Err(CaseRejection::AlreadyOpen));
}

#[test]
fn nothing_before_open() {
    assert_eq!(when(&[], CaseCommand::AssignReviewer { reviewer: reviewer() }, 1), Err(CaseRejection::NotOpen));
}

#[test]
fn evidence_is_recorded_as_verified_and_voids_an_earlier_check() {
    assert_eq!(
        when(&[opened()], CaseCommand::AttachEvidence { items: vec![qualification(6)] }, 201),
        Ok(vec![attached(6)])
    );
    assert_eq!(when(&[opened()], CaseCommand::AttachEvidence { items: vec![] }, 201), Err(CaseRejection::NoEvidence));
    let history = [opened(), attached(5)];
    let history = [history.to_vec(), vec![checked(&history), attached(6)]].concat();
    let state = CaseState::replay(&history);
    assert_eq!(state.case.as_ref().unwrap().check, None, "new evidence voids the check");
    assert_eq!(state.case.unwrap().evidence.len(), 2);
}

#[test]
fn automatic_check_records_every_rule_and_whether_it_supports_the_request() {
    let history = [opened(), attached(6)];
    let CaseEvent::AutomaticCheckCompleted { check, .. } = checked(&history) else { panic!() };
    assert!(check.supports_request);
    assert_eq!(check.association, "cwa");
    assert_eq!(check.rules_digest, rules().digest);
    assert_eq!(check.evaluation.outcomes.len(), rules().rules.len());
    assert_eq!(check.evaluation.proposal.unwrap().rules, vec!["qualify-5d"]);

    let history = [opened(), attached(5)];
    let CaseEvent::AutomaticCheckCompleted { check, .. } = checked(&history) else { panic!() };
    assert!(!check.supports_request, "5 wins of 7: qualify-5d needs 6");
    assert_eq!(check.evaluation.outcome("qualify-5d").unwrap().verdict.to_string(), "not met: 5 wins of 7, 6 needed");
}

#[test]
fn check_needs_evidence_and_the_right_ladder() {
    assert_eq!(
        when(&[opened()], CaseCommand::RunAutomaticCheck { rules: rules() }, 203),
        Err(CaseRejection::NoEvidence)
    );
    let pro = Box::new(load_rules(include_str!("../rules/professional-example.toml")).unwrap());
    assert_eq!(
        when(&[opened(), attached(6)], CaseCommand::RunAutomaticCheck { rules: pro }, 203),
        Err(CaseRejection::WrongLadder { rules: "professional".into(), case: "amateur".into() })
    );
}

#[test]
fn the_player_cannot_review_their_own_case() {
    assert_eq!(
        when(&[opened()], CaseCommand::AssignReviewer { reviewer: ActorId::from("li-ming") }, 202),
        Err(CaseRejection::ReviewerIsParty(ActorId::from("li-ming")))
    );
    assert_eq!(when(&[opened()], CaseCommand::AssignReviewer { reviewer: reviewer() }, 202), Ok(vec![assigned()]));
}

#[test]
fn approval_needs_the_assigned_reviewer_and_a_supporting_check() {
    let base = [opened(), attached(6)];
    assert_eq!(when(&base, approve(None), 204), Err(CaseRejection::NoReviewer));
    let with_reviewer = [base.to_vec(), vec![assigned()]].concat();
    assert_eq!(when(&with_reviewer, approve(None), 204), Err(CaseRejection::CheckNotRun));
    let history = [with_reviewer.clone(), vec![checked(&with_reviewer)]].concat();
    assert_eq!(
        when(
            &history,
            CaseCommand::Approve { reviewer: ActorId::from("someone"), note: String::new(), override_reason: None },
            204
        ),
        Err(CaseRejection::NotTheReviewer { assigned: reviewer(), actor: ActorId::from("someone") })
    );
    assert_eq!(
        when(&history, approve(None), 204),
        Ok(vec![CaseEvent::Approved {
            reviewer: reviewer(),
            note: "results verified".into(),
            override_reason: None,
            confirmed_by: None,
            at: Millis(204 * DAY)
        }])
    );
}

#[test]
fn approving_against_the_check_needs_a_justification_and_a_second_reviewer() {
    // Given a check that does not support 5d,
    let base = [opened(), attached(5), assigned()];
    let history = [base.to_vec(), vec![checked(&base)]].concat();
    // when the reviewer approves without a reason, or with too short a one, then it is refused;
    assert_eq!(when(&history, approve(None), 204), Err(CaseRejection::CheckDoesNotSupport("5d".into())));
    assert_eq!(when(&history, approve(Some("  ")), 204), Err(CaseRejection::CheckDoesNotSupport("5d".into())));
    assert_eq!(
        when(&history, approve(Some("x")), 204),
        Err(CaseRejection::JustificationTooShort { min: MIN_JUSTIFICATION_CHARS, found: 1 })
    );
    // with a justification, the override is only proposed;
    let why = "one game forfeited by the organiser's error, replayed and won";
    let proposed = when(&history, approve(Some(why)), 204).unwrap();
    let waiting = [history.clone(), proposed].concat();
    let case = CaseState::replay(&waiting).case.unwrap();
    assert_eq!((case.status, case.decision.is_none()), (CaseStatus::AwaitingConfirmation, true));
    assert_eq!(case.certificate, None);
    // the proposer cannot confirm it, nor can the player or the applicant;
    let confirm = |who: &str| CaseCommand::Confirm { reviewer: ActorId::from(who) };
    assert_eq!(when(&waiting, confirm(&reviewer().0), 205), Err(CaseRejection::SameReviewer(reviewer())));
    assert_eq!(when(&waiting, confirm("li-ming"), 205), Err(CaseRejection::ReviewerIsParty(ActorId::from("li-ming"))));
    assert_eq!(when(&history, confirm("second"), 205), Err(CaseRejection::WrongStatus(CaseStatus::Open)));
    // a second reviewer confirms: approved, with both names in the basis.
    let confirmed = when(&waiting, confirm("second"), 205).unwrap();
    assert_eq!(
        confirmed,
        vec![CaseEvent::Approved {
            reviewer: reviewer(),
            note: "results verified".into(),
            override_reason: Some(why.into()),
            confirmed_by: Some(ActorId::from("second")),
            at: Millis(205 * DAY)
        }]
    );
    let case = CaseState::replay(&[waiting.clone(), confirmed].concat()).case.unwrap();
    assert_eq!(case.status, CaseStatus::Approved);
    assert!(case.basis().starts_with("approved by review: one game forfeited"), "{}", case.basis());
    assert!(case.basis().contains(&format!("proposed by {}, confirmed by second", reviewer())), "{}", case.basis());
    // Or the second reviewer declines it, which closes the case.
    let declined =
        when(&waiting, CaseCommand::Reject { reviewer: ActorId::from("second"), reasons: vec!["no".into()] }, 205)
            .unwrap();
    let case = CaseState::replay(&[waiting, declined].concat()).case.unwrap();
    assert_eq!(case.status, CaseStatus::Rejected);
}

#[test]
fn rejection_needs_a_reason_and_closes_the_case() {
    let history = [opened(), attached(5), assigned()];
    assert_eq!(
        when(&history, CaseCommand::Reject { reviewer: reviewer(), reasons: vec![" ".into()] }, 204),
        Err(CaseRejection::ReasonRequired)
    );
    let events = when(
        &history,
        CaseCommand::Reject { reviewer: reviewer(), reasons: vec!["5 wins of 7 is not enough for 5 dan".into()] },
        204,
    )
    .unwrap();
    let closed = [history.to_vec(), events].concat();
    assert_eq!(
        when(&closed, CaseCommand::AttachEvidence { items: vec![qualification(7)] }, 205),
        Err(CaseRejection::WrongStatus(CaseStatus::Rejected))
    );
}

#[test]
fn a_certificate_only_after_approval_and_only_one_that_matches_the_case() {
    let key = AssociationKey::from_seed("cwa", [3; 32]).unwrap();
    let base = [opened(), attached(6), assigned()];
    let mut history = [base.to_vec(), vec![checked(&base)]].concat();
    let case = CaseState::replay(&history).case.unwrap();
    let cert = key
        .sign_certificate(case.certificate_body(
            "CWA-2026-000123",
            &key.public(),
            "李明",
            "业余5段",
            "2026-07-20".parse().unwrap(),
        ))
        .unwrap();
    assert_eq!(
        when(&history, CaseCommand::IssueCertificate { certificate: cert.clone() }, 205),
        Err(CaseRejection::WrongStatus(CaseStatus::Open))
    );
    history.extend(when(&history, approve(None), 204).unwrap());
    let mut wrong =
        case.certificate_body("CWA-2026-000124", &key.public(), "李明", "业余6段", "2026-07-20".parse().unwrap());
    wrong.grade = "6d".into();
    let wrong = key.sign_certificate(wrong).unwrap();
    assert_eq!(
        when(&history, CaseCommand::IssueCertificate { certificate: wrong }, 205),
        Err(CaseRejection::CertificateMismatch { field: "grade", found: "6d".into(), expected: "5d".into() })
    );
    assert_eq!(
        when(&history, CaseCommand::IssueCertificate { certificate: cert.clone() }, 205),
        Ok(vec![CaseEvent::CertificateIssued { certificate: cert, at: Millis(205 * DAY) }])
    );
}

/// A player promotes from a tournament result; the case is approved and a certificate issued; it
/// verifies; a tampered copy does not; after revocation it no longer verifies.
#[test]
fn from_tournament_result_to_revoked_certificate() {
    let key = AssociationKey::from_seed("cwa", [11; 32]).unwrap();
    let mut log: Vec<CaseEvent> = Vec::new();
    let run = |command: CaseCommand, day: i64, log: &mut Vec<CaseEvent>| {
        let events = decide_case(&CaseState::replay(log.iter()), &command, Millis(day * DAY)).expect("accepted");
        // The log stores events as JSON; a restarted service reads them back.
        for e in events {
            let back: CaseEvent = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
            assert_eq!(back, e);
            log.push(back);
        }
    };
    run(open_command(), 200, &mut log);
    run(CaseCommand::AttachEvidence { items: vec![qualification(6)] }, 201, &mut log);
    run(CaseCommand::RunAutomaticCheck { rules: rules() }, 202, &mut log);
    run(CaseCommand::AssignReviewer { reviewer: reviewer() }, 202, &mut log);
    run(approve(None), 203, &mut log);
    let case = CaseState::replay(&log).case.unwrap();
    let date = CivilDate::from_millis(Millis(204 * DAY));
    let body = case.certificate_body("CWA-1970-000001", &key.public(), "李明 / Li Ming", "业余5段", date);
    assert_eq!(body.basis, "qualify-5d: 6 wins of 7 in group 5d of 2026 全国业余围棋定段赛 (dq-2026)");
    let certificate = key.sign_certificate(body).unwrap();
    run(CaseCommand::IssueCertificate { certificate: certificate.clone() }, 204, &mut log);

    let file = certificate.to_text();
    let public = key.public();
    assert!(verify(&weiqi_rating::parse_certificate(&file).unwrap(), &public, None).is_ok());
    let tampered = weiqi_rating::parse_certificate(&file.replace("grade: 5d", "grade: 6d")).unwrap();
    assert_eq!(verify(&tampered, &public, None), Err(VerifyError::BadSignature));

    run(
        CaseCommand::Revoke { by: ActorId::from("office"), reason: "results voided for cheating (Art. 23.1)".into() },
        300,
        &mut log,
    );
    let state = CaseState::replay(&log);
    assert_eq!(state.case.as_ref().unwrap().status, CaseStatus::Revoked);
    // The service builds the list from CertificateRevoked events.
    let entries = log
        .iter()
        .filter_map(|e| match e {
            CaseEvent::CertificateRevoked { serial, reason, at, .. } => {
                Some(Revocation { serial: serial.clone(), date: CivilDate::from_millis(*at), reason: reason.clone() })
            }
            _ => None,
        })
        .collect();
    let list = key
        .sign_revocations(RevocationList {
            association: "cwa".into(),
            key_id: key.key_id(),
            issued: CivilDate::from_millis(Millis(300 * DAY)),
            sequence: 1,
            issued_at: Some(Millis(300 * DAY)),
            next_update: Some(Millis(307 * DAY)),
            entries,
        })
        .unwrap();
    let err = verify(&certificate, &public, Some(&list)).unwrap_err();
    assert!(matches!(err, VerifyError::Revoked { ref serial, .. } if serial == "CWA-1970-000001"), "{err}");
    assert_eq!(
        decide_case(
            &state,
            &CaseCommand::Revoke { by: ActorId::from("office"), reason: "again".into() },
            Millis(301 * DAY)
        ),
        Err(CaseRejection::WrongStatus(CaseStatus::Revoked))
    );
}

/// Issue 15 item 12: grades from the rules' `two_reviewers_from` up always need two reviewers.
/// Here the level is lowered to 5 dan, so a 5-dan request the check supports waits for a second,
/// different reviewer; both names end up in the decision.
#[test]
fn grades_above_the_configured_level_always_need_two_reviewers() {
    let text =
        include_str!("../rules/cwa-amateur.toml").replace("two_reviewers_from = \"6d\"", "two_reviewers_from = \"5d\"");
    let strict = Box::new(load_rules(&text).unwrap());
    assert!(strict.needs_two_reviewers("5d") && strict.needs_two_reviewers("7d") && !strict.needs_two_reviewers("4d"));
    assert!(rules().needs_two_reviewers("6d") && !rules().needs_two_reviewers("5d"), "the shipped rules: 6 dan and up");
    let history = [opened(), attached(6), assigned()];
    let check = when(&history, CaseCommand::RunAutomaticCheck { rules: strict }, 203).unwrap().remove(0);
    let CaseEvent::AutomaticCheckCompleted { check: record, .. } = &check else { panic!() };
    assert!(record.supports_request && record.two_reviewers);
    let history = [history.to_vec(), vec![check]].concat();
    // The reviewer's approval is only a proposal; no justification is needed (the check supports it).
    let proposed = when(&history, approve(None), 204).unwrap();
    assert!(matches!(&proposed[0], CaseEvent::OverrideProposed { override_reason, .. } if override_reason.is_empty()));
    let history = [history, proposed].concat();
    assert_eq!(CaseState::replay(&history).case.unwrap().status, CaseStatus::AwaitingConfirmation);
    assert_eq!(
        when(&history, CaseCommand::Confirm { reviewer: reviewer() }, 205),
        Err(CaseRejection::SameReviewer(reviewer()))
    );
    let second = ActorId::from("reviewer-wang");
    let done = when(&history, CaseCommand::Confirm { reviewer: second.clone() }, 205).unwrap();
    let CaseEvent::Approved { reviewer: first, override_reason, confirmed_by, .. } = &done[0] else {
        panic!("{done:?}")
    };
    assert_eq!((first, override_reason, confirmed_by), (&reviewer(), &None, &Some(second)));
    // Under the shipped rules the same 5-dan approval is immediate.
    let history = [opened(), attached(6), assigned()];
    let history = [history.to_vec(), vec![checked(&history)]].concat();
    assert!(matches!(when(&history, approve(None), 204).unwrap()[0], CaseEvent::Approved { confirmed_by: None, .. }));
    // A level the ladder does not have is refused when the rules load.
    let bad =
        include_str!("../rules/cwa-amateur.toml").replace("two_reviewers_from = \"6d\"", "two_reviewers_from = \"6x\"");
    let err = load_rules(&bad).unwrap_err().to_string();
    assert!(err.contains("6x"), "{err}");
}

fn game(outcome: weiqi_rating::GameOutcome) -> weiqi_rating::VerifiedGame {
    weiqi_rating::VerifiedGame {
        game: weiqi_rating::GameId::from("t-cup-r1-b1"),
        opponent: PlayerId::from("liu-yang"),
        opponent_grade: Some("1d".into()),
        outcome,
        at: Millis(150 * DAY),
        event: None,
    }
}

#[test]
fn given_an_open_case_when_a_game_of_its_evidence_is_corrected_then_the_case_shows_it_and_its_check_is_void() {
    use weiqi_rating::GameOutcome::{Loss, Win};
    let with_game =
        CaseEvent::EvidenceAttached { items: vec![qualification(6), Evidence::Game(game(Win))], at: Millis(201 * DAY) };
    let history = [opened(), with_game.clone()];
    let history = [history.to_vec(), vec![checked(&history)]].concat();
    let key = weiqi_rating::EvidenceKey::Game(weiqi_rating::GameId::from("t-cup-r1-b1"));
    let revise = |now: Option<weiqi_rating::VerifiedGame>| CaseCommand::ReviseEvidence {
        key: key.clone(),
        now: now.map(Evidence::Game),
    };
    // The game as it is: nothing to revise.
    assert_eq!(when(&history, revise(Some(game(Win))), 210), Ok(vec![]));
    // Another item under this key is refused.
    let wrong = CaseCommand::ReviseEvidence { key: key.clone(), now: Some(qualification(6)) };
    assert_eq!(when(&history, wrong, 210), Err(CaseRejection::RevisionMismatch));
    // Corrected to a loss: the case holds the loss, shows the change, and its check no longer stands.
    let events = when(&history, revise(Some(game(Loss))), 210).unwrap();
    assert_eq!(
        events,
        vec![CaseEvent::EvidenceRevised {
            before: Evidence::Game(game(Win)),
            after: Some(Evidence::Game(game(Loss))),
            at: Millis(210 * DAY)
        }]
    );
    let state = CaseState::replay(&[history.clone(), events].concat());
    let case = state.case.unwrap();
    assert_eq!(case.evidence[1], Evidence::Game(game(Loss)));
    assert_eq!(case.check, None, "the check must run again");
    assert_eq!((case.revisions.len(), case.flagged()), (1, false));
    // A game that no longer counts leaves the evidence.
    let events = when(&history, revise(None), 210).unwrap();
    let case = CaseState::replay(&[history, events].concat()).case.unwrap();
    assert_eq!(case.evidence, vec![qualification(6)]);
}

#[test]
fn given_an_issued_certificate_when_its_evidence_changes_then_the_decision_stands_and_the_office_is_told() {
    use weiqi_rating::GameOutcome::{Loss, Win};
    let with_game =
        CaseEvent::EvidenceAttached { items: vec![qualification(6), Evidence::Game(game(Win))], at: Millis(201 * DAY) };
    let history = [opened(), with_game, assigned()];
    let history = [history.to_vec(), vec![checked(&history)]].concat();
    let approved = when(&history, approve(None), 204).unwrap();
    let history = [history, approved].concat();
    assert_eq!(CaseState::replay(&history).case.unwrap().status, CaseStatus::Approved);
    let revise = CaseCommand::ReviseEvidence {
        key: weiqi_rating::EvidenceKey::Game(weiqi_rating::GameId::from("t-cup-r1-b1")),
        now: Some(Evidence::Game(game(Loss))),
    };
    let events = when(&history, revise, 220).unwrap();
    let given = [history, events].concat();
    let case = CaseState::replay(&given).case.unwrap();
    assert_eq!(case.status, CaseStatus::Approved, "the office decides what the change means");
    assert!(case.check.is_some(), "the decision's check is kept as the record of what was decided");
    assert!(case.flagged(), "an approved case whose evidence changed is flagged");
    assert_eq!(case.revisions[0].before, Evidence::Game(game(Win)));
    assert_eq!(case.revisions[0].after, Some(Evidence::Game(game(Loss))));
    // A reviewer (no party) looks at it and keeps the decision, with a note: no longer flagged.
    let acknowledge =
        |who: &str, note: &str| CaseCommand::AcknowledgeRevisions { reviewer: ActorId::from(who), note: note.into() };
    assert_eq!(
        when(&given, acknowledge("li-ming", "fine"), 221),
        Err(CaseRejection::ReviewerIsParty(ActorId::from("li-ming")))
    );
    assert_eq!(when(&given, acknowledge("reviewer-wang", " "), 221), Err(CaseRejection::ReasonRequired));
    let ok = when(&given, acknowledge("reviewer-wang", "the placing alone meets the rule"), 221).unwrap();
    let given = [given, ok].concat();
    assert!(!CaseState::replay(&given).case.unwrap().flagged());
    assert_eq!(when(&given, acknowledge("reviewer-wang", "again"), 222), Err(CaseRejection::NothingFlagged));
}

/// Results published again after a correction: a placing the case holds is revised like a game (5 wins
/// instead of 6 now: the open case's check no longer stands).
#[test]
fn a_placing_published_again_with_fewer_wins_revises_the_case() {
    let history = [opened(), attached(6)];
    let history = [history.to_vec(), vec![checked(&history)]].concat();
    let key = weiqi_rating::EvidenceKey::Placing(EventId::from("dq-2026"), Some("5d".into()));
    let events = when(&history, CaseCommand::ReviseEvidence { key, now: Some(qualification(5)) }, 230).unwrap();
    let case = CaseState::replay(&[history, events].concat()).case.unwrap();
    assert_eq!(case.evidence, vec![qualification(5)]);
    assert_eq!(case.check, None);
    assert_eq!(case.revisions[0].before, qualification(6));
}
