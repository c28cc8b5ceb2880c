//! The archive's shells: `weiqi sgf import` (records into the event log's `archive` kind) and the
//! reader `weiqi stats` and `weiqi sgf export` use (every archived game up to the log's head).
//!
//! Import is one pass per record: read, replay through the rules core (`weiqi_archive`, on the
//! blocking pool, as many records at once as there are cores), and one append with expected sequence 0 under the game's
//! content-hash id; appends run many at a time so the embedded log commits them in groups and
//! JetStream pipelines its acknowledgements. An id already taken is a duplicate and nothing is
//! written; a record that does not replay is refused with the reason and nothing is written.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use futures::StreamExt;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use weiqi_archive::{ArchivedGame, Winner, codec};
use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, AppendError, CommandId, EventLog, NewEvent, Position};
use weiqi_ranking::{ArchiveRating, ArchivedResult, ArchivedWinner, RankingService};

/// Appends in flight at once.
const IN_FLIGHT: usize = 256;
/// Tries of an append the log did not answer.
const TRIES: u32 = 5;

/// A record refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refused {
    /// The file.
    pub file: String,
    /// Why.
    pub reason: String,
}

/// What an import did (`--json` prints it without `refusals`' details cut).
#[derive(Debug, Default, Clone, PartialEq, Serialize)]
pub struct ImportSummary {
    /// Files read.
    pub files: usize,
    /// Games written.
    pub imported: usize,
    /// Records already in the archive.
    pub duplicates: usize,
    /// Records that do not replay.
    pub refused: usize,
    /// Seconds the import took.
    pub seconds: f64,
    /// Records per second.
    pub records_per_sec: f64,
    /// Each refusal.
    pub refusals: Vec<Refused>,
    /// The result of every record now in the archive (imported now or before), for `--rate`.
    #[serde(skip)]
    pub results: Vec<ArchivedResult>,
}

enum Outcome {
    Imported(ArchivedResult),
    Duplicate(ArchivedResult),
    Refused(String),
}

/// What the rating system takes of an archived game.
fn result_of(g: &ArchivedGame) -> ArchivedResult {
    // Ranks as the rating rules write them (`5d`, `3k`), also from `5段`, `3级`.
    let rank = |r: &str| match weiqi_archive::stats::grade(r) {
        Some(g) if g >= 1 => format!("{g}d"),
        Some(g) => format!("{}k", 1 - g),
        None => r.trim().to_string(),
    };
    ArchivedResult {
        game: g.id.clone(),
        black: (g.black.0.clone(), rank(&g.black.1)),
        white: (g.white.0.clone(), rank(&g.white.1)),
        winner: match g.winner {
            Winner::Black => ArchivedWinner::Black,
            Winner::White => ArchivedWinner::White,
            Winner::Draw => ArchivedWinner::Draw,
            Winner::None => ArchivedWinner::None,
        },
        komi_halves: g.komi_halves,
        handicap: g.handicap,
        played_on: g.played_at(),
    }
}

/// Appends `game`: `Ok(Ok(true))` when new, `Ok(Ok(false))` when already there, `Ok(Err(why))` when
/// the log refuses the record itself (larger than an event may be): a refusal of that file, and the
/// import goes on with the next.
async fn append(log: &AnyEventLog, game: &ArchivedGame) -> Result<Result<bool, String>> {
    let id = AggregateId::new(&game.id).context("an archive id")?;
    let command = CommandId::new(format!("import-{}", game.id)).context("a command id")?;
    let event = NewEvent::new(codec::EVENT_TYPE, codec::encode(game));
    let mut tries = 0;
    loop {
        match log.append(AggregateKind::Archive, &id, 0, &command, std::slice::from_ref(&event)).await {
            Ok(outcome) => return Ok(Ok(!outcome.duplicate)),
            Err(AppendError::Conflict { .. }) => return Ok(Ok(false)),
            Err(AppendError::Invalid(why)) => return Ok(Err(format!("the record cannot be stored: {why}"))),
            Err(AppendError::Unavailable(e)) if tries + 1 < TRIES => {
                tries += 1;
                tracing::warn!(game = %game.id, error = %e, "event log unavailable; retrying");
                tokio::time::sleep(Duration::from_millis(200 << tries)).await;
            }
            Err(e) => return Err(e).with_context(|| format!("appending {}", game.id)),
        }
    }
}

