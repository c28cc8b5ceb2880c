//! Issue 15 item 13: promotion rules as data at run time. A rules directory loads with every file's
//! precise errors; each check records the rule set's name and digest; a changed rule set applies to
//! new cases only.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::TestClock;
use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog};
use weiqi_ranking::registry::Profile;
use weiqi_ranking::rules_dir::{RulesDirError, load_rules_dir};
use weiqi_ranking::tournaments::NoTournaments;
use weiqi_ranking::{Application, RankingConfig, RankingService};
use weiqi_rating::{ActorId, Applicant, AssociationKey, AssociationRules, PlayerId};

const FILES: [(&str, &str); 4] = [
    ("cwa-amateur.toml", include_str!("../../../shared/rating/rules/cwa-amateur.toml")),
    ("professional-example.toml", include_str!("../../../shared/rating/rules/professional-example.toml")),
    ("shanghai-kyu.toml", include_str!("../../../shared/rating/rules/shanghai-kyu.toml")),
    ("beijing-kyu.toml", include_str!("../../../shared/rating/rules/beijing-kyu.toml")),
];

fn write_dir(amateur: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in FILES {
        let text = if name == "cwa-amateur.toml" { amateur } else { text };
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    std::fs::write(dir.path().join("README.txt"), "not a rule file").unwrap();
    dir
}

fn service(log: &AnyEventLog, clock: &Arc<TestClock>, rules: Vec<AssociationRules>) -> RankingService {
    let mut config = RankingConfig::new(AssociationKey::from_seed("cwa", [5; 32]).unwrap(), rules);
    config.tick = Duration::from_secs(3_600);
    RankingService::with_environment(log.clone(), Arc::new(NoTournaments), config, clock.clone())
}

fn application(player: &str) -> Application {
    Application {
        request_id: format!("apply-{player}"),
        player: PlayerId::from(player),
        ladder: String::new(),
        requested: "1d".into(),
        games: vec![],
        tournaments: vec![],
        include_rating: true,
    }
}

#[test]
fn a_rules_directory_loads_named_files_and_reports_precise_errors() {
    let dir = write_dir(FILES[0].1);
    let rules = load_rules_dir(dir.path()).unwrap();
    let names: Vec<&str> = rules.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["beijing-kyu.toml", "cwa-amateur.toml", "professional-example.toml", "shanghai-kyu.toml"]);
    let shipped = weiqi_ranking::shipped_rules();
    assert_eq!(shipped[0].name, "built-in/cwa-amateur.toml");
    assert_eq!(rules[1].digest, shipped[0].digest, "the same text, the same digest");

    // A broken file: its name, the line and what is wrong.
    let broken = FILES[0].1.replace("to = \"10k\"", "to = \"10q\"");
    let err = load_rules_dir(write_dir(&broken).path()).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, RulesDirError::Invalid { .. }), "{text}");
    assert!(text.starts_with("cwa-amateur.toml:") && text.contains("10q") && text.contains("line"), "{text}");
    // Two files for one ladder, and an empty directory.
    let twice = write_dir(FILES[0].1);
    std::fs::write(twice.path().join("zz-copy.toml"), FILES[0].1).unwrap();
    assert!(matches!(load_rules_dir(twice.path()), Err(RulesDirError::SameLadder { .. })));
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(load_rules_dir(empty.path()), Err(RulesDirError::Empty(_))));
}

#[tokio::test]
async fn a_changed_rule_set_applies_to_new_cases_only() {
    let data = tempfile::tempdir().unwrap();
    let log: AnyEventLog =
        EmbeddedLog::open(data.path().join("events.redb"), EmbeddedConfig::default()).unwrap().into();
    let clock = TestClock::new();
    let s = service(&log, &clock, weiqi_ranking::shipped_rules());
    let profile = |id: &str| Profile { id: PlayerId::from(id), name_latin: id.to_uppercase(), ..Profile::default() };
    s.register_player(profile("li"), Some("1k"), "org", "r-li").await.unwrap();
    s.register_player(profile("wang"), Some("1k"), "org", "r-wang").await.unwrap();
    let old = s.apply(application("li"), &ActorId::from("li"), Applicant::Player).await.unwrap();
    let old_check = old.case.check.clone().unwrap();
    assert_eq!(old_check.rule_set, "built-in/cwa-amateur.toml");

    // The association changes a threshold and restarts with --promotion-rules DIR.
    let changed = FILES[0].1.replace("min_rating = 2000.0", "min_rating = 2050.0");
    assert_ne!(changed, FILES[0].1);
    let dir = write_dir(&changed);
    let restarted = service(&log, &clock, load_rules_dir(dir.path()).unwrap());
    let kept = restarted.case(&old.case.id).await.unwrap();
    assert_eq!(kept.case.check.as_ref(), Some(&old_check), "the old case keeps the check it was opened with");
    let new = restarted.apply(application("wang"), &ActorId::from("wang"), Applicant::Player).await.unwrap();
    let new_check = new.case.check.unwrap();
    assert_eq!(new_check.rule_set, "cwa-amateur.toml");
    assert_ne!(new_check.rules_digest, old_check.rules_digest, "the new case names the changed rules");
}

