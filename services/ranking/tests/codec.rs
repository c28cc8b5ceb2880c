//! Ledger entries and case events as typed protobuf: every variant round-trips domain → protobuf →
//! bytes → protobuf → domain unchanged (every `f64` bit for bit), through the envelope as the service
//! stores it too; the JSON bodies earlier versions wrote still read back (and still replay in the
//! service); a stored message with an unknown enum value or a missing field is refused, naming it.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use prost::Message;
use weiqi_eventlog::{
    AggregateId, AggregateKind, AnyEventLog, CommandId, EmbeddedConfig, EmbeddedLog, EventLog, Headers, NewEvent,
    Position, RecordedEvent,
};
use weiqi_proto::v1 as pb;
use weiqi_ranking::codec::{
    self, CASE_TYPE, CodecError, LEDGER_TYPE, Meta, case_event, ledger_event, read_case, read_ledger, read_player,
};
use weiqi_ranking::domain::{ActorKind, LedgerEntry};
use weiqi_ranking::registry::Profile;
use weiqi_ranking::tournaments::NoTournaments;
use weiqi_ranking::{Environment, RankingConfig, RankingService};
use weiqi_rating::{
    ActorId, Applicant, AssociationKey, AssociationRules, Basis, CaseCommand, CaseEvent, CaseId, CaseState,
    CertificateBody, CheckRecord, EgfSettings, Evaluation, EventId, EventLevel, EventRef, Evidence, GameConditions,
    GameId, GameOutcome, Ineligible, Millis, PlayerId, PlayerRating, Proposal, RatedGame, RatedResult, RatingBook,
    RatingCommand, RatingEvent, RatingInput, RatingSample, RatingSystem, RatingUpdate, RuleOutcome, Shortfall,
    SignedCertificate, TournamentPlacing, Verdict, VerifiedGame, decide, decide_case, synthetic_history,
};

const DAY: i64 = 86_400_000;
/// 2026-03-02T00:00:00Z.
const START_MS: i64 = 1_772_409_600_000;

/// The service's clock, standing still.
struct FixedClock;

impl Environment for FixedClock {
    fn now(&self) -> Millis {
        Millis(START_MS)
    }
    fn random(&self) -> [u8; 32] {
        [0; 32]
    }
}

/// Values whose last bit a lossy encoding would change.
const AWKWARD: [f64; 8] =
    [1_500.000_000_000_001, 0.1 + 0.2, f64::MIN_POSITIVE, -0.0, 5e-324, f64::MAX, -1_234.567_890_123_456_7, 1.0 / 3.0];

// ---- support ----

fn meta() -> Meta {
    Meta { causation: "c".into(), actor: ActorKind::System, actor_id: "ranking".into(), at: Millis(42) }
}

fn recorded(kind: AggregateKind, e: NewEvent) -> RecordedEvent {
    RecordedEvent {
        kind,
        aggregate_id: AggregateId::new("x").unwrap(),
        sequence: 1,
        position: Position::START,
        timestamp_ms: 0,
        command_id: CommandId::new("c").unwrap(),
        event_type: e.event_type,
        payload: e.payload,
        headers: Headers::new(),
    }
}

/// What the previous version wrote: the rating core's serde JSON in a `VersionedJson` body (its
/// `json_body`, schema and version 1).
fn legacy_event<T: serde::Serialize>(schema: &str, value: &T) -> NewEvent {
    let env = pb::RankingEnvelope {
        event_id: "00000000-0000-4000-8000-000000000000".into(),
        server_time_ms: 42,
        causation_id: "c".into(),
        actor: Some(pb::Actor { kind: pb::actor::Kind::System as i32, id: "ranking".into() }),
        body: Some(pb::ranking_envelope::Body::Json(pb::VersionedJson {
            schema: schema.to_owned(),
            version: 1,
            json: serde_json::to_vec(value).unwrap(),
        })),
    };
    NewEvent::new(schema, env.encode_to_vec())
}

/// A typed body as the service stores it, to tamper with.
fn stored(kind: AggregateKind, body: pb::ranking_envelope::Body, event_type: &str) -> RecordedEvent {
    let env = pb::RankingEnvelope { body: Some(body), ..Default::default() };
    recorded(kind, NewEvent::new(event_type, env.encode_to_vec()))
}

