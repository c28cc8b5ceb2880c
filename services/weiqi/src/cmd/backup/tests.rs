//! Backup and restore on both logs; the golden log of format version 1.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use indicatif::ProgressBar;
use weiqi_eventlog::{
    AggregateId, AggregateKind, AnyEventLog, CommandId, EmbeddedConfig, EmbeddedLog, EventLog, JetStreamLog, NewEvent,
    Position, RecordedEvent,
};
use weiqi_game::bus::answer;
use weiqi_game::convert::wire_command as command;
use weiqi_game::domain::{Actor, PlayerId};
use weiqi_game::service::GameService;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_command::Command as C;

use super::*;

fn embedded(dir: &Path, name: &str) -> AnyEventLog {
    EmbeddedLog::open(dir.join(name).join("events.redb"), EmbeddedConfig::default()).unwrap().into()
}

/// A JetStream log with its own prefix on `server`.
async fn jetstream(url: &str, prefix: &str) -> AnyEventLog {
    let config = weiqi_eventlog::JetStreamConfig { prefix: prefix.into(), ..Default::default() };
    JetStreamLog::connect(url, config).await.unwrap().into()
}

/// One game command, answered.
async fn act(svc: &GameService<AnyEventLog>, game: &str, cid: &str, who: &str, c: C) {
    let actor = Actor::Player(PlayerId(who.into()));
    answer(svc, &command(game, cid, &actor, c), &[]).await;
}

/// A 9×9 game between Ann and Bob: four stones, two passes, both accept the count.
async fn counted_game(svc: &GameService<AnyEventLog>, id: &str) {
    let org = weiqi_game::domain::Actor::System("test".into());
    let create = C::Create(pb::CreateGameRequest {
        game_id: id.into(),
        size: 9,
        rules: "chinese".into(),
        first: Some(pb::PlayerRef { id: "ann".into(), name: "Ann".into(), rank: "2d".into() }),
        second: Some(pb::PlayerRef { id: "bob".into(), name: "Bob".into(), rank: "1d".into() }),
        start: true,
        ..Default::default()
    });
    answer(svc, &command(id, &format!("create-{id}"), &org, create), &[]).await;
    let moves = [(2, 2), (6, 6), (2, 6), (6, 2)];
    for (n, (x, y)) in moves.iter().enumerate() {
        let who = if n % 2 == 0 { "ann" } else { "bob" };
        let play = C::Play(pb::PlayMoveRequest {
            game_id: id.into(),
            point: Some(pb::Point { x: *x, y: *y }),
            ..Default::default()
        });
        act(svc, id, &format!("{id}-m{n}"), who, play).await;
    }
    for (n, who) in ["ann", "bob"].into_iter().enumerate() {
        let pass = C::Pass(pb::PassRequest { game_id: id.into(), ..Default::default() });
        act(svc, id, &format!("{id}-p{n}"), who, pass).await;
    }
    for who in ["ann", "bob"] {
        let accept = C::AcceptScore(pb::GameRequest { game_id: id.into(), request_id: format!("{id}-accept-{who}") });
        act(svc, id, &format!("{id}-accept-{who}"), who, accept).await;
    }
}

