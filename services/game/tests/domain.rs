//! Given events, when a command, then events (or a rejection): the game decider, rule by rule.

use sha2::{Digest, Sha256};
use weiqi_clock::{DurationMs, LagConfig, Millis, TimeControl};
use weiqi_game::domain::{
    Actor, ColorMethod, Command, Corrupt, EndReason, GameEvent, GameSetup, GameState, Outcome, Phase, PlayerId,
    PlayerRef, Rejection, VoidGround, decide, nigiri_stones,
};
use weiqi_rules::{Color, Illegal, IllegalMovePolicy, Komi, Move, Point, Ruleset};

fn player(id: &str, rank: &str) -> PlayerRef {
    PlayerRef { id: PlayerId(id.into()), name: id.to_uppercase(), rank: rank.into() }
}

fn setup(size: u8, ruleset: Ruleset) -> GameSetup {
    GameSetup {
        ruleset,
        size,
        handicap: 0,
        handicap_points: Vec::new(),
        first: player("ann", "3d"),
        second: player("bob", "2d"),
        color_method: ColorMethod::Fixed,
        time_control: TimeControl::absolute(DurationMs::from_mins(10)).unwrap().with_lag(LagConfig::NONE).unwrap(),
        tournament: None,
        event_id: Some("city-open".into()),
        scheduled_start: None,
        rated: true,
        start_immediately: true,
        lateness_limit: DurationMs::from_mins(15),
        absence_claim: None,
        offered_by: None,
        spectator_delay: None,
    }
}

const ANN: fn() -> Actor = || Actor::Player(PlayerId("ann".into()));
const BOB: fn() -> Actor = || Actor::Player(PlayerId("bob".into()));
const REF: fn() -> Actor = || Actor::Referee("ref-1".into());
const ORG: fn() -> Actor = || Actor::Organiser("org-1".into());

fn secs(s: i64) -> Millis {
    Millis(1_700_000_000_000 + s * 1000)
}

/// A game in play, built by running commands through the decider (so `given` is always real events).
struct Game {
    state: GameState,
    log: Vec<GameEvent>,
    t: i64,
}

impl Game {
    fn given(setup: GameSetup) -> Game {
        let mut g = Game { state: GameState::default(), log: Vec::new(), t: 0 };
        // A tournament's game is the platform's to create; every other game here an organiser's.
        let creator = if setup.tournament.is_some() { Actor::System("tournament".into()) } else { ORG() };
        g.ok(creator, Command::Create { setup: Box::new(setup), nigiri_secret: [7; 32] });
        g
    }

    /// When: decide at the next second; the events are folded into the state.
    fn when(&mut self, actor: Actor, command: Command) -> Result<Vec<GameEvent>, Rejection> {
        self.t += 1;
        let events = decide(&self.state, &actor, &command, secs(self.t))?;
        for e in &events {
            self.state.evolve(e).expect("decided events always fold");
            self.log.push(e.clone());
        }
        Ok(events)
    }

    fn ok(&mut self, actor: Actor, command: Command) -> Vec<GameEvent> {
        let c = format!("{command:?}");
        self.when(actor, command).unwrap_or_else(|r| panic!("{c} refused: {r}"))
    }

    fn play(&mut self, actor: Actor, v: &str) -> Result<Vec<GameEvent>, Rejection> {
        let size = self.state.game.as_ref().unwrap().size();
        self.when(actor, Command::Play { mv: Move::from_gtp(v, size).unwrap(), expected_number: 0, lag: None })
    }

    fn moves(&mut self, list: &[&str]) {
        for v in list {
            let ann_to_move = self.state.color_of(&PlayerId("ann".into())) == self.state.to_move();
            let actor = if ann_to_move { ANN() } else { BOB() };
            self.play(actor, v).unwrap_or_else(|r| panic!("{v}: {r}"));
        }
    }
}

fn names(events: &[GameEvent]) -> Vec<&'static str> {
    events.iter().map(|e| e.type_name().trim_start_matches("weiqi.v1.")).collect()
}

fn ended(events: &[GameEvent]) -> (Outcome, EndReason) {
    match events.last() {
        Some(GameEvent::Ended { result, .. }) => (result.outcome, result.reason),
        other => panic!("expected GameEnded, got {other:?}"),
    }
}

#[test]
fn creating_with_fixed_colors_decides_them_and_starts() {
    let g = Game::given(setup(9, Ruleset::chinese()));
    assert_eq!(names(&g.log), ["GameCreated", "ColorsDecided", "GameStarted"]);
    assert_eq!(g.state.phase, Phase::Playing);
    assert_eq!(g.state.color_of(&PlayerId("ann".into())), Some(Color::Black));
}

#[test]
fn a_game_cannot_be_created_twice_or_with_one_player() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    let again =
        g.when(ORG(), Command::Create { setup: Box::new(setup(9, Ruleset::chinese())), nigiri_secret: [0; 32] });
    assert_eq!(again, Err(Rejection::AlreadyExists));
    let mut bad = setup(9, Ruleset::chinese());
    bad.second = bad.first.clone();
    let r = decide(
        &GameState::default(),
        &ORG(),
        &Command::Create { setup: Box::new(bad), nigiri_secret: [0; 32] },
        secs(0),
    );
    assert!(matches!(r, Err(Rejection::InvalidSetup(_))));
    let mut big = setup(26, Ruleset::chinese());
    big.size = 26;
    let r = decide(
        &GameState::default(),
        &ORG(),
        &Command::Create { setup: Box::new(big), nigiri_secret: [0; 32] },
        secs(0),
    );
    assert!(matches!(r, Err(Rejection::OutOfRange { field: "size", .. })), "{r:?}");
    assert_eq!(decide(&GameState::default(), &ANN(), &Command::Resign, secs(0)), Err(Rejection::NotFound));
}

