//! Accounts: the decider given/when/then, every accepted command folds (proptest), and the service on
//! the embedded log (create, log in, a wrong password, disable and enable, roles, retries).

use std::collections::BTreeSet;
use std::sync::Arc;

use proptest::prelude::*;
use weiqi_account::domain::{self, Account, Actor, Command, Event, Rejection};
use weiqi_account::{AccountError, AccountService, LoginError};
use weiqi_aggregate::SystemEnvironment;
use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog};

fn roles(r: &[&str]) -> BTreeSet<String> {
    r.iter().map(|s| s.to_string()).collect()
}

fn created(r: &[&str]) -> Account {
    let mut a = Account::default();
    domain::evolve(&mut a, &Event::Created { display_name: "Li Ming".into(), roles: roles(r), password_hash: None })
        .unwrap();
    a
}

fn admin() -> Actor {
    Actor::Admin("root".into())
}

#[test]
fn given_no_account_only_an_administrator_creates_one_with_a_usable_name() {
    let none = Account::default();
    let create =
        Command::Create { display_name: "李明".into(), roles: roles(&["player"]), password_hash: Some("h".into()) };
    assert!(domain::decide(&none, "li", &admin(), &create, 0).is_ok());
    assert!(domain::decide(&none, "li", &Actor::System, &create, 0).is_ok());
    assert_eq!(
        domain::decide(&none, "li", &Actor::Holder("li".into()), &create, 0),
        Err(Rejection::NotAnAdministrator)
    );
    assert_eq!(domain::decide(&none, "li ming", &admin(), &create, 0), Err(Rejection::BadName("li ming".into())));
    assert_eq!(domain::decide(&none, "li", &admin(), &Command::Enable, 0), Err(Rejection::NotFound("li".into())));
    let blank = Command::Create { display_name: "  ".into(), roles: roles(&[]), password_hash: None };
    assert_eq!(domain::decide(&none, "li", &admin(), &blank, 0), Err(Rejection::BadDisplayName));
    assert_eq!(domain::decide(&created(&[]), "li", &admin(), &create, 0), Err(Rejection::AlreadyExists("li".into())));
}

/// Given: no account. When: one is created with capitals, or a shown name that hides or disguises
/// text, or one too long. Then: refused; a token label and a disable reason have limits too.
#[test]
fn names_are_lower_case_and_shown_names_hide_nothing() {
    let none = Account::default();
    let with =
        |shown: &str| Command::Create { display_name: shown.into(), roles: roles(&["player"]), password_hash: None };
    assert_eq!(
        domain::decide(&none, "Alice", &admin(), &with("Alice"), 0),
        Err(Rejection::NotLowerCase("Alice".into()))
    );
    for bad in ["ecila\u{202E}", "李\u{200B}明", "a\u{2066}b", "tab\there", "\u{FEFF}bom", &"长".repeat(65)] {
        assert_eq!(domain::decide(&none, "li", &admin(), &with(bad), 0), Err(Rejection::BadDisplayName), "{bad:?}");
    }
    assert!(domain::decide(&none, "li", &admin(), &with(&"长".repeat(64)), 0).is_ok());
    assert!(domain::decide(&none, "li", &admin(), &with("Li Ming 李明"), 0).is_ok());
    let account = created(&["player"]);
    let label = Command::IssueToken { id: "t1".into(), label: "x".repeat(201), expires_at_ms: 1 };
    assert!(matches!(domain::decide(&account, "li", &admin(), &label, 0), Err(Rejection::BadText { .. })));
    let reason = Command::Disable { reason: "x".repeat(400_000) };
    assert!(matches!(domain::decide(&account, "li", &admin(), &reason, 0), Err(Rejection::BadText { .. })));
}

#[test]
fn given_an_account_roles_and_disabling_are_for_administrators_and_change_something() {
    let a = created(&["player"]);
    let holder = Actor::Holder("li".into());
    assert_eq!(
        domain::decide(&a, "li", &holder, &Command::Grant("admin".into()), 0),
        Err(Rejection::NotAnAdministrator)
    );
    assert_eq!(
        domain::decide(&a, "li", &admin(), &Command::Grant("player".into()), 0),
        Err(Rejection::RoleUnchanged { role: "player".into(), held: true })
    );
    assert_eq!(
        domain::decide(&a, "li", &admin(), &Command::Grant("referee".into()), 0),
        Ok(vec![Event::RoleGranted("referee".into())])
    );
    assert_eq!(domain::decide(&a, "li", &admin(), &Command::Enable, 0), Err(Rejection::DisabledUnchanged(false)));
    // The holder sets their own password; another holder may not.
    let set = Command::SetPassword { password_hash: "h".into() };
    assert!(domain::decide(&a, "li", &holder, &set, 0).is_ok());
    assert_eq!(domain::decide(&a, "li", &Actor::Holder("wang".into()), &set, 0), Err(Rejection::NotTheHolder));
    // An administrator cannot lock themselves out.
    let root = created(&["admin"]);
    assert_eq!(
        domain::decide(&root, "root", &admin(), &Command::Disable { reason: "x".into() }, 0),
        Err(Rejection::OwnAdministration)
    );
    assert_eq!(
        domain::decide(&root, "root", &admin(), &Command::Revoke("admin".into()), 0),
        Err(Rejection::OwnAdministration)
    );
}