/// Events of every kind, written by the services as the platform writes them: archived records, a
/// game resigned and a game counted, a four-player Swiss round played through the process manager,
/// two registered players rated from an archived game, a certification case, an account, the site's
/// settings, a game's chat and the chat's moderation.
pub(crate) async fn scenario(log: &AnyEventLog, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let records = [
        (
            "a.sgf",
            "(;GM[1]FF[4]SZ[9]KM[7]PB[Li]BR[2d]PW[Wang]WR[1d]DT[2003-05-12]EV[Spring]RE[B+3.5];B[ee];W[cc];B[gc];W[])",
        ),
        ("b.sgf", "(;GM[1]FF[4]SZ[19]HA[2]AB[dd][pp]PB[Zhao]PW[Qian]RE[W+R];W[pd];B[dp])"),
    ];
    let files: Vec<PathBuf> = records
        .iter()
        .map(|(name, sgf)| {
            let f = dir.join(name);
            std::fs::write(&f, sgf).unwrap();
            f
        })
        .collect();
    let imported = super::super::archive::import(log, &files, "golden", &ProgressBar::hidden()).await.unwrap();
    assert_eq!(imported.imported, 2);

    let svc = Arc::new(GameService::new(log.clone()));
    super::super::export::tests::game(&svc, "live-1", &[(4, 4), (2, 2)], true).await;
    counted_game(&svc, "counted-1").await;

    // Li and Wang are members: the archived game between them is rated (Elo); Li applies for 3d.
    let key = dir.join("association.key");
    weiqi_ranking::keys::load_or_create(&key, "cwa").unwrap();
    let with = || super::super::archive::RateWith {
        key: key.clone(),
        association: "cwa".into(),
        system: weiqi_rating::RatingSystem::Elo(Default::default()),
        rules: weiqi_ranking::shipped_rules(),
    };
    let ranking = super::super::archive::ranking_service(log, with()).unwrap();
    for id in ["Li", "Wang"] {
        let profile = weiqi_ranking::registry::Profile {
            id: weiqi_rating::PlayerId(id.into()),
            name_latin: id.into(),
            ..Default::default()
        };
        ranking.register_player(profile, None, "org", id).await.unwrap();
    }
    let rated = super::super::archive::rate(log, &imported, with()).await.unwrap();
    assert_eq!(rated.rated, 1, "{rated:?}");
    let application = weiqi_ranking::Application {
        request_id: "apply-li".into(),
        player: weiqi_rating::PlayerId::from("Li"),
        ladder: String::new(),
        requested: "3d".into(),
        games: vec![],
        tournaments: vec![],
        include_rating: true,
    };
    ranking.apply(application, &weiqi_rating::ActorId::from("Li"), weiqi_rating::Applicant::Player).await.unwrap();

    let env: Arc<dyn weiqi_aggregate::Environment> = Arc::new(weiqi_aggregate::SystemEnvironment);
    let accounts = weiqi_account::AccountService::new(log.clone(), env.clone(), ["admin".to_string()]);
    let admin = weiqi_account::Actor::System;
    accounts.create("admin", "The Administrator", &["admin".to_string()], None, &admin, "create-admin").await.unwrap();
    accounts.create("li", "Li", &[], None, &admin, "create-li").await.unwrap();
    let site = weiqi_account::site::SiteService::new(log.clone(), env.clone());
    site.set_registration(true, &weiqi_account::Actor::Admin("admin".into()), "open-registration").await.unwrap();
    // A game's chat and the chat's moderation.
    let chat = weiqi_chat::ChatService::new(log.clone(), env);
    let li = weiqi_chat::Speaker {
        id: "li".into(),
        name: "Li".into(),
        seated: true,
        players_chat_on: true,
        ..Default::default()
    };
    let post = weiqi_chat::Command::Post { room: weiqi_chat::Room::Players, text: "你好".into() };
    chat.run("g-chat", "chat-1", &li, &post).await.unwrap();
    let staff = weiqi_chat::Speaker { id: "admin".into(), staff: true, ..Default::default() };
    let mute = weiqi_chat::ModerationCommand::Mute { account: "zhao".into(), reason: "spam".into() };
    chat.moderate("mute-1", &staff, &mute).await.unwrap();

    let mut cfg = crate::bench::tournament::SimulatedEventConfig::new(4, 1, None);
    cfg.concurrency = 4;
    crate::bench::tournament::run_event(&cfg, log.clone(), None, "embedded", "golden").await.unwrap();
}

