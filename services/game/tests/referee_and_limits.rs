//! Given events, when a command, then events: lateness (Art. 22), limits on what a setup may ask for,
//! who may act before what the game allows, and the property that whatever `decide` accepts folds.

use proptest::prelude::*;
use weiqi_clock::{DurationMs, LagConfig, Millis, TimeControl};
use weiqi_game::convert::{event_from_pb, event_to_pb};
use weiqi_game::domain::{
    Actor, ColorMethod, Command, EndReason, GameEvent, GameSetup, GameState, Outcome, Phase, PlayerId, PlayerRef,
    Rejection, VoidGround, decide,
};
use weiqi_rules::{Color, Komi, Move, Ruleset};

fn player(id: &str, rank: &str) -> PlayerRef {
    PlayerRef { id: PlayerId(id.into()), name: id.to_uppercase(), rank: rank.into() }
}

fn setup(control: TimeControl) -> GameSetup {
    GameSetup {
        ruleset: Ruleset::chinese(),
        size: 9,
        handicap: 0,
        handicap_points: Vec::new(),
        first: player("ann", "3d"),
        second: player("bob", "2d"),
        color_method: ColorMethod::Fixed,
        time_control: control.with_lag(LagConfig::NONE).unwrap(),
        tournament: None,
        event_id: Some("city-open".into()),
        scheduled_start: None,
        rated: true,
        start_immediately: false,
        lateness_limit: DurationMs::from_mins(15),
        absence_claim: None,
        offered_by: None,
        spectator_delay: None,
    }
}

/// Games here are an event's, created by its organiser (a player only offers casual games).
fn organiser() -> Actor {
    Actor::Organiser("org".into())
}

fn ann() -> Actor {
    Actor::Player(PlayerId("ann".into()))
}
fn bob() -> Actor {
    Actor::Player(PlayerId("bob".into()))
}
fn referee() -> Actor {
    Actor::Referee("ref-1".into())
}

/// A game built by running commands through the decider; every event decided is folded.
struct Game {
    state: GameState,
    t: i64,
}

impl Game {
    fn given(setup: GameSetup) -> Game {
        let mut g = Game { state: GameState::default(), t: 0 };
        g.ok(organiser(), Command::Create { setup: Box::new(setup), nigiri_secret: [9; 32] });
        g
    }

    fn when(&mut self, actor: Actor, command: Command) -> Result<Vec<GameEvent>, Rejection> {
        self.t += 1;
        let events = decide(&self.state, &actor, &command, Millis(1_700_000_000_000 + self.t * 1000))?;
        for e in &events {
            self.state.evolve(e).unwrap_or_else(|err| panic!("decided events always fold: {e:?}: {err}"));
        }
        Ok(events)
    }

    fn ok(&mut self, actor: Actor, command: Command) -> Vec<GameEvent> {
        let c = format!("{command:?}");
        self.when(actor, command).unwrap_or_else(|r| panic!("{c} refused: {r}"))
    }

    fn late(&mut self, color: Color, late: DurationMs) -> Vec<GameEvent> {
        self.ok(referee(), Command::ReportLateness { color, late })
    }
}

fn names(events: &[GameEvent]) -> Vec<&'static str> {
    events.iter().map(|e| e.type_name().trim_start_matches("weiqi.v1.")).collect()
}

fn result(events: &[GameEvent]) -> (Outcome, EndReason) {
    match events.last() {
        Some(GameEvent::Ended { result, .. }) => (result.outcome, result.reason),
        other => panic!("expected GameEnded, got {other:?}"),
    }
}

fn mins(m: i64) -> DurationMs {
    DurationMs::from_mins(m)
}
fn secs(s: i64) -> DurationMs {
    DurationMs::from_secs(s)
}

