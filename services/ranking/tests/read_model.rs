//! One suite, two read models: in memory, and Redis (a real redis-server started by the testkit;
//! skipped with a notice if it is missing, unless WEIQI_REQUIRE_EXTERNAL=1).

use weiqi_ranking::readmodel::{Change, PlayerRow};
use weiqi_ranking::registry::{Profile, RankBasis, RankEntry, RatingPoint};
use weiqi_ranking::{AnyReadModel, Board, MemoryReadModel, ReadModel, RedisReadModel};
use weiqi_rating::{CaseId, Millis, PlayerId};

fn profile(id: &str, region: &str) -> Change {
    Change::Profile(Profile {
        id: PlayerId::from(id),
        name_zh: format!("{id}-zh"),
        name_latin: format!("{id}-latin"),
        region: region.into(),
        club: "club".into(),
        egd_pin: String::new(),
    })
}

fn grade(id: &str, ladder: &str, grade: &str) -> Change {
    Change::Rank {
        player: id.into(),
        entry: RankEntry {
            ladder: ladder.into(),
            grade: Some(grade.into()),
            grade_name: String::new(),
            previous: None,
            basis: RankBasis::Declared,
            case: None,
            serial: None,
            reason: String::new(),
            at: Millis(1),
        },
    }
}

fn rating(id: &str, rating: f64, games: u32) -> Change {
    Change::Rating {
        player: id.into(),
        point: RatingPoint {
            system: "glicko2".into(),
            rating,
            deviation: 80.0,
            volatility: 0.06,
            games,
            provisional: false,
            rating_before: 1500.0,
            deviation_before: 350.0,
            game: None,
            period: Some(1),
            open_period: false,
            tournament: None,
            ledger_sequence: u64::from(games),
            at: Millis(2),
        },
    }
}

fn tagged(from: u64, changes: Vec<Change>) -> Vec<(u64, Change)> {
    changes.into_iter().enumerate().map(|(i, c)| (from + i as u64, c)).collect()
}

async fn ids(model: &AnyReadModel, board: Board, offset: usize, limit: usize) -> (u64, Vec<String>) {
    let page = model.leaderboard(&board, offset, limit).await.unwrap();
    let places: Vec<u32> = page.entries.iter().map(|e| e.place).collect();
    let want: Vec<u32> = (offset as u32 + 1..).take(places.len()).collect();
    assert_eq!(places, want, "places are 1-based and consecutive");
    (page.total, page.entries.into_iter().map(|e| e.row.player).collect())
}

fn band(b: &str) -> Board {
    Board { band: Some(b.into()), region: None }
}

fn region(r: &str) -> Board {
    Board { band: None, region: Some(r.into()) }
}