/// Issue 15 item 11: switching the rating system re-seeds every player from their declared or
/// certified rank. Players registered under Glicko-2 (a 5 dan, a 1 kyu) start under EGF at the GoR
/// their ranks map to (5d = 2500, 1k = 2000 in the CWA rules), not at the floor (GoR 0 ≈ 21k).
#[tokio::test]
async fn a_rating_system_switch_reseeds_players_from_their_ranks() {
    use weiqi_rating::{EgfSettings, RatingSystem};
    let data = tempfile::tempdir().unwrap();
    let log: AnyEventLog =
        EmbeddedLog::open(data.path().join("events.redb"), EmbeddedConfig::default()).unwrap().into();
    let clock = TestClock::new();
    let glicko = service(&log, &clock, weiqi_ranking::shipped_rules());
    let profile = |id: &str| Profile { id: PlayerId::from(id), name_latin: id.to_uppercase(), ..Profile::default() };
    glicko.register_player(profile("zhang"), Some("5d"), "org", "r-zhang").await.unwrap();
    glicko.register_player(profile("liu"), Some("1k"), "org", "r-liu").await.unwrap();
    glicko.register_player(profile("new"), None, "org", "r-new").await.unwrap();
    let seeded = glicko.rating(&PlayerId::from("zhang")).await.unwrap();
    assert_eq!(seeded.system, "glicko2");

    let mut config =
        RankingConfig::new(AssociationKey::from_seed("cwa", [5; 32]).unwrap(), weiqi_ranking::shipped_rules());
    config.system = RatingSystem::Egf(EgfSettings::default());
    let egf = RankingService::with_environment(log.clone(), Arc::new(NoTournaments), config, clock.clone());
    let gor = |report: weiqi_ranking::RatingReport| report.view.map(|v| v.rating);
    let zhang = egf.rating(&PlayerId::from("zhang")).await.unwrap();
    assert_eq!(zhang.system, "egf");
    assert_eq!(gor(zhang), Some(2500.0), "5 dan re-seeded at its GoR");
    assert_eq!(gor(egf.rating(&PlayerId::from("liu")).await.unwrap()), Some(2000.0));
    assert_eq!(gor(egf.rating(&PlayerId::from("new")).await.unwrap()), None, "no rank, no seed");
}

/// A player registered with an EGD PIN.
fn profile(id: &str, pin: &str) -> Profile {
    Profile { id: PlayerId::from(id), name_latin: id.to_uppercase(), egd_pin: pin.into(), ..Profile::default() }
}

/// A ranking service on a fresh embedded log with the shipped rules, under `system`.
fn seeded_service(system: &weiqi_rating::RatingSystem) -> (tempfile::TempDir, RankingService) {
    let data = tempfile::tempdir().unwrap();
    let log: AnyEventLog =
        EmbeddedLog::open(data.path().join("events.redb"), EmbeddedConfig::default()).unwrap().into();
    let mut config =
        RankingConfig::new(AssociationKey::from_seed("cwa", [5; 32]).unwrap(), weiqi_ranking::shipped_rules());
    config.system = system.clone();
    let s = RankingService::with_environment(log, Arc::new(NoTournaments), config, TestClock::new());
    (data, s)
}

