//! One archived game: an SGF record read, replayed through the rules core, and kept with what
//! analysts ask of it.

use sha2::{Digest, Sha256};
use weiqi_rules::{Color, Move, Point};
use weiqi_sgf::{RecordedResult, SgfError};
use weiqi_time::{CivilDate, Millis};

/// The most bytes one record may have (the longest real records are a few tens of KiB).
pub const MAX_RECORD_BYTES: usize = 1024 * 1024;

/// Who won an archived game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Winner {
    /// Black won.
    Black,
    /// White won.
    White,
    /// Jigo.
    Draw,
    /// Void, unknown, or no `RE`.
    None,
}

/// How an archived game ended, as its `RE` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Counted (`B+3.5`).
    Count,
    /// Resignation (`W+R`).
    Resignation,
    /// On time (`B+T`).
    Time,
    /// By forfeit (`W+F`).
    Forfeit,
    /// The loser tried an illegal move.
    IllegalMove,
    /// A win with no reason or margin given (`B+`).
    Unknown,
    /// Jigo.
    Draw,
    /// Void, unknown, or no `RE`.
    Void,
}

impl Reason {
    /// The name used in tables and files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Reason::Count => "count",
            Reason::Resignation => "resignation",
            Reason::Time => "time",
            Reason::Forfeit => "forfeit",
            Reason::IllegalMove => "illegal-move",
            Reason::Unknown => "unknown",
            Reason::Draw => "draw",
            Reason::Void => "void",
        }
    }
}

/// One move of the main line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchivedMove {
    /// Who moved.
    pub color: Color,
    /// A point, or `None` for a pass.
    pub point: Option<Point>,
    /// Opponent stones it captured.
    pub captures: u32,
}

/// An SGF record as the archive keeps it (see the crate doc).
#[derive(Clone, Debug, PartialEq)]
pub struct ArchivedGame {
    /// `sgf-` and the first 32 hex digits of the record's SHA-256.
    pub id: String,
    /// The record exactly as read.
    pub sgf: Vec<u8>,
    /// SHA-256 of the record, lowercase hex.
    pub sha256: String,
    /// Board size.
    pub size: u8,
    /// Black's name and rank as written.
    pub black: (String, String),
    /// White's name and rank as written.
    pub white: (String, String),
    /// `DT` as written.
    pub date: String,
    /// `DT`'s first date, when it reads as one (`2003-05-12`, or `2003-05` as its first day).
    pub played_on: Option<CivilDate>,
    /// `EV`.
    pub event: String,
    /// `RO`.
    pub round: String,
    /// `PC`.
    pub place: String,
    /// `GN`.
    pub game_name: String,
    /// The ruleset the record was replayed under.
    pub rules: String,
    /// `RU` as written.
    pub rules_written: String,
    /// Komi in half points, if the record gives one.
    pub komi_halves: Option<i32>,
    /// Handicap stones.
    pub handicap: u8,
    /// `TM` as written.
    pub time_limit: String,
    /// `OT` as written.
    pub overtime: String,
    /// `RE` as written.
    pub result: String,
    /// Who won.
    pub winner: Winner,
    /// How.
    pub reason: Reason,
    /// A count's margin in half points (0 otherwise).
    pub margin_halves: i32,
    /// The main line.
    pub moves: Vec<ArchivedMove>,
    /// The final position's hash.
    pub final_hash: u64,
    /// `--event` given at import.
    pub imported_as: String,
}

/// Why a record is not archived.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    /// Larger than [`MAX_RECORD_BYTES`].
    #[error("the record has {0} bytes; at most {MAX_RECORD_BYTES} are read")]
    TooLarge(usize),
    /// Not SGF, not a game, or a move the rules refuse.
    #[error(transparent)]
    Sgf(#[from] SgfError),
}

/// The archive id of a record's bytes: the same file is the same game.
#[must_use]
pub fn archive_id(sgf: &[u8]) -> (String, String) {
    let digest = hex::encode(Sha256::digest(sgf));
    (format!("sgf-{}", &digest[..32]), digest)
}

