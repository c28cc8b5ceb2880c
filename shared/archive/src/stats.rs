//! The statistics analysts ask of a collection of games: win rate by colour, komi, handicap and rank
//! difference; the distribution of game lengths; the most common first moves and three-move
//! openings, each counted once whatever its orientation (the eight symmetries of the board); and
//! results by reason.
//!
//! Pure: [`Stats::add`] takes one game's [`GameFacts`] at a time (so a million games stream
//! through in constant memory apart from the opening tallies), [`Stats::finish`] gives the
//! [`Report`]. Conventions:
//! * A game counts for a colour when that colour won; draws and games without a winner (void,
//!   unknown `RE`) are counted apart, and win rates are over decided games.
//! * Even games are those with at most one handicap stone.
//! * Rank difference is Black's rank minus White's in grades (1 kyu to 1 dan is one grade); it is
//!   counted only when both ranks read as amateur ranks (`5k`, `3d`, `5级`, `3段`).
//! * Openings are taken from even games only (in a handicap game Black's stones are placed, not
//!   played); a pass in the first three moves leaves the game out of the three-move count.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use weiqi_rules::Point;

use crate::game::{ArchivedGame, ArchivedMove, Reason, Winner};

/// Game lengths are counted in buckets of this many moves.
pub const LENGTH_BUCKET: u32 = 50;

/// The bucket of game lengths that starts at `from`, as its moves (`50–99`).
#[must_use]
pub fn length_bucket(from: u32) -> String {
    format!("{from}–{}", from + LENGTH_BUCKET - 1)
}

/// What statistics need of one game.
#[derive(Clone, Copy, Debug)]
pub struct GameFacts<'a> {
    /// Board size.
    pub size: u8,
    /// Komi in half points, if known.
    pub komi_halves: Option<i32>,
    /// Handicap stones.
    pub handicap: u8,
    /// Ranks as written.
    pub black_rank: &'a str,
    /// White's rank as written.
    pub white_rank: &'a str,
    /// Who won.
    pub winner: Winner,
    /// How.
    pub reason: Reason,
    /// The moves.
    pub moves: &'a [ArchivedMove],
}

impl ArchivedGame {
    /// The game as statistics see it.
    #[must_use]
    pub fn facts(&self) -> GameFacts<'_> {
        GameFacts {
            size: self.size,
            komi_halves: self.komi_halves,
            handicap: self.handicap,
            black_rank: &self.black.1,
            white_rank: &self.white.1,
            winner: self.winner,
            reason: self.reason,
            moves: &self.moves,
        }
    }
}

/// Wins by colour in a group of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Won by Black.
    pub black: u64,
    /// Won by White.
    pub white: u64,
    /// Jigo.
    pub draws: u64,
    /// No winner known.
    pub unknown: u64,
}

impl Tally {
    fn add(&mut self, w: Winner) {
        self.games += 1;
        match w {
            Winner::Black => self.black += 1,
            Winner::White => self.white += 1,
            Winner::Draw => self.draws += 1,
            Winner::None => self.unknown += 1,
        }
    }

    /// Black's share of the decided games (wins by either colour), if any.
    #[must_use]
    pub fn black_rate(&self) -> Option<f64> {
        let decided = self.black + self.white;
        (decided > 0).then(|| self.black as f64 / decided as f64)
    }
}

/// A rank as a number of grades (1k = 0, 1d = 1, 5k = −4), for amateur ranks only.
#[must_use]
pub fn grade(rank: &str) -> Option<i32> {
    let r = rank.trim().to_lowercase();
    let digits: String = r.chars().take_while(char::is_ascii_digit).collect();
    let n: i32 = digits.parse().ok()?;
    let rest = r[digits.len()..].trim();
    match rest.chars().next()? {
        'k' | '级' => (1..=30).contains(&n).then_some(1 - n),
        'd' | '段' => (1..=9).contains(&n).then_some(n),
        _ => None,
    }
}