/// Every event of `kind` in log order, to its head now.
async fn all(log: &AnyEventLog, kind: AggregateKind) -> Vec<RecordedEvent> {
    let head = log.head(kind).await.unwrap();
    let mut out = Vec::new();
    read_batches(log, kind, head, |b| {
        out.push(b);
        Ok(())
    })
    .await
    .unwrap();
    // Back to events, with what a batch keeps (the batch boundaries are the records).
    let mut events = Vec::new();
    for (n, b) in out.iter().enumerate() {
        let stored = stored_batch(b).unwrap();
        for (i, e) in stored.events.into_iter().enumerate() {
            events.push(RecordedEvent {
                kind,
                aggregate_id: stored.aggregate_id.clone(),
                sequence: stored.first_sequence + i as u64,
                position: Position::from_raw(((n as u64 + 1) << 16) | i as u64),
                timestamp_ms: stored.timestamp_ms,
                command_id: stored.command_id.clone(),
                event_type: e.event_type,
                payload: e.payload,
                headers: e.headers,
            });
        }
    }
    events
}

/// Every aggregate's events of every kind, compared field by field (the position as the batch's
/// rank in its kind and the index in the batch, so the batch boundaries and the order of batches
/// count too).
async fn assert_same(a: &AnyEventLog, b: &AnyEventLog, what: &str) -> u64 {
    let mut n = 0;
    for kind in AggregateKind::ALL {
        let (x, y) = (all(a, kind).await, all(b, kind).await);
        assert_eq!(x.len(), y.len(), "{what}: {kind} events");
        for (e, f) in x.iter().zip(&y) {
            assert_eq!(e, f, "{what}: {kind}");
        }
        // And through `read`, aggregate by aggregate.
        let ids: std::collections::BTreeSet<&AggregateId> = x.iter().map(|e| &e.aggregate_id).collect();
        for id in ids {
            let (r, s) = (a.read(kind, id, 1).await.unwrap(), b.read(kind, id, 1).await.unwrap());
            let strip = |e: &RecordedEvent| {
                (
                    e.sequence,
                    e.event_type.clone(),
                    e.payload.clone(),
                    e.headers.clone(),
                    e.command_id.clone(),
                    e.timestamp_ms,
                )
            };
            assert_eq!(
                r.iter().map(strip).collect::<Vec<_>>(),
                s.iter().map(strip).collect::<Vec<_>>(),
                "{what}: {kind} {id}"
            );
        }
        n += x.len() as u64;
    }
    n
}

fn every_kind_present(summary: &RestoreSummary) {
    for k in &summary.kinds {
        assert!(k.counts.aggregates > 0, "the scenario writes {}: {summary:?}", k.counts.kind);
    }
}

/// Embedded → file → JetStream → file → a fresh embedded log: every aggregate's events are the same
/// in all three, and every aggregate of every kind replays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_of_every_kind_goes_through_jetstream_and_back_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let source = embedded(dir.path(), "source");
    scenario(&source, &dir.path().join("scenario")).await;
    let first = dir.path().join("first.weiqi-backup");
    let written = backup(&source, "embedded source", &first, &ProgressBar::hidden()).await.unwrap();
    assert!(written.events > 50 && written.aggregates > 10, "{written:?}");

    let nats = weiqi_testkit::nats_or_skip();
    let middle = match &nats {
        Some(server) => jetstream(&server.url(), "wqmiddle").await,
        None => embedded(dir.path(), "middle"),
    };
    let restored = restore(&middle, &first, &ProgressBar::hidden()).await.unwrap();
    assert!(restored.ok(), "{restored:?}");
    every_kind_present(&restored);
    assert_eq!((restored.events, restored.aggregates), (written.events, written.aggregates));

    let second = dir.path().join("second.weiqi-backup");
    let again = backup(&middle, "middle", &second, &ProgressBar::hidden()).await.unwrap();
    assert_eq!((again.events, again.batches, &again.kinds), (written.events, written.batches, &written.kinds));
    let last = embedded(dir.path(), "last");
    let back = restore(&last, &second, &ProgressBar::hidden()).await.unwrap();
    assert!(back.ok(), "{back:?}");

    let n = assert_same(&source, &middle, "source and middle").await;
    assert_eq!(assert_same(&source, &last, "source and last").await, n);
    assert_eq!(n, written.events);
    println!(
        "{} events of {} aggregates through {}: identical",
        n,
        written.aggregates,
        if nats.is_some() { "JetStream" } else { "a second embedded log" }
    );
}

