//! `Created` and the configuration it carries: format, points, ranking criteria, pairing policy.

use weiqi_pairing::config::{
    Format, LineUpRule, McMahonBars, PointSystem, TeamSchedule, TournamentConfig, UnplayedSosm,
};
use weiqi_pairing::event::TournamentEvent;
use weiqi_pairing::ids::Millis;
use weiqi_pairing::seeding::{SeedSystem, Seeding};
use weiqi_pairing::standings::TieBreak;
use weiqi_pairing::weights::{ByePolicy, HandicapPolicy, PairingPolicy, RematchPolicy};
use weiqi_proto::v1 as pb;

use super::values::{BYE_KINDS, rank_from_pb, rank_to_pb};
use super::{CodecError, EnumPairs, narrow, required};

use pb::tournament_core_format::team::LineUp;
use pb::tournament_pairing_policy::{Byes, Rematches};
use pb::tournament_tie_break::Criterion;

const LINE_UPS: EnumPairs<LineUpRule, LineUp> =
    EnumPairs(&[(LineUpRule::FixedOrder, LineUp::FixedOrder), (LineUpRule::PerMatch, LineUp::PerMatch)]);

const REMATCHES: EnumPairs<RematchPolicy, Rematches> = EnumPairs(&[
    (RematchPolicy::Forbidden, Rematches::Forbidden),
    (RematchPolicy::Discouraged, Rematches::Discouraged),
]);

const SEED_SYSTEMS: EnumPairs<SeedSystem, pb::tournament_pairing_policy::SeedSystem> = EnumPairs(&[
    (SeedSystem::SplitAndRandom, pb::tournament_pairing_policy::SeedSystem::SplitAndRandom),
    (SeedSystem::SplitAndFold, pb::tournament_pairing_policy::SeedSystem::SplitAndFold),
    (SeedSystem::SplitAndSlip, pb::tournament_pairing_policy::SeedSystem::SplitAndSlip),
]);

const BYES: EnumPairs<ByePolicy, Byes> =
    EnumPairs(&[(ByePolicy::OncePerPlayer, Byes::OncePerPlayer), (ByePolicy::FewestFirst, Byes::FewestFirst)]);

/// The criteria without a parameter; [`TieBreak::Board`] carries its board beside the criterion.
const TIE_BREAKS: EnumPairs<TieBreak, Criterion> = EnumPairs(&[
    (TieBreak::Points, Criterion::Points),
    (TieBreak::Wins, Criterion::Wins),
    (TieBreak::Mms, Criterion::Mms),
    (TieBreak::TotalScore, Criterion::TotalScore),
    (TieBreak::Sos, Criterion::Sos),
    (TieBreak::Sosos, Criterion::Sosos),
    (TieBreak::Sodos, Criterion::Sodos),
    (TieBreak::Sosm, Criterion::Sosm),
    (TieBreak::Sososm, Criterion::Sososm),
    (TieBreak::Warnings, Criterion::Warnings),
    (TieBreak::HeadToHead, Criterion::HeadToHead),
    (TieBreak::Lot, Criterion::Lot),
    (TieBreak::MatchPoints, Criterion::MatchPoints),
    (TieBreak::BoardPoints, Criterion::BoardPoints),
    (TieBreak::TeamTotalScore, Criterion::TeamTotalScore),
]);

pub(super) fn created_to_pb(config: &TournamentConfig, at: Millis) -> pb::TournamentCreated {
    pb::TournamentCreated { config: Some(config_to_pb(config)), at_ms: at.0 }
}

pub(super) fn settings_changed_to_pb(
    format: &Format,
    ranking: &[TieBreak],
    at: Millis,
) -> pb::TournamentSettingsChanged {
    pb::TournamentSettingsChanged {
        format: Some(format_to_pb(format)),
        ranking: ranking.iter().map(|t| tie_break_to_pb(*t)).collect(),
        at_ms: at.0,
    }
}

pub(super) fn settings_changed_from_pb(m: &pb::TournamentSettingsChanged) -> Result<TournamentEvent, CodecError> {
    Ok(TournamentEvent::SettingsChanged {
        format: format_from_pb(required(m.format.as_ref(), "TournamentSettingsChanged.format")?)?,
        ranking: m.ranking.iter().map(tie_break_from_pb).collect::<Result<_, _>>()?,
        at: Millis(m.at_ms),
    })
}

pub(super) fn created_from_pb(m: &pb::TournamentCreated) -> Result<TournamentEvent, CodecError> {
    let config = config_from_pb(required(m.config.as_ref(), "TournamentCreated.config")?)?;
    Ok(TournamentEvent::Created { config, at: Millis(m.at_ms) })
}