/// Given: ann offers bob a casual game (asking it to start at once). When: ann starts it herself.
/// Then: refused; bob's start is the acceptance, and only then does a clock run.
#[test]
fn a_player_offers_a_casual_game_that_starts_only_when_the_other_accepts() {
    let mut casual = setup(9, Ruleset::chinese());
    casual.event_id = None;
    casual.rated = false;
    let mut g = Game { state: GameState::default(), log: Vec::new(), t: 0 };
    let created = g.ok(ANN(), Command::Create { setup: Box::new(casual.clone()), nigiri_secret: [0; 32] });
    let Some(GameEvent::Created(stored)) = created.first() else { panic!("{created:?}") };
    assert_eq!(stored.offered_by, Some(PlayerId("ann".into())));
    assert!(!stored.start_immediately, "an offer never starts on the offerer's word");
    assert!(!created.iter().any(|e| matches!(e, GameEvent::Started { .. })));
    assert_eq!(g.when(ANN(), Command::Start), Err(Rejection::OfferNotAccepted));
    assert_eq!(g.play(ANN(), "E5"), Err(Rejection::WrongPhase(Phase::Ready)));
    let accepted = g.ok(BOB(), Command::Start);
    assert!(
        matches!(accepted.as_slice(), [GameEvent::OfferAccepted { by }, GameEvent::Started { .. }] if by.0 == "bob"),
        "bob accepts: {accepted:?}"
    );

    // A player cannot seat two others, nor offer an event's game.
    let zed = Actor::Player(PlayerId("zed".into()));
    let create = |who: &Actor, s: &GameSetup| {
        decide(
            &GameState::default(),
            who,
            &Command::Create { setup: Box::new(s.clone()), nigiri_secret: [0; 32] },
            secs(0),
        )
    };
    assert_eq!(create(&zed, &casual), Err(Rejection::NotAPlayer));
    let event_game = setup(19, Ruleset::chinese());
    assert!(matches!(create(&ANN(), &event_game), Err(Rejection::InvalidSetup(_))), "an event's game");

    // A rated casual offer: on 19×19 with a clock, and only then.
    //
    //   size   clock      rated offer
    //   19     absolute   accepted (waits for bob)
    //    9     absolute   refused
    //   19     none       refused
    let mut rated = casual.clone();
    rated.rated = true;
    rated.size = 19;
    let offered = create(&ANN(), &rated).expect("a rated 19×19 offer with a clock");
    assert!(matches!(offered.first(), Some(GameEvent::Created(s)) if s.rated && !s.start_immediately), "{offered:?}");
    let mut small = rated.clone();
    small.size = 9;
    assert!(matches!(create(&ANN(), &small), Err(Rejection::InvalidSetup(_))), "9×9 is not rated");
    let mut untimed = rated;
    untimed.time_control = TimeControl::no_clock();
    assert!(matches!(create(&ANN(), &untimed), Err(Rejection::InvalidSetup(_))), "no clock is not rated");
}

/// A game naming a tournament is created only by the platform (the tournament's process manager).
#[test]
fn only_the_platform_creates_a_tournament_game() {
    let mut table = setup(9, Ruleset::chinese());
    table.tournament = Some(weiqi_game::domain::TournamentRef { id: "T1".into(), round: 1, board: 1 });
    for who in [ORG(), REF(), ANN()] {
        let r = decide(
            &GameState::default(),
            &who,
            &Command::Create { setup: Box::new(table.clone()), nigiri_secret: [0; 32] },
            secs(0),
        );
        assert_eq!(r, Err(Rejection::ReservedGameId), "{who:?}");
    }
    let platform = Actor::System("tournament".into());
    assert!(
        decide(
            &GameState::default(),
            &platform,
            &Command::Create { setup: Box::new(table), nigiri_secret: [0; 32] },
            secs(0)
        )
        .is_ok()
    );
}

#[test]
fn nigiri_is_committed_guessed_and_verifiable() {
    let mut s = setup(9, Ruleset::chinese());
    s.color_method = ColorMethod::Nigiri;
    let g = Game::given(s);
    assert_eq!(names(&g.log), ["GameCreated", "NigiriCommitted"]);
    let GameEvent::NigiriCommitted { holder, commitment, .. } = g.log[1].clone() else { unreachable!() };
    assert_eq!(holder, PlayerId("ann".into()), "the higher-ranked player holds the stones");
    let mut g = g;
    // The holder does not guess.
    assert_eq!(g.when(ANN(), Command::GuessNigiri { even: true }), Err(Rejection::NotTheGuesser));
    let events = g.ok(BOB(), Command::GuessNigiri { even: true });
    assert_eq!(names(&events), ["NigiriGuessed", "NigiriRevealed", "ColorsDecided", "GameStarted"]);
    let GameEvent::NigiriRevealed { secret, stones, guess_correct } = &events[1] else { unreachable!() };
    // Anyone can check the draw afterwards.
    assert_eq!(<[u8; 32]>::from(Sha256::digest(secret)), commitment);
    assert_eq!(*stones, nigiri_stones(secret));
    assert_eq!(*guess_correct, stones % 2 == 0);
    let bob_black = g.state.color_of(&PlayerId("bob".into())) == Some(Color::Black);
    assert_eq!(bob_black, *guess_correct, "a correct guess takes Black");
}