/// A restore into a log that holds anything is refused, naming what is there, and writes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restore_into_a_log_that_is_not_empty_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let source = embedded(dir.path(), "source");
    let id = AggregateId::new("g1").unwrap();
    let event = NewEvent::new("test.Created", b"x".to_vec());
    source
        .append(AggregateKind::Game, &id, 0, &CommandId::new("c1").unwrap(), std::slice::from_ref(&event))
        .await
        .unwrap();
    let file = dir.path().join("b.weiqi-backup");
    backup(&source, "source", &file, &ProgressBar::hidden()).await.unwrap();

    let target = embedded(dir.path(), "target");
    let player = AggregateId::new("someone").unwrap();
    target.append(AggregateKind::Player, &player, 0, &CommandId::new("c9").unwrap(), &[event]).await.unwrap();
    let e = restore(&target, &file, &ProgressBar::hidden()).await.unwrap_err();
    let text = format!("{e:#}");
    assert!(text.contains("not empty") && text.contains("player") && text.contains("someone"), "{text}");
    assert!(target.head(AggregateKind::Game).await.unwrap().is_empty_head(), "nothing written");
    // JetStream too: its streams hold the source's game.
    if let Some(server) = weiqi_testkit::nats_or_skip() {
        let js = jetstream(&server.url(), "wqfull").await;
        restore(&js, &file, &ProgressBar::hidden()).await.unwrap();
        let e = restore(&js, &file, &ProgressBar::hidden()).await.unwrap_err();
        assert!(format!("{e:#}").contains("game: log head at batch 2, the first of game g1"), "{e:#}");
    }
}

/// A damaged file and truncated files are refused with the position; nothing is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_or_truncated_file_is_refused_with_the_position() {
    let dir = tempfile::tempdir().unwrap();
    let source = embedded(dir.path(), "source");
    for n in 0..300u64 {
        let id = AggregateId::new(format!("g{}", n % 7)).unwrap();
        let event = NewEvent::new("test.Played", format!("move {n} {}", "x".repeat((n % 50) as usize)).into_bytes());
        source
            .append(AggregateKind::Game, &id, n / 7, &CommandId::new(format!("c{n}")).unwrap(), &[event])
            .await
            .unwrap();
    }
    let file = dir.path().join("b.weiqi-backup");
    backup(&source, "source", &file, &ProgressBar::hidden()).await.unwrap();
    let bytes = std::fs::read(&file).unwrap();
    assert!(check(&file).is_ok());

    let target = embedded(dir.path(), "target");
    let refused = |name: &str, content: Vec<u8>| {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        path
    };
    // A byte flipped in the compressed stream, a record's bytes changed before compression (a
    // writer's bug or a change in memory: only the CRC sees it), and cuts at several places.
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x40;
    let cases = [
        ("flipped", flipped),
        ("cut-in-the-middle", bytes[..bytes.len() / 2].to_vec()),
        ("cut-before-the-end", bytes[..bytes.len() - 3].to_vec()),
        ("preamble-only", bytes[..12].to_vec()),
        ("not-a-backup", b"PK\x03\x04 a zip file".to_vec()),
    ];
    for (name, content) in cases {
        let path = refused(name, content);
        let e = restore(&target, &path, &ProgressBar::hidden()).await.unwrap_err();
        let text = format!("{e:#}");
        assert!(text.contains("nothing was written") || name == "not-a-backup", "{name}: {text}");
        assert!(
            text.contains("record") || text.contains("not a weiqi backup"),
            "{name}: the position or what it is: {text}"
        );
        println!("{name}: {text}");
        for kind in AggregateKind::ALL {
            assert!(target.head(kind).await.unwrap().is_empty_head(), "{name}: nothing written");
        }
    }
    // A record changed inside the decompressed stream: the CRC, at that record.
    let mut plain = zstd::decode_all(&bytes[12..]).unwrap();
    let at = plain.len() / 2;
    plain[at] ^= 1;
    let mut damaged = bytes[..12].to_vec();
    damaged.extend(zstd::encode_all(plain.as_slice(), 3).unwrap());
    let path = refused("crc", damaged);
    let text = format!("{:#}", check(&path).unwrap_err());
    assert!(text.contains("damaged") && text.contains("record"), "{text}");
    println!("crc: {text}");
}

