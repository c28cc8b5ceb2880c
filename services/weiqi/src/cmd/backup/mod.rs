//! `weiqi backup` and `weiqi restore`: every kind of the event log to one portable file, and back into
//! an empty log, embedded or JetStream (which is also how an association moves from `weiqi up` to a
//! NATS cluster).
//!
//! **Backup** takes every kind's head first (the cut), then reads each kind in log order with
//! `follow` up to that head, batch by batch, into the file ([`format`]): appends that land while it
//! runs are after the cut and not in the file. It streams: one batch is in memory at a time, the file
//! is written as `FILE.partial` and renamed when complete and synced. A running `weiqi up` serves the
//! same backup of its own (embedded) log to administrators ([`http`]).
//!
//! **Restore** reads the file three times, never holding it whole:
//! 1. checks it end to end (every record's CRC, each kind's counts and SHA-256, the trailer's totals and
//!    digest, zstd's checksum): a damaged or truncated file is refused with the position, and nothing
//!    is written;
//! 2. refuses a target that is not empty (naming what is there), then writes the batches back with a
//!    `weiqi_eventlog::Restorer` per kind: the same aggregates, sequences, batch boundaries, command ids,
//!    times, types, payloads and headers, in the file's order within each kind, many appends in flight
//!    (the embedded log commits them in groups, JetStream pipelines its acknowledgements). A failure
//!    says what was written before it;
//! 3. reads every kind back from the target, compares it with the file's SHA-256 of that kind, and
//!    replays every aggregate through its domain ([`verify`]), reported per kind.
//!
//! **Keys are not in a backup.** The association's signing key (`<data dir>/association.key`) and the
//! server's token secret are files beside the log, not events: a backup says so, and how to carry
//! them. A restore lists the keys that signed the certificates in the log and warns when the target's
//! data directory does not hold that key (every such certificate would verify `wrong_key`, and
//! `weiqi up` would make a new key). The backup file, like the embedded log and the keys, is written
//! readable by its owner only (0600).

pub mod format;
pub mod http;
pub mod verify;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use futures::StreamExt;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use weiqi_eventlog::{
    AggregateId, AggregateKind, AnyEventLog, CommandId, EventLog, Headers, NewEvent, Position, RecordedEvent,
    StoredBatch,
};
use weiqi_proto::v1 as pb;

use format::{ContentDigest, Counts, Item, Reader, Writer};

/// Restored appends awaiting their acknowledgement at once.
const IN_FLIGHT: usize = 1024;
/// Aggregates replayed at once after a restore.
const REPLAYS_IN_FLIGHT: usize = 32;
/// How long a kind's follower may send nothing before its head is reached.
const IDLE: Duration = Duration::from_secs(60);
/// Failures listed per kind.
const LISTED: usize = 10;

/// What `weiqi backup` says about the keys it does not carry.
pub const KEYS_NOT_INCLUDED: &str = "The association's signing key and the server's token secret are not in this backup: \
they are files in the data directory (association.key, association.key.pub and the secret). Copy them to the new \
machine's data directory yourself, over a channel you trust, before `weiqi up` starts there; without association.key \
the certificates in this log verify as signed by an unknown key.";

/// The signing keys of the certificates in `log` (key id → certificates), read from the
/// certification cases.
///
/// # Errors
/// When the log cannot be read.
pub async fn certificate_keys(log: &AnyEventLog) -> Result<BTreeMap<String, u64>> {
    let head = log.head(AggregateKind::Case).await.context("reading the cases' head")?;
    let mut keys = BTreeMap::new();
    if Position::START.reaches(head) {
        return Ok(keys);
    }
    let mut events = log.follow(AggregateKind::Case, Position::START).await.context("reading the cases")?;
    while let Some(item) = tokio::time::timeout(IDLE, events.next()).await.ok().flatten() {
        let recorded = item.context("reading the cases")?;
        if let Ok(weiqi_rating::CaseEvent::CertificateIssued { certificate, .. }) =
            weiqi_ranking::codec::case::read_case(&recorded)
        {
            *keys.entry(certificate.body.key_id.clone()).or_insert(0) += 1;
        }
        if recorded.position.reaches(head) {
            break;
        }
    }
    Ok(keys)
}

