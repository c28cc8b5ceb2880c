//! Pairing the next round, format by format. Everything here is a pure function of the state;
//! the events it returns record every outcome (pairs, colors, nigiri draws, byes, reprieves).
//!
//! This module holds what the formats share (the round draft, the dispatch `pair_next`, entrants,
//! seeding, forfeits and the two-team helpers); each format of Art. 26 (RULES.md section 4) has its
//! own file:
//!
//! | File | Format ([`Format`]) |
//! |---|---|
//! | `knockout.rs` | single elimination by a seeded bracket (`Knockout`) |
//! | `round_robin.rs` | round robin by Berger tables (`RoundRobin`) |
//! | `swiss_mcmahon.rs` | Swiss and McMahon (`Swiss`, `McMahon`); the loss groups of `Knockout { losses: 2.. }` |
//! | `swiss_elimination.rs` | Swiss plus multi-loss elimination (`SwissElimination`) |
//! | `matches.rs` | best-of-N and fixed-length matches (`Match`, `FixedMatch`) |
//! | `groups.rs` | groups then a cross knockout (`GroupsThenKnockout`) |
//! | `team.rs` | team events (`Team`) |
//! | `team_rotation.rs` | team rotation (`TeamRotation`) |
//! | `win_and_continue.rs` | 擂台赛 win-and-continue (`WinAndContinue`) |

mod groups;
mod knockout;
mod matches;
mod round_robin;
mod swiss_elimination;
mod swiss_mcmahon;
mod team;
mod team_rotation;
mod win_and_continue;

pub(crate) use groups::group_members;
pub(crate) use knockout::knockout_champion;
pub(crate) use matches::match_wins;
pub use swiss_mcmahon::next_round_candidates;
pub(crate) use swiss_mcmahon::{candidates, pairing_score, seeding_salt};
pub(crate) use win_and_continue::arena_next;

use crate::berger::rounds_per_cycle;
use crate::config::{Format, TeamSchedule, TournamentConfig};
use crate::event::{BracketSlot, Bye, ColorBy, PairedGame, Stage, TeamMatch, TournamentEvent};
use crate::ids::{Color, GameRef, Millis, PlayerId, TeamId};
use crate::outcome::{GameResult, Outcome, ResultReason};
use crate::rejection::Rejection;
use crate::state::Tournament;
use crate::swiss::PairingError;
use crate::weights::{ByePolicy, PairingPolicy, RematchPolicy};
use groups::cross_knockout;
use knockout::knockout;
use matches::best_of;
use round_robin::round_robin;
use swiss_elimination::swiss_elimination;
use swiss_mcmahon::swiss_like;
use team::team_round;
use team_rotation::rotation_round;
use win_and_continue::arena_round;

/// A paired round before it becomes an event.
#[derive(Default)]
struct Draft {
    stage: Option<Stage>,
    games: Vec<PairedGame>,
    byes: Vec<Bye>,
    team_matches: Vec<TeamMatch>,
    bracket: Vec<BracketSlot>,
    team_byes: Vec<TeamId>,
    /// Games decided at once (forfeits against a withdrawn player): (table, outcome).
    forfeits: Vec<(u32, Outcome)>,
    /// Events that come before `RoundPaired` (reprieves).
    before: Vec<TournamentEvent>,
}

impl Draft {
    fn game(&mut self, black: PlayerId, white: PlayerId, color_by: ColorBy) -> &mut PairedGame {
        let table = self.games.len() as u32 + 1;
        self.games.push(PairedGame {
            table,
            black,
            white,
            handicap: 0,
            color_by,
            cost: None,
            fixed: false,
            team_board: None,
            group: None,
        });
        self.games.last_mut().expect("just pushed")
    }

    fn into_events(self, round: u32, now: Millis) -> Vec<TournamentEvent> {
        let mut events = self.before;
        events.push(TournamentEvent::RoundPaired {
            round,
            stage: self.stage.unwrap_or(Stage::Main),
            games: self.games,
            byes: self.byes,
            team_matches: self.team_matches,
            bracket: self.bracket,
            team_byes: self.team_byes,
        });
        for (table, outcome) in self.forfeits {
            events.push(TournamentEvent::ResultRecorded {
                game: GameRef { round, table },
                result: GameResult { outcome, reason: ResultReason::Forfeit },
                at: now,
            });
        }
        events
    }
}

