//! What several commands share, and nothing else, so that no command depends on another: where the
//! event log is (`--nats` or `--data-dir`), the SGF files a path names, and the rating system a command
//! rates with (`--rating-system`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The log: JetStream at `nats`, else the embedded log in `data_dir`, which must exist unless
/// `create` (reading never makes an empty log; importing does).
pub async fn open_log(nats: Option<&str>, data_dir: &Path, create: bool) -> Result<weiqi_eventlog::AnyEventLog> {
    use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog, JetStreamConfig, JetStreamLog};
    Ok(match nats {
        Some(url) => AnyEventLog::JetStream(
            JetStreamLog::connect(url, JetStreamConfig::default())
                .await
                .with_context(|| format!("connecting to NATS JetStream at {url}"))?,
        ),
        None => {
            let path = data_dir.join("events.redb");
            if create {
                std::fs::create_dir_all(data_dir).with_context(|| format!("creating {}", data_dir.display()))?;
            }
            anyhow::ensure!(
                path.exists() || create,
                "no embedded event log at {} (use --data-dir or --nats)",
                path.display()
            );
            AnyEventLog::Embedded(
                // One pass over the log (import, export, statistics): a small cache bounds memory.
                EmbeddedLog::open(&path, EmbeddedConfig::streaming())
                    .with_context(|| format!("opening {} (is `weiqi up` still running on it?)", path.display()))?,
            )
        }
    })
}

/// The files to check under `path`: `path` itself if it is a file (named explicitly, it is always
/// checked), else every `*.sgf` file below it (any case), so a README beside the records is not taken
/// for a record.
pub fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if path.is_dir() {
        collect_dir(path, out)
    } else {
        out.push(path.to_path_buf());
        Ok(())
    }
}

fn collect_dir(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading directory {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    entries.sort();
    for e in entries {
        if e.is_dir() {
            collect_dir(&e, out)?;
        } else if e.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
            out.push(e);
        }
    }
    Ok(())
}

/// The rating system the ranking service runs (`--rating-system`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RatingChoice {
    /// Glicko-2 with weekly rating periods: the default for online leagues.
    Glicko2,
    /// The EGF GoR formula: a tournament's games rated together when its results are final, other
    /// games one by one.
    Egf,
    /// EGF GoR with the komi-aware effective handicap of the other systems instead of the EGD's
    /// `100·(H − 0.5)` (see `weiqi_rating::EgfHandicap`): better odds when komi varies, but ratings
    /// that drift from the EGD's.
    EgfEffective,
    /// Elo (K = 32), game by game.
    Elo,
}

impl RatingChoice {
    /// The system with its default settings.
    #[must_use]
    pub fn system(self) -> weiqi_rating::RatingSystem {
        use weiqi_rating::RatingSystem as S;
        match self {
            RatingChoice::Glicko2 => S::Glicko2(Default::default()),
            RatingChoice::Egf => S::Egf(Default::default()),
            RatingChoice::EgfEffective => S::Egf(weiqi_rating::EgfSettings {
                handicap: weiqi_rating::EgfHandicap::Effective,
                ..Default::default()
            }),
            RatingChoice::Elo => S::Elo(Default::default()),
        }
    }
}
