//! `weiqi account` on an embedded log: accounts made from the command line log in with their
//! password, refusals say why, and a disabled account's login is refused.

use std::process::Command;
use std::sync::Arc;

use weiqi_account::{AccountService, LoginError};
use weiqi_aggregate::SystemEnvironment;
use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog};

const WEIQI: &str = env!("CARGO_BIN_EXE_weiqi");

fn account(dir: &std::path::Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(WEIQI).arg("account").arg("--data-dir").arg(dir).args(args).output().unwrap();
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

#[tokio::test]
async fn accounts_added_on_the_command_line_log_in_until_disabled() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let pw = dir.path().join("pw");
    std::fs::write(&pw, "correct horse\n").unwrap();
    let pw = pw.to_str().unwrap();
    let (ok, text) =
        account(&data, &["add", "li", "--role", "player", "--display-name", "李明", "--password-file", pw]);
    assert!(ok, "{text}");
    let (ok, text) = account(&data, &["add", "li", "--role", "player"]);
    assert!(!ok && text.contains("exists already"), "{text}");
    let (ok, text) = account(&data, &["add", "wang", "--role", "wizard"]);
    assert!(!ok && text.contains("unknown role"), "{text}");
    assert!(account(&data, &["add", "root", "--role", "admin", "--password-file", pw]).0);

    let open = || {
        let log: AnyEventLog = EmbeddedLog::open(data.join("events.redb"), EmbeddedConfig::default()).unwrap().into();
        AccountService::new(log, Arc::new(SystemEnvironment), ["player", "admin"].map(String::from))
    };
    {
        let accounts = open();
        let li = accounts.login("li", "correct horse").await.unwrap();
        assert_eq!(li.display_name, "李明");
        assert_eq!(accounts.login("li", "Correct horse").await, Err(LoginError::Wrong));
    }
    assert!(account(&data, &["disable", "li"]).0);
    assert_eq!(open().login("li", "correct horse").await, Err(LoginError::Disabled));
    assert!(account(&data, &["enable", "li"]).0);
    assert!(open().login("li", "correct horse").await.is_ok());
}
