//! The decider: a command, its actor and the server time in; the events to record, or a rejection,
//! out. Pure: it reads no clock, does no IO, draws no random number (the nigiri secret comes with the
//! command), and never changes the state it is given.

use sha2::{Digest, Sha256};
use weiqi_clock::{ClockEvent, DurationMs, ExpiryOutcome, Millis, OverrunRule};
use weiqi_rules::{
    Color, Game, HandicapError, Illegal, IllegalMovePolicy, KoRule, Move, Point, Ruleset, handicap, score,
};

use super::command::Command;
use super::event::{
    ClockSnapshot, ColorMethod, CycleRulingExt, EndReason, GameEvent, GameResult, GameSetup, LagReport, Outcome,
    SideClock, VoidGround,
};
use super::ids::{Actor, PlayerId};
use super::rejection::Rejection;
use super::state::{GameState, Phase, side};

/// Decides `command` from `actor` at server time `now` against `state`.
///
/// Every event decided is folded into a copy of the state before it is returned: a decision that would
/// not replay (a clock change the clock refuses, an event out of place) is refused as
/// [`Rejection::Inconsistent`] instead of being recorded, so an accepted command can never leave an
/// unreadable log.
pub fn decide(state: &GameState, actor: &Actor, command: &Command, now: Millis) -> Result<Vec<GameEvent>, Rejection> {
    decide_and_fold(state, actor, command, now).map(|(events, _)| events)
}

/// [`decide`], also returning the state with the events folded in (what the service caches next).
pub fn decide_and_fold(
    state: &GameState,
    actor: &Actor,
    command: &Command,
    now: Millis,
) -> Result<(Vec<GameEvent>, GameState), Rejection> {
    let events = decide_events(state, actor, command, now)?;
    let mut next = state.clone();
    for event in &events {
        next.evolve(event).map_err(|e| Rejection::Inconsistent(e.to_string()))?;
    }
    Ok((events, next))
}

