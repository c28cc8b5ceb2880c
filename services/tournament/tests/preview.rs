//! The pairing preview: the draft is what pairing next makes, and it appends nothing.

use weiqi_eventlog::{AggregateId, AggregateKind, AnyEventLog, EmbeddedConfig, EmbeddedLog, EventLog};
use weiqi_game::domain::Actor;
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, TournamentConfig};
use weiqi_pairing::ids::PlayerId;
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_tournament::aggregate::TournamentCommand;
use weiqi_tournament::service::TournamentService;
use weiqi_tournament::settings::GameSettings;

#[tokio::test]
async fn the_draft_is_the_round_paired_next_and_appends_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let log = AnyEventLog::Embedded(EmbeddedLog::open(dir.path().join("e.redb"), EmbeddedConfig::default()).unwrap());
    let svc = TournamentService::new(log.clone());
    let org = Actor::Organiser("org".into());
    let config = TournamentConfig::new("Club Swiss", Format::Swiss { rounds: 3 }, 7);
    svc.execute("club", "c", &org, &TournamentCommand::Create { config, settings: GameSettings::default() })
        .await
        .unwrap();
    for i in 1..=6 {
        let registration = Registration::new(PlayerId(0), &format!("Player {i}"), Rank::Kyu(i));
        let cmd = TournamentCommand::Register { account: format!("p{i}"), registration };
        svc.execute("club", &format!("r{i}"), &org, &cmd).await.unwrap();
    }
    // Before the start, the draft meets the rejection pairing would.
    assert!(svc.preview_round("club").await.is_err());
    svc.execute("club", "s", &org, &TournamentCommand::Core(Command::Start)).await.unwrap();
    let id = AggregateId::new("club").unwrap();
    let before = log.last_sequence(AggregateKind::Tournament, &id).await.unwrap();
    let draft = svc.preview_round("club").await.unwrap().unwrap();
    assert_eq!(log.last_sequence(AggregateKind::Tournament, &id).await.unwrap(), before, "nothing appended");
    assert_eq!((draft.round, draft.games.len()), (1, 3));
    assert!(draft.games.iter().all(|g| g.game_id.is_empty()), "a draft has no games");
    // Forbid the draft's first pair: the next draft avoids it, and pairing makes exactly that draft.
    let (a, b) = (draft.games[0].black, draft.games[0].white);
    let forbid = Command::ForbidPair { a: PlayerId(a), b: PlayerId(b), round: None };
    svc.execute("club", "f", &org, &TournamentCommand::Core(forbid)).await.unwrap();
    let again = svc.preview_round("club").await.unwrap().unwrap();
    let pairs = |p: &weiqi_proto::v1::TournamentPairings| {
        p.games.iter().map(|g| (g.table, g.black, g.white)).collect::<Vec<_>>()
    };
    assert!(!again.games.iter().any(|g| [g.black, g.white] == [a, b] || [g.black, g.white] == [b, a]));
    svc.execute("club", "p1", &org, &TournamentCommand::PairRound { round: Some(1) }).await.unwrap();
    let paired = svc
        .read("club", |t| {
            t.core.rounds[0]
                .games
                .iter()
                .map(|g| (g.paired.table, g.paired.black.0, g.paired.white.0))
                .collect::<Vec<_>>()
        })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(paired, pairs(&again));
}