/// A backup taken while appends go on holds exactly the events before the heads it took at its
/// start, in every kind written to.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_appends_continue_is_a_cut_at_its_start() {
    let dir = tempfile::tempdir().unwrap();
    let source = embedded(dir.path(), "source");
    let write = |log: AnyEventLog, kind: AggregateKind, from: u64, to: u64| async move {
        for n in from..to {
            let id = AggregateId::new(format!("a{}", n % 11)).unwrap();
            let event = NewEvent::new("test.Event", vec![n as u8; 40]);
            let cid = CommandId::new(format!("{kind}-c{n}")).unwrap();
            log.append(kind, &id, n / 11 * 2, &cid, &[event.clone(), event]).await.unwrap();
        }
    };
    futures::join!(
        write(source.clone(), AggregateKind::Game, 0, 2_000),
        write(source.clone(), AggregateKind::Archive, 0, 2_000)
    );
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let stop = Arc::new(AtomicBool::new(false));
    let rounds = Arc::new(AtomicU64::new(0));
    let appender = {
        let (log, stop, rounds) = (source.clone(), stop.clone(), rounds.clone());
        tokio::spawn(async move {
            let mut n = 2_000;
            while !stop.load(Ordering::Relaxed) {
                write(log.clone(), AggregateKind::Game, n, n + 11).await;
                write(log.clone(), AggregateKind::Archive, n, n + 11).await;
                n += 11;
                rounds.fetch_add(1, Ordering::Relaxed);
            }
            n
        })
    };
    while rounds.load(Ordering::Relaxed) < 1 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let file = dir.path().join("live.weiqi-backup");
    let summary = backup(&source, "source", &file, &ProgressBar::hidden()).await.unwrap();
    // Appends go on past the backup's end: a whole round of both kinds after it.
    let after = rounds.load(Ordering::Relaxed);
    while rounds.load(Ordering::Relaxed) < after + 2 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    stop.store(true, Ordering::Relaxed);
    let appended = appender.await.unwrap();

    let mut reader = format::Reader::open(&file).unwrap();
    let Some(format::Item::Header(header)) = reader.next().unwrap() else { panic!("a header first") };
    let target = embedded(dir.path(), "target");
    let restored = restore(&target, &file, &ProgressBar::hidden()).await.unwrap();
    assert!(restored.kinds.iter().all(|k| k.identical), "{restored:?}");
    for kind in [AggregateKind::Game, AggregateKind::Archive] {
        let cut = header.kinds.iter().find(|k| k.kind == kind.as_str()).unwrap().head;
        let cut = Position::from_raw(cut);
        let now = source.head(kind).await.unwrap();
        assert!(now > cut, "{kind}: appended after the cut");
        // `all` numbers batches by their rank in the kind, which is the embedded log's batch number.
        let expected: Vec<RecordedEvent> =
            all(&source, kind).await.into_iter().take_while(|e| e.position.batch() < cut.batch()).collect();
        let restored = all(&target, kind).await;
        assert_eq!(restored, expected, "{kind}: exactly the events before the cut");
        assert!(restored.len() as u64 >= 2 * 2_000, "{kind}");
    }
    println!("cut at {:?}; {} events in the backup; appends reached {appended}", header.kinds, summary.events);
}

