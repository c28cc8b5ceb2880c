//! Team events (Art. 26 and the team events of RULES.md section 4): fixed board order or a line-up
//! per match (Art. 25.2), teams meeting in a round robin (Berger tables) or a Swiss on match points;
//! the home team holds Black on odd boards.

use super::{Draft, teams_by_lot};
use crate::berger::{berger_round, rounds_per_cycle};
use crate::colors;
use crate::config::{LineUpRule, TeamSchedule, TournamentConfig};
use crate::event::{ColorBy, TeamBoard, TeamMatch};
use crate::ids::{PlayerId, TeamId};
use crate::lot;
use crate::rejection::Rejection;
use crate::state::Tournament;
use crate::swiss::{PairingParams, pair_round};
use crate::team::team_records;
use crate::weights::{Candidate, PairingPolicy};
use std::collections::{BTreeSet, HashMap};

/// A team's players for a match.
fn line_up(
    t: &Tournament,
    round: u32,
    team: TeamId,
    boards: u32,
    rule: LineUpRule,
) -> Result<Vec<PlayerId>, Rejection> {
    match rule {
        LineUpRule::FixedOrder => {
            let v: Vec<PlayerId> =
                t.teams[&team].members.iter().copied().filter(|&p| t.is_active(p)).take(boards as usize).collect();
            if v.len() < boards as usize { Err(Rejection::InvalidLineUp(team)) } else { Ok(v) }
        }
        LineUpRule::PerMatch => t.line_ups.get(&(round, team)).cloned().ok_or(Rejection::LineUpMissing(team)),
    }
}

/// Adds one team match: the home team holds Black on odd boards.
fn team_match(d: &mut Draft, home: (TeamId, &[PlayerId]), away: (TeamId, &[PlayerId])) {
    let match_no = d.team_matches.len() as u32 + 1;
    d.team_matches.push(TeamMatch { match_no, home: home.0, away: away.0 });
    for (k, (&h, &a)) in home.1.iter().zip(away.1).enumerate() {
        let (black, white) = if k % 2 == 0 { (h, a) } else { (a, h) };
        let g = d.game(black, white, ColorBy::BoardOrder);
        g.team_board = Some(TeamBoard { match_no, board: k as u32 + 1 });
    }
}

pub(super) fn team_round(
    t: &Tournament,
    cfg: &TournamentConfig,
    next: u32,
    boards: u32,
    rule: LineUpRule,
    schedule: TeamSchedule,
) -> Result<Draft, Rejection> {
    let teams = teams_by_lot(t);
    let mut d = Draft::default();
    let pairs: Vec<(TeamId, TeamId)> = match schedule {
        TeamSchedule::RoundRobin { cycles } => {
            if next as usize > rounds_per_cycle(teams.len()) * cycles as usize {
                return Err(Rejection::Finished);
            }
            let pairs: Vec<(TeamId, TeamId)> =
                berger_round(teams.len(), (next - 1) as usize).into_iter().map(|(h, a)| (teams[h], teams[a])).collect();
            // A team left out of a round-robin round rests: no team bye, nothing scored.
            pairs
        }
        TeamSchedule::Swiss { rounds } => {
            if next > rounds {
                return Err(Rejection::Finished);
            }
            let recs = team_records(t, next - 1);
            let cands: Vec<Candidate> = teams
                .iter()
                .map(|&k| {
                    let r = &recs[&k];
                    Candidate {
                        id: PlayerId(k.0),
                        score: r.match_points,
                        rank: 0,
                        lot: t.teams[&k].lot,
                        color_balance: r.home as i32 - r.away as i32,
                        last_color: None,
                        byes: r.byes,
                        opponents: r.opponents.iter().map(|o| PlayerId(o.0)).collect(),
                        club: None,
                        region: None,
                        family: None,
                        seat: None,
                    }
                })
                .collect();
            let policy = PairingPolicy::default();
            let plan =
                pair_round(&cands, &BTreeSet::new(), &policy, &PairingParams::default()).map_err(Rejection::Pairing)?;
            if let Some(b) = plan.bye {
                d.team_byes.push(TeamId(b.0));
            }
            let by_id: HashMap<PlayerId, &Candidate> = cands.iter().map(|c| (c.id, c)).collect();
            let mut nigiri = lot::nigiri(cfg.seed, next);
            plan.pairs
                .iter()
                .map(|p| {
                    let (home, _, _) = colors::assign(by_id[&p.a], by_id[&p.b], 0, &mut nigiri);
                    let away = if home == p.a { p.b } else { p.a };
                    (TeamId(home.0), TeamId(away.0))
                })
                .collect()
        }
    };
    for (home, away) in pairs {
        let h = line_up(t, next, home, boards, rule)?;
        let a = line_up(t, next, away, boards, rule)?;
        team_match(&mut d, (home, &h), (away, &a));
    }
    Ok(d)
}
