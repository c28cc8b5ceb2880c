//! `weiqi sgf export`: every game in the event log as an SGF file, for archives and analysts.
//!
//! Reads the log directly (`--nats URL`, or the embedded log of `--data-dir` while `weiqi up` is
//! stopped: redb allows one process), folds each game's events through the game domain (every
//! recorded position hash re-checked) and writes `<out>/<game id>.sgf` when the game ends. Games still
//! in play are written too with `--unfinished`. A game whose log does not replay is reported and
//! skipped, never written. Archived games (`weiqi sgf import`) are written as the records they were,
//! byte for byte.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use weiqi_eventlog::{AggregateKind, AnyEventLog};
use weiqi_game::convert::fold_recorded;
use weiqi_game::domain::{GameState, Phase};

/// What an export did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ExportSummary {
    /// Game events read.
    pub events: u64,
    /// Records written.
    pub written: u64,
    /// Games still in play (written only when asked).
    pub unfinished: u64,
    /// Games whose log does not replay: id and reason.
    pub corrupt: Vec<(String, String)>,
    /// Archived games written (their records as they were imported).
    pub archived: u64,
}

struct Folding {
    state: GameState,
    first_ms: i64,
    broken: Option<String>,
}

/// Exports every game of `log` up to its head at the start, calling `write(game id, sgf)` for each.
///
/// # Errors
/// When the log cannot be read, or `write` fails.
pub async fn export_records(
    log: &AnyEventLog,
    unfinished: bool,
    progress: &ProgressBar,
    mut write: impl FnMut(&str, &[u8]) -> Result<()>,
) -> Result<ExportSummary> {
    // Archived games first: each is its record, byte for byte.
    let archived = super::archive::read_all(log, |g| write(&g.id, &g.sgf)).await?;
    let mut summary = ExportSummary { archived, ..ExportSummary::default() };
    let mut games: HashMap<String, Folding> = HashMap::new();
    let events = super::archive::read_to_head(log, AggregateKind::Game, |r| {
        progress.inc(1);
        let id = r.aggregate_id.as_str().to_owned();
        let entry = games.entry(id.clone()).or_insert_with(|| Folding {
            state: GameState::default(),
            first_ms: r.timestamp_ms,
            broken: None,
        });
        if entry.broken.is_some() {
            return Ok(());
        }
        if let Err(why) = fold_recorded(&mut entry.state, r) {
            entry.broken = Some(why);
            return Ok(());
        }
        if entry.state.phase == Phase::Ended
            && let Some(done) = games.remove(&id)
        {
            write_one(&id, &done, &mut write, &mut summary)?;
        }
        Ok(())
    })
    .await?;
    summary.events = events;
    let mut rest: Vec<(String, Folding)> = games.into_iter().collect();
    rest.sort_by(|a, b| a.0.cmp(&b.0));
    for (id, f) in rest {
        if let Some(why) = f.broken {
            summary.corrupt.push((id, why));
        } else if f.state.game.is_some() {
            summary.unfinished += 1;
            if unfinished {
                write_one(&id, &f, &mut write, &mut summary)?;
            }
        }
    }
    Ok(summary)
}

fn write_one(
    id: &str,
    f: &Folding,
    write: &mut impl FnMut(&str, &[u8]) -> Result<()>,
    summary: &mut ExportSummary,
) -> Result<()> {
    let date = weiqi_rating::CivilDate::from_millis(weiqi_rating::Millis(f.first_ms)).to_string();
    if let Some(sgf) = weiqi_game::record::game_record(id, &f.state, Some(&date)) {
        write(id, sgf.as_bytes())?;
        summary.written += 1;
    }
    Ok(())
}