/// The signing keys of `log`'s certificates that `data_dir`'s `association.key` is not (all of them
/// when there is no key there), with how many certificates each signed.
///
/// # Errors
/// When the log cannot be read.
pub async fn unknown_signing_keys(log: &AnyEventLog, data_dir: &Path) -> Result<Vec<(String, u64)>> {
    let have = std::fs::read_to_string(data_dir.join("association.key"))
        .ok()
        .and_then(|text| weiqi_rating::parse_signing_key(&text).ok())
        .map(|k| k.key_id());
    Ok(certificate_keys(log).await?.into_iter().filter(|(id, _)| Some(id) != have.as_ref()).collect())
}

/// `weiqi backup`.
#[derive(clap::Args, Debug)]
pub struct BackupArgs {
    /// The backup file to write (written as FILE.partial, renamed when complete).
    #[arg(long, short)]
    pub out: PathBuf,
    /// NATS server URL: back up JetStream (live: appends after the start are not in the backup).
    #[arg(long, env = "WEIQI_NATS_URL")]
    pub nats: Option<String>,
    /// Data directory of the embedded log (its file allows one process: while `weiqi up` runs on it,
    /// ask that process instead, `GET /admin/backup` with an administrator's token).
    #[arg(long, default_value = "./weiqi-data", env = "WEIQI_DATA_DIR")]
    pub data_dir: PathBuf,
    /// Print one JSON object on the last line: events, aggregates, batches, bytes, seconds, kinds.
    #[arg(long)]
    pub json: bool,
}

/// `weiqi restore`.
#[derive(clap::Args, Debug)]
pub struct RestoreArgs {
    /// The backup file.
    pub file: PathBuf,
    /// NATS server URL: restore into JetStream (its weiqi streams must be empty).
    #[arg(long, env = "WEIQI_NATS_URL")]
    pub nats: Option<String>,
    /// Data directory of the embedded log to create (it must hold no events).
    #[arg(long, default_value = "./weiqi-data", env = "WEIQI_DATA_DIR")]
    pub data_dir: PathBuf,
    /// JetStream stream replicas of the streams created (3 on a 3-node cluster).
    #[arg(long, default_value_t = 1, env = "WEIQI_STREAM_REPLICAS")]
    pub replicas: usize,
    /// Print one JSON object on the last line: events, aggregates, batches, bytes, seconds, kinds.
    #[arg(long)]
    pub json: bool,
}

/// One kind in a backup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KindCounts {
    /// The kind.
    pub kind: String,
    /// Batches (appends).
    pub batches: u64,
    /// Events.
    pub events: u64,
    /// Aggregates.
    pub aggregates: u64,
}

impl KindCounts {
    fn new(kind: &str, c: Counts) -> KindCounts {
        KindCounts { kind: kind.to_string(), batches: c.batches, events: c.events, aggregates: c.aggregates }
    }
}

/// What a backup wrote.
#[derive(Debug, Clone, Serialize)]
pub struct BackupSummary {
    /// Events.
    pub events: u64,
    /// Aggregates.
    pub aggregates: u64,
    /// Batches.
    pub batches: u64,
    /// Size of the file.
    pub bytes: u64,
    /// Seconds it took.
    pub seconds: f64,
    /// Per kind, in the file's order.
    pub kinds: Vec<KindCounts>,
}

/// One kind after a restore.
#[derive(Debug, Clone, Serialize)]
pub struct KindRestored {
    /// The kind and what the file held of it.
    #[serde(flatten)]
    pub counts: KindCounts,
    /// Whether the target's kind, read back, is the file's exactly (same SHA-256 and counts).
    pub identical: bool,
    /// Aggregates replayed through their domain without error.
    pub replayed: u64,
    /// Those that did not (the first few, with the reason).
    pub failures: Vec<String>,
}

