//! The decider: a command, its actor and the server time in; the events to record, or a rejection,
//! out. Pure: it reads no clock, does no IO, draws no random number (the nigiri secret comes with the
//! command), and never changes the state it is given.

use sha2::{Digest, Sha256};
use weiqi_clock::{ClockEvent, ExpiryOutcome, Millis, OverrunRule};
use weiqi_rules::{
    Color, Game, HandicapError, Illegal, IllegalMovePolicy, KoRule, Move, Point, Ruleset, handicap, score,
};

use super::command::Command;
use super::event::{
    ClockSnapshot, ColourMethod, CycleRulingExt, EndReason, GameEvent, GameResult, GameSetup, LagReport, Outcome,
    SideClock,
};
use super::ids::{Actor, PlayerId};
use super::rejection::Rejection;
use super::state::{GameState, Phase, side};

/// Decides `command` from `actor` at server time `now` against `state`.
pub fn decide(state: &GameState, actor: &Actor, command: &Command, now: Millis) -> Result<Vec<GameEvent>, Rejection> {
    // Server time never runs backwards within a game, even across instances.
    let now = now.max(state.last_at);
    if state.phase == Phase::New && !matches!(command, Command::Create { .. }) {
        return Err(Rejection::NotFound);
    }
    match command {
        Command::Create { setup, nigiri_secret } => create(state, setup, nigiri_secret, now),
        Command::GuessNigiri { even } => guess_nigiri(state, actor, *even, now),
        Command::Start => {
            require(state, &[Phase::Ready])?;
            require_participant(state, actor)?;
            Ok(vec![GameEvent::Started { at: now }])
        }
        Command::Play { mv, expected_number, lag } => play(state, actor, *mv, *expected_number, *lag, now),
        Command::Resign => {
            require(state, &[Phase::Playing, Phase::Paused, Phase::Adjourned, Phase::Scoring])?;
            let color = player_colour(state, actor)?;
            Ok(vec![
                GameEvent::Resigned { color, at: now },
                ended(Outcome::win(color.opponent()), EndReason::Resignation, None, now),
            ])
        }
        Command::MarkDead { points } => {
            require(state, &[Phase::Scoring])?;
            let by = player_colour(state, actor)?;
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
            let by = player_colour(state, actor)?;
            let mut events = vec![GameEvent::ScoreAccepted { by }];
            if state.proposal.accepted[by.opponent().index()] {
                events.push(counted(state, &state.proposal.points, now)?);
            }
            Ok(events)
        }
        Command::DisputeScore => {
            require(state, &[Phase::Scoring])?;
            let by = player_colour(state, actor)?;
            let first = state.proposal.by.unwrap_or(by);
            Ok(vec![GameEvent::ScoreDisputed { by }, GameEvent::PlayResumed { first, at: now }])
        }
        Command::Seal { mv, lag } => {
            require(state, &[Phase::Playing])?;
            let color = player_colour(state, actor)?;
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
            let color = player_colour(state, actor)?;
            let setup = state.setup.as_ref().ok_or(Rejection::NotFound)?;
            if setup.time_control.overrun != OverrunRule::PassOnRequest {
                return Err(Rejection::OverrunPassNotAllowed);
            }
            check_clock(state, ClockEvent::PassOnOverrunRequested { side: side(color) })?;
            Ok(vec![GameEvent::PassOnOverrunRequested { color }])
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
        Command::SwapColours => {
            require_referee(actor)?;
            require(state, &[Phase::Ready, Phase::Playing, Phase::Paused])?;
            if state.move_number > 10 {
                return Err(Rejection::SwapTooLate);
            }
            Ok(vec![GameEvent::ColoursSwapped])
        }
        Command::VoidLastMove { reason } => {
            require_referee(actor)?;
            require(state, &[Phase::Playing, Phase::Paused])?;
            match state.last_move {
                Some((color, mv @ Move::Play(_))) => {
                    Ok(vec![GameEvent::MoveVoided { color, mv, reason: reason.clone(), taken_back: true, at: now }])
                }
                _ => Err(Rejection::NothingToVoid),
            }
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
                        at: now,
                    }),
                },
            }
            Ok(events)
        }
        Command::Adjudicate { outcome, note } => {
            require_referee(actor)?;
            require(
                state,
                &[Phase::Nigiri, Phase::Ready, Phase::Playing, Phase::Paused, Phase::Adjourned, Phase::Scoring],
            )?;
            Ok(vec![GameEvent::Ended {
                result: GameResult { outcome: *outcome, reason: EndReason::Referee, score: None },
                dead: Vec::new(),
                note: note.clone(),
                at: now,
            }])
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
            let setup = state.setup.as_ref().ok_or(Rejection::NotFound)?;
            if *late > setup.lateness_limit {
                let outcome = if state.late[color.opponent().index()] {
                    Outcome::BothLose
                } else {
                    Outcome::win(color.opponent())
                };
                return Ok(vec![ended(outcome, EndReason::Lateness, None, now)]);
            }
            let deducted = late.times(2);
            Ok(vec![GameEvent::LatenessPenalised { color: *color, late: *late, deducted }])
        }
        Command::ExpireTime => {
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
            } else if state.game.as_ref().is_some_and(|g| g.consecutive_passes() >= 1) {
                events.push(after_two_passes(state, now)?);
            }
            Ok(events)
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