/// A configuration for the wire, exactly as the core holds it.
#[must_use]
pub fn config_to_pb(c: &TournamentConfig) -> pb::TournamentCoreConfig {
    pb::TournamentCoreConfig {
        name: c.name.clone(),
        format: Some(format_to_pb(&c.format)),
        points: Some(pb::tournament_core_config::Points {
            win: c.points.win,
            draw: c.points.draw,
            loss: c.points.loss,
        }),
        ranking: c.ranking.iter().map(|&t| tie_break_to_pb(t)).collect(),
        seed: c.seed,
        pairing_bye: BYE_KINDS.encode(c.pairing_bye),
        pairing: Some(pairing_to_pb(&c.pairing)),
        no_show_limit_ms: c.no_show_limit_ms,
        withdraw_after_no_shows: c.withdraw_after_no_shows,
        shared_places: c.shared_places,
        unplayed_sosm: match c.unplayed_sosm {
            UnplayedSosm::StartMms => pb::tournament_core_config::UnplayedSosm::StartMms,
            UnplayedSosm::OwnFinalMms => pb::tournament_core_config::UnplayedSosm::OwnFinalMms,
        }
        .into(),
    }
}

/// A stored configuration.
///
/// # Errors
/// A [`CodecError`] naming the first field that is missing, out of range or holds an unknown value.
pub fn config_from_pb(c: &pb::TournamentCoreConfig) -> Result<TournamentConfig, CodecError> {
    let points = required(c.points.as_ref(), "TournamentCoreConfig.points")?;
    let format = format_from_pb(required(c.format.as_ref(), "TournamentCoreConfig.format")?)?;
    Ok(TournamentConfig {
        name: c.name.clone(),
        format: format.clone(),
        points: PointSystem { win: points.win, draw: points.draw, loss: points.loss },
        ranking: c.ranking.iter().map(tie_break_from_pb).collect::<Result<_, _>>()?,
        seed: c.seed,
        pairing_bye: BYE_KINDS.decode("TournamentCoreConfig.pairing_bye", c.pairing_bye)?,
        pairing: {
            let pairing = required(c.pairing.as_ref(), "TournamentCoreConfig.pairing")?;
            let mut policy = pairing_from_pb(pairing)?;
            if pairing.seeding.is_none() {
                // Written before seeding existed: OpenGotha's default for the format.
                policy.seeding = weiqi_pairing::config::default_seeding(&format);
            }
            policy
        },
        no_show_limit_ms: c.no_show_limit_ms,
        withdraw_after_no_shows: c.withdraw_after_no_shows,
        shared_places: c.shared_places,
        unplayed_sosm: unplayed_sosm_from_pb(c.unplayed_sosm)?,
    })
}

/// What a round without a game adds to SOSM (unspecified: the EGF rules' start MMS).
///
/// # Errors
/// An unknown value.
pub fn unplayed_sosm_from_pb(v: i32) -> Result<UnplayedSosm, CodecError> {
    use pb::tournament_core_config::UnplayedSosm as U;
    match U::try_from(v) {
        Ok(U::Unspecified | U::StartMms) => Ok(UnplayedSosm::StartMms),
        Ok(U::OwnFinalMms) => Ok(UnplayedSosm::OwnFinalMms),
        Err(_) => {
            Err(CodecError::Invalid { field: "TournamentCoreConfig.unplayed_sosm", reason: "unknown value".into() })
        }
    }
}

fn format_to_pb(f: &Format) -> pb::TournamentCoreFormat {
    use pb::tournament_core_format as F;
    let format = match f {
        Format::Knockout { losses } => F::Format::Knockout(F::Knockout { losses: *losses }),
        Format::RoundRobin { cycles } => F::Format::RoundRobin(F::RoundRobin { cycles: *cycles }),
        Format::Swiss { rounds } => F::Format::Swiss(F::Swiss { rounds: *rounds }),
        Format::McMahon { rounds, bars } => F::Format::Mcmahon(F::McMahon {
            rounds: *rounds,
            top_bar: Some(rank_to_pb(bars.top)),
            bottom_bar: Some(rank_to_pb(bars.bottom)),
        }),
        Format::SwissElimination { rounds, losses } => {
            F::Format::SwissElimination(F::SwissElimination { rounds: *rounds, losses: *losses })
        }
        Format::Match { wins_needed } => F::Format::Match(F::Match { wins_needed: *wins_needed }),
        Format::FixedMatch { games } => F::Format::FixedMatch(F::FixedMatch { games: *games }),
        Format::GroupsThenKnockout { groups, advance } => {
            F::Format::GroupsThenKnockout(F::GroupsThenKnockout { groups: *groups, advance: *advance })
        }
        Format::Team { boards, line_up, schedule } => F::Format::Team(F::Team {
            boards: *boards,
            line_up: LINE_UPS.encode(*line_up),
            schedule: Some(match schedule {
                TeamSchedule::RoundRobin { cycles } => F::team::Schedule::RoundRobinCycles(*cycles),
                TeamSchedule::Swiss { rounds } => F::team::Schedule::SwissRounds(*rounds),
            }),
        }),
        Format::TeamRotation => F::Format::TeamRotation(F::TeamRotation {}),
        Format::WinAndContinue => F::Format::WinAndContinue(F::WinAndContinue {}),
    };
    pb::TournamentCoreFormat { format: Some(format) }
}