/// The eight symmetries of an n×n board.
fn transform(t: u8, n: u8, p: Point) -> Point {
    let m = n - 1;
    let (x, y) = (p.x, p.y);
    let (x, y) = match t {
        0 => (x, y),
        1 => (m - x, y),
        2 => (x, m - y),
        3 => (m - x, m - y),
        4 => (y, x),
        5 => (m - y, x),
        6 => (y, m - x),
        _ => (m - y, m - x),
    };
    Point { x, y }
}

/// The orientation of `points` that sorts first, written as SGF coordinates (`pd,dp,pp`).
#[must_use]
pub fn canonical(size: u8, points: &[Point]) -> String {
    (0..8)
        .map(|t| points.iter().map(|&p| transform(t, size, p).to_sgf()).collect::<Vec<_>>().join(","))
        .min()
        .unwrap_or_default()
}

/// The running tallies.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    all: Tally,
    even: Tally,
    by_komi: BTreeMap<Option<i32>, Tally>,
    by_handicap: BTreeMap<u8, Tally>,
    by_rank_difference: BTreeMap<i32, Tally>,
    lengths: BTreeMap<u32, u64>,
    first_moves: HashMap<(u8, String), u64>,
    openings: HashMap<(u8, String), u64>,
    by_reason: BTreeMap<Reason, u64>,
    moves: u64,
}

/// One row of a frequency table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Frequency {
    /// Board size.
    pub size: u8,
    /// The moves in SGF coordinates, in the orientation that sorts first.
    pub moves: String,
    /// Games.
    pub games: u64,
}

/// A tally with its key, for the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row<K> {
    /// The group.
    pub key: K,
    /// Its games.
    #[serde(flatten)]
    pub tally: Tally,
    /// Black's share of the decided games.
    pub black_rate: Option<f64>,
}

/// What [`Stats::finish`] gives.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Games counted.
    pub games: u64,
    /// Moves counted.
    pub moves: u64,
    /// All games by winning colour.
    pub colour: Row<&'static str>,
    /// Even games (at most one handicap stone) by winning colour.
    pub even: Row<&'static str>,
    /// By komi in points (`none`: not given).
    pub komi: Vec<Row<String>>,
    /// By handicap stones.
    pub handicap: Vec<Row<u8>>,
    /// By rank difference (Black − White, in grades), where both ranks read.
    pub rank_difference: Vec<Row<i32>>,
    /// Game lengths: (first move number of the bucket, games).
    pub lengths: Vec<(u32, u64)>,
    /// The most common first moves (even games).
    pub first_moves: Vec<Frequency>,
    /// The most common three-move openings (even games).
    pub openings: Vec<Frequency>,
    /// Results by reason.
    pub reasons: Vec<(&'static str, u64)>,
}

fn row<K>(key: K, tally: Tally) -> Row<K> {
    Row { key, black_rate: tally.black_rate(), tally }
}

fn top(map: HashMap<(u8, String), u64>, n: usize) -> Vec<Frequency> {
    let mut v: Vec<Frequency> =
        map.into_iter().map(|((size, moves), games)| Frequency { size, moves, games }).collect();
    v.sort_by(|a, b| b.games.cmp(&a.games).then(a.size.cmp(&b.size)).then(a.moves.cmp(&b.moves)));
    v.truncate(n);
    v
}

impl Stats {
    /// Counts one game.
    pub fn add(&mut self, g: &GameFacts<'_>) {
        self.all.add(g.winner);
        self.moves += g.moves.len() as u64;
        let even = g.handicap <= 1;
        if even {
            self.even.add(g.winner);
        }
        self.by_komi.entry(g.komi_halves).or_default().add(g.winner);
        self.by_handicap.entry(g.handicap).or_default().add(g.winner);
        if let (Some(b), Some(w)) = (grade(g.black_rank), grade(g.white_rank)) {
            self.by_rank_difference.entry(b - w).or_default().add(g.winner);
        }
        let bucket = (g.moves.len() as u32 / LENGTH_BUCKET) * LENGTH_BUCKET;
        *self.lengths.entry(bucket).or_default() += 1;
        *self.by_reason.entry(g.reason).or_default() += 1;
        if even {
            let opening: Vec<Point> = g.moves.iter().take(3).map_while(|m| m.point).collect();
            if let Some(&first) = opening.first() {
                *self.first_moves.entry((g.size, canonical(g.size, &[first]))).or_default() += 1;
            }
            if opening.len() == 3 {
                *self.openings.entry((g.size, canonical(g.size, &opening))).or_default() += 1;
            }
        }
    }