#[test]
fn handicap_stones_are_placed_and_white_moves_first() {
    let mut s = setup(19, Ruleset::chinese().with_komi(Komi(0)));
    s.handicap = 3;
    let mut g = Game::given(s);
    assert_eq!(names(&g.log), ["GameCreated", "ColorsDecided", "HandicapPlaced", "GameStarted"]);
    assert_eq!(g.state.to_move(), Some(Color::White));
    assert_eq!(g.play(ANN(), "Q4"), Err(Rejection::NotYourTurn));
    assert_eq!(g.play(BOB(), "Q16"), Err(Rejection::Illegal(Illegal::Occupied)));
    g.play(BOB(), "Q4").unwrap();
}

#[test]
fn the_game_record_is_sgf_that_replays_to_the_same_position() {
    let mut s = setup(19, Ruleset::chinese().with_komi(Komi(0)));
    s.handicap = 3;
    s.tournament = Some(weiqi_game::domain::TournamentRef { id: "city-open".into(), round: 2, board: 7 });
    let mut g = Game::given(s);
    g.moves(&["Q4", "C3", "pass", "D3"]);
    g.ok(BOB(), Command::Resign);
    let sgf = weiqi_game::record::game_record("t-city-open-r2-b7", &g.state, Some("2026-11-30")).unwrap();
    let (record, replayed) = weiqi_sgf::load(sgf.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{sgf}"));
    let game = g.state.game.as_ref().unwrap();
    assert_eq!((replayed.hash(), replayed.board()), (game.hash(), game.board()));
    assert_eq!(record.handicap, 3);
    assert_eq!(record.nodes.len(), 4, "three stones and a pass after the handicap");
    assert_eq!((record.black.name.as_deref(), record.black.rank.as_deref()), (Some("ANN"), Some("3d")));
    assert_eq!((record.white.name.as_deref(), record.white.rank.as_deref()), (Some("BOB"), Some("2d")));
    assert_eq!((record.result.as_deref(), record.date.as_deref()), (Some("B+R"), Some("2026-11-30")));
    assert_eq!((record.event.as_deref(), record.round.as_deref()), (Some("city-open"), Some("2 (board 7)")));
    assert_eq!(record.game_name.as_deref(), Some("t-city-open-r2-b7"));
    assert!(sgf.contains("GC[Ended by resignation]"), "{sgf}");
}

#[test]
fn moves_are_checked_for_turn_player_number_and_legality() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    assert_eq!(g.play(BOB(), "E5"), Err(Rejection::NotYourTurn));
    assert_eq!(g.play(Actor::Player(PlayerId("eve".into())), "E5"), Err(Rejection::NotAPlayer));
    assert_eq!(g.play(REF(), "E5"), Err(Rejection::NotAPlayer));
    let stale = g.when(ANN(), Command::Play { mv: Move::from_gtp("E5", 9).unwrap(), expected_number: 3, lag: None });
    assert_eq!(stale, Err(Rejection::StaleMoveNumber { expected: 3, actual: 1 }));
    let played = g.play(ANN(), "E5").unwrap();
    let GameEvent::StonePlayed { number, hash, captures, .. } = &played[0] else { unreachable!() };
    assert_eq!((*number, captures.len()), (1, 0));
    assert_eq!(*hash, g.state.game.as_ref().unwrap().hash());
    assert_eq!(g.play(BOB(), "E5"), Err(Rejection::Illegal(Illegal::Occupied)));
    let off = g.when(BOB(), Command::Play { mv: Move::Play(Point::new(9, 9)), expected_number: 0, lag: None });
    assert_eq!(off, Err(Rejection::Illegal(Illegal::OffBoard)));
    assert_eq!(off.unwrap_err().kind(), weiqi_game::domain::RejectionKind::InvalidArgument);
}

#[test]
fn captures_and_ko_are_recorded_and_refused() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    // Black: D5 C4 E4 D3; White: E5 D4? Build a ko at D4/E4 … simpler: the classic shape.
    g.moves(&["C5", "D5", "B4", "E4", "C3", "D3", "pass", "C4"]);
    // White C4 is in atari: Black D4 captures it.
    let ev = g.play(ANN(), "D4").unwrap();
    let GameEvent::StonePlayed { captures, .. } = &ev[0] else { unreachable!() };
    assert_eq!(captures, &vec![Point::from_gtp("C4", 9).unwrap()]);
    assert_eq!(g.play(BOB(), "C4"), Err(Rejection::Illegal(Illegal::Ko)));
}

#[test]
fn an_illegal_move_is_void_with_the_turn_forfeited_when_the_ruleset_says_so() {
    let rules = Ruleset { illegal_move: IllegalMovePolicy::VoidAndForfeitTurn, ..Ruleset::japanese() };
    let mut g = Game::given(setup(9, rules));
    g.moves(&["C5", "D5", "B4", "E4", "C3", "D3", "pass", "C4", "D4"]);
    let ev = g.play(BOB(), "C4").unwrap();
    assert!(matches!(&ev[0], GameEvent::MoveVoided { color: Color::White, taken_back: false, .. }), "{ev:?}");
    assert_eq!(g.state.to_move(), Some(Color::Black), "White forfeited the turn");
}