/// Pairs round `current + 1`.
pub(crate) fn pair_next(
    t: &Tournament,
    cfg: &TournamentConfig,
    now: Millis,
) -> Result<Vec<TournamentEvent>, Rejection> {
    let next = t.current_round() + 1;
    let draft = match &cfg.format {
        Format::Swiss { rounds } | Format::McMahon { rounds, .. } => {
            if next > *rounds {
                return Err(Rejection::Finished);
            }
            swiss_like(t, cfg, next, active_players(t), cfg.pairing, false)?
        }
        Format::SwissElimination { rounds, .. } => {
            if next > *rounds {
                return Err(Rejection::Finished);
            }
            swiss_elimination(t, cfg, next)?
        }
        Format::Knockout { losses } if *losses >= 2 => {
            let active = active_players(t);
            if active.len() < 2 {
                return Err(Rejection::Finished);
            }
            let policy =
                PairingPolicy { rematches: RematchPolicy::Discouraged, byes: ByePolicy::FewestFirst, ..cfg.pairing };
            swiss_like(t, cfg, next, active, policy, true)?
        }
        Format::Knockout { .. } => knockout(t, cfg, next, Stage::Main)?,
        Format::RoundRobin { cycles } => {
            let entrants = entrants(t);
            if next as usize > rounds_per_cycle(entrants.len()) * *cycles as usize {
                return Err(Rejection::Finished);
            }
            let mut d = Draft::default();
            round_robin(t, &mut d, &entrants, (next - 1) as usize, None);
            d
        }
        Format::Match { .. } => best_of(t, cfg, next),
        Format::FixedMatch { games } => {
            if next > *games {
                return Err(Rejection::Finished);
            }
            best_of(t, cfg, next)
        }
        Format::GroupsThenKnockout { groups, advance } => {
            let groups = group_members(t, *groups);
            let group_rounds = groups.iter().map(|g| rounds_per_cycle(g.len())).max().unwrap_or(0) as u32;
            if next <= group_rounds {
                let mut d = Draft { stage: Some(Stage::Groups), ..Draft::default() };
                for (gi, g) in groups.iter().enumerate() {
                    if ((next - 1) as usize) < rounds_per_cycle(g.len()) {
                        round_robin(t, &mut d, g, (next - 1) as usize, Some(gi as u32));
                    }
                }
                d
            } else if next == group_rounds + 1 {
                cross_knockout(t, cfg, next, &groups, *advance, group_rounds)?
            } else {
                knockout(t, cfg, next, Stage::Knockout)?
            }
        }
        Format::Team { boards, line_up, schedule } => team_round(t, cfg, next, *boards, *line_up, *schedule)?,
        Format::TeamRotation => rotation_round(t, next)?,
        Format::WinAndContinue => arena_round(t, cfg, next)?,
    };
    Ok(draft.into_events(next, now))
}

