//! Standings: points, the tie-breaks of Art. 27, the McMahon scores, and which criterion decided
//! each tied place.
//!
//! # Definitions (R = rounds counted, w = points for a win)
//! - **Points**: 2/1/0 (or the configured system) per game; byes as configured.
//! - **SOS** (对手分): sum of the opponents' points over games with a result (forfeits count: the
//!   opponent was real). A withdrawn Swiss/McMahon opponent counts, for each round after leaving,
//!   `A = min(1 draw, their points ÷ their games)` extra points (seed 004, Art. 29.3).
//! - **SOSOS**: sum of the opponents' SOS.
//! - **SODOS** (胜者小分, Art. 27.1①A): points of opponents beaten, plus half the points of opponents drawn.
//! - **Total score** (总得分, Art. 27.1②A): `points + [SOS ÷ (½ × w × R) − R]`. "Half the maximum
//!   points" is read as half of the most points a player can score in the R rounds (w × R), so the
//!   bracket is the opponents' average score minus R: zero against an average field.
//! - **Warnings**: fewer rank first (Art. 27 B).
//! - **Head-to-head**: points scored in games among the players still tied (seed 001).
//! - **Lot**: the recorded lot, lower first (Art. 27 C: only where places may not be shared).
//! - **MMS**: initial McMahon score (rank clamped between the bars; 30k = 0, 1k = 29, 1d = 30)
//!   plus points ÷ w.
//! - **SOSM / SOSOSM**: the sum of the opponents' MMS / SOSM. *Unplayed rounds* (bye, absence,
//!   withdrawal, voided game) count as [`crate::config::UnplayedSosm`] says. By default as the EGF
//!   Tournament System Rules do ("The Effect of Unplayed Games": "To a player's SOS, SOS-1, or SOS-2
//!   in a round without an opponent or with the opponent Bye, in a McMahon his own start McMahon
//!   Score is added and in a Swiss 0 is added"), and as OpenGotha computes it: the player's own
//!   *start* MMS for SOSM, and that start MMS times the rounds counted for SOSOSM (a virtual
//!   opponent on the start score, OpenGotha's `2·smms·(r+1)`). Directors who prefer that a bye
//!   neither help nor hurt choose [`crate::config::UnplayedSosm::OwnFinalMms`]: the player's own
//!   final MMS (SOSM) or own SOSM (SOSOSM). In a Swiss, SOS counts 0 for an unplayed round either way.
//!
//! A player whose round-robin results were voided (Art. 28.2) is not ranked; see [`Standings::unranked`].

use crate::config::{Format, McMahonBars, TournamentConfig, UnplayedSosm};
use crate::event::WithdrawalRuling;
use crate::ids::PlayerId;
use crate::outcome::PlayerResult;
use crate::ratio::Ratio;
use crate::record::{Entry, Records, records, result_points};
use crate::state::Tournament;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A ranking criterion (the first of a ranking list is the primary score).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TieBreak {
    /// Points.
    Points,
    /// Wins.
    Wins,
    /// McMahon score.
    Mms,
    /// Art. 27 total score.
    TotalScore,
    /// Sum of opponents' scores.
    Sos,
    /// Sum of opponents' SOS.
    Sosos,
    /// 胜者小分.
    Sodos,
    /// Sum of opponents' McMahon scores.
    Sosm,
    /// Sum of opponents' SOSM.
    Sososm,
    /// Fewer warnings first.
    Warnings,
    /// Points among the tied players.
    HeadToHead,
    /// Recorded lot.
    Lot,
    /// Team: match points.
    MatchPoints,
    /// Team: board points.
    BoardPoints,
    /// Team: points of the given board (1 = first board).
    Board(u32),
    /// Team: the Art. 27 total score on match points.
    TeamTotalScore,
}

/// A criterion's names (see [`TieBreak::names`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CriterionNames {
    /// The code in standings, files and programs (`SOSM`).
    pub code: String,
    /// In English.
    pub en: String,
    /// In Chinese.
    pub zh: String,
}