#[test]
fn two_passes_start_the_count_then_dead_chains_are_agreed() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5", "A1"]);
    g.ok(ANN(), Command::Play { mv: Move::Pass, expected_number: 3, lag: None });
    let ev = g.ok(BOB(), Command::Play { mv: Move::Pass, expected_number: 4, lag: None });
    assert_eq!(names(&ev), ["Passed", "ScoringStarted", "DeadStonesSuggested"]);
    assert_eq!(g.state.proposal.accepted, [false, false], "a suggestion nobody has accepted");
    assert_eq!(g.play(ANN(), "C3"), Err(Rejection::WrongPhase(Phase::Scoring)));
    let a1 = Point::from_gtp("A1", 9).unwrap();
    assert!(matches!(
        g.when(ANN(), Command::MarkDead { points: vec![Point::from_gtp("B2", 9).unwrap()] }),
        Err(Rejection::NotAStone(_))
    ));
    g.ok(ANN(), Command::MarkDead { points: vec![a1] });
    assert_eq!(g.state.proposal.accepted, [false, false], "marking is not accepting, not even for the marker");
    assert_eq!(names(&g.ok(BOB(), Command::AcceptScore)), ["ScoreAccepted"]);
    let ev = g.ok(ANN(), Command::AcceptScore);
    assert_eq!(ended(&ev), (Outcome::BlackWins, EndReason::Score));
    let GameEvent::Ended { result, dead, .. } = ev.last().unwrap() else { unreachable!() };
    assert_eq!(dead, &vec![a1]);
    assert_eq!(result.to_sgf(), "B+73.5", "81 points of area, 1 captured... all Black's, less 7.5 komi");
    assert_eq!(g.play(ANN(), "C3"), Err(Rejection::Illegal(Illegal::GameOver)));
}

/// ```text
///   A B C D E F G H J
/// 9 . . . . X O . . .
/// 8 . . . . X O . . .
/// 7 . . . . X O . . .
/// 6 . . . . X O . . .
/// 5 . O . . X O . . .     White's B5 is dead inside Black's side.
/// 4 . . . . X O . . .
/// 3 . . . . X O . . .
/// 2 . . . . X O . . .
/// 1 . . . . X O . . .
/// ```
#[test]
fn the_count_starts_from_the_estimate_and_the_players_accept_it() {
    // Given a wall game with one dead white stone,
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    let mut moves: Vec<String> = Vec::new();
    for row in 1..=9 {
        moves.push(format!("E{row}"));
        moves.push(format!("F{row}"));
    }
    moves.extend(["pass", "B5"].map(String::from));
    g.moves(&moves.iter().map(String::as_str).collect::<Vec<_>>());
    // when both pass,
    g.ok(ANN(), Command::Play { mv: Move::Pass, expected_number: 21, lag: None });
    let ev = g.ok(BOB(), Command::Play { mv: Move::Pass, expected_number: 22, lag: None });
    // then the estimate suggests B5 dead, and nothing is decided until both accept:
    let b5 = Point::from_gtp("B5", 9).unwrap();
    assert!(
        matches!(ev.last(), Some(GameEvent::DeadStonesSuggested { points, seki }) if points == &vec![b5] && seki.is_empty()),
        "{ev:?}"
    );
    assert_eq!(g.state.phase, Phase::Scoring);
    assert_eq!(names(&g.ok(ANN(), Command::AcceptScore)), ["ScoreAccepted"]);
    let ev = g.ok(BOB(), Command::AcceptScore);
    let GameEvent::Ended { result, dead, .. } = ev.last().unwrap() else { panic!("{ev:?}") };
    assert_eq!(dead, &vec![b5]);
    assert_eq!(result.to_sgf(), "B+1.5", "45 points to 36, less 7.5 komi");
}

/// Issue 32 item 4: a change of marks withdraws every acceptance; only the accept button accepts.
#[test]
fn a_change_of_marks_withdraws_every_acceptance() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5", "A1", "pass", "pass"]);
    let a1 = Point::from_gtp("A1", 9).unwrap();
    g.ok(BOB(), Command::AcceptScore);
    assert_eq!(g.state.proposal.accepted, [false, true]);
    // Black marks a chain: White's acceptance of the earlier proposal is gone, and Black has not accepted.
    g.ok(ANN(), Command::MarkDead { points: vec![a1] });
    assert_eq!(g.state.proposal.accepted, [false, false]);
    // One acceptance does not end the count; both do.
    assert_eq!(names(&g.ok(BOB(), Command::AcceptScore)), ["ScoreAccepted"]);
    g.ok(BOB(), Command::MarkDead { points: vec![] });
    assert_eq!(g.state.proposal.accepted, [false, false], "White's new marks withdraw White's own acceptance");
    g.ok(ANN(), Command::AcceptScore);
    let ev = g.ok(BOB(), Command::AcceptScore);
    assert_eq!(ended(&ev).1, EndReason::Score);
}

