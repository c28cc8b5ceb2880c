//! The backup file, format version 1: written by [`Writer`], read and checked by [`Reader`].
//!
//! ```text
//! file    = magic "WEIQIBAK" (8 bytes) | format version (u32 LE, 1) | one zstd frame (content checksum on)
//! frame   = the decompressed stream: record record …
//! record  = length (u32 LE) | body (`length` bytes: a protobuf weiqi.v1.BackupRecord) | crc (u32 LE)
//! crc     = CRC-32 (IEEE) of the length's four bytes and the body
//! records = header, then per kind: kind_start, its batches in log order, kind_end; then trailer,
//!           and the stream ends
//! ```
//!
//! What is checked on reading, record by record (so a restore refuses a bad file before it writes
//! anything): the magic and the version; each record's length (at most [`MAX_RECORD`]) and CRC; the
//! order of the records; each kind's counts (batches, events, aggregates) and the SHA-256 of its
//! batch records' bodies against its `kind_end`; the totals and the SHA-256 of every record's bytes
//! before the trailer (length, body and crc, as in the stream) against the trailer; that nothing
//! follows the trailer; and zstd's own checksum of the frame. A truncated file fails as "the file
//! ends" at the record where it was cut.
//!
//! The protobuf messages (`proto/weiqi/v1/backup.proto`) only ever gain fields, so a file written
//! today reads in every later version; a change the old readers cannot skip takes a new format
//! version, and the reader keeps reading version 1.

use std::fmt;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use prost::Message;
use sha2::{Digest, Sha256};
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::backup_record::Record;

/// The first bytes of every backup file.
pub const MAGIC: &[u8; 8] = b"WEIQIBAK";
/// The format this version writes (and the only one it reads so far).
pub const FORMAT_VERSION: u32 = 1;
/// The longest record body: a batch is at most 1 MiB in either log, with room for the framing.
pub const MAX_RECORD: u32 = 4 * 1024 * 1024;
/// zstd's level: the default, about 4:1 on the log at hundreds of MB/s.
const LEVEL: i32 = 3;

/// Counts of a section or a whole file.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Batches (appends).
    pub batches: u64,
    /// Events.
    pub events: u64,
    /// Aggregates (batches with first sequence 1).
    pub aggregates: u64,
}

impl Counts {
    /// Adds one batch.
    pub fn add(&mut self, batch: &pb::BackupBatch) {
        self.batches += 1;
        self.events += batch.events.len() as u64;
        self.aggregates += u64::from(batch.first_sequence == 1);
    }

    fn plus(self, other: Counts) -> Counts {
        Counts {
            batches: self.batches + other.batches,
            events: self.events + other.events,
            aggregates: self.aggregates + other.aggregates,
        }
    }
}

/// The content digest of a kind's batches: SHA-256 of each batch record's body in turn. A restore
/// computes it again from the target.
#[derive(Default, Clone)]
pub struct ContentDigest(Sha256);

impl ContentDigest {
    /// Adds a batch; returns the record body it hashed.
    pub fn add(&mut self, batch: pb::BackupBatch) -> Vec<u8> {
        let body = pb::BackupRecord { record: Some(Record::Batch(batch)) }.encode_to_vec();
        self.0.update(&body);
        body
    }

    /// The digest.
    pub fn finish(self) -> Vec<u8> {
        self.0.finalize().to_vec()
    }
}

/// Writes a backup file (see the module doc).
pub struct Writer {
    out: zstd::stream::write::Encoder<'static, BufWriter<File>>,
    records: Sha256,
    kind: Option<(String, Counts, ContentDigest)>,
    totals: Counts,
}

/// A new file readable and writable by its owner only (0600 on Unix): a backup holds every account's
/// password hash and every event.
pub fn owner_only(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(path)?;
    // A file that existed keeps its mode through `open`: set it.
    #[cfg(unix)]
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    Ok(file)
}

impl Writer {
    /// Creates `path` and writes the preamble and `header`.
    ///
    /// # Errors
    /// IO.
    pub fn create(path: &Path, header: pb::BackupHeader) -> std::io::Result<Writer> {
        let mut file = BufWriter::with_capacity(1 << 20, owner_only(path)?);
        file.write_all(MAGIC)?;
        file.write_all(&FORMAT_VERSION.to_le_bytes())?;
        let mut out = zstd::stream::write::Encoder::new(file, LEVEL)?;
        out.include_checksum(true)?;
        let mut writer = Writer { out, records: Sha256::new(), kind: None, totals: Counts::default() };
        writer.record(&pb::BackupRecord { record: Some(Record::Header(header)) }.encode_to_vec())?;
        Ok(writer)
    }

