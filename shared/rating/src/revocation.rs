//! Signed revocation lists: which certificates the association has revoked (Art. 23.1: cheating found
//! later voids results; certificates earned with them are revoked).
//!
//! ```text
//! -----BEGIN WEIQI REVOCATION LIST-----
//! weiqi-revocations v2
//! association: cwa
//! key-id: 3f1c0a9e5b7d2468
//! issued: 2026-12-01
//! sequence: 7
//! issued-at: 2026-12-01T10:15:00Z
//! next-update: 2026-12-08T10:15:00Z
//! revoked: CWA-2026-000123 2026-11-30 results voided for cheating (Art. 23.1)
//! revoked: …
//! signature: <base64>
//! -----END WEIQI REVOCATION LIST-----
//! ```
//!
//! The signature covers the lines from the header to the last `revoked:` line, each ending in LF,
//! exactly as [`RevocationList::canonical_bytes`] writes them. `sequence` grows with every
//! revocation, so a client can refuse an older list than one it has seen; `issued-at` is when the
//! list was signed and `next-update` when the next list is due: a list past it is stale (a client
//! that accepted it could be shown an old list forever). [`check_freshness`] is the client's rule.
//! Each entry is `serial date reason`; serials are unique. Lists of format v1 (no times) still read
//! and verify; having no `next-update`, they count as stale.

use weiqi_time::Millis;

use ed25519_dalek::Signature;
use serde::{Deserialize, Serialize};

use crate::armor::{self, Block, Malformed, ParseError, bad, check_serial, check_value, write_field};
use crate::keys::{AssociationKey, decode, encode_signature};
use crate::{CivilDate, SignError};

const LABEL: &str = "REVOCATION LIST";
const HEADER_V1: &str = "weiqi-revocations v1";
const HEADER: &str = "weiqi-revocations v2";

/// `2026-12-01T10:15:00Z` (UTC, whole seconds).
#[must_use]
pub fn format_utc(at: Millis) -> String {
    let date = CivilDate::from_millis(at);
    let secs = at.0.div_euclid(1000).rem_euclid(86_400);
    format!("{date}T{:02}:{:02}:{:02}Z", secs / 3600, secs / 60 % 60, secs % 60)
}

/// Reads [`format_utc`]'s form.
#[must_use]
pub fn parse_utc(text: &str) -> Option<Millis> {
    let (date, time) = text.strip_suffix('Z')?.split_once('T')?;
    let date: CivilDate = date.parse().ok()?;
    let mut parts = time.split(':').map(|p| p.parse::<i64>().ok().filter(|_| p.len() == 2));
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    if parts.next().is_some() || h > 23 || m > 59 || s > 59 {
        return None;
    }
    Some(Millis(date.to_millis().0 + ((h * 60 + m) * 60 + s) * 1000))
}

/// One revoked certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revocation {
    /// The certificate's serial.
    pub serial: String,
    /// When it was revoked.
    pub date: CivilDate,
    /// Why.
    pub reason: String,
}

/// The contents of a revocation list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevocationList {
    /// The association.
    pub association: String,
    /// The signing key's id.
    pub key_id: String,
    /// Date of issue.
    pub issued: CivilDate,
    /// Increases with every revocation.
    pub sequence: u64,
    /// When the list was signed (v2; `None` for a v1 list).
    #[serde(default)]
    pub issued_at: Option<Millis>,
    /// When the next list is due: past it, this list is stale (v2; `None` for a v1 list).
    #[serde(default)]
    pub next_update: Option<Millis>,
    /// Revoked certificates.
    pub entries: Vec<Revocation>,
}

impl RevocationList {
    /// The canonical bytes the signature covers.
    #[must_use]
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let v2 = self.issued_at.is_some() || self.next_update.is_some();
        let mut out = String::from(if v2 { HEADER } else { HEADER_V1 });
        out.push('\n');
        write_field(&mut out, "association", &self.association);
        write_field(&mut out, "key-id", &self.key_id);
        write_field(&mut out, "issued", self.issued);
        write_field(&mut out, "sequence", self.sequence);
        if v2 {
            write_field(&mut out, "issued-at", format_utc(self.issued_at.unwrap_or(Millis(0))));
            write_field(&mut out, "next-update", format_utc(self.next_update.unwrap_or(Millis(0))));
        }
        for e in &self.entries {
            write_field(&mut out, "revoked", format!("{} {} {}", e.serial, e.date, e.reason));
        }
        out.into_bytes()
    }

    /// The entry for a serial, if revoked.
    #[must_use]
    pub fn find(&self, serial: &str) -> Option<&Revocation> {
        self.entries.iter().find(|e| e.serial == serial)
    }

    /// Checks that every field can be encoded unambiguously and serials are unique.
    ///
    /// # Errors
    /// The first problem.
    pub fn validate(&self) -> Result<(), Malformed> {
        check_value("association", &self.association)?;
        check_value("key-id", &self.key_id)?;
        let mut seen = std::collections::HashSet::new();
        for e in &self.entries {
            check_serial("revoked", &e.serial)?;
            check_value("revoked", &e.reason)?;
            if !seen.insert(e.serial.as_str()) {
                return Err(Malformed::DuplicateSerial(e.serial.clone()));
            }
        }
        Ok(())
    }
}

/// A revocation list with its signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedRevocationList {
    /// The list.
    pub list: RevocationList,
    pub(crate) signature: Signature,
}

