//! Shared test support: one clock for the game service and the ranking service, real games played to
//! a result through the game service, and waiting for asynchronous followers.

#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use weiqi_eventlog::AnyEventLog;
use weiqi_game::bus::answer;
use weiqi_game::convert::wire_command as command;
use weiqi_game::domain::{Actor, PlayerId};
use weiqi_game::service::{Environment, GameService};
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_command::Command as C;

/// 2026-03-02T00:00:00Z, a Monday.
pub const START_MS: i64 = 1_772_409_600_000;
pub const HOUR_MS: i64 = 3_600_000;
pub const DAY_MS: i64 = 24 * HOUR_MS;

/// A clock the test moves by hand, shared by both services.
#[derive(Debug)]
pub struct TestClock(AtomicI64);

impl TestClock {
    pub fn new() -> Arc<TestClock> {
        Arc::new(TestClock(AtomicI64::new(START_MS)))
    }
    pub fn advance(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
    pub fn ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

impl Environment for TestClock {
    fn now(&self) -> weiqi_clock::Millis {
        weiqi_clock::Millis(self.ms())
    }
    fn random(&self) -> [u8; 32] {
        [9; 32]
    }
}

/// How a test game is set up.
#[derive(Clone, Debug)]
pub struct Setup {
    pub rated: bool,
    pub handicap: u32,
    pub komi_half_points: Option<i32>,
    pub tournament: Option<(String, u32, u32)>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup { rated: true, handicap: 0, komi_half_points: None, tournament: None }
    }
}

fn accepted(r: &pb::GameCommandReply) -> bool {
    matches!(r.outcome, Some(pb::game_command_reply::Outcome::Accepted(_)))
}

/// Creates a game (Black = `black`) and ends it by resignation of the loser; two moves first.
pub async fn play(
    games: &GameService<AnyEventLog>,
    id: &str,
    black: &str,
    white: &str,
    black_wins: bool,
    setup: &Setup,
) {
    let system = Actor::System("test".into());
    let (tournament, round, board) = setup.tournament.clone().unwrap_or_default();
    let create = C::Create(pb::CreateGameRequest {
        game_id: id.into(),
        size: 19,
        rules: "chinese".into(),
        komi_half_points: setup.komi_half_points,
        handicap: setup.handicap,
        first: Some(pb::PlayerRef { id: black.into(), name: black.into(), rank: "1k".into() }),
        second: Some(pb::PlayerRef { id: white.into(), name: white.into(), rank: "1k".into() }),
        tournament_id: tournament.clone(),
        event_id: tournament,
        round,
        board,
        rated: setup.rated,
        start: true,
        ..Default::default()
    });
    let r = answer(games, &command(id, &format!("create-{id}"), &system, create), &[]).await;
    assert!(accepted(&r), "create {id}: {r:?}");
    let b = Actor::Player(PlayerId(black.into()));
    let w = Actor::Player(PlayerId(white.into()));
    if setup.handicap < 2 {
        let mv = |x, y| {
            C::Play(pb::PlayMoveRequest { game_id: id.into(), point: Some(pb::Point { x, y }), ..Default::default() })
        };
        let r = answer(games, &command(id, &format!("{id}-m1"), &b, mv(3, 3)), &[]).await;
        assert!(accepted(&r), "move {id}: {r:?}");
        let r = answer(games, &command(id, &format!("{id}-m2"), &w, mv(15, 15)), &[]).await;
        assert!(accepted(&r), "move {id}: {r:?}");
    }
    let loser = if black_wins { &w } else { &b };
    let resign = C::Resign(pb::GameRequest { game_id: id.into(), request_id: format!("{id}-resign") });
    let r = answer(games, &command(id, &format!("{id}-resign"), loser, resign), &[]).await;
    assert!(accepted(&r), "resign {id}: {r:?}");
}

/// A referee corrects game `id`'s result after it ended: `black_wins`, or (`None`) Black wins by forfeit
/// (a game found not played: no longer rated).
pub async fn correct(games: &GameService<AnyEventLog>, id: &str, black_wins: Option<bool>, n: u32) {
    use pb::game_result::{Outcome as O, Reason as R};
    let referee = Actor::Referee("judge".into());
    let (outcome, reason) = match black_wins {
        Some(true) => (O::BlackWins, R::Resignation),
        Some(false) => (O::WhiteWins, R::Resignation),
        None => (O::BlackWins, R::Forfeit),
    };
    let action = pb::referee_request::Action::CorrectResult(pb::referee_request::CorrectResult {
        outcome: outcome as i32,
        reason: reason as i32,
        note: "recording error".into(),
    });
    let request = C::Referee(pb::RefereeRequest {
        game_id: id.into(),
        request_id: format!("{id}-correct-{n}"),
        action: Some(action),
    });
    let r = answer(games, &command(id, &format!("{id}-correct-{n}"), &referee, request), &[]).await;
    assert!(accepted(&r), "correct {id}: {r:?}");
}

/// Polls `check` until it returns `Some`, for at most 30 s (a generous bound on a loaded machine;
/// nothing is timed).
pub async fn eventually<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    for _ in 0..600 {
        if let Some(v) = check().await {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}