/// What a restore did.
#[derive(Debug, Clone, Serialize)]
pub struct RestoreSummary {
    /// Events.
    pub events: u64,
    /// Aggregates.
    pub aggregates: u64,
    /// Batches.
    pub batches: u64,
    /// Size of the file.
    pub bytes: u64,
    /// Seconds it took (check, write and verify).
    pub seconds: f64,
    /// Seconds of the write alone.
    pub write_seconds: f64,
    /// The weiqi version and the source the file names.
    pub written_by: String,
    /// The source the file names.
    pub source: String,
    /// Per kind.
    pub kinds: Vec<KindRestored>,
    /// Signing keys of certificates in the log that the target's data directory does not hold, with
    /// the number of certificates each signed (filled by `run_restore`).
    pub unknown_signing_keys: Vec<(String, u64)>,
}

impl RestoreSummary {
    /// Whether every kind came back identical and every aggregate replayed.
    pub fn ok(&self) -> bool {
        self.kinds.iter().all(|k| k.identical && k.failures.is_empty() && k.replayed == k.counts.aggregates)
    }
}

/// A progress bar over `n` batches (hidden for `--json`).
fn bar(n: u64, hidden: bool) -> ProgressBar {
    let bar = ProgressBar::new(n);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} batches, {per_sec}, eta {eta} {msg}")
            .expect("a valid template"),
    );
    if hidden {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar
}

pub(crate) fn now_ms() -> i64 {
    use weiqi_aggregate::Environment as _;
    weiqi_aggregate::SystemEnvironment.now().0
}

/// The batch `events` (one append, in order) as the file keeps it.
fn batch_of(events: &[RecordedEvent]) -> pb::BackupBatch {
    let first = &events[0];
    pb::BackupBatch {
        aggregate_id: first.aggregate_id.as_str().to_string(),
        first_sequence: first.sequence,
        command_id: first.command_id.as_str().to_string(),
        timestamp_ms: first.timestamp_ms,
        events: events
            .iter()
            .map(|e| pb::BackupEvent {
                event_type: e.event_type.clone(),
                payload: e.payload.to_vec(),
                headers: e
                    .headers
                    .iter()
                    .map(|(n, v)| pb::BackupEventHeader { name: n.to_string(), value: v.to_string() })
                    .collect(),
            })
            .collect(),
    }
}

/// A batch of the file as the log takes it back.
///
/// # Errors
/// An id that is not a valid name, or a batch without events.
pub fn stored_batch(b: &pb::BackupBatch) -> Result<StoredBatch> {
    anyhow::ensure!(!b.events.is_empty(), "a batch of {} without events", b.aggregate_id);
    anyhow::ensure!(b.first_sequence >= 1, "a batch of {} at sequence 0", b.aggregate_id);
    Ok(StoredBatch {
        aggregate_id: AggregateId::new(&b.aggregate_id)
            .with_context(|| format!("aggregate id {:?}", b.aggregate_id))?,
        first_sequence: b.first_sequence,
        command_id: CommandId::new(&b.command_id).with_context(|| format!("command id {:?}", b.command_id))?,
        timestamp_ms: b.timestamp_ms,
        events: b
            .events
            .iter()
            .map(|e| NewEvent {
                event_type: e.event_type.clone(),
                payload: bytes::Bytes::copy_from_slice(&e.payload),
                headers: e.headers.iter().map(|h| (h.name.clone(), h.value.clone())).collect::<Headers>(),
            })
            .collect(),
    })
}