#[test]
fn a_deduction_that_exhausts_absolute_time_is_a_forfeit_not_an_unreadable_log() {
    // Absolute 8 min, White 5 min late, limit 15 min: 10 min off 8 min leaves White nothing.
    let mut g = Game::given(setup(TimeControl::absolute(mins(8)).unwrap()));
    let ev = g.late(Color::White, mins(5));
    assert_eq!(names(&ev), ["LateBeyondLimit"], "out of time by the penalty: beyond the limit");
    let ev = g.late(Color::Black, DurationMs::ZERO);
    assert_eq!(result(&ev), (Outcome::BlackWins, EndReason::Lateness));
    // The whole log replays.
    assert_eq!(g.state.phase, Phase::Ended);
}

#[test]
fn a_deduction_that_exhausts_absolute_time_ends_the_game_when_it_starts() {
    let mut g = Game::given(setup(TimeControl::absolute(mins(8)).unwrap()));
    g.late(Color::White, mins(5));
    let ev = g.ok(ann(), Command::Start);
    assert_eq!(result(&ev), (Outcome::BlackWins, EndReason::Lateness), "starting shows Black present");
}

#[test]
fn a_deduction_beyond_main_time_starts_the_byo_yomi() {
    // Japanese 8 min + 5 × 30 s: 10 min off 8 min leaves White in the first period.
    let mut g = Game::given(setup(TimeControl::japanese(mins(8), 5, secs(30)).unwrap()));
    let ev = g.late(Color::White, mins(5));
    assert!(matches!(ev[0], GameEvent::LatenessPenalised { byo_yomi_ran: false, .. }), "{ev:?}");
    g.ok(ann(), Command::Start);
    let bank = g.state.clock.as_ref().unwrap().bank(weiqi_clock::Side::White);
    assert_eq!((bank.main, bank.period), (DurationMs::ZERO, 1));
}

#[test]
fn art_22_4_the_absent_players_byo_yomi_runs_in_a_fast_game() {
    // No basic time, 30 s byo-yomi, one period: 45 s late is out of time before sitting down.
    let mut g = Game::given(setup(TimeControl::japanese(DurationMs::ZERO, 1, secs(30)).unwrap()));
    let ev = g.late(Color::Black, secs(45));
    assert_eq!(names(&ev), ["LateBeyondLimit"]);
    let ev = g.late(Color::White, DurationMs::ZERO);
    assert_eq!(result(&ev), (Outcome::WhiteWins, EndReason::Lateness));

    // Three periods: 45 s uses one and half of the next; 15 s are left for the first move.
    let mut g = Game::given(setup(TimeControl::japanese(DurationMs::ZERO, 3, secs(30)).unwrap()));
    let ev = g.late(Color::Black, secs(45));
    assert!(
        matches!(ev[0], GameEvent::LatenessPenalised { deducted, byo_yomi_ran: true, .. } if deducted == secs(45)),
        "{ev:?}"
    );
    g.ok(ann(), Command::Start);
    let clock = g.state.clock.as_ref().unwrap();
    let bank = clock.bank(weiqi_clock::Side::Black);
    assert_eq!((bank.period, bank.period_left), (2, secs(15)));
    assert_eq!(bank.periods_left(clock.control()), 2);
}

#[test]
fn art_22_3_both_late_beyond_the_limit_lose_both() {
    let mut g = Game::given(setup(TimeControl::absolute(mins(60)).unwrap()));
    let ev = g.late(Color::Black, mins(20));
    assert_eq!(names(&ev), ["LateBeyondLimit"], "not a win for White on the first report");
    let ev = g.late(Color::White, mins(25));
    assert_eq!(result(&ev), (Outcome::BothLose, EndReason::Lateness));
}

#[test]
fn art_22_3_both_late_within_the_limit_are_both_penalised() {
    let mut g = Game::given(setup(TimeControl::absolute(mins(60)).unwrap()));
    g.late(Color::Black, mins(5));
    g.late(Color::White, mins(10));
    g.ok(referee(), Command::Start);
    let clock = g.state.clock.as_ref().unwrap();
    assert_eq!(clock.bank(weiqi_clock::Side::Black).main, mins(50));
    assert_eq!(clock.bank(weiqi_clock::Side::White).main, mins(40));
}

