//! `weiqi cert verify`: check a rank certificate offline.
//!
//! With `--revocations FILE` the certificate is checked against a signed revocation list, and the
//! list itself must be current: it may not be older than a list already seen from the same key (the
//! highest sequence per key is remembered in a small state file, `--state`, by default
//! `$XDG_STATE_HOME/weiqi/revocations.json` or `~/.local/state/weiqi/revocations.json`), and it may
//! not be past its `next-update` time unless `--allow-stale` (which never waives a rollback).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;
use weiqi_rating::Millis;

#[derive(Subcommand)]
pub enum CertCommand {
    /// Verify a certificate against the association's public key (and a signed revocation list).
    Verify {
        /// The certificate file.
        file: PathBuf,
        /// The association's public key file.
        #[arg(long)]
        key: PathBuf,
        /// A signed revocation list (as served by the gateway).
        #[arg(long)]
        revocations: Option<PathBuf>,
        /// Accept a revocation list past its next-update time (never one older than a list seen).
        #[arg(long)]
        allow_stale: bool,
        /// Where the highest revocation-list sequence seen per key is kept.
        #[arg(long, env = "WEIQI_CERT_STATE")]
        state: Option<PathBuf>,
    },
}

fn read(path: &PathBuf) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

/// The default state file: `$XDG_STATE_HOME/weiqi/revocations.json`, else under `~/.local/state`.
fn default_state() -> PathBuf {
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("weiqi").join("revocations.json")
}

/// Highest revocation-list sequence seen, by key id.
fn load_state(path: &Path) -> Result<BTreeMap<String, u64>> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).with_context(|| format!("reading the state file {}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
        Err(e) => Err(e).with_context(|| format!("reading the state file {}", path.display())),
    }
}

/// Writes the state atomically (a temporary file renamed over the old one).
fn save_state(path: &Path, state: &BTreeMap<String, u64>) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, serde_json::to_string_pretty(state)?).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))
}

fn now() -> Millis {
    use weiqi_aggregate::Environment as _;
    Millis(weiqi_aggregate::SystemEnvironment.now().0)
}

pub fn run(c: CertCommand) -> Result<ExitCode> {
    let CertCommand::Verify { file, key, revocations, allow_stale, state } = c;
    let cert = read(&file)?;
    let key = read(&key)?;
    let revocations = revocations.as_ref().map(read).transpose()?;
    let outcome = weiqi_rating::verify_texts(&cert, &key, revocations.as_deref());
    // A list whose signature verified (the certificate valid or revoked by it): is it current?
    let signed_list = match (&outcome, &revocations) {
        (Ok(_) | Err(weiqi_rating::VerifyError::Revoked { .. }), Some(text)) => {
            Some(weiqi_rating::parse_revocation_list(text).context("re-reading the revocation list")?)
        }
        _ => None,
    };
    if let Some(signed) = &signed_list {
        let list = &signed.list;
        let path = state.unwrap_or_else(default_state);
        let mut seen = load_state(&path)?;
        let previous = seen.get(&list.key_id).copied();
        if let Err(e) = weiqi_rating::check_freshness(list, now(), previous, allow_stale) {
            println!("INVALID: {e}");
            return Ok(ExitCode::FAILURE);
        }
        if previous.is_none_or(|p| list.sequence > p) {
            seen.insert(list.key_id.clone(), list.sequence);
            save_state(&path, &seen)?;
        }
    }
    match outcome {
        Ok(v) => {
            let c = &v.certificate;
            println!(
                "valid: {} ({}) holds {} {} of the {} ladder",
                c.player_name, c.player.0, c.grade, c.grade_name, c.ladder
            );
            println!(
                "  serial {} issued {} by {} (key {}), case {}",
                c.serial, c.date, c.association, c.key_id, c.case.0
            );
            println!("  basis: {}", c.basis);
            match (v.revocations_checked, &signed_list) {
                (Some((seq, _)), Some(s)) => println!(
                    "  not revoked (revocation list #{seq} signed {}, next update due {})",
                    s.list.issued_at.map_or_else(|| s.list.issued.to_string(), weiqi_rating::format_utc),
                    s.list.next_update.map_or_else(|| "unknown".into(), weiqi_rating::format_utc)
                ),
                (Some((seq, issued)), None) => println!("  not revoked (revocation list #{seq} of {issued})"),
                (None, _) => println!("  revocations not checked (pass --revocations FILE)"),
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            println!("INVALID: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}