impl TieBreak {
    /// Short name for published standings and CSV headers.
    pub fn name(self) -> String {
        match self {
            TieBreak::Points => "Points".into(),
            TieBreak::Wins => "Wins".into(),
            TieBreak::Mms => "MMS".into(),
            TieBreak::TotalScore => "Total".into(),
            TieBreak::Sos => "SOS".into(),
            TieBreak::Sosos => "SOSOS".into(),
            TieBreak::Sodos => "SODOS".into(),
            TieBreak::Sosm => "SOSM".into(),
            TieBreak::Sososm => "SOSOSM".into(),
            TieBreak::Warnings => "Warnings".into(),
            TieBreak::HeadToHead => "H2H".into(),
            TieBreak::Lot => "Lot".into(),
            TieBreak::MatchPoints => "MatchPts".into(),
            TieBreak::BoardPoints => "BoardPts".into(),
            TieBreak::Board(n) => format!("Board{n}"),
            TieBreak::TeamTotalScore => "TeamTotal".into(),
        }
    }

    /// The criterion's names: its code and what people call it, in English and in Chinese. This is
    /// the one table of them; pages, the create form and files read it (issue 30 item 7). SOSM is
    /// the sum of the opponents' McMahon scores (对手麦克马洪分), not the cut SOS (SOS−1, 去尾对手分),
    /// which is a different tie-break this platform does not compute.
    pub fn names(self) -> CriterionNames {
        let (en, zh): (String, String) = match self {
            TieBreak::Points => ("Points".into(), "积分".into()),
            TieBreak::Wins => ("Wins".into(), "胜局数".into()),
            TieBreak::Mms => ("McMahon score".into(), "麦克马洪分".into()),
            TieBreak::TotalScore => ("Total score".into(), "总分".into()),
            TieBreak::Sos => ("SOS".into(), "对手分".into()),
            TieBreak::Sosos => ("SOSOS".into(), "对手的对手分".into()),
            TieBreak::Sodos => ("SODOS".into(), "胜局对手分".into()),
            TieBreak::Sosm => ("SOSM".into(), "对手麦克马洪分".into()),
            TieBreak::Sososm => ("SOSOSM".into(), "对手的对手麦克马洪分".into()),
            TieBreak::Warnings => ("Warnings".into(), "警告".into()),
            TieBreak::HeadToHead => ("Head to head".into(), "直接胜负".into()),
            TieBreak::Lot => ("Lot".into(), "抽签序号".into()),
            TieBreak::MatchPoints => ("Match points".into(), "场分".into()),
            TieBreak::BoardPoints => ("Board points".into(), "局分".into()),
            TieBreak::Board(n) => (format!("Board {n}"), format!("第{n}台")),
            TieBreak::TeamTotalScore => ("Team total".into(), "团体总分".into()),
        };
        CriterionNames { code: self.name(), en, zh }
    }

    /// A criterion by its code or by its name for people in either language (`SOSM`, `sosm`,
    /// `对手麦克马洪分`, `Head to head`, `第2台`), as an organiser types it.
    pub fn from_any_name(text: &str) -> Option<TieBreak> {
        let text = text.trim();
        if let Some(t) = TieBreak::from_name(text) {
            return Some(t);
        }
        if let Some(t) = TieBreak::FIXED.into_iter().find(|t| {
            let n = t.names();
            n.zh == text || n.en.eq_ignore_ascii_case(text)
        }) {
            return Some(t);
        }
        let board = |s: &str| s.trim().parse::<u32>().ok().filter(|&n| n >= 1).map(TieBreak::Board);
        text.strip_prefix('第')
            .and_then(|s| s.strip_suffix('台'))
            .and_then(board)
            .or_else(|| text.get(..6).filter(|p| p.eq_ignore_ascii_case("board ")).and_then(|_| board(&text[6..])))
    }

    /// The criteria that take no argument, in the order of the enum.
    pub const FIXED: [TieBreak; 15] = [
        TieBreak::Points,
        TieBreak::Wins,
        TieBreak::Mms,
        TieBreak::TotalScore,
        TieBreak::Sos,
        TieBreak::Sosos,
        TieBreak::Sodos,
        TieBreak::Sosm,
        TieBreak::Sososm,
        TieBreak::Warnings,
        TieBreak::HeadToHead,
        TieBreak::Lot,
        TieBreak::MatchPoints,
        TieBreak::BoardPoints,
        TieBreak::TeamTotalScore,
    ];

    /// A criterion by its published name ([`TieBreak::name`]), case-insensitively: `SOSM`, `sosm`,
    /// `Board2`.
    pub fn from_name(name: &str) -> Option<TieBreak> {
        let name = name.trim();
        if let Some(t) = TieBreak::FIXED.into_iter().find(|t| t.name().eq_ignore_ascii_case(name)) {
            return Some(t);
        }
        let lower = name.to_ascii_lowercase();
        lower.strip_prefix("board").and_then(|n| n.parse::<u32>().ok()).filter(|&n| n >= 1).map(TieBreak::Board)
    }