fn decide_events(
    state: &GameState,
    actor: &Actor,
    command: &Command,
    now: Millis,
) -> Result<Vec<GameEvent>, Rejection> {
    check_texts(command)?;
    // Server time never runs backwards within a game, even across instances.
    let now = now.max(state.last_at);
    if state.phase == Phase::New && !matches!(command, Command::Create { .. }) {
        return Err(Rejection::NotFound);
    }
    // Who may act comes before what the game allows: a player of neither side learns nothing about the
    // game's state from a refusal.
    if let Actor::Player(p) = actor
        && state.phase != Phase::New
        && !state.is_player(p)
    {
        return Err(Rejection::NotAPlayer);
    }
    match command {
        Command::Create { setup, nigiri_secret } => create(state, actor, setup, nigiri_secret, now),
        Command::GuessNigiri { even } => guess_nigiri(state, actor, *even, now),
        Command::Start => {
            // An offer starts when the other player accepts it, never on the offerer's word alone. The
            // other player's start is the acceptance; before the nigiri it is recorded, and the game
            // starts as soon as the colors are decided.
            if state.awaiting_acceptance()
                && let Actor::Player(p) = actor
            {
                if state.setup.as_ref().and_then(|s| s.offered_by.as_ref()) == Some(p) {
                    return Err(Rejection::OfferNotAccepted);
                }
                let accepted = GameEvent::OfferAccepted { by: p.clone() };
                if state.phase == Phase::Nigiri {
                    return Ok(vec![accepted]);
                }
                return Ok(vec![accepted, GameEvent::Started { at: now }]);
            }
            require(state, &[Phase::Ready])?;
            // Starting the game means the other player is present: a side late beyond the limit loses.
            if let Some(late) = state.late_beyond_limit() {
                return Ok(vec![ended(Outcome::win(late.opponent()), EndReason::Lateness, None, now)]);
            }
            Ok(vec![GameEvent::Started { at: now }])
        }
        Command::Play { mv, expected_number, lag } => play(state, actor, *mv, *expected_number, *lag, now),
        Command::Resign => {
            require(state, &[Phase::Playing, Phase::Paused, Phase::Adjourned, Phase::Scoring])?;
            let color = player_color(state, actor)?;
            Ok(vec![
                GameEvent::Resigned { color, at: now },
                ended(Outcome::win(color.opponent()), EndReason::Resignation, None, now),
            ])
        }
        Command::MarkDead { points } => {
            require(state, &[Phase::Scoring])?;
            let by = player_color(state, actor)?;
            let game = state.game.as_ref().ok_or(Rejection::NotFound)?;
            let mut points = points.clone();
            for p in &points {
                if !p.is_on(game.size()) {
                    return Err(Rejection::BadPoint(format!("{p:?}")));
                }
                if game.board().get(*p).is_none() {
                    return Err(Rejection::NotAStone(p.to_gtp(game.size())));
                }
            }
            points.sort();
            points.dedup();
            Ok(vec![GameEvent::DeadChainsMarked { by, points }])
        }
        Command::AcceptScore => {
            require(state, &[Phase::Scoring])?;
            let by = player_color(state, actor)?;
            let mut events = vec![GameEvent::ScoreAccepted { by }];
            if state.proposal.accepted[by.opponent().index()] {
                events.push(counted(state, &state.proposal.points, now)?);
            }
            Ok(events)
        }
        Command::DisputeScore => {
            require(state, &[Phase::Scoring])?;
            let by = player_color(state, actor)?;
            // Art. 21.4: the side claiming stones dead moves first. A player's marks are their claim;
            // the estimator's suggestion is nobody's: if it has the disputer's own stones dead, the
            // claim is the opponent's, else the disputer says more are dead and is the claimant.
            let first = state.proposal.by.unwrap_or_else(|| {
                let board = state.game.as_ref().map(|g| g.board());
                let own_marked = state.proposal.points.iter().any(|p| board.and_then(|b| b.get(*p)) == Some(by));
                if own_marked { by.opponent() } else { by }
            });
            Ok(vec![GameEvent::ScoreDisputed { by }, GameEvent::PlayResumed { first, at: now }])
        }
        Command::Seal { mv, lag } => {
            require(state, &[Phase::Playing])?;
            let color = player_color(state, actor)?;
            // One player alone may not stop a casual game's clocks: no referee would open the move.
            let setup = state.setup.as_ref().ok_or(Rejection::NotFound)?;
            if setup.tournament.is_none() && setup.event_id.is_none() {
                return Err(Rejection::SealNeedsReferee);
            }
            if state.to_move() != Some(color) {
                return Err(Rejection::NotTheSealer);
            }
            let game = state.game.as_ref().ok_or(Rejection::NotFound)?;
            if let Move::Play(p) = mv
                && !p.is_on(game.size())
            {
                return Err(Rejection::Illegal(Illegal::OffBoard));
            }
            check_clock(state, ClockEvent::Sealed { side: side(color), at: now, report: *lag })?;
            Ok(vec![GameEvent::Adjourned { sealer: color, sealed: *mv, at: now, lag: *lag }])
        }
        Command::RequestPassOnOverrun => {
            require(state, &[Phase::Ready, Phase::Playing, Phase::Paused, Phase::Adjourned])?;
            let color = player_color(state, actor)?;
            let setup = state.setup.as_ref().ok_or(Rejection::NotFound)?;
            if setup.time_control.overrun != OverrunRule::PassOnRequest {
                return Err(Rejection::OverrunPassNotAllowed);
            }
            check_clock(state, ClockEvent::PassOnOverrunRequested { side: side(color) })?;
            Ok(vec![GameEvent::PassOnOverrunRequested { color }])
        }
        Command::ClaimAbsence { away } => {
            require(state, &[Phase::Playing])?;
            let color = player_color(state, actor)?;
            let setup = state.setup.as_ref().ok_or(Rejection::NotFound)?;
            if setup.tournament.is_some() || setup.event_id.is_some() {
                return Err(Rejection::AbsenceClaimInEvent);
            }
            let needed = setup.absence_claim.unwrap_or(ABSENCE_CLAIM);
            if *away < needed {
                return Err(Rejection::OpponentNotAwayLongEnough { away: *away, needed });
            }
            let minutes = away.as_millis() / 60_000;
            Ok(vec![GameEvent::Ended {
                result: GameResult { outcome: Outcome::win(color), reason: EndReason::Forfeit, score: None },
                dead: Vec::new(),
                note: format!("the opponent was away for {minutes} min"),
                at: now,
            }])
        }
        Command::Warn { color, reason } => {
            require_referee(actor)?;
            require(
                state,
                &[Phase::Nigiri, Phase::Ready, Phase::Playing, Phase::Paused, Phase::Adjourned, Phase::Scoring],
            )?;
            let count = state.warnings[color.index()] + 1;
            let mut events = vec![GameEvent::WarningIssued { color: *color, reason: reason.clone(), count }];
            if count >= 2 {
                events.push(ended(Outcome::win(color.opponent()), EndReason::Warnings, None, now));
            }
            Ok(events)
        }
        Command::SwapColors => {
            require_referee(actor)?;
            require(state, &[Phase::Ready, Phase::Playing, Phase::Paused])?;
            if state.move_number > 10 {
                return Err(Rejection::SwapTooLate);
            }
            Ok(vec![GameEvent::ColorsSwapped])
        }
        Command::VoidLastMove { reason, ground } => {
            require_referee(actor)?;
            require(state, &[Phase::Playing, Phase::Paused])?;
            let Some((color, mv @ Move::Play(_))) = state.last_move else { return Err(Rejection::NothingToVoid) };
            let mut events = vec![GameEvent::MoveVoided {
                color,
                mv,
                reason: reason.clone(),
                taken_back: true,
                ground: *ground,
                at: now,
            }];
            // Art. 17.2 and 18.3: the void comes with a warning (and a second warning loses, Art. 24).
            if ground.warns() {
                let count = state.warnings[color.index()] + 1;
                events.push(GameEvent::WarningIssued { color, reason: reason.clone(), count });
                if count >= 2 {
                    events.push(ended(Outcome::win(color.opponent()), EndReason::Warnings, None, now));
                }
            }
            Ok(events)
        }
        Command::Pause { reason } => {
            require_referee(actor)?;
            require(state, &[Phase::Playing])?;
            check_clock(state, ClockEvent::Paused { at: now, by: referee_of(actor) })?;
            Ok(vec![GameEvent::Paused { reason: reason.clone(), at: now }])
        }
        Command::Resume => {
            require_referee(actor)?;
            require(state, &[Phase::Paused])?;
            Ok(vec![GameEvent::Resumed { at: now }])
        }
        Command::ResumeAdjourned => {
            require_referee(actor)?;
            require(state, &[Phase::Adjourned])?;
            let (sealer, mv) = state.sealed.ok_or(Rejection::WrongPhase(state.phase))?;
            let mut events =
                vec![GameEvent::Resumed { at: now }, GameEvent::SealedMoveRevealed { sealer, mv, at: now }];
            let game = state.game.as_ref().ok_or(Rejection::NotFound)?;
            let number = state.move_number + 1;
            match mv {
                Move::Pass => events.push(GameEvent::Passed { color: sealer, number, at: now, lag: None, clock: None }),
                Move::Play(p) => match game.preview(sealer, p) {
                    Ok(pv) => events.push(GameEvent::StonePlayed {
                        color: sealer,
                        point: p,
                        captures: pv.captured,
                        suicided: pv.suicided,
                        hash: pv.hash_after,
                        number,
                        at: now,
                        lag: None,
                        cycle: pv.cycle,
                        from_sealed: true,
                        clock: None,
                    }),
                    // Seed 004: a sealed point that is occupied (or otherwise illegal) forfeits the turn.
                    Err(reason) => events.push(GameEvent::MoveVoided {
                        color: sealer,
                        mv,
                        reason: format!("sealed move: {reason}"),
                        taken_back: false,
                        ground: VoidGround::Unspecified,
                        at: now,
                    }),
                },
            }
            Ok(events)
        }
        Command::Adjudicate { outcome, reason, note } => {
            require_referee(actor)?;
            require(
                state,
                &[Phase::Nigiri, Phase::Ready, Phase::Playing, Phase::Paused, Phase::Adjourned, Phase::Scoring],
            )?;
            Ok(vec![GameEvent::Ended {
                result: GameResult { outcome: *outcome, reason: *reason, score: None },
                dead: Vec::new(),
                note: note.clone(),
                at: now,
            }])
        }
        Command::CorrectResult { outcome, reason, note } => {
            require_referee(actor)?;
            let Some(previous) = state.result.clone().filter(|_| state.phase == Phase::Ended) else {
                return Err(Rejection::WrongPhase(state.phase));
            };
            // The count stays with the game only when the correction keeps it (same winner, by score).
            let score = previous.score.filter(|_| *reason == EndReason::Score && previous.outcome == *outcome);
            let result = GameResult { outcome: *outcome, reason: *reason, score };
            Ok(vec![GameEvent::ResultCorrected { previous, result, note: note.clone(), at: now }])
        }
        Command::CorrectClock { black, white, reason } => {
            require_referee(actor)?;
            require(state, &[Phase::Ready, Phase::Playing, Phase::Paused, Phase::Adjourned])?;
            let chief = matches!(actor, Actor::ChiefReferee(_));
            if black.is_some() != white.is_some() && !chief {
                return Err(Rejection::NeedsChiefReferee);
            }
            if black.is_none() && white.is_none() {
                return Err(Rejection::Clock("a correction must set at least one side".into()));
            }
            let event = GameEvent::ClockCorrected {
                black: *black,
                white: *white,
                reason: reason.clone(),
                referee: actor.id().to_string(),
                chief,
                at: now,
            };
            let mut probe = state.clone();
            probe.evolve(&event).map_err(|e| Rejection::Clock(e.to_string()))?;
            Ok(vec![event])
        }
        Command::ReportLateness { color, late } => {
            require_referee(actor)?;
            require(state, &[Phase::Ready])?;
            report_lateness(state, *color, *late, now)
        }
        Command::ExpireTime { seen } => {
            if *seen != state.version {
                return Err(Rejection::FlagOutdated { seen: *seen, current: state.version });
            }
            require(state, &[Phase::Playing])?;
            let clock = state.clock.as_ref().ok_or(Rejection::NotExpired)?;
            let expiry = clock.flag(now).ok_or(Rejection::NotExpired)?;
            let color = match expiry.side {
                weiqi_clock::Side::Black => Color::Black,
                weiqi_clock::Side::White => Color::White,
            };
            let counted_as_pass = expiry.outcome == ExpiryOutcome::Pass;
            let mut events =
                vec![GameEvent::TimeExpired { color, deadline: expiry.deadline, at: now, counted_as_pass }];
            if !counted_as_pass {
                events.push(ended(Outcome::win(color.opponent()), EndReason::Time, None, now));
            } else if state.game.as_ref().is_some_and(|g| g.pass_ends_play(color)) {
                events.extend(after_two_passes(state, color.opponent(), now)?);
            }
            Ok(events)
        }
        Command::ExcuseOutage { from, to, reason } => {
            // Only the platform itself knows when it could not take a move.
            if !matches!(actor, Actor::System(_)) {
                return Err(Rejection::NotAReferee);
            }
            require(state, &[Phase::Playing])?;
            let clock = state.clock.as_ref().ok_or(Rejection::NothingToExcuse)?;
            // Never before the game's last event (its clock is exact up to there), never in the future.
            let from = (*from).max(state.last_at);
            let to = (*to).min(now);
            if to <= from {
                return Err(Rejection::NothingToExcuse);
            }
            // A player whose time ran out before the outage began lost on time then.
            if clock.deadline().is_none_or(|deadline| deadline <= from) {
                return Err(Rejection::NothingToExcuse);
            }
            Ok(vec![GameEvent::OutageExcused { from, to, reason: *reason }])
        }
    }
}

