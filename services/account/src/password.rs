//! Argon2id password hashes (PHC strings), with OWASP's recommended parameters.

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

use argon2::{Algorithm, Argon2, Params, Version};

/// Memory cost in KiB (19 MiB), passes and lanes: OWASP's first recommendation for Argon2id.
pub const MEMORY_KIB: u32 = 19_456;
/// Passes.
pub const PASSES: u32 = 2;
/// Lanes.
pub const LANES: u32 = 1;

/// Shortest password accepted.
pub const MIN_LEN: usize = 8;
/// Longest password accepted (bytes; more is a denial-of-service vector, not security).
pub const MAX_LEN: usize = 1024;

/// Why a password cannot be used or checked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    /// Too short or too long.
    #[error("a password has {MIN_LEN} to {MAX_LEN} bytes")]
    Length,
    /// The hashing library failed (a bad stored hash, no random source).
    #[error("password hashing failed: {0}")]
    Hashing(String),
}

fn argon2() -> Result<Argon2<'static>, PasswordError> {
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).map_err(|e| PasswordError::Hashing(e.to_string()))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// The salt of a password set by one command: 16 bytes of SHA-256 over the account and the command's
/// id. Unique per account and command (what a salt is for), and the same on a retry of the command,
/// so a retried "set password" is the same command (answered as a duplicate) while another password
/// under that id is refused as another command.
pub fn salt(account: &str, command_id: &str) -> [u8; 16] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(b"weiqi account password salt");
    h.update([0]);
    h.update(account.as_bytes());
    h.update([0]);
    h.update(command_id.as_bytes());
    let mut out = [0; 16];
    out.copy_from_slice(&h.finalize()[..16]);
    out
}

/// Hashes `password` with `salt`.
///
/// # Errors
/// A password of the wrong length.
pub fn hash(password: &str, salt: &[u8; 16]) -> Result<String, PasswordError> {
    if !(MIN_LEN..=MAX_LEN).contains(&password.len()) {
        return Err(PasswordError::Length);
    }
    argon2()?
        .hash_password_with_salt(password.as_bytes(), salt)
        .map(|h| h.to_string())
        .map_err(|e| PasswordError::Hashing(e.to_string()))
}

/// Whether `password` matches the PHC string `stored` (its own parameters and salt are used).
///
/// # Errors
/// A stored hash that does not parse.
pub fn verify(password: &str, stored: &str) -> Result<bool, PasswordError> {
    if password.len() > MAX_LEN {
        return Ok(false);
    }
    let parsed = PasswordHash::new(stored).map_err(|e| PasswordError::Hashing(e.to_string()))?;
    Ok(argon2()?.verify_password(password.as_bytes(), &parsed).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_argon2id_with_owasp_parameters_and_verifies_only_its_password() {
        let h = hash("correct horse battery", &salt("li", "c1")).unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify("correct horse battery", &h).unwrap());
        assert!(!verify("correct horse battery!", &h).unwrap());
        assert_eq!(h, hash("correct horse battery", &salt("li", "c1")).unwrap(), "a retry hashes the same");
        assert_ne!(h, hash("correct horse battery", &salt("li", "c2")).unwrap(), "another command, another salt");
        assert_ne!(h, hash("correct horse battery", &salt("wang", "c1")).unwrap(), "another account, another salt");
        assert_eq!(hash("short", &salt("li", "c1")), Err(PasswordError::Length));
        assert!(verify("x", "not a phc string").is_err());
    }
}