    /// Whether a lower value ranks first.
    pub fn lower_is_better(self) -> bool {
        matches!(self, TieBreak::Warnings | TieBreak::Lot)
    }
}

/// The default ranking of a format (Art. 27; seed 001 for groups).
pub fn default_ranking(format: &Format) -> Vec<TieBreak> {
    use TieBreak::*;
    match format {
        Format::RoundRobin { .. } => vec![Points, Sodos, Warnings, Lot],
        Format::Swiss { .. } => vec![TotalScore, Warnings, Lot],
        Format::McMahon { .. } => vec![Mms, Sosm, Sososm, Lot],
        Format::SwissElimination { .. } | Format::Knockout { .. } => {
            vec![Points, Sos, Warnings, Lot]
        }
        Format::Match { .. } | Format::FixedMatch { .. } => vec![Points, Lot],
        Format::GroupsThenKnockout { .. } => vec![Points, HeadToHead, Sodos, Warnings, Lot],
        Format::Team { boards, schedule, .. } => {
            let mut v = match schedule {
                crate::config::TeamSchedule::RoundRobin { .. } => vec![MatchPoints, BoardPoints],
                crate::config::TeamSchedule::Swiss { .. } => vec![TeamTotalScore, BoardPoints],
            };
            v.extend((1..=*boards).map(Board));
            v
        }
        Format::TeamRotation | Format::WinAndContinue => vec![BoardPoints],
    }
}

/// One ranked row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingRow {
    /// Place (shared places repeat).
    pub place: u32,
    /// The player (or, in team standings, the team's id as a player id; see [`crate::team`]).
    pub player: PlayerId,
    /// Values of each criterion of [`Standings::criteria`] (head-to-head: within the tie).
    pub values: Vec<Ratio>,
    /// For a place tied on the primary score with a neighbour: the deepest tie-break that was needed
    /// to separate it from its neighbours. `None` when the primary score alone decided.
    pub decided_by: Option<TieBreak>,
    /// Equal to a neighbour on every criterion: the place is shared.
    pub shared: bool,
    /// Games with a result.
    pub games: u32,
    /// Wins.
    pub wins: u32,
}

/// Published standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// Rounds counted.
    pub after_round: u32,
    /// The ranking criteria, primary first.
    pub criteria: Vec<TieBreak>,
    /// Rows in order.
    pub rows: Vec<StandingRow>,
    /// Players not ranked (round-robin results voided on withdrawal).
    pub unranked: Vec<PlayerId>,
}

/// The initial McMahon score for a rank value: clamped between the bars, 30k = 0.
pub fn initial_mms(rank_value: i32, bars: &McMahonBars) -> i64 {
    i64::from(rank_value.clamp(bars.bottom.value(), bars.top.value()) + 29)
}

/// Per-player criterion values computed once.
pub(crate) struct Scores {
    pub points: Vec<i64>,
    pub opp_points: Vec<Ratio>,
    pub mms: Vec<Ratio>,
    /// The start McMahon score (rank between the bars), for unplayed rounds under the EGF rules.
    pub start_mms: Vec<Ratio>,
    pub rounds: u32,
}

/// Points as opponents see them: own points plus seed 004's virtual score for a Swiss withdrawal.
pub(crate) fn scores(t: &Tournament, recs: &Records) -> Scores {
    let cfg = t.config.as_ref();
    let draw = cfg.map_or(1, |c| c.points.draw);
    let win = cfg.map_or(2, |c| c.points.win).max(1);
    let bars = match cfg.map(|c| &c.format) {
        Some(Format::McMahon { bars, .. }) => Some(*bars),
        _ => None,
    };
    let mut points = Vec::with_capacity(recs.list.len());
    let mut opp_points = Vec::with_capacity(recs.list.len());
    let mut mms = Vec::with_capacity(recs.list.len());
    let mut start_mms = Vec::with_capacity(recs.list.len());
    for rec in &recs.list {
        let e = &t.players[&rec.player];
        points.push(rec.points);
        let mut seen = Ratio::int(rec.points);
        if let Some(w) = e.withdrawn
            && w.ruling == WithdrawalRuling::ResultsStandNotPaired
            && rec.games > 0
        {
            let unplayed = rec
                .entries
                .iter()
                .enumerate()
                .filter(|(i, en)| *i as u32 >= w.after_round && matches!(en, Entry::Nothing))
                .count() as i64;
            let a = Ratio::new(rec.points, i64::from(rec.games)).min(Ratio::int(draw));
            seen = seen + a * Ratio::int(unplayed);
        }
        opp_points.push(seen);
        let m0 = bars.map_or(0, |b| initial_mms(e.registration.rank.value(), &b));
        mms.push(Ratio::new(m0 * win + rec.points, win));
        start_mms.push(Ratio::int(m0));
    }
    Scores { points, opp_points, mms, start_mms, rounds: recs.rounds }
}

