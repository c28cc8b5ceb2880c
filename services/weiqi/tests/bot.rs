//! `weiqi bot` as an association runs it: GNU Go (level 1, through the bridge) against the platform's
//! own random engine (`weiqi gtp`, through the bridge), on a 9×9 board through the real gateway of a
//! separate `weiqi up`, to a counted result: on the embedded log and on JetStream; with the bridge
//! killed (-9) and restarted mid-game; and a round of a small bot tournament (paired by the
//! tournament service, played by the bots, the round completed by the results).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_service_client::GameServiceClient;
use weiqi_proto::v1::tournament_service_client::TournamentServiceClient;

const WEIQI: &str = env!("CARGO_BIN_EXE_weiqi");

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn gnugo() -> Option<String> {
    ["gnugo", "/usr/games/gnugo"]
        .into_iter()
        .find(|g| Command::new(g).arg("--version").output().is_ok_and(|o| o.status.success()))
        .map(str::to_string)
}

/// A child process killed when dropped.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `weiqi up` on free ports in `dir` (on `nats` if given).
struct Up {
    _proc: Proc,
    dir: PathBuf,
    server: String,
}

impl Up {
    /// Starts it; if a port chosen was taken before `weiqi up` bound it (other tests choose ports
    /// too), tries again on fresh ports.
    fn start(dir: &Path, nats: Option<&str>) -> Up {
        Up::start_with(dir, nats, &[])
    }

    /// Started with more arguments (a tighter rate limit).
    fn start_with(dir: &Path, nats: Option<&str>, extra: &[&str]) -> Up {
        for attempt in 1..=4 {
            let (grpc, http) = (free_port(), free_port());
            let mut cmd = Command::new(WEIQI);
            cmd.args(["up", "--quiet", "--grpc", &format!("127.0.0.1:{grpc}"), "--http", &format!("127.0.0.1:{http}")])
                .arg("--data-dir")
                .arg(dir.join("data"))
                .args(extra)
                .stdout(std::fs::File::create(dir.join("up.out")).unwrap())
                .stderr(std::fs::File::create(dir.join("up.err")).unwrap());
            if let Some(url) = nats {
                cmd.args(["--nats", url]);
            }
            let mut child = cmd.spawn().expect("weiqi up starts");
            let deadline = Instant::now() + Duration::from_secs(60);
            // Up once it prints its home page (it binds both ports before), and still running.
            let up = loop {
                if let Ok(Some(_)) = child.try_wait() {
                    break false;
                }
                if std::fs::read_to_string(dir.join("up.out")).is_ok_and(|o| o.contains("weiqi: home page")) {
                    break true;
                }
                assert!(
                    Instant::now() < deadline,
                    "weiqi up did not come up: {}",
                    std::fs::read_to_string(dir.join("up.err")).unwrap_or_default()
                );
                std::thread::sleep(Duration::from_millis(100));
            };
            if up {
                return Up { _proc: Proc(child), dir: dir.to_path_buf(), server: format!("http://127.0.0.1:{grpc}") };
            }
            let err = std::fs::read_to_string(dir.join("up.err")).unwrap_or_default();
            assert!(attempt < 4 && err.contains("in use"), "weiqi up exited: {err}");
            eprintln!("weiqi up could not bind its ports ({err}); trying others");
        }
        unreachable!("the loop returns or panics")
    }

