//! Recomputing from the inputs gives exactly (bit for bit) what the live decide → events → evolve path
//! gave, for every rating system, with period-close ticks, seeds and late games in the log.

use proptest::prelude::*;
use weiqi_rating::{
    EgfSettings, EloSettings, GameConditions, GameId, Glicko2Settings, Millis, PlayerId, RatedGame, RatedResult,
    RatingBook, RatingCommand, RatingEvent, RatingInput, RatingSystem, decide, recompute, recompute_games, replay,
    synthetic_history,
};

fn systems() -> Vec<RatingSystem> {
    vec![
        RatingSystem::Glicko2(Glicko2Settings::default()),
        RatingSystem::Glicko2(Glicko2Settings { period_length: Millis::DAY, ..Glicko2Settings::default() }),
        RatingSystem::Egf(EgfSettings::default()),
        RatingSystem::Elo(EloSettings::default()),
    ]
}

/// The live path: decide each input, store the events as JSON (as a log would), read them back, evolve.
fn live(system: &RatingSystem, inputs: &[RatingInput]) -> (RatingBook, Vec<RatingEvent>) {
    let mut book = RatingBook::new(system.clone());
    let mut log = Vec::new();
    for input in inputs {
        let events = decide(&book, &input.command, input.at).expect("accepted");
        for e in events {
            let stored = serde_json::to_string(&e).unwrap();
            let e: RatingEvent = serde_json::from_str(&stored).unwrap();
            book.evolve(&e);
            log.push(e);
        }
    }
    (book, log)
}

fn assert_same(a: &RatingBook, b: &RatingBook) {
    assert_eq!(a.player_count(), b.player_count());
    assert_eq!(a.game_count(), b.game_count());
    assert_eq!(a.open_period(), b.open_period());
    assert_eq!(a.open_tournaments().collect::<Vec<_>>(), b.open_tournaments().collect::<Vec<_>>());
    for ((pa, ra), (pb, rb)) in a.iter().zip(b.iter()) {
        assert_eq!(pa, pb);
        assert_eq!(ra.rating.to_bits(), rb.rating.to_bits(), "{pa}: {} vs {}", ra.rating, rb.rating);
        assert_eq!(ra.deviation.to_bits(), rb.deviation.to_bits(), "{pa}");
        assert_eq!(ra.volatility.to_bits(), rb.volatility.to_bits(), "{pa}");
        assert_eq!((ra.games, ra.period), (rb.games, rb.period), "{pa}");
    }
}

/// A history with seeds, ticks after some period ends (as the service's timer sends them) and ticks that
/// do nothing, late games (ended in an earlier period than the game before them), and tournaments: every
/// fifth game belongs to one, each tournament is closed after its last game, and a few late results
/// of an already closed tournament arrive afterwards.
fn inputs_with_ticks(games: &[RatedGame]) -> Vec<RatingInput> {
    let mut inputs = vec![
        RatingInput {
            at: Millis(0),
            command: RatingCommand::Seed { player: PlayerId::from("p000000"), rating: 1900.0, deviation: Some(120.0) },
        },
        RatingInput {
            at: Millis(0),
            command: RatingCommand::Seed { player: PlayerId::from("newcomer"), rating: 1200.0, deviation: None },
        },
    ];
    for (n, g) in games.iter().enumerate() {
        let mut g = g.clone();
        if n % 97 == 13 {
            // Late: reported with an end time three days earlier, after later games were recorded.
            g.ended_at = Millis(g.ended_at.0 - 3 * Millis::DAY.0);
        }
        if n % 5 == 0 {
            let late = n % 500 == 5 && n >= 500;
            g.tournament = Some(format!("t{}", n / 500 - usize::from(late)));
        }
        let at = Millis(games[n].ended_at.0 + 1);
        inputs.push(RatingInput { at, command: RatingCommand::RecordGame(g) });
        if n % 500 == 499 {
            inputs.push(RatingInput {
                at,
                command: RatingCommand::CloseTournament { tournament: format!("t{}", n / 500) },
            });
        }
        if n % 50 == 7 {
            inputs.push(RatingInput { at: Millis(at.0 + 4 * Millis::DAY.0), command: RatingCommand::ClosePeriods });
        }
        if n % 31 == 0 {
            inputs.push(RatingInput { at, command: RatingCommand::ClosePeriods });
        }
    }
    inputs
}

#[test]
fn recompute_equals_the_live_path_for_every_system() {
    let games = synthetic_history(4_000, 120, 7);
    let inputs = inputs_with_ticks(&games);
    for system in systems() {
        let (live_book, log) = live(&system, &inputs);
        let recomputed = recompute(system.clone(), &inputs).expect("recompute");
        assert_same(&live_book, &recomputed);
        // Replaying the stored events (a restarted service) gives the same book again.
        assert_same(&live_book, &replay(system.clone(), &log));
        // And views agree at any later time.
        let later = Millis(games.last().unwrap().ended_at.0 + 30 * Millis::DAY.0);
        for (p, _) in live_book.iter() {
            assert_eq!(live_book.view(p, later), recomputed.view(p, later));
        }
    }
}

#[test]
fn recompute_from_games_alone_equals_recording_each_game_as_it_ends() {
    let games = synthetic_history(3_000, 80, 11);
    let inputs: Vec<RatingInput> = games.iter().cloned().map(RatingInput::game).collect();
    for system in systems() {
        let (live_book, _) = live(&system, &inputs);
        assert_same(&live_book, &recompute_games(system.clone(), &games).unwrap());
    }
}

