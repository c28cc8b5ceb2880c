//! A GTP engine on stdin/stdout, for trying the engine by hand before `weiqi gtp` wires it:
//! `cargo run -p weiqi-gtp --example serve -- [--rules R] [--ko K] [--suicide S] [--komi K] [--seed N]`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let option = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(String::as_str);
    let seed = option("--seed").map(str::parse).transpose()?.unwrap_or(0);
    let config = weiqi_gtp::Config::from_options(
        option("--rules"),
        option("--ko"),
        option("--suicide"),
        option("--komi"),
        seed,
    )?;
    weiqi_gtp::serve(config, std::io::stdin().lock(), std::io::stdout().lock())?;
    Ok(())
}
