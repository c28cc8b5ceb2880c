//! `decide`: a command against the current state gives new events or a rejection. Pure: time is
//! the `now` argument, randomness comes from the recorded seed.

use crate::berger::rounds_per_cycle;
use crate::command::Command;
use crate::config::{Format, TeamSchedule, TournamentConfig};
use crate::event::{Champion, Stage, TournamentEvent, WithdrawalReason, WithdrawalRuling};
use crate::ids::{Color, GameRef, Millis, PlayerId, TeamId};
use crate::lot;
use crate::outcome::{GameResult, Outcome, ResultReason};
use crate::record::records;
use crate::rejection::{ConfigProblem, Rejection};
use crate::rounds::{arena_next, entrants, group_members, knockout_champion, match_wins, pair_next};
use crate::standings::standings;
use crate::state::{Phase, Tournament, evolve};
use crate::team::team_standings;

/// Decides a command. See [`Command`] for what each does and [`Rejection`] for why one is refused.
pub fn decide(t: &Tournament, cmd: &Command, now: Millis) -> Result<Vec<TournamentEvent>, Rejection> {
    if let Command::Create { config } = cmd {
        if t.phase != Phase::Uncreated {
            return Err(Rejection::AlreadyCreated);
        }
        validate(config)?;
        return Ok(vec![TournamentEvent::Created { config: config.clone(), at: now }]);
    }
    let cfg = t.config.as_ref().ok_or(Rejection::NotCreated)?;
    match cmd {
        Command::Create { .. } => Err(Rejection::AlreadyCreated),
        Command::Register { registration } => {
            let late_ok = matches!(cfg.format, Format::Swiss { .. } | Format::McMahon { .. });
            match t.phase {
                Phase::Registration => {}
                Phase::Running if late_ok => {}
                Phase::Finished(_) => return Err(Rejection::Finished),
                _ => return Err(Rejection::RegistrationClosed),
            }
            if t.players.contains_key(&registration.player) {
                return Err(Rejection::AlreadyRegistered(registration.player));
            }
            let mut registration = registration.clone();
            registration.at = now;
            let p = registration.player;
            let mut events = vec![TournamentEvent::PlayerRegistered { registration }];
            if t.phase == Phase::Running {
                events.push(TournamentEvent::LotsDrawn {
                    players: vec![(p, lot::lot(cfg.seed, u64::from(p.0)))],
                    teams: vec![],
                });
            }
            Ok(events)
        }
        Command::RegisterTeam { team, name, members } => {
            if t.phase != Phase::Registration {
                return Err(Rejection::RegistrationClosed);
            }
            if !cfg.format.is_team() {
                return Err(Rejection::NotInThisFormat);
            }
            if t.teams.contains_key(team) {
                return Err(Rejection::TeamAlreadyRegistered(*team));
            }
            for (k, m) in members.iter().enumerate() {
                let e = t.players.get(m).ok_or(Rejection::UnknownPlayer(*m))?;
                if e.team.is_some() || members[..k].contains(m) {
                    return Err(Rejection::PlayerInAnotherTeam(*m));
                }
            }
            Ok(vec![TournamentEvent::TeamRegistered { team: *team, name: name.clone(), members: members.clone() }])
        }
        Command::Start => start(t, cfg, now),
        Command::ForbidPair { a, b, round } => {
            known(t, *a)?;
            known(t, *b)?;
            if a == b {
                return Err(Rejection::SamePlayer);
            }
            if let Some(r) = round
                && *r <= t.current_round()
            {
                return Err(Rejection::NotNextRound(*r));
            }
            Ok(vec![TournamentEvent::PairForbidden { a: *a, b: *b, round: *round }])
        }
        Command::AllowPair { a, b } => {
            if !t.forbids.contains_key(&crate::state::ordered(*a, *b)) {
                return Err(Rejection::NotForbidden(*a, *b));
            }
            Ok(vec![TournamentEvent::PairAllowed { a: *a, b: *b }])
        }
        Command::FixPairing { round, black, white } => {
            organiser_placement(t, cfg, *round, &[*black, *white])?;
            if black == white {
                return Err(Rejection::SamePlayer);
            }
            Ok(vec![TournamentEvent::PairingFixed { round: *round, black: *black, white: *white }])
        }
        Command::GrantBye { round, player, kind } => {
            organiser_placement(t, cfg, *round, &[*player])?;
            Ok(vec![TournamentEvent::ByeGranted { round: *round, player: *player, kind: *kind }])
        }
        Command::SubmitLineUp { round, team, players } => line_up(t, cfg, *round, *team, players),
        Command::PairRound => {
            running(t)?;
            if let Some(last) = t.rounds.last()
                && !last.completed
            {
                return Err(Rejection::RoundIncomplete(last.number));
            }
            let events = pair_next(t, cfg, now)?;
            Ok(with_completion(t, events))
        }
        Command::RecordResult { game, result } => {
            running(t)?;
            let g = t.game(*game).ok_or(Rejection::UnknownGame(*game))?;
            if g.result.is_some() {
                return Err(Rejection::AlreadyRecorded(*game));
            }
            decisive(t, cfg, *game, result)?;
            let events = vec![TournamentEvent::ResultRecorded { game: *game, result: *result, at: now }];
            Ok(with_completion(t, events))
        }
        Command::ClaimNoShow { game, absent, started_at } => no_show(t, cfg, *game, absent, *started_at, now),
        Command::IssueWarning { game, player } => {
            let g = t.game(*game).ok_or(Rejection::UnknownGame(*game))?;
            if g.paired.black != *player && g.paired.white != *player {
                return Err(Rejection::NotInGame(*player));
            }
            Ok(vec![TournamentEvent::WarningIssued { player: *player, game: *game }])
        }
        Command::Withdraw { player, reason } => {
            let e = known(t, *player)?;
            if e.withdrawn.is_some() {
                return Err(Rejection::Withdrawn(*player));
            }
            if matches!(t.phase, Phase::Finished(_)) {
                return Err(Rejection::Finished);
            }
            Ok(with_completion(t, withdraw(t, cfg, *player, *reason, now)))
        }
        Command::EditPlayer { registration } => {
            let p = registration.player;
            let e = known(t, p)?;
            if matches!(t.phase, Phase::Finished(_)) {
                return Err(Rejection::Finished);
            }
            if !t.rounds.is_empty() && registration.rank != e.registration.rank {
                return Err(Rejection::RankFixed(p));
            }
            let mut registration = registration.clone();
            registration.at = e.registration.at;
            Ok(vec![TournamentEvent::PlayerEdited { registration }])
        }
        Command::RemovePlayer { player } => {
            known(t, *player)?;
            if matches!(t.phase, Phase::Finished(_)) {
                return Err(Rejection::Finished);
            }
            let placed = t.rounds.iter().any(|r| {
                r.games.iter().any(|g| g.paired.black == *player || g.paired.white == *player)
                    || r.byes.iter().any(|b| b.player == *player)
            });
            if placed {
                return Err(Rejection::AlreadyPlayed(*player));
            }
            if t.teams.values().any(|k| k.members.contains(player)) {
                return Err(Rejection::PlayerInAnotherTeam(*player));
            }
            Ok(vec![TournamentEvent::PlayerRemoved { player: *player }])
        }
        Command::UnpairRound { round } => {
            if !matches!(cfg.format, Format::Swiss { .. } | Format::McMahon { .. }) {
                return Err(Rejection::NotInThisFormat);
            }
            let last = t.rounds.last().filter(|r| r.number == *round).ok_or(Rejection::CannotUnpair(*round))?;
            if last.games.iter().any(|g| g.result.is_some())
                || matches!(t.phase, Phase::Finished(_))
                || t.pairing_of(*round) >= MAX_UNPAIRS
            {
                return Err(Rejection::CannotUnpair(*round));
            }
            Ok(vec![TournamentEvent::RoundUnpaired { round: *round, tables: last.games.len() as u32 }])
        }
        Command::CancelBye { round, player } => {
            let granted = t.granted_byes.get(round).is_some_and(|b| b.iter().any(|(p, _)| p == player));
            if !granted || *round <= t.current_round() {
                return Err(Rejection::NoByeToCancel(*player));
            }
            Ok(vec![TournamentEvent::ByeCancelled { round: *round, player: *player }])
        }
        Command::ChangeSettings { format, ranking } => {
            if matches!(t.phase, Phase::Finished(_)) {
                return Err(Rejection::Finished);
            }
            let played = t.current_round();
            let round_open = t.rounds.last().is_some_and(|r| !r.completed);
            match (&cfg.format, format) {
                (Format::Swiss { .. }, Format::Swiss { rounds })
                | (Format::McMahon { .. }, Format::McMahon { rounds, .. }) => {
                    if *rounds < played.max(1) || (*rounds == played && !round_open && played > 0) {
                        return Err(Rejection::SettingsFixed("rounds"));
                    }
                }
                (old, new) if old == new => {}
                _ => return Err(Rejection::SettingsFixed("format")),
            }
            if let (Format::McMahon { bars: old, .. }, Format::McMahon { bars: new, .. }) = (&cfg.format, format)
                && old != new
                && round_open
            {
                return Err(Rejection::SettingsFixed("bars"));
            }
            let mut changed = cfg.clone();
            changed.format = format.clone();
            changed.ranking = ranking.clone();
            validate(&changed)?;
            Ok(vec![TournamentEvent::SettingsChanged { format: format.clone(), ranking: ranking.clone(), at: now }])
        }
        Command::CorrectResult { game, result, reason } => {
            let g = t.game(*game).ok_or(Rejection::UnknownGame(*game))?;
            if g.result.is_none() {
                return Err(Rejection::NotRecorded(*game));
            }
            decisive(t, cfg, *game, result)?;
            Ok(vec![TournamentEvent::ResultCorrected { game: *game, result: *result, reason: *reason, at: now }])
        }
    }
}