#[test]
fn one_late_within_and_one_beyond_the_limit_the_later_loses() {
    let mut g = Game::given(setup(TimeControl::absolute(mins(60)).unwrap()));
    g.late(Color::White, mins(5));
    let ev = g.late(Color::Black, mins(16));
    assert_eq!(result(&ev), (Outcome::WhiteWins, EndReason::Lateness));
}

#[test]
fn lateness_reports_are_range_checked_and_made_once() {
    let mut g = Game::given(setup(TimeControl::absolute(mins(60)).unwrap()));
    let r = g.when(referee(), Command::ReportLateness { color: Color::Black, late: DurationMs(-1) });
    assert!(matches!(r, Err(Rejection::OutOfRange { field: "late_ms", .. })), "{r:?}");
    g.late(Color::Black, mins(1));
    let again = g.when(referee(), Command::ReportLateness { color: Color::Black, late: mins(2) });
    assert_eq!(again, Err(Rejection::LatenessAlreadyReported("Black")));
}

#[test]
fn a_stranger_is_denied_before_the_game_state_is_consulted() {
    let mut g = Game::given(setup(TimeControl::absolute(mins(60)).unwrap()));
    g.ok(ann(), Command::Start);
    let eve = Actor::Player(PlayerId("eve".into()));
    // The game is in play, so Start would be the wrong phase: a stranger must not learn that.
    assert_eq!(g.when(eve.clone(), Command::Start), Err(Rejection::NotAPlayer));
    assert_eq!(g.when(eve.clone(), Command::AcceptScore), Err(Rejection::NotAPlayer));
    assert_eq!(g.when(eve, Command::GuessNigiri { even: true }), Err(Rejection::NotAPlayer));
    // A player of the game gets the real reason.
    assert_eq!(g.when(bob(), Command::Start), Err(Rejection::WrongPhase(Phase::Playing)));
}

#[test]
fn komi_is_limited_to_the_boards_point_count_and_seated_stones_to_19x19() {
    let create = |s: GameSetup| {
        decide(
            &GameState::default(),
            &organiser(),
            &Command::Create { setup: Box::new(s), nigiri_secret: [0; 32] },
            Millis(0),
        )
    };
    for komi in [i32::MAX, i32::MIN, 163, -163] {
        let mut s = setup(TimeControl::no_clock());
        s.ruleset = s.ruleset.with_komi(Komi(komi));
        let r = create(s);
        assert!(
            matches!(&r, Err(Rejection::OutOfRange { field: "komi_half_points", allowed }) if allowed.contains("162")),
            "komi {komi}: {r:?}"
        );
    }
    let mut s = setup(TimeControl::no_clock());
    s.ruleset = s.ruleset.with_komi(Komi(162));
    assert!(create(s).is_ok(), "81 points either way is allowed on 9×9");
    let mut s = setup(TimeControl::no_clock());
    s.ruleset = Ruleset::ancient();
    assert!(matches!(create(s), Err(Rejection::InvalidSetup(why)) if why.contains("19×19")));
}

#[test]
fn colors_decided_by_nigiri_say_so() {
    let mut s = setup(TimeControl::no_clock());
    s.color_method = ColorMethod::Nigiri;
    let mut g = Game::given(s);
    let ev = g.ok(bob(), Command::GuessNigiri { even: false });
    assert!(ev.iter().any(|e| matches!(e, GameEvent::ColorsDecided { method: ColorMethod::Nigiri, .. })), "{ev:?}");
    let wire = weiqi_game::convert::event_to_pb(ev.iter().find(|e| e.type_name() == "weiqi.v1.ColorsDecided").unwrap());
    let Some(weiqi_proto::v1::game_event::Kind::ColorsDecided(c)) = wire.kind else { unreachable!() };
    assert_eq!(c.method, weiqi_proto::v1::colors_decided::Method::Nigiri as i32);
}

