//! The service shell on the embedded log: retries append nothing new, crash points are repaired at
//! start (a ledger entry not fanned out to the players, an approved case without its certificate),
//! proposals from rating rules, and the registry's refusals.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{DAY_MS, TestClock};
use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, CommandId, EmbeddedConfig, EmbeddedLog, EventLog};
use weiqi_ranking::codec::{Meta, case_event, ledger_event};
use weiqi_ranking::domain::{ActorKind, LedgerEntry};
use weiqi_ranking::registry::Profile;
use weiqi_ranking::tournaments::NoTournaments;
use weiqi_ranking::{Application, RankingConfig, RankingService, Verdict};
use weiqi_rating::{
    ActorId, Applicant, AssociationKey, CaseEvent, CaseStatus, GameConditions, GameId, Millis, PlayerId, RatedGame,
    RatedResult, RatingBook, RatingCommand, RatingInput, RatingSystem, decide,
};

fn open(dir: &tempfile::TempDir) -> AnyEventLog {
    EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default()).unwrap().into()
}

fn service(log: &AnyEventLog, clock: &Arc<TestClock>, system: RatingSystem) -> RankingService {
    let mut config =
        RankingConfig::new(AssociationKey::from_seed("cwa", [5; 32]).unwrap(), weiqi_ranking::shipped_rules());
    config.system = system;
    config.tick = Duration::from_secs(3_600);
    RankingService::with_environment(log.clone(), Arc::new(NoTournaments), config, clock.clone())
}

fn profile(id: &str) -> Profile {
    Profile {
        id: PlayerId::from(id),
        name_zh: format!("{id}棋手"),
        name_latin: id.to_uppercase(),
        ..Profile::default()
    }
}

fn meta() -> Meta {
    Meta { causation: "test".into(), actor: ActorKind::System, actor_id: "test".into(), at: Millis(common::START_MS) }
}

#[tokio::test]
async fn registry_refusals_and_retries() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(&dir);
    let clock = TestClock::new();
    let s = service(&log, &clock, RatingSystem::default());
    let entry = s.register_player(profile("li"), Some("业余3段"), "org", "r1").await.unwrap();
    assert_eq!(entry.state.grades["amateur"].grade, "3d", "Chinese rank names are read");
    assert_eq!(s.register_player(profile("li"), Some("3d"), "org", "r1").await.unwrap(), entry, "a retry");
    let again = s.register_player(profile("li"), Some("3d"), "org", "r2").await.unwrap_err();
    assert_eq!(again.code(), Some("already_registered"));
    for (id, rank, code) in
        [("_x", None, "bad_player_id"), ("a.b", None, "bad_player_id"), ("wu", Some("30k"), "unknown_rank")]
    {
        let e = s.register_player(profile(id), rank, "org", "r").await.unwrap_err();
        assert_eq!(e.code(), Some(code), "{id}");
    }
    let mut moved = profile("li");
    moved.region = "beijing".into();
    let updated = s.update_player(moved, "org", "u1").await.unwrap();
    assert_eq!(updated.profile.region, "beijing");
    assert_eq!(s.update_player(profile("nobody"), "org", "u2").await.unwrap_err().code(), Some("not_registered"));
    // A declared 3d is seeded with the mapping's nominal rating (2100 + 2 × 100).
    let report = s.rating(&PlayerId::from("li")).await.unwrap();
    assert_eq!(report.view.unwrap().rating, 2300.0);
    assert_eq!(report.grade_for_rating.as_deref(), Some("3d"));
    assert!(s.tournament_snapshot("li").await.unwrap().is_some_and(|t| t.rank == "3d" && t.rating == Some(2300)));
    assert_eq!(s.tournament_snapshot("nobody").await.unwrap(), None);
}

