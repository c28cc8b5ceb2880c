//! Given events / when a command / then events (or a rejection).

use std::collections::BTreeSet;

use weiqi_pairing::command::Command;
use weiqi_pairing::config::{ByeKind, Format, PointSystem, TournamentConfig};
use weiqi_pairing::decide::decide;
use weiqi_pairing::event::{ByeReason, Champion, ColorBy, TournamentEvent, WithdrawalReason, WithdrawalRuling};
use weiqi_pairing::ids::{Color, GameRef, Millis, PlayerId};
use weiqi_pairing::lot;
use weiqi_pairing::outcome::{GameResult, Outcome, ResultReason};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::rejection::{ConfigProblem, Rejection};
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::state::Tournament;

const NOW: Millis = Millis(1_000_000);

fn given(events: &[TournamentEvent]) -> Tournament {
    Tournament::replay(events)
}

fn when(t: &Tournament, cmd: Command) -> Result<Vec<TournamentEvent>, Rejection> {
    decide(t, &cmd, NOW)
}

fn swiss(rounds: u32) -> TournamentConfig {
    TournamentConfig::new("test", Format::Swiss { rounds }, 42)
}

fn reg(i: u32) -> Registration {
    Registration::new(PlayerId(i), &format!("Player {i}"), Rank::Kyu(i as u8))
}

fn created(config: TournamentConfig) -> TournamentEvent {
    TournamentEvent::Created { config, at: Millis(0) }
}

fn registered(i: u32) -> TournamentEvent {
    TournamentEvent::PlayerRegistered { registration: reg(i) }
}

/// A started Swiss of `n` players, as events.
fn started_swiss(n: u32, rounds: u32) -> Vec<TournamentEvent> {
    let mut s = Simulation::new(swiss(rounds), 1).unwrap();
    s.register_all(&(1..=n).map(reg).collect::<Vec<_>>()).unwrap();
    s.run(Command::Start).unwrap();
    s.log
}

#[test]
fn create_then_create_again_is_refused() {
    assert_eq!(when(&given(&[]), Command::Create { config: swiss(5) }), Ok(vec![created_at_now(swiss(5))]));
    assert_eq!(
        when(&given(&[created(swiss(5))]), Command::Create { config: swiss(5) }),
        Err(Rejection::AlreadyCreated)
    );
}

fn created_at_now(config: TournamentConfig) -> TournamentEvent {
    TournamentEvent::Created { config, at: NOW }
}

#[test]
fn invalid_configurations_are_refused() {
    let t = given(&[]);
    assert_eq!(when(&t, Command::Create { config: swiss(0) }), Err(Rejection::InvalidConfig(ConfigProblem::ZeroCount)));
    let mut c = swiss(3);
    c.points = PointSystem { win: 1, draw: 1, loss: 0 };
    assert_eq!(when(&t, Command::Create { config: c }), Err(Rejection::InvalidConfig(ConfigProblem::Points)));
}

#[test]
fn commands_before_creation_are_refused() {
    assert_eq!(when(&given(&[]), Command::Start), Err(Rejection::NotCreated));
}

#[test]
fn registration_records_the_snapshot_at_now() {
    let t = given(&[created(swiss(5))]);
    let mut expected = reg(1);
    expected.at = NOW;
    assert_eq!(
        when(&t, Command::Register { registration: reg(1) }),
        Ok(vec![TournamentEvent::PlayerRegistered { registration: expected }])
    );
    let t = given(&[created(swiss(5)), registered(1)]);
    assert_eq!(when(&t, Command::Register { registration: reg(1) }), Err(Rejection::AlreadyRegistered(PlayerId(1))));
}