#[test]
fn while_adjourned_the_game_and_the_clock_name_the_same_side_to_act() {
    let mut s = setup(TimeControl::absolute(mins(60)).unwrap());
    s.start_immediately = true;
    let mut g = Game::given(s);
    g.ok(ann(), Command::Seal { mv: Move::from_gtp("E5", 9).unwrap(), lag: None });
    assert_eq!(g.state.phase, Phase::Adjourned);
    let clock_side = g.state.clock.as_ref().unwrap().to_move();
    assert_eq!(g.state.to_act(), Some(Color::White), "Black sealed: White moves on resumption");
    assert_eq!(clock_side, weiqi_clock::Side::White);
    let view = weiqi_game::convert::view("g", &g.state, Millis(0));
    assert_eq!(view.to_move, weiqi_proto::v1::Color::White as i32);
}

// ---- every command sequence that decide accepts folds ----

#[derive(Clone, Debug)]
enum Step {
    Play(u8, u8),
    Pass,
    Resign,
    Start,
    Late(bool, i64),
    Correct(bool, bool, i64),
    Pause,
    Resume,
    Seal(u8, u8),
    ResumeAdjourned,
    Warn(bool),
    Void,
    Swap,
    Expire,
    MarkDead(u8, u8),
    Accept,
    Dispute,
    Wait(i64),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (0..5u8, 0..5u8).prop_map(|(x, y)| Step::Play(x, y)),
        2 => Just(Step::Pass),
        1 => Just(Step::Resign),
        2 => Just(Step::Start),
        1 => (any::<bool>(), -1_000i64..3_600_000).prop_map(|(b, l)| Step::Late(b, l)),
        1 => (any::<bool>(), any::<bool>(), -1_000i64..600_000).prop_map(|(b, w, m)| Step::Correct(b, w, m)),
        1 => Just(Step::Pause),
        1 => Just(Step::Resume),
        1 => (0..5u8, 0..5u8).prop_map(|(x, y)| Step::Seal(x, y)),
        1 => Just(Step::ResumeAdjourned),
        1 => any::<bool>().prop_map(Step::Warn),
        1 => Just(Step::Void),
        1 => Just(Step::Swap),
        2 => Just(Step::Expire),
        1 => (0..5u8, 0..5u8).prop_map(|(x, y)| Step::MarkDead(x, y)),
        1 => Just(Step::Accept),
        1 => Just(Step::Dispute),
        2 => (0i64..400_000).prop_map(Step::Wait),
    ]
}

fn control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        Just(TimeControl::no_clock()),
        (1i64..600).prop_map(|s| TimeControl::absolute(secs(s)).unwrap()),
        (0i64..300, 1u32..4, 5i64..60).prop_map(|(m, p, s)| TimeControl::japanese(secs(m), p, secs(s)).unwrap()),
        (1i64..6, 1u32..3).prop_map(|(m, r)| TimeControl::chinese(mins(m + i64::from(r)), r).unwrap()),
        (0i64..300, 1u32..5, 5i64..120).prop_map(|(m, n, s)| TimeControl::canadian(secs(m), n, secs(s)).unwrap()),
        (1i64..300, 0i64..30).prop_map(|(m, i)| TimeControl::fischer(secs(m), secs(i), None).unwrap()),
    ]
}