/// The committed log written by format version 1 (`tests/data/golden-v1.weiqi-backup`).
fn golden() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden-v1.weiqi-backup")
}

/// Events written by an older version must replay in every later one: the golden log, written by
/// `weiqi backup` from [`scenario`] when format version 1 was new, restores into a fresh log, every
/// aggregate replays, and the states are the ones it had. A failure here means a change broke reading
/// old events: fix the reader, never the fixture (see ARCHITECTURE.md, "How an event type evolves").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_golden_log_of_format_1_restores_and_replays_to_the_same_states() {
    let dir = tempfile::tempdir().unwrap();
    let log = embedded(dir.path(), "golden");
    let summary = restore(&log, &golden(), &ProgressBar::hidden()).await.unwrap();
    assert!(summary.ok(), "{summary:?}");
    every_kind_present(&summary);
    let read = |kind, id: &str| {
        let log = log.clone();
        let id = AggregateId::new(id).unwrap();
        async move { log.read(kind, &id, 1).await.unwrap() }
    };

    // The counted game: both passes, the count accepted, the result.
    let counted =
        verify::fold::<weiqi_game::aggregate::GameAggregate>(&read(AggregateKind::Game, "counted-1").await).unwrap();
    let result = counted.result.clone().expect("counted-1 ended");
    let score = result.score.expect("counted");
    assert_eq!((format!("{:?}", result.outcome), format!("{:?}", result.reason)), ("WhiteWins".into(), "Score".into()));
    assert_eq!((score.black_total.0, score.white_total.0, score.dame), (81, 96, 77), "{score:?}");
    let resigned =
        verify::fold::<weiqi_game::aggregate::GameAggregate>(&read(AggregateKind::Game, "live-1").await).unwrap();
    let resigned = resigned.result.clone().expect("live-1 ended");
    assert_eq!(
        (format!("{:?}", resigned.outcome), format!("{:?}", resigned.reason)),
        ("BlackWins".into(), "Resignation".into())
    );

    // The tournament: one Swiss round of four, finished, and its standings.
    let t =
        verify::fold::<weiqi_tournament::service::Tournaments>(&read(AggregateKind::Tournament, "bench-golden").await)
            .unwrap();
    assert_eq!(t.core.rounds.len(), 1);
    assert!(t.core.rounds[0].completed);
    let standings = weiqi_pairing::standings::standings(&t.core);
    let csv = weiqi_pairing::export::standings_csv(&t.core, &standings);
    // Read by the header's names, so a column added to the export does not matter here.
    let mut lines = csv.lines();
    let names: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |row: &[&str], name: &str| row[names.iter().position(|n| *n == name).unwrap()].to_string();
    let rows: Vec<(String, String, String)> = lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .map(|r| (col(&r, "name_latin"), col(&r, "games"), col(&r, "wins")))
        .collect();
    let expected = [("Player 1", "1", "1"), ("Player 2", "1", "0"), ("Player 3", "1", "1"), ("Player 4", "1", "0")];
    let expected: Vec<(String, String, String)> =
        expected.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).collect();
    assert_eq!(rows, expected, "{csv}");

    // The players' ratings from the rated archived game, and the ledger's entry.
    let li =
        verify::fold::<weiqi_ranking::aggregate::PlayerAggregate>(&read(AggregateKind::Player, "Li").await).unwrap();
    let wang =
        verify::fold::<weiqi_ranking::aggregate::PlayerAggregate>(&read(AggregateKind::Player, "Wang").await).unwrap();
    let (li, wang) = (li.rating.expect("Li is rated"), wang.rating.expect("Wang is rated"));
    assert_eq!((li.system.as_str(), li.games, wang.games), ("elo", 1, 1));
    assert!(
        (li.rating - 2211.3667965881723).abs() < 1e-9 && (wang.rating - 2088.6332034118277).abs() < 1e-9,
        "{li:?} {wang:?}"
    );

    // The certification case, the accounts, the site's settings, the archive.
    let cases = all(&log, AggregateKind::Case).await;
    let case = verify::fold::<weiqi_ranking::aggregate::CaseAggregate>(&cases).unwrap().case.expect("opened");
    assert_eq!((case.player.0.as_str(), format!("{:?}", case.status)), ("Li", "Open".to_string()));
    let admin =
        verify::fold::<weiqi_account::aggregate::Accounts>(&read(AggregateKind::Account, "admin").await).unwrap();
    assert!(admin.exists && admin.roles.contains("admin"));
    let settings = verify::fold::<weiqi_account::site::Site>(&all(&log, AggregateKind::Site).await).unwrap();
    assert!(settings.registration_open);
    let archived: Vec<String> = all(&log, AggregateKind::Archive)
        .await
        .iter()
        .map(|r| weiqi_archive::codec::decode(&r.payload).unwrap().result)
        .collect();
    assert_eq!(archived, ["B+3.5", "W+R"]);
}

