//! Verifying a certificate offline: the library half of `weiqi cert verify FILE --key PUB
//! [--revocations FILE]`.

use serde::{Deserialize, Serialize};

use crate::armor::ParseError;
use crate::{
    CertificateBody, CivilDate, PublicKey, SignedCertificate, SignedRevocationList, parse_certificate,
    parse_public_key, parse_revocation_list,
};

/// A certificate that verified.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verified {
    /// What it says.
    pub certificate: CertificateBody,
    /// The revocation list consulted: `(sequence, issued)`; `None` when none was given.
    pub revocations_checked: Option<(u64, CivilDate)>,
}

/// Why a certificate did not verify. Exhaustive: every way `verify` can say no.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum VerifyError {
    /// The certificate file cannot be read.
    #[error("malformed certificate: {0}")]
    MalformedCertificate(ParseError),
    /// The key file cannot be read.
    #[error("malformed public key: {0}")]
    MalformedKey(ParseError),
    /// The revocation list file cannot be read.
    #[error("malformed revocation list: {0}")]
    MalformedRevocations(ParseError),
    /// The certificate is from another association than the key.
    #[error("certificate issued by {certificate}, but the key belongs to {key}")]
    WrongAssociation {
        /// In the certificate.
        certificate: String,
        /// Of the key.
        key: String,
    },
    /// The certificate names another signing key.
    #[error("certificate signed with key {certificate}, but the key given is {key}")]
    WrongKey {
        /// In the certificate.
        certificate: String,
        /// Of the key given.
        key: String,
    },
    /// The signature does not match the contents: the certificate was altered or forged.
    #[error("bad signature: the certificate was altered or not signed by this key")]
    BadSignature,
    /// The revocation list is signed by another key or association.
    #[error("revocation list signed with key {list} of {association}, but the key given is {key}")]
    RevocationsWrongKey {
        /// Association in the list.
        association: String,
        /// Key id in the list.
        list: String,
        /// Of the key given.
        key: String,
    },
    /// The revocation list's signature does not match.
    #[error("bad signature on the revocation list")]
    RevocationsBadSignature,
    /// The certificate is revoked.
    #[error("certificate {serial} was revoked on {date}: {reason}")]
    Revoked {
        /// Serial.
        serial: String,
        /// When.
        date: CivilDate,
        /// Why.
        reason: String,
    },
}

/// Verifies a certificate with the association's public key, and against a revocation list when given
/// (the list must be signed by the same key).
///
/// # Errors
/// [`VerifyError`]: wrong association or key, bad signature (of the certificate or the list), revoked.
pub fn verify(
    certificate: &SignedCertificate,
    key: &PublicKey,
    revocations: Option<&SignedRevocationList>,
) -> Result<Verified, VerifyError> {
    let body = &certificate.body;
    if body.association != key.association {
        return Err(VerifyError::WrongAssociation {
            certificate: body.association.clone(),
            key: key.association.clone(),
        });
    }
    if body.key_id != key.key_id() {
        return Err(VerifyError::WrongKey { certificate: body.key_id.clone(), key: key.key_id() });
    }
    if !key.verify(&body.canonical_bytes(), &certificate.signature) {
        return Err(VerifyError::BadSignature);
    }
    let revocations_checked = match revocations {
        None => None,
        Some(signed) => {
            let list = &signed.list;
            if list.association != key.association || list.key_id != key.key_id() {
                return Err(VerifyError::RevocationsWrongKey {
                    association: list.association.clone(),
                    list: list.key_id.clone(),
                    key: key.key_id(),
                });
            }
            if !key.verify(&list.canonical_bytes(), &signed.signature) {
                return Err(VerifyError::RevocationsBadSignature);
            }
            if let Some(r) = list.find(&body.serial) {
                return Err(VerifyError::Revoked { serial: r.serial.clone(), date: r.date, reason: r.reason.clone() });
            }
            Some((list.sequence, list.issued))
        }
    };
    Ok(Verified { certificate: body.clone(), revocations_checked })
}

/// Reads the three files' texts and verifies: all `weiqi cert verify` needs.
///
/// # Errors
/// As [`verify`], plus the `Malformed…` variants when a file cannot be read.
pub fn verify_texts(certificate: &str, key: &str, revocations: Option<&str>) -> Result<Verified, VerifyError> {
    let certificate = parse_certificate(certificate).map_err(VerifyError::MalformedCertificate)?;
    let key = parse_public_key(key).map_err(VerifyError::MalformedKey)?;
    let revocations = revocations.map(parse_revocation_list).transpose().map_err(VerifyError::MalformedRevocations)?;
    verify(&certificate, &key, revocations.as_ref())
}