fn validate(c: &TournamentConfig) -> Result<(), Rejection> {
    let bad = |p| Err(Rejection::InvalidConfig(p));
    let zero = match &c.format {
        Format::Knockout { losses } => *losses == 0,
        Format::RoundRobin { cycles } => *cycles == 0,
        Format::Swiss { rounds } | Format::McMahon { rounds, .. } => *rounds == 0,
        Format::SwissElimination { rounds, losses } => *rounds == 0 || *losses == 0,
        Format::Match { wins_needed } => *wins_needed == 0,
        Format::FixedMatch { games } => *games == 0,
        Format::GroupsThenKnockout { groups, advance } => *groups == 0 || *advance == 0,
        Format::Team { boards, schedule, .. } => {
            *boards == 0
                || matches!(schedule, TeamSchedule::RoundRobin { cycles: 0 } | TeamSchedule::Swiss { rounds: 0 })
        }
        Format::TeamRotation | Format::WinAndContinue => false,
    };
    if zero {
        return bad(ConfigProblem::ZeroCount);
    }
    let p = c.points;
    if !(p.win > p.draw && p.draw >= p.loss && p.loss >= 0) {
        return bad(ConfigProblem::Points);
    }
    if c.ranking.is_empty() {
        return bad(ConfigProblem::NoRanking);
    }
    if let Format::McMahon { bars, .. } = &c.format
        && bars.top.value() < bars.bottom.value()
    {
        return bad(ConfigProblem::Bars);
    }
    Ok(())
}