/// `Debug` prints the shortest text that reads back to the same bits (and tells -0.0 from 0.0), so
/// equal texts mean equal bits in every `f64`.
fn same_bits<T: std::fmt::Debug>(a: &T, b: &T) {
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

fn ledger_round_trip(entry: &LedgerEntry) {
    let bytes = codec::ledger_entry_to_pb(entry).encode_to_vec();
    let message = pb::RatingLedgerEntry::decode(bytes.as_slice()).unwrap();
    let back = codec::ledger_entry_from_pb(message).unwrap();
    assert_eq!(&back, entry);
    same_bits(&back, entry);
    // Through the envelope and the log's record, as the service writes and reads it.
    let event = ledger_event(entry, &meta());
    assert_eq!(event.event_type, LEDGER_TYPE);
    let env = pb::RankingEnvelope::decode(event.payload.clone()).unwrap();
    assert!(matches!(env.body, Some(pb::ranking_envelope::Body::LedgerEntry(_))), "written typed, not as JSON");
    let r = recorded(AggregateKind::Player, event);
    let back = read_ledger(&r).unwrap();
    same_bits(&back, entry);
    assert_eq!(read_player(&r).unwrap(), None, "ledger entries are not player events");
}

fn case_round_trip(event: &CaseEvent) {
    let bytes = codec::case_event_to_pb(event).encode_to_vec();
    let message = pb::CertificationCaseEvent::decode(bytes.as_slice()).unwrap();
    let back = codec::case_event_from_pb(message).unwrap();
    assert_eq!(&back, event);
    same_bits(&back, event);
    let new_event = case_event(event, &meta());
    assert_eq!(new_event.event_type, CASE_TYPE);
    let env = pb::RankingEnvelope::decode(new_event.payload.clone()).unwrap();
    assert!(matches!(env.body, Some(pb::ranking_envelope::Body::CaseEvent(_))), "written typed, not as JSON");
    let back = read_case(&recorded(AggregateKind::Case, new_event)).unwrap();
    same_bits(&back, event);
}

// ---- rating-ledger values ----

fn rating(r: f64, period: Option<i64>) -> PlayerRating {
    PlayerRating { rating: r, deviation: 0.1 + 0.2, volatility: f64::MIN_POSITIVE, games: 7, period }
}

fn update(player: &str, before: f64, after: f64) -> RatingUpdate {
    RatingUpdate {
        player: PlayerId::from(player),
        before: rating(before, Some(-3)),
        after: PlayerRating { games: u32::MAX, period: None, ..rating(after, None) },
    }
}

fn game(id: &str, result: RatedResult, tournament: Option<&str>) -> RatedGame {
    RatedGame {
        id: GameId::from(id),
        black: PlayerId::from("li"),
        white: PlayerId::from("wang"),
        result,
        conditions: GameConditions { stones: u8::MAX, komi: -0.0, standard_komi: 0.1 + 0.2, compensation: 5e-324 },
        ended_at: Millis(-1),
        tournament: tournament.map(Into::into),
    }
}

fn every_rating_event() -> Vec<RatingEvent> {
    let mut events = vec![
        RatingEvent::PlayerSeeded { player: PlayerId::from("li"), rating: rating(1_500.000_000_000_001, Some(0)) },
        RatingEvent::GameRated {
            game: game("g1", RatedResult::BlackWins, None),
            black: update("li", 1_500.000_000_000_001, 1516.0 + f64::EPSILON * 1024.0),
            white: update("wang", 0.1 + 0.2, -0.0),
        },
        RatingEvent::GameQueued { game: game("g2", RatedResult::WhiteWins, Some("")), period: i64::MIN },
        RatingEvent::TournamentGameQueued { game: game("g3", RatedResult::Jigo, Some("cup-2026")) },
        RatingEvent::TournamentRated {
            tournament: "cup-2026".into(),
            updates: vec![update("li", 2100.0, 2_112.345_678_901_234), update("wang", f64::MIN_POSITIVE, 5e-324)],
        },
        RatingEvent::TournamentRated { tournament: "empty-cup".into(), updates: vec![] },
        RatingEvent::PeriodClosed { period: i64::MAX, updates: vec![update("zhao", 1e-300, 1e300)] },
        RatingEvent::GameCorrected {
            game: GameId::from("g1"),
            rated: Some(game("g1", RatedResult::WhiteWins, Some("cup"))),
            updates: vec![update("li", 1516.0, 1_499.999_999_999_999), update("wang", -0.0, 0.1 + 0.2)],
            open_period: Some(i64::MIN),
        },
        RatingEvent::GameCorrected { game: GameId::from("g2"), rated: None, updates: vec![], open_period: None },
    ];
    // Every awkward value in every f64 of a rating.
    for x in AWKWARD {
        events.push(RatingEvent::PlayerSeeded {
            player: PlayerId::from("awkward"),
            rating: PlayerRating { rating: x, deviation: x, volatility: x, games: 0, period: None },
        });
    }
    events
}

fn every_command() -> Vec<RatingCommand> {
    vec![
        RatingCommand::Seed { player: PlayerId::from("li"), rating: 1_500.000_000_000_001, deviation: Some(0.1 + 0.2) },
        RatingCommand::Seed { player: PlayerId::from("wang"), rating: f64::MIN_POSITIVE, deviation: None },
        RatingCommand::RecordGame(game("g1", RatedResult::BlackWins, None)),
        RatingCommand::RecordGame(game("g2", RatedResult::WhiteWins, Some("cup"))),
        RatingCommand::RecordGame(game("g3", RatedResult::Jigo, Some(""))),
        RatingCommand::ClosePeriods,
        RatingCommand::CloseTournament { tournament: "cup".into() },
        RatingCommand::CloseTournament { tournament: String::new() },
        RatingCommand::CorrectGame { game: GameId::from("g1"), rated: Some(game("g1", RatedResult::Jigo, None)) },
        RatingCommand::CorrectGame { game: GameId::from("g2"), rated: None },
    ]
}

// ---- certification-case values ----

fn event_ref(level: EventLevel) -> EventRef {
    EventRef {
        id: EventId::from("dq-2026"),
        name: "2026 全国业余围棋定段赛".into(),
        kind: "dan-qualification".into(),
        level,
    }
}

/// Evidence of every kind, every outcome and every event level, with and without the optional parts.
fn every_evidence() -> Vec<Evidence> {
    let mut items = vec![
        Evidence::Game(VerifiedGame {
            game: GameId::from("g1"),
            opponent: PlayerId::from("wang"),
            opponent_grade: Some("5d".into()),
            outcome: GameOutcome::Win,
            at: Millis(100 * DAY),
            event: Some(event_ref(EventLevel::National)),
        }),
        Evidence::Game(VerifiedGame {
            game: GameId::from("g2"),
            opponent: PlayerId::from("zhao"),
            opponent_grade: None,
            outcome: GameOutcome::Draw,
            at: Millis(101 * DAY),
            event: None,
        }),
        Evidence::Game(VerifiedGame {
            game: GameId::from("g3"),
            opponent: PlayerId::from("sun"),
            opponent_grade: Some(String::new()),
            outcome: GameOutcome::Loss,
            at: Millis(-DAY),
            event: None,
        }),
        Evidence::Placing(TournamentPlacing {
            event: event_ref(EventLevel::Provincial),
            group: Some("5d".into()),
            place: 3,
            rounds: 7,
            wins: 6,
            field: 48,
            field_by_grade: BTreeMap::from([("5d".to_owned(), 60), ("4d".to_owned(), 0), ("业余6段".to_owned(), 2)]),
            at: Millis(102 * DAY),
        }),
        Evidence::Placing(TournamentPlacing {
            event: event_ref(EventLevel::Club),
            group: None,
            place: u32::MAX,
            rounds: 0,
            wins: 0,
            field: 1,
            field_by_grade: BTreeMap::new(),
            at: Millis(103 * DAY),
        }),
    ];
    for x in AWKWARD {
        items.push(Evidence::Rating(RatingSample {
            system: "glicko2".into(),
            rating: x,
            deviation: x,
            games: 12,
            at: Millis(104 * DAY),
        }));
    }
    for (_, level) in EventLevel::ALL {
        items.push(Evidence::Game(VerifiedGame {
            game: GameId::from("g-level"),
            opponent: PlayerId::from("wu"),
            opponent_grade: None,
            outcome: GameOutcome::Win,
            at: Millis(105 * DAY),
            event: Some(event_ref(level)),
        }));
    }
    items
}

fn outcome(rule: &str, verdict: Verdict) -> RuleOutcome {
    RuleOutcome { rule: rule.into(), kind: "qualification".into(), to: "5d".into(), verdict, evidence: vec![0, 2] }
}

/// Every verdict, basis, shortfall and ineligibility, written by hand.
fn every_verdict() -> Vec<RuleOutcome> {
    let e = || event_ref(EventLevel::National);
    let met = [
        Basis::WinsInGroup { event: e(), group: Some("5d".into()), wins: 6, rounds: 7 },
        Basis::WinsInGroup { event: e(), group: None, wins: 6, rounds: 7 },
        Basis::Placed { event: e(), place: 2, max_place: 3 },
        Basis::Won { event: e() },
        Basis::WithinQuota { event: e(), place: 3, slots: 3, eligible: 60, percent: 0.1 + 0.2 },
        Basis::RatingReached {
            system: "egf".into(),
            rating: 2_400.000_000_000_001,
            threshold: f64::MIN_POSITIVE,
            games: 20,
            at: Millis(9),
        },
        Basis::PointsReached { points: 41, needed: 40, from_games: -3, from_places: 44, games: 12 },
    ];
    let unmet = [
        Shortfall::NoMatchingResult { wanted: "group 5d (7 rounds) of events of kind dan-qualification".into() },
        Shortfall::TooFewWins { wins: 5, needed: 6, rounds: 7 },
        Shortfall::PlaceTooLow { place: 9, max_place: 3 },
        Shortfall::NotWon { place: 2 },
        Shortfall::OutsideQuota { place: 4, slots: 3, eligible: 60 },
        Shortfall::NoRating { system: "glicko2".into() },
        Shortfall::RatingTooLow { rating: 1_500.000_000_000_001, threshold: 0.1 + 0.2 },
        Shortfall::TooFewRatedGames { games: 3, needed: 20 },
        Shortfall::DeviationTooHigh { deviation: f64::MIN_POSITIVE, max: 5e-324 },
        Shortfall::TooFewPoints { points: -7, needed: i32::MAX },
    ];
    let not_eligible = [
        Ineligible::AlreadyAtOrAbove { current: "6d".into() },
        Ineligible::NotFromGrade { current: "unranked".into(), allowed: vec!["3d".into(), "4d".into()] },
        Ineligible::NotFromGrade { current: "1k".into(), allowed: vec![] },
    ];
    met.into_iter()
        .map(|b| outcome("met", Verdict::Met(b)))
        .chain(unmet.into_iter().map(|s| outcome("unmet", Verdict::Unmet(s))))
        .chain(not_eligible.into_iter().map(|i| outcome("not-eligible", Verdict::NotEligible(i))))
        .collect()
}

fn amateur_rules() -> Box<AssociationRules> {
    let rules = weiqi_ranking::shipped_rules().into_iter().find(|r| r.ladder.id == "amateur").unwrap();
    Box::new(rules)
}

fn opened(current: Option<&str>, applicant: Applicant) -> CaseEvent {
    CaseEvent::Opened {
        case: CaseId::from("case-42"),
        player: PlayerId::from("li-ming"),
        opened_by: ActorId::from("org-shanghai"),
        applicant,
        ladder: "amateur".into(),
        current: current.map(Into::into),
        since: Millis(10 * DAY),
        requested: "5d".into(),
        at: Millis(200 * DAY),
    }
}

fn qualification(wins: u32) -> Evidence {
    Evidence::Placing(TournamentPlacing {
        event: event_ref(EventLevel::National),
        group: Some("5d".into()),
        place: 3,
        rounds: 7,
        wins,
        field: 48,
        field_by_grade: BTreeMap::new(),
        at: Millis(100 * DAY),
    })
}

/// The automatic check as the rating core runs it on the shipped amateur rules: one supporting
/// check (6 wins of 7) and one that does not (5 of 7); both have passing and failing lines.
fn real_check(wins: u32) -> CaseEvent {
    let history = [
        opened(Some("4d"), Applicant::Player),
        CaseEvent::EvidenceAttached { items: vec![qualification(wins)], at: Millis(201 * DAY) },
    ];
    let state = CaseState::replay(&history);
    let mut events =
        decide_case(&state, &CaseCommand::RunAutomaticCheck { rules: amateur_rules() }, Millis(203 * DAY)).unwrap();
    events.remove(0)
}

fn certificate(key: &AssociationKey) -> SignedCertificate {
    key.sign_certificate(CertificateBody {
        serial: "CWA-2026-000123".into(),
        association: key.association().into(),
        key_id: key.key_id(),
        player: PlayerId::from("li-ming"),
        player_name: "李明 / Li Ming".into(),
        ladder: "amateur".into(),
        grade: "5d".into(),
        grade_name: "业余5段".into(),
        date: "2026-11-30".parse().unwrap(),
        case: CaseId::from("case-42"),
        basis: "qualify-5d: 6 wins of 7 in group 5d of 2026 全国业余围棋定段赛 (dq-2026)".into(),
    })
    .unwrap()
}

fn every_case_event() -> Vec<CaseEvent> {
    let key = AssociationKey::from_seed("cwa", [7; 32]).unwrap();
    vec![
        opened(Some("4d"), Applicant::Player),
        opened(None, Applicant::Organiser),
        opened(Some(""), Applicant::Player),
        CaseEvent::EvidenceAttached { items: every_evidence(), at: Millis(201 * DAY) },
        CaseEvent::EvidenceAttached { items: vec![], at: Millis(201 * DAY) },
        CaseEvent::EvidenceRevised {
            before: every_evidence()[0].clone(),
            after: Some(every_evidence()[1].clone()),
            at: Millis(206 * DAY),
        },
        CaseEvent::RevisionsAcknowledged {
            reviewer: ActorId::from("reviewer-wang"),
            note: "the 1k certificate stands on the placing".into(),
            at: Millis(207 * DAY),
        },
        CaseEvent::EvidenceRevised {
            before: every_evidence().iter().find(|e| matches!(e, Evidence::Placing(_))).unwrap().clone(),
            after: None,
            at: Millis(i64::MAX),
        },
        real_check(6),
        real_check(5),
        CaseEvent::AutomaticCheckCompleted {
            check: CheckRecord {
                association: "cwa".into(),
                rules_digest: "ab".repeat(32),
                evaluation: Evaluation {
                    player: PlayerId::from("li-ming"),
                    current: "4d".into(),
                    outcomes: every_verdict(),
                    proposal: Some(Proposal { to: "5d".into(), rules: vec!["met".into(), "also-met".into()] }),
                },
                supports_request: true,
                two_reviewers: true,
                rule_set: "cwa-amateur.toml".into(),
            },
            at: Millis(203 * DAY),
        },
        CaseEvent::AutomaticCheckCompleted {
            check: CheckRecord {
                association: "cwa".into(),
                rules_digest: String::new(),
                evaluation: Evaluation {
                    player: PlayerId::from("li-ming"),
                    current: "unranked".into(),
                    outcomes: vec![],
                    proposal: None,
                },
                supports_request: false,
                two_reviewers: false,
                rule_set: String::new(),
            },
            at: Millis(203 * DAY),
        },
        CaseEvent::ReviewerAssigned { reviewer: ActorId::from("reviewer-zhang"), at: Millis(202 * DAY) },
        CaseEvent::Approved {
            reviewer: ActorId::from("reviewer-zhang"),
            note: "results verified".into(),
            override_reason: None,
            confirmed_by: None,
            at: Millis(204 * DAY),
        },
        CaseEvent::OverrideProposed {
            reviewer: ActorId::from("reviewer-zhang"),
            note: String::new(),
            override_reason: "honorary grade by board decision".into(),
            at: Millis(204 * DAY),
        },
        CaseEvent::Approved {
            reviewer: ActorId::from("reviewer-zhang"),
            note: String::new(),
            override_reason: Some("honorary grade by board decision".into()),
            confirmed_by: Some(ActorId::from("reviewer-wang")),
            at: Millis(205 * DAY),
        },
        CaseEvent::Rejected {
            reviewer: ActorId::from("reviewer-zhang"),
            reasons: vec!["5 wins of 7 is not enough for 5 dan".into(), "第二条理由".into()],
            at: Millis(204 * DAY),
        },
        CaseEvent::CertificateIssued { certificate: certificate(&key), at: Millis(205 * DAY) },
        CaseEvent::CertificateRevoked {
            serial: "CWA-2026-000123".into(),
            by: ActorId::from("reviewer-zhang"),
            reason: "results voided for cheating (Art. 23.1)".into(),
            at: Millis(206 * DAY),
        },
    ]
}

// ---- round trips ----

#[test]
fn every_rating_event_round_trips_bit_for_bit() {
    let input = RatingInput { at: Millis(7), command: RatingCommand::ClosePeriods };
    for event in every_rating_event() {
        ledger_round_trip(&LedgerEntry {
            input: input.clone(),
            events: vec![event],
            game_position: None,
            provisional: Vec::new(),
        });
    }
    ledger_round_trip(&LedgerEntry {
        input,
        events: every_rating_event(),
        game_position: Some(u64::MAX),
        provisional: Vec::new(),
    });
}

#[test]
fn every_awkward_double_keeps_its_bits() {
    for x in AWKWARD {
        let entry = LedgerEntry {
            input: RatingInput {
                at: Millis(0),
                command: RatingCommand::Seed { player: PlayerId::from("li"), rating: x, deviation: Some(x) },
            },
            events: vec![RatingEvent::PlayerSeeded { player: PlayerId::from("li"), rating: rating(x, None) }],
            game_position: None,
            provisional: Vec::new(),
        };
        let bytes = codec::ledger_entry_to_pb(&entry).encode_to_vec();
        let back = codec::ledger_entry_from_pb(pb::RatingLedgerEntry::decode(bytes.as_slice()).unwrap()).unwrap();
        let RatingCommand::Seed { rating: r, deviation: d, .. } = back.input.command else { panic!("not a seed") };
        let RatingEvent::PlayerSeeded { rating: p, .. } = &back.events[0] else { panic!("not a seed") };
        for y in [r, d.unwrap(), p.rating] {
            assert_eq!(y.to_bits(), x.to_bits(), "{x:?} came back as {y:?}");
        }
    }
}

#[test]
fn every_ledger_input_command_round_trips() {
    for (n, command) in every_command().into_iter().enumerate() {
        let at = Millis([i64::MIN, -1, 0, 1, i64::MAX][n % 5]);
        let game_position = [None, Some(0), Some(7)][n % 3];
        ledger_round_trip(&LedgerEntry {
            input: RatingInput { at, command },
            events: vec![],
            game_position,
            provisional: Vec::new(),
        });
    }
}

fn variant(e: &RatingEvent) -> &'static str {
    match e {
        RatingEvent::PlayerSeeded { .. } => "PlayerSeeded",
        RatingEvent::GameRated { .. } => "GameRated",
        RatingEvent::GameQueued { .. } => "GameQueued",
        RatingEvent::TournamentGameQueued { .. } => "TournamentGameQueued",
        RatingEvent::TournamentRated { .. } => "TournamentRated",
        RatingEvent::PeriodClosed { .. } => "PeriodClosed",
        RatingEvent::GameCorrected { .. } => "GameCorrected",
    }
}

