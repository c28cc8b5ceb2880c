//! Team rotation (全队轮赛制, Art. 26, RULES.md section 4): two teams, every player meets every
//! player of the other team; a withdrawn player's remaining games are forfeits (Art. 28).

use super::{Draft, forfeit_outcome, two_teams};
use crate::event::{ColorBy, TeamBoard, TeamMatch};
use crate::ids::PlayerId;
use crate::rejection::Rejection;
use crate::state::Tournament;

/// 全队轮赛制: in round r, board i pairs A's i-th player with B's (i + r)-th.
pub(super) fn rotation_round(t: &Tournament, next: u32) -> Result<Draft, Rejection> {
    let [(a, am), (b, bm)] = two_teams(t)?;
    let n = am.len().min(bm.len());
    if next as usize > n {
        return Err(Rejection::Finished);
    }
    let r = (next - 1) as usize;
    let mut d = Draft::default();
    d.team_matches.push(TeamMatch { match_no: 1, home: a, away: b });
    for i in 0..n {
        let (x, y) = (am[i], bm[(i + r) % n]);
        let (black, white) = if (i + r).is_multiple_of(2) { (x, y) } else { (y, x) };
        let g = d.game(black, white, ColorBy::BoardOrder);
        g.team_board = Some(TeamBoard { match_no: 1, board: i as u32 + 1 });
        let table = g.table;
        let gone = |p: PlayerId| t.players[&p].withdrawn.is_some();
        if let Some(o) = forfeit_outcome(gone(black), gone(white)) {
            d.forfeits.push((table, o));
        }
    }
    Ok(d)
}
