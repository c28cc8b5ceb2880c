//! A game record read from SGF: game information, setup, and the main line of moves, checked against
//! the rules by replaying it.

use weiqi_rules::{Color, Game, HalfPoints, Illegal, Komi, MAX_SIZE, MIN_SIZE, Move, Point, Ruleset, SetupError};

use crate::tree::{GameTree, Node, Property};

/// A value in a record that does not mean what its property needs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// `GM` is not 1: not a Go record.
    #[error("byte {offset}: GM[{value}] is not a Go record (GM[1])")]
    NotGo {
        /// Byte offset of the property.
        offset: usize,
        /// Its value.
        value: String,
    },
    /// `SZ` is not a number, or the board is not square.
    #[error("byte {offset}: SZ[{value}] is not a square board size")]
    BadSize {
        /// Byte offset of the property.
        offset: usize,
        /// Its value.
        value: String,
    },
    /// The board size is outside 2..=25.
    #[error("board size {0} is not supported (2 to 25)")]
    UnsupportedSize(u32),
    /// A point value that is not a point of this board.
    #[error("byte {offset}: {property}[{value}] is not a point on a {size}×{size} board")]
    BadPoint {
        /// Byte offset of the property.
        offset: usize,
        /// The property.
        property: String,
        /// The value.
        value: String,
        /// The board size.
        size: u8,
    },
    /// `KM` is not a komi.
    #[error("byte {offset}: KM[{value}] is not a komi")]
    BadKomi {
        /// Byte offset of the property.
        offset: usize,
        /// Its value.
        value: String,
    },
    /// `PL` is not a color.
    #[error("byte {offset}: PL[{value}] is not a color")]
    BadColor {
        /// Byte offset of the property.
        offset: usize,
        /// Its value.
        value: String,
    },
}

/// A record that does not replay under the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A move the rules refuse.
    #[error("move {move_number} ({color} {vertex}): {reason}")]
    Illegal {
        /// 1-based number of the move in the main line (passes counted).
        move_number: usize,
        /// Who played it.
        color: Color,
        /// Where.
        point: Point,
        /// The point in GTP form (`D4`).
        vertex: String,
        /// Why the rules refuse it.
        reason: Illegal,
    },
    /// Setup stones that no legal position has.
    #[error("byte {offset}: setup refused: {error}")]
    Setup {
        /// Byte offset of the node.
        offset: usize,
        /// The problem.
        error: SetupError,
    },
}

impl ReplayError {
    /// The move number, for an illegal move.
    pub fn move_number(&self) -> Option<usize> {
        match self {
            ReplayError::Illegal { move_number, .. } => Some(*move_number),
            ReplayError::Setup { .. } => None,
        }
    }
}

/// One player's game information.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Name (`PB`/`PW`).
    pub name: Option<String>,
    /// Rank (`BR`/`WR`).
    pub rank: Option<String>,
}

/// Stones added or removed outside play, and who moves next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// `AB` points.
    pub black: Vec<Point>,
    /// `AW` points.
    pub white: Vec<Point>,
    /// `AE` points.
    pub empty: Vec<Point>,
    /// `PL`.
    pub to_move: Option<Color>,
}

impl Setup {
    fn is_empty(&self) -> bool {
        self.black.is_empty() && self.white.is_empty() && self.empty.is_empty() && self.to_move.is_none()
    }
}

/// A node of the main line after the root.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveNode {
    /// Byte offset of the node in the source.
    pub offset: usize,
    /// Setup in this node, if any.
    pub setup: Option<Setup>,
    /// The move, if any.
    pub play: Option<(Color, Move)>,
    /// `C`.
    pub comment: Option<String>,
    /// `BL`/`WL`: seconds left for the player who moved.
    pub time_left: Option<f64>,
    /// `OB`/`OW`: byo-yomi periods or moves left.
    pub overtime_left: Option<u32>,
}

