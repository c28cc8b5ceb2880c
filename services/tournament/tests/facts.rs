//! An event's facts (dates, city and country, director, the clubs' codes) are one event of the
//! tournament's log, set by its staff at any time, and the `.h9` table takes them: `PC` and `DT` from
//! the facts, `CL` from the time control by the EGF's rule, the club column from the club codes.
//! Before (issue 30 item 15), every table said `CL[B]`, `PC[CN]` and the server's dates.

use std::sync::Arc;

use weiqi_clock::{DurationMs, TimeControl, TimeSystem};
use weiqi_eventlog::{AnyEventLog, EmbeddedConfig, EmbeddedLog};
use weiqi_game::authority::Caller;
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, McMahonBars, TournamentConfig};
use weiqi_pairing::ids::{Color, GameRef, PlayerId};
use weiqi_pairing::outcome::GameResult;
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_tournament::aggregate::TournamentCommand;
use weiqi_tournament::api::{ApiError, ExportKind, H9Overrides, TournamentApi};
use weiqi_tournament::directory::NoDirectory;
use weiqi_tournament::facts::EventFacts;
use weiqi_tournament::read_model::MemoryReadModel;
use weiqi_tournament::service::TournamentService;
use weiqi_tournament::settings::GameSettings;

fn organiser() -> Caller {
    Caller { id: "wang".into(), organiser: true, events: vec!["hz-open".into()], ..Caller::default() }
}

/// A 4-player McMahon over the board, 33 minutes of Chinese byo-yomi with 3 reserved minutes (30
/// minutes before byo-yomi, adjusted 75: class C), one round played.
async fn event() -> (tempfile::TempDir, TournamentApi, Arc<TournamentService<AnyEventLog>>) {
    let dir = tempfile::tempdir().unwrap();
    let log = AnyEventLog::Embedded(EmbeddedLog::open(dir.path().join("e.redb"), EmbeddedConfig::default()).unwrap());
    let service = Arc::new(TournamentService::new(log));
    let api = TournamentApi::new(service.clone(), MemoryReadModel::new().into(), Arc::new(NoDirectory));
    let bars = McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(10) };
    let config = TournamentConfig::new("杭州公开赛", Format::McMahon { rounds: 3, bars }, 7);
    let time = TimeSystem::ChineseByoYomi { basic: DurationMs(33 * 60_000), reserved_minutes: 3 };
    let settings = GameSettings {
        time_control: TimeControl::new(time).unwrap(),
        manual_start: true,
        no_automatic_no_shows: true,
        ..GameSettings::default()
    };
    let me = organiser();
    api.create(&me, "hz-open", "c", config, settings).await.unwrap();
    for (i, (name, club)) in
        [("Li Ming", "杭州棋院"), ("Wang Fang", "杭州棋院"), ("Zhang Wei", "Qiyuan"), ("Chen Jie", "上海棋院")]
            .into_iter()
            .enumerate()
    {
        let mut registration = Registration::new(PlayerId(0), name, Rank::Kyu(i as u8 + 1));
        registration.club = Some(club.into());
        let cmd = TournamentCommand::Register { account: format!("p{i}"), registration };
        api.act(&me, "hz-open", &format!("r{i}"), cmd).await.unwrap();
    }
    api.act(&me, "hz-open", "s", TournamentCommand::Core(Command::Start)).await.unwrap();
    api.act(&me, "hz-open", "p1", TournamentCommand::PairRound { round: Some(1) }).await.unwrap();
    for table in 1..=2 {
        let game = GameRef { round: 1, table };
        let cmd = TournamentCommand::Core(Command::RecordResult { game, result: GameResult::win(Color::Black) });
        api.act(&me, "hz-open", &format!("res{table}"), cmd).await.unwrap();
    }
    (dir, api, service)
}