/// Writes the golden log again. **Do not run this to make the golden test pass**: the fixture is the
/// events an older version wrote, and regenerating it hides the very break the test exists to find.
/// Regenerate only when the backup format itself changes on purpose (a new format version: then add
/// `golden-v2` beside `golden-v1`, and keep the old one and its test):
///
/// ```text
/// cargo test -p weiqi --bin weiqi -- --ignored regenerate_the_golden_log
/// ```
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "rewrites tests/data/golden-v1.weiqi-backup: only for a new format version"]
async fn regenerate_the_golden_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = embedded(dir.path(), "golden");
    scenario(&log, &dir.path().join("scenario")).await;
    std::fs::create_dir_all(golden().parent().unwrap()).unwrap();
    let summary =
        backup(&log, "the golden scenario (services/weiqi/src/cmd/backup/tests.rs)", &golden(), &ProgressBar::hidden())
            .await
            .unwrap();
    println!("{summary:?}");
}

/// A running `weiqi up` serves a backup of its own log to an administrator (`GET /admin/backup`),
/// the same file `weiqi backup` writes; without the admin role, or without a token, it refuses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_platform_serves_its_backup_to_an_administrator() {
    use std::io::{Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let log = embedded(dir.path(), "live");
    let id = AggregateId::new("g1").unwrap();
    for n in 0..20u64 {
        let event = NewEvent::new("test.Played", format!("move {n}").into_bytes());
        log.append(AggregateKind::Game, &id, n, &CommandId::new(format!("c{n}")).unwrap(), &[event]).await.unwrap();
    }
    let auth = weiqi_edge::auth::Authority::new(&[7u8; 32], "weiqi");
    let router = http::router(log.clone(), auth.clone(), "live".into(), dir.path().join("spool"));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, router).await });
    let get = move |token: Option<String>| {
        tokio::task::spawn_blocking(move || {
            let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
            let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
            write!(s, "GET /admin/backup HTTP/1.1\r\nHost: x\r\n{auth}Connection: close\r\n\r\n").unwrap();
            let mut out = Vec::new();
            s.read_to_end(&mut out).unwrap();
            out
        })
    };
    let ttl = std::time::Duration::from_secs(60);
    let admin = auth.issue("admin", &[weiqi_edge::auth::Role::Admin], &[], ttl);
    let player = auth.issue("li", &[weiqi_edge::auth::Role::Player], &[], ttl);
    for (token, status) in [(None, "401"), (Some(player), "403")] {
        let answer = get(token).await.unwrap();
        assert!(String::from_utf8_lossy(&answer).starts_with(&format!("HTTP/1.1 {status}")), "{status}");
    }
    let answer = get(Some(admin)).await.unwrap();
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&answer[..split]).to_string();
    assert!(head.starts_with("HTTP/1.1 200") && head.contains("x-weiqi-backup"), "{head}");
    let file = dir.path().join("served.weiqi-backup");
    std::fs::write(&file, &answer[split + 4..]).unwrap();
    let target = embedded(dir.path(), "target");
    let restored = restore(&target, &file, &ProgressBar::hidden()).await.unwrap();
    assert_eq!((restored.events, restored.kinds[0].identical), (20, true));
    assert_eq!(std::fs::read_dir(dir.path().join("spool")).unwrap().count(), 0, "nothing left in the spool");
}