#[test]
fn a_revoked_or_expired_token_and_a_disabled_account_are_not_valid() {
    let mut a = created(&["player"]);
    domain::evolve(&mut a, &Event::TokenIssued { id: "t1".into(), label: "bot".into(), expires_at_ms: 1_000 }).unwrap();
    assert!(a.token_valid("t1", 999));
    assert!(!a.token_valid("t1", 1_000), "expired");
    assert!(!a.token_valid("t2", 0), "never issued");
    domain::evolve(&mut a, &Event::Disabled { reason: "x".into() }).unwrap();
    assert!(!a.token_valid("t1", 0), "disabled");
    domain::evolve(&mut a, &Event::Enabled).unwrap();
    domain::evolve(&mut a, &Event::TokenRevoked("t1".into())).unwrap();
    assert!(!a.token_valid("t1", 0), "revoked");
    assert_eq!(
        domain::decide(&a, "li", &admin(), &Command::RevokeToken("t1".into()), 0),
        Err(Rejection::UnknownToken("t1".into()))
    );
}

fn command() -> impl Strategy<Value = (u8, Command)> {
    let role = prop::sample::select(vec!["player", "referee", "admin"]).prop_map(String::from);
    let cmd = prop_oneof![
        Just(Command::Create { display_name: "A".into(), roles: BTreeSet::new(), password_hash: None }),
        Just(Command::SetPassword { password_hash: "h".into() }),
        role.clone().prop_map(Command::Grant),
        role.prop_map(Command::Revoke),
        Just(Command::Disable { reason: "r".into() }),
        Just(Command::Enable),
        (0..3u8).prop_map(|i| Command::IssueToken { id: format!("t{i}"), label: "l".into(), expires_at_ms: 5 }),
        (0..3u8).prop_map(|i| Command::RevokeToken(format!("t{i}"))),
    ];
    (0..3u8, cmd)
}

proptest! {
    #[test]
    fn every_command_decide_accepts_folds(commands in prop::collection::vec(command(), 1..40)) {
        let mut state = Account::default();
        for (who, c) in commands {
            let actor = match who { 0 => Actor::System, 1 => Actor::Admin("root".into()), _ => Actor::Holder("li".into()) };
            if let Ok(events) = domain::decide(&state, "li", &actor, &c, 0) {
                for e in &events {
                    prop_assert!(domain::evolve(&mut state, e).is_ok(), "{:?} from {:?}", e, c);
                }
            }
        }
    }
}

fn service() -> (tempfile::TempDir, AccountService<AnyEventLog>) {
    let dir = tempfile::tempdir().unwrap();
    let log: AnyEventLog = EmbeddedLog::open(dir.path().join("log.redb"), EmbeddedConfig::default()).unwrap().into();
    let roles = ["player", "referee", "admin"].map(String::from);
    (dir, AccountService::new(log, Arc::new(SystemEnvironment), roles))
}

#[tokio::test]
async fn an_account_logs_in_with_its_password_until_it_is_disabled() {
    let (_dir, accounts) = service();
    let player = vec!["player".to_string()];
    accounts.create("li", "李明", &player, Some("correct horse"), &Actor::System, "c1").await.unwrap();
    // A retry is the same command; the same id for something else is refused.
    accounts.create("li", "李明", &player, Some("correct horse"), &Actor::System, "c1").await.unwrap();
    assert_eq!(
        accounts.create("li", "Li", &player, Some("another password"), &Actor::System, "c1").await,
        Err(AccountError::RequestIdReused)
    );
    assert_eq!(
        accounts.create("li", "李明", &player, None, &Actor::System, "c2").await,
        Err(AccountError::Refused(Rejection::AlreadyExists("li".into())))
    );
    assert_eq!(
        accounts.create("wang", "Wang", &["wizard".to_string()], None, &Actor::System, "c3").await,
        Err(AccountError::Refused(Rejection::UnknownRole("wizard".into())))
    );

    let a = accounts.login("li", "correct horse").await.unwrap();
    assert_eq!(a.roles, roles(&["player"]));
    assert!(a.password_hash.unwrap().starts_with("$argon2id$"), "only the hash is stored");
    assert_eq!(accounts.login("li", "wrong horse").await, Err(LoginError::Wrong));
    assert_eq!(accounts.login("nobody", "correct horse").await, Err(LoginError::Wrong));
    assert_eq!(accounts.login("bad name!", "x").await, Err(LoginError::Wrong));

    accounts.disable("li", "left the club", &admin(), "d1").await.unwrap();
    assert_eq!(accounts.login("li", "correct horse").await, Err(LoginError::Disabled));
    accounts.enable("li", &admin(), "e1").await.unwrap();
    accounts.set_password("li", "battery staple", &Actor::Holder("li".into()), "p1").await.unwrap();
    assert_eq!(accounts.login("li", "correct horse").await, Err(LoginError::Wrong));
    assert!(accounts.login("li", "battery staple").await.is_ok());

    accounts.grant("li", "referee", &admin(), "g1").await.unwrap();
    assert_eq!(accounts.get("li").await.unwrap().unwrap().roles, roles(&["player", "referee"]));
    assert_eq!(accounts.get("nobody").await.unwrap(), None);
}