fn header(h9: &str, key: &str) -> Option<String> {
    h9.lines().find_map(|l| l.strip_prefix(&format!("; {key}[")).map(|v| v.trim_end_matches(']').to_string()))
}

#[tokio::test]
async fn the_h9_table_takes_the_events_facts_and_its_egf_class() {
    let (_dir, api, service) = event().await;
    let h9 = |api: TournamentApi| async move {
        api.export("hz-open", ExportKind::H9, H9Overrides::default()).await.unwrap().content
    };
    // Without facts: the class from the time control, the country alone, the days of play.
    let before = h9(api.clone()).await;
    assert_eq!(header(&before, "CL").as_deref(), Some("C"), "{before}");
    assert_eq!(header(&before, "TM").as_deref(), Some("30"), "{before}");
    assert_eq!(header(&before, "PC").as_deref(), Some("CN"), "{before}");
    // A club in Chinese with no code is written `-` (the table is ASCII); an ASCII club as itself.
    assert!(before.lines().any(|l| l.contains(" CN - ")), "{before}");
    assert!(before.lines().any(|l| l.contains(" CN Qiyuan ")), "{before}");

    let facts = EventFacts {
        start: Some("2026-11-28".parse().unwrap()),
        end: Some("2026-11-29".parse().unwrap()),
        city: "杭州".into(),
        city_latin: "Hangzhou".into(),
        country: "CN".into(),
        director: "王立诚".into(),
        club_codes: [("杭州棋院".to_string(), "Hang".to_string())].into(),
    };
    api.act(&organiser(), "hz-open", "f", TournamentCommand::SetFacts(facts.clone())).await.unwrap();
    let after = h9(api.clone()).await;
    assert_eq!(header(&after, "PC").as_deref(), Some("CN,Hangzhou"), "{after}");
    assert_eq!(header(&after, "DT").as_deref(), Some("2026-11-28,2026-11-29"), "{after}");
    assert_eq!(after.lines().filter(|l| l.contains(" CN Hang ")).count(), 2, "{after}");
    assert!(after.lines().any(|l| l.contains(" CN - ")), "上海棋院 has no code: {after}");
    assert_eq!(weiqi_pairing::h9::check_h9(&after), vec![], "{after}");

    // The OpenGotha file takes them too, with the time as OpenGotha names it.
    let xml = api.export("hz-open", ExportKind::OpenGotha, H9Overrides::default()).await.unwrap().content;
    for attribute in [
        "location=\"杭州, CN\"",
        "director=\"王立诚\"",
        "beginDate=\"2026-11-28\"",
        "endDate=\"2026-11-29\"",
        "complementaryTimeSystem=\"STDBYOYOMI\"",
        "stdByoYomiTime=\"60\"",
        "basicTime=\"30\"",
        "bInternet=\"false\"",
        "club=\"Hang\"",
    ] {
        assert!(xml.contains(attribute), "{attribute} in {xml}");
    }

    // The summary the projector writes carries them (the desk and the public page read them there).
    let summary = service.read("hz-open", |t| weiqi_tournament::projector::summary("hz-open", t)).await.unwrap();
    let summary = weiqi_tournament::views::Summary::from(summary.unwrap());
    assert_eq!(summary.facts, Some(facts));
}

#[tokio::test]
async fn facts_that_do_not_hold_are_refused_and_only_staff_set_them() {
    let (_dir, api, _) = event().await;
    let bad = EventFacts { country: "中国".into(), ..EventFacts::default() };
    let refused = api.act(&organiser(), "hz-open", "f1", TournamentCommand::SetFacts(bad)).await.unwrap_err();
    assert!(format!("{refused:?}").contains("bad_country"), "{refused:?}");
    let player = Caller { id: "p0".into(), player: true, ..Caller::default() };
    let denied = api.act(&player, "hz-open", "f2", TournamentCommand::SetFacts(EventFacts::default())).await;
    assert!(matches!(denied, Err(ApiError::Denied(_))), "{denied:?}");
}