#[test]
fn a_dispute_resumes_play_with_the_claimant_first() {
    let mut g = Game::given(setup(9, Ruleset::japanese()));
    g.moves(&["E5", "A1", "pass", "pass"]);
    assert_eq!(g.state.phase, Phase::Scoring);
    g.ok(ANN(), Command::MarkDead { points: vec![Point::from_gtp("A1", 9).unwrap()] });
    let ev = g.ok(BOB(), Command::DisputeScore);
    assert_eq!(names(&ev), ["ScoreDisputed", "PlayResumed"]);
    assert!(matches!(ev[1], GameEvent::PlayResumed { first: Color::Black, .. }), "Black claimed A1 dead");
    assert_eq!(g.state.phase, Phase::Playing);
    assert_eq!(g.play(BOB(), "B1"), Err(Rejection::NotYourTurn));
    g.play(ANN(), "B1").unwrap();
    // The record says why Black moves again after the two passes (issue 32 item 5).
    let sgf = weiqi_game::record::game_record("g", &g.state, None).unwrap();
    assert!(
        sgf.contains(
            "W[]C[White disputes the count\nPlay resumes: Black claims stones dead and moves first (Art. 21.4)]"
        ),
        "{sgf}"
    );
}

/// Art. 21.4 when nobody marked: the estimator's suggestion is no one's claim.
///
/// ```text
///   suggested dead   disputed by   moves first
///   White's A1       White         Black (Black's claim, that A1 is dead, is disputed)
///   nothing          White         White (White claims more is dead)
/// ```
#[test]
fn a_dispute_of_the_suggestion_gives_the_first_move_to_the_side_claiming_stones_dead() {
    let a1 = Point::from_gtp("A1", 9).unwrap();
    for (suggested, first) in [(vec![a1], Color::Black), (vec![], Color::White)] {
        let mut g = Game::given(setup(9, Ruleset::japanese()));
        g.moves(&["E5", "A1", "pass", "pass"]);
        g.state.proposal =
            weiqi_game::domain::Proposal { by: None, points: suggested.clone(), accepted: [false, false] };
        let ev = g.ok(BOB(), Command::DisputeScore);
        assert!(matches!(ev[1], GameEvent::PlayResumed { first: f, .. } if f == first), "{suggested:?}: {ev:?}");
    }
}

#[test]
fn tromp_taylor_counts_at_once_after_two_passes() {
    let mut g = Game::given(setup(5, Ruleset::tromp_taylor()));
    g.moves(&["C3", "pass"]);
    let ev = g.ok(ANN(), Command::Play { mv: Move::Pass, expected_number: 0, lag: None });
    assert_eq!(ended(&ev), (Outcome::BlackWins, EndReason::Score));
}

#[test]
fn resignation_ends_the_game() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5"]);
    let ev = g.ok(BOB(), Command::Resign);
    assert_eq!(names(&ev), ["Resigned", "GameEnded"]);
    assert_eq!(ended(&ev), (Outcome::BlackWins, EndReason::Resignation));
    let GameEvent::Ended { result, .. } = ev.last().unwrap() else { unreachable!() };
    assert_eq!(result.to_sgf(), "B+R");
}

#[test]
fn a_referee_ruling_ends_the_game_with_its_reason_recorded() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5", "C3"]);
    let note = "Art. 23.1: outside assistance (White)".to_string();
    let adjudicate =
        || Command::Adjudicate { outcome: Outcome::BlackWins, reason: EndReason::Referee, note: note.clone() };
    assert_eq!(g.when(ANN(), adjudicate()), Err(Rejection::NotAReferee));
    let ev = g.ok(REF(), adjudicate());
    assert_eq!(ended(&ev), (Outcome::BlackWins, EndReason::Referee));
    let GameEvent::Ended { note: recorded, dead, .. } = ev.last().unwrap() else { unreachable!() };
    assert_eq!((recorded, dead.len()), (&note, 0));
    assert_eq!(g.when(REF(), adjudicate()), Err(Rejection::Illegal(Illegal::GameOver)), "a result stands once given");
}

#[test]
fn a_result_entered_by_hand_keeps_how_the_game_ended() {
    // A tournament desk enters what happened over the board: a resignation is `W+R`, a forfeit (not
    // played) `B+F`, a counted result with no margin given `W+`; none of them is a referee's ruling.
    for (reason, sgf) in [(EndReason::Resignation, "W+R"), (EndReason::Score, "W+"), (EndReason::Time, "W+T")] {
        let mut g = Game::given(setup(9, Ruleset::chinese()));
        g.moves(&["E5"]);
        let ev = g.ok(REF(), Command::Adjudicate { outcome: Outcome::WhiteWins, reason, note: String::new() });
        assert_eq!(ended(&ev), (Outcome::WhiteWins, reason));
        assert_eq!(g.state.result.as_ref().unwrap().to_sgf(), sgf);
    }
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    let forfeit = Command::Adjudicate { outcome: Outcome::BlackWins, reason: EndReason::Forfeit, note: String::new() };
    g.ok(REF(), forfeit);
    assert_eq!(g.state.result.as_ref().unwrap().to_sgf(), "B+F");
}