/// How often one round's pairing may be taken back.
pub const MAX_UNPAIRS: u32 = 999;

fn known(t: &Tournament, p: PlayerId) -> Result<&crate::state::Entrant, Rejection> {
    t.players.get(&p).ok_or(Rejection::UnknownPlayer(p))
}

fn running(t: &Tournament) -> Result<(), Rejection> {
    match t.phase {
        Phase::Running => Ok(()),
        Phase::Finished(_) => Err(Rejection::Finished),
        _ => Err(Rejection::NotStarted),
    }
}

fn start(t: &Tournament, cfg: &TournamentConfig, now: Millis) -> Result<Vec<TournamentEvent>, Rejection> {
    match t.phase {
        Phase::Registration => {}
        Phase::Finished(_) => return Err(Rejection::Finished),
        _ => return Err(Rejection::AlreadyStarted),
    }
    let have = t.players.values().filter(|e| e.withdrawn.is_none()).count();
    let teams = t.teams.len();
    let (needed, have) = match &cfg.format {
        Format::Match { .. } | Format::FixedMatch { .. } => (2, have),
        Format::GroupsThenKnockout { groups, advance } => ((*groups * (*advance).max(2)) as usize, have),
        Format::Team { .. } => (2, teams),
        Format::TeamRotation | Format::WinAndContinue => (2, teams),
        _ => (2, have),
    };
    if have < needed {
        return Err(Rejection::TooFewEntrants { needed, have });
    }
    if matches!(
        cfg.format,
        Format::Match { .. } | Format::FixedMatch { .. } | Format::TeamRotation | Format::WinAndContinue
    ) && have != needed
    {
        return Err(Rejection::TooFewEntrants { needed, have });
    }
    if let Format::Team { boards, line_up: crate::config::LineUpRule::FixedOrder, .. } = cfg.format
        && let Some((&k, _)) = t.teams.iter().find(|(_, team)| team.members.len() < boards as usize)
    {
        return Err(Rejection::InvalidLineUp(k));
    }
    Ok(vec![
        TournamentEvent::LotsDrawn {
            players: t.players.keys().map(|&p| (p, lot::lot(cfg.seed, u64::from(p.0)))).collect(),
            teams: t.teams.keys().map(|&k| (k, lot::lot(cfg.seed, (1 << 40) | u64::from(k.0)))).collect(),
        },
        TournamentEvent::Started { at: now },
    ])
}