/// The numbers behind a withdrawn player's Art. 28 ruling (issue 30 item 8), for the desk to state
/// per player: which rounds went unplayed, what each adds to the points their opponents' SOS counts
/// for them (Swiss and McMahon: their points per game played, at most a draw, seed 004 / Art. 29.3),
/// and what each adds to their own SOSM (McMahon: their start MMS under the EGF rule, or their final
/// MMS, as [`UnplayedSosm`] says).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WithdrawalCount {
    /// The player.
    pub player: PlayerId,
    /// Rounds paired when they withdrew.
    pub after_round: u32,
    /// The ruling.
    pub ruling: WithdrawalRuling,
    /// The rounds counted so far that they did not play after withdrawing.
    pub unplayed: Vec<u32>,
    /// Each unplayed round, in their opponents' SOS: their points per game played (at most a draw).
    pub for_opponents: Option<Ratio>,
    /// Each unplayed round, in their own SOSM, and by which rule.
    pub own_sosm: Option<(Ratio, UnplayedSosm)>,
}

/// Every withdrawn player's [`WithdrawalCount`], in player order.
pub fn withdrawal_counts(t: &Tournament) -> Vec<WithdrawalCount> {
    let recs = records(t, t.current_round());
    let sc = scores(t, &recs);
    let cfg = t.config.as_ref();
    let draw = cfg.map_or(1, |c| c.points.draw);
    let mcmahon = matches!(cfg.map(|c| &c.format), Some(Format::McMahon { .. }));
    let rule = cfg.map_or(UnplayedSosm::default(), |c| c.unplayed_sosm);
    recs.list
        .iter()
        .enumerate()
        .filter_map(|(i, rec)| {
            let w = t.players[&rec.player].withdrawn?;
            let unplayed: Vec<u32> = rec
                .entries
                .iter()
                .enumerate()
                .filter(|(r, e)| *r as u32 >= w.after_round && matches!(e, Entry::Nothing))
                .map(|(r, _)| r as u32 + 1)
                .collect();
            let stands = w.ruling == WithdrawalRuling::ResultsStandNotPaired;
            let for_opponents =
                (stands && rec.games > 0).then(|| Ratio::new(rec.points, i64::from(rec.games)).min(Ratio::int(draw)));
            let own_sosm = (stands && mcmahon).then(|| {
                let per_round = match rule {
                    UnplayedSosm::StartMms => sc.start_mms[i],
                    UnplayedSosm::OwnFinalMms => sc.mms[i],
                };
                (per_round, rule)
            });
            Some(WithdrawalCount {
                player: rec.player,
                after_round: w.after_round,
                ruling: w.ruling,
                unplayed,
                for_opponents,
                own_sosm,
            })
        })
        .collect()
}

/// The lot as a small rank: 1 for the lowest recorded lot (which wins the draw), 2 for the next …
/// The recorded lot itself is a 64-bit draw; its place among the entrants is what people read.
pub fn lot_places<K: Ord + Copy + std::hash::Hash>(lots: impl Iterator<Item = (K, u64)>) -> HashMap<K, i64> {
    let mut v: Vec<(u64, K)> = lots.map(|(k, l)| (l, k)).collect();
    v.sort();
    v.into_iter().enumerate().map(|(i, (_, k))| (k, i as i64 + 1)).collect()
}

/// Standings after every round paired so far (games without a result count nothing yet).
pub fn standings(t: &Tournament) -> Standings {
    standings_after(t, t.current_round())
}

/// Standings counting rounds `1..=round`.
pub fn standings_after(t: &Tournament, round: u32) -> Standings {
    let recs = records(t, round);
    let criteria = t.config.as_ref().map(|c| c.ranking.clone()).unwrap_or_else(|| vec![TieBreak::Points]);
    rank_players(t, &recs, &criteria)
}

