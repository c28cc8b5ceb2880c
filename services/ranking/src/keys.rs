//! The association's signing key on disk, for `weiqi up` and `weiqi serve ranking`.
//!
//! The key is an armored text file (`weiqi_rating::AssociationKey::to_text`); its public half is
//! written next to it as `<file>.pub`, the file `weiqi cert verify --key` reads. A missing key is
//! created from the operating system's randomness (two v4 UUIDs: 244 random bits, plus fixed bits,
//! hashed into the 32-byte seed) so that a first `weiqi up` needs no setup; production deployments
//! bring their own key file.

use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use weiqi_rating::{AssociationKey, parse_signing_key};

/// The public key file next to a signing key file.
#[must_use]
pub fn public_key_path(signing: &Path) -> PathBuf {
    let mut name = signing.as_os_str().to_owned();
    name.push(".pub");
    PathBuf::from(name)
}

/// Reads the signing key at `path`, or creates one for `association` (and its `.pub`) if the file
/// does not exist.
///
/// # Errors
/// IO errors, and `InvalidData` for a file that is not a signing key.
pub fn load_or_create(path: &Path, association: &str) -> io::Result<AssociationKey> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let key = parse_signing_key(&text)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", path.display())))?;
            let public = public_key_path(path);
            if !public.exists() {
                std::fs::write(&public, key.public().to_text())?;
            }
            Ok(key)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let mut hasher = Sha256::new();
            hasher.update(uuid::Uuid::new_v4().as_bytes());
            hasher.update(uuid::Uuid::new_v4().as_bytes());
            let seed: [u8; 32] = hasher.finalize().into();
            let key = AssociationKey::from_seed(association, seed)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            if !write_once_private(path, &key.to_text())? {
                // Another process (a second service on the same data directory) made it first.
                return load_or_create(path, association);
            }
            std::fs::write(public_key_path(path), key.public().to_text())?;
            tracing::info!(path = %path.display(), key_id = %key.key_id(), "created the association's signing key");
            Ok(key)
        }
        Err(e) => Err(e),
    }
}

/// Creates `path` holding `text`, readable by its owner only, unless it exists: `Ok(true)` if this
/// call created it, `Ok(false)` if it was there (or another process created it at the same moment).
/// The file appears whole or not at all: written under a temporary name, then linked into place,
/// which fails if the name is taken, so two processes starting together never read a half-written
/// secret nor overwrite each other's.
///
/// # Errors
/// IO errors other than the name being taken.
pub fn write_once_private(path: &Path, text: &str) -> io::Result<bool> {
    let tmp = path.with_extension(format!("tmp-{}", uuid::Uuid::new_v4()));
    write_private_new(&tmp, text)?;
    let linked = std::fs::hard_link(&tmp, path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(unix)]
fn write_private_new(path: &Path, text: &str) -> io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()
}

#[cfg(not(unix))]
fn write_private_new(path: &Path, text: &str) -> io::Result<()> {
    std::fs::write(path, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_created_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys").join("association.key");
        let created = load_or_create(&path, "cwa").unwrap();
        let again = load_or_create(&path, "ignored").unwrap();
        assert_eq!(again.key_id(), created.key_id());
        assert_eq!(again.association(), "cwa");
        let public = std::fs::read_to_string(public_key_path(&path)).unwrap();
        assert_eq!(weiqi_rating::parse_public_key(&public).unwrap(), created.public());
        std::fs::write(dir.path().join("bad.key"), "not a key").unwrap();
        let bad = load_or_create(&dir.path().join("bad.key"), "cwa").unwrap_err();
        assert_eq!(bad.kind(), io::ErrorKind::InvalidData);
    }

    /// Eight processes starting together on one data directory end with one key, the same for all.
    #[test]
    fn processes_starting_together_share_one_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("association.key");
        let ids: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> =
                (0..8).map(|_| s.spawn(|| load_or_create(&path, "cwa").unwrap().key_id().to_string())).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(ids.iter().all(|id| id == &ids[0]), "{ids:?}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 2, "the key and its public half, no temporary file: {left:?}");
    }
}
