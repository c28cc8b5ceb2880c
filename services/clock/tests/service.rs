//! The clock service against the game service, on the embedded log and on real nats-server (started by
//! the testkit; skipped with a notice if it is missing, unless WEIQI_REQUIRE_EXTERNAL=1).
//!
//! Most tests drive the game service and the clock service from one hand-moved clock
//! ([`ManualClock`]), so every instant in them is exact; the race test uses the system clock, because a
//! race is about real time. No test asserts how long anything took.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use common::*;
use weiqi_aggregate::Environment;
use weiqi_clock::{Call, DurationMs, Millis, Side};
use weiqi_clock_service::{ClockGateway, ManualClock, SystemClock};
use weiqi_game::domain::GameEvent;
use weiqi_game::service::SystemEnvironment;
use weiqi_gateway::auth::{Authority, Role};
use weiqi_proto::v1 as pb;

/// Where hand-moved time starts (any instant will do; this one reads well in failures).
const T0: Millis = Millis(1_700_000_000_000);

fn secs(s: i64) -> DurationMs {
    DurationMs::from_secs(s)
}

fn running(t: &pb::ClockTick) -> bool {
    t.phase == pb::ClockPhase::Running as i32
}

// ---------------------------------------------------------------------------------------------
// Calls and ticks: on the bus and through WatchClock.

const SECRET: &[u8] = b"0123456789abcdef0123456789abcdef";

async fn serve_watch(world: &World, time: ManualClock) -> (SocketAddr, Authority, Aborted) {
    let auth = Authority::new(SECRET, "weiqi-test");
    let gateway =
        ClockGateway::new(world.log.clone(), world.bus.clone(), auth.clone()).with_time_source(Arc::new(time));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut routes = tonic::service::RoutesBuilder::default();
    routes.add_service(pb::clock_service_server::ClockServiceServer::new(gateway));
    let task = tokio::spawn(async move {
        let _ = weiqi_gateway::server::serve_grpc(routes, listener, std::future::pending()).await;
    });
    (addr, auth, Aborted(task))
}

async fn watch(
    addr: SocketAddr,
    token: Option<&str>,
    game: &str,
) -> Result<tonic::Streaming<pb::ClockTick>, tonic::Status> {
    let mut client = pb::clock_service_client::ClockServiceClient::connect(format!("http://{addr}")).await.unwrap();
    let mut request = tonic::Request::new(pb::WatchClockRequest { game_id: game.into() });
    if let Some(token) = token {
        request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    }
    client.watch_clock(request).await.map(tonic::Response::into_inner)
}