#[test]
fn late_entry_is_swiss_only_and_draws_a_lot() {
    let events = started_swiss(4, 5);
    let mut expected = reg(9);
    expected.at = NOW;
    assert_eq!(
        when(&given(&events), Command::Register { registration: reg(9) }),
        Ok(vec![
            TournamentEvent::PlayerRegistered { registration: expected },
            TournamentEvent::LotsDrawn { players: vec![(PlayerId(9), lot::lot(42, 9))], teams: vec![] },
        ])
    );
    let rr = TournamentConfig::new("rr", Format::RoundRobin { cycles: 1 }, 1);
    let t = given(&[created(rr), registered(1), registered(2), TournamentEvent::Started { at: Millis(0) }]);
    assert_eq!(when(&t, Command::Register { registration: reg(3) }), Err(Rejection::RegistrationClosed));
}

#[test]
fn start_draws_lots_from_the_seed() {
    let t = given(&[created(swiss(5)), registered(1), registered(2)]);
    assert_eq!(
        when(&t, Command::Start),
        Ok(vec![
            TournamentEvent::LotsDrawn {
                players: vec![(PlayerId(1), lot::lot(42, 1)), (PlayerId(2), lot::lot(42, 2))],
                teams: vec![],
            },
            TournamentEvent::Started { at: NOW },
        ])
    );
    let t = given(&[created(swiss(5)), registered(1)]);
    assert_eq!(when(&t, Command::Start), Err(Rejection::TooFewEntrants { needed: 2, have: 1 }));
}

#[test]
fn pairing_needs_a_start_and_a_completed_round() {
    let t = given(&[created(swiss(5)), registered(1), registered(2)]);
    assert_eq!(when(&t, Command::PairRound), Err(Rejection::NotStarted));
    let mut events = started_swiss(4, 5);
    let t = given(&events);
    let paired = when(&t, Command::PairRound).unwrap();
    assert!(matches!(paired[..], [TournamentEvent::RoundPaired { round: 1, .. }]));
    events.extend(paired);
    assert_eq!(when(&given(&events), Command::PairRound), Err(Rejection::RoundIncomplete(1)));
}

#[test]
fn the_last_result_completes_the_round_and_the_last_round_finishes() {
    // Art. 27 option B (points, then SOS): with two players the total-score formula would tie them.
    let mut cfg = swiss(1);
    cfg.ranking = vec![weiqi_pairing::standings::TieBreak::Points, weiqi_pairing::standings::TieBreak::Sos];
    let mut s = Simulation::new(cfg, 1).unwrap();
    s.register_all(&[reg(1), reg(2)]).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    let game = GameRef { round: 1, table: 1 };
    let black = s.state.game(game).unwrap().paired.black;
    let events = when(&s.state, Command::RecordResult { game, result: GameResult::win(Color::Black) }).unwrap();
    assert_eq!(
        events,
        vec![
            TournamentEvent::ResultRecorded { game, result: GameResult::win(Color::Black), at: NOW },
            TournamentEvent::RoundCompleted { round: 1 },
            TournamentEvent::Finished { champion: Champion::Player(black) },
        ]
    );
}

#[test]
fn results_are_recorded_once_and_only_for_real_games() {
    let mut s = Simulation::new(swiss(3), 1).unwrap();
    s.register_all(&[reg(1), reg(2), reg(3), reg(4)]).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    let game = GameRef { round: 1, table: 1 };
    s.run(Command::RecordResult { game, result: GameResult::draw() }).unwrap();
    assert_eq!(
        when(&s.state, Command::RecordResult { game, result: GameResult::draw() }),
        Err(Rejection::AlreadyRecorded(game))
    );
    let nowhere = GameRef { round: 1, table: 9 };
    assert_eq!(
        when(&s.state, Command::RecordResult { game: nowhere, result: GameResult::draw() }),
        Err(Rejection::UnknownGame(nowhere))
    );
}