#[test]
fn given_an_ended_game_when_a_referee_corrects_its_result_then_the_record_says_the_correction() {
    // Given: Black resigned.
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5", "C3"]);
    let correct = |outcome, reason| Command::CorrectResult { outcome, reason, note: "recording error".into() };
    assert_eq!(
        g.when(REF(), correct(Outcome::BlackWins, EndReason::Resignation)),
        Err(Rejection::WrongPhase(g.state.phase)),
        "only an ended game's result is corrected"
    );
    g.ok(ANN(), Command::Resign);
    assert_eq!(g.state.result.as_ref().unwrap().to_sgf(), "W+R");
    // When: a player asks, nothing; the referee corrects it to Black by resignation.
    assert_eq!(g.when(ANN(), correct(Outcome::BlackWins, EndReason::Resignation)), Err(Rejection::NotAReferee));
    let ev = g.ok(REF(), correct(Outcome::BlackWins, EndReason::Resignation));
    // Then: one event, the record's result and the ruling note follow it.
    assert_eq!(names(&ev), ["ResultCorrected"]);
    let GameEvent::ResultCorrected { previous, result, .. } = &ev[0] else { unreachable!() };
    assert_eq!((previous.to_sgf(), result.to_sgf()), ("W+R".to_owned(), "B+R".to_owned()));
    assert_eq!(g.state.result.as_ref().unwrap().to_sgf(), "B+R");
    assert_eq!(g.state.phase, Phase::Ended);
    // A second correction (found a forfeit) stands too; the game stays ended.
    g.ok(REF(), correct(Outcome::WhiteWins, EndReason::Forfeit));
    assert_eq!(g.state.result.as_ref().unwrap().to_sgf(), "W+F");
    assert_eq!(g.when(ANN(), Command::Resign), Err(Rejection::Illegal(Illegal::GameOver)));
}

#[test]
fn a_second_warning_loses_and_warnings_cost_a_stone_at_the_count() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    assert_eq!(g.when(ANN(), Command::Warn { color: Color::White, reason: "x".into() }), Err(Rejection::NotAReferee));
    let ev = g.ok(REF(), Command::Warn { color: Color::White, reason: "clock pressed early (Art. 17.4)".into() });
    assert_eq!(names(&ev), ["WarningIssued"]);
    let ev = g.ok(REF(), Command::Warn { color: Color::White, reason: "take-back (Art. 17.3)".into() });
    assert_eq!(ended(&ev), (Outcome::BlackWins, EndReason::Warnings));

    let mut g = Game::given(setup(5, Ruleset::chinese().with_komi(Komi(0))));
    g.ok(REF(), Command::Warn { color: Color::Black, reason: "Art. 17.4".into() });
    g.moves(&["C3", "pass", "pass"]);
    let ev = g.ok(ANN(), Command::AcceptScore);
    assert!(ev.len() == 1);
    let ev = g.ok(BOB(), Command::AcceptScore);
    let GameEvent::Ended { result, .. } = ev.last().unwrap() else { unreachable!() };
    assert_eq!(result.to_sgf(), "B+23", "25 points less one stone (two points) for the warning");
}

#[test]
fn colors_can_be_swapped_up_to_move_ten_only() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "B1"]);
    g.ok(REF(), Command::SwapColors);
    assert_eq!(g.state.color_of(&PlayerId("ann".into())), Some(Color::White));
    g.moves(&["B2"]);
    assert_eq!(g.when(REF(), Command::SwapColors), Err(Rejection::SwapTooLate));
}

#[test]
fn a_voided_move_is_taken_back_and_the_turn_forfeited() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5", "C3"]);
    let before = g.state.game.as_ref().unwrap().hash();
    g.moves(&["G7"]);
    let ev = g.ok(
        REF(),
        Command::VoidLastMove { reason: "played twice (Art. 17.2)".into(), ground: VoidGround::ForbiddenPoint },
    );
    assert!(matches!(&ev[0], GameEvent::MoveVoided { color: Color::Black, taken_back: true, .. }));
    assert_eq!(g.state.game.as_ref().unwrap().hash(), before, "the stone is gone");
    assert_eq!(g.state.to_move(), Some(Color::White), "Black forfeited the turn");
    assert_eq!(
        g.when(REF(), Command::VoidLastMove { reason: "again".into(), ground: VoidGround::Unspecified }),
        Err(Rejection::NothingToVoid)
    );
}

/// RULES.md § 3: what each ground of a void brings with it.
///
/// ```text
///   ground            article  stone  next to move  warning
///   double-move       17.2     gone   White         yes
///   ko                18.3     gone   White         yes
///   forbidden-point   19       gone   White         no
/// ```
#[test]
fn a_void_warns_on_the_grounds_that_warn_and_a_second_warning_loses() {
    for (ground, warns) in
        [(VoidGround::DoubleMove, true), (VoidGround::KoWithoutThreat, true), (VoidGround::ForbiddenPoint, false)]
    {
        let mut g = Game::given(setup(9, Ruleset::chinese()));
        g.moves(&["E5", "C3", "G7"]);
        let ev = g.ok(REF(), Command::VoidLastMove { reason: "ruling".into(), ground });
        assert!(matches!(&ev[0], GameEvent::MoveVoided { color: Color::Black, ground: gr, .. } if *gr == ground));
        assert_eq!(ev.len(), if warns { 2 } else { 1 }, "{ground:?}: {ev:?}");
        assert_eq!(g.state.warnings[0], u32::from(warns), "{ground:?}");
        assert_eq!(g.state.to_move(), Some(Color::White), "{ground:?}");
    }
    // A second warning loses the game (Art. 24).
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5", "C3", "G7"]);
    g.ok(REF(), Command::VoidLastMove { reason: "ko".into(), ground: VoidGround::KoWithoutThreat });
    g.moves(&["D4", "G7"]);
    let ev = g.ok(REF(), Command::VoidLastMove { reason: "twice".into(), ground: VoidGround::DoubleMove });
    assert!(matches!(ev.last(), Some(GameEvent::Ended { .. })), "{ev:?}");
    assert_eq!(g.state.phase, Phase::Ended);
}