/// The seed-001 style fast byo-yomi of one 30 s period after 5 s of main time: "10, 20, 1 … 9, 10".
fn expected_calls(start: Millis) -> Vec<(i64, Call)> {
    let period = start + secs(5);
    let mut calls = vec![((period + secs(10)).0, Call::Seconds(10)), ((period + secs(20)).0, Call::Seconds(20))];
    calls.extend((1..10).map(|n| ((period + secs(20 + i64::from(n))).0, Call::Count(n))));
    calls.push(((period + secs(30)).0, Call::TimeUp { count: 10 }));
    calls
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn byo_yomi_calls_and_ticks_reach_the_bus_and_watch_clock_and_the_flag_falls_at_the_deadline() {
    let clock = ManualClock::new(T0);
    let world = World::embedded(Arc::new(clock.clone()));
    let (service, _task) = world.clock_service(Arc::new(clock.clone())).await;
    let (addr, auth, _server) = serve_watch(&world, clock.clone()).await;
    let token = auth.issue("overlay-1", &[Role::Broadcaster], &[], Duration::from_secs(600));
    let g = "g-calls";

    // Before the game exists: not found; without a token: unauthenticated.
    let missing = watch(addr, Some(&token), g).await.expect_err("no such game yet");
    assert_eq!(missing.code(), tonic::Code::NotFound);
    let anonymous = watch(addr, None, g).await.expect_err("a token is needed");
    assert_eq!(anonymous.code(), tonic::Code::Unauthenticated);

    let mut bus = world.ticks(g).await;
    world.create(g, japanese(5_000, 1, 30_000)).await;
    let first = bus.until(running).await;
    assert!(first.iter().all(|t| t.reason == pb::clock_tick::Reason::Event as i32), "{first:?}");
    let deadline = deadline(&world, g).await;
    assert_eq!(deadline, T0 + secs(36), "5 s + 30 s + the 1 s lag grace");

    let mut watched = watch(addr, Some(&token), g).await.unwrap();
    let snapshot = watched.message().await.unwrap().unwrap();
    assert_eq!(snapshot.reason, pb::clock_tick::Reason::Snapshot as i32);
    assert_eq!((snapshot.deadline_ms, snapshot.at_ms), (deadline.0, T0.0));
    assert_eq!(snapshot.reading.as_ref().unwrap().black.as_ref().unwrap().main_ms, 5_000);
    assert_eq!(snapshot.to_move, pb::Color::Black as i32);

    // Time runs to the deadline, a second at a time.
    for s in 1..=36 {
        clock.set(T0 + secs(s));
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    // On the bus: every call at its instant, in order, periodic ticks between, then the flag.
    let on_bus = bus.until(is_expired).await;
    let calls: Vec<_> = on_bus.iter().filter_map(call).collect();
    assert_eq!(calls, expected_calls(T0));
    assert!(on_bus.iter().any(|t| t.reason == pb::clock_tick::Reason::Periodic as i32));
    assert!(on_bus.windows(2).all(|w| w[0].sequence <= w[1].sequence));
    let last = on_bus.last().unwrap();
    assert_eq!(last.flagged, pb::Color::Black as i32);

    // Through WatchClock: the same calls, and the stream ends after the flag.
    let mut via_watch = Vec::new();
    while let Some(tick) = watched.message().await.unwrap() {
        via_watch.push(tick);
    }
    assert_eq!(via_watch.iter().filter_map(call).collect::<Vec<_>>(), expected_calls(T0));
    assert!(is_expired(via_watch.last().unwrap()));

    // The flag, exactly at the deadline (the game service's "now" is the hand-moved clock).
    assert_eq!(world.flagged(g).await, vec![(Side::Black, deadline, deadline)]);
    let stats = settled(&service).await;
    assert_eq!(stats.flags_recorded, 1, "{stats:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ticks_reach_watch_clock_over_nats() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    let clock = ManualClock::new(T0);
    let world = World::nats(&nats.url(), Arc::new(clock.clone()), 1).await;
    let (_service, _task) = world.clock_service(Arc::new(clock.clone())).await;
    let (addr, auth, _server) = serve_watch(&world, clock.clone()).await;
    let token = auth.issue("ann", &[Role::Player], &[], Duration::from_secs(600));
    let g = "g-watch-nats";
    let mut bus = world.ticks(g).await;
    world.create(g, japanese(5_000, 1, 30_000)).await;
    bus.until(running).await;
    let mut watched = watch(addr, Some(&token), g).await.unwrap();
    assert_eq!(watched.message().await.unwrap().unwrap().reason, pb::clock_tick::Reason::Snapshot as i32);
    // Give the gateway's subscription time to reach the server before time moves.
    tokio::time::sleep(Duration::from_millis(100)).await;
    for s in 1..=36 {
        clock.set(T0 + secs(s));
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut via_watch = Vec::new();
    while let Some(tick) = watched.message().await.unwrap() {
        via_watch.push(tick);
    }
    assert_eq!(via_watch.iter().filter_map(call).collect::<Vec<_>>(), expected_calls(T0));
    assert!(is_expired(via_watch.last().unwrap()));
    let deadline = T0 + secs(36);
    assert_eq!(world.flagged(g).await, vec![(Side::Black, deadline, deadline)]);
}

// ---------------------------------------------------------------------------------------------
// The race: a move 1 ms before the deadline against the clock service's flag.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_one_ms_before_the_deadline_races_the_flag_and_the_log_decides() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    let world = Arc::new(World::nats(&nats.url(), Arc::new(SystemEnvironment), 1).await);
    let (service, _task) = world.clock_service(Arc::new(SystemClock)).await;
    const GAMES: usize = 16;
    let games: Vec<String> = (0..GAMES).map(|i| format!("g-race-{i}")).collect();
    for g in &games {
        world.create(g, absolute(2_000)).await;
    }
    // Black's move leaves 1 ms before its deadline (in some games a few ms earlier, since a request
    // takes some ms to reach the game service, so that both outcomes occur); the clock service flags at
    // the deadline. Which one the game service decides first is up to the machine; the test checks
    // that exactly one won and that the log agrees with the timestamps.
    const EARLY_MS: [i64; 8] = [1, 1, 1, 1, 3, 5, 8, 13];
    let mut movers = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let deadline = deadline(&world, g).await;
        let early = EARLY_MS[i % EARLY_MS.len()];
        let world = world.clone();
        let g = g.clone();
        movers.push(tokio::spawn(async move {
            SystemClock.sleep_until(deadline - DurationMs(early)).await;
            let reply = world.play(&g, &format!("race-move-{g}"), "ann", 4, 4).await;
            (g, deadline, reply)
        }));
    }
    let (mut moved, mut flagged) = (0, 0);
    for mover in movers {
        let (g, deadline, reply) = mover.await.unwrap();
        // Wait until someone's flag has fallen (Black's, or White's after Black's move).
        world.flagged(&g).await;
        let events = world.events(&g).await;
        let black_stone = events.iter().find_map(|e| match e {
            GameEvent::StonePlayed { color: weiqi_rules::Color::Black, at, .. } => Some(*at),
            _ => None,
        });
        let black_flag: Vec<_> =
            world.flags(&g).await.into_iter().filter(|(side, _, _)| *side == Side::Black).collect();
        match (black_stone, black_flag.as_slice()) {
            (Some(at), []) => {
                assert!(at < deadline, "{g}: a move at {at} is after the deadline {deadline}");
                assert!(is_accepted(&reply), "{g}: {reply:?}");
                moved += 1;
            }
            (None, [(_, recorded_deadline, at)]) => {
                assert_eq!(*recorded_deadline, deadline, "{g}");
                assert!(*at >= deadline, "{g}: flagged at {at}, before the deadline {deadline}");
                let code = rejection_code(&reply);
                assert!(matches!(code, Some("time_expired" | "game_over")), "{g}: the move was answered {reply:?}");
                flagged += 1;
            }
            other => panic!("{g}: exactly one of the move and the flag must win, got {other:?}"),
        }
        // The log is one legal history, whoever won.
        world.state(&g).await;
    }
    assert_eq!(moved + flagged, GAMES);
    let stats = settled(&service).await;
    eprintln!("race: the move won {moved} times, the flag {flagged} times; clock service {stats:?}");
}

/// The same race at exact instants: a move at `deadline - 1 ms` wins, a move at the deadline loses to
/// the flag, whatever the clock service had seen when time reached the deadline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_boundary_a_move_at_deadline_minus_one_ms_wins_and_at_the_deadline_loses() {
    let clock = ManualClock::new(T0);
    let world = World::embedded(Arc::new(clock.clone()));
    let (service, _task) = world.clock_service(Arc::new(clock.clone())).await;
    let (early, late) = ("g-edge-early", "g-edge-late");
    let mut early_ticks = world.ticks(early).await;
    world.create(early, absolute(2_000)).await;
    world.create(late, absolute(2_000)).await;
    early_ticks.until(running).await;
    let deadline = deadline(&world, early).await;
    assert_eq!(deadline, deadline_of(&world, late).await);

    // 1 ms before: the move is in time; then time reaches the deadline at once (the clock service may
    // flag on the state before the move: the game service refuses, and the clock re-arms from the log).
    clock.set(deadline - DurationMs(1));
    let reply = world.play(early, "edge-move-early", "ann", 4, 4).await;
    assert!(is_accepted(&reply), "{reply:?}");
    clock.set(deadline);
    // The late game's flag falls at the deadline; then its move is refused.
    assert_eq!(world.flagged(late).await, vec![(Side::Black, deadline, deadline)]);
    let reply = world.play(late, "edge-move-late", "ann", 4, 4).await;
    assert!(matches!(rejection_code(&reply), Some("time_expired" | "game_over")), "{reply:?}");

    // In the early game, Black's stone stands and only White can flag, at White's own deadline.
    let white_deadline = deadline_of(&world, early).await;
    assert_eq!(white_deadline, deadline - DurationMs(1) + secs(3), "2 s and the grace, from the move");
    assert!(world.flags(early).await.is_empty());
    clock.set(white_deadline);
    assert_eq!(world.flagged(early).await, vec![(Side::White, white_deadline, white_deadline)]);
    let stats = settled(&service).await;
    assert_eq!(stats.flags_recorded, 2, "{stats:?}");
}

async fn deadline_of(world: &World, game: &str) -> Millis {
    deadline(world, game).await
}

// ---------------------------------------------------------------------------------------------
// Restarts.

/// Kills the clock service in byo-yomi and starts another; the calls go on and the flag falls at the
/// deadline.
async fn restart_in_byo_yomi(world: &World, clock: &ManualClock) {
    let g = "g-restart";
    let start = clock.get();
    let mut bus = world.ticks(g).await;
    let (_first, first_task) = world.clock_service(Arc::new(clock.clone())).await;
    // 10 s main time, then 3 periods of 10 s; the deadline is 10 + 30 + 1 s grace.
    world.create(g, japanese(10_000, 3, 10_000)).await;
    bus.until(running).await;
    let deadline = deadline(world, g).await;
    assert_eq!(deadline, start + secs(41));

    // Into byo-yomi: the first period ends at 20 s, "1 used, 2 left".
    clock.set(start + secs(21));
    let ticks = bus.until(|t| call(t).is_some()).await;
    assert_eq!(call(ticks.last().unwrap()), Some(((start + secs(20)).0, Call::PeriodUsed { periods_left: 2 })));

    // Kill it in byo-yomi; time goes on with no clock service.
    drop(first_task);
    clock.set(start + secs(25));
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(world.flags(g).await.is_empty());

    // Another instance rebuilds the clock from the log: the next call, then the flag at the deadline.
    let (second, _second_task) = world.clock_service(Arc::new(clock.clone())).await;
    clock.set(start + secs(30));
    let ticks = bus.until(|t| call(t).is_some()).await;
    assert_eq!(call(ticks.last().unwrap()), Some(((start + secs(30)).0, Call::PeriodUsed { periods_left: 1 })));
    clock.set(deadline);
    assert_eq!(world.flagged(g).await, vec![(Side::Black, deadline, deadline)]);
    assert_eq!(settled(&second).await.flags_recorded, 1);
}

/// A deadline that passed while no clock service ran is flagged as soon as one starts.
async fn deadline_passed_while_down(world: &World, clock: &ManualClock) {
    let g = "g-down";
    world.create(g, absolute(5_000)).await;
    let deadline = deadline(world, g).await;
    clock.set(deadline + secs(4));
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(world.flags(g).await.is_empty(), "no clock service, no flag");
    let (service, _task) = world.clock_service(Arc::new(clock.clone())).await;
    assert_eq!(world.flagged(g).await, vec![(Side::Black, deadline, deadline + secs(4))]);
    assert_eq!(settled(&service).await.flags_recorded, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restarts_on_the_embedded_log() {
    let clock = ManualClock::new(T0);
    let world = World::embedded(Arc::new(clock.clone()));
    restart_in_byo_yomi(&world, &clock).await;
    let clock = ManualClock::new(T0);
    let world = World::embedded(Arc::new(clock.clone()));
    deadline_passed_while_down(&world, &clock).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restarts_on_jetstream() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    let clock = ManualClock::new(T0);
    let world = World::nats(&nats.url(), Arc::new(clock.clone()), 1).await;
    restart_in_byo_yomi(&world, &clock).await;
    drop(world);
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    let clock = ManualClock::new(T0);
    let world = World::nats(&nats.url(), Arc::new(clock.clone()), 1).await;
    deadline_passed_while_down(&world, &clock).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_service_recovers_when_nats_server_is_killed_and_restarted() {
    let Some(mut nats) = weiqi_testkit::nats_or_skip() else { return };
    let clock = ManualClock::new(T0);
    let world = World::nats(&nats.url(), Arc::new(clock.clone()), 1).await;
    let (service, _task) = world.clock_service(Arc::new(clock.clone())).await;
    let mut bus = world.ticks("g-kill-1").await;
    world.create("g-kill-1", absolute(10_000)).await;
    bus.until(running).await;
    let first = deadline(&world, "g-kill-1").await;

    // kill -9 nats-server; the deadline passes while it is down. No move could be taken from the
    // last moment the log answered (the game's start, in hand-moved time) until it answers again:
    // that time is no player's (RULES.md beside Art. 12). The clock resumes from then; no flag.
    nats.kill();
    clock.set(first + secs(1));
    tokio::time::sleep(Duration::from_millis(500)).await;
    nats.restart_async().await.unwrap();
    let excused = eventually_events(&world, "g-kill-1", |e| matches!(e, GameEvent::OutageExcused { .. })).await;
    let GameEvent::OutageExcused { from, to, reason } = excused else { unreachable!() };
    assert_eq!((to, reason), (first + secs(1), weiqi_game::domain::OutageReason::LogUnavailable));
    assert!(from < first && from >= first - secs(11), "from the last moment the log answered: {from:?}");
    assert!(world.flags("g-kill-1").await.is_empty(), "the outage was charged to Black");
    let resumed = deadline(&world, "g-kill-1").await;
    assert_eq!(resumed, first + (to - from), "the clock resumes from the last good moment");
    clock.set(resumed);
    assert_eq!(world.flagged("g-kill-1").await, vec![(Side::Black, resumed, resumed)]);

    // The follower resumed: a game created after the restart is flagged at its deadline.
    world.create("g-kill-2", absolute(10_000)).await;
    let second = deadline(&world, "g-kill-2").await;
    // Wait until the clock service has seen it (its stats count the events), then let time run.
    let followed = &service;
    eventually("the new game is followed", || async move { followed.stats().running == 1 }).await;
    clock.set(second);
    assert_eq!(world.flagged("g-kill-2").await, vec![(Side::Black, second, second)]);
    let stats = settled(&service).await;
    assert_eq!(stats.flags_recorded + stats.flags_duplicate, 2, "{stats:?}");
}

/// Waits until the game's log holds an event `matching`, and answers it.
async fn eventually_events(world: &World, game: &str, matching: impl Fn(&GameEvent) -> bool) -> GameEvent {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        if let Some(e) = world.events(game).await.into_iter().find(|e| matching(e)) {
            return e;
        }
        assert!(tokio::time::Instant::now() < deadline, "{game}: no such event in {:?}", world.events(game).await);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `weiqi up` killed with 15 s on an absolute clock and started again 20 s later (issue 28 item 8):
/// the game did not end `B+T`. The clock service's heartbeat file held the last moment the platform
/// could take a move; the restart records `OutageExcused { from, to, restart }` and Black's clock
/// resumes from there, with the time Black had.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_excuses_the_time_the_server_was_down() {
    let clock = ManualClock::new(T0);
    let world = World::embedded(Arc::new(clock.clone()));
    let dir = tempfile::tempdir().unwrap();
    let alive = dir.path().join("clock.alive");
    let config = || weiqi_clock_service::ClockConfig { alive_file: Some(alive.clone()), ..Default::default() };
    let g = "g-outage";
    let start = clock.get();
    let (_first, first_task) = world.clock_service_with(Arc::new(clock.clone()), config()).await;
    world.create(g, absolute(15_000)).await;
    let before = deadline(&world, g).await;
    // Two seconds in, the heartbeat notes the platform up; then the process is killed.
    clock.set(start + secs(2));
    let file = alive.clone();
    let noted = (start + secs(2)).0.to_string();
    eventually("the heartbeat notes the last good moment", || {
        let (file, noted) = (file.clone(), noted.clone());
        async move { std::fs::read_to_string(&file).is_ok_and(|t| t.trim() == noted) }
    })
    .await;
    drop(first_task);
    tokio::time::sleep(Duration::from_millis(200)).await;
    // 20 s later it starts again: Black's deadline passed while nothing could be played.
    clock.set(start + secs(22));
    let (second, _second_task) = world.clock_service_with(Arc::new(clock.clone()), config()).await;
    let excused = eventually_events(&world, g, |e| matches!(e, GameEvent::OutageExcused { .. })).await;
    assert_eq!(
        excused,
        GameEvent::OutageExcused {
            from: start + secs(2),
            to: start + secs(22),
            reason: weiqi_game::domain::OutageReason::Restart
        }
    );
    assert!(world.flags(g).await.is_empty(), "the outage was charged: {:?}", world.events(g).await);
    let after = deadline(&world, g).await;
    assert_eq!(after, before + secs(20), "Black has the 13 s left at the kill");
    clock.set(after);
    assert_eq!(world.flagged(g).await, vec![(Side::Black, after, after)]);
    assert_eq!(settled(&second).await.outages_excused, 1);
}

// ---------------------------------------------------------------------------------------------
// Two clock services at once.

async fn two_instances(world: &World, clock: &ManualClock) {
    let start = clock.get();
    let (a, _ta) = world.clock_service(Arc::new(clock.clone())).await;
    let (b, _tb) = world.clock_service(Arc::new(clock.clone())).await;
    const GAMES: usize = 30;
    let games: Vec<String> = (0..GAMES).map(|i| format!("g-twice-{i}")).collect();
    for (i, g) in games.iter().enumerate() {
        world.create(g, absolute(1_000 * (1 + (i as i64 % 10)))).await;
    }
    let (a, b) = (&a, &b);
    eventually("both instances follow every game", || async move {
        a.stats().running == GAMES as u64 && b.stats().running == GAMES as u64
    })
    .await;
    // Time runs past every deadline, a second at a time: both instances flag the same games at once.
    for s in 1..=12 {
        clock.set(start + secs(s));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for g in &games {
        world.flagged(g).await;
    }
    eventually("both instances have seen every game end", || async move {
        a.stats().running == 0 && b.stats().running == 0
    })
    .await;
    let (sa, sb) = (settled(a).await, settled(b).await);
    for g in &games {
        let flags = world.flags(g).await;
        assert_eq!(flags.len(), 1, "{g}: {flags:?}");
        let (side, deadline, at) = flags[0];
        assert_eq!(side, Side::Black);
        assert!(at >= deadline, "{g}: flagged at {at}, before the deadline {deadline}");
        world.state(g).await;
    }
    assert_eq!(sa.flags_recorded + sb.flags_recorded, GAMES as u64, "one recorded flag per game: {sa:?} {sb:?}");
    assert!(sa.flags_sent > 0 && sb.flags_sent > 0, "both instances flagged: {sa:?} {sb:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clock_services_flag_each_game_once_on_the_embedded_log() {
    let clock = ManualClock::new(T0);
    let world = World::embedded(Arc::new(clock.clone()));
    two_instances(&world, &clock).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clock_services_and_two_game_services_flag_each_game_once_on_jetstream() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    let clock = ManualClock::new(T0);
    let world = World::nats(&nats.url(), Arc::new(clock.clone()), 2).await;
    two_instances(&world, &clock).await;
}