    fn token(&self, sub: &str, role: &str) -> String {
        let out = Command::new(WEIQI)
            .args(["token", "--sub", sub, "--role", role, "--event", "*"])
            .arg("--data-dir")
            .arg(self.dir.join("data"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }

    /// `weiqi bot` for player `sub` with `engine`; its log in the test's directory.
    fn bot(&self, sub: &str, engine: &str, run: u32) -> Proc {
        let token = self.token(sub, "player");
        let log = std::fs::File::create(self.dir.join(format!("bot-{sub}-{run}.log"))).unwrap();
        let child = Command::new(WEIQI)
            .args(["bot", "--engine", engine, "--server", &self.server, "--max-games", "4"])
            .env("WEIQI_TOKEN", token)
            .env("RUST_LOG", "info")
            .env("PATH", format!("{}:/usr/games", std::env::var("PATH").unwrap_or_default()))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("weiqi bot starts");
        Proc(child)
    }

    fn bot_log(&self, sub: &str, run: u32) -> String {
        std::fs::read_to_string(self.dir.join(format!("bot-{sub}-{run}.log"))).unwrap_or_default()
    }

    async fn channel(&self) -> tonic::transport::Channel {
        tonic::transport::Endpoint::from_shared(self.server.clone()).unwrap().connect().await.unwrap()
    }
}

fn req<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut r = tonic::Request::new(message);
    r.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}

fn random_engine() -> String {
    format!("{WEIQI} gtp --seed 7")
}

/// A 9×9 casual game created by an organiser between the two bots.
async fn create_game(up: &Up, organiser: &str, black: &str, white: &str) -> String {
    let mut games = GameServiceClient::new(up.channel().await);
    let r = pb::CreateGameRequest {
        request_id: format!("create-{black}-{white}"),
        size: 9,
        rules: "chinese".into(),
        first: Some(pb::PlayerRef { id: black.into(), ..Default::default() }),
        second: Some(pb::PlayerRef { id: white.into(), ..Default::default() }),
        color_method: pb::game_created::ColorMethod::Fixed as i32,
        ..Default::default()
    };
    games.create_game(req(r, organiser)).await.expect("the organiser creates the game").into_inner().game_id
}

/// Polls the game until it ends (or `limit`), returning the last view.
async fn wait_until_ended(up: &Up, token: &str, game: &str, limit: Duration) -> pb::GameView {
    let mut games = GameServiceClient::new(up.channel().await);
    let deadline = Instant::now() + limit;
    loop {
        let view = games.get_game(req(pb::GetGameRequest { game_id: game.into() }, token)).await.unwrap().into_inner();
        if view.phase == pb::game_view::Phase::Ended as i32 || Instant::now() > deadline {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn assert_counted(view: &pb::GameView, logs: &str) {
    assert_eq!(view.phase, pb::game_view::Phase::Ended as i32, "the game did not end; bot logs:\n{logs}");
    let result = view.result.as_ref().expect("a result");
    assert_eq!(result.reason, pb::game_result::Reason::Score as i32, "{result:?}");
    assert!(result.sgf.starts_with("B+") || result.sgf.starts_with("W+"), "{}", result.sgf);
    assert!(view.move_number > 20, "a real game, not two passes: {} moves", view.move_number);
}

async fn a_bot_game_to_a_counted_result(nats: Option<&str>) {
    let Some(gnugo) = gnugo() else {
        assert!(std::env::var("WEIQI_REQUIRE_EXTERNAL").is_err(), "gnugo is required");
        eprintln!("skipped: no gnugo");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let up = Up::start(dir.path(), nats);
    let _gnu = up.bot("gnubot", &format!("{gnugo} --mode gtp --level 1"), 1);
    let _rnd = up.bot("randbot", &random_engine(), 1);
    let organiser = up.token("org", "organiser");
    let game = create_game(&up, &organiser, "gnubot", "randbot").await;
    let view = wait_until_ended(&up, &organiser, &game, Duration::from_secs(240)).await;
    assert_counted(&view, &(up.bot_log("gnubot", 1) + &up.bot_log("randbot", 1)));
    // GNU Go beats a random player.
    assert!(view.result.unwrap().sgf.starts_with("B+"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gnugo_against_the_random_engine_on_the_embedded_log() {
    a_bot_game_to_a_counted_result(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gnugo_against_the_random_engine_on_jetstream() {
    let nats = weiqi_testkit::require!(weiqi_testkit::NatsServer::start());
    a_bot_game_to_a_counted_result(Some(&nats.url())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_killed_mid_game_resumes_from_the_log() {
    let Some(gnugo) = gnugo() else {
        assert!(std::env::var("WEIQI_REQUIRE_EXTERNAL").is_err(), "gnugo is required");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let up = Up::start(dir.path(), None);
    let gnu = up.bot("gnubot", &format!("{gnugo} --mode gtp --level 1"), 1);
    let rnd = up.bot("randbot", &random_engine(), 1);
    let organiser = up.token("org", "organiser");
    let game = create_game(&up, &organiser, "gnubot", "randbot").await;
    // Both bridges killed -9 once the game is under way.
    let mut games = GameServiceClient::new(up.channel().await);
    let deadline = Instant::now() + Duration::from_secs(120);
    let moved = loop {
        let view =
            games.get_game(req(pb::GetGameRequest { game_id: game.clone() }, &organiser)).await.unwrap().into_inner();
        if view.move_number >= 10 {
            break view.move_number;
        }
        assert!(Instant::now() < deadline, "the game did not start: {}", up.bot_log("gnubot", 1));
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    drop(gnu);
    drop(rnd);
    // A request already on the wire may still land; after that, nothing moves without the bots.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let get = |games: &mut GameServiceClient<tonic::transport::Channel>| {
        let r = req(pb::GetGameRequest { game_id: game.clone() }, &organiser);
        let mut games = games.clone();
        async move { games.get_game(r).await.unwrap().into_inner() }
    };
    let stopped = get(&mut games).await;
    assert_eq!(stopped.phase, pb::game_view::Phase::Playing as i32, "killed mid-game (move {moved})");
    tokio::time::sleep(Duration::from_millis(700)).await;
    let paused = get(&mut games).await;
    assert_eq!(paused.move_number, stopped.move_number, "nothing moves without the bots");
    // Restarted: they resume from the log and finish the game.
    let _gnu = up.bot("gnubot", &format!("{gnugo} --mode gtp --level 1"), 2);
    let _rnd = up.bot("randbot", &random_engine(), 2);
    let view = wait_until_ended(&up, &organiser, &game, Duration::from_secs(240)).await;
    assert_counted(&view, &(up.bot_log("gnubot", 2) + &up.bot_log("randbot", 2)));
    assert!(view.move_number > paused.move_number);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_of_a_bot_tournament() {
    let Some(gnugo) = gnugo() else {
        assert!(std::env::var("WEIQI_REQUIRE_EXTERNAL").is_err(), "gnugo is required");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let up = Up::start(dir.path(), None);
    let bots = [("gnu-a", true), ("gnu-b", true), ("rnd-a", false), ("rnd-b", false)];
    let _bridges: Vec<Proc> = bots
        .iter()
        .map(|(sub, gnu)| {
            let engine = if *gnu { format!("{gnugo} --mode gtp --level 1") } else { random_engine() };
            up.bot(sub, &engine, 1)
        })
        .collect();
    let organiser = up.token("org", "organiser");
    let mut tc = TournamentServiceClient::new(up.channel().await);
    const T: &str = "bot-league";
    let create = pb::CreateTournamentRequest {
        tournament_id: T.into(),
        request_id: "create".into(),
        config: Some(pb::TournamentConfig {
            name: "Bot league".into(),
            format: Some(pb::TournamentFormat {
                format: Some(pb::tournament_format::Format::Mcmahon(pb::tournament_format::McMahon {
                    rounds: 2,
                    top_bar: "3d".into(),
                    bottom_bar: "20k".into(),
                })),
            }),
            seed: 2026,
            ..Default::default()
        }),
        settings: Some(pb::TournamentGameSettings { size: 9, rules: "chinese".into(), ..Default::default() }),
    };
    tc.create_tournament(req(create, &organiser)).await.unwrap();
    for (i, (sub, gnu)) in bots.iter().enumerate() {
        let r = pb::RegisterPlayerRequest {
            tournament_id: T.into(),
            request_id: format!("reg-{sub}"),
            account_id: (*sub).into(),
            player: i as u32 + 1,
            snapshot: Some(pb::TournamentPlayerSnapshot {
                name_zh: format!("机器{}", i + 1),
                name_latin: format!("Bot {sub}"),
                rank: if *gnu { "5k".into() } else { "15k".into() },
                ..Default::default()
            }),
        };
        tc.register_player(req(r, &organiser)).await.unwrap();
    }
    tc.start_tournament(req(pb::TournamentRequest { tournament_id: T.into(), request_id: "start".into() }, &organiser))
        .await
        .unwrap();
    tc.pair_round(req(
        pb::PairRoundRequest { tournament_id: T.into(), request_id: "pair-1".into(), round: 1 },
        &organiser,
    ))
    .await
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    let round = loop {
        let p = tc
            .get_pairings(req(
                pb::GetTournamentPairingsRequest { tournament_id: T.into(), round: 1, min_sequence: 0 },
                &organiser,
            ))
            .await
            .map(tonic::Response::into_inner);
        if let Ok(p) = p
            && p.completed
        {
            break p;
        }
        let logs: String = bots.iter().map(|(s, _)| up.bot_log(s, 1)).collect();
        assert!(Instant::now() < deadline, "round 1 did not complete; bot logs:\n{logs}");
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    assert_eq!(round.games.len(), 2, "{round:?}");
    let mut games = GameServiceClient::new(up.channel().await);
    for g in &round.games {
        assert!(!g.result.is_empty(), "{g:?}");
        let view = games
            .get_game(req(pb::GetGameRequest { game_id: g.game_id.clone() }, &organiser))
            .await
            .unwrap()
            .into_inner();
        assert_counted(&view, "");
    }
}

/// A GTP engine that answers every `genmove` with A1 (legal once, occupied after).
const STUBBORN: &str = r#"while read -r line; do
  case "${line%% *}" in
    list_commands) printf '= protocol_version\nname\nboardsize\nclear_board\nkomi\nplay\ngenmove\nfinal_status_list\nquit\n\n' ;;
    genmove) printf '= A1\n\n' ;;
    quit) printf '= \n\n'; exit 0 ;;
    *) printf '= \n\n' ;;
  esac
done
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illegal_move_from_an_engine_is_reported_not_retried_forever() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("stubborn.sh");
    std::fs::write(&script, STUBBORN).unwrap();
    // A tight rate per token, so both bridges are refused often and must wait it out: a refusal must
    // neither lose the count of illegal moves nor start the session over (which asks again at once).
    let up = Up::start_with(dir.path(), None, &["--rate-per-token", "8"]);
    let _stubborn = up.bot("stubborn", &format!("sh {}", script.display()), 1);
    let _rnd = up.bot("randbot", &random_engine(), 1);
    let organiser = up.token("org", "organiser");
    let game = create_game(&up, &organiser, "stubborn", "randbot").await;
    let view = wait_until_ended(&up, &organiser, &game, Duration::from_secs(240)).await;
    let log = up.bot_log("stubborn", 1);
    assert_eq!(view.phase, pb::game_view::Phase::Ended as i32, "the game went on: {log}");
    assert!(log.contains("the engine played an illegal move"), "{log}");
    assert!(log.contains("passing for the engine after 3 illegal moves"), "{log}");
    // Every refusal was of A1, three in a row at most: the bridge never retried without end.
    let illegal = log.matches("the engine played an illegal move").count();
    let passes = log.matches("passing for the engine").count();
    assert!(illegal <= 3 * passes, "{illegal} illegal moves, {passes} passes");
}
