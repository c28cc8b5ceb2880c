//! The estimator where users meet it on the command line: `weiqi sgf score --estimate` (and `--dead`
//! overriding it), `weiqi sgf check --json` comparing the estimated count with `RE[]`, and
//! `weiqi bench estimate --json` against GNU Go on corpus positions.

use std::process::Command;

const WEIQI: &str = env!("CARGO_BIN_EXE_weiqi");

fn weiqi(args: &[&str]) -> std::process::Output {
    Command::new(WEIQI).args(args).output().expect("weiqi runs")
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.lines().last().expect("a last line")).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A finished 9×9 wall game with one dead white stone (B5) inside Black's side; counted B+1.5.
const WALL: &str = "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]RE[B+1.5]\
;B[ea];W[fa];B[eb];W[fb];B[ec];W[fc];B[ed];W[fd];B[ee];W[fe];B[ef];W[ff];B[eg];W[fg];B[eh];W[fh];B[ei];W[fi]\
;B[];W[be];B[];W[])";

#[test]
fn sgf_score_counts_with_the_estimated_dead_stones_and_dead_overrides_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wall.sgf");
    std::fs::write(&file, WALL).unwrap();
    let f = file.to_str().unwrap();

    let all_alive = json_of(&weiqi(&["sgf", "score", f, "--json"]));
    assert_eq!(all_alive["result"], "W+35.5", "every stone alive: B5 makes the left side nobody's");
    assert_eq!(all_alive["estimated"], false);

    let estimated = json_of(&weiqi(&["sgf", "score", f, "--estimate", "--json"]));
    assert_eq!(estimated["dead"], serde_json::json!(["B5"]));
    assert_eq!(estimated["estimated"], true);
    assert_eq!(estimated["result"], "B+1.5");
    assert_eq!(estimated["recorded_result"], "B+1.5");

    // `--dead` wins over `--estimate`.
    let given = json_of(&weiqi(&["sgf", "score", f, "--estimate", "--dead", "F5", "--json"]));
    assert_eq!(
        (given["estimated"].clone(), given["dead"].clone()),
        (serde_json::json!(false), serde_json::json!(["F5"]))
    );

    // `sgf check --json`: the record is counted, and the estimate gives its RE[].
    let check = json_of(&weiqi(&["sgf", "check", "--json", f]));
    assert_eq!((check["counted"].as_u64(), check["estimate_agrees"].as_u64()), (Some(1), Some(1)));
    assert_eq!(check["estimates"][0]["estimated"], "B+1.5");
}

/// The corpus and GNU Go, or `None` (the test skips) where they are missing and may be (no
/// `WEIQI_REQUIRE_EXTERNAL`).
fn corpus_and_gnugo() -> Option<(String, &'static str)> {
    let corpus = std::env::var("WEIQI_CORPUS").ok();
    let gnugo = ["gnugo", "/usr/games/gnugo"]
        .into_iter()
        .find(|g| Command::new(g).arg("--version").output().is_ok_and(|o| o.status.success()));
    let found = corpus.zip(gnugo);
    if found.is_none() {
        assert!(std::env::var("WEIQI_REQUIRE_EXTERNAL").is_err(), "the corpus and gnugo are required");
        eprintln!("skipped: no corpus or no gnugo");
    }
    found
}

#[test]
fn bench_estimate_reports_its_keys_with_gnugo_on_the_same_positions() {
    let Some((corpus, gnugo)) = corpus_and_gnugo() else { return };
    let out = weiqi(&["bench", "estimate", "--positions", "3", "--corpus", &corpus, "--gnugo", gnugo, "--json"]);
    let r = json_of(&out);
    for key in ["positions", "exact_vs_gnugo", "median_ms", "p99_ms"] {
        assert!(r.get(key).is_some(), "{key} missing: {r}");
    }
    assert_eq!(r["positions"], 3);
    assert!(r["exact_vs_gnugo"].as_u64().unwrap() <= 3);
    assert!(r["median_ms"].as_f64().unwrap() > 0.0);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("dead stones exactly GNU Go's"), "{table}");
}

#[test]
fn bench_fairplay_reports_its_keys_on_corpus_games_with_gnugo() {
    let Some((corpus, gnugo)) = corpus_and_gnugo() else { return };
    let args =
        ["bench", "fairplay", "--games", "2", "--max-move", "60", "--corpus", &corpus, "--gnugo", gnugo, "--json"];
    let out = weiqi(&args);
    let r = json_of(&out);
    for key in ["games", "positions", "flag_rate_human", "detect_p30", "detect_p60", "detect_p90", "positions_per_sec"]
    {
        assert!(r.get(key).is_some(), "{key} missing: {r}");
    }
    assert_eq!(r["games"], 2);
    // Moves 30 to 60 of two games: at most 31 positions each (passes are not analysed).
    let positions = r["positions"].as_u64().unwrap();
    assert!((40..=62).contains(&positions), "{r}");
    assert!(r["flag_rate_human"].as_f64().unwrap() <= 0.01, "{r}");
    assert!(r["positions_per_sec"].as_f64().unwrap() > 0.0);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("assisted p = 0.9 flagged"), "{table}");
}