/// Fixed pairings and organiser byes: Swiss-family formats, next round only, one placement each.
fn organiser_placement(
    t: &Tournament,
    cfg: &TournamentConfig,
    round: u32,
    players: &[PlayerId],
) -> Result<(), Rejection> {
    if !matches!(cfg.format, Format::Swiss { .. } | Format::McMahon { .. } | Format::SwissElimination { .. }) {
        return Err(Rejection::NotInThisFormat);
    }
    if matches!(t.phase, Phase::Finished(_)) {
        return Err(Rejection::Finished);
    }
    if round != t.current_round() + 1 {
        return Err(Rejection::NotNextRound(round));
    }
    for &p in players {
        known(t, p)?;
        if !t.is_active(p) {
            return Err(Rejection::Withdrawn(p));
        }
        let fixed = t.fixed.get(&round).is_some_and(|v| v.iter().any(|&(b, w)| b == p || w == p));
        let bye = t.granted_byes.get(&round).is_some_and(|v| v.iter().any(|&(x, _)| x == p));
        if fixed || bye {
            return Err(Rejection::AlreadyPlaced(p));
        }
    }
    Ok(())
}

fn line_up(
    t: &Tournament,
    cfg: &TournamentConfig,
    round: u32,
    team: TeamId,
    players: &[PlayerId],
) -> Result<Vec<TournamentEvent>, Rejection> {
    let Format::Team { boards, line_up: crate::config::LineUpRule::PerMatch, .. } = cfg.format else {
        return Err(Rejection::NotInThisFormat);
    };
    if round != t.current_round() + 1 {
        return Err(Rejection::NotNextRound(round));
    }
    let roster = &t.teams.get(&team).ok_or(Rejection::UnknownTeam(team))?.members;
    let distinct = players.iter().enumerate().all(|(k, p)| !players[..k].contains(p));
    let valid =
        players.len() == boards as usize && distinct && players.iter().all(|p| roster.contains(p) && t.is_active(*p));
    if !valid {
        return Err(Rejection::InvalidLineUp(team));
    }
    Ok(vec![TournamentEvent::LineUpSubmitted { round, team, players: players.to_vec() }])
}

/// Knockout games (and the knockout stage after groups) need a decisive result.
fn decisive(t: &Tournament, cfg: &TournamentConfig, game: GameRef, result: &GameResult) -> Result<(), Rejection> {
    let knockout_stage = t.rounds.get(game.round as usize - 1).is_some_and(|r| r.stage == Stage::Knockout);
    if (cfg.format.needs_decisive_games() || knockout_stage) && matches!(result.outcome, Outcome::Draw | Outcome::Void)
    {
        return Err(Rejection::DecisiveResultRequired);
    }
    Ok(())
}

fn no_show(
    t: &Tournament,
    cfg: &TournamentConfig,
    game: GameRef,
    absent: &[PlayerId],
    started_at: Millis,
    now: Millis,
) -> Result<Vec<TournamentEvent>, Rejection> {
    running(t)?;
    let g = t.game(game).ok_or(Rejection::UnknownGame(game))?;
    if g.result.is_some() {
        return Err(Rejection::AlreadyRecorded(game));
    }
    let (black, white) = (g.paired.black, g.paired.white);
    if let Some(&p) = absent.iter().find(|&&p| p != black && p != white) {
        return Err(Rejection::NotInGame(p));
    }
    let waited = now.0 - started_at.0;
    if waited < cfg.no_show_limit_ms {
        return Err(Rejection::NoShowTooEarly { remaining_ms: cfg.no_show_limit_ms - waited });
    }
    let outcome = match (absent.contains(&black), absent.contains(&white)) {
        (true, false) => Outcome::Win(Color::White),
        (false, true) => Outcome::Win(Color::Black),
        (true, true) => Outcome::BothLose,
        (false, false) => return Err(Rejection::NotInGame(black)),
    };
    let mut events = vec![TournamentEvent::ResultRecorded {
        game,
        result: GameResult { outcome, reason: ResultReason::Forfeit },
        at: now,
    }];
    let mut absent: Vec<PlayerId> = absent.to_vec();
    absent.dedup();
    for &p in &absent {
        events.push(TournamentEvent::NoShowRecorded { player: p, game });
    }
    let mut t2 = t.clone();
    for e in &events {
        evolve(&mut t2, e);
    }
    for &p in &absent {
        let e = &t2.players[&p];
        if e.withdrawn.is_none() && cfg.withdraw_after_no_shows.is_some_and(|n| e.no_shows >= n) {
            let more = withdraw(&t2, cfg, p, WithdrawalReason::NoShows, now);
            for ev in &more {
                evolve(&mut t2, ev);
            }
            events.extend(more);
        }
    }
    Ok(with_completion(t, events))
}

