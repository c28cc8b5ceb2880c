//! `weiqi-sgf`: SGF FF[4] game records, read and written.
//!
//! * [`parse`] turns bytes into a [`Collection`] of game trees, keeping every variation. It decodes
//!   UTF-8 (lossily, for files whose names were cut mid-character), GB2312/GBK/GB18030 and
//!   ISO-8859-1, as declared by `CA[]` or detected. Malformed syntax is a [`ParseError`] with the byte
//!   offset and, where there is one, the property.
//! * [`Record::from_tree`] reads game information, setup stones and the main line, resolving real-world
//!   quirks (Fox's `KM[750]` and `KM[375]`, passes written `B[]` or `B[tt]`). A bad value is a
//!   [`RecordError`] with its offset.
//! * [`Record::replay`] plays the main line through the rules core; an illegal move is a
//!   [`ReplayError`] with the move number, the point and the reason.
//! * [`write`] turns a collection back into text; a round trip keeps every node and variation.
//! * [`from_game`] writes a game played through the rules core (GTP `printsgf`); [`from_game_with`]
//!   adds the game information a platform knows (ranks, date, event, round).
//!
//! ```
//! let bytes = b"(;GM[1]FF[4]SZ[9]KM[750]RU[Chinese];B[ee];W[cc];B[])";
//! let collection = weiqi_sgf::parse(bytes).unwrap();
//! let record = weiqi_sgf::Record::from_tree(&collection.games[0]).unwrap();
//! assert_eq!(record.komi, Some(weiqi_rules::Komi(15)));
//! let game = record.replay(record.ruleset()).unwrap();
//! assert_eq!(game.move_number(), 3);
//! ```
//!
//! # Invariants
//!
//! * Parsing never panics and never recurses on the stack, whatever the input (fuzzed).
//! * `parse(write(c)) == c` for every collection, up to byte offsets and the `CA` rewrite to UTF-8.

mod charset;
mod parse;
mod record;
mod tree;
mod write;

pub use charset::Charset;
pub use parse::{ParseError, parse, parse_str, parse_with};
pub use record::{
    MoveNode, Player, Record, RecordError, RecordWarning, RecordedResult, ReplayError, Setup, parse_komi,
};
pub use tree::{Collection, GameTree, Node, Property};
pub use write::{escape, write, write_tree};

use weiqi_rules::{Action, Color, Game, Move};

/// Any reason an SGF file cannot be read as a game: syntax, values, or an illegal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    /// Malformed syntax.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A value that does not mean what its property needs.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// A move or setup the rules refuse.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// Reads the first game of an SGF file and replays it under its own rules.
pub fn load(bytes: &[u8]) -> Result<(Record, Game), SgfError> {
    let collection = parse(bytes)?;
    let record = Record::from_tree(&collection.games[0])?;
    let game = record.replay(record.ruleset())?;
    Ok((record, game))
}

/// Writes a game played through the rules core as SGF: size, komi, handicap, rules, setup and moves.
pub fn from_game(game: &Game, black: Option<&str>, white: Option<&str>, result: Option<&str>) -> String {
    from_game_with(game, &GameInfo { black, white, result, ..GameInfo::default() })
}

/// Game information for [`from_game_with`]; every field is optional.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameInfo<'a> {
    /// `PB`: Black's name.
    pub black: Option<&'a str>,
    /// `PW`: White's name.
    pub white: Option<&'a str>,
    /// `BR`: Black's rank.
    pub black_rank: Option<&'a str>,
    /// `WR`: White's rank.
    pub white_rank: Option<&'a str>,
    /// `RE`: the result (`B+R`, `W+1.5`, `Draw`, `Void`).
    pub result: Option<&'a str>,
    /// `DT`: the date (`2026-11-30`).
    pub date: Option<&'a str>,
    /// `EV`: the event.
    pub event: Option<&'a str>,
    /// `RO`: the round.
    pub round: Option<&'a str>,
    /// `GN`: the game's name (its id).
    pub name: Option<&'a str>,
    /// `GC`: a comment on the whole game (e.g. how it ended).
    pub comment: Option<&'a str>,
    /// `C`: comments on nodes, each after the given number of actions (0: the root), in order.
    pub notes: &'a [(usize, String)],
}