/// Imports `files` into `log` as archived games (see the module doc), `event` recorded with each.
///
/// # Errors
/// When the log fails (not for a record that does not replay: that is a refusal).
pub async fn import(
    log: &AnyEventLog,
    files: &[PathBuf],
    event: &str,
    progress: &ProgressBar,
) -> Result<ImportSummary> {
    let start = Instant::now();
    let mut summary = ImportSummary { files: files.len(), ..ImportSummary::default() };
    let event = event.to_string();
    // Two stages: a few records read and replayed at once (as many as there are cores: more only
    // adds threads, each with its own allocator arena), and many appends in flight.
    let readers = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let mut outcomes = futures::stream::iter(files.iter().cloned())
        .map(|file| {
            let event = event.clone();
            async move {
                let name = file.display().to_string();
                let read = tokio::task::spawn_blocking(move || -> Result<Result<ArchivedGame, String>> {
                    let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
                    Ok(ArchivedGame::from_sgf(&bytes, &event).map_err(|e| e.to_string()))
                })
                .await
                .context("the reading task")??;
                Ok::<_, anyhow::Error>((name, read))
            }
        })
        .buffered(readers)
        .map(|read| async move {
            let (name, read) = read?;
            let outcome = match read {
                Ok(game) => match append(log, &game).await? {
                    Ok(true) => Outcome::Imported(result_of(&game)),
                    Ok(false) => Outcome::Duplicate(result_of(&game)),
                    Err(reason) => Outcome::Refused(reason),
                },
                Err(reason) => Outcome::Refused(reason),
            };
            Ok::<_, anyhow::Error>((name, outcome))
        })
        .buffer_unordered(IN_FLIGHT);
    while let Some(done) = outcomes.next().await {
        let (file, outcome) = done?;
        match outcome {
            Outcome::Imported(r) => {
                summary.imported += 1;
                summary.results.push(r);
            }
            Outcome::Duplicate(r) => {
                summary.duplicates += 1;
                summary.results.push(r);
            }
            Outcome::Refused(reason) => {
                summary.refused += 1;
                summary.refusals.push(Refused { file, reason });
            }
        }
        progress.inc(1);
    }
    summary.refusals.sort_by(|a, b| a.file.cmp(&b.file));
    summary.seconds = start.elapsed().as_secs_f64();
    summary.records_per_sec = if summary.seconds > 0.0 { summary.files as f64 / summary.seconds } else { 0.0 };
    Ok(summary)
}

/// How long the rest of the last batch may take to arrive once the follower has reached it.
const LAST_BATCH_IDLE: Duration = Duration::from_secs(1);

/// Calls `each` with every event of `kind` in `log` up to its head at the start, in log order.
///
/// # Errors
/// When the log cannot be read, or `each` fails.
pub async fn read_to_head(
    log: &AnyEventLog,
    kind: AggregateKind,
    mut each: impl FnMut(&weiqi_eventlog::RecordedEvent) -> Result<()>,
) -> Result<u64> {
    let head = log.head(kind).await.with_context(|| format!("reading the {kind} log's head"))?;
    if head.is_empty_head() {
        return Ok(0);
    }
    let mut stream = log.follow(kind, Position::START).await.with_context(|| format!("following the {kind} log"))?;
    let mut n = 0;
    let mut in_last_batch = false;
    loop {
        let next = if in_last_batch {
            match tokio::time::timeout(LAST_BATCH_IDLE, stream.next()).await {
                Ok(item) => item,
                Err(_) => break,
            }
        } else {
            stream.next().await
        };
        let Some(item) = next else { break };
        let r = item.with_context(|| format!("reading the {kind} log"))?;
        if r.position >= head {
            break;
        }
        in_last_batch |= r.position.reaches(head);
        each(&r)?;
        n += 1;
    }
    Ok(n)
}