/// The command: export to `out`, with a progress bar and a summary.
pub async fn run(log: AnyEventLog, out: &Path, unfinished: bool) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {pos} events, {per_sec} {msg}").expect("a valid template"));
    bar.enable_steady_tick(Duration::from_millis(200));
    let summary = export_records(&log, unfinished, &bar, |id, sgf| {
        let path: PathBuf = out.join(format!("{id}.sgf"));
        std::fs::write(&path, sgf).with_context(|| format!("writing {}", path.display()))
    })
    .await?;
    bar.finish_and_clear();
    println!(
        "{} events read; {} records and {} archived records written to {}; {} games unfinished{}; {} logs do not replay",
        summary.events,
        summary.written,
        summary.archived,
        out.display(),
        summary.unfinished,
        if unfinished { " (written)" } else { " (not written: --unfinished)" },
        summary.corrupt.len()
    );
    for (id, why) in &summary.corrupt {
        eprintln!("  {id}: {why}");
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::Arc;
    use weiqi_eventlog::{EmbeddedConfig, EmbeddedLog};
    use weiqi_game::bus::answer;
    use weiqi_game::convert::wire_command as command;
    use weiqi_game::domain::{Actor, PlayerId};
    use weiqi_game::service::GameService;
    use weiqi_proto::v1 as pb;
    use weiqi_proto::v1::game_command::Command as C;

    pub(crate) async fn game(svc: &GameService<AnyEventLog>, id: &str, moves: &[(u32, u32)], resign: bool) {
        let org = Actor::System("test".into());
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
        for (n, (x, y)) in moves.iter().enumerate() {
            let who = Actor::Player(PlayerId(if n % 2 == 0 { "ann" } else { "bob" }.into()));
            let mv = C::Play(pb::PlayMoveRequest {
                game_id: id.into(),
                point: Some(pb::Point { x: *x, y: *y }),
                ..Default::default()
            });
            answer(svc, &command(id, &format!("{id}-m{n}"), &who, mv), &[]).await;
        }
        if resign {
            let bob = Actor::Player(PlayerId("bob".into()));
            let r = C::Resign(pb::GameRequest { game_id: id.into(), request_id: format!("{id}-r") });
            answer(svc, &command(id, &format!("{id}-r"), &bob, r), &[]).await;
        }
    }

    #[tokio::test]
    async fn every_ended_game_is_exported_and_replays_on_the_embedded_log() {
        let dir = tempfile::tempdir().unwrap();
        let log: AnyEventLog = EmbeddedLog::open(dir.path().join("e.redb"), EmbeddedConfig::default()).unwrap().into();
        exports(log).await;
    }

    #[tokio::test]
    async fn every_ended_game_is_exported_and_replays_on_jetstream() {
        let Some(nats) = weiqi_testkit::nats_or_skip() else { return };
        let log = weiqi_eventlog::JetStreamLog::connect(&nats.url(), Default::default()).await.unwrap();
        exports(AnyEventLog::JetStream(log)).await;
    }

    async fn exports(log: AnyEventLog) {
        let svc = Arc::new(GameService::new(log.clone()));
        game(&svc, "g-one", &[(4, 4), (2, 2), (6, 6)], true).await;
        game(&svc, "g-two", &[(3, 3)], false).await;
        game(&svc, "g-three", &[(4, 4), (4, 5)], true).await;
        let bar = ProgressBar::hidden();
        let mut written = Vec::new();
        let summary = export_records(&log, false, &bar, |id, sgf| {
            written.push((id.to_owned(), sgf.to_vec()));
            Ok(())
        })
        .await
        .unwrap();
        assert_eq!((summary.written, summary.unfinished, summary.corrupt.len()), (2, 1, 0));
        let mut ids: Vec<&str> = written.iter().map(|(id, _)| id.as_str()).collect();
        ids.sort();
        assert_eq!(ids, ["g-one", "g-three"]);
        for (id, sgf) in &written {
            let (record, game) = weiqi_sgf::load(sgf).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!((record.result.as_deref(), record.game_name.as_deref()), (Some("B+R"), Some(id.as_str())));
            let want = if id == "g-one" { 3 } else { 2 };
            assert_eq!(game.move_number(), want, "{id}");
        }
        // With --unfinished, the game in play is written too.
        let mut all = 0;
        let again = export_records(&log, true, &bar, |_, _| {
            all += 1;
            Ok(())
        })
        .await
        .unwrap();
        assert_eq!((again.written, all), (3, 3));
        assert_eq!(again.events, summary.events);
    }
}
