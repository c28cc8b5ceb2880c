//! `weiqi account`: accounts from the command line (for scripts, tests and the first administrator).
//! Works on the embedded log of `--data-dir` (with `weiqi up` stopped: the embedded log allows one
//! process) or on NATS JetStream (`--nats`, with the suite running).

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use weiqi_account::{AccountService, Actor};
use weiqi_aggregate::SystemEnvironment;
use weiqi_gateway::auth::Role;

#[derive(Args)]
pub struct AccountArgs {
    /// NATS server URL (default: the embedded log of --data-dir).
    #[arg(long, global = true, env = "WEIQI_NATS_URL")]
    nats: Option<String>,
    /// Data directory of the embedded log.
    #[arg(long, global = true, default_value = "./weiqi-data", env = "WEIQI_DATA_DIR")]
    data_dir: PathBuf,
    #[command(subcommand)]
    command: AccountCommand,
}

#[derive(Subcommand)]
enum AccountCommand {
    /// Create an account (its name is the player id games, tournaments and tokens use).
    Add {
        /// The account name: letters, digits, '-' and '_'.
        name: String,
        /// A role (repeat for several): player, referee, chief_referee, organiser, broadcaster,
        /// spectator, reviewer, admin.
        #[arg(long = "role", required = true)]
        roles: Vec<String>,
        /// Shown name (default: the account name).
        #[arg(long)]
        display_name: Option<String>,
        /// Read the password from this file (its first line; `-` for standard input). Without it, the
        /// account has no password until one is set.
        #[arg(long)]
        password_file: Option<PathBuf>,
    },
    /// Disable an account: its sessions and tokens stop working at once.
    Disable {
        name: String,
        #[arg(long, default_value = "disabled from the command line")]
        reason: String,
    },
    /// Enable a disabled account.
    Enable { name: String },
    /// Grant a role.
    Grant { name: String, role: String },
    /// Revoke a role.
    Revoke { name: String, role: String },
}

fn read_password(path: &PathBuf) -> Result<String> {
    let mut text = String::new();
    if path.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text)?;
    } else {
        text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    }
    Ok(text.lines().next().unwrap_or_default().to_string())
}

pub async fn run(args: AccountArgs) -> Result<ExitCode> {
    let log = super::source::open_log(args.nats.as_deref(), &args.data_dir, true).await?;
    let roles = Role::ALL.iter().map(|r| r.name().to_string());
    let accounts = AccountService::new(log, Arc::new(SystemEnvironment), roles);
    let id = |what: &str, name: &str| format!("cli-{what}-{name}-{}", uuid::Uuid::new_v4());
    let actor = Actor::System;
    let done = match args.command {
        AccountCommand::Add { name, roles, display_name, password_file } => {
            let password = password_file.as_ref().map(read_password).transpose()?;
            let shown = display_name.unwrap_or_else(|| name.clone());
            accounts
                .create(&name, &shown, &roles, password.as_deref(), &actor, &id("add", &name))
                .await
                .map(|()| format!("account {name} created ({})", roles.join(", ")))
        }
        AccountCommand::Disable { name, reason } => {
            accounts.disable(&name, &reason, &actor, &id("disable", &name)).await.map(|()| format!("{name} disabled"))
        }
        AccountCommand::Enable { name } => {
            accounts.enable(&name, &actor, &id("enable", &name)).await.map(|()| format!("{name} enabled"))
        }
        AccountCommand::Grant { name, role } => {
            accounts.grant(&name, &role, &actor, &id("grant", &name)).await.map(|()| format!("{name} now holds {role}"))
        }
        AccountCommand::Revoke { name, role } => accounts
            .revoke(&name, &role, &actor, &id("revoke", &name))
            .await
            .map(|()| format!("{name} no longer holds {role}")),
    };
    match done {
        Ok(message) => {
            println!("{message}");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}
