//! `weiqi token`: issue a token signed with the data directory's secret (the same one `weiqi up` uses).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use weiqi_gateway::auth::Role;

#[derive(Args)]
pub struct TokenArgs {
    /// The subject: a player id, or a staff member's id.
    #[arg(long)]
    sub: String,
    /// Roles: player, referee, chief_referee, organiser, broadcaster, spectator, reviewer, admin.
    #[arg(long = "role", required = true)]
    roles: Vec<String>,
    /// Events this referee/organiser acts for (`*` = all).
    #[arg(long = "event")]
    events: Vec<String>,
    /// Validity in hours.
    #[arg(long, default_value_t = 24)]
    hours: u64,
    /// Data directory holding `secret.key`.
    #[arg(long, default_value = "./weiqi-data", env = "WEIQI_DATA_DIR")]
    data_dir: PathBuf,
}

pub fn run(args: TokenArgs) -> Result<ExitCode> {
    let auth = crate::suite::authority(&args.data_dir)?;
    let roles = args
        .roles
        .iter()
        .map(|r| Role::ALL.iter().copied().find(|x| x.name() == r).with_context(|| format!("unknown role {r:?}")))
        .collect::<Result<Vec<_>>>()?;
    let events: Vec<&str> = args.events.iter().map(String::as_str).collect();
    println!("{}", auth.issue(&args.sub, &roles, &events, Duration::from_secs(args.hours * 3600)));
    Ok(ExitCode::SUCCESS)
}
