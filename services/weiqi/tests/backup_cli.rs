//! `weiqi backup` and `weiqi restore` as a user runs them: the golden log restored and backed up again
//! with `--json` on the last line, and the refusals' exit codes and messages.

use std::process::{Command, Output};

const WEIQI: &str = env!("CARGO_BIN_EXE_weiqi");

fn weiqi(args: &[&str]) -> Output {
    Command::new(WEIQI).args(args).env_remove("WEIQI_NATS_URL").output().expect("weiqi runs")
}

fn last_json(out: &Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.lines().last().expect("a last line")).expect("JSON on the last line")
}

#[test]
fn the_golden_log_restores_backs_up_and_refuses_what_it_must_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let golden = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden-v1.weiqi-backup");
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();

    let restored = weiqi(&["restore", golden, "--data-dir", data, "--json"]);
    assert!(restored.status.success(), "{}", String::from_utf8_lossy(&restored.stderr));
    let r = last_json(&restored);
    let kinds = r["kinds"].as_array().unwrap();
    assert_eq!(kinds.len(), 7);
    assert!(kinds.iter().all(|k| k["identical"] == true && k["replayed"] == k["aggregates"]), "{r}");

    let file = dir.path().join("again.weiqi-backup");
    let backed = weiqi(&["backup", "-o", file.to_str().unwrap(), "--data-dir", data, "--json"]);
    assert!(backed.status.success(), "{}", String::from_utf8_lossy(&backed.stderr));
    let b = last_json(&backed);
    assert_eq!((&b["events"], &b["aggregates"], &b["batches"]), (&r["events"], &r["aggregates"], &r["batches"]));
    assert!(b["bytes"].as_u64().unwrap() > 0 && b["seconds"].as_f64().is_some());
    assert!(!dir.path().join("again.weiqi-backup.partial").exists());

    // Into the same, now full, log: refused, naming what is there.
    let twice = weiqi(&["restore", file.to_str().unwrap(), "--data-dir", data]);
    let err = String::from_utf8_lossy(&twice.stderr);
    assert!(!twice.status.success() && err.contains("not empty") && err.contains("game:"), "{err}");

    // A truncated copy: refused with the position, nothing written.
    let bytes = std::fs::read(&file).unwrap();
    let cut = dir.path().join("cut.weiqi-backup");
    std::fs::write(&cut, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let empty = dir.path().join("empty");
    let refused = weiqi(&["restore", cut.to_str().unwrap(), "--data-dir", empty.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && err.contains("nothing was written") && err.contains("record"), "{err}");
}