#[test]
fn a_knockout_game_needs_a_decisive_result() {
    let mut s = Simulation::new(TournamentConfig::new("ko", Format::Knockout { losses: 1 }, 1), 1).unwrap();
    s.register_all(&[reg(1), reg(2)]).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    let game = GameRef { round: 1, table: 1 };
    assert_eq!(
        when(&s.state, Command::RecordResult { game, result: GameResult::draw() }),
        Err(Rejection::DecisiveResultRequired)
    );
    // Both lose (seed 001: both late) is decisive enough: nobody advances.
    let both = GameResult { outcome: Outcome::BothLose, reason: ResultReason::Forfeit };
    let events = when(&s.state, Command::RecordResult { game, result: both }).unwrap();
    assert!(events.contains(&TournamentEvent::Finished { champion: Champion::None }));
}

#[test]
fn no_shows_are_forfeited_after_the_limit_and_withdrawn_after_two() {
    let mut cfg = swiss(5);
    cfg.no_show_limit_ms = 5 * 60 * 1000; // seed 001: five minutes
    let mut s = Simulation::new(cfg, 1).unwrap();
    s.register_all(&[reg(1), reg(2), reg(3), reg(4)]).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    let game = GameRef { round: 1, table: 1 };
    let g = s.state.game(game).unwrap().paired.clone();
    let started = Millis(NOW.0 - 4 * 60 * 1000);
    assert_eq!(
        when(&s.state, Command::ClaimNoShow { game, absent: vec![g.black], started_at: started }),
        Err(Rejection::NoShowTooEarly { remaining_ms: 60 * 1000 })
    );
    let started = Millis(NOW.0 - 5 * 60 * 1000);
    assert_eq!(
        when(&s.state, Command::ClaimNoShow { game, absent: vec![g.black], started_at: started }),
        Ok(vec![
            TournamentEvent::ResultRecorded { game, result: GameResult::forfeit(Color::White), at: NOW },
            TournamentEvent::NoShowRecorded { player: g.black, game },
        ])
    );
    // A second no-show withdraws the player (Swiss: results stand, no longer paired).
    let mut t = s.state.clone();
    weiqi_pairing::state::evolve(&mut t, &TournamentEvent::NoShowRecorded { player: g.black, game });
    let events = when(&t, Command::ClaimNoShow { game, absent: vec![g.black], started_at: started }).unwrap();
    assert!(events.contains(&TournamentEvent::PlayerWithdrawn {
        player: g.black,
        after_round: 1,
        reason: WithdrawalReason::NoShows,
        ruling: WithdrawalRuling::ResultsStandNotPaired,
    }));
}

#[test]
fn both_absent_lose_both() {
    let mut s = Simulation::new(swiss(5), 1).unwrap();
    s.register_all(&[reg(1), reg(2)]).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    let game = GameRef { round: 1, table: 1 };
    let g = s.state.game(game).unwrap().paired.clone();
    let events =
        when(&s.state, Command::ClaimNoShow { game, absent: vec![g.black, g.white], started_at: Millis(0) }).unwrap();
    assert_eq!(
        events[0],
        TournamentEvent::ResultRecorded {
            game,
            result: GameResult { outcome: Outcome::BothLose, reason: ResultReason::Forfeit },
            at: NOW
        }
    );
}

#[test]
fn organiser_fixes_a_pairing_and_grants_a_bye() {
    let events = started_swiss(5, 3);
    let t = given(&events);
    assert_eq!(
        when(&t, Command::FixPairing { round: 1, black: PlayerId(1), white: PlayerId(2) }),
        Ok(vec![TournamentEvent::PairingFixed { round: 1, black: PlayerId(1), white: PlayerId(2) }])
    );
    assert_eq!(
        when(&t, Command::FixPairing { round: 2, black: PlayerId(1), white: PlayerId(2) }),
        Err(Rejection::NotNextRound(2))
    );
    let mut s = Simulation::new(swiss(3), 1).unwrap();
    s.register_all(&(1..=5).map(reg).collect::<Vec<_>>()).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::FixPairing { round: 1, black: PlayerId(1), white: PlayerId(2) }).unwrap();
    s.run(Command::GrantBye { round: 1, player: PlayerId(5), kind: ByeKind::ZeroPoint }).unwrap();
    assert_eq!(
        when(&s.state, Command::GrantBye { round: 1, player: PlayerId(5), kind: ByeKind::ZeroPoint }),
        Err(Rejection::AlreadyPlaced(PlayerId(5)))
    );
    let paired = when(&s.state, Command::PairRound).unwrap();
    let TournamentEvent::RoundPaired { games, byes, .. } = &paired[0] else { panic!() };
    assert_eq!((games[0].black, games[0].white, games[0].fixed), (PlayerId(1), PlayerId(2), true));
    assert_eq!(games[0].color_by, ColorBy::Organiser);
    assert_eq!(games.len(), 2);
    assert!(
        byes.iter()
            .any(|b| b.player == PlayerId(5) && b.reason == ByeReason::Requested && b.kind == ByeKind::ZeroPoint)
    );
}

