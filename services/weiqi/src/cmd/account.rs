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
        /// A player's declared grade as the association writes it (`3段`, `5级`, `2d`): with the
        /// `player` role the account is entered in the player registry at once, with this grade (and
        /// `--region`, which alone also enters it).
        #[arg(long)]
        rank: Option<String>,
        /// A player's region, for the player registry.
        #[arg(long, default_value = "")]
        region: String,
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

/// Enters a player's account in the player registry with its declared grade and region (the same
/// player commands the ranking service runs); the rating is seeded from the grade when the player's
/// first rated game is rated.
async fn register_player(
    log: &weiqi_eventlog::AnyEventLog,
    name: &str,
    shown: &str,
    region: &str,
    rank: Option<&str>,
) -> Result<String> {
    use weiqi_ranking::domain::{Actor as RankingActor, PlayerCommand, Profile};
    use weiqi_ranking::registry::{PlayerRegistry, declared_grade};
    let registry = PlayerRegistry::new(log.clone(), Arc::new(SystemEnvironment));
    let player = weiqi_rating::PlayerId(name.to_string());
    let declared = declared_grade(rank, |_| None).map_err(|e| anyhow::anyhow!("{e}"))?;
    let latin = shown.is_ascii();
    let profile = Profile {
        id: player.clone(),
        name_zh: if latin { String::new() } else { shown.to_string() },
        name_latin: if latin { shown.to_string() } else { String::new() },
        region: region.trim().to_string(),
        ..Default::default()
    };
    let actor = RankingActor::staff("cli");
    let request = uuid::Uuid::new_v4();
    registry
        .execute(&player, &format!("register/{player}/cli-{request}"), &actor, &PlayerCommand::Register { profile })
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let Some(d) = declared else { return Ok("in the player registry (no grade declared)".into()) };
    let declare =
        PlayerCommand::DeclareRank { ladder: d.ladder.clone(), grade: d.grade.clone(), grade_name: d.grade_name };
    registry
        .execute(&player, &format!("declare/{player}/cli-{request}"), &actor, &declare)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(format!("in the player registry as {} ({})", d.grade, d.ladder))
}

pub async fn run(args: AccountArgs) -> Result<ExitCode> {
    let log = super::source::open_log(args.nats.as_deref(), &args.data_dir, true).await?;
    let roles = Role::ALL.iter().map(|r| r.name().to_string());
    let accounts = AccountService::new(log.clone(), Arc::new(SystemEnvironment), roles);
    let id = |what: &str, name: &str| format!("cli-{what}-{name}-{}", uuid::Uuid::new_v4());
    let actor = Actor::System;
    let done = match args.command {
        AccountCommand::Add { name, roles, display_name, password_file, rank, region } => {
            let password = password_file.as_ref().map(read_password).transpose()?;
            let shown = display_name.unwrap_or_else(|| name.clone());
            let created = accounts
                .create(&name, &shown, &roles, password.as_deref(), &actor, &id("add", &name))
                .await
                .map(|()| format!("account {name} created ({})", roles.join(", ")));
            // One identity from the first page on (issue 33 item 1): a player's account declared with a
            // grade or a region is a registry entry too (without either, an organiser registers the
            // player later, with what the association knows: `RegisterPlayer`, the desk, `/registry`).
            match created {
                Ok(done) if roles.iter().any(|r| r == "player") && (rank.is_some() || !region.trim().is_empty()) => {
                    register_player(&log, &name, &shown, &region, rank.as_deref())
                        .await
                        .map(|registered| format!("{done}; {registered}"))
                }
                other => other.map_err(anyhow::Error::from),
            }
        }
        AccountCommand::Disable { name, reason } => accounts
            .disable(&name, &reason, &actor, &id("disable", &name))
            .await
            .map(|()| format!("{name} disabled"))
            .map_err(anyhow::Error::from),
        AccountCommand::Enable { name } => accounts
            .enable(&name, &actor, &id("enable", &name))
            .await
            .map(|()| format!("{name} enabled"))
            .map_err(anyhow::Error::from),
        AccountCommand::Grant { name, role } => accounts
            .grant(&name, &role, &actor, &id("grant", &name))
            .await
            .map(|()| format!("{name} now holds {role}"))
            .map_err(anyhow::Error::from),
        AccountCommand::Revoke { name, role } => accounts
            .revoke(&name, &role, &actor, &id("revoke", &name))
            .await
            .map(|()| format!("{name} no longer holds {role}"))
            .map_err(anyhow::Error::from),
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
