//! The EGD tournament table (`.h9`): writer, reader and the format page's checker (issue 15 item 7).
//!
//! # The format, as the EGD defines it
//! The European Go Database rates tournaments from "tournament tables written in the form of ASCII
//! text files" (the EGD's format page, `europeangodatabase.eu/EGD/EGF_rating_system.php`, which
//! carries the EGF rating format of A. Cieply, `gemma.ujf.cas.cz/~cieply/GO/format.html`):
//!
//! * "The data record for each player is to be given in one line. Empty lines and everything
//!   following the semicolon sign are ignored." Header lines are therefore comments `; KEY[value]`:
//!   `CL` class, `EV` event, `PC` country and town, `DT` first and last date (`yyyy-mm-dd,yyyy-mm-dd`),
//!   `HA` handicap rule (`h9`: rank difference minus 9, i.e. even; `h1`: minus 1), `KM` komi, `TM`
//!   time in minutes. The rating keeper needs the name, place, dates, class or time and handicap.
//! * A player line: place, surname, given name, rank, country, club, optional columns (tie-breaks),
//!   then the results: "a string of entries separated by blanks. The number of rounds must be the
//!   same for each player and each result entry is given in the form
//!   `<opponent's place><symbol>[/<colour>[<h>]]`", symbol `+` win, `-` loss, `=` jigo, colour `b`/`w`,
//!   `h` the handicap stones. Rounds without a game: `0+` a free win, `0-` a free round, `0=` a free
//!   round with half a point. The EGD PIN may follow as `|PIN`.
//!
//! # What this writer does
//! * Only `+`, `-` and `=`. A forfeit was not played, so it is not a game for the rating: a forfeit
//!   win is written `0+` (a free win) and a forfeit loss `0-` (a free round), the two forms the page
//!   allows for a result without a game. OpenGotha's `!` ("by default") is not on the page and is
//!   never written. A both-lose result is a loss for each side; a voided game (Art. 28, or a
//!   referee's void) and a pending one are `0-`.
//! * No lot column: the recorded lot is a draw, not a score. The other ranking values follow the
//!   club as tie-break columns (as OpenGotha writes them).
//! * `DT`, `TM`, `KM` and `HA` are filled from the tournament's own data ([`H9Header::for_tournament`]):
//!   the dates of the start and of the last result, the time control's basic time, the komi, and the
//!   handicap rule (`h9` for even games, `h<reduction>` for handicaps by rank).
//! * Team events are exported board by board: every board's game is an individual game between two
//!   players; players are listed by their team's place, then board order.
//!
//! [`parse_h9`] reads any such table (also OpenGotha's `!` marks, so published files read), and
//! [`check_h9`] checks a table against the page's rules: the exporter's output passes it.

use crate::config::ByeKind;
use crate::ids::{Color, PlayerId};
use crate::outcome::PlayerResult;
use crate::record::{Entry, records};
use crate::standings::{TieBreak, standings};
use crate::state::Tournament;
use crate::team::team_standings;
use crate::weights::HandicapPolicy;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use weiqi_time::CivilDate;

/// The `.h9` header fields, and the clubs' codes for the club column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct H9Header {
    /// EGF class: 'A', 'B', 'C' or 'D'; `None`: the event has none (no `CL` line: the time tells).
    pub class: Option<char>,
    /// Country code and city, e.g. "CN,Hangzhou".
    pub place: String,
    /// Dates, e.g. "2026-11-28,2026-11-29".
    pub dates: String,
    /// Handicap rule text, e.g. "h9" (even) or "h1".
    pub handicap: String,
    /// Komi in points, e.g. "7.5".
    pub komi: String,
    /// Basic time in minutes.
    pub basic_minutes: u32,
    /// Each club (as registered) → its short ASCII code for the club column. A club without a code
    /// is written as itself when it is ASCII, else `-`.
    pub club_codes: BTreeMap<String, String>,
}

impl H9Header {
    /// The header from the tournament's own data: dates from the start to the last result, the
    /// handicap rule from the pairing policy; komi and basic time as the games are played. The class,
    /// the place and the club codes are the event's facts, which the service adds.
    pub fn for_tournament(t: &Tournament, komi: String, basic_minutes: u32) -> H9Header {
        let start = if t.started_at.0 > 0 { t.started_at } else { t.created_at };
        let end = t.last_result_at.max(start);
        let dates = format!("{},{}", CivilDate::from_millis(start), CivilDate::from_millis(end));
        let handicap = match t.config.as_ref().map(|c| c.pairing.handicap) {
            Some(HandicapPolicy::ByRank { reduction, .. }) => format!("h{reduction}"),
            _ => "h9".into(),
        };
        H9Header { class: None, place: "CN".into(), dates, handicap, komi, basic_minutes, club_codes: BTreeMap::new() }
    }
}

