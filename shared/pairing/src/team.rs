//! Team events (Art. 25.2, 27.2): board points make match points (2/1/0 by default), and team
//! standings by match points, board points, then first board, second board, ….
//!
//! A team bye (odd number of teams in a team Swiss) scores the match points of the configured
//! pairing bye and no board points; a round-robin rest scores nothing.

use crate::config::{ByeKind, PointSystem};
use crate::ids::{Color, PlayerId, TeamId};
use crate::ratio::Ratio;
use crate::record::{bye_points, result_points};
use crate::standings::{TieBreak, build_rows, refine};
use crate::state::Tournament;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One team's results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeamRecord {
    /// Match points.
    pub match_points: i64,
    /// Board points (sum of the game points of its players).
    pub board_points: i64,
    /// Board points per board (`boards[0]` = first board).
    pub boards: Vec<i64>,
    /// Teams met, with each meeting's match points of that team counted later for the total score.
    pub opponents: Vec<TeamId>,
    /// Matches as the home team (Black on odd boards).
    pub home: u32,
    /// Matches as the away team.
    pub away: u32,
    /// Team byes received.
    pub byes: u32,
}

/// A completed team match's score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchScore {
    /// Home team.
    pub home: TeamId,
    /// Away team.
    pub away: TeamId,
    /// Board points (home, away).
    pub board_points: [i64; 2],
    /// Match points (home, away).
    pub match_points: [i64; 2],
    /// (side 0 home / 1 away, board from 1, points).
    pub boards: Vec<(usize, usize, i64)>,
}

/// Scores of the team matches over rounds `1..=up_to` whose boards all have results.
pub fn match_scores(t: &Tournament, up_to: u32) -> Vec<MatchScore> {
    let points = t.config.as_ref().map(|c| c.points).unwrap_or(PointSystem::TWO_ONE_ZERO);
    let mut out = Vec::new();
    for round in t.rounds.iter().take(up_to as usize) {
        for m in &round.team_matches {
            let games: Vec<_> =
                round.games.iter().filter(|g| g.paired.team_board.is_some_and(|b| b.match_no == m.match_no)).collect();
            if games.is_empty() || games.iter().any(|g| g.result.is_none()) {
                continue;
            }
            let mut bp = [0i64; 2];
            let mut boards = Vec::new();
            for g in &games {
                let Some(res) = g.result else { continue };
                let board = g.paired.team_board.map_or(1, |b| b.board) as usize;
                for (color, player) in [(Color::Black, g.paired.black), (Color::White, g.paired.white)] {
                    let side = usize::from(t.players.get(&player).and_then(|e| e.team) != Some(m.home));
                    let p = result_points(&points, res.outcome.for_color(color));
                    bp[side] += p;
                    boards.push((side, board, p));
                }
            }
            let mp = match bp[0].cmp(&bp[1]) {
                std::cmp::Ordering::Greater => [points.win, points.loss],
                std::cmp::Ordering::Less => [points.loss, points.win],
                std::cmp::Ordering::Equal => [points.draw, points.draw],
            };
            out.push(MatchScore { home: m.home, away: m.away, board_points: bp, match_points: mp, boards });
        }
    }
    out
}

/// Team records over rounds `1..=up_to`; a match scores once all its boards have results.
pub fn team_records(t: &Tournament, up_to: u32) -> BTreeMap<TeamId, TeamRecord> {
    let points = t.config.as_ref().map(|c| c.points).unwrap_or(PointSystem::TWO_ONE_ZERO);
    let bye = t.config.as_ref().map(|c| c.pairing_bye).unwrap_or(ByeKind::FullPoint);
    let mut recs: BTreeMap<TeamId, TeamRecord> = t.teams.keys().map(|&k| (k, TeamRecord::default())).collect();
    for m in match_scores(t, up_to) {
        for (side, team, opp) in [(0, m.home, m.away), (1, m.away, m.home)] {
            let r = recs.entry(team).or_default();
            r.match_points += m.match_points[side];
            r.board_points += m.board_points[side];
            r.opponents.push(opp);
            if side == 0 {
                r.home += 1;
            } else {
                r.away += 1;
            }
            for &(s, board, p) in &m.boards {
                if s == side {
                    if r.boards.len() < board {
                        r.boards.resize(board, 0);
                    }
                    r.boards[board - 1] += p;
                }
            }
        }
    }
    for round in t.rounds.iter().take(up_to as usize) {
        for team in &round.team_byes {
            let r = recs.entry(*team).or_default();
            r.byes += 1;
            r.match_points += bye_points(&points, bye);
        }
    }
    recs
}