/// Calls `each` with every archived game in `log` up to its head at the start, in log order.
///
/// # Errors
/// When the log cannot be read, or an archived game does not decode (named).
pub async fn read_all(log: &AnyEventLog, mut each: impl FnMut(ArchivedGame) -> Result<()>) -> Result<u64> {
    let mut games = 0;
    read_to_head(log, AggregateKind::Archive, |r| {
        if r.event_type == codec::EVENT_TYPE {
            let game = codec::decode(&r.payload).with_context(|| format!("archived game {}", r.aggregate_id))?;
            each(game)?;
            games += 1;
        }
        Ok(())
    })
    .await?;
    Ok(games)
}

/// A progress bar over `n` files (hidden for `--json`).
pub fn bar(n: usize, hidden: bool) -> ProgressBar {
    let bar = ProgressBar::new(n as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} records, {per_sec}, eta {eta} {msg}")
            .expect("a valid template"),
    );
    if hidden {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar
}

/// How `--rate` reaches the rating system.
pub struct RateWith {
    /// The association's key file (the ranking service repairs certification cases at start, which
    /// signs; rating archived games itself signs nothing).
    pub key: PathBuf,
    /// The association's name, for a key made afresh.
    pub association: String,
    /// The rating system in force (as `weiqi up --rating-system`).
    pub system: weiqi_rating::RatingSystem,
    /// The promotion and ladder rules (as `weiqi up --promotion-rules`): the grade-to-rating maps
    /// that seed unrated players.
    pub rules: Vec<weiqi_rating::AssociationRules>,
}

/// The ranking service `--rate` rates with.
///
/// # Errors
/// The key is missing or cannot be read.
pub fn ranking_service(log: &AnyEventLog, with: RateWith) -> Result<RankingService> {
    anyhow::ensure!(
        with.key.exists(),
        "rating needs the association's key, {} (made by `weiqi up`; name it with --association-key)",
        with.key.display()
    );
    let key = weiqi_ranking::keys::load_or_create(&with.key, &with.association)
        .with_context(|| format!("reading the association key {}", with.key.display()))?;
    let mut config = weiqi_ranking::RankingConfig::new(key, with.rules);
    config.system = with.system;
    // No tournament counts for promotion here: nothing is promoted by an import.
    let results = std::sync::Arc::new(weiqi_ranking::tournaments::TournamentLog::new(
        log.clone(),
        std::sync::Arc::new(|_: &str| None),
    ));
    Ok(RankingService::new(log.clone(), results, config))
}

/// Rates the results of `summary`'s records (see `weiqi_ranking`'s `rate_archived`).
///
/// # Errors
/// The key cannot be read, or the log fails.
pub async fn rate(log: &AnyEventLog, summary: &ImportSummary, with: RateWith) -> Result<ArchiveRating> {
    let service = ranking_service(log, with)?;
    service.rate_archived(summary.results.clone()).await.context("rating the archived games")
}

