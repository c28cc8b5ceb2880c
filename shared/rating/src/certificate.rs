//! Rank certificates: contents, canonical bytes, the file format, signing.
//!
//! # Canonical encoding (what the signature covers)
//!
//! The UTF-8 bytes of these lines, each ending in LF, in exactly this order:
//!
//! ```text
//! weiqi-certificate v1
//! serial: CWA-2026-000123
//! association: cwa
//! key-id: 3f1c0a9e5b7d2468
//! player: li-ming
//! player-name: 李明 / Li Ming
//! ladder: amateur
//! grade: 5d
//! grade-name: 业余5段
//! date: 2026-11-30
//! case: case-42
//! basis: qualify-5d: 6 wins of 7 in group 5d of 2026 全国业余围棋定段赛 (dq-2026)
//! ```
//!
//! Every value is one non-empty line without leading or trailing spaces; the serial uses only
//! `A-Z a-z 0-9 . _ -`; the date is `YYYY-MM-DD`. So each certificate has exactly one encoding, and
//! reading a file and encoding it again gives the signed bytes back whatever line endings the file
//! picked up on the way.
//!
//! # File format
//!
//! The canonical lines inside an armor, followed by the Ed25519 signature in base64:
//!
//! ```text
//! -----BEGIN WEIQI RANK CERTIFICATE-----
//! weiqi-certificate v1
//! serial: CWA-2026-000123
//! …
//! basis: …
//! signature: <base64 of 64 bytes>
//! -----END WEIQI RANK CERTIFICATE-----
//! ```

use std::fmt;

use ed25519_dalek::Signature;
use serde::{Deserialize, Serialize};

use crate::armor::{self, Block, Malformed, ParseError, bad, check_serial, check_value, write_field};
use crate::keys::{AssociationKey, decode, encode_signature};
use crate::{CaseId, CivilDate, PlayerId};

const LABEL: &str = "RANK CERTIFICATE";
const HEADER: &str = "weiqi-certificate v1";

/// What a certificate says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CertificateBody {
    /// Unique serial, cited by revocation lists.
    pub serial: String,
    /// The issuing association.
    pub association: String,
    /// The id of the key that signs it.
    pub key_id: String,
    /// The player.
    pub player: PlayerId,
    /// The player's name as printed.
    pub player_name: String,
    /// The ladder (`amateur`, `professional`, `shanghai` …).
    pub ladder: String,
    /// The grade code (`5d`).
    pub grade: String,
    /// The grade's name (`业余5段`).
    pub grade_name: String,
    /// Date of issue.
    pub date: CivilDate,
    /// The certification case.
    pub case: CaseId,
    /// Why: the rules met, or the reviewer's override.
    pub basis: String,
}

impl CertificateBody {
    /// The canonical bytes the signature covers (see the module doc).
    #[must_use]
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut out = String::with_capacity(512);
        out.push_str(HEADER);
        out.push('\n');
        for (name, value) in self.fields() {
            write_field(&mut out, name, value);
        }
        out.into_bytes()
    }

    fn fields(&self) -> [(&'static str, String); 11] {
        [
            ("serial", self.serial.clone()),
            ("association", self.association.clone()),
            ("key-id", self.key_id.clone()),
            ("player", self.player.0.clone()),
            ("player-name", self.player_name.clone()),
            ("ladder", self.ladder.clone()),
            ("grade", self.grade.clone()),
            ("grade-name", self.grade_name.clone()),
            ("date", self.date.to_string()),
            ("case", self.case.0.clone()),
            ("basis", self.basis.clone()),
        ]
    }

    /// Checks that every field can be encoded unambiguously.
    ///
    /// # Errors
    /// The first field that cannot.
    pub fn validate(&self) -> Result<(), Malformed> {
        check_serial("serial", &self.serial)?;
        for (name, value) in self.fields() {
            check_value(name, &value)?;
        }
        Ok(())
    }
}