#[test]
fn forbidden_pairs_are_never_paired() {
    // Four equal players; forbid every pairing of player 1 but one.
    let mut s = Simulation::new(swiss(1), 1).unwrap();
    s.register_all(&(1..=4).map(|i| Registration::new(PlayerId(i), "x", Rank::Dan(1))).collect::<Vec<_>>()).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::ForbidPair { a: PlayerId(1), b: PlayerId(2), round: None }).unwrap();
    s.run(Command::ForbidPair { a: PlayerId(3), b: PlayerId(1), round: Some(1) }).unwrap();
    s.run(Command::PairRound).unwrap();
    let g = s.state.rounds[0]
        .games
        .iter()
        .find(|g| g.paired.black == PlayerId(1) || g.paired.white == PlayerId(1))
        .unwrap();
    assert!(g.paired.black == PlayerId(4) || g.paired.white == PlayerId(4));
    assert_eq!(
        when(&s.state, Command::ForbidPair { a: PlayerId(1), b: PlayerId(1), round: None }),
        Err(Rejection::SamePlayer)
    );
}

/// Issue 30 item 11: a forbid "for the next round only" holds for that round and no other; a forbid
/// for the whole event holds until it is lifted; both are listed with their scope.
///
/// ```text
///   forbid 1–2  every round      round 1: 1 never meets 2     round 2: still not
///   forbid 1–3  round 2 only     round 1: may meet            round 2: may not    round 3: may again
/// ```
#[test]
fn a_forbid_for_one_round_holds_for_that_round_only_and_a_lifted_one_no_longer() {
    let mut s = Simulation::new(swiss(3), 1).unwrap();
    s.register_all(&(1..=4).map(|i| Registration::new(PlayerId(i), "x", Rank::Dan(1))).collect::<Vec<_>>()).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::ForbidPair { a: PlayerId(2), b: PlayerId(1), round: None }).unwrap();
    s.run(Command::ForbidPair { a: PlayerId(1), b: PlayerId(3), round: Some(2) }).unwrap();
    assert_eq!(s.state.forbids.get(&(PlayerId(1), PlayerId(3))), Some(&Some(2)));
    assert_eq!(s.state.forbidden_in(1), [(PlayerId(1), PlayerId(2))].into());
    assert_eq!(s.state.forbidden_in(2), [(PlayerId(1), PlayerId(2)), (PlayerId(1), PlayerId(3))].into());
    assert_eq!(s.state.forbidden_in(3), [(PlayerId(1), PlayerId(2))].into());
    // A round already paired cannot be given a forbid.
    s.run(Command::PairRound).unwrap();
    assert_eq!(
        when(&s.state, Command::ForbidPair { a: PlayerId(1), b: PlayerId(4), round: Some(1) }),
        Err(Rejection::NotNextRound(1))
    );
    // Lifted: gone from every round; lifting it again is refused.
    s.run(Command::AllowPair { a: PlayerId(1), b: PlayerId(2) }).unwrap();
    assert_eq!(s.state.forbidden_in(3), BTreeSet::new());
    assert_eq!(
        when(&s.state, Command::AllowPair { a: PlayerId(2), b: PlayerId(1) }),
        Err(Rejection::NotForbidden(PlayerId(2), PlayerId(1)))
    );
}