#[test]
fn recompute_reports_the_refused_input() {
    let mut games = synthetic_history(10, 5, 1);
    games[6].id = games[2].id.clone();
    let err = recompute_games(RatingSystem::default(), &games).unwrap_err();
    assert_eq!(err.index, 6);
    assert_eq!(err.to_string(), format!("rating input 6 refused: game {} is already rated", games[2].id));
}

fn arb_game(n: usize) -> impl Strategy<Value = RatedGame> {
    (0u8..6, 0u8..5, 0u8..3, 0u8..4, 0i64..(6 * Millis::WEEK.0), 0u8..3).prop_map(move |(b, w, r, stones, at, t)| {
        let w = if w >= b { w + 1 } else { w };
        RatedGame {
            id: GameId(format!("g{n}")),
            black: PlayerId(format!("p{b}")),
            white: PlayerId(format!("p{w}")),
            result: [RatedResult::BlackWins, RatedResult::WhiteWins, RatedResult::Jigo][usize::from(r)],
            conditions: if stones < 2 { GameConditions::even() } else { GameConditions::handicap(stones) },
            ended_at: Millis(at),
            tournament: [None, Some("ta"), Some("tb")][usize::from(t)].map(str::to_owned),
        }
    })
}

fn arb_inputs() -> impl Strategy<Value = Vec<RatingInput>> {
    (1usize..60)
        .prop_flat_map(|len| {
            let games: Vec<_> = (0..len).map(arb_game).collect();
            (games, proptest::collection::vec(0u8..5, len))
        })
        .prop_map(|(games, ticks)| {
            let mut now = 0;
            let mut inputs = Vec::new();
            for (g, tick) in games.into_iter().zip(ticks) {
                now = now.max(g.ended_at.0);
                inputs.push(RatingInput { at: Millis(now), command: RatingCommand::RecordGame(g) });
                match tick {
                    1 => {
                        now += Millis::WEEK.0 / 2;
                        inputs.push(RatingInput { at: Millis(now), command: RatingCommand::ClosePeriods });
                    }
                    2 | 3 => {
                        let tournament = if tick == 2 { "ta" } else { "tb" }.to_owned();
                        inputs.push(RatingInput {
                            at: Millis(now),
                            command: RatingCommand::CloseTournament { tournament },
                        });
                    }
                    _ => {}
                }
            }
            inputs
        })
}

proptest! {
    #[test]
    fn any_history_recomputes_to_the_live_book(inputs in arb_inputs()) {
        for system in systems() {
            let (live_book, _) = live(&system, &inputs);
            assert_same(&live_book, &recompute(system, &inputs).unwrap());
        }
    }
}

/// A game's result corrected after later games were rated on it: every rating equals the book rebuilt
/// as if the game had always had the corrected result (the game re-rated, and every later game, in
/// order); the correction's events carry exactly the players whose ratings changed, and folding them
/// gives those ratings.
#[test]
fn a_corrected_game_is_re_rated_and_every_later_game_after_it() {
    let games = synthetic_history(600, 40, 5);
    let inputs = inputs_with_ticks(&games);
    for system in systems() {
        let (book, _) = live(&system, &inputs);
        // The 100th game's winner was the other player; the 200th was a forfeit (not rated).
        let mut flipped = games[100].clone();
        flipped.result = match flipped.result {
            RatedResult::BlackWins => RatedResult::WhiteWins,
            _ => RatedResult::BlackWins,
        };
        let at = Millis(games.last().unwrap().ended_at.0 + 1);
        let events = weiqi_rating::decide_correction(&book, &inputs, &flipped.id, Some(&flipped), at).unwrap();
        let [RatingEvent::GameCorrected { updates, .. }] = events.as_slice() else { panic!("{events:?}") };
        assert!(!updates.is_empty(), "{}: ratings follow the corrected result", system.name());
        let mut after = book.clone();
        for e in &events {
            after.evolve(e);
        }
        let mut corrected = inputs.clone();
        corrected.push(RatingInput {
            at,
            command: RatingCommand::CorrectGame { game: flipped.id.clone(), rated: Some(flipped.clone()) },
        });
        let rebuilt = recompute(system.clone(), &corrected).unwrap();
        // The same book as if the game had always had the corrected result.
        let always: Vec<RatingInput> = inputs
            .iter()
            .map(|i| match &i.command {
                RatingCommand::RecordGame(g) if g.id == flipped.id => {
                    RatingInput { at: i.at, command: RatingCommand::RecordGame(flipped.clone()) }
                }
                _ => i.clone(),
            })
            .collect();
        assert_same(&rebuilt, &recompute(system.clone(), &always).unwrap());
        for ((p, mine), (q, theirs)) in after.iter().zip(rebuilt.iter()) {
            assert_eq!(p, q);
            assert!(mine.same_bits(theirs), "{}: {p} {mine:?} vs {theirs:?}", system.name());
        }
        // A game found a forfeit counts no more: its players keep their place, the game is gone.
        let forfeit = games[200].id.clone();
        let mut dropped = corrected.clone();
        dropped.push(RatingInput { at, command: RatingCommand::CorrectGame { game: forfeit.clone(), rated: None } });
        let without = recompute(system.clone(), &dropped).unwrap();
        assert_eq!(without.game_count() + 1, rebuilt.game_count());
        assert!(!without.has_game(&forfeit));
        assert_eq!(without.player_count(), rebuilt.player_count());
    }
}