    /// The report, with the `n` most common first moves and openings.
    #[must_use]
    pub fn finish(self, n: usize) -> Report {
        let komi = |k: Option<i32>| match k {
            Some(h) => format!("{}", f64::from(h) / 2.0),
            None => "none".to_string(),
        };
        Report {
            games: self.all.games,
            moves: self.moves,
            colour: row("all", self.all),
            even: row("even", self.even),
            komi: self.by_komi.into_iter().map(|(k, t)| row(komi(k), t)).collect(),
            handicap: self.by_handicap.into_iter().map(|(k, t)| row(k, t)).collect(),
            rank_difference: self.by_rank_difference.into_iter().map(|(k, t)| row(k, t)).collect(),
            lengths: self.lengths.into_iter().collect(),
            first_moves: top(self.first_moves, n),
            openings: top(self.openings, n),
            reasons: self.by_reason.into_iter().map(|(r, n)| (r.name(), n)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weiqi_rules::Color;

    #[test]
    fn ranks_read_as_grades() {
        assert_eq!(grade("1k"), Some(0));
        assert_eq!(grade("1d"), Some(1));
        assert_eq!(grade("5K"), Some(-4));
        assert_eq!(grade("3段"), Some(3));
        assert_eq!(grade("10级"), Some(-9));
        assert_eq!(grade("9p"), None);
        assert_eq!(grade(""), None);
    }

    /// The corner star point in all eight orientations is one opening.
    #[test]
    fn the_eight_orientations_count_as_one() {
        let p = |s: &str| Point::from_sgf(s.as_bytes()).unwrap();
        let stars: Vec<String> = ["pd", "dp", "pp", "dd"].iter().map(|s| canonical(19, &[p(s)])).collect();
        assert!(stars.iter().all(|s| s == &stars[0]), "{stars:?}");
        // A diagonal and a parallel opening differ.
        assert_ne!(canonical(19, &[p("pd"), p("dp")]), canonical(19, &[p("pd"), p("dd")]));
        // The same sequence mirrored is the same.
        assert_eq!(canonical(19, &[p("pd"), p("dp"), p("pq")]), canonical(19, &[p("dd"), p("pp"), p("dq")]));
    }

    #[test]
    fn tallies_count_decided_games() {
        let mv = |c: Color, s: &str| ArchivedMove { color: c, point: Point::from_sgf(s.as_bytes()), captures: 0 };
        let moves = [mv(Color::Black, "pd"), mv(Color::White, "dp"), mv(Color::Black, "pq")];
        let facts = |winner, handicap| GameFacts {
            size: 19,
            komi_halves: Some(13),
            handicap,
            black_rank: "2d",
            white_rank: "3d",
            winner,
            reason: Reason::Resignation,
            moves: &moves,
        };
        let mut s = Stats::default();
        s.add(&facts(Winner::Black, 0));
        s.add(&facts(Winner::White, 0));
        s.add(&facts(Winner::Black, 2));
        s.add(&facts(Winner::None, 0));
        let r = s.finish(5);
        assert_eq!((r.colour.tally.black, r.colour.tally.white, r.colour.tally.unknown), (2, 1, 1));
        assert_eq!(r.colour.black_rate, Some(2.0 / 3.0));
        assert_eq!(r.even.tally.games, 3);
        assert_eq!(r.rank_difference, vec![row(-1, Tally { games: 4, black: 2, white: 1, draws: 0, unknown: 1 })]);
        assert_eq!(r.komi[0].key, "6.5");
        assert_eq!(r.first_moves[0].games, 3, "handicap games are left out of openings");
        assert_eq!(r.lengths, vec![(0, 4)]);
        assert_eq!(r.reasons, vec![("resignation", 4)]);
    }
}