    fn record(&mut self, body: &[u8]) -> std::io::Result<()> {
        let len = u32::try_from(body.len()).ok().filter(|&l| l <= MAX_RECORD).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("a record of {} bytes", body.len()))
        })?;
        let len = len.to_le_bytes();
        let mut crc = crc32fast::Hasher::new();
        crc.update(&len);
        crc.update(body);
        let crc = crc.finalize().to_le_bytes();
        for part in [&len[..], body, &crc[..]] {
            self.records.update(part);
            self.out.write_all(part)?;
        }
        Ok(())
    }

    /// Begins the section of `kind`.
    ///
    /// # Errors
    /// IO.
    pub fn start_kind(&mut self, kind: &str) -> std::io::Result<()> {
        assert!(self.kind.is_none(), "a section is open");
        self.kind = Some((kind.to_string(), Counts::default(), ContentDigest::default()));
        self.record(
            &pb::BackupRecord { record: Some(Record::KindStart(pb::BackupKindStart { kind: kind.into() })) }
                .encode_to_vec(),
        )
    }

    /// Adds a batch to the open section.
    ///
    /// # Errors
    /// IO, or a batch too large for a record.
    pub fn batch(&mut self, batch: pb::BackupBatch) -> std::io::Result<()> {
        let (_, counts, digest) = self.kind.as_mut().expect("a section is open");
        counts.add(&batch);
        let body = digest.add(batch);
        self.record(&body)
    }

    /// Ends the open section; returns its counts.
    ///
    /// # Errors
    /// IO.
    pub fn end_kind(&mut self) -> std::io::Result<Counts> {
        let (kind, counts, digest) = self.kind.take().expect("a section is open");
        self.totals = self.totals.plus(counts);
        let end = pb::BackupKindEnd {
            kind,
            batches: counts.batches,
            events: counts.events,
            aggregates: counts.aggregates,
            content_sha256: digest.finish(),
        };
        self.record(&pb::BackupRecord { record: Some(Record::KindEnd(end)) }.encode_to_vec())?;
        Ok(counts)
    }

    /// Writes the trailer, ends the zstd frame and syncs the file; returns the totals.
    ///
    /// # Errors
    /// IO.
    pub fn finish(mut self) -> std::io::Result<Counts> {
        assert!(self.kind.is_none(), "a section is open");
        let trailer = pb::BackupTrailer {
            batches: self.totals.batches,
            events: self.totals.events,
            aggregates: self.totals.aggregates,
            records_sha256: self.records.clone().finalize().to_vec(),
        };
        self.record(&pb::BackupRecord { record: Some(Record::Trailer(trailer)) }.encode_to_vec())?;
        let file = self.out.finish()?.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        Ok(self.totals)
    }
}

/// Why a file is refused, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    /// Where: the record, its offset in the decompressed stream, the section, and about how far
    /// into the file the reader was.
    pub at: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.reason, self.at)
    }
}

impl std::error::Error for FormatError {}

/// One checked record.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// The header (always first).
    Header(pb::BackupHeader),
    /// A section begins.
    KindStart(String),
    /// A batch of the open section.
    Batch(pb::BackupBatch),
    /// The section ends, its counts checked.
    KindEnd(pb::BackupKindEnd),
    /// The trailer (always last), its totals and digest checked.
    Trailer(pb::BackupTrailer),
}

/// Counts the bytes read from the file, for error positions.
struct Counting<R> {
    inner: R,
    read: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Header,
    KindOrTrailer,
    BatchOrEnd,
    Done,
}

/// Reads and checks a backup file record by record (see the module doc).
pub struct Reader {
    input: zstd::stream::read::Decoder<'static, BufReader<Counting<File>>>,
    file_bytes: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// Records read so far.
    record: u64,
    /// Offset of the next record in the decompressed stream.
    offset: u64,
    records: Sha256,
    expect: Expect,
    kind: Option<(String, Counts, ContentDigest)>,
    totals: Counts,
}

