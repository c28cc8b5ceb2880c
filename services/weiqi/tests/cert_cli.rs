//! Issue 15 item 15 through the binary: `weiqi cert verify --revocations` remembers the highest list
//! sequence per key in its state file and refuses an older list (a rollback) or one past its
//! next-update time unless `--allow-stale`.

use std::path::Path;
use std::process::Command;

use weiqi_rating::{AssociationKey, CaseId, CertificateBody, Millis, PlayerId, RevocationList};

const WEIQI: &str = env!("CARGO_BIN_EXE_weiqi");
const HOUR: i64 = 3_600_000;

fn now() -> Millis {
    Millis(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64)
}

fn list(key: &AssociationKey, sequence: u64, signed: Millis, due: Millis) -> String {
    let list = RevocationList {
        association: key.association().into(),
        key_id: key.key_id(),
        issued: weiqi_rating::CivilDate::from_millis(signed),
        sequence,
        issued_at: Some(signed),
        next_update: Some(due),
        entries: vec![],
    };
    key.sign_revocations(list).unwrap().to_text()
}

fn verify(dir: &Path, list_file: &str, extra: &[&str]) -> (bool, String) {
    let out = Command::new(WEIQI)
        .args(["cert", "verify", "cert.txt", "--key", "key.pub", "--revocations", list_file, "--state", "state.json"])
        .args(extra)
        .current_dir(dir)
        .output()
        .unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn an_older_or_stale_revocation_list_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let key = AssociationKey::from_seed("cwa", [4; 32]).unwrap();
    let body = CertificateBody {
        serial: "CWA-2026-000007".into(),
        association: "cwa".into(),
        key_id: key.key_id(),
        player: PlayerId::from("li-ming"),
        player_name: "李明 / Li Ming".into(),
        ladder: "amateur".into(),
        grade: "5d".into(),
        grade_name: "业余5段".into(),
        date: "2026-11-30".parse().unwrap(),
        case: CaseId::from("case-7"),
        basis: "qualify-5d".into(),
    };
    let write = |name: &str, text: String| std::fs::write(dir.path().join(name), text).unwrap();
    write("cert.txt", key.sign_certificate(body).unwrap().to_text());
    write("key.pub", key.public().to_text());
    let t = now();
    write("list1.txt", list(&key, 1, Millis(t.0 - 2 * HOUR), Millis(t.0 + 24 * HOUR)));
    write("list2.txt", list(&key, 2, Millis(t.0 - HOUR), Millis(t.0 + 24 * HOUR)));
    write("stale3.txt", list(&key, 3, Millis(t.0 - 48 * HOUR), Millis(t.0 - 24 * HOUR)));

    let (ok, out) = verify(dir.path(), "list2.txt", &[]);
    assert!(ok && out.contains("not revoked (revocation list #2"), "{out}");
    let state = std::fs::read_to_string(dir.path().join("state.json")).unwrap();
    assert!(state.contains(&format!("\"{}\": 2", key.key_id())), "{state}");

    let (ok, out) = verify(dir.path(), "list1.txt", &[]);
    assert!(!ok && out.contains("older than list #2"), "a rollback: {out}");
    let (ok, out) = verify(dir.path(), "list1.txt", &["--allow-stale"]);
    assert!(!ok && out.contains("older than list #2"), "--allow-stale never waives a rollback: {out}");

    let (ok, out) = verify(dir.path(), "stale3.txt", &[]);
    assert!(!ok && out.contains("stale"), "{out}");
    let (ok, out) = verify(dir.path(), "stale3.txt", &["--allow-stale"]);
    assert!(ok, "{out}");
    // Having seen #3, the state refuses #2 now.
    let (ok, out) = verify(dir.path(), "list2.txt", &[]);
    assert!(!ok && out.contains("older than list #3"), "{out}");
}