/// The command: import `paths` (files and directories of `*.sgf`), then rate them if asked.
pub async fn run_import(
    log: AnyEventLog,
    paths: &[PathBuf],
    event: &str,
    json: bool,
    rate_with: Option<RateWith>,
) -> Result<ImportSummary> {
    let mut files = Vec::new();
    for p in paths {
        anyhow::ensure!(p.exists(), "{} does not exist", p.display());
        super::source::collect(p, &mut files)?;
    }
    let progress = bar(files.len(), json);
    let summary = import(&log, &files, event, &progress).await?;
    progress.finish_and_clear();
    let rating = match rate_with {
        Some(with) => {
            if !json {
                eprintln!("rating {} archived games in date order", summary.results.len());
            }
            Some(rate(&log, &summary, with).await?)
        }
        None => None,
    };
    if json {
        let mut out = serde_json::json!({
            "files": summary.files,
            "imported": summary.imported,
            "duplicates": summary.duplicates,
            "refused": summary.refused,
            "seconds": summary.seconds,
            "records_per_sec": summary.records_per_sec,
            "refusals": summary.refusals,
        });
        if let Some(r) = &rating {
            out["rating"] = serde_json::json!({
                "rated": r.rated,
                "already_rated": r.already_rated,
                "left_out": r.left_out(),
                "unmatched": r.unmatched,
                "undated": r.undated,
                "no_result": r.no_result,
                "not_registered": r.not_registered,
                "ambiguous": r.ambiguous,
                "players": r.players,
            });
        }
        println!("{out}");
    } else {
        for r in &summary.refusals {
            println!("refused  {}: {}", r.file, r.reason);
        }
        println!(
            "{} files: {} imported, {} already in the archive, {} refused, in {:.1} s ({:.0} records/s)",
            summary.files,
            summary.imported,
            summary.duplicates,
            summary.refused,
            summary.seconds,
            summary.records_per_sec
        );
        if let Some(r) = &rating {
            println!(
                "rated {} games ({} players), {} rated before; left out {}: {} with a player not here, {} undated, {} without a winner",
                r.rated,
                r.players,
                r.already_rated,
                r.left_out(),
                r.unmatched,
                r.undated,
                r.no_result
            );
            let mut names: Vec<(&String, &usize)> = r.not_registered.iter().collect();
            names.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            if !names.is_empty() {
                let shown: Vec<String> = names.iter().take(10).map(|(n, k)| format!("{n} ({k})")).collect();
                println!("  names nobody here has, most games first: {}", shown.join(", "));
            }
            for (name, n) in &r.ambiguous {
                println!("  {name} names more than one player here ({n} games left out)");
            }
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use weiqi_eventlog::{EmbeddedConfig, EmbeddedLog};

    /// The corpus's records (`WEIQI_CORPUS`, or `../shared/corpus` from the workspace root).
    fn corpus() -> Option<PathBuf> {
        let dir = std::env::var_os("WEIQI_CORPUS")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
            .join("sgf");
        if dir.is_dir() {
            return Some(dir);
        }
        assert!(std::env::var_os("WEIQI_REQUIRE_EXTERNAL").is_none(), "the SGF corpus is missing at {}", dir.display());
        None
    }

    fn files(dir: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        super::super::source::collect(dir, &mut files).unwrap();
        files
    }

    /// How many records of `files` replay (as `weiqi sgf check` counts them).
    /// Each `(name, record)` written as a file in `dir`, in order.
    fn written(dir: &Path, records: &[(&str, impl AsRef<[u8]>)]) -> Vec<PathBuf> {
        records
            .iter()
            .map(|(name, sgf)| {
                let f = dir.join(name);
                std::fs::write(&f, sgf).unwrap();
                f
            })
            .collect()
    }

    fn replaying(files: &[PathBuf]) -> usize {
        files.iter().filter(|f| weiqi_sgf::load(&std::fs::read(f).unwrap()).is_ok()).count()
    }

    /// The whole corpus in, as many games as replay; a second import adds nothing; ten records
    /// exported back replay to the same final position; nothing reaches the live game log.
    async fn imports_the_corpus(log: AnyEventLog, name: &str) {
        let Some(dir) = corpus() else { return };
        let files = files(&dir);
        let bar = ProgressBar::hidden();
        let first = import(&log, &files, "corpus", &bar).await.unwrap();
        // Every record that replays, once: the corpus holds some files twice under other names.
        let expected = replaying(&files);
        let distinct = files
            .iter()
            .filter_map(|f| {
                let bytes = std::fs::read(f).unwrap();
                weiqi_sgf::load(&bytes).is_ok().then(|| weiqi_archive::archive_id(&bytes).0)
            })
            .collect::<std::collections::HashSet<_>>()
            .len();
        println!(
            "{name}: {} files, {} imported, {} refused, in {:.2} s ({:.0} records/s)",
            first.files, first.imported, first.refused, first.seconds, first.records_per_sec
        );
        assert_eq!(first.imported, distinct, "{name}: every record that replays, once");
        assert_eq!(first.imported + first.duplicates, expected, "{name}: as `weiqi sgf check` counts them");
        assert_eq!(first.refused, files.len() - expected);
        let second = import(&log, &files, "corpus", &bar).await.unwrap();
        assert_eq!((second.imported, second.duplicates), (0, expected), "{name}: a second import adds nothing");

        let mut archived = Vec::new();
        let n = read_all(&log, |g| {
            archived.push(g);
            Ok(())
        })
        .await
        .unwrap();
        assert_eq!(n as usize, distinct);
        let by_id: std::collections::HashMap<&str, &ArchivedGame> =
            archived.iter().map(|g| (g.id.as_str(), g)).collect();
        let mut exported = Vec::new();
        super::super::export::export_records(&log, false, &bar, |id, sgf| {
            if exported.len() < 10 {
                exported.push((id.to_string(), sgf.to_vec()));
            }
            Ok(())
        })
        .await
        .unwrap();
        assert_eq!(exported.len(), 10);
        for (id, sgf) in &exported {
            let (_, game) = weiqi_sgf::load(sgf).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(game.hash(), by_id[id.as_str()].final_hash, "{id} replays to the same position");
        }
        assert!(log.head(AggregateKind::Game).await.unwrap().is_empty_head(), "no live game was written");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_corpus_imports_once_into_the_embedded_log() {
        let dir = tempfile::tempdir().unwrap();
        let log: AnyEventLog = EmbeddedLog::open(dir.path().join("e.redb"), EmbeddedConfig::default()).unwrap().into();
        imports_the_corpus(log, "embedded").await;
    }

    /// A record larger than the log takes is a refusal of that file; the files after it are read and
    /// imported (the whole import once stopped there).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_record_over_the_event_size_limit_is_refused_and_the_import_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let config = EmbeddedConfig { max_batch_bytes: 4_096, ..EmbeddedConfig::default() };
        let log: AnyEventLog = EmbeddedLog::open(dir.path().join("e.redb"), config).unwrap().into();
        let comment = "长".repeat(3_000);
        let records = [
            ("a.sgf", "(;GM[1]FF[4]SZ[19]PB[Li]PW[Wang]RE[B+R];B[pd];W[dp])".to_string()),
            ("big.sgf", format!("(;GM[1]FF[4]SZ[19]PB[Li]PW[Wang]GC[{comment}]RE[B+R];B[pd];W[dd])")),
            ("c.sgf", "(;GM[1]FF[4]SZ[19]PB[Zhao]PW[Sun]RE[W+R];B[pp];W[dd])".to_string()),
        ];
        let files = written(dir.path(), &records);
        let summary = import(&log, &files, "", &ProgressBar::hidden()).await.expect("the import goes on");
        assert_eq!((summary.imported, summary.refused), (2, 1), "{summary:?}");
        assert!(summary.refusals[0].reason.contains("exceeds the limit"), "{:?}", summary.refusals);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_corpus_imports_once_into_jetstream() {
        let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
        let log = weiqi_eventlog::JetStreamLog::connect(&nats.url(), Default::default()).await.unwrap();
        imports_the_corpus(AnyEventLog::JetStream(log), "jetstream").await;
    }

    /// `--rate`: registered players' archived games are rated oldest first (a player found by Latin
    /// name, another by Chinese name, both seeded from the ranks of their first game), the others
    /// are listed and left out, and a second run changes nothing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn rated_records_move_the_ratings_of_players_registered_here_once() {
        use weiqi_rating::PlayerId;
        let dir = tempfile::tempdir().unwrap();
        let log: AnyEventLog = EmbeddedLog::open(dir.path().join("e.redb"), EmbeddedConfig::default()).unwrap().into();
        let key = dir.path().join("association.key");
        weiqi_ranking::keys::load_or_create(&key, "cwa").unwrap();
        let with = || RateWith {
            key: key.clone(),
            association: "cwa".into(),
            system: weiqi_rating::RatingSystem::Elo(Default::default()),
            rules: weiqi_ranking::shipped_rules(),
        };
        let service = ranking_service(&log, with()).unwrap();
        for (id, zh, latin) in [("li", "李明", "Li Ming"), ("wang", "王芳", "Wang Fang")] {
            let profile = weiqi_ranking::registry::Profile {
                id: PlayerId(id.into()),
                name_zh: zh.into(),
                name_latin: latin.into(),
                ..Default::default()
            };
            service.register_player(profile, None, "org", &format!("reg-{id}")).await.unwrap();
        }
        let records = [
            // Li (by Latin name, any case) beats Wang (by Chinese name) twice; the later game is
            // listed first and still rated second.
            ("b.sgf", "(;GM[1]FF[4]SZ[19]KM[7.5]DT[2001-03-04]PB[li ming]BR[3d]PW[王芳]WR[2段]RE[B+R];B[pd])"),
            ("a.sgf", "(;GM[1]FF[4]SZ[19]KM[7.5]DT[2000-01-02]PB[王芳]BR[2段]PW[Li Ming]WR[3d]RE[W+3.5];B[pd])"),
            // A stranger, a game without a date, a void game.
            ("c.sgf", "(;GM[1]FF[4]SZ[19]DT[2002-01-01]PB[Stranger]PW[Li Ming]RE[B+R];B[pd])"),
            ("d.sgf", "(;GM[1]FF[4]SZ[19]PB[Li Ming]PW[王芳]RE[B+R];B[pd])"),
            ("e.sgf", "(;GM[1]FF[4]SZ[19]DT[2003-01-01]PB[Li Ming]PW[王芳]RE[Void];B[pd])"),
        ];
        let files = written(dir.path(), &records);
        let summary = import(&log, &files, "club archive", &ProgressBar::hidden()).await.unwrap();
        assert_eq!(summary.imported, 5);
        let rated = rate(&log, &summary, with()).await.unwrap();
        assert_eq!((rated.rated, rated.already_rated), (2, 0), "{rated:?}");
        assert_eq!((rated.unmatched, rated.undated, rated.no_result), (1, 1, 1), "{rated:?}");
        assert_eq!(rated.not_registered.get("Stranger"), Some(&1), "{rated:?}");
        assert_eq!(rated.players, 2);
        // Both were seeded from the ranks of their first game (3d above 2段), before it.
        let seed = |p: &str| rated.seeded.iter().find(|s| s.0.0 == p).map(|s| s.1);
        assert!(seed("li").unwrap() > seed("wang").unwrap(), "{:?}", rated.seeded);
        let li = service.rating(&PlayerId("li".into())).await.unwrap();
        let wang = service.rating(&PlayerId("wang".into())).await.unwrap();
        let (li, wang) = (li.view.unwrap(), wang.view.unwrap());
        assert!(li.rating > wang.rating, "li won both: {li:?} {wang:?}");
        assert_eq!((li.games, wang.games), (2, 2));
        // Again: nothing new is rated.
        let again = import(&log, &files, "club archive", &ProgressBar::hidden()).await.unwrap();
        let second = rate(&log, &again, with()).await.unwrap();
        assert_eq!((second.rated, second.already_rated), (0, 2), "{second:?}");
        // Without the key, rating is refused with what to do.
        let e = rate(&log, &again, RateWith { key: dir.path().join("missing.key"), ..with() }).await.unwrap_err();
        assert!(e.to_string().contains("--association-key"), "{e}");
    }

    #[tokio::test]
    async fn a_record_that_does_not_replay_is_refused_and_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let log: AnyEventLog = EmbeddedLog::open(dir.path().join("e.redb"), EmbeddedConfig::default()).unwrap().into();
        let good = dir.path().join("good.sgf");
        let bad = dir.path().join("bad.sgf");
        std::fs::write(&good, "(;GM[1]FF[4]SZ[9]RE[B+R];B[ee];W[cc])").unwrap();
        std::fs::write(&bad, "(;GM[1]FF[4]SZ[9];B[ee];W[ee])").unwrap();
        let done = import(&log, &[good, bad.clone()], "", &ProgressBar::hidden()).await.unwrap();
        assert_eq!((done.imported, done.refused), (1, 1));
        assert_eq!(done.refusals[0].file, bad.display().to_string());
        assert!(done.refusals[0].reason.contains("move 2"), "{}", done.refusals[0].reason);
        assert_eq!(read_all(&log, |_| Ok(())).await.unwrap(), 1);
    }
}