fn require(state: &GameState, phases: &[Phase]) -> Result<(), Rejection> {
    if phases.contains(&state.phase) {
        Ok(())
    } else if state.phase == Phase::Ended {
        Err(Rejection::Illegal(Illegal::GameOver))
    } else {
        Err(Rejection::WrongPhase(state.phase))
    }
}

fn require_referee(actor: &Actor) -> Result<(), Rejection> {
    if actor.is_referee() { Ok(()) } else { Err(Rejection::NotAReferee) }
}

fn player_color(state: &GameState, actor: &Actor) -> Result<Color, Rejection> {
    match actor {
        Actor::Player(p) => state.color_of(p).ok_or(Rejection::NotAPlayer),
        _ => Err(Rejection::NotAPlayer),
    }
}

fn referee_of(actor: &Actor) -> weiqi_clock::Referee {
    let role = match actor {
        Actor::ChiefReferee(_) => weiqi_clock::RefereeRole::Chief,
        Actor::System(_) => weiqi_clock::RefereeRole::Schedule,
        _ => weiqi_clock::RefereeRole::Referee,
    };
    weiqi_clock::Referee { id: actor.id().to_string(), role }
}

/// Checks that the clock accepts `event`, mapping a late action to [`Rejection::TimeExpired`].
fn check_clock(state: &GameState, event: ClockEvent) -> Result<Option<weiqi_clock::Clock>, Rejection> {
    let Some(clock) = &state.clock else { return Ok(None) };
    match clock.apply(&event) {
        Ok(c) => Ok(Some(c)),
        Err(weiqi_clock::ClockError::TimeExpired { .. }) => Err(Rejection::TimeExpired),
        Err(e) => Err(Rejection::Clock(e.to_string())),
    }
}

