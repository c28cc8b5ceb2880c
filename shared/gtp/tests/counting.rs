//! `final_score` and `final_status_list` judge life and death with the estimator: positions drawn as
//! diagrams (`X` Black, `O` White, `.` empty, top row first) are set up with `play` and counted.

use weiqi_gtp::{Config, Engine};
use weiqi_rules::{Point, Ruleset};

/// An engine under `ruleset` with komi `komi` and the diagram's stones played, `to_move` next.
fn engine_with(ruleset: Ruleset, komi: &str, diagram: &str, to_move: &str) -> Engine {
    let rows: Vec<Vec<char>> = diagram
        .lines()
        .map(|l| l.split_whitespace().filter_map(|t| t.chars().next()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let size = rows.len() as u8;
    let mut engine = Engine::new(Config::new(ruleset, 0));
    for setup in [format!("boardsize {size}"), "clear_board".to_string(), format!("komi {komi}")] {
        assert!(engine.execute_line(&setup).unwrap().is_success(), "{setup}");
    }
    let mut last = None;
    for (y, row) in rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let color = match c {
                'X' => "black",
                'O' => "white",
                _ => continue,
            };
            let vertex = Point::new(x as u8, y as u8).to_gtp(size);
            assert!(engine.execute_line(&format!("play {color} {vertex}")).unwrap().is_success(), "{vertex}");
            last = Some(color);
        }
    }
    // Whoever played last, the side to move is the one asked for: a pass hands the turn over.
    let last_mover_is_next = last == Some(to_move);
    if last_mover_is_next || last.is_none() {
        let other = if to_move == "black" { "white" } else { "black" };
        assert!(engine.execute_line(&format!("play {other} pass")).unwrap().is_success());
    }
    engine
}

fn answer(engine: &mut Engine, command: &str) -> String {
    engine.execute_line(command).unwrap().result.unwrap_or_else(|e| panic!("{command}: {e}"))
}

#[test]
fn dead_stones_are_listed_and_counted_for_the_opponent() {
    let mut engine = engine_with(
        Ruleset::chinese(),
        "7.5",
        r"
        . . . . . . . . .
        . . . . . X . . .
        . . . . . . . . .
        O O O O O O O O O
        X X X X X X X X X
        . . . . . . . . .
        . . . O . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        "black",
    );
    assert_eq!(answer(&mut engine, "final_status_list dead"), "F8\nD3");
    assert_eq!(answer(&mut engine, "final_status_list seki"), "");
    assert_eq!(
        answer(&mut engine, "final_status_list alive"),
        "A6 B6 C6 D6 E6 F6 G6 H6 J6\nA5 B5 C5 D5 E5 F5 G5 H5 J5"
    );
    // Black: the wall and four rows, 45 points; White: 36; komi 7.5.
    assert_eq!(answer(&mut engine, "final_score"), "B+1.5");
}

#[test]
fn seki_stones_are_listed_apart_and_their_shared_liberties_are_dame() {
    let seki = r"
        . O X X O X .
        . O X . O X .
        . O X X O X .
        . O X . O X .
        . O X O O X .
        . O X X O X .
        . O X X O X .";
    let mut engine = engine_with(Ruleset::japanese(), "0", seki, "black");
    assert_eq!(answer(&mut engine, "final_status_list dead"), "");
    assert_eq!(
        answer(&mut engine, "final_status_list seki"),
        "C7 D7 C6 C5 D5 C4 C3 C2 D2 C1 D1\nE7 E6 E5 E4 D3 E3 E2 E1",
        "the inner chains, which share D6 and D4 and have no eye"
    );
    assert_eq!(answer(&mut engine, "final_status_list alive"), "B7 B6 B5 B4 B3 B2 B1\nF7 F6 F5 F4 F3 F2 F1");
    // Seven points each; the seki's shared liberties D6 and D4 count for nobody.
    assert_eq!(answer(&mut engine, "final_score"), "0");
}