#[test]
fn ledger_entries_of_real_books_round_trip_under_every_system() {
    let systems = [
        (RatingSystem::default(), &["GameQueued", "PeriodClosed"][..]),
        (RatingSystem::Egf(EgfSettings::default()), &["GameRated", "TournamentGameQueued", "TournamentRated"]),
        (RatingSystem::Egf(EgfSettings { rate_by_tournament: false, ..EgfSettings::default() }), &["GameRated"]),
        (RatingSystem::Elo(Default::default()), &["GameRated"]),
    ];
    for (system, expected) in systems {
        let mut book = RatingBook::new(system.clone());
        let mut games = synthetic_history(120, 8, 11);
        // Some tournament games, so that EGF queues them and rates the tournament as a whole.
        for g in games.iter_mut().step_by(3) {
            g.tournament = Some("cup".into());
        }
        let end = Millis(games.last().map_or(0, |g| g.ended_at.0) + 7 * DAY);
        let inputs = games.into_iter().map(RatingInput::game).chain([
            RatingInput { at: end, command: RatingCommand::CloseTournament { tournament: "cup".into() } },
            RatingInput { at: end, command: RatingCommand::ClosePeriods },
        ]);
        let mut kinds = std::collections::BTreeSet::new();
        for (n, input) in inputs.enumerate() {
            let events = decide(&book, &input.command, input.at).unwrap();
            for e in &events {
                book.evolve(e);
                kinds.insert(variant(e));
            }
            ledger_round_trip(&LedgerEntry { input, events, game_position: Some(n as u64), provisional: Vec::new() });
        }
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), expected, "{}", system.name());
    }
}

