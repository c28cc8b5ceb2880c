//! `weiqi bot`: a GTP engine as a player of the platform.
//!
//! The bridge signs in with the bot's player token, follows `MyGames` (every game the bot is seated
//! in, then new ones as they are created) and plays each one with its own engine process
//! ([`game::play`]): the bot's tournament games as they are paired, and casual challenges its
//! [`policy::Policy`] accepts, at most `--max-games` at once. It reconnects after a gateway restart
//! and resumes every game from its log; an engine that dies is restarted and replayed.
//!
//! ```text
//! weiqi bot --engine "gnugo --mode gtp --level 10" --token "$BOT_TOKEN" --server http://127.0.0.1:50051
//! weiqi bot --engine "katago gtp -model kata.bin.gz -config gtp.cfg" --token "$T" --sizes 19
//! weiqi bot --engine "pachi -t =5000" --token "$T" --max-games 2
//! ```

mod engine;
mod game;
mod policy;

use std::collections::HashSet;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use futures::StreamExt;
use tokio::sync::Semaphore;
use tonic::transport::Channel;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_service_client::GameServiceClient;

use self::game::{Finished, Seat};
use self::policy::Policy;

#[derive(Args)]
pub struct BotArgs {
    /// The engine's command line, e.g. "gnugo --mode gtp --level 10" (split like a shell, not run by one).
    #[arg(long)]
    engine: String,
    /// The bot's player token (`weiqi token --sub BOT --role player`).
    #[arg(long, env = "WEIQI_TOKEN", hide_env_values = true)]
    token: String,
    /// The gateway.
    #[arg(long, default_value = "http://127.0.0.1:50051", env = "WEIQI_SERVER")]
    server: String,
    /// Games played at once (one engine process each); more games wait for a free engine.
    #[arg(long, default_value_t = 2)]
    max_games: usize,
    /// Board sizes accepted in casual challenges.
    #[arg(long, value_delimiter = ',', default_value = "9,13,19")]
    sizes: Vec<u8>,
    /// Rules presets accepted in casual challenges (default: any).
    #[arg(long, value_delimiter = ',')]
    rules: Vec<String>,
    /// Longest main time accepted in casual challenges, in minutes.
    #[arg(long)]
    max_main_minutes: Option<u64>,
    /// Decline casual games without a clock.
    #[arg(long)]
    timed_only: bool,
    /// Decline casual handicap games.
    #[arg(long)]
    even_only: bool,
    /// Stop once every game seen has ended and none arrived for this many seconds (for scripts and
    /// tests; default: run until stopped).
    #[arg(long)]
    idle_exit: Option<u64>,
}

/// Runs the bridge until Ctrl-C (or `--idle-exit`).
pub async fn run(args: BotArgs) -> Result<ExitCode> {
    let _telemetry = weiqi_telemetry::init("weiqi-bot")?;
    let policy = Policy {
        sizes: args.sizes.clone(),
        rules: args.rules.clone(),
        max_main_minutes: args.max_main_minutes,
        untimed: !args.timed_only,
        handicap: !args.even_only,
    };
    let me = whoami(&args).await?;
    tracing::info!(bot = %me, engine = %args.engine, "bot signed in");
    let engines = Arc::new(Semaphore::new(args.max_games.max(1)));
    let mut seen: HashSet<String> = HashSet::new();
    let mut tasks = tokio::task::JoinSet::new();
    let mut backoff = Duration::from_millis(200);
    loop {
        let stream = match my_games(&args).await {
            Ok(s) => {
                backoff = Duration::from_millis(200);
                s
            }
            Err(e) => {
                tracing::info!(why = %e, "gateway unreachable; retrying in {backoff:?}");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
                continue;
            }
        };
        let mut stream = std::pin::pin!(stream);
        loop {
            let idle = args.idle_exit.map(Duration::from_secs).unwrap_or(Duration::MAX);
            tokio::select! {
                item = stream.next() => match item {
                    Some(Ok(g)) => {
                        if !seen.insert(g.game_id.clone()) {
                            continue;
                        }
                        let casual = g.tournament_id.is_empty();
                        if casual
                            && g.created_by != me
                            && let Err(why) = policy.accepts(&g)
                        {
                            tracing::info!(game = %g.game_id, %why, "challenge declined");
                            continue;
                        }
                        let seat = Seat {
                            server: args.server.clone(),
                            token: args.token.clone(),
                            me: me.clone(),
                            engine: args.engine.clone(),
                            start: casual,
                            game: g,
                        };
                        let engines = engines.clone();
                        tasks.spawn(async move {
                            let _engine = engines.acquire_owned().await;
                            let id = seat.game.game_id.clone();
                            (id, game::play(seat).await)
                        });
                    }
                    Some(Err(s)) => {
                        tracing::info!(why = %s.message(), "games stream cut; reconnecting");
                        break;
                    }
                    None => break,
                },
                Some(done) = tasks.join_next() => match done {
                    Ok((id, Finished::Ended)) => tracing::info!(game = %id, "game over"),
                    Ok((id, Finished::EngineGaveUp(why))) => {
                        tracing::error!(game = %id, %why, "the engine keeps failing; game left (restart the bot to resume it)");
                    }
                    Err(e) => tracing::error!("game task failed: {e}"),
                },
                () = tokio::time::sleep(idle), if tasks.is_empty() => {
                    tracing::info!("no games for {} s; stopping", idle.as_secs());
                    return Ok(ExitCode::SUCCESS);
                }
                _ = tokio::signal::ctrl_c() => {
                    tracing::info!("stopping; games resume from their logs when the bot is back");
                    return Ok(ExitCode::SUCCESS);
                }
            }
        }
        tokio::time::sleep(backoff).await;
    }
}

async fn client(args: &BotArgs) -> Result<GameServiceClient<Channel>> {
    let channel = Channel::from_shared(args.server.clone())
        .context("bad --server")?
        .connect()
        .await
        .with_context(|| format!("cannot reach the gateway at {}", args.server))?;
    Ok(GameServiceClient::new(channel))
}

fn authed<T>(message: T, token: &str) -> Result<tonic::Request<T>> {
    let mut r = tonic::Request::new(message);
    r.metadata_mut().insert("authorization", format!("Bearer {token}").parse().context("token is not valid ASCII")?);
    Ok(r)
}

/// The bot's player id, from the token.
async fn whoami(args: &BotArgs) -> Result<String> {
    let channel = Channel::from_shared(args.server.clone()).context("bad --server")?;
    let mut backoff = Duration::from_millis(200);
    let channel = loop {
        match channel.connect().await {
            Ok(c) => break c,
            Err(e) => {
                tracing::info!(why = %e, "gateway unreachable; retrying in {backoff:?}");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        }
    };
    let mut gateway = weiqi_proto::v1::gateway_service_client::GatewayServiceClient::new(channel);
    let who = gateway
        .whoami(authed(pb::WhoamiRequest {}, &args.token)?)
        .await
        .map_err(|s| anyhow::anyhow!("the gateway refused the token: {}", s.message()))?
        .into_inner();
    anyhow::ensure!(who.roles.iter().any(|r| r == "player"), "the token is not a player's (roles: {:?})", who.roles);
    Ok(who.subject)
}

async fn my_games(args: &BotArgs) -> Result<impl futures::Stream<Item = Result<pb::MyGame, tonic::Status>> + use<>> {
    let mut c = client(args).await?;
    Ok(c.my_games(authed(pb::MyGamesRequest {}, &args.token)?).await?.into_inner())
}
