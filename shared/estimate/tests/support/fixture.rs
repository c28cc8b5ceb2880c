//! The agreement fixtures (written by `examples/make_fixture.rs`): final positions of real games
//! with their recorded results and GNU Go's dead stones (`tests/data/positions.txt`), and with the
//! dead stones the players agreed too (`tests/data/marked.txt`).
#![allow(dead_code)]

use std::path::Path;

use weiqi_rules::{Color, Game, Komi, Point, Ruleset, score_position};
use weiqi_sgf::RecordedResult;

/// One final position of the fixture.
pub struct Entry {
    pub name: String,
    pub game: Game,
    pub ruleset: Ruleset,
    pub to_move: Color,
    pub handicap: u8,
    pub prisoners: [u32; 2],
    pub result: RecordedResult,
    pub gnugo_dead: Vec<Point>,
    /// The stones the players marked dead (`marked.txt` only), sorted.
    pub agreed_dead: Option<Vec<Point>>,
}

impl Entry {
    /// Whether `dead` is exactly the players' dead stones (`false` without them).
    pub fn as_agreed(&self, dead: &[Point]) -> bool {
        let mut dead = dead.to_vec();
        dead.sort();
        self.agreed_dead.as_ref().is_some_and(|a| *a == dead)
    }

    /// Whether counting with `dead` removed gives exactly the recorded result.
    pub fn counts_as_recorded(&self, dead: &[Point]) -> bool {
        let Ok(count) = score_position(self.game.board(), &self.ruleset, self.prisoners, self.handicap, dead, [0, 0])
        else {
            return false;
        };
        match self.result {
            RecordedResult::Score(winner, margin) => {
                count.result.winner == Some(winner) && count.result.margin == margin
            }
            _ => false,
        }
    }
}

/// Reads a fixture file.
pub fn read(path: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(parse_line).collect()
}

fn parse_line(line: &str) -> Entry {
    let f: Vec<&str> = line.split('\t').collect();
    assert!(f.len() == 11 || f.len() == 12, "11 or 12 tab-separated fields: {line}");
    let size: u8 = f[1].parse().expect("size");
    let to_move = Color::parse(f[2]).expect("to move");
    let komi = Komi::from_points(f[4].parse().expect("komi")).expect("komi in half points");
    let ruleset = Ruleset { seated_stones: false, ..Ruleset::preset(f[3]).expect("a preset").with_komi(komi) };
    let handicap: u8 = f[5].parse().expect("handicap");
    let prisoners = [f[6].parse().expect("prisoners"), f[7].parse().expect("prisoners")];
    let result = RecordedResult::parse(f[8]).expect("a result");
    let vertices = |field: &str| -> Vec<Point> {
        if field == "-" {
            return Vec::new();
        }
        let mut v: Vec<Point> = field.split(' ').map(|v| Point::from_gtp(v, size).expect("a vertex")).collect();
        v.sort();
        v
    };
    let gnugo_dead = vertices(f[9]);
    let agreed_dead = f.get(11).map(|field| vertices(field));
    let rows: Vec<&str> = f[10].split('/').collect();
    assert_eq!(rows.len(), size as usize, "{} rows", size);
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let p = Point::new(x as u8, y as u8);
            match ch {
                'X' => black.push(p),
                'O' => white.push(p),
                _ => {}
            }
        }
    }
    let mut game = Game::new(size, ruleset).expect("a supported size");
    game.setup(&black, &white, &[]).expect("a legal position");
    game.set_to_move(to_move);
    Entry { name: f[0].to_string(), game, ruleset, to_move, handicap, prisoners, result, gnugo_dead, agreed_dead }
}
