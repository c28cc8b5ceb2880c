//! Signed revocation lists: which certificates the association has revoked (Art. 23.1: cheating found
//! later voids results; certificates earned with them are revoked).
//!
//! ```text
//! -----BEGIN WEIQI REVOCATION LIST-----
//! weiqi-revocations v1
//! association: cwa
//! key-id: 3f1c0a9e5b7d2468
//! issued: 2026-12-01
//! sequence: 7
//! revoked: CWA-2026-000123 2026-11-30 results voided for cheating (Art. 23.1)
//! revoked: …
//! signature: <base64>
//! -----END WEIQI REVOCATION LIST-----
//! ```
//!
//! The signature covers the lines from `weiqi-revocations v1` to the last `revoked:` line, each ending
//! in LF, exactly as [`RevocationList::canonical_bytes`] writes them. `sequence` grows with every list
//! issued, so a client can refuse an older list than one it has seen. Each entry is
//! `serial date reason`; serials are unique.

use ed25519_dalek::Signature;
use serde::{Deserialize, Serialize};

use crate::armor::{self, Block, Malformed, ParseError, bad, check_serial, check_value, write_field};
use crate::keys::{AssociationKey, decode, encode_signature};
use crate::{CivilDate, SignError};

const LABEL: &str = "REVOCATION LIST";
const HEADER: &str = "weiqi-revocations v1";

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
    /// Increases with every list issued.
    pub sequence: u64,
    /// Revoked certificates.
    pub entries: Vec<Revocation>,
}

impl RevocationList {
    /// The canonical bytes the signature covers.
    #[must_use]
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut out = String::from(HEADER);
        out.push('\n');
        write_field(&mut out, "association", &self.association);
        write_field(&mut out, "key-id", &self.key_id);
        write_field(&mut out, "issued", self.issued);
        write_field(&mut out, "sequence", self.sequence);
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
    b.header(HEADER)?;
    let (_, association) = b.field("association")?;
    let (_, key_id) = b.field("key-id")?;
    let (issued_line, issued) = b.field("issued")?;
    let issued: CivilDate = issued.parse().map_err(|_| bad(issued_line, "issued", "not a YYYY-MM-DD date"))?;
    let (seq_line, sequence) = b.field("sequence")?;
    let sequence: u64 = sequence.parse().map_err(|_| bad(seq_line, "sequence", "not a whole number"))?;
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
            entries,
        },
        signature,
    })
}