/// Issue 32 item 14: a claim over an absent opponent.
///
/// ```text
///   game         away     claim
///   casual       2:59     refused (not long enough)
///   casual       3:00     the claimant wins by forfeit
///   of an event  10:00    refused: the referee decides
/// ```
#[test]
fn a_casual_games_player_claims_the_win_over_an_opponent_away_three_minutes() {
    let casual = GameSetup { event_id: None, ..setup(9, Ruleset::chinese()) };
    let mut g = Game::given(casual);
    g.moves(&["E5"]);
    let early = Command::ClaimAbsence { away: DurationMs(179_000) };
    assert!(matches!(g.when(BOB(), early), Err(Rejection::OpponentNotAwayLongEnough { .. })));
    let ev = g.ok(BOB(), Command::ClaimAbsence { away: DurationMs::from_mins(3) });
    assert_eq!(ended(&ev), (Outcome::WhiteWins, EndReason::Forfeit));
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5"]);
    assert_eq!(
        g.when(BOB(), Command::ClaimAbsence { away: DurationMs::from_mins(10) }),
        Err(Rejection::AbsenceClaimInEvent)
    );
}

#[test]
fn pause_time_is_not_charged() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5"]);
    g.ok(REF(), Command::Pause { reason: "power cut".into() });
    assert_eq!(g.play(BOB(), "C3"), Err(Rejection::WrongPhase(Phase::Paused)));
    g.t += 3600; // an hour of pause
    g.ok(REF(), Command::Resume);
    g.play(BOB(), "C3").unwrap();
    let clock = g.state.clock.as_ref().unwrap();
    let white = clock.bank(weiqi_clock::Side::White).main;
    assert!(white > DurationMs::from_mins(9), "White used seconds, not the hour of pause: {white:?}");
}

/// Issue 32 item 3: a player of a casual game (no event, no referee) cannot seal alone and freeze
/// the clocks; a game of an event can be adjourned.
#[test]
fn a_casual_game_cannot_be_sealed_by_one_player() {
    let mut g = Game::given(GameSetup { event_id: None, tournament: None, ..setup(9, Ruleset::chinese()) });
    g.moves(&["E5"]);
    assert_eq!(
        g.when(BOB(), Command::Seal { mv: Move::from_gtp("C3", 9).unwrap(), lag: None }),
        Err(Rejection::SealNeedsReferee)
    );
    g.play(BOB(), "C3").unwrap();
}

#[test]
fn an_adjourned_game_resumes_with_the_sealed_move() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5"]);
    assert_eq!(
        g.when(ANN(), Command::Seal { mv: Move::from_gtp("C3", 9).unwrap(), lag: None }),
        Err(Rejection::NotTheSealer)
    );
    let ev = g.ok(BOB(), Command::Seal { mv: Move::from_gtp("C3", 9).unwrap(), lag: None });
    assert_eq!(names(&ev), ["Adjourned"]);
    assert_eq!(g.play(BOB(), "D3"), Err(Rejection::WrongPhase(Phase::Adjourned)));
    let ev = g.ok(REF(), Command::ResumeAdjourned);
    assert_eq!(names(&ev), ["Resumed", "SealedMoveRevealed", "StonePlayed"]);
    assert_eq!(g.state.game.as_ref().unwrap().board().get(Point::from_gtp("C3", 9).unwrap()), Some(Color::White));
    assert_eq!(g.state.to_move(), Some(Color::Black));
}

#[test]
fn a_sealed_move_on_an_occupied_point_forfeits_the_turn() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5"]);
    g.ok(BOB(), Command::Seal { mv: Move::from_gtp("E5", 9).unwrap(), lag: None });
    let ev = g.ok(REF(), Command::ResumeAdjourned);
    assert_eq!(names(&ev), ["Resumed", "SealedMoveRevealed", "MoveVoided"]);
    assert_eq!(g.state.to_move(), Some(Color::Black), "White forfeited a turn (seed 004)");
}

#[test]
fn a_move_after_the_deadline_is_refused_and_the_clock_flags() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5"]);
    assert_eq!(
        g.when(Actor::System("clock".into()), Command::ExpireTime { seen: g.state.version }),
        Err(Rejection::NotExpired)
    );
    g.t += 601; // White's ten minutes are gone
    assert_eq!(g.play(BOB(), "C3"), Err(Rejection::TimeExpired));
    let ev = g.ok(Actor::System("clock".into()), Command::ExpireTime { seen: g.state.version });
    assert_eq!(names(&ev), ["TimeExpired", "GameEnded"]);
    assert_eq!(ended(&ev), (Outcome::BlackWins, EndReason::Time));
}

#[test]
fn lateness_is_penalised_twice_over_or_forfeits() {
    let mut s = setup(9, Ruleset::chinese());
    s.start_immediately = false;
    let mut g = Game::given(s.clone());
    let ev = g.ok(REF(), Command::ReportLateness { color: Color::White, late: DurationMs::from_mins(3) });
    assert!(matches!(&ev[0], GameEvent::LatenessPenalised { deducted, .. } if *deducted == DurationMs::from_mins(6)));
    g.ok(ANN(), Command::Start);
    let white = g.state.clock.as_ref().unwrap().bank(weiqi_clock::Side::White).main;
    assert_eq!(white, DurationMs::from_mins(4));

    // Beyond the 15-minute limit: a forfeit once White is known to be present (here: reported on time).
    let mut g = Game::given(s);
    let ev = g.ok(REF(), Command::ReportLateness { color: Color::Black, late: DurationMs::from_mins(16) });
    assert_eq!(names(&ev), ["LateBeyondLimit"]);
    let ev = g.ok(REF(), Command::ReportLateness { color: Color::White, late: DurationMs::ZERO });
    assert_eq!(ended(&ev), (Outcome::WhiteWins, EndReason::Lateness));
}