#[test]
fn withdrawing_mid_round_forfeits_the_open_game() {
    let mut s = Simulation::new(swiss(3), 1).unwrap();
    s.register_all(&(1..=4).map(reg).collect::<Vec<_>>()).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    let g = s.state.rounds[0].games[0].paired.clone();
    let events = when(&s.state, Command::Withdraw { player: g.white, reason: WithdrawalReason::Request }).unwrap();
    assert_eq!(
        events,
        vec![
            TournamentEvent::PlayerWithdrawn {
                player: g.white,
                after_round: 1,
                reason: WithdrawalReason::Request,
                ruling: WithdrawalRuling::ResultsStandNotPaired,
            },
            TournamentEvent::ResultRecorded {
                game: GameRef { round: 1, table: g.table },
                result: GameResult::forfeit(Color::Black),
                at: NOW,
            },
        ]
    );
}

#[test]
fn the_same_commands_give_the_same_log_and_the_log_replays_to_the_state() {
    let run = || {
        let mut s = Simulation::new(swiss(5), 77).unwrap();
        s.register_all(&(1..=21).map(reg).collect::<Vec<_>>()).unwrap();
        s.run(Command::Start).unwrap();
        s.play_to_end(5).unwrap();
        s
    };
    let (a, b) = (run(), run());
    assert_eq!(a.log, b.log);
    assert_eq!(Tournament::replay(&a.log), a.state);
    // Nigiri draws are in the log: some games were colored by lot.
    let nigiri = a
        .log
        .iter()
        .filter_map(|e| if let TournamentEvent::RoundPaired { games, .. } = e { Some(games) } else { None })
        .flatten()
        .filter(|g| g.color_by == ColorBy::Nigiri)
        .count();
    assert!(nigiri > 0);
    // Serde round trip of the log (the service stores these).
    let json = serde_json::to_string(&a.log).unwrap();
    let back: Vec<TournamentEvent> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, a.log);
}

/// Issue 30 item 9: a player's names and club may be edited at any time, their rank only before the
/// first round is paired (the McMahon start scores and handicaps of paired rounds hang on it).
#[test]
fn a_player_is_edited_and_the_rank_only_before_the_first_pairing() {
    let log = started_swiss(6, 3);
    let mut fixed = reg(2);
    fixed.name_zh = "王芳".into();
    fixed.rank = Rank::Dan(1);
    // When they registered stays as it was.
    fixed.at = given(&log).players[&PlayerId(2)].registration.at;
    let then = when(&given(&log), Command::EditPlayer { registration: fixed.clone() }).unwrap();
    assert_eq!(then, vec![TournamentEvent::PlayerEdited { registration: fixed.clone() }]);
    let mut t = given(&log);
    weiqi_pairing::state::evolve(&mut t, &then[0]);
    assert_eq!(t.players[&PlayerId(2)].registration.name_zh, "王芳");

    let mut s = Simulation::new(swiss(3), 1).unwrap();
    s.register_all(&(1..=6).map(reg).collect::<Vec<_>>()).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    let mut renamed = reg(2);
    renamed.club = Some("杭州棋院".into());
    assert!(when(&s.state, Command::EditPlayer { registration: renamed }).is_ok(), "names and club: any time");
    assert_eq!(when(&s.state, Command::EditPlayer { registration: fixed }), Err(Rejection::RankFixed(PlayerId(2))));
    assert_eq!(
        when(&s.state, Command::EditPlayer { registration: reg(9) }),
        Err(Rejection::UnknownPlayer(PlayerId(9)))
    );
}