/// Calls `each` with every batch of `kind` before `head`, in log order, streaming.
///
/// # Errors
/// The log fails, or `each` does.
pub async fn read_batches(
    log: &AnyEventLog,
    kind: AggregateKind,
    head: Position,
    mut each: impl FnMut(pb::BackupBatch) -> Result<()>,
) -> Result<()> {
    if head.is_empty_head() {
        return Ok(());
    }
    let mut stream = log.follow(kind, Position::START).await.with_context(|| format!("following the {kind} log"))?;
    let mut open: Vec<RecordedEvent> = Vec::new();
    loop {
        let event = tokio::time::timeout(IDLE, stream.next())
            .await
            .map_err(|_| anyhow!("the {kind} log sent nothing for {IDLE:?} before reaching its head {head}"))?
            .ok_or_else(|| anyhow!("the {kind} log's stream ended before its head {head}"))?
            .with_context(|| format!("reading the {kind} log"))?;
        if event.position >= head {
            break;
        }
        if open.first().is_some_and(|o| o.position.batch() == event.position.batch()) {
            open.push(event);
            continue;
        }
        if !open.is_empty() {
            each(batch_of(&open))?;
            open.clear();
        }
        if event.position.reaches(head) {
            // The last batch before the head: read it whole from its aggregate (the follower would
            // only say it is complete when a later append arrives).
            let batch = event.position.batch();
            let events: Vec<RecordedEvent> = log
                .read(kind, &event.aggregate_id, event.sequence)
                .await
                .with_context(|| format!("reading {kind} {}", event.aggregate_id))?
                .into_iter()
                .take_while(|e| e.position.batch() == batch)
                .collect();
            anyhow::ensure!(!events.is_empty(), "the last {kind} batch {batch} vanished");
            return each(batch_of(&events));
        }
        open.push(event);
    }
    if !open.is_empty() {
        each(batch_of(&open))?;
    }
    Ok(())
}

/// The path a file is written at until it is complete.
fn partial(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// Backs up every kind of `log` into `out` (see the module doc); `source` names the log in the
/// header.
///
/// # Errors
/// The log or the file fails; no file is left at `out` then.
pub async fn backup(log: &AnyEventLog, source: &str, out: &Path, progress: &ProgressBar) -> Result<BackupSummary> {
    let started = Instant::now();
    let started_at_ms = now_ms();
    let mut heads = Vec::new();
    for kind in AggregateKind::ALL {
        heads.push((kind, log.head(kind).await.with_context(|| format!("reading the {kind} log's head"))?));
    }
    progress.set_length(heads.iter().map(|(_, h)| h.batch().saturating_sub(1)).sum());
    let header = pb::BackupHeader {
        weiqi_version: env!("CARGO_PKG_VERSION").to_string(),
        started_at_ms,
        source: source.to_string(),
        kinds: heads
            .iter()
            .map(|(kind, head)| pb::BackupKindHead { kind: kind.as_str().to_string(), head: head.raw() })
            .collect(),
    };
    let tmp = partial(out);
    let written = async {
        let mut writer = Writer::create(&tmp, header).with_context(|| format!("creating {}", tmp.display()))?;
        let mut kinds = Vec::new();
        for (kind, head) in &heads {
            writer.start_kind(kind.as_str())?;
            read_batches(log, *kind, *head, |b| {
                writer.batch(b)?;
                progress.inc(1);
                Ok(())
            })
            .await?;
            kinds.push(KindCounts::new(kind.as_str(), writer.end_kind()?));
        }
        let totals = writer.finish().with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, out).with_context(|| format!("renaming {} to {}", tmp.display(), out.display()))?;
        anyhow::Ok((totals, kinds))
    }
    .await;
    let (totals, kinds) = match written {
        Ok(done) => done,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    Ok(BackupSummary {
        events: totals.events,
        aggregates: totals.aggregates,
        batches: totals.batches,
        bytes: std::fs::metadata(out)?.len(),
        seconds: started.elapsed().as_secs_f64(),
        kinds,
    })
}

/// What the check of a file found.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The header.
    pub header: pb::BackupHeader,
    /// Each kind's end, in order.
    pub kinds: Vec<pb::BackupKindEnd>,
    /// The totals.
    pub totals: Counts,
}

