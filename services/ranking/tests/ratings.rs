//! Recomputing all ratings from the logs gives exactly the live values: real games played through the
//! game service, rated by the running ranking service (following the game log), with period-close
//! ticks, a handicap game, unrated games and an unregistered player; then the book is rebuilt from the
//! logs (each ledger game checked against its game log) and compared bit for bit with the live book,
//! with a restarted service, with every player's log and with the projected read model. On the
//! embedded log for Glicko-2 and EGF, and on real NATS JetStream.

mod common;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use common::{DAY_MS, HOUR_MS, Setup, TestClock, eventually, play};
use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog, JetStreamConfig, JetStreamLog};
use weiqi_game::service::GameService;
use weiqi_ranking::recompute::{difference, from_logs};
use weiqi_ranking::registry::Profile;
use weiqi_ranking::tournaments::NoTournaments;
use weiqi_ranking::{MemoryReadModel, RankingConfig, RankingProjector, RankingService, ReadModel};
use weiqi_rating::{AssociationKey, EgfSettings, PlayerId, RatingSystem};

const PLAYERS: [(&str, Option<&str>); 8] = [
    ("ann", Some("3d")),
    ("bob", Some("1d")),
    ("chen", Some("1k")),
    ("dai", Some("5k")),
    ("eve", None),
    ("fan", Some("2d")),
    ("gao", Some("10k")),
    ("hu", None),
];

fn service(log: &AnyEventLog, clock: &Arc<TestClock>, system: RatingSystem) -> Arc<RankingService> {
    let mut config =
        RankingConfig::new(AssociationKey::from_seed("cwa", [3; 32]).unwrap(), weiqi_ranking::shipped_rules());
    config.system = system;
    // The test sends the ticks itself.
    config.tick = Duration::from_secs(3_600);
    Arc::new(RankingService::with_clock(log.clone(), Arc::new(NoTournaments), config, clock.clone()))
}

async fn suite(log: AnyEventLog, system: RatingSystem) {
    let clock = TestClock::new();
    let games = GameService::with_environment(log.clone(), clock.clone());
    let ranking = service(&log, &clock, system.clone());
    for (i, (id, rank)) in PLAYERS.iter().enumerate() {
        let profile = Profile {
            id: PlayerId::from(*id),
            name_zh: format!("棋手{i}"),
            name_latin: id.to_uppercase(),
            region: if i % 2 == 0 { "shanghai".into() } else { "beijing".into() },
            ..Profile::default()
        };
        ranking.register_player(profile, *rank, "registrar", &format!("reg-{id}")).await.unwrap();
    }
    let runner = tokio::spawn(ranking.clone().run());

    // 48 games over about three weeks: every sixth unrated, one handicap game, an unregistered player.
    let mut rated = 0;
    for n in 0..48usize {
        let black = PLAYERS[n % 8].0;
        let white = if n % 11 == 5 { "visitor" } else { PLAYERS[(n * 3 + 1) % 8].0 };
        let white = if white == black { PLAYERS[(n + 4) % 8].0 } else { white };
        let setup = Setup {
            rated: n % 6 != 3,
            handicap: if n == 10 { 3 } else { 0 },
            komi_half_points: if n == 10 { Some(1) } else { None },
            tournament: None,
        };
        play(&games, &format!("g-{n:03}"), black, white, (n * 7) % 3 != 0, &setup).await;
        if setup.rated {
            rated += 1;
        }
        clock.advance(11 * HOUR_MS);
        if n % 9 == 8 {
            // The timer's tick, once the week may be over.
            let want = rated;
            eventually("the games so far to be rated", || {
                let ranking = ranking.clone();
                async move { (ranking.book().await.unwrap().game_count() == want).then_some(()) }
            })
            .await;
            ranking.close_periods().await.unwrap();
        }
    }
    let want = rated;
    eventually("every rated game to be rated", || {
        let ranking = ranking.clone();
        async move { (ranking.book().await.unwrap().game_count() == want).then_some(()) }
    })
    .await;
    clock.advance(8 * DAY_MS);
    ranking.close_periods().await.unwrap();
    runner.abort();

    let live = ranking.book().await.unwrap();
    assert_eq!(live.game_count(), rated);
    assert!(live.player_count() >= 9, "the unregistered visitor is rated too");
    assert!(live.iter().any(|(_, r)| r.games > 0 && r.rating != 1500.0));

    // Recomputed from the logs: exactly the live values.
    let again = from_logs(&log, system.clone()).await.unwrap();
    assert_eq!(again.games, rated);
    assert_eq!(difference(&again.book, &live), None, "recomputed vs live");
    assert_eq!(difference(&again.replayed, &live), None, "replayed vs live");

    // A restarted service loads the same book from the ledger.
    let restarted = service(&log, &clock, system.clone());
    assert_eq!(difference(&restarted.book().await.unwrap(), &live), None, "restarted vs live");

    // Every player's log ends with the live rating, and so does the projected read model.
    let model = MemoryReadModel::new();
    RankingProjector::new(log.clone(), model.clone().into()).catch_up().await.unwrap();
    let mut checked = HashMap::new();
    for (player, r) in live.iter() {
        if r.games == 0 {
            continue;
        }
        let row = model.player(&player.0).await.unwrap().unwrap_or_else(|| panic!("{player} projected"));
        assert_eq!(row.rating.map(f64::to_bits), Some(r.rating.to_bits()), "{player}");
        assert_eq!(row.deviation.to_bits(), r.deviation.to_bits(), "{player}");
        assert_eq!(row.games, r.games, "{player}");
        let history = model.rating_history(&player.0, 1_000).await.unwrap();
        let last = history.last().unwrap();
        assert_eq!((last.rating.to_bits(), last.volatility.to_bits()), (r.rating.to_bits(), r.volatility.to_bits()));
        if let Some(entry) = restarted.player(player).await.unwrap() {
            let logged = entry.state.rating.unwrap();
            assert_eq!(logged.rating.to_bits(), r.rating.to_bits(), "{player}'s log");
        }
        checked.insert(player.clone(), r.rating);
    }
    assert!(checked.len() >= 8, "{checked:?}");
}

#[tokio::test]
async fn recompute_equals_live_on_the_embedded_log_glicko2() {
    let dir = tempfile::tempdir().unwrap();
    let log = EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default()).unwrap();
    suite(log.into(), RatingSystem::default()).await;
}

#[tokio::test]
async fn recompute_equals_live_on_the_embedded_log_egf() {
    let dir = tempfile::tempdir().unwrap();
    let log = EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default()).unwrap();
    suite(log.into(), RatingSystem::Egf(EgfSettings::default())).await;
}

#[tokio::test]
async fn recompute_equals_live_on_jetstream() {
    let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
    let log = JetStreamLog::connect(&nats.url(), JetStreamConfig::default()).await.unwrap();
    suite(log.into(), RatingSystem::default()).await;
}