/// The Art. 28 ruling for a player leaving now.
pub fn withdrawal_ruling(t: &Tournament, cfg: &TournamentConfig, p: PlayerId) -> WithdrawalRuling {
    let in_group_stage = match cfg.format {
        Format::GroupsThenKnockout { groups, .. } => {
            let g = group_members(t, groups);
            let stage_rounds = g.iter().map(|m| rounds_per_cycle(m.len())).max().unwrap_or(0) as u32;
            (t.current_round() < stage_rounds).then(|| {
                let size = g.iter().find(|m| m.contains(&p)).map_or(0, |m| m.len());
                rounds_per_cycle(size) as u32
            })
        }
        Format::RoundRobin { cycles } => Some(rounds_per_cycle(entrants(t).len()) as u32 * cycles),
        _ => None,
    };
    match (&cfg.format, in_group_stage) {
        (_, Some(total_rounds)) => {
            let played = records(t, t.current_round()).get(p).map_or(0, |r| r.games);
            if played * 2 < total_rounds {
                WithdrawalRuling::ResultsVoid
            } else {
                WithdrawalRuling::ResultsStandRestForfeited
            }
        }
        (Format::Swiss { .. } | Format::McMahon { .. } | Format::SwissElimination { .. }, None) => {
            WithdrawalRuling::ResultsStandNotPaired
        }
        _ => WithdrawalRuling::ResultsStandRestForfeited,
    }
}

/// The withdrawal and the forfeit of the player's unfinished game of the current round.
fn withdraw(
    t: &Tournament,
    cfg: &TournamentConfig,
    p: PlayerId,
    reason: WithdrawalReason,
    now: Millis,
) -> Vec<TournamentEvent> {
    let ruling =
        if t.phase == Phase::Registration { WithdrawalRuling::ResultsVoid } else { withdrawal_ruling(t, cfg, p) };
    let mut events =
        vec![TournamentEvent::PlayerWithdrawn { player: p, after_round: t.current_round(), reason, ruling }];
    if let Some(round) = t.rounds.last() {
        for g in round.games.iter().filter(|g| g.result.is_none()) {
            let outcome = if g.paired.black == p {
                Outcome::Win(Color::White)
            } else if g.paired.white == p {
                Outcome::Win(Color::Black)
            } else {
                continue;
            };
            events.push(TournamentEvent::ResultRecorded {
                game: GameRef { round: round.number, table: g.paired.table },
                result: GameResult { outcome, reason: ResultReason::Forfeit },
                at: now,
            });
        }
    }
    events
}

/// Appends what follows from `events` once the current round has every result: `RoundCompleted`,
/// eliminations, and `Finished` when the format is over.
fn with_completion(t: &Tournament, mut events: Vec<TournamentEvent>) -> Vec<TournamentEvent> {
    let Some(cfg) = t.config.as_ref() else {
        return events;
    };
    // Cheap test first (no clone): are results still missing in the open round after these events?
    let paired = events.iter().any(|e| matches!(e, TournamentEvent::RoundPaired { .. }));
    if !paired {
        let Some(open) = t.rounds.last() else {
            return events;
        };
        let missing = open.games.iter().filter(|g| g.result.is_none()).count();
        let mut newly: Vec<u32> = events
            .iter()
            .filter_map(|e| match e {
                TournamentEvent::ResultRecorded { game, .. } if game.round == open.number => Some(game.table),
                _ => None,
            })
            .filter(|&table| open.games.get(table as usize - 1).is_some_and(|g| g.result.is_none()))
            .collect();
        newly.sort_unstable();
        newly.dedup();
        if open.completed || newly.len() < missing {
            return events;
        }
    }
    let mut t2 = t.clone();
    for e in &events {
        evolve(&mut t2, e);
    }
    let Some(round) = t2.rounds.last() else {
        return events;
    };
    let number = round.number;
    let already = t.rounds.get(number as usize - 1).is_some_and(|r| r.completed);
    if already || round.games.iter().any(|g| g.result.is_none()) {
        return events;
    }
    let mut more = vec![TournamentEvent::RoundCompleted { round: number }];
    evolve(&mut t2, &more[0]);
    let losses = match cfg.format {
        Format::Knockout { losses } | Format::SwissElimination { losses, .. } => Some(losses),
        _ => None,
    };
    if let Some(limit) = losses {
        let recs = records(&t2, number);
        for r in &recs.list {
            let e = &t2.players[&r.player];
            if e.eliminated_in.is_none() && e.withdrawn.is_none() && r.losses >= limit {
                more.push(TournamentEvent::PlayerEliminated { player: r.player, round: number });
            }
        }
        for e in &more[1..] {
            evolve(&mut t2, e);
        }
    }
    if let Some(champion) = finished(&t2, cfg) {
        more.push(TournamentEvent::Finished { champion });
    }
    events.extend(more);
    events
}

