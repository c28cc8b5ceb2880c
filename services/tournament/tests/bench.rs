//! The simulated event of `weiqi bench` on a small field: it plays every game through the services
//! and reports what it did (time is reported, never asserted).

use weiqi_tournament::bench::{SimulatedEventConfig, simulated_event_with};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_simulated_swiss_runs_to_the_end_on_the_embedded_log() {
    let mut cfg = SimulatedEventConfig::new(21, 3, None);
    cfg.moves_per_game = 3;
    let report = simulated_event_with(&cfg).await.unwrap();
    assert_eq!((report.players, report.rounds, report.backend.as_str()), (21, 3, "embedded"));
    assert_eq!(report.games, 30, "10 games a round (one bye)");
    assert_eq!(report.round_seconds.len(), 3);
    assert!(report.player_commands >= report.games, "at least a resignation per game");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_simulated_swiss_runs_on_nats() {
    let nats = weiqi_testkit::require!(weiqi_testkit::NatsServer::start());
    let report = weiqi_tournament::bench::simulated_event(16, 2, Some(nats.url())).await.unwrap();
    assert_eq!((report.games, report.backend.as_str()), (16, "nats"));
}