/// One token of a name for the table: whitespace would split the columns.
fn token(s: &str) -> String {
    let t: String = s.split_whitespace().collect::<Vec<_>>().join("_");
    if t.is_empty() { "-".into() } else { t }
}

/// The club column: the club's code, or the club itself when it is ASCII (the table is an ASCII
/// file), else `-`.
fn club_column(club: &str, codes: &BTreeMap<String, String>) -> String {
    let club = club.trim();
    match codes.get(club) {
        Some(code) => token(code),
        None if club.is_ascii() => token(club),
        None => "-".into(),
    }
}

/// The players in table order with their ranking columns: individual standings, or for team events
/// every member by team place and board order.
fn table_order(t: &Tournament) -> (Vec<String>, Vec<(PlayerId, Vec<String>)>) {
    let team_event = t.config.as_ref().is_some_and(|c| c.format.is_team());
    if team_event {
        let recs = records(t, t.current_round());
        let mut out = Vec::new();
        for row in &team_standings(t).rows {
            for &p in t.teams.get(&row.team).map(|k| k.members.as_slice()).unwrap_or_default() {
                let wins = recs.get(p).map_or(0, |r| r.wins);
                out.push((p, vec![wins.to_string()]));
            }
        }
        return (vec!["Wins".into()], out);
    }
    let st = standings(t);
    let keep: Vec<usize> = (0..st.criteria.len()).filter(|&k| st.criteria[k] != TieBreak::Lot).collect();
    let names = keep.iter().map(|&k| st.criteria[k].name()).collect();
    let rows = st.rows.iter().map(|r| (r.player, keep.iter().map(|&k| r.values[k].to_string()).collect())).collect();
    (names, rows)
}

/// Results in the EGD tournament table format (see the module doc).
pub fn export_h9(t: &Tournament, header: &H9Header) -> String {
    let recs = records(t, t.current_round());
    let (columns, rows) = table_order(t);
    let place: HashMap<PlayerId, u32> = rows.iter().enumerate().map(|(i, (p, _))| (*p, i as u32 + 1)).collect();
    let name = t.config.as_ref().map_or("", |c| c.name.as_str());
    let mut out = String::new();
    if let Some(class) = header.class {
        let _ = writeln!(out, "; CL[{class}]");
    }
    let _ = writeln!(out, "; EV[{}]", name.replace([']', '\n'], " "));
    let _ = writeln!(out, "; PC[{}]", header.place);
    let _ = writeln!(out, "; DT[{}]", header.dates);
    let _ = writeln!(out, "; HA[{}]", header.handicap);
    let _ = writeln!(out, "; KM[{}]", header.komi);
    let _ = writeln!(out, "; TM[{}]", header.basic_minutes);
    let _ = writeln!(out, "; Pl Name Rk Co Club {}", columns.join(" "));
    for (i, (player, values)) in rows.iter().enumerate() {
        let reg = &t.players[player].registration;
        // The EGD's table is ASCII: the Latin name the organiser wrote, else the Chinese one in pinyin.
        let (surname, given) = crate::romanize::latin_name(reg);
        let (surname, given) = (token(&surname), token(&given));
        let country = reg.country.clone().unwrap_or_else(|| "CN".into());
        let club = club_column(reg.club.as_deref().unwrap_or(""), &header.club_codes);
        let mut line = format!("{:>4} {surname} {given} {} {country} {club}", i + 1, reg.rank);
        for v in values {
            let _ = write!(line, " {v}");
        }
        if let Some(rec) = recs.get(*player) {
            for e in &rec.entries {
                let entry = match *e {
                    Entry::Game { result, forfeit: true, .. } => {
                        if result == PlayerResult::Win {
                            "0+".into()
                        } else {
                            "0-".into()
                        }
                    }
                    Entry::Game { result: PlayerResult::Void, .. } => "0-".into(),
                    Entry::Game { opponent, result, color, handicap, .. } => {
                        let sym = match result {
                            PlayerResult::Win => '+',
                            PlayerResult::Draw => '=',
                            PlayerResult::Loss | PlayerResult::Void => '-',
                        };
                        let c = if color == Color::Black { 'b' } else { 'w' };
                        // "23+/w" is "equivalent to 23+/w0": the digit only for handicap games.
                        match (place.get(&opponent), handicap) {
                            (Some(opp), 0) => format!("{opp}{sym}/{c}"),
                            (Some(opp), h) => format!("{opp}{sym}/{c}{h}"),
                            (None, _) => "0-".into(),
                        }
                    }
                    Entry::Bye { kind: ByeKind::FullPoint } => "0+".into(),
                    Entry::Bye { kind: ByeKind::HalfPoint } => "0=".into(),
                    Entry::Bye { kind: ByeKind::ZeroPoint } | Entry::Nothing | Entry::Pending { .. } => "0-".into(),
                };
                let _ = write!(line, " {entry}");
            }
        }
        if let Some(pin) = reg.egd_pin {
            let _ = write!(line, " |{pin}");
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// A result's symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum H9Outcome {
    /// `+`
    Win,
    /// `-`
    Loss,
    /// `=`
    Jigo,
}

impl H9Outcome {
    fn from_char(c: char) -> Option<H9Outcome> {
        match c {
            '+' => Some(H9Outcome::Win),
            '-' => Some(H9Outcome::Loss),
            '=' => Some(H9Outcome::Jigo),
            _ => None,
        }
    }

    /// The other side's symbol.
    pub fn reversed(self) -> H9Outcome {
        match self {
            H9Outcome::Win => H9Outcome::Loss,
            H9Outcome::Loss => H9Outcome::Win,
            H9Outcome::Jigo => H9Outcome::Jigo,
        }
    }
}

/// One round of a player line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum H9Result {
    /// A game against the player on line `opponent`.
    Game {
        /// The opponent's place (line number).
        opponent: u32,
        /// The result.
        outcome: H9Outcome,
        /// This player's colour, when given.
        color: Option<Color>,
        /// Handicap stones, when given.
        handicap: Option<u8>,
        /// OpenGotha's "by default" mark `!` (not on the EGD's page; read, never written).
        by_default: bool,
    },
    /// A round without a game: `0+`, `0-`, `0=`.
    Free(H9Outcome),
}

/// One player line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct H9Player {
    /// The line's number among the player lines (1-based): what opponents refer to.
    pub line: u32,
    /// The place printed (blank for a tie in some writers).
    pub place: Option<u32>,
    /// Surname (underscores back to spaces).
    pub surname: String,
    /// Given name.
    pub given: String,
    /// Rank as written (`5k`, `3d`, `1p`).
    pub rank: String,
    /// Country code.
    pub country: String,
    /// Club.
    pub club: String,
    /// The columns between the club and the results (tie-breaks).
    pub columns: Vec<String>,
    /// One entry per round.
    pub results: Vec<H9Result>,
    /// The EGD PIN after `|`.
    pub pin: Option<u64>,
}