fn format_from_pb(f: &pb::TournamentCoreFormat) -> Result<Format, CodecError> {
    use pb::tournament_core_format as F;
    Ok(match required(f.format.as_ref(), "TournamentCoreFormat.format")? {
        F::Format::Knockout(k) => Format::Knockout { losses: k.losses },
        F::Format::RoundRobin(r) => Format::RoundRobin { cycles: r.cycles },
        F::Format::Swiss(s) => Format::Swiss { rounds: s.rounds },
        F::Format::Mcmahon(m) => Format::McMahon {
            rounds: m.rounds,
            bars: McMahonBars {
                top: rank_from_pb(m.top_bar.as_ref(), "TournamentCoreFormat.McMahon.top_bar")?,
                bottom: rank_from_pb(m.bottom_bar.as_ref(), "TournamentCoreFormat.McMahon.bottom_bar")?,
            },
        },
        F::Format::SwissElimination(s) => Format::SwissElimination { rounds: s.rounds, losses: s.losses },
        F::Format::Match(m) => Format::Match { wins_needed: m.wins_needed },
        F::Format::FixedMatch(m) => Format::FixedMatch { games: m.games },
        F::Format::GroupsThenKnockout(g) => Format::GroupsThenKnockout { groups: g.groups, advance: g.advance },
        F::Format::Team(t) => Format::Team {
            boards: t.boards,
            line_up: LINE_UPS.decode("TournamentCoreFormat.Team.line_up", t.line_up)?,
            schedule: match required(t.schedule.as_ref(), "TournamentCoreFormat.Team.schedule")? {
                F::team::Schedule::RoundRobinCycles(cycles) => TeamSchedule::RoundRobin { cycles: *cycles },
                F::team::Schedule::SwissRounds(rounds) => TeamSchedule::Swiss { rounds: *rounds },
            },
        },
        F::Format::TeamRotation(_) => Format::TeamRotation,
        F::Format::WinAndContinue(_) => Format::WinAndContinue,
    })
}

fn tie_break_to_pb(t: TieBreak) -> pb::TournamentTieBreak {
    match t {
        TieBreak::Board(board) => pb::TournamentTieBreak { criterion: Criterion::Board.into(), board },
        other => pb::TournamentTieBreak { criterion: TIE_BREAKS.encode(other), board: 0 },
    }
}

fn tie_break_from_pb(t: &pb::TournamentTieBreak) -> Result<TieBreak, CodecError> {
    if t.criterion == i32::from(Criterion::Board) {
        return Ok(TieBreak::Board(t.board));
    }
    let criterion = TIE_BREAKS.decode("TournamentTieBreak.criterion", t.criterion)?;
    if t.board != 0 {
        return Err(CodecError::Invalid {
            field: "TournamentTieBreak.board",
            reason: "a board is set on a criterion other than CRITERION_BOARD".into(),
        });
    }
    Ok(criterion)
}

fn pairing_to_pb(p: &PairingPolicy) -> pb::TournamentPairingPolicy {
    use pb::tournament_pairing_policy as P;
    pb::TournamentPairingPolicy {
        handicap: Some(match p.handicap {
            HandicapPolicy::Even => P::Handicap::Even(P::Even {}),
            HandicapPolicy::ByRank { reduction, ceiling } => {
                P::Handicap::ByRank(P::ByRank { reduction: u32::from(reduction), ceiling: u32::from(ceiling) })
            }
        }),
        separate_clubs: p.separate_clubs,
        separate_regions: p.separate_regions,
        separate_families: p.separate_families,
        rematches: REMATCHES.encode(p.rematches),
        byes: BYES.encode(p.byes),
        seeding: Some(P::Seeding {
            first: SEED_SYSTEMS.encode(p.seeding.first),
            last_round_first: p.seeding.last_round_first,
            second: SEED_SYSTEMS.encode(p.seeding.second),
        }),
    }
}

fn pairing_from_pb(p: &pb::TournamentPairingPolicy) -> Result<PairingPolicy, CodecError> {
    use pb::tournament_pairing_policy as P;
    Ok(PairingPolicy {
        handicap: match required(p.handicap.as_ref(), "TournamentPairingPolicy.handicap")? {
            P::Handicap::Even(_) => HandicapPolicy::Even,
            P::Handicap::ByRank(r) => HandicapPolicy::ByRank {
                reduction: narrow(r.reduction, "TournamentPairingPolicy.ByRank.reduction")?,
                ceiling: narrow(r.ceiling, "TournamentPairingPolicy.ByRank.ceiling")?,
            },
        },
        separate_clubs: p.separate_clubs,
        separate_regions: p.separate_regions,
        separate_families: p.separate_families,
        rematches: REMATCHES.decode("TournamentPairingPolicy.rematches", p.rematches)?,
        byes: BYES.decode("TournamentPairingPolicy.byes", p.byes)?,
        seeding: match &p.seeding {
            Some(s) => Seeding {
                first: SEED_SYSTEMS.decode("TournamentPairingPolicy.Seeding.first", s.first)?,
                last_round_first: s.last_round_first,
                second: SEED_SYSTEMS.decode("TournamentPairingPolicy.Seeding.second", s.second)?,
            },
            None => Seeding::default(),
        },
    })
}