/// How a recorded game ended, from `RE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedResult {
    /// Won on the count by this many half points.
    Score(Color, HalfPoints),
    /// Won by resignation.
    Resign(Color),
    /// Won on time.
    Time(Color),
    /// Won by forfeit.
    Forfeit(Color),
    /// Won because the opponent tried an illegal move (CGOS, Tromp-Taylor servers).
    Illegal(Color),
    /// Won, margin or reason unknown.
    Win(Color),
    /// Drawn (jigo).
    Draw,
    /// No result, or unknown.
    Void,
}

impl RecordedResult {
    /// Parses an SGF `RE` value: `B+3.5`, `W+R`, `B+Resign`, `W+T`, `B+F`, `W+Illegal`, `0`, `Draw`,
    /// `Void`, `?`.
    pub fn parse(raw: &str) -> Option<RecordedResult> {
        let s = raw.trim();
        let lower = s.to_ascii_lowercase();
        if lower == "0" || lower == "draw" || lower == "jigo" || lower == "d" {
            return Some(RecordedResult::Draw);
        }
        if lower == "void" || lower == "?" || lower.is_empty() {
            return Some(RecordedResult::Void);
        }
        let mut chars = s.chars();
        let winner = match chars.next()?.to_ascii_uppercase() {
            'B' => Color::Black,
            'W' => Color::White,
            _ => return None,
        };
        let rest = chars.as_str();
        let Some(how) = rest.strip_prefix('+') else {
            return rest.trim().is_empty().then_some(RecordedResult::Win(winner));
        };
        let how_lower = how.trim().to_ascii_lowercase();
        Some(match how_lower.as_str() {
            "" => RecordedResult::Win(winner),
            "r" | "resign" => RecordedResult::Resign(winner),
            "t" | "time" => RecordedResult::Time(winner),
            "f" | "forfeit" => RecordedResult::Forfeit(winner),
            "illegal" => RecordedResult::Illegal(winner),
            other => match other.parse::<f64>() {
                Ok(v) if (v * 2.0).fract() == 0.0 && v >= 0.0 => {
                    RecordedResult::Score(winner, HalfPoints((v * 2.0) as i32))
                }
                _ => RecordedResult::Win(winner),
            },
        })
    }
}

/// A game record: information, root setup and the main line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    /// Board size (`SZ`, default 19).
    pub size: u8,
    /// Komi in points (`KM`), with the Fox quirks resolved (see [`parse_komi`]).
    pub komi: Option<Komi>,
    /// Handicap stones (`HA`).
    pub handicap: u8,
    /// Rules as written (`RU`).
    pub rules: Option<String>,
    /// Result as written (`RE`).
    pub result: Option<String>,
    /// Black (`PB`, `BR`).
    pub black: Player,
    /// White (`PW`, `WR`).
    pub white: Player,
    /// `DT`.
    pub date: Option<String>,
    /// `EV`.
    pub event: Option<String>,
    /// `RO`.
    pub round: Option<String>,
    /// `PC`.
    pub place: Option<String>,
    /// `GN`.
    pub game_name: Option<String>,
    /// `TM`: main time in seconds.
    pub time_limit: Option<String>,
    /// `OT`: overtime description.
    pub overtime: Option<String>,
    /// Root comment (`C`).
    pub comment: Option<String>,
    /// Root setup (`AB`, `AW`, `AE`, `PL`).
    pub setup: Setup,
    /// Main-line nodes after the root.
    pub nodes: Vec<MoveNode>,
    /// What was read leniently (the record still replays).
    pub warnings: Vec<RecordWarning>,
}

/// Something a record got wrong that reading worked around.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordWarning {
    /// `HA` is not a whole number of stones: the handicap was counted from the setup stones instead.
    #[error(
        "byte {offset}: HA[{value}] is not a number of stones; the handicap is {counted}, counted from the setup stones"
    )]
    BadHandicap {
        /// Byte offset of the property.
        offset: usize,
        /// Its value.
        value: String,
        /// The handicap counted from the root's black setup stones (0 if not a handicap setup).
        counted: u8,
    },
}

/// The handicap a root setup shows: its black stones, when there are at least two and no white ones.
fn handicap_from_setup(setup: &Setup) -> u8 {
    if setup.white.is_empty() && setup.black.len() >= 2 {
        u8::try_from(setup.black.len()).unwrap_or(u8::MAX)
    } else {
        0
    }
}