fn snapshot(clock: &weiqi_clock::Clock, now: Millis) -> ClockSnapshot {
    let reading = clock.reading(now);
    let of = |s: weiqi_clock::Side| {
        let r = reading.side(s);
        SideClock {
            main: r.bank.main,
            periods_left: r.periods_left,
            period_left: r.bank.period_left,
            moves_left: r.bank.moves_left,
        }
    };
    ClockSnapshot { black: of(weiqi_clock::Side::Black), white: of(weiqi_clock::Side::White) }
}

/// How long an opponent of a casual game must be away before the player may claim the win (OGS lets
/// a player claim after 30 s, Tygem after 5 minutes; casual games here take 3).
pub const ABSENCE_CLAIM: DurationMs = DurationMs(3 * 60_000);

fn ended(outcome: Outcome, reason: EndReason, score: Option<weiqi_rules::Score>, at: Millis) -> GameEvent {
    GameEvent::Ended { result: GameResult { outcome, reason, score }, dead: Vec::new(), note: String::new(), at }
}

/// The count with the agreed dead chains, as the game's end.
fn counted(state: &GameState, dead: &[Point], now: Millis) -> Result<GameEvent, Rejection> {
    let game = state.game.as_ref().ok_or(Rejection::NotFound)?;
    let s = score(game, dead, state.warnings).map_err(|e| Rejection::NotAStone(e.to_string()))?;
    let outcome = match s.result.winner {
        Some(c) => Outcome::win(c),
        None => Outcome::Draw,
    };
    Ok(GameEvent::Ended {
        result: GameResult { outcome, reason: EndReason::Score, score: Some(s) },
        dead: dead.to_vec(),
        note: String::new(),
        at: now,
    })
}