impl SignedRevocationList {
    /// The file text.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = armor::begin(LABEL) + "\n";
        out.push_str(&String::from_utf8_lossy(&self.list.canonical_bytes()));
        write_field(&mut out, "signature", encode_signature(&self.signature));
        out + &armor::end(LABEL) + "\n"
    }
}

impl AssociationKey {
    /// Signs a revocation list. It must name this key's association and key id.
    ///
    /// # Errors
    /// [`SignError`] when a field cannot be encoded or the list names another key.
    pub fn sign_revocations(&self, list: RevocationList) -> Result<SignedRevocationList, SignError> {
        list.validate().map_err(SignError::Invalid)?;
        if list.association != self.association() || list.key_id != self.key_id() {
            return Err(SignError::KeyMismatch {
                body_association: list.association.clone(),
                body_key_id: list.key_id.clone(),
                key_association: self.association().to_owned(),
                key_id: self.key_id(),
            });
        }
        let signature = self.sign_bytes(&list.canonical_bytes());
        Ok(SignedRevocationList { list, signature })
    }
}

/// Reads a revocation list file.
///
/// # Errors
/// [`ParseError`] with the line and what is wrong.
pub fn parse_revocation_list(text: &str) -> Result<SignedRevocationList, ParseError> {
    let mut b = Block::find(text, LABEL)?;
    let version = b.header_of(&[HEADER, HEADER_V1])?;
    let (_, association) = b.field("association")?;
    let (_, key_id) = b.field("key-id")?;
    let (issued_line, issued) = b.field("issued")?;
    let issued: CivilDate = issued.parse().map_err(|_| bad(issued_line, "issued", "not a YYYY-MM-DD date"))?;
    let (seq_line, sequence) = b.field("sequence")?;
    let sequence: u64 = sequence.parse().map_err(|_| bad(seq_line, "sequence", "not a whole number"))?;
    let (mut issued_at, mut next_update) = (None, None);
    if version == HEADER {
        let (line, at) = b.field("issued-at")?;
        issued_at = Some(parse_utc(at).ok_or_else(|| bad(line, "issued-at", "not a YYYY-MM-DDTHH:MM:SSZ time"))?);
        let (line, next) = b.field("next-update")?;
        next_update = Some(parse_utc(next).ok_or_else(|| bad(line, "next-update", "not a YYYY-MM-DDTHH:MM:SSZ time"))?);
    }
    let mut entries: Vec<Revocation> = Vec::new();
    let signature = loop {
        // Either another `revoked:` line or the signature.
        if b.next_is("revoked") {
            let (line, entry) = b.field("revoked")?;
            let mut parts = entry.splitn(3, ' ');
            let (serial, date, reason) = (parts.next(), parts.next(), parts.next());
            let (Some(serial), Some(date), Some(reason)) = (serial, date, reason) else {
                return Err(bad(line, "revoked", "expected 'serial date reason'"));
            };
            check_serial("revoked", serial).map_err(|problem| ParseError { line, problem })?;
            let date: CivilDate = date.parse().map_err(|_| bad(line, "revoked", "not a YYYY-MM-DD date"))?;
            if entries.iter().any(|e| e.serial == serial) {
                return Err(ParseError { line, problem: Malformed::DuplicateSerial(serial.to_owned()) });
            }
            entries.push(Revocation { serial: serial.to_owned(), date, reason: reason.to_owned() });
        } else {
            let (line, sig) = b.field("signature")?;
            break Signature::from_bytes(&decode::<64>(line, "signature", sig)?);
        }
    };
    b.finish()?;
    Ok(SignedRevocationList {
        list: RevocationList {
            association: association.to_owned(),
            key_id: key_id.to_owned(),
            issued,
            sequence,
            issued_at,
            next_update,
            entries,
        },
        signature,
    })
}

/// Why a client refuses a revocation list that verifies: it could be an old list replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum Freshness {
    /// Older than a list this client has seen from the same key (a rollback).
    #[error("revocation list #{got} is older than list #{seen} already seen from this key (a rollback?)")]
    RolledBack {
        /// The highest sequence seen before.
        seen: u64,
        /// This list's.
        got: u64,
    },
    /// Past its next-update time: a newer list should exist.
    #[error("revocation list #{sequence} is stale: its next update was due {due}; fetch the current list")]
    Stale {
        /// The list's sequence.
        sequence: u64,
        /// When the next list was due (`unknown` for a v1 list).
        due: String,
    },
}

/// The client's rule (what `weiqi cert verify` applies): refuse a list older than the highest
/// sequence `seen` from its key, or past its next-update at `now`, unless `allow_stale` (which
/// waives only staleness, never a rollback).
///
/// # Errors
/// [`Freshness`].
pub fn check_freshness(
    list: &RevocationList,
    now: Millis,
    seen: Option<u64>,
    allow_stale: bool,
) -> Result<(), Freshness> {
    if let Some(seen) = seen
        && list.sequence < seen
    {
        return Err(Freshness::RolledBack { seen, got: list.sequence });
    }
    if !allow_stale && list.next_update.is_none_or(|due| now > due) {
        let due = list.next_update.map_or_else(|| "unknown (a v1 list)".to_owned(), format_utc);
        return Err(Freshness::Stale { sequence: list.sequence, due });
    }
    Ok(())
}
