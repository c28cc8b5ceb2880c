//! Exports as plain strings: standings and pairings as CSV (RFC 4180 quoting). The EGD tournament
//! table (`.h9`) has its own module, [`crate::h9`] (writer, reader and checker), re-exported here.

use crate::config::ByeKind;
pub use crate::h9::{H9Header, export_h9};
use crate::ids::{Color, PlayerId};
use crate::outcome::Outcome;
use crate::standings::Standings;
use crate::state::Tournament;

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
            g.paired.color_by.name().into(),
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
