//! The association's Ed25519 keys and their text files.
//!
//! ```text
//! -----BEGIN WEIQI ASSOCIATION PUBLIC KEY-----
//! association: cwa
//! key-id: 3f1c0a9e5b7d2468
//! key: <base64 of the 32-byte Ed25519 public key>
//! -----END WEIQI ASSOCIATION PUBLIC KEY-----
//! ```
//!
//! The signing key file has the same shape with label `ASSOCIATION SIGNING KEY` and `seed:` (the 32-byte
//! secret seed) instead of `key:`. The key id is the first 16 hex digits of SHA-256 of the public key:
//! certificates name it, so that a certificate checked with another key reports "wrong key" rather than
//! "bad signature".

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use ed25519_dalek::{Signature, Signer as _, SigningKey, VerifyingKey};
use sha2::{Digest, Sha256};

use crate::armor::{self, Block, ParseError, bad, write_field};

const PUBLIC: &str = "ASSOCIATION PUBLIC KEY";
const SIGNING: &str = "ASSOCIATION SIGNING KEY";

/// An association's public key: what `weiqi cert verify --key` reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicKey {
    /// The association (`cwa`).
    pub association: String,
    key: VerifyingKey,
}

/// An association's signing key. Build it from 32 secret bytes (the caller brings the randomness).
#[derive(Clone, Debug)]
pub struct AssociationKey {
    association: String,
    key: SigningKey,
}

/// The key id of a public key: 16 hex digits of its SHA-256.
fn key_id(key: &VerifyingKey) -> String {
    hex::encode(&Sha256::digest(key.as_bytes())[..8])
}

impl PublicKey {
    /// The key id certificates name.
    #[must_use]
    pub fn key_id(&self) -> String {
        key_id(&self.key)
    }

    /// The raw 32 bytes.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; 32] {
        self.key.to_bytes()
    }

    /// A public key from raw bytes.
    ///
    /// # Errors
    /// When the bytes are not a valid Ed25519 point.
    pub fn from_bytes(association: &str, bytes: &[u8; 32]) -> Result<PublicKey, ParseError> {
        armor::check_value("association", association).map_err(|problem| ParseError { line: 0, problem })?;
        let key = VerifyingKey::from_bytes(bytes).map_err(|_| bad(0, "key", "not an Ed25519 public key"))?;
        Ok(PublicKey { association: association.to_owned(), key })
    }

    /// The key file text.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = armor::begin(PUBLIC) + "\n";
        write_field(&mut out, "association", &self.association);
        write_field(&mut out, "key-id", self.key_id());
        write_field(&mut out, "key", BASE64.encode(self.key.as_bytes()));
        out + &armor::end(PUBLIC) + "\n"
    }

    pub(crate) fn verify(&self, message: &[u8], signature: &Signature) -> bool {
        self.key.verify_strict(message, signature).is_ok()
    }
}

/// Reads a public key file.
///
/// # Errors
/// [`ParseError`] with the line and what is wrong (including a key id that does not match the key).
pub fn parse_public_key(text: &str) -> Result<PublicKey, ParseError> {
    let mut block = Block::find(text, PUBLIC)?;
    let (_, association) = block.field("association")?;
    let (id_line, id) = block.field("key-id")?;
    let (line, key) = block.field("key")?;
    block.finish()?;
    let bytes: [u8; 32] = decode(line, "key", key)?;
    let key = VerifyingKey::from_bytes(&bytes).map_err(|_| bad(line, "key", "not an Ed25519 public key"))?;
    if key_id(&key) != id {
        return Err(bad(id_line, "key-id", format!("does not match the key (which has {})", key_id(&key))));
    }
    Ok(PublicKey { association: association.to_owned(), key })
}

impl AssociationKey {
    /// A signing key from a 32-byte secret seed.
    ///
    /// # Errors
    /// When the association id is empty or not one line.
    pub fn from_seed(association: &str, seed: [u8; 32]) -> Result<AssociationKey, ParseError> {
        armor::check_value("association", association).map_err(|problem| ParseError { line: 0, problem })?;
        Ok(AssociationKey { association: association.to_owned(), key: SigningKey::from_bytes(&seed) })
    }

    /// The association.
    #[must_use]
    pub fn association(&self) -> &str {
        &self.association
    }

    /// The public half.
    #[must_use]
    pub fn public(&self) -> PublicKey {
        PublicKey { association: self.association.clone(), key: self.key.verifying_key() }
    }

    /// The key id.
    #[must_use]
    pub fn key_id(&self) -> String {
        key_id(&self.key.verifying_key())
    }

    /// The signing key file text. Keep it secret.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = armor::begin(SIGNING) + "\n";
        write_field(&mut out, "association", &self.association);
        write_field(&mut out, "key-id", self.key_id());
        write_field(&mut out, "seed", BASE64.encode(self.key.to_bytes()));
        out + &armor::end(SIGNING) + "\n"
    }

    pub(crate) fn sign_bytes(&self, message: &[u8]) -> Signature {
        self.key.sign(message)
    }
}

/// Reads a signing key file.
///
/// # Errors
/// [`ParseError`] with the line and what is wrong.
pub fn parse_signing_key(text: &str) -> Result<AssociationKey, ParseError> {
    let mut block = Block::find(text, SIGNING)?;
    let (_, association) = block.field("association")?;
    let (id_line, id) = block.field("key-id")?;
    let (line, seed) = block.field("seed")?;
    block.finish()?;
    let key = AssociationKey::from_seed(association, decode(line, "seed", seed)?)?;
    if key.key_id() != id {
        return Err(bad(id_line, "key-id", "does not match the seed"));
    }
    Ok(key)
}

/// Decodes base64 into exactly `N` bytes.
pub(crate) fn decode<const N: usize>(line: usize, field: &str, value: &str) -> Result<[u8; N], ParseError> {
    let bytes = BASE64.decode(value).map_err(|_| bad(line, field, "not base64"))?;
    <[u8; N]>::try_from(bytes.as_slice())
        .map_err(|_| bad(line, field, format!("must be {N} bytes, found {}", bytes.len())))
}

/// Encodes a signature for a file.
pub(crate) fn encode_signature(signature: &Signature) -> String {
    BASE64.encode(signature.to_bytes())
}
