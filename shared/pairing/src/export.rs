//! Exports as plain strings: standings and pairings as CSV (RFC 4180 quoting), and results in the
//! EGD/EGF tournament table format (`.h9`) so events can be rated by the European Go Database.
//!
//! # The `.h9` table
//! Header lines start with `;` (`CL` class, `EV` event, `PC` country and city, `DT` dates, `HA`
//! handicap rule, `KM` komi, `TM` basic time in minutes). Then one line per player in standings
//! order: place, surname and given name (Latin script from the registration snapshot), rank,
//! country, club, the ranking values, and one entry per round:
//! `<opponent's place><+|-|=>/<b|w>[handicap]`, with `!` appended for a game not actually played
//! (forfeit, so the database does not rate it), `0+` a full-point bye, `0=` a half-point bye and
//! `0-` a round without a game. Both-lose results are written as a loss for each side. The EGD PIN,
//! when known, follows as `|PIN`.

use crate::config::ByeKind;
use crate::event::ColorBy;
use crate::ids::{Color, PlayerId};
use crate::outcome::{Outcome, PlayerResult};
use crate::record::{Entry, records};
use crate::standings::{Standings, standings};
use crate::state::Tournament;
use std::collections::HashMap;
use std::fmt::Write;

/// One CSV field, quoted when it holds a comma, quote or line break.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

fn row(fields: &[String]) -> String {
    let mut line = fields.iter().map(|f| field(f)).collect::<Vec<_>>().join(",");
    line.push('\n');
    line
}

/// Standings as CSV: place, player, names, rank, club, region, games, wins, each criterion, the
/// tie-break that decided the place, whether it is shared.
pub fn standings_csv(t: &Tournament, st: &Standings) -> String {
    let mut header: Vec<String> =
        ["place", "player", "name_zh", "name_latin", "rank", "club", "region", "games", "wins"]
            .map(String::from)
            .to_vec();
    header.extend(st.criteria.iter().map(|c| c.name()));
    header.push("decided_by".into());
    header.push("shared".into());
    header.push("withdrawn".into());
    let mut out = row(&header);
    for r in &st.rows {
        let reg = &t.players[&r.player].registration;
        let mut f = vec![
            r.place.to_string(),
            r.player.0.to_string(),
            reg.name_zh.clone(),
            reg.name_latin.clone(),
            reg.rank.to_string(),
            reg.club.clone().unwrap_or_default(),
            reg.region.clone().unwrap_or_default(),
            r.games.to_string(),
            r.wins.to_string(),
        ];
        f.extend(r.values.iter().map(|v| v.to_string()));
        f.push(r.decided_by.map(|c| c.name()).unwrap_or_default());
        f.push(r.shared.to_string());
        f.push(t.is_withdrawn(r.player).to_string());
        out.push_str(&row(&f));
    }
    out
}

fn color_by(c: ColorBy) -> &'static str {
    match c {
        ColorBy::Balance => "balance",
        ColorBy::Alternation => "alternation",
        ColorBy::Nigiri => "nigiri",
        ColorBy::Handicap => "handicap",
        ColorBy::Berger => "berger",
        ColorBy::Organiser => "organiser",
        ColorBy::BoardOrder => "board-order",
    }
}

fn result_text(o: Option<Outcome>) -> &'static str {
    match o {
        None => "",
        Some(Outcome::Win(Color::Black)) => "B+",
        Some(Outcome::Win(Color::White)) => "W+",
        Some(Outcome::Draw) => "draw",
        Some(Outcome::BothLose) => "both-lose",
        Some(Outcome::Void) => "void",
    }
}

