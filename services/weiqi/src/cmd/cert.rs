//! `weiqi cert verify`: check a rank certificate offline.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;

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
    },
}

fn read(path: &PathBuf) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

pub fn run(c: CertCommand) -> Result<ExitCode> {
    let CertCommand::Verify { file, key, revocations } = c;
    let cert = read(&file)?;
    let key = read(&key)?;
    let revocations = revocations.as_ref().map(read).transpose()?;
    match weiqi_rating::verify_texts(&cert, &key, revocations.as_deref()) {
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
            match v.revocations_checked {
                Some((seq, issued)) => println!("  not revoked (revocation list #{seq} of {issued})"),
                None => println!("  revocations not checked (pass --revocations FILE)"),
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            println!("INVALID: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}