/// A player never placed in a round may be removed (a late entry who did not come); one who was
/// placed withdraws instead (Art. 28), so that their games keep counting as the rules say.
#[test]
fn only_a_player_never_placed_is_removed() {
    let mut s = Simulation::new(swiss(3), 1).unwrap();
    s.register_all(&(1..=6).map(reg).collect::<Vec<_>>()).unwrap();
    s.run(Command::ForbidPair { a: PlayerId(6), b: PlayerId(1), round: None }).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    s.run(Command::Register { registration: reg(7) }).unwrap();
    assert_eq!(
        when(&s.state, Command::RemovePlayer { player: PlayerId(1) }),
        Err(Rejection::AlreadyPlayed(PlayerId(1)))
    );
    let then = when(&s.state, Command::RemovePlayer { player: PlayerId(7) }).unwrap();
    assert_eq!(then, vec![TournamentEvent::PlayerRemoved { player: PlayerId(7) }]);
    s.run(Command::RemovePlayer { player: PlayerId(7) }).unwrap();
    assert!(!s.state.players.contains_key(&PlayerId(7)));
    s.play_round().unwrap();
    s.run(Command::PairRound).unwrap();
    assert!(s.state.rounds[1].games.iter().all(|g| ![g.paired.black, g.paired.white].contains(&PlayerId(7))));
}

/// Issue 30 item 10: the last round's pairing is taken back while none of its games has a result,
/// and pairing again follows what the director changed (here a forbid).
#[test]
fn a_round_is_unpaired_before_any_result_and_paired_again() {
    let mut s = Simulation::new(swiss(3), 1).unwrap();
    s.register_all(&(1..=6).map(reg).collect::<Vec<_>>()).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    let first = s.state.rounds[0].games[0].paired.clone();
    assert_eq!(
        when(&s.state, Command::UnpairRound { round: 2 }),
        Err(Rejection::CannotUnpair(2)),
        "only the last round"
    );
    let then = when(&s.state, Command::UnpairRound { round: 1 }).unwrap();
    assert_eq!(then, vec![TournamentEvent::RoundUnpaired { round: 1, tables: 3 }]);
    s.run(Command::UnpairRound { round: 1 }).unwrap();
    assert_eq!((s.state.current_round(), s.state.pairing_of(1)), (0, 1));
    s.run(Command::ForbidPair { a: first.black, b: first.white, round: Some(1) }).unwrap();
    s.run(Command::PairRound).unwrap();
    assert!(s.state.rounds[0].games.iter().all(|g| (g.paired.black, g.paired.white) != (first.black, first.white)
        && (g.paired.white, g.paired.black) != (first.black, first.white)));
    // Once a result is in, the round stands.
    let game = GameRef { round: 1, table: 1 };
    s.run(Command::RecordResult { game, result: GameResult::win(Color::Black) }).unwrap();
    assert_eq!(when(&s.state, Command::UnpairRound { round: 1 }), Err(Rejection::CannotUnpair(1)));
    // Not in formats whose rounds are fixed by a table (round robin).
    let mut rr = Simulation::new(TournamentConfig::new("rr", Format::RoundRobin { cycles: 1 }, 1), 1).unwrap();
    rr.register_all(&(1..=4).map(reg).collect::<Vec<_>>()).unwrap();
    rr.run(Command::Start).unwrap();
    rr.run(Command::PairRound).unwrap();
    assert_eq!(when(&rr.state, Command::UnpairRound { round: 1 }), Err(Rejection::NotInThisFormat));
}