/// A parsed table.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct H9File {
    /// Header keys (`CL`, `EV`, …) and values.
    pub header: BTreeMap<String, String>,
    /// Player lines in order.
    pub players: Vec<H9Player>,
}

/// Why a table could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum H9Error {
    /// A player line without a rank (`12k`, `3d`, `1p`) after the name.
    #[error("line {line}: no rank after the name")]
    NoRank {
        /// Line in the file (1-based).
        line: usize,
    },
    /// A player line without country and club after the rank.
    #[error("line {line}: country and club must follow the rank")]
    NoClub {
        /// Line in the file (1-based).
        line: usize,
    },
    /// The `|PIN` suffix is not a number.
    #[error("line {line}: the EGD PIN {pin:?} is not a number")]
    BadPin {
        /// Line in the file (1-based).
        line: usize,
        /// The text after `|`.
        pin: String,
    },
}

/// Whether `s` is a rank column: `12k`, `3d`, `1p` as the EGD writes them, or a rank as Chinese
/// organisers write it (`3段`, `12级`). The last character is split off as a character, never a byte
/// (`3段` once panicked here).
fn is_rank(s: &str) -> bool {
    let Some(k) = s.chars().last() else { return false };
    let n = &s[..s.len() - k.len_utf8()];
    let latin = !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit()) && "kKdDpP".contains(k);
    latin || (!k.is_ascii() && s.parse::<crate::rank::Rank>().is_ok())
}

