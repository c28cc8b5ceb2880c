//! Win-and-continue (擂台赛, Art. 26, RULES.md section 4): two teams in an order fixed in advance;
//! the loser is out (a draw sends both out), the winner meets the next opponent, and it ends when a
//! team's last player is out.

use super::{Draft, two_teams};
use crate::config::TournamentConfig;
use crate::event::{ColorBy, TeamBoard, TeamMatch};
use crate::ids::{PlayerId, TeamId};
use crate::lot;
use crate::outcome::PlayerResult;
use crate::record::{Entry, records};
use crate::rejection::Rejection;
use crate::state::Tournament;

/// The next player of each side in a 擂台赛: the first in order who has not lost (or drawn) yet.
pub(crate) fn arena_next(t: &Tournament) -> Result<[(TeamId, Option<PlayerId>); 2], Rejection> {
    let [(a, am), (b, bm)] = two_teams(t)?;
    let recs = records(t, t.current_round());
    let out = |p: PlayerId| {
        t.players[&p].withdrawn.is_some()
            || recs.get(p).is_some_and(|r| {
                r.entries
                    .iter()
                    .any(|e| matches!(e, Entry::Game { result: PlayerResult::Loss | PlayerResult::Draw, .. }))
            })
    };
    Ok([(a, am.iter().copied().find(|&p| !out(p))), (b, bm.iter().copied().find(|&p| !out(p)))])
}

pub(super) fn arena_round(t: &Tournament, cfg: &TournamentConfig, next: u32) -> Result<Draft, Rejection> {
    let [(a, pa), (b, pb)] = arena_next(t)?;
    let (Some(pa), Some(pb)) = (pa, pb) else {
        return Err(Rejection::Finished);
    };
    let mut d = Draft::default();
    d.team_matches.push(TeamMatch { match_no: 1, home: a, away: b });
    let (black, white) = if lot::nigiri(cfg.seed, next)() { (pa, pb) } else { (pb, pa) };
    let g = d.game(black, white, ColorBy::Nigiri);
    g.team_board = Some(TeamBoard { match_no: 1, board: next });
    Ok(d)
}