/// Reads `file` end to end and checks everything (see [`format`]); every batch is also checked to
/// be one the log can take back.
///
/// # Errors
/// What is wrong and where.
pub fn check(file: &Path) -> Result<Checked> {
    let mut reader = Reader::open(file)?;
    let mut header = None;
    let mut kinds = Vec::new();
    let mut totals = None;
    while let Some(item) = reader.next()? {
        match item {
            Item::Header(h) => {
                for k in &h.kinds {
                    anyhow::ensure!(
                        AggregateKind::parse(&k.kind).is_some(),
                        "the file holds kind {:?}, which this version of weiqi does not know",
                        k.kind
                    );
                }
                header = Some(h);
            }
            Item::KindStart(kind) => {
                anyhow::ensure!(AggregateKind::parse(&kind).is_some(), "a section of unknown kind {kind:?}");
            }
            Item::Batch(b) => {
                stored_batch(&b).with_context(|| format!("a batch of the file ({} sections read)", kinds.len()))?;
            }
            Item::KindEnd(end) => kinds.push(end),
            Item::Trailer(t) => {
                totals = Some(Counts { batches: t.batches, events: t.events, aggregates: t.aggregates });
            }
        }
    }
    Ok(Checked {
        header: header.ok_or_else(|| anyhow!("no header"))?,
        kinds,
        totals: totals.ok_or_else(|| anyhow!("no trailer"))?,
    })
}

/// What a target holds already, kind by kind (empty: nothing).
async fn contents(log: &AnyEventLog) -> Result<Vec<String>> {
    let mut found = Vec::new();
    for kind in AggregateKind::ALL {
        let head = log.head(kind).await.with_context(|| format!("reading the target's {kind} head"))?;
        if head.is_empty_head() {
            continue;
        }
        let mut stream = log.follow(kind, Position::START).await?;
        let first = match tokio::time::timeout(Duration::from_secs(5), stream.next()).await {
            Ok(Some(Ok(e))) => format!(", the first of {} {}", kind, e.aggregate_id),
            _ => String::new(),
        };
        found.push(format!("{kind}: log head at batch {}{first}", head.batch()));
    }
    Ok(found)
}

/// How far a restore got.
#[derive(Debug, Default)]
struct Written {
    kinds: BTreeMap<String, u64>,
    batches: u64,
}

impl Written {
    fn describe(&self) -> String {
        if self.batches == 0 {
            return "nothing was written".into();
        }
        let kinds: Vec<String> = self.kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        format!(
            "{} batches were written before it ({}): the target holds a partial restore; empty it (a new --data-dir, or delete the weiqi streams) before restoring again",
            self.batches,
            kinds.join(", ")
        )
    }
}

/// Awaits one acknowledgement, counting it.
async fn settle(
    pending: &mut futures::stream::FuturesOrdered<
        impl std::future::Future<Output = (Result<weiqi_eventlog::AppendOutcome, weiqi_eventlog::AppendError>, String)>,
    >,
    written: &mut Written,
    progress: &ProgressBar,
) -> Result<()> {
    if let Some((ack, what)) = pending.next().await {
        ack.with_context(|| format!("storing {what}"))?;
        let kind = what.split_whitespace().next().unwrap_or_default().to_string();
        *written.kinds.entry(kind).or_default() += 1;
        written.batches += 1;
        progress.inc(1);
    }
    Ok(())
}

/// Writes the checked file's batches into `log`.
async fn write(log: &AnyEventLog, file: &Path, written: &mut Written, progress: &ProgressBar) -> Result<()> {
    let mut reader = Reader::open(file)?;
    let mut restorer = None;
    let mut pending = futures::stream::FuturesOrdered::new();
    while let Some(item) = reader.next()? {
        match item {
            Item::KindStart(kind) => {
                let kind = AggregateKind::parse(&kind).ok_or_else(|| anyhow!("unknown kind {kind:?}"))?;
                restorer = Some(log.restorer(kind).await.with_context(|| format!("reading the target's {kind} head"))?);
            }
            Item::Batch(b) => {
                let restorer = restorer.as_mut().ok_or_else(|| anyhow!("a batch outside a section"))?;
                let what = format!("{} {} at sequence {}", restorer.kind(), b.aggregate_id, b.first_sequence);
                let batch = stored_batch(&b)?;
                let ack = restorer.send(&batch).await.with_context(|| format!("sending {what}"))?;
                pending.push_back(async move { (ack.await, what) });
                while pending.len() >= IN_FLIGHT {
                    settle(&mut pending, written, progress).await?;
                }
            }
            Item::KindEnd(_) => {
                while !pending.is_empty() {
                    settle(&mut pending, written, progress).await?;
                }
                restorer = None;
            }
            Item::Header(_) | Item::Trailer(_) => {}
        }
    }
    while !pending.is_empty() {
        settle(&mut pending, written, progress).await?;
    }
    Ok(())
}