#[tokio::test]
async fn a_ledger_entry_not_fanned_out_is_recorded_in_the_players_logs_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(&dir);
    let clock = TestClock::new();
    let system = RatingSystem::Egf(Default::default());
    let s = service(&log, &clock, system.clone());
    s.register_player(profile("ann"), None, "org", "r1").await.unwrap();
    s.register_player(profile("bob"), None, "org", "r2").await.unwrap();
    let before = s.ledger_sequence().await.unwrap();
    // The service appended a ledger entry and crashed before writing the players' logs.
    let game = RatedGame {
        id: GameId::from("g-1"),
        black: PlayerId::from("ann"),
        white: PlayerId::from("bob"),
        result: RatedResult::BlackWins,
        conditions: GameConditions::even(),
        ended_at: Millis(common::START_MS),
        tournament: None,
    };
    let input = RatingInput { at: Millis(common::START_MS), command: RatingCommand::RecordGame(game) };
    let events = decide(&RatingBook::new(system.clone()), &input.command, input.at).unwrap();
    let entry = LedgerEntry { input, events, game_position: None, provisional: Vec::new() };
    let ledger = AggregateId::new("_ledger-egf").unwrap();
    log.append(
        AggregateKind::Player,
        &ledger,
        before,
        &CommandId::new("crash-1").unwrap(),
        &[ledger_event(&entry, &meta())],
    )
    .await
    .unwrap();
    let restarted = service(&log, &clock, system);
    let ann = restarted.player(&PlayerId::from("ann")).await.unwrap().unwrap();
    let point = ann.state.rating.expect("the rating reached ann's log at start");
    assert_eq!(point.ledger_sequence, before + 1);
    assert_eq!(
        point.rating.to_bits(),
        restarted.book().await.unwrap().stored(&PlayerId::from("ann")).unwrap().rating.to_bits()
    );
    // Starting again writes nothing more.
    let len = log.last_sequence(AggregateKind::Player, &AggregateId::new("ann").unwrap()).await.unwrap();
    let third = service(&log, &clock, RatingSystem::Egf(Default::default()));
    third.player(&PlayerId::from("ann")).await.unwrap();
    assert_eq!(log.last_sequence(AggregateKind::Player, &AggregateId::new("ann").unwrap()).await.unwrap(), len);
}

#[tokio::test]
async fn an_approved_case_without_certificate_is_issued_at_start_and_retries_are_harmless() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(&dir);
    let clock = TestClock::new();
    let s = service(&log, &clock, RatingSystem::default());
    s.register_player(profile("li"), Some("1k"), "org", "r1").await.unwrap();
    let app = Application {
        request_id: "apply-1".into(),
        player: PlayerId::from("li"),
        ladder: String::new(),
        requested: "1d".into(),
        games: vec![],
        tournaments: vec![],
        include_rating: true,
    };
    let opened = s.apply(app.clone(), &ActorId::from("li"), Applicant::Player).await.unwrap();
    let again = s.apply(app, &ActorId::from("li"), Applicant::Player).await.unwrap();
    assert_eq!(opened, again, "a retried application opens nothing new");
    let case = opened.case.id.clone();
    let check = opened.case.check.as_ref().unwrap();
    assert!(!check.supports_request, "a 2000 rating with no games proves nothing");
    assert_eq!(
        s.assign_reviewer(&case, &ActorId::from("li"), "li", "a0").await.unwrap_err().code(),
        Some("reviewer_is_party")
    );
    s.assign_reviewer(&case, &ActorId::from("rev"), "rev", "a1").await.unwrap();
    let no_reason = s
        .decide(&case, &ActorId::from("rev"), Verdict::Approve { note: String::new(), override_reason: None }, "d0")
        .await
        .unwrap_err();
    assert_eq!(no_reason.code(), Some("check_does_not_support"));

    // The reviewers' approval (an override, confirmed by a second reviewer) landed; the service
    // crashed before issuing.
    let id = AggregateId::new(&case.0).unwrap();
    let seq = log.last_sequence(AggregateKind::Case, &id).await.unwrap();
    let approved = CaseEvent::Approved {
        reviewer: ActorId::from("rev"),
        note: String::new(),
        override_reason: Some("honorary grade by board decision".into()),
        confirmed_by: Some(ActorId::from("second")),
        at: Millis(clock.ms()),
    };
    log.append(
        AggregateKind::Case,
        &id,
        seq,
        &CommandId::new("crash-approve").unwrap(),
        &[case_event(&approved, &meta())],
    )
    .await
    .unwrap();
    clock.advance(DAY_MS);
    let restarted = service(&log, &clock, RatingSystem::default());
    let record = restarted.case(&case).await.unwrap();
    assert_eq!(record.case.status, CaseStatus::Issued);
    let certificate = record.case.certificate.clone().unwrap();
    assert!(certificate.body.basis.contains("approved by review: honorary grade"), "{}", certificate.body.basis);
    let li = restarted.player(&PlayerId::from("li")).await.unwrap().unwrap();
    assert_eq!(li.state.grades["amateur"].grade, "1d");
    assert_eq!(li.state.rank_history.len(), 2);

    // A decision retried after the fact, and a revocation retried: nothing new.
    let len = log.last_sequence(AggregateKind::Case, &id).await.unwrap();
    let revoked = restarted.revoke(&case, &ActorId::from("rev"), "error in the record", "x1").await.unwrap();
    let revoked_again = restarted.revoke(&case, &ActorId::from("rev"), "error in the record", "x1").await.unwrap();
    assert_eq!(revoked, revoked_again);
    assert_eq!(log.last_sequence(AggregateKind::Case, &id).await.unwrap(), len + 1);
    let li = restarted.player(&PlayerId::from("li")).await.unwrap().unwrap();
    assert_eq!(li.state.grades["amateur"].grade, "1k");
    let list = restarted.revocation_list().await.unwrap();
    assert_eq!(list.list.entries.len(), 1);
    assert_eq!(list.list.entries[0].serial, certificate.body.serial);
    let check = restarted.verify_certificate(&certificate.to_text()).await.unwrap();
    assert!(matches!(check, Err(weiqi_rating::VerifyError::Revoked { .. })), "{check:?}");
}