/// The first date of an SGF `DT` value (`2003-05-12,13` → 2003-05-12; `1998-11` → 1998-11-01).
#[must_use]
pub fn first_date(dt: &str) -> Option<CivilDate> {
    let first = dt.split([',', ' ']).next()?.trim();
    let full = match first.len() {
        10 => first.to_string(),
        7 => format!("{first}-01"),
        4 => format!("{first}-01-01"),
        _ => return None,
    };
    full.parse().ok()
}

impl ArchivedGame {
    /// Reads a record and replays its main line through the rules core; refuses one that does not
    /// replay, naming why.
    ///
    /// # Errors
    /// [`ArchiveError`].
    pub fn from_sgf(bytes: &[u8], imported_as: &str) -> Result<ArchivedGame, ArchiveError> {
        if bytes.len() > MAX_RECORD_BYTES {
            return Err(ArchiveError::TooLarge(bytes.len()));
        }
        let collection = weiqi_sgf::parse(bytes).map_err(SgfError::from)?;
        let record = weiqi_sgf::Record::from_tree(&collection.games[0]).map_err(SgfError::from)?;
        let ruleset = record.ruleset();
        let mut moves = Vec::with_capacity(record.nodes.len());
        let game = record
            .replay_with(ruleset, |color, mv, played| {
                let point = match mv {
                    Move::Play(p) => Some(p),
                    Move::Pass => None,
                };
                moves.push(ArchivedMove { color, point, captures: played.captured });
            })
            .map_err(SgfError::from)?;
        let (winner, reason, margin_halves) = match record.recorded_result() {
            Some(RecordedResult::Score(c, h)) => (c.into(), Reason::Count, h.0),
            Some(RecordedResult::Resign(c)) => (c.into(), Reason::Resignation, 0),
            Some(RecordedResult::Time(c)) => (c.into(), Reason::Time, 0),
            Some(RecordedResult::Forfeit(c)) => (c.into(), Reason::Forfeit, 0),
            Some(RecordedResult::Illegal(c)) => (c.into(), Reason::IllegalMove, 0),
            Some(RecordedResult::Win(c)) => (c.into(), Reason::Unknown, 0),
            Some(RecordedResult::Draw) => (Winner::Draw, Reason::Draw, 0),
            Some(RecordedResult::Void) | None => (Winner::None, Reason::Void, 0),
        };
        let (id, sha256) = archive_id(bytes);
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        let date = text(&record.date);
        Ok(ArchivedGame {
            id,
            sgf: bytes.to_vec(),
            sha256,
            size: record.size,
            black: (text(&record.black.name), text(&record.black.rank)),
            white: (text(&record.white.name), text(&record.white.rank)),
            played_on: first_date(&date),
            date,
            event: text(&record.event),
            round: text(&record.round),
            place: text(&record.place),
            game_name: text(&record.game_name),
            rules: game.ruleset().family.name().to_string(),
            rules_written: text(&record.rules),
            komi_halves: record.komi.map(|k| k.0),
            handicap: record.handicap,
            time_limit: text(&record.time_limit),
            overtime: text(&record.overtime),
            result: text(&record.result),
            winner,
            reason,
            margin_halves,
            moves,
            final_hash: game.hash(),
            imported_as: imported_as.to_string(),
        })
    }

    /// When the game was played, as an instant (UTC midnight of its first date).
    #[must_use]
    pub fn played_at(&self) -> Option<Millis> {
        self.played_on.map(CivilDate::to_millis)
    }
}

/// The main line of a game played here, as an archived game keeps one: its stones and passes in
/// order (a forfeited turn or setup left out), with what each stone captured. The same statistics
/// then serve archived records and games played on the platform.
#[must_use]
pub fn moves_of(game: &weiqi_rules::Game) -> Vec<ArchivedMove> {
    game.actions()
        .iter()
        .zip(game.captures())
        .filter_map(|(action, captures)| match *action {
            weiqi_rules::Action::Play(color, p) => Some(ArchivedMove { color, point: Some(p), captures }),
            weiqi_rules::Action::Pass(color) => Some(ArchivedMove { color, point: None, captures: 0 }),
            _ => None,
        })
        .collect()
}

impl From<Color> for Winner {
    fn from(c: Color) -> Winner {
        match c {
            Color::Black => Winner::Black,
            Color::White => Winner::White,
        }
    }
}