fn opponent_games(entries: &[Entry]) -> impl Iterator<Item = (PlayerId, PlayerResult)> + '_ {
    entries.iter().filter_map(|e| match *e {
        Entry::Game { opponent, result, .. } => Some((opponent, result)),
        _ => None,
    })
}

/// Ranks players by `criteria` over `recs`.
pub fn rank_players(t: &Tournament, recs: &Records, criteria: &[TieBreak]) -> Standings {
    let cfg: Option<&TournamentConfig> = t.config.as_ref();
    let win = cfg.map_or(2, |c| c.points.win);
    let sc = scores(t, recs);
    let n = recs.list.len();
    let idx = |p: PlayerId| recs.index_of(p).unwrap_or(0);
    // SOS-family values, computed only when asked for.
    let need = |c: TieBreak| criteria.contains(&c);
    let sos: Vec<Ratio> = if need(TieBreak::Sos) || need(TieBreak::Sosos) || need(TieBreak::TotalScore) {
        recs.list.iter().map(|r| opponent_games(&r.entries).map(|(o, _)| sc.opp_points[idx(o)]).sum()).collect()
    } else {
        Vec::new()
    };
    let lots =
        if need(TieBreak::Lot) { lot_places(t.players.iter().map(|(&p, e)| (p, e.lot))) } else { HashMap::new() };
    let unplayed = cfg.map_or(UnplayedSosm::default(), |c| c.unplayed_sosm);
    let own = |i: usize| match unplayed {
        UnplayedSosm::StartMms => sc.start_mms[i],
        UnplayedSosm::OwnFinalMms => sc.mms[i],
    };
    let sosm: Vec<Ratio> = if need(TieBreak::Sosm) || need(TieBreak::Sososm) {
        recs.list
            .iter()
            .enumerate()
            .map(|(i, r)| {
                r.entries
                    .iter()
                    .map(|e| match *e {
                        Entry::Game { opponent, .. } => sc.mms[idx(opponent)],
                        _ => own(i),
                    })
                    .sum()
            })
            .collect()
    } else {
        Vec::new()
    };
    let value = |c: TieBreak, i: usize| -> Ratio {
        let rec = &recs.list[i];
        match c {
            TieBreak::Points => Ratio::int(sc.points[i]),
            TieBreak::Wins => Ratio::int(i64::from(rec.wins)),
            TieBreak::Mms => sc.mms[i],
            TieBreak::Sos => sos[i],
            TieBreak::Sosos => opponent_games(&rec.entries).map(|(o, _)| sos[idx(o)]).sum(),
            TieBreak::Sodos => opponent_games(&rec.entries)
                .map(|(o, r)| match r {
                    PlayerResult::Win => sc.opp_points[idx(o)],
                    PlayerResult::Draw => sc.opp_points[idx(o)] * Ratio::new(1, 2),
                    _ => Ratio::ZERO,
                })
                .sum(),
            TieBreak::TotalScore => {
                let r = i64::from(sc.rounds);
                if r == 0 {
                    Ratio::int(sc.points[i])
                } else {
                    Ratio::int(sc.points[i] - r) + sos[i] * Ratio::new(2, win * r)
                }
            }
            TieBreak::Sosm => sosm[i],
            TieBreak::Sososm => rec
                .entries
                .iter()
                .map(|e| match *e {
                    Entry::Game { opponent, .. } => sosm[idx(opponent)],
                    _ => match unplayed {
                        UnplayedSosm::StartMms => sc.start_mms[i] * Ratio::int(i64::from(sc.rounds)),
                        UnplayedSosm::OwnFinalMms => sosm[i],
                    },
                })
                .sum(),
            TieBreak::Warnings => Ratio::int(i64::from(t.players[&rec.player].warnings)),
            TieBreak::Lot => Ratio::int(lots.get(&rec.player).copied().unwrap_or(0)),
            TieBreak::HeadToHead
            | TieBreak::MatchPoints
            | TieBreak::BoardPoints
            | TieBreak::Board(_)
            | TieBreak::TeamTotalScore => Ratio::ZERO,
        }
    };
    let ranked: Vec<usize> = (0..n)
        .filter(|&i| {
            t.players[&recs.list[i].player].withdrawn.is_none_or(|w| w.ruling != WithdrawalRuling::ResultsVoid)
        })
        .collect();
    let unranked: Vec<PlayerId> = recs
        .list
        .iter()
        .map(|r| r.player)
        .filter(|p| t.players[p].withdrawn.is_some_and(|w| w.ruling == WithdrawalRuling::ResultsVoid))
        .collect();
    let points = cfg.map(|c| c.points).unwrap_or(crate::config::PointSystem::TWO_ONE_ZERO);
    let head_to_head = |group: &[usize], i: usize| -> Ratio {
        let rec = &recs.list[i];
        Ratio::int(
            opponent_games(&rec.entries)
                .filter(|(o, _)| group.iter().any(|&g| recs.list[g].player == *o))
                .map(|(_, r)| result_points(&points, r))
                .sum(),
        )
    };
    let mut table: Vec<Vec<Ratio>> = vec![Vec::new(); n];
    let order = refine(&ranked, criteria, &mut table, &value, &head_to_head);
    let rows = build_rows(&order, criteria, &table, |i| (recs.list[i].player, recs.list[i].games, recs.list[i].wins));
    Standings { after_round: recs.rounds, criteria: criteria.to_vec(), rows, unranked }
}