#[test]
fn a_one_sided_clock_correction_needs_the_chief_referee() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    let bank = weiqi_clock::Bank::initial(&g.state.setup.as_ref().unwrap().time_control);
    let one = Command::CorrectClock { black: Some(bank), white: None, reason: "clock fault".into() };
    assert_eq!(g.when(REF(), one.clone()), Err(Rejection::NeedsChiefReferee));
    let ev = g.ok(Actor::ChiefReferee("chief".into()), one);
    assert!(matches!(&ev[0], GameEvent::ClockCorrected { chief: true, .. }));
}

#[test]
fn replay_rechecks_every_recorded_hash() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    g.moves(&["E5", "C3", "G7"]);
    let replayed = GameState::replay(&g.log).unwrap();
    assert_eq!(replayed.version, g.log.len() as u64);
    assert_eq!(replayed.game.as_ref().unwrap().hash(), g.state.game.as_ref().unwrap().hash());
    let mut forged = g.log.clone();
    for e in forged.iter_mut() {
        if let GameEvent::StonePlayed { hash, number: 2, .. } = e {
            *hash ^= 1;
        }
    }
    assert!(matches!(GameState::replay(&forged), Err(Corrupt::HashMismatch { number: 2, .. })));
    let mut illegal = g.log.clone();
    if let Some(GameEvent::StonePlayed { point, .. }) =
        illegal.iter_mut().rev().find(|e| matches!(e, GameEvent::StonePlayed { .. }))
    {
        *point = Point::from_gtp("E5", 9).unwrap();
    }
    assert!(matches!(GameState::replay(&illegal), Err(Corrupt::IllegalMove { number: 3, .. })));
}

/// Given: a game. When: a referee's reason or a player's name is 400,000 characters (the pages call
/// the service in process: no transport caps it). Then: refused, out of range; nothing appended.
#[test]
fn texts_are_limited_where_commands_are_decided() {
    let mut g = Game::given(setup(9, Ruleset::chinese()));
    let before = g.log.len();
    let long = "拖".repeat(400_000);
    for command in [
        Command::Warn { color: Color::Black, reason: long.clone() },
        Command::Pause { reason: long.clone() },
        Command::VoidLastMove { reason: long.clone(), ground: VoidGround::Unspecified },
        Command::Adjudicate { outcome: Outcome::Draw, reason: EndReason::Referee, note: long.clone() },
        Command::CorrectResult { outcome: Outcome::Draw, reason: EndReason::Referee, note: long.clone() },
    ] {
        let name = format!("{command:?}").chars().take(20).collect::<String>();
        assert!(matches!(g.when(REF(), command), Err(Rejection::OutOfRange { .. })), "{name}");
    }
    assert_eq!(g.log.len(), before, "nothing appended");
    let mut named = setup(9, Ruleset::chinese());
    named.first.name = long;
    let r = decide(
        &GameState::default(),
        &ORG(),
        &Command::Create { setup: Box::new(named), nigiri_secret: [0; 32] },
        secs(0),
    );
    assert!(matches!(r, Err(Rejection::OutOfRange { field: "player name", .. })), "{r:?}");
}

/// Given: a game on a 15 s absolute clock, Black to move since 0 s. When: the platform reports an
/// outage from 2 s to 22 s. Then: `OutageExcused` (from the platform only), Black's deadline moves by
/// 20 s; an outage that began after Black's time ran out, or one no clock runs through, is refused.
#[test]
fn an_outage_of_the_platform_is_no_players_time() {
    use weiqi_game::domain::OutageReason;
    let mut s = setup(9, Ruleset::chinese());
    s.time_control = TimeControl::absolute(DurationMs::from_secs(15)).unwrap().with_lag(LagConfig::NONE).unwrap();
    let mut g = Game::given(s);
    let deadline = g.state.clock.as_ref().and_then(|c| c.deadline()).expect("a running clock");
    let at = secs;
    let excuse =
        |from: i64, to: i64| Command::ExcuseOutage { from: at(from), to: at(to), reason: OutageReason::Restart };
    assert_eq!(g.when(ANN(), excuse(2, 22)), Err(Rejection::NotAReferee), "only the platform reports outages");
    g.t = 22;
    let platform = || Actor::System("clock".into());
    // The clock's deadline had passed at 22 s; the excuse comes first.
    let events = g.ok(platform(), excuse(2, 22));
    assert_eq!(events, vec![GameEvent::OutageExcused { from: at(2), to: at(22), reason: OutageReason::Restart }]);
    let moved = g.state.clock.as_ref().and_then(|c| c.deadline()).unwrap();
    assert_eq!(moved.0 - deadline.0, 20_000, "the clock stood still for the outage");
    // Once excused, the same outage is nothing to excuse; nor is one after the time ran out.
    assert_eq!(g.when(platform(), excuse(2, 22)), Err(Rejection::NothingToExcuse));
    let late = (moved.0 - secs(0).0) / 1_000 + 5;
    g.t = late + 20;
    assert_eq!(g.when(platform(), excuse(late, late + 10)), Err(Rejection::NothingToExcuse));
}