/// A player of the game, a referee or a service.
fn require_participant(state: &GameState, actor: &Actor) -> Result<(), Rejection> {
    match actor {
        Actor::Player(p) if !state.is_player(p) => Err(Rejection::NotAPlayer),
        _ => Ok(()),
    }
}

fn player_colour(state: &GameState, actor: &Actor) -> Result<Color, Rejection> {
    match actor {
        Actor::Player(p) => state.colour_of(p).ok_or(Rejection::NotAPlayer),
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
/// players agree on dead chains.
fn after_two_passes(state: &GameState, now: Millis) -> Result<GameEvent, Rejection> {
    let rules = state.setup.as_ref().map(|s| s.ruleset).unwrap_or_default();
    if rules == Ruleset::tromp_taylor().with_komi(rules.komi) {
        counted(state, &[], now)
    } else {
        Ok(GameEvent::ScoringStarted { at: now })
    }
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
    let color = player_colour(state, actor)?;
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
            if game.consecutive_passes() >= 1 {
                events.push(after_two_passes(state, now)?);
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
                Ok(vec![GameEvent::MoveVoided { color, mv, reason: reason.to_string(), taken_back: false, at: now }])
            }
            Err(reason) => Err(Rejection::Illegal(reason)),
        },
    }
}

fn create(state: &GameState, setup: &GameSetup, secret: &[u8; 32], now: Millis) -> Result<Vec<GameEvent>, Rejection> {
    if state.phase != Phase::New {
        return Err(Rejection::AlreadyExists);
    }
    validate(setup)?;
    let mut events = vec![GameEvent::Created(Box::new(setup.clone()))];
    if setup.colour_method == ColourMethod::Nigiri && setup.handicap == 0 {
        let holder = higher_ranked(setup);
        events.push(GameEvent::NigiriCommitted { holder, commitment: Sha256::digest(secret).into(), secret: *secret });
        return Ok(events);
    }
    events.push(GameEvent::ColoursDecided { black: setup.first.id.clone(), white: setup.second.id.clone() });
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

fn validate(setup: &GameSetup) -> Result<(), Rejection> {
    let bad = |m: &str| Err(Rejection::InvalidSetup(m.to_string()));
    if setup.first.id.0.is_empty() || setup.second.id.0.is_empty() {
        return bad("both players need an id");
    }
    if setup.first.id == setup.second.id {
        return bad("a player cannot play against themselves");
    }
    Game::new(setup.size, setup.ruleset).map_err(|e| Rejection::InvalidSetup(e.to_string()))?;
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
        GameEvent::ColoursDecided { black, white },
    ];
    if state.setup.as_ref().is_some_and(|s| s.start_immediately) {
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
