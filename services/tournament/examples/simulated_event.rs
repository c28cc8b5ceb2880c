//! Runs the simulated event of `weiqi_tournament::bench` and prints its report as JSON.
//!
//! `cargo run --release -p weiqi-tournament --example simulated_event -- [PLAYERS] [ROUNDS] [NATS_URL]`

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let players = args.first().map_or(Ok(2000), |s| s.parse())?;
    let rounds = args.get(1).map_or(Ok(7), |s| s.parse())?;
    let nats = args.get(2).cloned();
    let report = weiqi_tournament::bench::simulated_event(players, rounds, nats).await?;
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}