/// Parses a komi, resolving real-world quirks: Fox writes `KM[750]` for 7.5 points and `KM[375]` for
/// 3.75 stones (7.5 points); an integer of 100 or more without a decimal point is read in hundredths,
/// as points when that is a whole number of half points, else as stones. A value in quarters such as
/// `3.75` is likewise stones (Chinese komi), i.e. 7.5 points.
pub fn parse_komi(raw: &str) -> Option<Komi> {
    let s = raw.trim();
    let v: f64 = s.parse().ok()?;
    if !v.is_finite() {
        return None;
    }
    let in_hundredths = !s.contains('.') && v.abs() >= 100.0;
    let x = if in_hundredths { v / 100.0 } else { v };
    if (x * 2.0).fract() == 0.0 {
        Komi::from_points(x)
    } else if (x * 4.0).fract() == 0.0 {
        Komi::from_points(x * 2.0)
    } else {
        None
    }
}

fn parse_point_list(prop: &Property, size: u8, out: &mut Vec<Point>) -> Result<(), RecordError> {
    let bad = |v: &str| RecordError::BadPoint {
        offset: prop.offset,
        property: prop.ident.clone(),
        value: v.to_string(),
        size,
    };
    for v in &prop.values {
        if v.is_empty() {
            continue; // An empty list element (`AE[]`) names nothing.
        }
        match v.split_once(':') {
            Some((a, b)) => {
                let a = Point::from_sgf(a.as_bytes()).filter(|p| p.is_on(size)).ok_or_else(|| bad(v))?;
                let b = Point::from_sgf(b.as_bytes()).filter(|p| p.is_on(size)).ok_or_else(|| bad(v))?;
                for x in a.x.min(b.x)..=a.x.max(b.x) {
                    for y in a.y.min(b.y)..=a.y.max(b.y) {
                        out.push(Point::new(x, y));
                    }
                }
            }
            None => out.push(Point::from_sgf(v.as_bytes()).filter(|p| p.is_on(size)).ok_or_else(|| bad(v))?),
        }
    }
    Ok(())
}

fn parse_setup(node: &Node, size: u8) -> Result<Setup, RecordError> {
    let mut setup = Setup::default();
    for p in &node.properties {
        match p.ident.as_str() {
            "AB" => parse_point_list(p, size, &mut setup.black)?,
            "AW" => parse_point_list(p, size, &mut setup.white)?,
            "AE" => parse_point_list(p, size, &mut setup.empty)?,
            "PL" => {
                let v = p.values[0].trim();
                setup.to_move = Some(match v.to_ascii_uppercase().as_str() {
                    "B" | "1" | "BLACK" => Color::Black,
                    "W" | "2" | "WHITE" => Color::White,
                    _ => return Err(RecordError::BadColor { offset: p.offset, value: v.to_string() }),
                });
            }
            _ => {}
        }
    }
    Ok(setup)
}

fn parse_move(prop: &Property, size: u8) -> Result<Move, RecordError> {
    let v = prop.values[0].trim();
    if v.is_empty() || (v == "tt" && size <= 19) {
        return Ok(Move::Pass);
    }
    Point::from_sgf(v.as_bytes()).filter(|p| p.is_on(size)).map(Move::Play).ok_or_else(|| RecordError::BadPoint {
        offset: prop.offset,
        property: prop.ident.clone(),
        value: v.to_string(),
        size,
    })
}