/// Two passes end play: Tromp-Taylor counts at once (every stone alive, by definition); otherwise the
/// players agree on dead chains, starting from the estimator's suggestion (`DeadStonesSuggested`: a
/// proposal nobody has accepted yet; the estimate decides nothing by itself). `next` is the side
/// that would move next (the estimator plays its playouts from that side first).
fn after_two_passes(state: &GameState, next: Color, now: Millis) -> Result<Vec<GameEvent>, Rejection> {
    let rules = state.setup.as_ref().map(|s| s.ruleset).unwrap_or_default();
    if rules == Ruleset::tromp_taylor().with_komi(rules.komi) {
        return Ok(vec![counted(state, &[], now)?]);
    }
    let game = state.game.as_ref().ok_or(Rejection::NotFound)?;
    let estimate = weiqi_estimate::estimate(game.board(), next, game.ruleset());
    Ok(vec![
        GameEvent::ScoringStarted { at: now },
        GameEvent::DeadStonesSuggested { points: estimate.dead_stones(), seki: estimate.seki_stones() },
    ])
}

fn play(
    state: &GameState,
    actor: &Actor,
    mv: Move,
    expected: u32,
    lag: Option<LagReport>,
    now: Millis,
) -> Result<Vec<GameEvent>, Rejection> {
    require(state, &[Phase::Playing])?;
    let color = player_color(state, actor)?;
    let game = state.game.as_ref().ok_or(Rejection::NotFound)?;
    if game.to_move() != color {
        return Err(Rejection::NotYourTurn);
    }
    let number = state.move_number + 1;
    if expected != 0 && expected != number {
        return Err(Rejection::StaleMoveNumber { expected, actual: number });
    }
    // The clock first: a move after the deadline is refused, whatever it is.
    let clock_after = check_clock(state, ClockEvent::Moved { side: side(color), at: now, report: lag })?;
    let clock = clock_after.as_ref().map(|c| snapshot(c, now));
    match mv {
        Move::Pass => {
            let mut events = vec![GameEvent::Passed { color, number, at: now, lag, clock }];
            if game.pass_ends_play(color) {
                events.extend(after_two_passes(state, color.opponent(), now)?);
            }
            Ok(events)
        }
        Move::Play(point) => match game.preview(color, point) {
            Ok(pv) => {
                let rules = game.ruleset();
                let mut events = vec![GameEvent::StonePlayed {
                    color,
                    point,
                    captures: pv.captured,
                    suicided: pv.suicided,
                    hash: pv.hash_after,
                    number,
                    at: now,
                    lag,
                    cycle: pv.cycle,
                    from_sealed: false,
                    clock,
                }];
                if pv.cycle && rules.ko == KoRule::Simple {
                    events.push(ended(rules.cycle.outcome(), EndReason::Cycle, None, now));
                }
                Ok(events)
            }
            Err(reason @ (Illegal::Ko | Illegal::Superko | Illegal::Suicide))
                if game.ruleset().illegal_move == IllegalMovePolicy::VoidAndForfeitTurn =>
            {
                Ok(vec![GameEvent::MoveVoided {
                    color,
                    mv,
                    reason: reason.to_string(),
                    taken_back: false,
                    ground: VoidGround::Unspecified,
                    at: now,
                }])
            }
            Err(reason) => Err(Rejection::Illegal(reason)),
        },
    }
}

