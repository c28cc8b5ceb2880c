//! Each rating system reproduces its published reference numbers.

use weiqi_rating::{
    EgfSettings, EloSettings, GameConditions, GameId, Glicko2Settings, Millis, PlayerId, RatedGame, RatedResult,
    RatingBook, RatingCommand, RatingEvent, RatingSystem, decide,
};

fn run(book: &mut RatingBook, command: RatingCommand, now: Millis) {
    let events = decide(book, &command, now).expect("command accepted");
    for e in &events {
        book.evolve(e);
    }
}

fn seed(book: &mut RatingBook, player: &str, rating: f64, deviation: Option<f64>) {
    run(book, RatingCommand::Seed { player: PlayerId::from(player), rating, deviation }, Millis(0));
}

fn game(id: &str, black: &str, white: &str, result: RatedResult, conditions: GameConditions, at: i64) -> RatedGame {
    RatedGame {
        id: GameId::from(id),
        black: PlayerId::from(black),
        white: PlayerId::from(white),
        result,
        conditions,
        ended_at: Millis(at),
        tournament: None,
    }
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

/// Glickman, "Example of the Glicko-2 system" (glicko2.pdf): a player rated 1500, RD 200, σ 0.06 plays
/// three games in one period: beats a 1400 (RD 30), loses to a 1550 (RD 100) and to a 1700 (RD 300).
/// With τ = 0.5 the paper gets r′ = 1464.06, RD′ = 151.52, σ′ = 0.05999.
#[test]
fn glicko2_reproduces_glickmans_worked_example() {
    let settings = Glicko2Settings::default();
    assert_eq!(settings.tau, 0.5);
    let period = settings.period_length.0;
    let mut book = RatingBook::new(RatingSystem::Glicko2(settings));
    seed(&mut book, "player", 1500.0, Some(200.0));
    seed(&mut book, "a", 1400.0, Some(30.0));
    seed(&mut book, "b", 1550.0, Some(100.0));
    seed(&mut book, "c", 1700.0, Some(300.0));
    let even = GameConditions::even();
    // Color does not matter in an even game; the player takes Black twice and White once.
    let games = [
        game("g1", "player", "a", RatedResult::BlackWins, even, 10),
        game("g2", "b", "player", RatedResult::BlackWins, even, 20),
        game("g3", "player", "c", RatedResult::WhiteWins, even, 30),
    ];
    for g in games {
        run(&mut book, RatingCommand::RecordGame(g), Millis(100));
    }
    // Nothing is stored until the period closes; the provisional rating (as if it closed now) is
    // what the close will make final.
    assert_eq!(book.stored(&"player".into()).unwrap().rating, 1500.0);
    let (provisional, open) = book.view_now(&"player".into(), Millis(200)).unwrap();
    assert!(open && provisional.provisional && provisional.games == 3, "{provisional:?}");
    assert!(close(provisional.rating, 1464.06, 0.01), "provisional rating {}", provisional.rating);
    assert!(book.provisional(&["nobody".into()]).is_empty());
    run(&mut book, RatingCommand::ClosePeriods, Millis(period));
    assert!(book.provisional(&["player".into()]).is_empty(), "no open period: no provisional rating");
    let r = book.stored(&"player".into()).unwrap();
    assert_eq!(r.rating, provisional.rating, "the close makes the provisional rating final");
    assert!(close(r.rating, 1464.06, 0.01), "rating {}", r.rating);
    assert!(close(r.deviation, 151.52, 0.01), "deviation {}", r.deviation);
    assert!(close(r.volatility, 0.05999, 0.00001), "volatility {}", r.volatility);
    assert_eq!(r.games, 3);
}

/// EGF GoR (2021), as published by the EGF:
///   r′ = r + con·(Sa − Se) + bonus
///   con = ((3300 − r)/200)^1.6          bonus = ln(1 + e^((2300 − r)/80)) / 5
///   Se = 1 / (1 + e^(β(r₂) − β(r₁)))      β(r) = −7·ln(3300 − r)
///   a handicap of h stones raises the receiver's rating by 100·(h − 0.5) inside β.
/// The expected values below were worked through by hand from those lines (6 decimals).
#[test]
fn egf_gor_hand_computed_cases() {
    struct Case {
        black: f64,
        white: f64,
        result: RatedResult,
        conditions: GameConditions,
        black_after: f64,
        white_after: f64,
    }
    let cases = [
        // Even game, 1000 beats 1300:
        //   β(1000) = −7·ln 2300, β(1300) = −7·ln 2000; Se = 1/(1 + (2300/2000)^7) = 0.273223
        //   con(1000) = 11.5^1.6 = 49.787067, bonus(1000) = ln(1 + e^16.25)/5 = 3.250000
        //   1000 + 49.787067·(1 − 0.273223) + 3.25 = 1039.434117
        //   con(1300) = 10^1.6 = 39.810717, bonus(1300) = ln(1 + e^12.5)/5 = 2.500001
        //   1300 + 39.810717·(0 − 0.726777) + 2.500001 = 1273.566470
        Case {
            black: 1000.0,
            white: 1300.0,
            result: RatedResult::BlackWins,
            conditions: GameConditions::even(),
            black_after: 1039.434117,
            white_after: 1273.566470,
        },
        // Two stones, 0.5 komi (h = 2: Black counts as 1800 + 100·1.5 = 1950), White 2050 wins:
        //   Se(Black) = 1/(1 + (1350/1250)^7) = 0.368484
        //   1800 + 25.124534·(0 − 0.368484) + 1.250386 = 1791.992404
        //   2050 + 18.767569·(1 − 0.631516) + 0.633600 = 2057.549143
        Case {
            black: 1800.0,
            white: 2050.0,
            result: RatedResult::WhiteWins,
            conditions: GameConditions::handicap(2),
            black_after: 1791.992404,
            white_after: 2057.549143,
        },
        // Jigo between 2100 and 2400: Se(2100) = 1/(1 + (1200/900)^7) = 0.117764
        //   2100 + 17.580936·(0.5 − 0.117764) + 0.515778 = 2107.235840
        //   2400 + 11.095325·(0.5 − 0.882236) + 0.050386 = 2395.809356
        Case {
            black: 2100.0,
            white: 2400.0,
            result: RatedResult::Jigo,
            conditions: GameConditions::even(),
            black_after: 2107.235840,
            white_after: 2395.809356,
        },
        // Near the floor: −850 loses to −800; −850 + 128.005598·(0 − 0.478800) + 7.875 = −903.414 → −900,
        // the lowest GoR the EGF allows; −800 + 125.546953·(1 − 0.521200) + 7.75 = −732.138077.
        Case {
            black: -850.0,
            white: -800.0,
            result: RatedResult::WhiteWins,
            conditions: GameConditions::even(),
            black_after: -900.0,
            white_after: -732.138077,
        },
    ];
    for (n, c) in cases.iter().enumerate() {
        let mut book = RatingBook::new(RatingSystem::Egf(EgfSettings::default()));
        seed(&mut book, "b", c.black, None);
        seed(&mut book, "w", c.white, None);
        let g = game(&format!("g{n}"), "b", "w", c.result, c.conditions, 1);
        run(&mut book, RatingCommand::RecordGame(g), Millis(1));
        let b = book.stored(&"b".into()).unwrap().rating;
        let w = book.stored(&"w".into()).unwrap().rating;
        assert!(close(b, c.black_after, 1e-5), "case {n}: black {b} want {}", c.black_after);
        assert!(close(w, c.white_after, 1e-5), "case {n}: white {w} want {}", c.white_after);
    }
}

/// The same formula written out in the test, over a grid, including handicaps on either side.
#[test]
fn egf_matches_the_published_formula_on_a_grid() {
    let beta = |r: f64| -7.0 * (3300.0 - r).ln();
    let con = |r: f64| ((3300.0 - r) / 200.0).powf(1.6);
    let bonus = |r: f64| ((2300.0 - r) / 80.0).exp().ln_1p() / 5.0;
    let mut n = 0;
    for black in [100.0, 900.0, 1500.0, 2100.0, 2650.0] {
        for white in [300.0, 1200.0, 2000.0, 2700.0] {
            for stones in [0u8, 2, 5, 9] {
                for result in [RatedResult::BlackWins, RatedResult::WhiteWins, RatedResult::Jigo] {
                    n += 1;
                    let conditions =
                        if stones == 0 { GameConditions::even() } else { GameConditions::handicap(stones) };
                    let shift = if stones == 0 { 0.0 } else { 100.0 * (f64::from(stones) - 0.5) };
                    let se_black = 1.0 / (1.0 + (beta(white) - beta(black + shift)).exp());
                    let sa_black = match result {
                        RatedResult::BlackWins => 1.0,
                        RatedResult::WhiteWins => 0.0,
                        RatedResult::Jigo => 0.5,
                    };
                    let want_b = (black + con(black) * (sa_black - se_black) + bonus(black)).max(-900.0);
                    let want_w =
                        (white + con(white) * ((1.0 - sa_black) - (1.0 - se_black)) + bonus(white)).max(-900.0);
                    let mut book = RatingBook::new(RatingSystem::Egf(EgfSettings::default()));
                    seed(&mut book, "b", black, None);
                    seed(&mut book, "w", white, None);
                    run(&mut book, RatingCommand::RecordGame(game("g", "b", "w", result, conditions, 1)), Millis(1));
                    let b = book.stored(&"b".into()).unwrap().rating;
                    let w = book.stored(&"w".into()).unwrap().rating;
                    assert!(
                        close(b, want_b, 1e-9) && close(w, want_w, 1e-9),
                        "{black} {white} {stones} {result:?}: {b} {w} want {want_b} {want_w}"
                    );
                }
            }
        }
    }
    assert_eq!(n, 5 * 4 * 4 * 3);
}

/// EGF rates a tournament as the EGD does: given three seeded players and a tournament's games
/// (one a three-stone handicap game), when games are recorded nothing changes; when the tournament
/// closes, each player's new GoR is the old one plus the sum over their games of
/// `con(R)·(S − Se) + bonus(R)`, every `Se` from the opponents' GoR *before* the tournament.
#[test]
fn egf_rates_a_tournament_from_the_ratings_before_it() {
    let beta = |r: f64| -7.0 * (3300.0 - r).ln();
    let con = |r: f64| ((3300.0 - r) / 200.0).powf(1.6);
    let bonus = |r: f64| ((2300.0 - r) / 80.0).exp().ln_1p() / 5.0;
    let se = |me: f64, other: f64| 1.0 / (1.0 + (beta(other) - beta(me)).exp());
    let (a, b, c) = (1000.0, 1200.0, 800.0);
    let mut book = RatingBook::new(RatingSystem::Egf(EgfSettings::default()));
    for (p, r) in [("a", a), ("b", b), ("c", c)] {
        seed(&mut book, p, r, None);
    }
    let cup = |mut g: RatedGame| {
        g.tournament = Some("cup".into());
        g
    };
    // Round 1: a (Black) beats b. Round 2: c (Black, three stones, 0.5 komi) beats a. Round 3: b beats c.
    let games = [
        cup(game("r1", "a", "b", RatedResult::BlackWins, GameConditions::even(), 1)),
        cup(game("r2", "c", "a", RatedResult::BlackWins, GameConditions::handicap(3), 2)),
        cup(game("r3", "b", "c", RatedResult::BlackWins, GameConditions::even(), 3)),
    ];
    for g in &games {
        let events = decide(&book, &RatingCommand::RecordGame(g.clone()), Millis(10)).unwrap();
        assert!(matches!(events.as_slice(), [RatingEvent::TournamentGameQueued { .. }]), "{events:?}");
        for e in &events {
            book.evolve(e);
        }
    }
    assert_eq!(book.stored(&"a".into()).unwrap().rating, a, "nothing is rated before the tournament ends");
    assert_eq!(book.pending_games(&"a".into()), 2);
    assert_eq!(book.open_tournaments().collect::<Vec<_>>(), ["cup"]);
    // A seed for a player with waiting games is refused.
    assert!(
        decide(&book, &RatingCommand::Seed { player: "c".into(), rating: 0.0, deviation: None }, Millis(10)).is_err()
    );

    let close_cup = RatingCommand::CloseTournament { tournament: "cup".into() };
    run(&mut book, close_cup.clone(), Millis(20));
    // Three stones with 0.5 komi: the receiver counts 100·(3 − 0.5) = 250 points stronger.
    let h = 250.0;
    let want_a = a + con(a) * (1.0 - se(a, b)) + bonus(a) + con(a) * (0.0 - se(a, c + h)) + bonus(a);
    let want_b = b + con(b) * (0.0 - se(b, a)) + bonus(b) + con(b) * (1.0 - se(b, c)) + bonus(b);
    let want_c = c + con(c) * (1.0 - se(c + h, a)) + bonus(c) + con(c) * (0.0 - se(c, b)) + bonus(c);
    for (p, want) in [("a", want_a), ("b", want_b), ("c", want_c)] {
        let r = book.stored(&p.into()).unwrap();
        assert!(close(r.rating, want, 1e-9), "{p}: {} want {want}", r.rating);
        assert_eq!(r.games, 2, "{p}");
    }
    // Game by game, a would have met c with the rating won in round 1: the tournament way differs.
    let mut one_by_one =
        RatingBook::new(RatingSystem::Egf(EgfSettings { rate_by_tournament: false, ..EgfSettings::default() }));
    for (p, r) in [("a", a), ("b", b), ("c", c)] {
        seed(&mut one_by_one, p, r, None);
    }
    for g in &games {
        run(&mut one_by_one, RatingCommand::RecordGame(g.clone()), Millis(10));
    }
    let sequential = one_by_one.stored(&"a".into()).unwrap().rating;
    assert!((sequential - want_a).abs() > 0.01, "{sequential} vs {want_a}");

    // Closing again does nothing; a late result of the closed tournament is rated on its own.
    assert!(decide(&book, &close_cup, Millis(30)).unwrap().is_empty());
    let late = cup(game("r4", "a", "c", RatedResult::WhiteWins, GameConditions::even(), 25));
    let events = decide(&book, &RatingCommand::RecordGame(late), Millis(30)).unwrap();
    assert!(matches!(events.as_slice(), [RatingEvent::GameRated { .. }]), "{events:?}");
    // Under Elo (and Glicko-2) closing a tournament is a no-op.
    let elo = RatingBook::new(RatingSystem::Elo(EloSettings::default()));
    assert!(decide(&elo, &close_cup, Millis(30)).unwrap().is_empty());
}

/// Elo: 1500 beats 1500 with K = 32: +16 / −16. A 150-point handicap (two stones, 0.5 komi: 1.5 ranks at
/// 100 points per rank) makes 1400 against 1550 an even bet, so the winner again gains exactly 16.
#[test]
fn elo_reference_and_handicap_offset() {
    let mut book = RatingBook::new(RatingSystem::Elo(EloSettings::default()));
    seed(&mut book, "a", 1500.0, None);
    seed(&mut book, "b", 1500.0, None);
    run(
        &mut book,
        RatingCommand::RecordGame(game("g1", "a", "b", RatedResult::BlackWins, GameConditions::even(), 1)),
        Millis(1),
    );
    assert!(close(book.stored(&"a".into()).unwrap().rating, 1516.0, 1e-9));
    assert!(close(book.stored(&"b".into()).unwrap().rating, 1484.0, 1e-9));

    let mut book = RatingBook::new(RatingSystem::Elo(EloSettings::default()));
    seed(&mut book, "weak", 1400.0, None);
    seed(&mut book, "strong", 1550.0, None);
    run(
        &mut book,
        RatingCommand::RecordGame(game("g2", "weak", "strong", RatedResult::BlackWins, GameConditions::handicap(2), 1)),
        Millis(1),
    );
    assert!(close(book.stored(&"weak".into()).unwrap().rating, 1416.0, 1e-9));
    assert!(close(book.stored(&"strong".into()).unwrap().rating, 1534.0, 1e-9));
}

/// Glicko-2 with handicap: the receiver's expected score rises, so winning earns less and losing costs less.
#[test]
fn glicko2_handicap_lowers_the_gain_of_the_receiver() {
    let gain = |conditions: GameConditions| {
        let mut book = RatingBook::new(RatingSystem::Glicko2(Glicko2Settings::default()));
        seed(&mut book, "weak", 1400.0, Some(80.0));
        seed(&mut book, "strong", 1700.0, Some(80.0));
        run(
            &mut book,
            RatingCommand::RecordGame(game("g", "weak", "strong", RatedResult::BlackWins, conditions, 5)),
            Millis(5),
        );
        run(&mut book, RatingCommand::ClosePeriods, Millis::WEEK);
        book.stored(&"weak".into()).unwrap().rating - 1400.0
    };
    let even = gain(GameConditions::even());
    let three = gain(GameConditions::handicap(3));
    assert!(even > three && three > 0.0, "even {even}, three stones {three}");
}

/// Issue 15 item 10: a two-stone game under Chinese rules (0.5 komi, White gets the two stones back)
/// counts the receiver 100 · (2 − 0.5) = 150 GoR stronger, as the EGD does; the effective-handicap
/// model (a named option) counts 135.7, since it prices the compensation.
#[test]
fn egf_handicap_games_count_as_the_egd_counts_them() {
    use weiqi_rating::EgfHandicap;
    let beta = |r: f64| -7.0 * (3300.0 - r).ln();
    let con = |r: f64| ((3300.0 - r) / 200.0).powf(1.6);
    let bonus = |r: f64| ((2300.0 - r) / 80.0).exp().ln_1p() / 5.0;
    let chinese_two = GameConditions { stones: 2, komi: 0.5, standard_komi: 7.5, compensation: 2.0 };
    let no_komi = GameConditions { stones: 0, komi: 0.5, standard_komi: 7.5, compensation: 0.0 };
    let (black, white) = (1500.0, 1700.0);
    let cases = [
        (EgfHandicap::Egd, chinese_two, 150.0),
        (EgfHandicap::Effective, chinese_two, 100.0 * (1.0 + 5.0 / 14.0)),
        (EgfHandicap::Egd, no_komi, 50.0),
        (EgfHandicap::Egd, GameConditions::even(), 0.0),
        (EgfHandicap::Egd, GameConditions::handicap(9), 850.0),
    ];
    assert_eq!(EgfSettings::default().handicap, EgfHandicap::Egd, "EGD compatibility is the default");
    for (model, conditions, shift) in cases {
        let se_black = 1.0 / (1.0 + (beta(white) - beta(black + shift)).exp());
        let want_b = black + con(black) * (1.0 - se_black) + bonus(black);
        let settings = EgfSettings { handicap: model, rate_by_tournament: false, ..EgfSettings::default() };
        let mut book = RatingBook::new(RatingSystem::Egf(settings));
        seed(&mut book, "b", black, None);
        seed(&mut book, "w", white, None);
        let g = game("g", "b", "w", RatedResult::BlackWins, conditions, 1);
        run(&mut book, RatingCommand::RecordGame(g), Millis(1));
        let b = book.stored(&"b".into()).unwrap().rating;
        assert!(close(b, want_b, 1e-9), "{model:?} {conditions:?}: {b}, want {want_b} (shift {shift})");
    }
}