fn command_of(g: &GameState, step: &Step) -> (Actor, Command) {
    let to_move = g.to_move().unwrap_or(Color::Black);
    let mover = if g.color_of(&PlayerId("ann".into())) == Some(to_move) { ann() } else { bob() };
    let point = |x: u8, y: u8| Move::Play(weiqi_rules::Point::new(x, y));
    let bank = |m: i64| weiqi_clock::Bank::with_main(&g.setup.as_ref().unwrap().time_control, DurationMs(m));
    match *step {
        Step::Play(x, y) => (mover, Command::Play { mv: point(x, y), expected_number: 0, lag: None }),
        Step::Pass => (mover, Command::Play { mv: Move::Pass, expected_number: 0, lag: None }),
        Step::Resign => (mover, Command::Resign),
        Step::Start if g.phase == Phase::Nigiri => (bob(), Command::GuessNigiri { even: true }),
        Step::Start => (mover, Command::Start),
        Step::Late(black, late) => (
            referee(),
            Command::ReportLateness { color: if black { Color::Black } else { Color::White }, late: DurationMs(late) },
        ),
        Step::Correct(b, w, m) => (
            Actor::ChiefReferee("chief".into()),
            Command::CorrectClock {
                black: b.then(|| bank(m)),
                white: w.then(|| bank(m)),
                reason: "clock fault".into(),
            },
        ),
        Step::Pause => (referee(), Command::Pause { reason: "noise".into() }),
        Step::Resume => (referee(), Command::Resume),
        Step::Seal(x, y) => (mover, Command::Seal { mv: point(x, y), lag: None }),
        Step::ResumeAdjourned => (referee(), Command::ResumeAdjourned),
        Step::Warn(black) => (
            referee(),
            Command::Warn { color: if black { Color::Black } else { Color::White }, reason: "phone".into() },
        ),
        Step::Void => {
            (referee(), Command::VoidLastMove { reason: "double move".into(), ground: VoidGround::Unspecified })
        }
        Step::Swap => (referee(), Command::SwapColors),
        Step::Expire => (Actor::System("clock".into()), Command::ExpireTime { seen: g.version }),
        Step::MarkDead(x, y) => (mover, Command::MarkDead { points: vec![weiqi_rules::Point::new(x, y)] }),
        Step::Accept => (mover, Command::AcceptScore),
        Step::Dispute => (mover, Command::DisputeScore),
        Step::Wait(_) => (mover, Command::Start),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Whatever `decide` accepts, the log folds: replayed from the start it gives the same state.
    #[test]
    fn every_command_sequence_that_decide_accepts_folds(
        control in control(),
        start in any::<bool>(),
        colors in 0..3u8,
        steps in proptest::collection::vec(step(), 1..60),
    ) {
        let mut s = setup(control);
        s.size = 5;
        s.start_immediately = start;
        match colors {
            1 => s.color_method = ColorMethod::Nigiri,
            2 => {
                s.size = 9;
                s.handicap = 2;
            }
            _ => {}
        }
        let mut state = GameState::default();
        let mut log = Vec::new();
        let mut now = 1_700_000_000_000i64;
        let create = Command::Create { setup: Box::new(s), nigiri_secret: [3; 32] };
        for e in decide(&state, &organiser(), &create, Millis(now)).unwrap() {
            state.evolve(&e).unwrap();
            log.push(e);
        }
        for step in &steps {
            now += if let Step::Wait(ms) = step { *ms } else { 700 };
            if matches!(step, Step::Wait(_)) {
                continue;
            }
            let (actor, command) = command_of(&state, step);
            if let Ok(events) = decide(&state, &actor, &command, Millis(now)) {
                for e in events {
                    prop_assert!(state.evolve(&e).is_ok(), "{e:?} does not fold after {step:?}");
                    // Every event decide emits survives the wire: domain → protobuf → bytes → domain.
                    let bytes = prost::Message::encode_to_vec(&event_to_pb(&e));
                    let wire: weiqi_proto::v1::GameEvent = prost::Message::decode(&bytes[..]).unwrap();
                    let back = event_from_pb(&wire);
                    prop_assert_eq!(back.as_ref(), Ok(&e));
                    log.push(e);
                }
            }
        }
        let replayed = GameState::replay(&log);
        prop_assert!(replayed.is_ok(), "the log does not replay: {:?}", replayed.err());
        let replayed = replayed.unwrap();
        prop_assert_eq!(replayed.phase, state.phase);
        prop_assert_eq!(replayed.version, state.version);
        prop_assert_eq!(replayed.clock, state.clock);
    }
}