fn create(
    state: &GameState,
    actor: &Actor,
    setup: &GameSetup,
    secret: &[u8; 32],
    now: Millis,
) -> Result<Vec<GameEvent>, Rejection> {
    if state.phase != Phase::New {
        return Err(Rejection::AlreadyExists);
    }
    // A tournament's games are the platform's: only the tournament's process manager names one.
    if setup.tournament.is_some() && !matches!(actor, Actor::System(_)) {
        return Err(Rejection::ReservedGameId);
    }
    let mut setup = setup.clone();
    setup.offered_by = None;
    if let Actor::Player(p) = actor {
        // A player seats another only by an offer the other accepts (starts): a casual game with the
        // offerer seated, never started by the offerer. It may be rated (both players consent: the
        // offer, then the acceptance) when it is a game ratings can mean something for: 19×19 with a
        // clock.
        if setup.first.id != *p && setup.second.id != *p {
            return Err(Rejection::NotAPlayer);
        }
        if setup.event_id.is_some() {
            return Err(Rejection::InvalidSetup("a player offers only casual games (no event)".into()));
        }
        if setup.rated && (setup.size != 19 || setup.time_control.system == weiqi_clock::TimeSystem::NoClock) {
            return Err(Rejection::InvalidSetup("a rated casual game is played on 19×19 with a clock".into()));
        }
        setup.offered_by = Some(p.clone());
        setup.start_immediately = false;
    }
    let setup = &setup;
    validate(setup)?;
    let mut events = vec![GameEvent::Created(Box::new(setup.clone()))];
    if setup.color_method == ColorMethod::Nigiri && setup.handicap == 0 {
        let holder = higher_ranked(setup);
        events.push(GameEvent::NigiriCommitted { holder, commitment: Sha256::digest(secret).into(), secret: *secret });
        return Ok(events);
    }
    events.push(GameEvent::ColorsDecided {
        black: setup.first.id.clone(),
        white: setup.second.id.clone(),
        method: ColorMethod::Fixed,
    });
    if setup.handicap >= 2 {
        let points = if setup.handicap_points.is_empty() {
            handicap::fixed_handicap(setup.size, setup.handicap).map_err(|e| Rejection::InvalidSetup(e.to_string()))?
        } else {
            setup.handicap_points.clone()
        };
        events.push(GameEvent::HandicapPlaced { points });
    }
    if setup.start_immediately {
        events.push(GameEvent::Started { at: now });
    }
    Ok(events)
}

/// The longest referee's reason or note, in characters.
pub const MAX_NOTE: usize = 500;
/// The longest player id or event id, in bytes (an account name's limit).
pub const MAX_ID: usize = 64;
/// The longest player's name, in characters.
pub const MAX_PLAYER_NAME: usize = 64;
/// The longest rank as text ("3d", "业余3段").
pub const MAX_RANK: usize = 16;

fn text(field: &'static str, value: &str, max: usize, lines: bool) -> Result<(), Rejection> {
    let bad = value.chars().any(|c| c.is_control() && !(lines && (c == '\n' || c == '\t')));
    if bad || value.chars().count() > max {
        return Err(Rejection::OutOfRange {
            field,
            allowed: format!("at most {max} characters, no control characters"),
        });
    }
    Ok(())
}