/// One row of team standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRow {
    /// Place (shared places repeat).
    pub place: u32,
    /// The team.
    pub team: TeamId,
    /// Values of each criterion.
    pub values: Vec<Ratio>,
    /// The deepest tie-break needed to separate this place from a neighbour tied on the primary.
    pub decided_by: Option<TieBreak>,
    /// Equal to a neighbour on every criterion.
    pub shared: bool,
}

/// Team standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamStandings {
    /// Rounds counted.
    pub after_round: u32,
    /// Criteria, primary first.
    pub criteria: Vec<TieBreak>,
    /// Rows in order.
    pub rows: Vec<TeamRow>,
}

/// Team standings after every paired round (incomplete matches count nothing yet).
pub fn team_standings(t: &Tournament) -> TeamStandings {
    let up_to = t.current_round();
    let recs = team_records(t, up_to);
    let criteria = t.config.as_ref().map(|c| c.ranking.clone()).unwrap_or_else(|| vec![TieBreak::MatchPoints]);
    let win = t.config.as_ref().map_or(2, |c| c.points.win);
    let teams: Vec<TeamId> = recs.keys().copied().collect();
    let rounds = i64::from(up_to);
    let lots = crate::standings::lot_places(t.teams.iter().map(|(&k, team)| (k, team.lot)));
    let value = |c: TieBreak, i: usize| -> Ratio {
        let r = &recs[&teams[i]];
        match c {
            TieBreak::MatchPoints | TieBreak::Points => Ratio::int(r.match_points),
            TieBreak::BoardPoints => Ratio::int(r.board_points),
            TieBreak::Board(k) => Ratio::int(r.boards.get((k as usize).wrapping_sub(1)).copied().unwrap_or(0)),
            TieBreak::TeamTotalScore | TieBreak::TotalScore => {
                if rounds == 0 {
                    Ratio::int(r.match_points)
                } else {
                    let sos: i64 = r.opponents.iter().map(|o| recs[o].match_points).sum();
                    Ratio::int(r.match_points - rounds) + Ratio::new(2 * sos, win * rounds)
                }
            }
            TieBreak::Sos => Ratio::int(r.opponents.iter().map(|o| recs[o].match_points).sum()),
            TieBreak::Lot => Ratio::int(lots.get(&teams[i]).copied().unwrap_or(0)),
            _ => Ratio::ZERO,
        }
    };
    let scores = match_scores(t, up_to);
    let head_to_head = |group: &[usize], i: usize| -> Ratio {
        // Match points scored against the other tied teams.
        let me = teams[i];
        let in_group = |x: TeamId| group.iter().any(|&g| teams[g] == x);
        Ratio::int(
            scores
                .iter()
                .map(|m| {
                    if m.home == me && in_group(m.away) {
                        m.match_points[0]
                    } else if m.away == me && in_group(m.home) {
                        m.match_points[1]
                    } else {
                        0
                    }
                })
                .sum(),
        )
    };
    let items: Vec<usize> = (0..teams.len()).collect();
    let mut table = vec![Vec::new(); teams.len()];
    let groups = refine(&items, &criteria, &mut table, &value, &head_to_head);
    let rows = build_rows(&groups, &criteria, &table, |i| (PlayerId(teams[i].0), 0, 0))
        .into_iter()
        .map(|r| TeamRow {
            place: r.place,
            team: TeamId(r.player.0),
            values: r.values,
            decided_by: r.decided_by,
            shared: r.shared,
        })
        .collect();
    TeamStandings { after_round: up_to, criteria, rows }
}