/// Reads `kind` back from `log` and replays each aggregate: whether it is the file's, and the
/// aggregates that do not replay.
async fn verify_kind(log: &AnyEventLog, kind: AggregateKind, end: &pb::BackupKindEnd) -> Result<KindRestored> {
    let head = log.head(kind).await?;
    let mut digest = ContentDigest::default();
    let mut counts = Counts::default();
    let mut ids = Vec::new();
    read_batches(log, kind, head, |b| {
        counts.add(&b);
        if b.first_sequence == 1 {
            ids.push(b.aggregate_id.clone());
        }
        digest.add(b);
        Ok(())
    })
    .await?;
    let identical = digest.finish() == end.content_sha256
        && (counts.batches, counts.events, counts.aggregates) == (end.batches, end.events, end.aggregates);
    let results: Vec<Result<(), String>> = futures::stream::iter(ids)
        .map(|id| async move {
            let what = format!("{id} ({})", verify::domain(kind, &id));
            let aid = AggregateId::new(&id).map_err(|e| format!("{what}: {e}"))?;
            let events = log.read(kind, &aid, 1).await.map_err(|e| format!("{what}: reading: {e}"))?;
            tokio::task::spawn_blocking(move || verify::replay(kind, &id, &events))
                .await
                .map_err(|e| e.to_string())?
                .map_err(|e| format!("{what}: {e}"))
        })
        .buffer_unordered(REPLAYS_IN_FLIGHT)
        .collect()
        .await;
    let replayed = results.iter().filter(|r| r.is_ok()).count() as u64;
    let failures = results.into_iter().filter_map(Result::err).take(LISTED).collect();
    Ok(KindRestored {
        counts: KindCounts {
            kind: kind.as_str().to_string(),
            batches: end.batches,
            events: end.events,
            aggregates: end.aggregates,
        },
        identical,
        replayed,
        failures,
    })
}

/// Restores `file` into `log`, which must be empty (see the module doc).
///
/// # Errors
/// A bad file (nothing written), a target that is not empty (nothing written), or a failure while
/// writing (what was written is said).
pub async fn restore(log: &AnyEventLog, file: &Path, progress: &ProgressBar) -> Result<RestoreSummary> {
    let started = Instant::now();
    let path = file.to_path_buf();
    let checked = tokio::task::spawn_blocking(move || check(&path))
        .await
        .context("the checking task")?
        .with_context(|| format!("{} is refused; nothing was written", file.display()))?;
    let there = contents(log).await?;
    if !there.is_empty() {
        bail!(
            "the target is not empty, nothing was written (a restore writes into an empty log only: a new --data-dir, or a NATS server without weiqi's streams): {}",
            there.join("; ")
        );
    }
    progress.set_length(checked.totals.batches);
    let writing = Instant::now();
    let mut written = Written::default();
    if let Err(e) = write(log, file, &mut written, progress).await {
        return Err(e.context(written.describe()));
    }
    let write_seconds = writing.elapsed().as_secs_f64();
    let mut kinds = Vec::new();
    for end in &checked.kinds {
        let kind = AggregateKind::parse(&end.kind).ok_or_else(|| anyhow!("unknown kind {:?}", end.kind))?;
        kinds.push(verify_kind(log, kind, end).await.with_context(|| format!("reading the restored {kind} log back"))?);
    }
    Ok(RestoreSummary {
        events: checked.totals.events,
        aggregates: checked.totals.aggregates,
        batches: checked.totals.batches,
        bytes: std::fs::metadata(file)?.len(),
        seconds: started.elapsed().as_secs_f64(),
        write_seconds,
        written_by: checked.header.weiqi_version.clone(),
        source: checked.header.source.clone(),
        kinds,
        unknown_signing_keys: Vec::new(),
    })
}