impl Record {
    /// Reads the game information and main line of one game tree.
    pub fn from_tree(tree: &GameTree) -> Result<Record, RecordError> {
        let root = tree.root();
        let text = |id: &str| root.value(id).map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        if let Some(p) = root.get("GM") {
            let v = p.values[0].trim();
            if !v.is_empty() && v != "1" {
                return Err(RecordError::NotGo { offset: p.offset, value: v.to_string() });
            }
        }
        let size = match root.get("SZ") {
            None => 19,
            Some(p) => {
                let v = p.values[0].trim();
                let bad = || RecordError::BadSize { offset: p.offset, value: v.to_string() };
                let n: u32 = match v.split_once(':') {
                    Some((a, b)) if a.trim() == b.trim() => a.trim().parse().map_err(|_| bad())?,
                    Some(_) => return Err(bad()),
                    None => v.parse().map_err(|_| bad())?,
                };
                if n < MIN_SIZE as u32 || n > MAX_SIZE as u32 {
                    return Err(RecordError::UnsupportedSize(n));
                }
                n as u8
            }
        };
        let komi = match root.get("KM") {
            None => None,
            Some(p) if p.values[0].trim().is_empty() => None,
            Some(p) => Some(
                parse_komi(&p.values[0])
                    .ok_or_else(|| RecordError::BadKomi { offset: p.offset, value: p.values[0].clone() })?,
            ),
        };
        let mut warnings = Vec::new();
        let setup = parse_setup(root, size)?;
        let handicap = match root.get("HA") {
            None => 0,
            Some(p) => {
                let v = p.values[0].trim();
                if v.is_empty() {
                    0
                } else {
                    match v.parse::<u8>() {
                        Ok(n) => n,
                        // As GNU Go does: a handicap that is not a whole number of stones is read with a
                        // warning, and the handicap is the number of black setup stones at the root.
                        Err(_) => {
                            let counted = handicap_from_setup(&setup);
                            warnings.push(RecordWarning::BadHandicap {
                                offset: p.offset,
                                value: v.to_string(),
                                counted,
                            });
                            counted
                        }
                    }
                }
            }
        };
        let mut record = Record {
            size,
            komi,
            handicap,
            rules: text("RU"),
            result: text("RE"),
            black: Player { name: text("PB"), rank: text("BR") },
            white: Player { name: text("PW"), rank: text("WR") },
            date: text("DT"),
            event: text("EV"),
            round: text("RO"),
            place: text("PC"),
            game_name: text("GN"),
            time_limit: text("TM"),
            overtime: text("OT"),
            comment: root.value("C").map(str::to_string),
            setup,
            nodes: Vec::new(),
            warnings,
        };
        // A root that also holds a move (some writers do this) is the first move node as well.
        for (i, node) in tree.main_line().enumerate() {
            let setup = if i == 0 { Setup::default() } else { parse_setup(node, size)? };
            let mut m = MoveNode {
                offset: node.offset,
                setup: (!setup.is_empty()).then_some(setup),
                comment: if i == 0 { None } else { node.value("C").map(str::to_string) },
                ..MoveNode::default()
            };
            for p in &node.properties {
                match p.ident.as_str() {
                    "B" => m.play = Some((Color::Black, parse_move(p, size)?)),
                    "W" => m.play = Some((Color::White, parse_move(p, size)?)),
                    "BL" | "WL" => m.time_left = p.values[0].trim().parse().ok(),
                    "OB" | "OW" => m.overtime_left = p.values[0].trim().parse().ok(),
                    _ => {}
                }
            }
            if i == 0 && m.play.is_none() {
                continue;
            }
            record.nodes.push(m);
        }
        Ok(record)
    }

    /// The moves of the main line, in order.
    pub fn moves(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        self.nodes.iter().filter_map(|n| n.play)
    }

    /// The recorded result, parsed.
    pub fn recorded_result(&self) -> Option<RecordedResult> {
        self.result.as_deref().and_then(RecordedResult::parse)
    }