async fn suite(model: AnyReadModel) {
    model.clear().await.unwrap();
    assert_eq!(model.checkpoint().await.unwrap(), None);
    assert_eq!(ids(&model, Board::all(), 0, 10).await, (0, vec![]));

    let batch = tagged(
        10,
        vec![
            profile("ann", "shanghai"),
            grade("ann", "amateur", "3d"),
            rating("ann", 2250.0, 12),
            profile("bob", "beijing"),
            grade("bob", "amateur", "2k"),
            rating("bob", 1950.0, 8),
            profile("cai", "shanghai"),
            grade("cai", "amateur", "4k"),
            rating("cai", 1950.0, 5),
            profile("dan", "shanghai"),
            grade("dan", "amateur", "6d"),
            grade("dan", "professional", "2p"),
            rating("dan", 2700.0, 30),
            profile("eve", "beijing"),
        ],
    );
    model.apply(&batch).await.unwrap();
    assert_eq!(model.checkpoint().await.unwrap(), Some(23));

    // Rating descending; the tie between bob and cai goes to the greater id (Redis ZREVRANGE order).
    assert_eq!(
        ids(&model, Board::all(), 0, 10).await,
        (4, vec!["dan".into(), "ann".into(), "cai".into(), "bob".into()])
    );
    assert_eq!(ids(&model, Board::all(), 1, 2).await, (4, vec!["ann".into(), "cai".into()]));
    assert_eq!(ids(&model, Board::all(), 9, 2).await, (4, vec![]));
    assert_eq!(ids(&model, band("sdk"), 0, 10).await, (2, vec!["cai".into(), "bob".into()]));
    assert_eq!(ids(&model, band("pro"), 0, 10).await, (1, vec!["dan".into()]), "a professional grade wins");
    assert_eq!(ids(&model, band("dan"), 0, 10).await, (1, vec!["ann".into()]));
    assert_eq!(ids(&model, region("shanghai"), 0, 10).await, (3, vec!["dan".into(), "ann".into(), "cai".into()]));
    let sdk_shanghai = Board { band: Some("sdk".into()), region: Some("shanghai".into()) };
    assert_eq!(ids(&model, sdk_shanghai.clone(), 0, 10).await, (1, vec!["cai".into()]));

    // Registered but unrated: a row, on no board.
    let eve = model.player("eve").await.unwrap().unwrap();
    assert_eq!((eve.rating, eve.region.as_str()), (None, "beijing"));
    assert_eq!(model.player("nobody").await.unwrap(), None);
    let ann: PlayerRow = model.player("ann").await.unwrap().unwrap();
    assert_eq!((ann.name_zh.as_str(), ann.amateur.as_deref(), ann.games), ("ann-zh", Some("3d"), 12));

    // The same batch again changes nothing (positions at or before the checkpoint).
    model.apply(&batch).await.unwrap();
    assert_eq!(model.rating_history("ann", 10).await.unwrap().len(), 1);
    assert_eq!(model.rank_history("dan",).await.unwrap().len(), 2);

    // A batch overlapping the checkpoint applies only what is new: cai moves to Beijing, is promoted
    // to 1d, and gains rating; bob gets a second rating point.
    let next = tagged(
        22,
        vec![
            rating("dan", 2700.0, 30), // 22: already applied
            rating("eve", 1500.0, 0),  // 23: already applied position (a different change): skipped
            profile("cai", "beijing"),
            Change::Rank {
                player: "cai".into(),
                entry: RankEntry {
                    ladder: "amateur".into(),
                    grade: Some("1d".into()),
                    grade_name: "业余1段".into(),
                    previous: Some("4k".into()),
                    basis: RankBasis::Certified,
                    case: Some(CaseId::from("case-1")),
                    serial: Some("CWA-1".into()),
                    reason: String::new(),
                    at: Millis(5),
                },
            },
            rating("cai", 2120.5, 9),
            rating("bob", 1940.0, 9),
        ],
    );
    model.apply(&next).await.unwrap();
    assert_eq!(model.checkpoint().await.unwrap(), Some(27));
    assert_eq!(model.player("eve").await.unwrap().unwrap().rating, None);
    assert_eq!(ids(&model, sdk_shanghai, 0, 10).await, (0, vec![]));
    assert_eq!(ids(&model, band("sdk"), 0, 10).await, (1, vec!["bob".into()]));
    assert_eq!(ids(&model, band("dan"), 0, 10).await, (2, vec!["ann".into(), "cai".into()]));
    assert_eq!(ids(&model, region("beijing"), 0, 10).await, (2, vec!["cai".into(), "bob".into()]));
    assert_eq!(ids(&model, region("shanghai"), 0, 10).await, (2, vec!["dan".into(), "ann".into()]));
    assert_eq!(ids(&model, Board::all(), 0, 10).await.0, 4);

    // Histories: oldest first, the last `limit`.
    let bob = model.rating_history("bob", 10).await.unwrap();
    assert_eq!(bob.iter().map(|p| p.rating).collect::<Vec<_>>(), vec![1950.0, 1940.0]);
    assert_eq!(model.rating_history("bob", 1).await.unwrap()[0].rating, 1940.0);
    assert!(model.rating_history("bob", 0).await.unwrap().is_empty());
    let cai = model.rank_history("cai").await.unwrap();
    assert_eq!(cai.iter().map(|e| e.grade.clone().unwrap()).collect::<Vec<_>>(), vec!["4k", "1d"]);
    assert_eq!(cai[1].case, Some(CaseId::from("case-1")));

    // Cleared: empty again, ready for a rebuild.
    model.clear().await.unwrap();
    assert_eq!(model.checkpoint().await.unwrap(), None);
    assert_eq!(ids(&model, Board::all(), 0, 10).await, (0, vec![]));
    assert!(model.rank_history("cai").await.unwrap().is_empty());
}

#[tokio::test]
async fn memory_read_model() {
    suite(MemoryReadModel::new().into()).await;
}

#[tokio::test]
async fn redis_read_model() {
    let Some(redis) = weiqi_testkit::redis_or_skip() else { return };
    let model = RedisReadModel::connect(&redis.url(), "test:").await.unwrap();
    suite(model.into()).await;
}