/// A certificate with its signature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct SignedCertificate {
    /// What it says.
    pub body: CertificateBody,
    pub(crate) signature: Signature,
}

/// Why a certificate could not be signed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    /// A field cannot be encoded.
    #[error("certificate field: {0}")]
    Invalid(Malformed),
    /// The body names another association or key.
    #[error("the body names association {body_association} key {body_key_id}, the key is {key_association} {key_id}")]
    KeyMismatch {
        /// Association in the body.
        body_association: String,
        /// Key id in the body.
        body_key_id: String,
        /// The key's association.
        key_association: String,
        /// The key's id.
        key_id: String,
    },
}

impl AssociationKey {
    /// Signs a certificate body. The body must name this key's association and key id.
    ///
    /// # Errors
    /// [`SignError`] when a field cannot be encoded or the body names another key.
    pub fn sign_certificate(&self, body: CertificateBody) -> Result<SignedCertificate, SignError> {
        body.validate().map_err(SignError::Invalid)?;
        if body.association != self.association() || body.key_id != self.key_id() {
            return Err(SignError::KeyMismatch {
                body_association: body.association.clone(),
                body_key_id: body.key_id.clone(),
                key_association: self.association().to_owned(),
                key_id: self.key_id(),
            });
        }
        let signature = self.sign_bytes(&body.canonical_bytes());
        Ok(SignedCertificate { body, signature })
    }
}

impl SignedCertificate {
    /// The signature in base64.
    #[must_use]
    pub fn signature_base64(&self) -> String {
        encode_signature(&self.signature)
    }

    /// The certificate file text.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = armor::begin(LABEL) + "\n";
        out.push_str(&String::from_utf8_lossy(&self.body.canonical_bytes()));
        write_field(&mut out, "signature", self.signature_base64());
        out + &armor::end(LABEL) + "\n"
    }
}

impl fmt::Display for SignedCertificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl From<SignedCertificate> for String {
    fn from(c: SignedCertificate) -> String {
        c.to_text()
    }
}

impl TryFrom<String> for SignedCertificate {
    type Error = ParseError;
    fn try_from(s: String) -> Result<Self, ParseError> {
        parse_certificate(&s)
    }
}

/// Reads a certificate file (the first certificate in the text).
///
/// # Errors
/// [`ParseError`] with the line and what is wrong.
pub fn parse_certificate(text: &str) -> Result<SignedCertificate, ParseError> {
    let mut b = Block::find(text, LABEL)?;
    b.header(HEADER)?;
    let (serial_line, serial) = b.field("serial")?;
    check_serial("serial", serial).map_err(|problem| ParseError { line: serial_line, problem })?;
    let (_, association) = b.field("association")?;
    let (_, key_id) = b.field("key-id")?;
    let (_, player) = b.field("player")?;
    let (_, player_name) = b.field("player-name")?;
    let (_, ladder) = b.field("ladder")?;
    let (_, grade) = b.field("grade")?;
    let (_, grade_name) = b.field("grade-name")?;
    let (date_line, date) = b.field("date")?;
    let date: CivilDate = date.parse().map_err(|_| bad(date_line, "date", "not a YYYY-MM-DD date"))?;
    let (_, case) = b.field("case")?;
    let (_, basis) = b.field("basis")?;
    let (sig_line, signature) = b.field("signature")?;
    let signature = Signature::from_bytes(&decode::<64>(sig_line, "signature", signature)?);
    b.finish()?;
    Ok(SignedCertificate {
        body: CertificateBody {
            serial: serial.to_owned(),
            association: association.to_owned(),
            key_id: key_id.to_owned(),
            player: PlayerId::from(player),
            player_name: player_name.to_owned(),
            ladder: ladder.to_owned(),
            grade: grade.to_owned(),
            grade_name: grade_name.to_owned(),
            date,
            case: CaseId::from(case),
            basis: basis.to_owned(),
        },
        signature,
    })
}