    /// The ruleset the record was played under: its `RU` preset, with its `KM` komi (none for a handicap
    /// game without `KM`). A record that names no rules, or rules we do not know, is read under Japanese
    /// rules, as SGF readers traditionally assume: simple ko (so a record that repeated a position still
    /// replays, and the repetition is reported as a cycle) and territory counting.
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset_under(self.rules.as_deref().and_then(Ruleset::preset).unwrap_or_else(Ruleset::japanese))
    }

    /// The record counted under `rules`: with the record's `KM` komi if it has one, else `rules`' own
    /// komi (none in a handicap game).
    pub fn ruleset_under(&self, rules: Ruleset) -> Ruleset {
        let komi = self.komi.unwrap_or(if self.handicap >= 1 { Komi(0) } else { rules.komi });
        rules.with_komi(komi)
    }

    /// Replays the main line under `ruleset`. Stops at the first illegal move with its number, point
    /// and reason.
    pub fn replay(&self, ruleset: Ruleset) -> Result<Game, ReplayError> {
        self.replay_with(ruleset, |_, _, _| {})
    }

    /// [`replay`](Self::replay), telling `each` every move of the main line as it is played (its
    /// colour, the move, and what it did: captures, hash).
    pub fn replay_with(
        &self,
        ruleset: Ruleset,
        mut each: impl FnMut(Color, Move, &weiqi_rules::Played),
    ) -> Result<Game, ReplayError> {
        let mut game = Game::new(self.size, Ruleset { seated_stones: false, ..ruleset })
            .expect("the record's size was checked when it was read");
        let root_offset = 0;
        apply_setup(&mut game, &self.setup, root_offset)?;
        game.set_handicap(self.handicap);
        let mut number = 0;
        for node in &self.nodes {
            if let Some(setup) = &node.setup {
                apply_setup(&mut game, setup, node.offset)?;
            }
            if let Some((color, mv)) = node.play {
                number += 1;
                match game.play(color, mv) {
                    Ok(played) => each(color, mv, &played),
                    Err(reason) => {
                        let Move::Play(point) = mv else {
                            unreachable!("a pass is always legal in an unfinished game")
                        };
                        return Err(ReplayError::Illegal {
                            move_number: number,
                            color,
                            point,
                            vertex: point.to_gtp(self.size),
                            reason,
                        });
                    }
                }
            }
        }
        Ok(game)
    }
}

fn apply_setup(game: &mut Game, setup: &Setup, offset: usize) -> Result<(), ReplayError> {
    if !(setup.black.is_empty() && setup.white.is_empty() && setup.empty.is_empty()) {
        game.setup(&setup.black, &setup.white, &setup.empty).map_err(|error| ReplayError::Setup { offset, error })?;
    }
    if let Some(c) = setup.to_move {
        game.set_to_move(c);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_quirks_are_resolved() {
        assert_eq!(parse_komi("7.5"), Some(Komi(15)));
        assert_eq!(parse_komi("7.50"), Some(Komi(15)));
        assert_eq!(parse_komi("750"), Some(Komi(15)), "Fox: hundredths of a point");
        assert_eq!(parse_komi("375"), Some(Komi(15)), "Fox: 3.75 stones");
        assert_eq!(parse_komi("650"), Some(Komi(13)));
        assert_eq!(parse_komi("3.75"), Some(Komi(15)), "Chinese komi in stones");
        assert_eq!(parse_komi("0"), Some(Komi(0)));
        assert_eq!(parse_komi("-4.5"), Some(Komi(-9)));
        assert_eq!(parse_komi("48.5"), Some(Komi(97)));
        assert_eq!(parse_komi("7.500000"), Some(Komi(15)));
        assert_eq!(parse_komi("seven"), None);
        assert_eq!(parse_komi("7.3"), None);
    }

    #[test]
    fn results_are_parsed() {
        assert_eq!(RecordedResult::parse("B+1.5"), Some(RecordedResult::Score(Color::Black, HalfPoints(3))));
        assert_eq!(RecordedResult::parse("W+R"), Some(RecordedResult::Resign(Color::White)));
        assert_eq!(RecordedResult::parse("B+Resign"), Some(RecordedResult::Resign(Color::Black)));
        assert_eq!(RecordedResult::parse("W+Time"), Some(RecordedResult::Time(Color::White)));
        assert_eq!(RecordedResult::parse("B+Illegal"), Some(RecordedResult::Illegal(Color::Black)));
        assert_eq!(RecordedResult::parse("0"), Some(RecordedResult::Draw));
        assert_eq!(RecordedResult::parse("W+"), Some(RecordedResult::Win(Color::White)));
        assert_eq!(RecordedResult::parse("B"), Some(RecordedResult::Win(Color::Black)));
        assert_eq!(RecordedResult::parse("has adjourned"), None);
    }
}