/// Issue 30 item 10: a Swiss's rounds change mid-event (not below those played), the McMahon bars
/// only between rounds, the tie-break order at any time; another kind of format never.
#[test]
fn settings_change_mid_event_within_what_the_rounds_allow() {
    use weiqi_pairing::config::McMahonBars;
    use weiqi_pairing::standings::TieBreak;
    let mut s = Simulation::new(swiss(3), 1).unwrap();
    s.register_all(&(1..=6).map(reg).collect::<Vec<_>>()).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    let ranking = vec![TieBreak::Points, TieBreak::Sos];
    let change = |rounds| Command::ChangeSettings { format: Format::Swiss { rounds }, ranking: ranking.clone() };
    let then = when(&s.state, change(5)).unwrap();
    assert!(matches!(&then[0], TournamentEvent::SettingsChanged { format: Format::Swiss { rounds: 5 }, .. }));
    assert_eq!(when(&s.state, change(0)), Err(Rejection::SettingsFixed("rounds")));
    let mcmahon = Format::McMahon { rounds: 3, bars: McMahonBars { top: Rank::Dan(1), bottom: Rank::Kyu(10) } };
    let other = Command::ChangeSettings { format: mcmahon.clone(), ranking: ranking.clone() };
    assert_eq!(when(&s.state, other), Err(Rejection::SettingsFixed("format")));
    s.run(change(5)).unwrap();
    assert_eq!(s.state.config.as_ref().unwrap().format, Format::Swiss { rounds: 5 });
    assert_eq!(s.state.config.as_ref().unwrap().ranking, ranking);

    // McMahon bars: not while a round is open.
    let mut m = Simulation::new(TournamentConfig::new("m", mcmahon.clone(), 1), 1).unwrap();
    m.register_all(&(1..=6).map(reg).collect::<Vec<_>>()).unwrap();
    m.run(Command::Start).unwrap();
    m.run(Command::PairRound).unwrap();
    let lower = Format::McMahon { rounds: 3, bars: McMahonBars { top: Rank::Kyu(2), bottom: Rank::Kyu(10) } };
    let bars = Command::ChangeSettings { format: lower, ranking: vec![TieBreak::Mms, TieBreak::Sosm] };
    assert_eq!(when(&m.state, bars.clone()), Err(Rejection::SettingsFixed("bars")));
    m.play_round().unwrap();
    assert!(when(&m.state, bars).is_ok(), "between rounds");
    let upside_down = Format::McMahon { rounds: 3, bars: McMahonBars { top: Rank::Kyu(10), bottom: Rank::Dan(1) } };
    assert_eq!(
        when(&m.state, Command::ChangeSettings { format: upside_down, ranking: vec![TieBreak::Mms] }),
        Err(Rejection::InvalidConfig(ConfigProblem::Bars))
    );
}

/// Issue 30 item 9: a player marked absent for the next round (a zero-point bye) who comes after all
/// has the bye taken back, until the round is paired.
#[test]
fn a_bye_for_a_round_not_yet_paired_is_taken_back() {
    let mut s = Simulation::new(swiss(3), 1).unwrap();
    s.register_all(&(1..=6).map(reg).collect::<Vec<_>>()).unwrap();
    s.run(Command::Start).unwrap();
    s.run(Command::GrantBye { round: 1, player: PlayerId(3), kind: ByeKind::ZeroPoint }).unwrap();
    let cancel = Command::CancelBye { round: 1, player: PlayerId(3) };
    assert_eq!(
        when(&s.state, cancel.clone()),
        Ok(vec![TournamentEvent::ByeCancelled { round: 1, player: PlayerId(3) }])
    );
    assert_eq!(
        when(&s.state, Command::CancelBye { round: 1, player: PlayerId(4) }),
        Err(Rejection::NoByeToCancel(PlayerId(4)))
    );
    s.run(cancel).unwrap();
    s.run(Command::PairRound).unwrap();
    assert!(
        s.state.rounds[0].games.iter().any(|g| [g.paired.black, g.paired.white].contains(&PlayerId(3))),
        "#3 plays"
    );
    s.run(Command::GrantBye { round: 2, player: PlayerId(4), kind: ByeKind::ZeroPoint }).unwrap();
    s.play_round().unwrap();
    s.run(Command::PairRound).unwrap();
    assert_eq!(
        when(&s.state, Command::CancelBye { round: 2, player: PlayerId(4) }),
        Err(Rejection::NoByeToCancel(PlayerId(4))),
        "not once the round is paired"
    );
}