/// The rounds the tournament's format plans with the field it has now (issue 15 item 3).
///
/// | Format | Rounds |
/// |---|---|
/// | Swiss, McMahon, Swiss plus elimination, team Swiss | the configured rounds (at most, for Swiss plus elimination) |
/// | Round robin (`cycles` times), team round robin | Berger rounds per cycle for the entrants (n − 1, or n when odd) × cycles |
/// | Groups then knockout | the largest group's Berger rounds + the knockout's rounds for all qualifiers |
/// | Single knockout | ⌈log₂ entrants⌉ |
/// | Best of N (first to `w` wins) | 2w − 1, the longest match without replayed draws |
/// | Fixed-length match | its games |
/// | Team rotation | the smaller team's size |
///
/// Multi-loss knockouts and win-and-continue depend on results: 0, which the wire calls open-ended.
/// Before registration closes the count follows the field as it stands.
pub fn rounds_planned(t: &Tournament) -> u32 {
    let Some(cfg) = t.config.as_ref() else { return 0 };
    let knockout_rounds = |n: usize| if n < 2 { 0 } else { usize::BITS - (n - 1).leading_zeros() };
    match &cfg.format {
        Format::Swiss { rounds } | Format::McMahon { rounds, .. } | Format::SwissElimination { rounds, .. } => *rounds,
        Format::RoundRobin { cycles } => (rounds_per_cycle(entrants(t).len()) as u32).saturating_mul(*cycles),
        Format::GroupsThenKnockout { groups, advance } => {
            let members = group_members(t, *groups);
            let group_rounds = members.iter().map(|g| rounds_per_cycle(g.len())).max().unwrap_or(0) as u32;
            let qualifiers: usize = members.iter().map(|g| g.len().min(*advance as usize)).sum();
            group_rounds + knockout_rounds(qualifiers)
        }
        Format::Knockout { losses } if *losses <= 1 => knockout_rounds(active_players(t).len()),
        Format::Knockout { .. } | Format::WinAndContinue => 0,
        Format::Match { wins_needed } => (2 * *wins_needed).saturating_sub(1),
        Format::FixedMatch { games } => *games,
        Format::Team { schedule: TeamSchedule::RoundRobin { cycles }, .. } => {
            (rounds_per_cycle(t.teams.len()) as u32).saturating_mul(*cycles)
        }
        Format::Team { schedule: TeamSchedule::Swiss { rounds }, .. } => *rounds,
        Format::TeamRotation => match two_teams(t) {
            Ok([(_, a), (_, b)]) => a.len().min(b.len()) as u32,
            Err(_) => 0,
        },
    }
}

/// Players still in: not withdrawn, not eliminated.
fn active_players(t: &Tournament) -> Vec<PlayerId> {
    t.players.keys().copied().filter(|&p| t.is_active(p)).collect()
}

/// Round-robin entrants in Berger order: everyone who did not leave before round 1, by lot.
pub(crate) fn entrants(t: &Tournament) -> Vec<PlayerId> {
    let mut v: Vec<PlayerId> =
        t.players.iter().filter(|(_, e)| e.withdrawn.is_none_or(|w| w.after_round > 0)).map(|(&p, _)| p).collect();
    v.sort_by_key(|p| (t.players[p].lot, *p));
    v
}

/// Seeding order: rank, then rating (higher first), then lot.
fn seeded(t: &Tournament, mut players: Vec<PlayerId>) -> Vec<PlayerId> {
    players.sort_by_key(|p| {
        let e = &t.players[p];
        (-e.registration.rank.value(), -(e.registration.rating.unwrap_or(0)), e.lot, *p)
    });
    players
}

/// The forfeit outcome of a game when the black and/or white player has withdrawn.
fn forfeit_outcome(black_gone: bool, white_gone: bool) -> Option<Outcome> {
    match (black_gone, white_gone) {
        (true, false) => Some(Outcome::Win(Color::White)),
        (false, true) => Some(Outcome::Win(Color::Black)),
        (true, true) => Some(Outcome::BothLose),
        (false, false) => None,
    }
}

/// Teams in lot order.
fn teams_by_lot(t: &Tournament) -> Vec<TeamId> {
    let mut v: Vec<TeamId> = t.teams.keys().copied().collect();
    v.sort_by_key(|k| (t.teams[k].lot, *k));
    v
}

/// The two teams of a two-team format, in lot order, with their active members.
fn two_teams(t: &Tournament) -> Result<[(TeamId, Vec<PlayerId>); 2], Rejection> {
    let teams = teams_by_lot(t);
    if teams.len() != 2 {
        return Err(Rejection::TooFewEntrants { needed: 2, have: teams.len() });
    }
    let members = |k: TeamId| t.teams[&k].members.clone();
    Ok([(teams[0], members(teams[0])), (teams[1], members(teams[1]))])
}

impl From<PairingError> for Rejection {
    fn from(e: PairingError) -> Rejection {
        Rejection::Pairing(e)
    }
}