/// [`from_game`] with the full game information.
pub fn from_game_with(game: &Game, info: &GameInfo<'_>) -> String {
    let size = game.size();
    let mut tree = GameTree::new();
    let root = tree.root_mut();
    root.set("GM", "1");
    root.set("FF", "4");
    root.set("CA", "UTF-8");
    root.set("AP", concat!("weiqi:", env!("CARGO_PKG_VERSION")));
    root.set("SZ", size.to_string());
    root.set("KM", game.ruleset().komi.to_string());
    root.set("RU", game.ruleset().family.sgf_name());
    if game.handicap() > 0 {
        root.set("HA", game.handicap().to_string());
    }
    let fields = [
        ("PB", info.black),
        ("BR", info.black_rank),
        ("PW", info.white),
        ("WR", info.white_rank),
        ("RE", info.result),
        ("DT", info.date),
        ("EV", info.event),
        ("RO", info.round),
        ("GN", info.name),
        ("GC", info.comment),
    ];
    for (ident, value) in fields {
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            root.set(ident, v);
        }
    }
    // Stones on the board before the first action (handicap or seated stones).
    let mut start = game.clone();
    while start.undo().is_some() {}
    let mut ab = Vec::new();
    let mut aw = Vec::new();
    for p in start.board().points() {
        match start.board().get(p) {
            Some(Color::Black) => ab.push(p.to_sgf()),
            Some(Color::White) => aw.push(p.to_sgf()),
            None => {}
        }
    }
    let root = tree.root_mut();
    if !ab.is_empty() {
        root.properties.push(Property { ident: "AB".into(), values: ab, offset: 0 });
    }
    if !aw.is_empty() {
        root.properties.push(Property { ident: "AW".into(), values: aw, offset: 0 });
    }
    // Each note becomes a `C` comment on the node it follows (notes at one node are joined by lines).
    let comment = |tree: &mut GameTree, node: usize, done: usize| {
        let text: Vec<&str> = info.notes.iter().filter(|(at, _)| *at == done).map(|(_, t)| t.as_str()).collect();
        if !text.is_empty() {
            tree.nodes[node].set("C", text.join("\n"));
        }
    };
    let mut parent = 0;
    let mut done = 0;
    comment(&mut tree, parent, done);
    for action in game.actions() {
        let props = match action {
            Action::Play(c, p) => vec![prop(if *c == Color::Black { "B" } else { "W" }, vec![p.to_sgf()])],
            Action::Pass(c) | Action::ForfeitTurn(c) => {
                vec![prop(if *c == Color::Black { "B" } else { "W" }, vec![String::new()])]
            }
            Action::Setup(s) => {
                let mut v = Vec::new();
                for (id, pts) in [("AB", &s.black), ("AW", &s.white), ("AE", &s.empty)] {
                    if !pts.is_empty() {
                        v.push(prop(id, pts.iter().map(|p| p.to_sgf()).collect()));
                    }
                }
                v
            }
            Action::SetToMove(c) => vec![prop("PL", vec![c.letter().to_string()])],
        };
        parent = tree.add_child(parent, props);
        done += 1;
        comment(&mut tree, parent, done);
    }
    let mut out = String::new();
    write_tree(&mut out, &tree);
    out.push('\n');
    out
}

fn prop(ident: &str, values: Vec<String>) -> Property {
    Property { ident: ident.to_string(), values, offset: 0 }
}

/// Converts a move for display in errors and tools: `D4`, `pass`.
pub fn move_to_gtp(mv: Move, size: u8) -> String {
    mv.to_gtp(size)
}