/// One result entry, or `None` when the token is not one.
pub fn parse_result(s: &str) -> Option<H9Result> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let opponent: u32 = s[..digits].parse().ok()?;
    let mut rest = s[digits..].chars();
    let outcome = H9Outcome::from_char(rest.next()?)?;
    let rest: String = rest.collect();
    if opponent == 0 {
        return rest.is_empty().then_some(H9Result::Free(outcome));
    }
    let mut by_default = rest.contains('!');
    let mut tail = rest.as_str();
    let (mut color, mut handicap) = (None, None);
    if let Some(t) = tail.strip_prefix('/').or_else(|| tail.strip_prefix('!')) {
        let mut cs = t.chars();
        match cs.next() {
            Some('b' | 'B') => color = Some(Color::Black),
            Some('w' | 'W') => color = Some(Color::White),
            None => {}
            Some(_) => return None,
        }
        let h: String = cs.clone().take_while(char::is_ascii_digit).collect();
        if !h.is_empty() {
            handicap = Some(h.parse().ok()?);
        }
        tail = &t[t.len() - cs.as_str().len() + h.len()..];
        if color.is_none() && !t.is_empty() {
            return None;
        }
    }
    if let Some(t) = tail.strip_suffix('!') {
        by_default = true;
        tail = t;
    }
    if !tail.is_empty() {
        return None;
    }
    Some(H9Result::Game { opponent, outcome, color, handicap, by_default })
}

/// Reads a `.h9` table (see the module doc). Lines that are empty or comments are skipped; header
/// comments `; XX[value]` are collected.
pub fn parse_h9(text: &str) -> Result<H9File, H9Error> {
    let mut file = H9File::default();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let (data, comment) = raw.split_once(';').unwrap_or((raw, ""));
        let comment = comment.trim();
        if let Some(open) = comment.find('[')
            && let Some(close) = comment.rfind(']')
            && open > 0
            && close > open
        {
            let key = comment[..open].trim();
            if key.len() == 2 && key.bytes().all(|b| b.is_ascii_uppercase()) {
                file.header.insert(key.to_string(), comment[open + 1..close].to_string());
            }
        }
        let (data, pin) = match data.split_once('|') {
            Some((d, p)) => {
                let p = p.trim();
                let pin = p.parse::<u64>().map_err(|_| H9Error::BadPin { line: n, pin: p.to_string() })?;
                (d, Some(pin))
            }
            None => (data, None),
        };
        let tokens: Vec<&str> = data.split_whitespace().collect();
        if tokens.is_empty() {
            continue;
        }
        let mut end = tokens.len();
        let mut results = Vec::new();
        while end > 0 {
            match parse_result(tokens[end - 1]) {
                Some(r) => results.push(r),
                None => break,
            }
            end -= 1;
        }
        results.reverse();
        let mut start = 0;
        let place = tokens[0].parse::<u32>().ok();
        if place.is_some() {
            start = 1;
        }
        // The rank: the first rank-like token after at least one name token.
        let rank_at = (start + 1..end).find(|&k| is_rank(tokens[k])).ok_or(H9Error::NoRank { line: n })?;
        if rank_at + 2 >= end {
            return Err(H9Error::NoClub { line: n });
        }
        let name = |s: &str| s.replace('_', " ");
        let surname = name(tokens[start]);
        let given = tokens[start + 1..rank_at].iter().map(|s| name(s)).collect::<Vec<_>>().join(" ");
        let line = file.players.len() as u32 + 1;
        file.players.push(H9Player {
            line,
            place,
            surname,
            given,
            rank: tokens[rank_at].to_string(),
            country: tokens[rank_at + 1].to_string(),
            club: tokens[rank_at + 2].to_string(),
            columns: tokens[rank_at + 3..end].iter().map(|s| s.to_string()).collect(),
            results,
            pin,
        });
    }
    Ok(file)
}

/// A rule of the EGD's format page that a table breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum H9Problem {
    /// The file does not parse at all.
    #[error("{0}")]
    Unreadable(H9Error),
    /// A header the rating keeper needs is missing (`EV`, `PC`, `DT`, `HA`, `KM`, `TM`; `CL` when
    /// there is no `TM`: "the class or time").
    #[error("missing header {0}[…]")]
    MissingHeader(&'static str),
    /// `DT` is not `yyyy-mm-dd` or `yyyy-mm-dd,yyyy-mm-dd`.
    #[error("DT[{0}] is not yyyy-mm-dd[,yyyy-mm-dd]")]
    BadDates(String),
    /// Players have different numbers of rounds.
    #[error("player line {line} has {got} results, the first has {want}")]
    RoundCount {
        /// Player line.
        line: u32,
        /// Its results.
        got: usize,
        /// The first line's.
        want: usize,
    },
    /// A mark the page does not define (OpenGotha's `!`).
    #[error("player line {line}, round {round}: a mark the EGD format does not define (\"!\")")]
    UndefinedMark {
        /// Player line.
        line: u32,
        /// Round (1-based).
        round: usize,
    },
    /// A result entry that is not `<place><+|-|=>[/<b|w>[h]]`, `0+`, `0-` or `0=`.
    #[error("player line {line}: {token:?} is not a result entry")]
    BadEntry {
        /// Player line.
        line: u32,
        /// The token.
        token: String,
    },
    /// An opponent number that is not a line of the table, or the player's own.
    #[error("player line {line}, round {round}: opponent {opponent} is not another line of the table")]
    NoSuchOpponent {
        /// Player line.
        line: u32,
        /// Round.
        round: usize,
        /// The number written.
        opponent: u32,
    },
    /// A handicap beyond 9 stones (`/b99`).
    #[error("player line {line}, round {round}: a handicap of {stones} stones (at most 9)")]
    Handicap {
        /// Player line.
        line: u32,
        /// Round.
        round: usize,
        /// The stones written.
        stones: u8,
    },
    /// The two sides of a game disagree (result, colour or handicap).
    #[error("round {round}: lines {a} and {b} do not agree on their game")]
    Disagree {
        /// Round.
        round: usize,
        /// One side.
        a: u32,
        /// The other.
        b: u32,
    },
}