/// Item 9 of the trust issue: a backup does not carry the association's key and says so; restored on
/// a machine without that key, the restore names the key its certificates need; with the key copied
/// over, it says nothing. The backup file and the embedded log are readable by their owner only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restore_without_the_signing_key_warns_and_the_files_are_the_owners_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old");
    let log: AnyEventLog = EmbeddedLog::open(old.join("events.redb"), EmbeddedConfig::default()).unwrap().into();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&old.join("events.redb")), 0o600, "the embedded log");
    // A certificate signed by the old machine's key, recorded in its case.
    let key = weiqi_ranking::keys::load_or_create(&old.join("association.key"), "cwa").unwrap();
    let date: weiqi_rating::CivilDate = "2026-11-01".parse().unwrap();
    let body = weiqi_rating::CertificateBody {
        serial: weiqi_ranking::domain::case::certificate_serial("cwa", date, "0123456789abcdef"),
        association: "cwa".into(),
        key_id: key.key_id(),
        player: weiqi_rating::PlayerId::from("li"),
        player_name: "Li".into(),
        ladder: "cwa-amateur".into(),
        grade: "1d".into(),
        grade_name: "1d".into(),
        date,
        case: weiqi_rating::CaseId::from("case-1"),
        basis: "rating".into(),
    };
    let certificate = key.sign_certificate(body).unwrap();
    let meta = weiqi_ranking::codec::Meta {
        causation: "issue-1".into(),
        actor: weiqi_ranking::domain::ActorKind::System,
        actor_id: "ranking".into(),
        at: weiqi_rating::Millis(1),
    };
    let event = weiqi_ranking::codec::case::case_event(
        &weiqi_rating::CaseEvent::CertificateIssued { certificate, at: weiqi_rating::Millis(1) },
        &meta,
    );
    let id = AggregateId::new("case-1").unwrap();
    log.append(AggregateKind::Case, &id, 0, &CommandId::new("issue-1").unwrap(), &[event]).await.unwrap();
    assert_eq!(certificate_keys(&log).await.unwrap().into_iter().collect::<Vec<_>>(), [(key.key_id(), 1)]);

    let file = dir.path().join("b.wqbk");
    backup(&log, "test", &file, &ProgressBar::hidden()).await.unwrap();
    assert_eq!(mode(&file), 0o600, "the backup file");
    assert!(KEYS_NOT_INCLUDED.contains("association.key") && KEYS_NOT_INCLUDED.contains("not in this backup"));

    // A new machine: no key there (or another one) → the key is named.
    let new = dir.path().join("new");
    let restored: AnyEventLog = EmbeddedLog::open(new.join("events.redb"), EmbeddedConfig::default()).unwrap().into();
    restore(&restored, &file, &ProgressBar::hidden()).await.unwrap();
    assert_eq!(unknown_signing_keys(&restored, &new).await.unwrap(), [(key.key_id(), 1)]);
    weiqi_ranking::keys::load_or_create(&new.join("association.key"), "cwa").unwrap();
    assert_eq!(unknown_signing_keys(&restored, &new).await.unwrap(), [(key.key_id(), 1)], "a new key is not the one");
    // The old key carried over: nothing to warn about.
    std::fs::copy(old.join("association.key"), new.join("association.key")).unwrap();
    assert!(unknown_signing_keys(&restored, &new).await.unwrap().is_empty());
}