#[test]
fn every_case_event_round_trips_bit_for_bit() {
    for event in every_case_event() {
        case_round_trip(&event);
    }
}

#[test]
fn the_real_checks_have_passing_and_failing_lines() {
    for (wins, supports) in [(6, true), (5, false)] {
        let CaseEvent::AutomaticCheckCompleted { check, .. } = real_check(wins) else { panic!("not a check") };
        assert_eq!(check.supports_request, supports);
        let met = check.evaluation.outcomes.iter().filter(|o| matches!(o.verdict, Verdict::Met(_))).count();
        let unmet = check.evaluation.outcomes.iter().filter(|o| !matches!(o.verdict, Verdict::Met(_))).count();
        assert!(unmet > 0, "{wins} wins: some rules fail");
        assert_eq!(met > 0, supports, "{wins} wins");
    }
}

#[test]
fn a_whole_case_replays_the_same_from_typed_messages() {
    let key = AssociationKey::from_seed("cwa", [7; 32]).unwrap();
    let history = vec![
        opened(Some("4d"), Applicant::Player),
        CaseEvent::EvidenceAttached { items: vec![qualification(6)], at: Millis(201 * DAY) },
        CaseEvent::ReviewerAssigned { reviewer: ActorId::from("reviewer-zhang"), at: Millis(202 * DAY) },
        real_check(6),
        CaseEvent::Approved {
            reviewer: ActorId::from("reviewer-zhang"),
            note: "results verified".into(),
            override_reason: None,
            confirmed_by: None,
            at: Millis(204 * DAY),
        },
        CaseEvent::CertificateIssued { certificate: certificate(&key), at: Millis(205 * DAY) },
        CaseEvent::CertificateRevoked {
            serial: "CWA-2026-000123".into(),
            by: ActorId::from("reviewer-zhang"),
            reason: "results voided".into(),
            at: Millis(206 * DAY),
        },
    ];
    let back: Vec<CaseEvent> =
        history.iter().map(|e| read_case(&recorded(AggregateKind::Case, case_event(e, &meta()))).unwrap()).collect();
    assert_eq!(CaseState::replay(&back), CaseState::replay(&history));
    let case = CaseState::replay(&back).case.unwrap();
    let cert = case.certificate.unwrap();
    assert_eq!(cert.to_text(), certificate(&key).to_text(), "the certificate file is byte for byte the same");
    assert!(weiqi_rating::verify(&cert, &key.public(), None).is_ok(), "and its signature still verifies");
}

