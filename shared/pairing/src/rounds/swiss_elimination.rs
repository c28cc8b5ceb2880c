//! Swiss plus multi-loss elimination (积分编排加淘汰, Art. 26, RULES.md section 4): Swiss rounds
//! among the players still in, the field kept even by reprieving the best-placed player just
//! eliminated.

use super::swiss_mcmahon::swiss_like;
use super::{Draft, active_players};
use crate::config::TournamentConfig;
use crate::event::TournamentEvent;
use crate::ids::PlayerId;
use crate::record::records;
use crate::rejection::Rejection;
use crate::standings::rank_players;
use crate::state::Tournament;

/// Swiss plus elimination: keeps the field even by reprieving the best-placed player eliminated in
/// the last round.
pub(super) fn swiss_elimination(t: &Tournament, cfg: &TournamentConfig, next: u32) -> Result<Draft, Rejection> {
    let mut players = active_players(t);
    let mut before = Vec::new();
    if players.len() % 2 == 1 {
        let just_out: Vec<PlayerId> = t
            .players
            .iter()
            .filter(|(_, e)| e.eliminated_in == Some(next - 1) && e.withdrawn.is_none())
            .map(|(&p, _)| p)
            .collect();
        if !just_out.is_empty() {
            let recs = records(t, next - 1);
            let st = rank_players(t, &recs, &cfg.ranking);
            if let Some(best) = st.rows.iter().map(|r| r.player).find(|p| just_out.contains(p)) {
                before.push(TournamentEvent::PlayerReprieved { player: best, round: next });
                players.push(best);
            }
        }
    }
    if players.len() < 2 {
        return Err(Rejection::Finished);
    }
    let mut t2;
    let t = if before.is_empty() {
        t
    } else {
        t2 = t.clone();
        for e in &before {
            crate::state::evolve(&mut t2, e);
        }
        &t2
    };
    let mut d = swiss_like(t, cfg, next, players, cfg.pairing, false)?;
    d.before = before;
    Ok(d)
}