/// Whether the format is over after the last (completed) round, and who won.
fn finished(t: &Tournament, cfg: &TournamentConfig) -> Option<Champion> {
    let done = t.current_round();
    let top = || standings(t).rows.first().map_or(Champion::None, |r| Champion::Player(r.player));
    let top_team = || team_standings(t).rows.first().map_or(Champion::None, |r| Champion::Team(r.team));
    let last = t.rounds.last()?;
    match &cfg.format {
        Format::Swiss { rounds } | Format::McMahon { rounds, .. } => (done >= *rounds).then(top),
        Format::RoundRobin { cycles } => {
            (done as usize >= rounds_per_cycle(entrants(t).len()) * *cycles as usize).then(top)
        }
        Format::Knockout { losses } if *losses >= 2 => {
            let active: Vec<PlayerId> = t.players.keys().copied().filter(|&p| t.is_active(p)).collect();
            (active.len() <= 1).then(|| active.first().map_or(Champion::None, |&p| Champion::Player(p)))
        }
        Format::Knockout { .. } => knockout_champion(t, last).map(|c| c.map_or(Champion::None, Champion::Player)),
        Format::GroupsThenKnockout { .. } => {
            if last.stage != Stage::Knockout {
                return None;
            }
            knockout_champion(t, last).map(|c| c.map_or(Champion::None, Champion::Player))
        }
        Format::SwissElimination { rounds, .. } => {
            let active = t.players.keys().filter(|&&p| t.is_active(p)).count();
            (done >= *rounds || active <= 1).then(top)
        }
        Format::Match { wins_needed } => {
            match_wins(t).into_iter().find(|&(_, w)| w >= *wins_needed).map(|(p, _)| Champion::Player(p))
        }
        Format::FixedMatch { games } => fixed_match_result(t, cfg, *games),
        Format::Team { schedule, .. } => {
            let total = match schedule {
                TeamSchedule::RoundRobin { cycles } => rounds_per_cycle(t.teams.len()) as u32 * cycles,
                TeamSchedule::Swiss { rounds } => *rounds,
            };
            (done >= total).then(top_team)
        }
        Format::TeamRotation => {
            let n = t.teams.values().map(|k| k.members.len()).min().unwrap_or(0) as u32;
            (done >= n).then(top_team)
        }
        Format::WinAndContinue => match arena_next(t).ok()? {
            [(_, Some(_)), (_, Some(_))] => None,
            [(a, Some(_)), (_, None)] => Some(Champion::Team(a)),
            [(_, None), (b, Some(_))] => Some(Champion::Team(b)),
            [(_, None), (_, None)] => Some(Champion::None),
        },
    }
}

/// The result of a fixed-length match once it is decided: all games played, or a lead the games left
/// cannot close. More points win; equal points after every game draw the match.
fn fixed_match_result(t: &Tournament, cfg: &TournamentConfig, games: u32) -> Option<Champion> {
    let recs = crate::record::records(t, t.current_round());
    let [a, b] = recs.list.as_slice() else { return None };
    let played = a.games.min(b.games);
    let left = i64::from(games.saturating_sub(played)) * (cfg.points.win - cfg.points.loss);
    let (lead, leader) =
        if a.points >= b.points { (a.points - b.points, a.player) } else { (b.points - a.points, b.player) };
    if lead > left {
        Some(Champion::Player(leader))
    } else if played >= games {
        Some(Champion::None)
    } else {
        None
    }
}