#[tokio::test]
async fn a_settled_rating_meeting_a_rule_opens_a_proposal() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(&dir);
    let clock = TestClock::new();
    let games = weiqi_game::service::GameService::with_environment(log.clone(), clock.clone());
    let s = Arc::new(service(&log, &clock, RatingSystem::default()));
    for id in ["newbie", "o1", "o2", "o3", "o4"] {
        s.register_player(profile(id), None, "org", &format!("r-{id}")).await.unwrap();
    }
    // Thirty rated games in one week, the newcomer winning most: no proposal while the period is open.
    for n in 0..30 {
        let opponent = ["o1", "o2", "o3", "o4"][n % 4];
        let id = format!("g-{n}");
        common::play(&games, &id, "newbie", opponent, n % 5 != 0, &common::Setup::default()).await;
        assert!(s.rate_game(&id, None).await.unwrap());
        clock.advance(common::HOUR_MS / 2);
    }
    assert!(s.review_queue(None).await.unwrap().is_empty());
    clock.advance(8 * DAY_MS);
    assert_eq!(s.close_periods().await.unwrap(), 5);
    let queue = s.review_queue(None).await.unwrap();
    let view = s.rating(&PlayerId::from("newbie")).await.unwrap();
    assert_eq!(queue.len(), 1, "{queue:?} {view:?}");
    let case = &queue[0].case;
    assert_eq!(
        (case.player.0.as_str(), case.requested.as_str(), case.standing.grade.as_deref()),
        ("newbie", "10k", None)
    );
    assert_eq!(case.opened_by.0, "ranking");
    assert!(case.check.as_ref().unwrap().supports_request);
    let newbie = s.player(&PlayerId::from("newbie")).await.unwrap().unwrap();
    assert!(newbie.state.proposals.contains(&case.id));
    // Considering again opens nothing new while the case is open.
    assert!(s.consider_promotion(&PlayerId::from("newbie")).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_request_id_reused_for_another_command_is_refused_and_a_retry_answered() {
    let dir = tempfile::tempdir().unwrap();
    let log = open(&dir);
    let clock = TestClock::new();
    let s = service(&log, &clock, RatingSystem::default());
    let first = s.register_player(profile("li"), Some("1k"), "org", "r1").await.unwrap();
    // Another profile under the same request id: refused, and nothing changes.
    let mut renamed = profile("li");
    renamed.name_latin = "LI MING".into();
    let reused = s.register_player(renamed.clone(), Some("1k"), "org", "r1").await.unwrap_err();
    assert_eq!(reused.code(), Some("request_id_reused"), "{reused}");
    // The same request from another organiser: refused too.
    let other = s.register_player(profile("li"), Some("1k"), "org-2", "r1").await.unwrap_err();
    assert_eq!(other.code(), Some("request_id_reused"), "{other}");
    assert_eq!(s.player(&PlayerId::from("li")).await.unwrap().unwrap(), first);
    // An update retried is answered; the same id for another update is refused.
    let updated = s.update_player(renamed.clone(), "org", "u1").await.unwrap();
    assert_eq!(s.update_player(renamed, "org", "u1").await.unwrap(), updated);
    let mut moved = profile("li");
    moved.region = "beijing".into();
    assert_eq!(s.update_player(moved, "org", "u1").await.unwrap_err().code(), Some("request_id_reused"));

    // On a case: assigning another reviewer under the same request id.
    let app = Application {
        request_id: "apply-1".into(),
        player: PlayerId::from("li"),
        ladder: String::new(),
        requested: "1d".into(),
        games: vec![],
        tournaments: vec![],
        include_rating: true,
    };
    let case = s.apply(app.clone(), &ActorId::from("li"), Applicant::Player).await.unwrap().case.id;
    // The same application asking for another grade under the same request id.
    let mut other_grade = app;
    other_grade.requested = "2d".into();
    let e = s.apply(other_grade, &ActorId::from("li"), Applicant::Player).await.unwrap_err();
    assert_eq!(e.code(), Some("request_id_reused"), "{e}");
    let assigned = s.assign_reviewer(&case, &ActorId::from("rev"), "rev", "a1").await.unwrap();
    assert_eq!(s.assign_reviewer(&case, &ActorId::from("rev"), "rev", "a1").await.unwrap(), assigned, "a retry");
    let e = s.assign_reviewer(&case, &ActorId::from("zhang"), "rev", "a1").await.unwrap_err();
    assert_eq!(e.code(), Some("request_id_reused"), "{e}");
    assert_eq!(s.case(&case).await.unwrap().case.reviewer, Some(ActorId::from("rev")));
}

/// A player entered in the registry another way than through the service (the command line writes
/// the player commands itself) starts from their declared grade when their first rated game is rated,
/// as registration through the service does (issue 33 item 1).
#[tokio::test]
async fn a_player_registered_outside_the_service_is_seeded_from_the_grade_at_the_first_rated_game() {
    use weiqi_ranking::domain::{Actor, PlayerCommand};
    use weiqi_ranking::registry::PlayerRegistry;
    let dir = tempfile::tempdir().unwrap();
    let log = open(&dir);
    let clock = TestClock::new();
    let games = weiqi_game::service::GameService::with_environment(log.clone(), clock.clone());
    let s = service(&log, &clock, RatingSystem::Elo(Default::default()));
    // As `weiqi account add --rank 3段` does.
    let registry = PlayerRegistry::new(log.clone(), clock.clone());
    let kim = PlayerId::from("kim");
    let staff = Actor::staff("cli");
    registry
        .execute(&kim, "register/kim/cli", &staff, &PlayerCommand::Register { profile: profile("kim") })
        .await
        .unwrap();
    let declare =
        PlayerCommand::DeclareRank { ladder: "amateur".into(), grade: "3d".into(), grade_name: "业余3段".into() };
    registry.execute(&kim, "declare/kim/cli", &staff, &declare).await.unwrap();
    s.register_player(profile("o1"), None, "org", "r-o1").await.unwrap();
    common::play(&games, "g-1", "kim", "o1", true, &common::Setup::default()).await;
    assert!(s.rate_game("g-1", None).await.unwrap());
    let view = s.rating(&kim).await.unwrap().view.unwrap();
    // The amateur mapping under Elo puts 3 dan at 2300; a win against an unrated opponent adds little.
    assert!(view.rating > 2250.0 && view.games == 1, "seeded from 3 dan, not from the floor: {view:?}");
}
