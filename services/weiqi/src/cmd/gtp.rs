//! `weiqi gtp`: a GTP version 2 engine on stdin/stdout (and the load-test bot).

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use weiqi_rules::Ruleset;

#[derive(Args)]
pub struct GtpArgs {
    /// Ruleset preset.
    #[arg(long, default_value = "chinese")]
    rules: String,
    /// Ko rule: simple, positional, situational.
    #[arg(long)]
    ko: Option<String>,
    /// Suicide: allowed or forbidden.
    #[arg(long)]
    suicide: Option<String>,
    /// Komi in points.
    #[arg(long)]
    komi: Option<String>,
    /// Seed of the random player behind `genmove`.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub fn run(args: GtpArgs) -> Result<ExitCode> {
    let mut ruleset: Ruleset = args.rules.parse()?;
    if let Some(ko) = &args.ko {
        ruleset.ko = weiqi_gtp::parse_ko_rule(ko)?;
    }
    if let Some(s) = &args.suicide {
        ruleset.suicide = weiqi_gtp::parse_suicide(s)?;
    }
    if let Some(k) = &args.komi {
        ruleset.komi = weiqi_gtp::parse_komi(k)?;
    }
    let config = weiqi_gtp::Config::new(ruleset, args.seed);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    weiqi_gtp::serve(config, stdin.lock(), stdout.lock())?;
    Ok(ExitCode::SUCCESS)
}
