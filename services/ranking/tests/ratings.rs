//! Recomputing all ratings from the logs gives exactly the live values: real games played through the
//! game service, rated by the running ranking service (following the game log), with period-close
//! ticks, a handicap game, unrated games and an unregistered player; then the book is rebuilt from the
//! logs (each ledger game checked against its game log) and compared bit for bit with the live book,
//! with a restarted service, with every player's log and with the projected read model. Ten games
//! belong to a tournament: under EGF they wait for its final results and are then rated together. On
//! the embedded log for Glicko-2 and EGF, and on real NATS JetStream.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use common::{DAY_MS, HOUR_MS, Setup, TestClock, correct, eventually, play};
use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog, JetStreamConfig, JetStreamLog};
use weiqi_game::service::GameService;
use weiqi_ranking::recompute::{difference, from_logs};
use weiqi_ranking::registry::Profile;
use weiqi_ranking::tournaments::{FinalResults, NoTournaments, Placing, ResultsGroup};
use weiqi_ranking::{MemoryReadModel, RankingConfig, RankingProjector, RankingService, ReadModel};
use weiqi_rating::{
    AssociationKey, EgfSettings, EventId, EventLevel, EventRef, GameId, Millis, PlayerId, RatingSystem,
};

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
    Arc::new(RankingService::with_environment(log.clone(), Arc::new(NoTournaments), config, clock.clone()))
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

    // 48 games over about three weeks: every sixth unrated, one handicap game, an unregistered player,
    // and games 20..30 in a tournament.
    let mut rated = 0;
    let mut corrected = Vec::new();
    let mut cup: BTreeMap<&str, Vec<GameId>> = BTreeMap::new();
    for n in 0..48usize {
        let black = PLAYERS[n % 8].0;
        let white = if n % 11 == 5 { "visitor" } else { PLAYERS[(n * 3 + 1) % 8].0 };
        let white = if white == black { PLAYERS[(n + 4) % 8].0 } else { white };
        let setup = Setup {
            rated: n % 6 != 3,
            handicap: if n == 10 { 3 } else { 0 },
            komi_half_points: if n == 10 { Some(1) } else { None },
            tournament: (20..30).contains(&n).then(|| ("cup".to_owned(), u32::try_from(n).unwrap() - 19, 1)),
        };
        play(&games, &format!("g-{n:03}"), black, white, (n * 7) % 3 != 0, &setup).await;
        if setup.tournament.is_some() {
            cup.entry(black).or_default().push(GameId(format!("g-{n:03}")));
            cup.entry(white).or_default().push(GameId(format!("g-{n:03}")));
        }
        if setup.rated {
            rated += 1;
        }
        clock.advance(11 * HOUR_MS);
        // Results corrected after they were rated (and after later games were rated on them): a win
        // turned into a loss, a played game found a forfeit (no longer rated), an unrated game
        // corrected (nothing to re-rate), a tournament game corrected while it waits for the final
        // results (EGF), and a game of the open period corrected twice, back to what it was.
        let corrections: &[(usize, &str, Option<bool>)] = match n {
            17 => &[(4, "g-004", Some(false)), (8, "g-008", None), (3, "g-003", Some(true))],
            26 => &[(22, "g-022", Some(false))],
            40 => &[(38, "g-038", Some(false)), (38, "g-038", Some(true))],
            _ => &[],
        };
        for (k, (game, id, black_wins)) in corrections.iter().enumerate() {
            let want = rated - usize::from(black_wins.is_none() && game % 6 != 3);
            eventually("the games so far to be rated before a correction", || {
                let ranking = ranking.clone();
                let want = rated;
                async move { (ranking.book().await.unwrap().game_count() == want).then_some(()) }
            })
            .await;
            let before = ranking.ledger_sequence().await.unwrap();
            correct(&games, id, *black_wins, u32::try_from(k).unwrap()).await;
            if game % 6 != 3 {
                eventually("the correction to be re-rated", || {
                    let ranking = ranking.clone();
                    async move { (ranking.ledger_sequence().await.unwrap() > before).then_some(()) }
                })
                .await;
            }
            rated = want;
            corrected.push(*id);
        }
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
    // The tournament's final results arrive (here straight from the test rather than a results port).
    let egf = matches!(system, RatingSystem::Egf(_));
    let cup_games: usize = (20..30).filter(|n| n % 6 != 3).count();
    let waiting = ranking.book().await.unwrap().open_tournaments().map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(waiting, if egf { vec!["cup".to_owned()] } else { vec![] });
    let results = FinalResults {
        event: EventRef { id: EventId::from("cup"), name: "Cup".into(), kind: "open".into(), level: EventLevel::City },
        ended_at: Millis(clock.ms()),
        groups: vec![ResultsGroup {
            group: None,
            rounds: 10,
            field_by_grade: BTreeMap::new(),
            placings: cup
                .iter()
                .enumerate()
                .map(|(i, (p, games))| Placing {
                    player: PlayerId::from(*p),
                    place: u32::try_from(i).unwrap() + 1,
                    wins: 0,
                    byes: 0,
                    games: games.clone(),
                })
                .collect(),
        }],
    };
    let rated_together = ranking.close_tournament(&results).await.unwrap();
    assert_eq!(rated_together > 0, egf, "{rated_together} players rated together");
    assert_eq!(ranking.close_tournament(&results).await.unwrap(), 0, "closing twice rates nothing");
    let book = ranking.book().await.unwrap();
    assert_eq!(book.open_tournaments().count(), 0);
    assert!(cup_games > 0 && book.tournament_rated("cup") == egf);
    clock.advance(8 * DAY_MS);
    ranking.close_periods().await.unwrap();
    runner.abort();

    let live = ranking.book().await.unwrap();
    assert_eq!(live.game_count(), rated);
    assert!(live.player_count() >= 9, "the unregistered visitor is rated too");
    assert!(live.iter().any(|(_, r)| r.games > 0 && r.rating != 1500.0));

    // Recomputed from the logs (each corrected game checked as its log says now): exactly the live values.
    assert_eq!(corrected.len(), 6);
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