impl H9Problem {
    /// Whether the table contradicts itself (a game its two sides disagree on, both players won, an
    /// opponent who is not in the table, an impossible handicap): data no import may take, unlike a
    /// missing header or an OpenGotha mark, which an importer can read past.
    pub fn is_inconsistent(&self) -> bool {
        matches!(
            self,
            H9Problem::Disagree { .. }
                | H9Problem::NoSuchOpponent { .. }
                | H9Problem::Handicap { .. }
                | H9Problem::BadEntry { .. }
        )
    }
}

/// Checks a table against the EGD format page's rules (see the module doc): headers present and
/// dated, every line with the same number of rounds, every entry a defined result with no other
/// marks, every opponent another line, and both sides of each game in agreement.
pub fn check_h9(text: &str) -> Vec<H9Problem> {
    let mut problems = Vec::new();
    let file = match parse_h9(text) {
        Ok(f) => f,
        Err(e) => return vec![H9Problem::Unreadable(e)],
    };
    let missing = |key: &str| file.header.get(key).is_none_or(|v| v.trim().is_empty());
    for key in ["EV", "PC", "DT", "HA", "KM", "TM"] {
        if missing(key) {
            problems.push(H9Problem::MissingHeader(key));
        }
    }
    // "The class or time": an event below every class has its time and no class.
    if missing("CL") && missing("TM") {
        problems.push(H9Problem::MissingHeader("CL"));
    }
    if let Some(dt) = file.header.get("DT") {
        let ok = dt.split(',').all(|d| d.trim().parse::<CivilDate>().is_ok()) && dt.split(',').count() <= 2;
        if !ok {
            problems.push(H9Problem::BadDates(dt.clone()));
        }
    }
    // Every token that looks like a result attempt must be one.
    let mut line = 0;
    for raw in text.lines() {
        let data = raw.split(';').next().unwrap_or("").split('|').next().unwrap_or("");
        if data.split_whitespace().next().is_some() {
            line += 1;
        }
        for tok in data.split_whitespace() {
            if tok.contains(['+', '=', '/', '!']) && parse_result(tok).is_none() {
                problems.push(H9Problem::BadEntry { line, token: tok.to_string() });
            }
        }
    }
    let want = file.players.first().map_or(0, |p| p.results.len());
    let n = file.players.len() as u32;
    for p in &file.players {
        if p.results.len() != want {
            problems.push(H9Problem::RoundCount { line: p.line, got: p.results.len(), want });
        }
        for (r, res) in p.results.iter().enumerate() {
            let H9Result::Game { opponent, outcome, color, handicap, by_default } = res else { continue };
            if *by_default {
                problems.push(H9Problem::UndefinedMark { line: p.line, round: r + 1 });
            }
            if let Some(stones) = handicap.filter(|h| *h > 9) {
                problems.push(H9Problem::Handicap { line: p.line, round: r + 1, stones });
            }
            if *opponent > n || *opponent == p.line {
                problems.push(H9Problem::NoSuchOpponent { line: p.line, round: r + 1, opponent: *opponent });
                continue;
            }
            let other = &file.players[*opponent as usize - 1];
            let agrees = match other.results.get(r) {
                Some(H9Result::Game { opponent: back, outcome: o2, color: c2, handicap: h2, .. }) => {
                    *back == p.line
                        && *o2 == outcome.reversed()
                        && (color.is_none() || c2.is_none() || *c2 != *color)
                        && handicap.unwrap_or(0) == h2.unwrap_or(0)
                }
                _ => false,
            };
            if !agrees && p.line < *opponent {
                problems.push(H9Problem::Disagree { round: r + 1, a: p.line, b: *opponent });
            }
        }
    }
    problems
}