// ---- the upgrade path ----

#[test]
fn ledger_entries_written_as_json_by_the_previous_version_still_read() {
    let input = RatingInput { at: Millis(7), command: RatingCommand::ClosePeriods };
    let mut entries: Vec<LedgerEntry> = every_command()
        .into_iter()
        .map(|command| LedgerEntry {
            input: RatingInput { at: Millis(5), command },
            events: vec![],
            game_position: None,
            provisional: Vec::new(),
        })
        .collect();
    entries.push(LedgerEntry { input, events: every_rating_event(), game_position: Some(9), provisional: Vec::new() });
    for entry in entries {
        let r = recorded(AggregateKind::Player, legacy_event(LEDGER_TYPE, &entry));
        let back = read_ledger(&r).unwrap();
        assert_eq!(back, entry);
        same_bits(&back, &entry);
        assert_eq!(read_player(&r).unwrap(), None);
    }
}

#[test]
fn case_events_written_as_json_by_the_previous_version_still_read() {
    for event in every_case_event() {
        let back = read_case(&recorded(AggregateKind::Case, legacy_event(CASE_TYPE, &event))).unwrap();
        assert_eq!(back, event);
        same_bits(&back, &event);
    }
}

#[test]
fn json_of_another_schema_or_version_is_still_refused() {
    let entry = LedgerEntry {
        input: RatingInput { at: Millis(0), command: RatingCommand::ClosePeriods },
        events: vec![],
        game_position: None,
        provisional: Vec::new(),
    };
    let mut event = legacy_event(LEDGER_TYPE, &entry);
    let mut env = pb::RankingEnvelope::decode(event.payload.clone()).unwrap();
    if let Some(pb::ranking_envelope::Body::Json(j)) = env.body.as_mut() {
        j.version = 2;
    }
    event.payload = env.encode_to_vec().into();
    let e = read_ledger(&recorded(AggregateKind::Player, event)).unwrap_err();
    assert!(e.reason.contains("expected weiqi.rating.LedgerEntry v1, found weiqi.rating.LedgerEntry v2"), "{e}");
    let e = read_case(&recorded(AggregateKind::Case, legacy_event(LEDGER_TYPE, &entry))).unwrap_err();
    assert!(e.reason.contains("expected weiqi.rating.CaseEvent v1"), "{e}");
    // And a typed body of the other kind.
    let e = read_case(&recorded(AggregateKind::Case, ledger_event(&entry, &meta()))).unwrap_err();
    assert!(e.reason.contains("expected weiqi.rating.CaseEvent"), "{e}");
    let e = read_ledger(&recorded(AggregateKind::Player, case_event(&every_case_event()[0], &meta()))).unwrap_err();
    assert!(e.reason.contains("expected weiqi.rating.LedgerEntry"), "{e}");
}