pub fn source_of(nats: Option<&str>, data_dir: &Path) -> String {
    match nats {
        Some(url) => format!("jetstream {url} prefix weiqi"),
        None => format!("embedded {}", data_dir.join("events.redb").display()),
    }
}

/// The command `weiqi backup`.
pub async fn run_backup(args: BackupArgs) -> Result<ExitCode> {
    let log = super::source::open_log(args.nats.as_deref(), &args.data_dir, false).await?;
    let progress = bar(0, args.json);
    let summary = backup(&log, &source_of(args.nats.as_deref(), &args.data_dir), &args.out, &progress).await?;
    progress.finish_and_clear();
    if args.json {
        let mut value = serde_json::to_value(&summary)?;
        value["keys_included"] = serde_json::Value::Bool(false);
        eprintln!("note: {KEYS_NOT_INCLUDED}");
        println!("{value}");
    } else {
        for k in &summary.kinds {
            println!(
                "  {:<11} {:>9} aggregates {:>10} events {:>10} batches",
                k.kind, k.aggregates, k.events, k.batches
            );
        }
        println!(
            "backed up {} events of {} aggregates ({} batches) to {}: {} bytes in {:.1} s",
            summary.events,
            summary.aggregates,
            summary.batches,
            args.out.display(),
            summary.bytes,
            summary.seconds
        );
        println!("note: {KEYS_NOT_INCLUDED}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The command `weiqi restore`.
pub async fn run_restore(args: RestoreArgs) -> Result<ExitCode> {
    let log = match &args.nats {
        Some(url) => AnyEventLog::JetStream(
            weiqi_eventlog::JetStreamLog::connect(
                url,
                weiqi_eventlog::JetStreamConfig { replicas: args.replicas, ..Default::default() },
            )
            .await
            .with_context(|| format!("connecting to NATS JetStream at {url}"))?,
        ),
        None => super::source::open_log(None, &args.data_dir, true).await?,
    };
    let progress = bar(0, args.json);
    let mut summary = restore(&log, &args.file, &progress).await?;
    progress.finish_and_clear();
    summary.unknown_signing_keys = unknown_signing_keys(&log, &args.data_dir).await?;
    for (key, n) in &summary.unknown_signing_keys {
        eprintln!(
            "warning: {n} certificate(s) in this log were signed by the key {key}, which {} does not hold: they \
             will verify `wrong_key`. Copy the association.key that signed them into {} before `weiqi up` starts \
             (it would otherwise make a new key).",
            args.data_dir.join("association.key").display(),
            args.data_dir.display()
        );
    }
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        println!("{} (written by weiqi {} from {})", args.file.display(), summary.written_by, summary.source);
        for k in &summary.kinds {
            println!(
                "  {:<11} {:>9} aggregates {:>10} events {:>10} batches  {}  replayed {}/{}",
                k.counts.kind,
                k.counts.aggregates,
                k.counts.events,
                k.counts.batches,
                if k.identical { "identical" } else { "DIFFERENT" },
                k.replayed,
                k.counts.aggregates
            );
            for f in &k.failures {
                println!("      does not replay: {f}");
            }
        }
        println!(
            "restored {} events of {} aggregates ({} batches) in {:.1} s (writing {:.1} s)",
            summary.events, summary.aggregates, summary.batches, summary.seconds, summary.write_seconds
        );
    }
    if summary.ok() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("error: the restored log is not the backup's, or some aggregates do not replay (listed above)");
        Ok(ExitCode::FAILURE)
    }
}

#[cfg(test)]
mod tests;