/// Issue 15 item 9: an association moving to the platform seeds its players' ratings from the EGD
/// rating list, matched by EGD PIN: under EGF the GoR itself, under Glicko-2 the nominal rating of the
/// grade that GoR stands for; a player already rated keeps their rating.
#[tokio::test]
async fn players_are_seeded_from_the_egd_rating_list_by_pin() {
    use weiqi_rating::egd_list::parse_egd_rating_list;
    use weiqi_rating::{EgfSettings, RatingSystem};
    let list =
        parse_egd_rating_list(include_str!("../../../shared/rating/tests/data/egd-allworld-sample.html")).unwrap();
    for system in [RatingSystem::Egf(EgfSettings::default()), RatingSystem::default()] {
        let (_data, s) = seeded_service(&system);
        s.register_player(profile("reda", "14013142"), None, "org", "r1").await.unwrap();
        s.register_player(profile("thomas", "13633719"), None, "org", "r2").await.unwrap();
        s.register_player(profile("nobody", "19999999"), None, "org", "r3").await.unwrap();
        s.register_player(profile("kept", "12949827"), Some("3d"), "org", "r4").await.unwrap();
        let done = s.import_egd_ratings(&list).await.unwrap();
        let seeded: std::collections::BTreeMap<String, f64> =
            done.seeded.iter().map(|(p, r)| (p.0.clone(), *r)).collect();
        match system {
            RatingSystem::Egf(_) => {
                assert_eq!(seeded.get("reda"), Some(&1786.0));
                assert_eq!(seeded.get("thomas"), Some(&1484.0));
            }
            _ => {
                // GoR 1786 stands for 3 kyu (1800 ± 50), 1484 for 6 kyu: their Glicko-2 nominal ratings.
                let rules = weiqi_ranking::shipped_rules();
                let glicko = rules[0].mapping("glicko2").unwrap();
                assert_eq!(seeded.get("reda").copied(), glicko.rating_for("3k"));
                assert_eq!(seeded.get("thomas").copied(), glicko.rating_for("6k"));
            }
        }
        assert_eq!(done.not_in_list, [PlayerId::from("nobody")]);
        assert_eq!(done.already_rated, [PlayerId::from("kept")], "seeded from the declared 3d at registration");
        let report = s.rating(&PlayerId::from("reda")).await.unwrap();
        assert_eq!(report.view.map(|v| v.rating), seeded.get("reda").copied());
    }
}

/// Issue 15 item 9, the other source: a past tournament's `.h9` results table rated here. Lines
/// match players by EGD PIN; an unrated player is seeded from the table's rank; the games with a
/// player who is not here are left out; under EGF the table is rated as one tournament (the winner
/// up, the losers down); the same table imported again changes nothing.
#[tokio::test]
async fn a_results_table_is_rated_as_a_past_tournament() {
    use weiqi_pairing::h9::parse_h9;
    use weiqi_rating::{EgfSettings, RatingSystem};
    let text = include_str!("data/autumn-open.h9");
    let file = parse_h9(text).unwrap();
    for system in [RatingSystem::Egf(EgfSettings::default()), RatingSystem::default()] {
        let (_data, s) = seeded_service(&system);
        s.register_player(profile("li", "17000001"), Some("3d"), "org", "r1").await.unwrap();
        s.register_player(profile("wang", "17000002"), None, "org", "r2").await.unwrap();
        s.register_player(profile("zhao", "17000003"), None, "org", "r3").await.unwrap();
        let rating = |id: &'static str| {
            let s = &s;
            async move { s.rating(&PlayerId::from(id)).await.unwrap().view.map(|v| v.rating) }
        };
        let li_before = rating("li").await.unwrap();
        let done = s.import_h9_results(&file, &"c0ffee".repeat(11)).await.unwrap();
        assert_eq!(done.tournament, "h9-c0ffeec0ffeec0ff");
        assert!(!done.already_imported);
        let matched: Vec<u32> = done.matched.iter().map(|m| m.0).collect();
        assert_eq!(matched, [1, 2, 3]);
        assert_eq!(done.not_registered, [(4, "Dupont Jean".to_string(), Some(18_000_004))]);
        assert_eq!((done.games, done.games_left_out), (2, 2), "Li beat Wang and Zhao; Dupont's games are left out");
        let seeded: Vec<&str> = done.seeded.iter().map(|(p, _)| p.0.as_str()).collect();
        assert_eq!(seeded, ["wang", "zhao"], "Li was rated from the declared 3d already");
        let rules = weiqi_ranking::shipped_rules();
        let nominal = |grade: &str| rules[0].mapping(system.name()).unwrap().rating_for(grade).unwrap();
        assert_eq!(done.seeded[0].1, nominal("2d"));
        assert_eq!(done.seeded[1].1, nominal("1k"));
        if let RatingSystem::Egf(_) = system {
            assert_eq!(done.rated, 3, "rated together as one tournament");
            assert!(rating("li").await.unwrap() > li_before, "two wins");
            assert!(rating("wang").await.unwrap() < nominal("2d"), "a loss");
            assert!(rating("zhao").await.unwrap() < nominal("1k"), "a loss");
        }
        let after = (rating("li").await, rating("wang").await, rating("zhao").await);
        let again = s.import_h9_results(&file, &"c0ffee".repeat(11)).await.unwrap();
        assert!(again.already_imported && again.games == 0 && again.seeded.is_empty());
        assert_eq!((rating("li").await, rating("wang").await, rating("zhao").await), after, "nothing changed");
    }
}