#[tokio::test]
async fn a_ledger_written_as_json_by_the_previous_version_replays_in_the_service() {
    let dir = tempfile::tempdir().unwrap();
    let log: AnyEventLog = EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default()).unwrap().into();
    let service = |system: RatingSystem| {
        let mut config =
            RankingConfig::new(AssociationKey::from_seed("cwa", [5; 32]).unwrap(), weiqi_ranking::shipped_rules());
        config.system = system;
        config.tick = Duration::from_secs(3_600);
        RankingService::with_environment(log.clone(), Arc::new(NoTournaments), config, Arc::new(FixedClock))
    };
    let system = RatingSystem::Egf(EgfSettings::default());
    let s = service(system.clone());
    for (id, request) in [("ann", "r1"), ("bob", "r2")] {
        let profile = Profile {
            id: PlayerId::from(id),
            name_zh: format!("{id}棋手"),
            name_latin: id.to_uppercase(),
            ..Profile::default()
        };
        s.register_player(profile, None, "org", request).await.unwrap();
    }
    let before = s.ledger_sequence().await.unwrap();
    let game = RatedGame {
        id: GameId::from("g-1"),
        black: PlayerId::from("ann"),
        white: PlayerId::from("bob"),
        result: RatedResult::BlackWins,
        conditions: GameConditions::even(),
        ended_at: Millis(START_MS),
        tournament: None,
    };
    let input = RatingInput { at: Millis(START_MS), command: RatingCommand::RecordGame(game) };
    let events = decide(&RatingBook::new(system.clone()), &input.command, input.at).unwrap();
    let RatingEvent::GameRated { black, .. } = &events[0] else { panic!("EGF rates a game outside tournaments") };
    let expected = black.after.rating;
    let entry = LedgerEntry { input, events: events.clone(), game_position: None, provisional: Vec::new() };
    log.append(
        AggregateKind::Player,
        &AggregateId::new("_ledger-egf").unwrap(),
        before,
        &CommandId::new("legacy-1").unwrap(),
        &[legacy_event(LEDGER_TYPE, &entry)],
    )
    .await
    .unwrap();
    let restarted = service(system);
    let book = restarted.book().await.unwrap();
    assert_eq!(book.stored(&PlayerId::from("ann")).unwrap().rating.to_bits(), expected.to_bits());
    let ann = restarted.player(&PlayerId::from("ann")).await.unwrap().unwrap();
    assert_eq!(ann.state.rating.expect("fanned out at start").rating.to_bits(), expected.to_bits());
}