impl Reader {
    /// Opens `path` and checks its preamble.
    ///
    /// # Errors
    /// IO, or not a backup file of a version this reader knows.
    pub fn open(path: &Path) -> anyhow::Result<Reader> {
        let mut file = File::open(path)?;
        let mut preamble = [0u8; 12];
        file.read_exact(&mut preamble)
            .map_err(|_| anyhow::anyhow!("{} is too short for a backup file", path.display()))?;
        anyhow::ensure!(&preamble[..8] == MAGIC, "{} is not a weiqi backup file (no WEIQIBAK magic)", path.display());
        let version = u32::from_le_bytes(preamble[8..12].try_into().expect("4 bytes"));
        anyhow::ensure!(
            version == FORMAT_VERSION,
            "{} has backup format version {version}; this weiqi reads version {FORMAT_VERSION}",
            path.display()
        );
        let file_bytes = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(12));
        let counting = Counting { inner: file, read: file_bytes.clone() };
        let input = zstd::stream::read::Decoder::with_buffer(BufReader::with_capacity(1 << 20, counting))?;
        Ok(Reader {
            input,
            file_bytes,
            record: 0,
            offset: 0,
            records: Sha256::new(),
            expect: Expect::Header,
            kind: None,
            totals: Counts::default(),
        })
    }

    fn error(&self, reason: impl Into<String>) -> FormatError {
        let section = match &self.kind {
            Some((kind, counts, _)) => format!(", in the {kind} section after {} batches", counts.batches),
            None => String::new(),
        };
        FormatError {
            at: format!(
                "record {} at byte {} of the decompressed stream{section}, file read to byte {}",
                self.record + 1,
                self.offset,
                self.file_bytes.load(std::sync::atomic::Ordering::Relaxed)
            ),
            reason: reason.into(),
        }
    }

    /// Fills `buf`, or tells how it ended: `Ok(false)` at a clean end before the first byte.
    fn fill(&mut self, buf: &mut [u8]) -> Result<bool, FormatError> {
        let mut got = 0;
        while got < buf.len() {
            match self.input.read(&mut buf[got..]) {
                Ok(0) if got == 0 => return Ok(false),
                Ok(0) => return Err(self.error("the file ends inside a record (truncated)")),
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.error(format!("the compressed stream is damaged or truncated: {e}"))),
            }
        }
        Ok(true)
    }

    /// The next record, checked; `None` after the trailer, at the end of the file.
    ///
    /// # Errors
    /// What is wrong and where.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Item>, FormatError> {
        let mut len = [0u8; 4];
        if !self.fill(&mut len)? {
            return match self.expect {
                Expect::Done => Ok(None),
                _ => Err(self.error("the file ends before its trailer (truncated)")),
            };
        }
        if self.expect == Expect::Done {
            return Err(self.error("bytes after the trailer"));
        }
        let length = u32::from_le_bytes(len);
        if length > MAX_RECORD {
            return Err(self.error(format!("a record length of {length} bytes (damaged)")));
        }
        let mut body = vec![0u8; length as usize];
        let mut crc = [0u8; 4];
        if !self.fill(&mut body)? || !self.fill(&mut crc)? {
            return Err(self.error("the file ends inside a record (truncated)"));
        }
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&len);
        hasher.update(&body);
        if hasher.finalize() != u32::from_le_bytes(crc) {
            return Err(self.error("the record's CRC does not match (damaged)"));
        }
        let record = pb::BackupRecord::decode(body.as_slice())
            .map_err(|e| self.error(format!("the record does not decode: {e}")))?
            .record
            .ok_or_else(|| self.error("a record of a kind this version does not know"))?;
        let is_trailer = matches!(record, Record::Trailer(_));
        let item = self.check(record, &body)?;
        if !is_trailer {
            for part in [&len[..], &body[..], &crc[..]] {
                self.records.update(part);
            }
        }
        self.record += 1;
        self.offset += 8 + u64::from(length);
        Ok(Some(item))
    }

    fn check(&mut self, record: Record, body: &[u8]) -> Result<Item, FormatError> {
        let expect = self.expect;
        let unexpected = |what: &str| self.error(format!("{what} where {expect:?} was expected (damaged)"));
        Ok(match record {
            Record::Header(h) if expect == Expect::Header => {
                self.expect = Expect::KindOrTrailer;
                Item::Header(h)
            }
            Record::KindStart(s) if expect == Expect::KindOrTrailer => {
                self.expect = Expect::BatchOrEnd;
                self.kind = Some((s.kind.clone(), Counts::default(), ContentDigest::default()));
                Item::KindStart(s.kind)
            }
            Record::Batch(b) if expect == Expect::BatchOrEnd => {
                let (_, counts, digest) = self.kind.as_mut().expect("a section is open");
                counts.add(&b);
                digest.0.update(body);
                Item::Batch(b)
            }
            Record::KindEnd(end) if expect == Expect::BatchOrEnd => {
                let (kind, counts, digest) = self.kind.clone().expect("a section is open");
                let found = (end.kind.as_str(), end.batches, end.events, end.aggregates);
                if found != (kind.as_str(), counts.batches, counts.events, counts.aggregates) {
                    return Err(self.error(format!(
                        "the {kind} section holds {} batches, {} events, {} aggregates; its end says {found:?}",
                        counts.batches, counts.events, counts.aggregates
                    )));
                }
                if digest.finish() != end.content_sha256 {
                    return Err(self.error(format!("the {kind} section's SHA-256 does not match its end")));
                }
                self.totals = self.totals.plus(counts);
                self.kind = None;
                self.expect = Expect::KindOrTrailer;
                Item::KindEnd(end)
            }
            Record::Trailer(t) if expect == Expect::KindOrTrailer => {
                let totals = Counts { batches: t.batches, events: t.events, aggregates: t.aggregates };
                if totals != self.totals {
                    return Err(self.error(format!("the trailer says {totals:?}; the file holds {:?}", self.totals)));
                }
                if self.records.clone().finalize().as_slice() != t.records_sha256.as_slice() {
                    return Err(self.error("the SHA-256 of the records does not match the trailer's"));
                }
                self.expect = Expect::Done;
                Item::Trailer(t)
            }
            Record::Header(_) => return Err(unexpected("a header")),
            Record::KindStart(_) => return Err(unexpected("a kind start")),
            Record::Batch(_) => return Err(unexpected("a batch")),
            Record::KindEnd(_) => return Err(unexpected("a kind end")),
            Record::Trailer(_) => return Err(unexpected("a trailer")),
        })
    }
}
