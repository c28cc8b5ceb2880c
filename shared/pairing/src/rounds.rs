//! Pairing the next round, format by format. Everything here is a pure function of the state;
//! the events it returns record every outcome (pairs, colours, nigiri draws, byes, reprieves).

use crate::berger::{berger_round, rounds_per_cycle};
use crate::bracket::first_round;
use crate::colours;
use crate::config::{ByeKind, Format, LineUpRule, TeamSchedule, TournamentConfig};
use crate::event::{
    BracketSlot, Bye, ByeReason, ColourBy, PairedGame, Stage, TeamBoard, TeamMatch, TournamentEvent, WithdrawalRuling,
};
use crate::ids::{Colour, GameRef, Millis, PlayerId, TeamId};
use crate::lot;
use crate::outcome::{GameResult, Outcome, PlayerResult, ResultReason};
use crate::record::{Entry, Records, records};
use crate::rejection::Rejection;
use crate::standings::{initial_mms, rank_players};
use crate::state::Tournament;
use crate::swiss::{PairingError, PairingParams, pair_round};
use crate::team::team_records;
use crate::weights::{ByePolicy, Candidate, PairingPolicy, RematchPolicy};
use std::collections::{BTreeSet, HashMap};

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
    fn game(&mut self, black: PlayerId, white: PlayerId, colour_by: ColourBy) -> &mut PairedGame {
        let table = self.games.len() as u32 + 1;
        self.games.push(PairedGame {
            table,
            black,
            white,
            handicap: 0,
            colour_by,
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

/// Groups by snake seeding (1 2 3 3 2 1 …) over everyone who entered.
pub(crate) fn group_members(t: &Tournament, groups: u32) -> Vec<Vec<PlayerId>> {
    let g = groups.max(1) as usize;
    let mut out = vec![Vec::new(); g];
    for (k, p) in seeded(t, entrants(t)).into_iter().enumerate() {
        let lap = k / g;
        let pos = k % g;
        out[if lap.is_multiple_of(2) { pos } else { g - 1 - pos }].push(p);
    }
    for members in &mut out {
        members.sort_by_key(|p| (t.players[p].lot, *p));
    }
    out
}

/// One Berger round among `entrants`, honouring Art. 28 for withdrawn players.
fn round_robin(t: &Tournament, d: &mut Draft, entrants: &[PlayerId], round: usize, group: Option<u32>) {
    let pairs = berger_round(entrants.len(), round);
    let mut seen = BTreeSet::new();
    for (b, w) in pairs {
        let (black, white) = (entrants[b], entrants[w]);
        seen.insert(black);
        seen.insert(white);
        let ruling = |p: PlayerId| t.players[&p].withdrawn.map(|w| w.ruling);
        match (ruling(black), ruling(white)) {
            (Some(WithdrawalRuling::ResultsVoid), _) | (_, Some(WithdrawalRuling::ResultsVoid)) => {
                for p in [black, white] {
                    if ruling(p).is_none() {
                        d.byes.push(Bye { player: p, kind: ByeKind::ZeroPoint, reason: ByeReason::Rest });
                    }
                }
            }
            (rb, rw) => {
                let g = d.game(black, white, ColourBy::Berger);
                g.group = group;
                let table = g.table;
                if let Some(o) = forfeit_outcome(rb.is_some(), rw.is_some()) {
                    d.forfeits.push((table, o));
                }
            }
        }
    }
    for &p in entrants {
        if !seen.contains(&p) && t.players[&p].withdrawn.is_none() {
            d.byes.push(Bye { player: p, kind: ByeKind::ZeroPoint, reason: ByeReason::Rest });
        }
    }
}

/// The forfeit outcome of a game when the black and/or white player has withdrawn.
fn forfeit_outcome(black_gone: bool, white_gone: bool) -> Option<Outcome> {
    match (black_gone, white_gone) {
        (true, false) => Some(Outcome::Win(Colour::White)),
        (false, true) => Some(Outcome::Win(Colour::Black)),
        (true, true) => Some(Outcome::BothLose),
        (false, false) => None,
    }
}

/// Interns clubs and regions for the pairing.
struct Interner<'a>(HashMap<&'a str, u32>);

impl<'a> Interner<'a> {
    fn id(&mut self, s: Option<&'a String>) -> Option<u32> {
        let s = s?.as_str();
        let n = self.0.len() as u32;
        Some(*self.0.entry(s).or_insert(n))
    }
}

/// Builds the pairing candidates for `players` from their records.
pub(crate) fn candidates(
    t: &Tournament,
    recs: &Records,
    players: &[PlayerId],
    score: &dyn Fn(PlayerId, i64) -> i64,
) -> Vec<Candidate> {
    let mut byes: HashMap<PlayerId, u32> = HashMap::new();
    for r in &t.rounds {
        for b in r.byes.iter().filter(|b| b.reason == ByeReason::Pairing) {
            *byes.entry(b.player).or_default() += 1;
        }
    }
    let mut clubs = Interner(HashMap::new());
    let mut regions = Interner(HashMap::new());
    players
        .iter()
        .map(|&p| {
            let e = &t.players[&p];
            let rec = recs.get(p);
            let (mut balance, mut last) = (0, None);
            let mut opponents = Vec::new();
            let mut points = 0;
            if let Some(rec) = rec {
                points = rec.points;
                opponents = rec.opponents().collect();
                for en in &rec.entries {
                    if let Entry::Game { colour, handicap: 0, forfeit: false, .. } = *en {
                        balance += if colour == Colour::Black { 1 } else { -1 };
                        last = Some(colour);
                    }
                }
            }
            Candidate {
                id: p,
                score: score(p, points),
                rank: e.registration.rank.value(),
                lot: e.lot,
                colour_balance: balance,
                last_colour: last,
                byes: byes.get(&p).copied().unwrap_or(0),
                opponents,
                club: clubs.id(e.registration.club.as_ref()),
                region: regions.id(e.registration.region.as_ref()),
            }
        })
        .collect()
}

/// The pairing score of a format: points, or the McMahon score in points.
pub(crate) fn pairing_score(t: &Tournament, cfg: &TournamentConfig) -> impl Fn(PlayerId, i64) -> i64 {
    let bars = match cfg.format {
        Format::McMahon { bars, .. } => Some(bars),
        _ => None,
    };
    let win = cfg.points.win;
    let ranks: HashMap<PlayerId, i32> = t.players.iter().map(|(&p, e)| (p, e.registration.rank.value())).collect();
    move |p, points| match bars {
        Some(b) => initial_mms(ranks.get(&p).copied().unwrap_or(0), &b) * win + points,
        None => points,
    }
}

/// Swiss, McMahon and the loss-group eliminations: fixed pairs and organiser byes first, then the
/// maximum-weight matching of everyone else.
fn swiss_like(
    t: &Tournament,
    cfg: &TournamentConfig,
    next: u32,
    mut players: Vec<PlayerId>,
    policy: PairingPolicy,
    by_losses: bool,
) -> Result<Draft, Rejection> {
    let recs = records(t, next - 1);
    let mut d = Draft::default();
    let fixed = t.fixed.get(&next).cloned().unwrap_or_default();
    for &(black, white) in &fixed {
        let g = d.game(black, white, ColourBy::Organiser);
        g.fixed = true;
    }
    let granted = t.granted_byes.get(&next).cloned().unwrap_or_default();
    for &(player, kind) in &granted {
        d.byes.push(Bye { player, kind, reason: ByeReason::Requested });
    }
    players.retain(|p| !fixed.iter().any(|&(b, w)| b == *p || w == *p) && !granted.iter().any(|&(g, _)| g == *p));
    let swiss_score = pairing_score(t, cfg);
    let losses_cap = match cfg.format {
        Format::Knockout { losses } | Format::SwissElimination { losses, .. } => i64::from(losses),
        _ => 0,
    };
    let win = cfg.points.win;
    let score = |p: PlayerId, points: i64| {
        if by_losses {
            let l = recs.get(p).map_or(0, |r| i64::from(r.losses));
            (losses_cap - l) * win
        } else {
            swiss_score(p, points)
        }
    };
    let cands = candidates(t, &recs, &players, &score);
    let params = PairingParams::default();
    let plan = match pair_round(&cands, &t.forbidden, &policy, &params) {
        Ok(plan) => plan,
        Err(e) if by_losses || matches!(cfg.format, Format::SwissElimination { .. }) => {
            // Elimination fields shrink: allow a rematch or a second bye rather than stop.
            let relaxed =
                PairingPolicy { rematches: RematchPolicy::Discouraged, byes: ByePolicy::FewestFirst, ..policy };
            pair_round(&cands, &t.forbidden, &relaxed, &params).map_err(|_| Rejection::Pairing(e))?
        }
        Err(e) => return Err(Rejection::Pairing(e)),
    };
    let by_id: HashMap<PlayerId, &Candidate> = cands.iter().map(|c| (c.id, c)).collect();
    let mut nigiri = lot::nigiri(cfg.seed, next);
    for pair in &plan.pairs {
        let (a, b) = (by_id[&pair.a], by_id[&pair.b]);
        let (black, white, how) = colours::assign(a, b, pair.cost.handicap, &mut nigiri);
        let g = d.game(black, white, how);
        g.handicap = pair.cost.handicap;
        g.cost = Some(pair.cost);
    }
    if let Some(p) = plan.bye {
        let kind = if by_losses { ByeKind::FullPoint } else { cfg.pairing_bye };
        d.byes.push(Bye { player: p, kind, reason: ByeReason::Pairing });
    }
    Ok(d)
}

/// Swiss plus elimination: keeps the field even by reprieving the best-placed player eliminated in
/// the last round.
fn swiss_elimination(t: &Tournament, cfg: &TournamentConfig, next: u32) -> Result<Draft, Rejection> {
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

/// The winner who advances from a bracket slot (withdrawn players do not advance).
fn advancing(t: &Tournament, round: &crate::state::Round) -> Vec<Option<PlayerId>> {
    round
        .bracket
        .iter()
        .map(|slot| match *slot {
            BracketSlot::Game(table) => {
                let g = round.games.get(table as usize - 1)?;
                match g.result?.outcome {
                    Outcome::Win(Colour::Black) => Some(g.paired.black),
                    Outcome::Win(Colour::White) => Some(g.paired.white),
                    _ => None,
                }
            }
            BracketSlot::Through(p) => Some(p),
            BracketSlot::Empty => None,
        })
        .map(|p| p.filter(|p| t.players[p].withdrawn.is_none()))
        .collect()
}

/// Who is left after a knockout round: `Some(champion)` when the bracket is down to one slot.
pub(crate) fn knockout_champion(t: &Tournament, round: &crate::state::Round) -> Option<Option<PlayerId>> {
    if round.bracket.len() == 1 { Some(advancing(t, round)[0]) } else { None }
}

/// Lays out a bracket round from entrants in slot order (neighbours meet).
fn bracket_round(
    t: &Tournament,
    cfg: &TournamentConfig,
    next: u32,
    d: &mut Draft,
    slots: Vec<(Option<PlayerId>, Option<PlayerId>)>,
) {
    let mut nigiri = lot::nigiri(cfg.seed, next);
    let _ = t;
    for (a, b) in slots {
        let slot = match (a, b) {
            (Some(a), Some(b)) => {
                let (black, white) = if nigiri() { (a, b) } else { (b, a) };
                BracketSlot::Game(d.game(black, white, ColourBy::Nigiri).table)
            }
            (Some(p), None) | (None, Some(p)) => {
                d.byes.push(Bye { player: p, kind: ByeKind::FullPoint, reason: ByeReason::Advance });
                BracketSlot::Through(p)
            }
            (None, None) => BracketSlot::Empty,
        };
        d.bracket.push(slot);
    }
}

/// Single elimination: round 1 from seeding (top seeds get the byes), later rounds from the bracket.
fn knockout(t: &Tournament, cfg: &TournamentConfig, next: u32, stage: Stage) -> Result<Draft, Rejection> {
    let mut d = Draft { stage: Some(stage), ..Draft::default() };
    let slots: Vec<(Option<PlayerId>, Option<PlayerId>)> = match t.rounds.last() {
        Some(prev) if !prev.bracket.is_empty() => {
            if prev.bracket.len() == 1 {
                return Err(Rejection::Finished);
            }
            let adv = advancing(t, prev);
            adv.chunks(2).map(|c| (c[0], c.get(1).copied().flatten())).collect()
        }
        _ => {
            let seeds = seeded(t, active_players(t));
            first_round(seeds.len()).into_iter().map(|(a, b)| (a.map(|i| seeds[i]), b.map(|i| seeds[i]))).collect()
        }
    };
    bracket_round(t, cfg, next, &mut d, slots);
    Ok(d)
}

/// The knockout after the groups: for two qualifiers per group and an even number of groups,
/// winners meet the runners-up of the partner group (A1–B2, B1–A2; group-mates can only meet in
/// the final); otherwise qualifiers are seeded by group place into a standard bracket.
fn cross_knockout(
    t: &Tournament,
    cfg: &TournamentConfig,
    next: u32,
    groups: &[Vec<PlayerId>],
    advance: u32,
    group_rounds: u32,
) -> Result<Draft, Rejection> {
    let recs = records(t, group_rounds);
    let mut placed: Vec<Vec<Option<PlayerId>>> = Vec::new();
    let st = rank_players(t, &recs, &cfg.ranking);
    for g in groups {
        let mut order: Vec<Option<PlayerId>> =
            st.rows.iter().map(|r| r.player).filter(|p| g.contains(p) && t.is_active(*p)).map(Some).collect();
        order.resize(advance as usize, None);
        order.truncate(advance as usize);
        placed.push(order);
    }
    let mut d = Draft { stage: Some(Stage::Knockout), ..Draft::default() };
    let slots: Vec<(Option<PlayerId>, Option<PlayerId>)> = if advance == 2 && groups.len().is_multiple_of(2) {
        let half = groups.len() / 2;
        let mut s = Vec::new();
        for k in 0..half {
            s.push((placed[2 * k][0], placed[2 * k + 1][1]));
        }
        for k in 0..half {
            s.push((placed[2 * k + 1][0], placed[2 * k][1]));
        }
        s
    } else {
        let mut seeds = Vec::new();
        for place in 0..advance as usize {
            for g in &placed {
                seeds.push(g[place]);
            }
        }
        first_round(seeds.len())
            .into_iter()
            .map(|(a, b)| (a.and_then(|i| seeds[i]), b.and_then(|i| seeds[i])))
            .collect()
    };
    bracket_round(t, cfg, next, &mut d, slots);
    Ok(d)
}

/// A best-of-N match: nigiri for the first game, then colours alternate.
fn best_of(t: &Tournament, cfg: &TournamentConfig, next: u32) -> Draft {
    let mut d = Draft::default();
    let mut two = entrants(t);
    two.truncate(2);
    if two.len() < 2 {
        return d;
    }
    match t.rounds.last().and_then(|r| r.games.first()) {
        Some(prev) => {
            d.game(prev.paired.white, prev.paired.black, ColourBy::Alternation);
        }
        None => {
            let (black, white) = if lot::nigiri(cfg.seed, next)() { (two[0], two[1]) } else { (two[1], two[0]) };
            d.game(black, white, ColourBy::Nigiri);
        }
    }
    d
}

/// Wins of each side in a best-of-N match so far.
pub(crate) fn match_wins(t: &Tournament) -> HashMap<PlayerId, u32> {
    let recs = records(t, t.current_round());
    recs.list.iter().map(|r| (r.player, r.wins)).collect()
}

/// Teams in lot order.
fn teams_by_lot(t: &Tournament) -> Vec<TeamId> {
    let mut v: Vec<TeamId> = t.teams.keys().copied().collect();
    v.sort_by_key(|k| (t.teams[k].lot, *k));
    v
}

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
        let g = d.game(black, white, ColourBy::BoardOrder);
        g.team_board = Some(TeamBoard { match_no, board: k as u32 + 1 });
    }
}

fn team_round(
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
                        colour_balance: r.home as i32 - r.away as i32,
                        last_colour: None,
                        byes: r.byes,
                        opponents: r.opponents.iter().map(|o| PlayerId(o.0)).collect(),
                        club: None,
                        region: None,
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
                    let (home, _, _) = colours::assign(by_id[&p.a], by_id[&p.b], 0, &mut nigiri);
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

/// The two teams of a two-team format, in lot order, with their active members.
fn two_teams(t: &Tournament) -> Result<[(TeamId, Vec<PlayerId>); 2], Rejection> {
    let teams = teams_by_lot(t);
    if teams.len() != 2 {
        return Err(Rejection::TooFewEntrants { needed: 2, have: teams.len() });
    }
    let members = |k: TeamId| t.teams[&k].members.clone();
    Ok([(teams[0], members(teams[0])), (teams[1], members(teams[1]))])
}

/// 全队轮赛制: in round r, board i pairs A's i-th player with B's (i + r)-th.
fn rotation_round(t: &Tournament, next: u32) -> Result<Draft, Rejection> {
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
        let g = d.game(black, white, ColourBy::BoardOrder);
        g.team_board = Some(TeamBoard { match_no: 1, board: i as u32 + 1 });
        let table = g.table;
        let gone = |p: PlayerId| t.players[&p].withdrawn.is_some();
        if let Some(o) = forfeit_outcome(gone(black), gone(white)) {
            d.forfeits.push((table, o));
        }
    }
    Ok(d)
}

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

fn arena_round(t: &Tournament, cfg: &TournamentConfig, next: u32) -> Result<Draft, Rejection> {
    let [(a, pa), (b, pb)] = arena_next(t)?;
    let (Some(pa), Some(pb)) = (pa, pb) else {
        return Err(Rejection::Finished);
    };
    let mut d = Draft::default();
    d.team_matches.push(TeamMatch { match_no: 1, home: a, away: b });
    let (black, white) = if lot::nigiri(cfg.seed, next)() { (pa, pb) } else { (pb, pa) };
    let g = d.game(black, white, ColourBy::Nigiri);
    g.team_board = Some(TeamBoard { match_no: 1, board: next });
    Ok(d)
}

impl From<PairingError> for Rejection {
    fn from(e: PairingError) -> Rejection {
        Rejection::Pairing(e)
    }
}

/// The candidates a Swiss or McMahon pairing of the next round would see (every active player,
/// with the format's pairing score): for benchmarks, explanations and diagnostics.
pub fn next_round_candidates(t: &Tournament) -> Vec<Candidate> {
    let Some(cfg) = t.config.as_ref() else { return Vec::new() };
    let recs = records(t, t.current_round());
    let score = pairing_score(t, cfg);
    candidates(t, &recs, &active_players(t), &score)
}