// ---- refusals ----

#[test]
fn an_unknown_enum_value_in_a_stored_ledger_entry_is_refused_naming_the_field() {
    let entry = LedgerEntry {
        input: RatingInput::game(game("g1", RatedResult::BlackWins, None)),
        events: vec![],
        game_position: None,
        provisional: Vec::new(),
    };
    for value in [0, 4, 99, -1] {
        let mut m = codec::ledger_entry_to_pb(&entry);
        if let Some(pb::rating_ledger_command::Kind::RecordGame(g)) =
            m.input.as_mut().and_then(|i| i.command.as_mut()).and_then(|c| c.kind.as_mut())
        {
            g.result = value;
        }
        let bytes = m.encode_to_vec();
        let err = codec::ledger_entry_from_pb(pb::RatingLedgerEntry::decode(bytes.as_slice()).unwrap()).unwrap_err();
        assert_eq!(err, CodecError::UnknownEnum { field: "LedgerRatedGame.result", value });
        assert_eq!(err.field(), "LedgerRatedGame.result");
        let r = stored(AggregateKind::Player, pb::ranking_envelope::Body::LedgerEntry(m), LEDGER_TYPE);
        let e = read_ledger(&r).unwrap_err();
        assert!(e.reason.contains("LedgerRatedGame.result") && e.reason.contains(&value.to_string()), "{e}");
    }
}

#[test]
fn an_unknown_enum_value_in_a_stored_case_event_is_refused_naming_the_field() {
    let body = |m: pb::CertificationCaseEvent| {
        stored(AggregateKind::Case, pb::ranking_envelope::Body::CaseEvent(m), CASE_TYPE)
    };
    use pb::certification_case_event::Kind;

    let mut m = codec::case_event_to_pb(&opened(None, Applicant::Organiser));
    if let Some(Kind::Opened(o)) = m.kind.as_mut() {
        o.applicant = 3;
    }
    let err = codec::case_event_from_pb(m.clone()).unwrap_err();
    assert_eq!(err, CodecError::UnknownEnum { field: "CertificationCaseEvent.Opened.applicant", value: 3 });
    assert!(read_case(&body(m)).unwrap_err().reason.contains("CertificationCaseEvent.Opened.applicant"));

    let evidence = CaseEvent::EvidenceAttached { items: every_evidence(), at: Millis(1) };
    let mut m = codec::case_event_to_pb(&evidence);
    if let Some(Kind::EvidenceAttached(a)) = m.kind.as_mut()
        && let Some(pb::evidence_item::Kind::Game(g)) = a.items[0].kind.as_mut()
    {
        g.outcome = 0;
    }
    let err = codec::case_event_from_pb(m.clone()).unwrap_err();
    assert_eq!(err, CodecError::UnknownEnum { field: "EvidenceGame.outcome", value: 0 }, "UNSPECIFIED is refused too");
    assert!(read_case(&body(m)).unwrap_err().reason.contains("EvidenceGame.outcome"));

    let mut m = codec::case_event_to_pb(&evidence);
    if let Some(Kind::EvidenceAttached(a)) = m.kind.as_mut()
        && let Some(pb::evidence_item::Kind::Placing(p)) = a.items[3].kind.as_mut()
    {
        p.event.as_mut().unwrap().level = 8;
    }
    let err = codec::case_event_from_pb(m).unwrap_err();
    assert_eq!(err, CodecError::UnknownEnum { field: "EvidenceEventRef.level", value: 8 });
}