/// A round's pairings as CSV: one line per game, then one per bye.
pub fn pairings_csv(t: &Tournament, round: u32) -> String {
    let mut out = row(&[
        "round",
        "table",
        "black",
        "black_name",
        "black_rank",
        "white",
        "white_name",
        "white_rank",
        "handicap",
        "colors_by",
        "result",
        "bye",
    ]
    .map(String::from));
    let Some(r) = t.rounds.get((round as usize).wrapping_sub(1)) else { return out };
    let who = |p: PlayerId| {
        let reg = &t.players[&p].registration;
        (p.0.to_string(), reg.name_latin.clone(), reg.rank.to_string())
    };
    for g in &r.games {
        let (b, bn, br) = who(g.paired.black);
        let (w, wn, wr) = who(g.paired.white);
        out.push_str(&row(&[
            round.to_string(),
            g.paired.table.to_string(),
            b,
            bn,
            br,
            w,
            wn,
            wr,
            g.paired.handicap.to_string(),
            color_by(g.paired.color_by).into(),
            result_text(t.counted_result(g).map(|x| x.outcome)).into(),
            String::new(),
        ]));
    }
    for bye in &r.byes {
        let (p, n, rk) = who(bye.player);
        let kind = match bye.kind {
            ByeKind::FullPoint => "full-point",
            ByeKind::HalfPoint => "half-point",
            ByeKind::ZeroPoint => "zero-point",
        };
        out.push_str(&row(&[
            round.to_string(),
            String::new(),
            p,
            n,
            rk,
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            kind.into(),
        ]));
    }
    out
}

/// The `.h9` header fields the tournament itself does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct H9Header {
    /// EGF class: 'A', 'B' or 'C'.
    pub class: char,
    /// Country code and city, e.g. "CN,Hangzhou".
    pub place: String,
    /// Dates, e.g. "2026-11-28,2026-11-29".
    pub dates: String,
    /// Handicap rule text, e.g. "h9" (rank difference, at most 9) or "h0".
    pub handicap: String,
    /// Komi in points, e.g. "7.5".
    pub komi: String,
    /// Basic time in minutes.
    pub basic_minutes: u32,
}

/// One token of a name for the table: whitespace would split the columns.
fn token(s: &str) -> String {
    let t: String = s.split_whitespace().collect::<Vec<_>>().join("_");
    if t.is_empty() { "-".into() } else { t }
}

/// Results in the EGD tournament table format (see the module doc).
pub fn export_h9(t: &Tournament, header: &H9Header) -> String {
    let st = standings(t);
    let recs = records(t, t.current_round());
    let place: HashMap<PlayerId, u32> = st.rows.iter().enumerate().map(|(i, r)| (r.player, i as u32 + 1)).collect();
    let name = t.config.as_ref().map_or("", |c| c.name.as_str());
    let mut out = String::new();
    let _ = writeln!(out, "; CL[{}]", header.class);
    let _ = writeln!(out, "; EV[{name}]");
    let _ = writeln!(out, "; PC[{}]", header.place);
    let _ = writeln!(out, "; DT[{}]", header.dates);
    let _ = writeln!(out, "; HA[{}]", header.handicap);
    let _ = writeln!(out, "; KM[{}]", header.komi);
    let _ = writeln!(out, "; TM[{}]", header.basic_minutes);
    let crit: Vec<String> = st.criteria.iter().map(|c| c.name()).collect();
    let _ = writeln!(out, "; Pl Name Rk Co Club {} Results", crit.join(" "));
    for (i, r) in st.rows.iter().enumerate() {
        let reg = &t.players[&r.player].registration;
        let mut parts = reg.name_latin.split_whitespace();
        let surname = token(parts.next().unwrap_or(""));
        let given = token(&parts.collect::<Vec<_>>().join(" "));
        let country = reg.country.clone().unwrap_or_else(|| "CN".into());
        let club = token(reg.club.as_deref().unwrap_or(""));
        let mut line = format!("{:>4} {surname} {given} {} {country} {club}", i + 1, reg.rank);
        for v in &r.values {
            let _ = write!(line, " {v}");
        }
        if let Some(rec) = recs.get(r.player) {
            for e in &rec.entries {
                let entry = match *e {
                    Entry::Game { opponent, result, color, handicap, forfeit, .. } => {
                        let sym = match result {
                            PlayerResult::Win => '+',
                            PlayerResult::Draw => '=',
                            PlayerResult::Loss | PlayerResult::Void => '-',
                        };
                        let c = if color == Color::Black { 'b' } else { 'w' };
                        let opp = place.get(&opponent).copied().unwrap_or(0);
                        let mut s = format!("{opp}{sym}/{c}");
                        if handicap > 0 {
                            let _ = write!(s, "{handicap}");
                        }
                        if forfeit {
                            s.push('!');
                        }
                        s
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