/// Every text a command carries is within its limit (limits are the domain's: the pages call the
/// service in process, where no transport caps a message).
fn check_texts(command: &Command) -> Result<(), Rejection> {
    match command {
        Command::Warn { reason, .. } | Command::VoidLastMove { reason, .. } | Command::Pause { reason } => {
            text("reason", reason, MAX_NOTE, true)
        }
        Command::CorrectClock { reason, .. } => text("reason", reason, MAX_NOTE, true),
        Command::Adjudicate { note, .. } | Command::CorrectResult { note, .. } => text("note", note, MAX_NOTE, true),
        Command::Create { setup, .. } => {
            for p in [&setup.first, &setup.second] {
                if p.id.0.len() > MAX_ID {
                    return Err(Rejection::OutOfRange {
                        field: "player id",
                        allowed: format!("at most {MAX_ID} bytes"),
                    });
                }
                text("player id", &p.id.0, MAX_ID, false)?;
                text("player name", &p.name, MAX_PLAYER_NAME, false)?;
                text("rank", &p.rank, MAX_RANK, false)?;
            }
            if let Some(event) = &setup.event_id {
                text("event_id", event, MAX_ID, false)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn validate(setup: &GameSetup) -> Result<(), Rejection> {
    let bad = |m: &str| Err(Rejection::InvalidSetup(m.to_string()));
    if setup.first.id.0.is_empty() || setup.second.id.0.is_empty() {
        return bad("both players need an id");
    }
    if setup.first.id == setup.second.id {
        return bad("a player cannot play against themselves");
    }
    if !(weiqi_rules::MIN_SIZE..=weiqi_rules::MAX_SIZE).contains(&setup.size) {
        return Err(Rejection::OutOfRange {
            field: "size",
            allowed: format!("{} to {}", weiqi_rules::MIN_SIZE, weiqi_rules::MAX_SIZE),
        });
    }
    Game::new(setup.size, setup.ruleset).map_err(|e| Rejection::InvalidSetup(e.to_string()))?;
    match setup.ruleset.check_size(setup.size) {
        Ok(()) => {}
        Err(weiqi_rules::RulesetError::KomiOutOfRange { max, .. }) => {
            return Err(Rejection::OutOfRange {
                field: "komi_half_points",
                allowed: format!(
                    "-{} to {} half points ({max} points either way on {}×{})",
                    max.0, max.0, setup.size, setup.size
                ),
            });
        }
        Err(e) => return Err(Rejection::InvalidSetup(e.to_string())),
    }
    if setup.lateness_limit.is_negative() || setup.lateness_limit > MAX_LATENESS {
        return Err(Rejection::OutOfRange { field: "lateness_limit_ms", allowed: format!("0 to {MAX_LATENESS}") });
    }
    if setup.handicap >= 2 {
        let check = if setup.handicap_points.is_empty() {
            handicap::fixed_handicap(setup.size, setup.handicap).map(|_| ())
        } else if setup.handicap_points.len() != setup.handicap as usize {
            Err(HandicapError::BadCount(setup.handicap_points.len()))
        } else {
            handicap::free_handicap(setup.size, &setup.handicap_points).map(|_| ())
        };
        check.map_err(|e| Rejection::InvalidSetup(e.to_string()))?;
    }
    setup.time_control.validate().map_err(|e| Rejection::InvalidSetup(e.to_string()))?;
    Ok(())
}

/// The latest arrival a referee may report, and the longest lateness limit an event may set.
const MAX_LATENESS: DurationMs = DurationMs::from_hours(24);

/// Art. 22: a referee reports that `color` arrived `late` after the scheduled start (or is still absent,
/// `late` after it).
///
/// * Within the limit: twice the lateness comes off main time (Art. 22.1–2); in a fast game with no basic
///   time the absent player's byo-yomi ran instead (Art. 22.4), periods used up as on a move. A penalty
///   that leaves no time at all (absolute time or Fischer spent, the last period used) is a loss by
///   lateness, never a deduction the clock would refuse.
/// * Beyond the limit, or out of time by the penalty: the player loses by lateness once the opponent is
///   known to be present (reported in time, or the game is started), and both lose if the opponent is
///   beyond the limit too (Art. 22.3). Until then the game waits ([`GameEvent::LateBeyondLimit`]).
fn report_lateness(
    state: &GameState,
    color: Color,
    late: DurationMs,
    now: Millis,
) -> Result<Vec<GameEvent>, Rejection> {
    if late.is_negative() || late > MAX_LATENESS {
        return Err(Rejection::OutOfRange { field: "late_ms", allowed: format!("0 to {MAX_LATENESS}") });
    }
    if state.lateness[color.index()].is_some() {
        return Err(Rejection::LatenessAlreadyReported(color.name()));
    }
    let setup = state.setup.as_ref().ok_or(Rejection::NotFound)?;
    let clock = state.clock.as_ref().ok_or(Rejection::NotFound)?;
    let byo_yomi_ran = weiqi_clock::Bank::initial(&setup.time_control).in_overtime();
    let deducted = if byo_yomi_ran { late } else { late.times(2) };
    let penalty = GameEvent::LatenessPenalised { color, late, deducted, byo_yomi_ran };
    let clock_event = if byo_yomi_ran {
        ClockEvent::LatenessRan { side: side(color), amount: deducted }
    } else {
        ClockEvent::LatenessDeducted { side: side(color), amount: deducted }
    };
    let out_of_time = matches!(clock.apply(&clock_event), Err(weiqi_clock::ClockError::DeductionExhaustsTime { .. }));
    let beyond = late > setup.lateness_limit || out_of_time;
    let opponent = state.lateness[color.opponent().index()];
    Ok(match (beyond, opponent) {
        (true, Some(o)) if o.beyond_limit => {
            vec![GameEvent::LateBeyondLimit { color, late }, ended(Outcome::BothLose, EndReason::Lateness, None, now)]
        }
        (true, Some(_)) => {
            vec![
                GameEvent::LateBeyondLimit { color, late },
                ended(Outcome::win(color.opponent()), EndReason::Lateness, None, now),
            ]
        }
        (true, None) => vec![GameEvent::LateBeyondLimit { color, late }],
        (false, Some(o)) if o.beyond_limit => vec![penalty, ended(Outcome::win(color), EndReason::Lateness, None, now)],
        (false, _) => vec![penalty],
    })
}

/// The nigiri holder: the higher-ranked player (the first listed at equal rank, standing in for "the
/// older one", which the platform does not record).
fn higher_ranked(setup: &GameSetup) -> PlayerId {
    if rank_value(&setup.second.rank) > rank_value(&setup.first.rank) {
        setup.second.id.clone()
    } else {
        setup.first.id.clone()
    }
}

/// Orders ranks: 25k < … < 1k < 1d < … < 9d < 1p < … < 9p. Unknown ranks sort lowest.
pub fn rank_value(rank: &str) -> i32 {
    let r = rank.trim().to_ascii_lowercase();
    let (num, kind) = r.split_at(r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len()));
    let Ok(n) = num.parse::<i32>() else { return i32::MIN };
    match kind {
        "k" | "kyu" => -n,
        "d" | "dan" => n + 100,
        "p" | "pro" => n + 200,
        _ => i32::MIN,
    }
}

/// Stones in the nigiri hand, derived from the secret so anyone can recount: 10 to 40.
pub fn nigiri_stones(secret: &[u8; 32]) -> u32 {
    10 + u32::from_le_bytes([secret[0], secret[1], secret[2], secret[3]]) % 31
}

fn guess_nigiri(state: &GameState, actor: &Actor, even: bool, now: Millis) -> Result<Vec<GameEvent>, Rejection> {
    require(state, &[Phase::Nigiri])?;
    let nigiri = state.nigiri.as_ref().ok_or(Rejection::WrongPhase(state.phase))?;
    let secret = state.nigiri_secret.ok_or(Rejection::WrongPhase(state.phase))?;
    match actor {
        Actor::Player(p) if *p == nigiri.guesser => {}
        _ => return Err(Rejection::NotTheGuesser),
    }
    let stones = nigiri_stones(&secret);
    let guess_correct = stones.is_multiple_of(2) == even;
    let (black, white) = if guess_correct {
        (nigiri.guesser.clone(), nigiri.holder.clone())
    } else {
        (nigiri.holder.clone(), nigiri.guesser.clone())
    };
    let mut events = vec![
        GameEvent::NigiriGuessed { guesser: nigiri.guesser.clone(), even },
        GameEvent::NigiriRevealed { secret, stones, guess_correct },
        GameEvent::ColorsDecided { black, white, method: ColorMethod::Nigiri },
    ];
    let accepted_offer = state.offer_accepted && state.setup.as_ref().is_some_and(|s| s.offered_by.is_some());
    if accepted_offer || state.setup.as_ref().is_some_and(|s| s.start_immediately) {
        events.push(GameEvent::Started { at: now });
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_order_kyu_dan_pro() {
        assert!(rank_value("1k") > rank_value("5k"));
        assert!(rank_value("1d") > rank_value("1k"));
        assert!(rank_value("7d") > rank_value("6d"));
        assert!(rank_value("1p") > rank_value("7d"));
        assert!(rank_value("?") < rank_value("25k"));
    }

    #[test]
    fn nigiri_stones_are_derived_from_the_secret() {
        let mut s = [0u8; 32];
        assert_eq!(nigiri_stones(&s), 10);
        s[0] = 30;
        assert_eq!(nigiri_stones(&s), 40);
        s[0] = 31;
        assert_eq!(nigiri_stones(&s), 10);
    }
}