#[test]
fn a_stored_message_missing_a_field_is_refused_naming_it() {
    let no_input = pb::RatingLedgerEntry { input: None, events: vec![], game_position: None, provisional: Vec::new() };
    assert_eq!(codec::ledger_entry_from_pb(no_input), Err(CodecError::Missing { field: "RatingLedgerEntry.input" }));
    let empty_event = pb::RatingLedgerEntry {
        input: Some(pb::RatingLedgerInput {
            at_ms: 0,
            command: Some(pb::RatingLedgerCommand {
                kind: Some(pb::rating_ledger_command::Kind::ClosePeriods(Default::default())),
            }),
        }),
        events: vec![pb::RatingLedgerEvent { kind: None }],
        game_position: None,
        provisional: Vec::new(),
    };
    let err = codec::ledger_entry_from_pb(empty_event.clone()).unwrap_err();
    assert_eq!(err, CodecError::Missing { field: "RatingLedgerEvent.kind" });
    let r = stored(AggregateKind::Player, pb::ranking_envelope::Body::LedgerEntry(empty_event), LEDGER_TYPE);
    assert!(read_ledger(&r).unwrap_err().reason.contains("RatingLedgerEvent.kind is missing"));

    let seeded = LedgerEntry {
        input: RatingInput { at: Millis(0), command: RatingCommand::ClosePeriods },
        events: vec![RatingEvent::PlayerSeeded { player: PlayerId::from("li"), rating: rating(-0.0, None) }],
        game_position: None,
        provisional: Vec::new(),
    };
    let mut m = codec::ledger_entry_to_pb(&seeded);
    if let Some(pb::rating_ledger_event::Kind::PlayerSeeded(s)) = m.events[0].kind.as_mut() {
        s.rating.as_mut().unwrap().rating = None;
    }
    assert_eq!(codec::ledger_entry_from_pb(m), Err(CodecError::Missing { field: "LedgerPlayerRating.rating" }));

    let mut m = codec::ledger_entry_to_pb(&LedgerEntry {
        input: RatingInput::game(game("g1", RatedResult::Jigo, None)),
        events: vec![],
        game_position: None,
        provisional: Vec::new(),
    });
    if let Some(pb::rating_ledger_command::Kind::RecordGame(g)) =
        m.input.as_mut().and_then(|i| i.command.as_mut()).and_then(|c| c.kind.as_mut())
    {
        g.conditions.as_mut().unwrap().stones = 256;
    }
    assert_eq!(
        codec::ledger_entry_from_pb(m),
        Err(CodecError::OutOfRange { field: "RatedGameConditions.stones", value: 256 })
    );

    let mut m = codec::case_event_to_pb(&CaseEvent::AutomaticCheckCompleted {
        check: match real_check(6) {
            CaseEvent::AutomaticCheckCompleted { check, .. } => check,
            other => panic!("{other:?}"),
        },
        at: Millis(1),
    });
    if let Some(pb::certification_case_event::Kind::AutomaticCheckCompleted(c)) = m.kind.as_mut() {
        c.check.as_mut().unwrap().evaluation.as_mut().unwrap().outcomes[0].verdict = None;
    }
    assert_eq!(codec::case_event_from_pb(m), Err(CodecError::Missing { field: "CaseRuleOutcome.verdict" }));
    assert_eq!(
        codec::case_event_from_pb(pb::CertificationCaseEvent { kind: None }),
        Err(CodecError::Missing { field: "CertificationCaseEvent.kind" })
    );
}

#[test]
fn a_stored_certificate_that_does_not_read_back_is_refused() {
    let key = AssociationKey::from_seed("cwa", [7; 32]).unwrap();
    let issued = CaseEvent::CertificateIssued { certificate: certificate(&key), at: Millis(1) };
    let tamper = |f: &dyn Fn(&mut pb::RankCertificate)| {
        let mut m = codec::case_event_to_pb(&issued);
        if let Some(pb::certification_case_event::Kind::CertificateIssued(c)) = m.kind.as_mut() {
            f(c.certificate.as_mut().unwrap());
        }
        codec::case_event_from_pb(m).unwrap_err()
    };
    assert_eq!(tamper(&|c| c.signature = "not base64!".into()).field(), "RankCertificate.signature");
    assert_eq!(tamper(&|c| c.signature = "AAAA".into()).field(), "RankCertificate.signature", "not 64 bytes");
    assert_eq!(tamper(&|c| c.body.as_mut().unwrap().date = "2026-02-30".into()).field(), "RankCertificateBody.date");
    assert_eq!(tamper(&|c| c.body.as_mut().unwrap().basis = "two\nlines".into()).field(), "RankCertificate.body");
    assert_eq!(tamper(&|c| c.body = None), CodecError::Missing { field: "RankCertificate.body" });
}