/// A ranked group: members, and the criterion index that split it from the group above.
type Group = (Vec<usize>, Option<usize>);

/// Partition refinement: sorts `items` by each criterion in turn, splitting ties; group-dependent
/// criteria (head-to-head) are evaluated within the current tie group. Records every value in `table`.
pub(crate) fn refine(
    items: &[usize],
    criteria: &[TieBreak],
    table: &mut [Vec<Ratio>],
    value: &dyn Fn(TieBreak, usize) -> Ratio,
    head_to_head: &dyn Fn(&[usize], usize) -> Ratio,
) -> Vec<Group> {
    let mut groups: Vec<Group> = vec![(items.to_vec(), None)];
    for (ci, &c) in criteria.iter().enumerate() {
        let mut next: Vec<Group> = Vec::with_capacity(groups.len());
        for (members, level) in groups {
            let mut keyed: Vec<(Ratio, usize)> = members
                .iter()
                .map(|&i| {
                    let v = if c == TieBreak::HeadToHead { head_to_head(&members, i) } else { value(c, i) };
                    table[i].push(v);
                    (if c.lower_is_better() { -v } else { v }, i)
                })
                .collect();
            if members.len() == 1 {
                next.push((members, level));
                continue;
            }
            keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
            let mut first = true;
            let mut start = 0;
            for k in 1..=keyed.len() {
                if k == keyed.len() || keyed[k].0 != keyed[start].0 {
                    let run: Vec<usize> = keyed[start..k].iter().map(|&(_, i)| i).collect();
                    next.push((run, if first { level } else { Some(ci) }));
                    first = false;
                    start = k;
                }
            }
        }
        groups = next;
    }
    groups
}

/// Turns refined groups into rows with places and the deciding criterion.
pub(crate) fn build_rows(
    groups: &[Group],
    criteria: &[TieBreak],
    table: &[Vec<Ratio>],
    info: impl Fn(usize) -> (PlayerId, u32, u32),
) -> Vec<StandingRow> {
    // Boundary levels between consecutive rows: Some(ci) = split at criterion ci; None = shared.
    let mut flat: Vec<(usize, Option<usize>, bool)> = Vec::new(); // (item, level above, first of group)
    for (members, level) in groups {
        for (k, &i) in members.iter().enumerate() {
            flat.push((i, if k == 0 { *level } else { None }, k == 0));
        }
    }
    let mut rows = Vec::with_capacity(flat.len());
    let mut place = 0;
    for (pos, &(i, above, first)) in flat.iter().enumerate() {
        if first {
            place = pos as u32 + 1;
        }
        let below = flat.get(pos + 1).map(|&(_, l, f)| if f { l } else { None });
        let shared = !first || flat.get(pos + 1).is_some_and(|&(_, _, f)| !f);
        let deepest = [if pos > 0 { above } else { Some(0) }, below.unwrap_or(Some(0))]
            .into_iter()
            .flatten()
            .filter(|&l| l > 0)
            .max();
        let (player, games, wins) = info(i);
        rows.push(StandingRow {
            place,
            player,
            values: table[i].clone(),
            decided_by: deepest.map(|l| criteria[l]),
            shared,
            games,
            wins,
        });
    }
    rows
}
