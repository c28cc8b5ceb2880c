//! Issue 15 item 8: an OpenGotha tournament file's players, rounds and results import. A McMahon
//! written as an OpenGotha file reads back through this crate's reader and replays into a new
//! tournament with the same games, results and standings; a file OpenGotha itself saved reads.

use std::collections::{BTreeSet, HashMap};
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, McMahonBars, TournamentConfig};
use weiqi_pairing::ids::{Color, GameRef, PlayerId};
use weiqi_pairing::opengotha::{GothaImportError, export_opengotha, read_tournament};
use weiqi_pairing::outcome::{GameResult, Outcome, ResultReason};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::seeding::{SeedSystem, Seeding};
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::standings::standings;
use weiqi_pairing::state::Tournament;

fn original() -> Simulation {
    let bars = McMahonBars { top: Rank::Dan(2), bottom: Rank::Kyu(12) };
    let mut config = TournamentConfig::new("Spring McMahon", Format::McMahon { rounds: 4, bars }, 77);
    config.pairing.seeding =
        Seeding { first: SeedSystem::SplitAndFold, last_round_first: 1, second: SeedSystem::SplitAndSlip };
    let mut s = Simulation::new(config, 77).unwrap();
    let names = ["Li Wei", "Wang Fang", "Zhang Min", "Chen Jie", "Liu Yang", "Zhao Lei", "Sun Li"];
    for (i, n) in names.iter().enumerate() {
        let mut r = Registration::new(PlayerId(i as u32 + 1), n, Rank::from_value(3 - 3 * i as i32));
        r.club = Some("Qiyuan".into());
        r.country = Some("CN".into());
        s.run(Command::Register { registration: r }).unwrap();
    }
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    let forfeit = GameResult { outcome: Outcome::Win(Color::White), reason: ResultReason::Forfeit };
    s.run(Command::RecordResult { game: GameRef { round: 1, table: 1 }, result: forfeit }).unwrap();
    s.play_round().unwrap();
    s.play_to_end(3).unwrap();
    s
}

/// (round, black name, white name, result) of every game.
fn games(t: &Tournament) -> BTreeSet<(u32, String, String, String)> {
    let name = |p: PlayerId| t.players[&p].registration.name_latin.clone();
    t.rounds
        .iter()
        .flat_map(|r| {
            r.games
                .iter()
                .map(move |g| (r.number, name(g.paired.black), name(g.paired.white), format!("{:?}", g.result)))
        })
        .collect()
}

#[test]
fn an_exported_tournament_replays_with_its_rounds_and_results() {
    let s = original();
    let xml = export_opengotha(&s.state, 4);
    let file = read_tournament(&xml).unwrap();
    assert_eq!((file.players.len(), file.rounds, file.name.as_str()), (7, 4, "Spring McMahon"));
    assert_eq!(file.bars, Some((Rank::Dan(2), Rank::Kyu(12))));
    assert_eq!(file.seeding, Some(s.state.config.as_ref().unwrap().pairing.seeding));
    assert_eq!(file.games.len(), 9, "three rounds of three games");
    assert_eq!(file.byes.len(), 3, "a bye each round");

    // A new event from the file: its configuration, its players, then its rounds replayed.
    let mut copy = Simulation::new(file.config(5), 5).unwrap();
    let mut ids = HashMap::new();
    for (i, p) in file.players.iter().enumerate() {
        let id = PlayerId(i as u32 + 1);
        let mut r = Registration::new(id, &format!("{} {}", p.name, p.first_name), p.parsed_rank().unwrap());
        r.club = Some(p.club.clone());
        copy.run(Command::Register { registration: r }).unwrap();
        ids.insert(p.key(), id);
    }
    copy.run(Command::Start).unwrap();
    for cmd in file.replay(&ids).unwrap() {
        copy.run(cmd.clone()).unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    }
    assert_eq!(games(&copy.state), games(&s.state), "the same games and results, forfeit included");
    let mms = |t: &Tournament| {
        let st = standings(t);
        st.rows
            .iter()
            .map(|r| (t.players[&r.player].registration.name_latin.clone(), r.values[0]))
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(mms(&copy.state), mms(&s.state), "the same McMahon scores");
    // The copy pairs round 4 itself.
    copy.run(Command::PairRound).unwrap();
    assert_eq!(copy.state.rounds.len(), 4);
    // Written again, the copy's file holds the same games.
    let again = read_tournament(&export_opengotha(&copy.state, 4)).unwrap();
    let key = |g: &weiqi_pairing::opengotha::GothaGame| {
        (g.round, g.black.clone(), g.white.clone(), format!("{:?}", g.result))
    };
    let first: BTreeSet<_> = file.games.iter().map(key).collect();
    let second: BTreeSet<_> = again.games.iter().filter(|g| g.round <= 3).map(key).collect();
    assert_eq!(first, second);
}

#[test]
fn a_file_opengotha_saved_reads_and_replays() {
    let file = read_tournament(include_str!("data/opengotha-sample.xml")).unwrap();
    assert_eq!((file.name.as_str(), file.rounds, file.players.len()), ("Toulouse_2024", 6, 3));
    assert_eq!(file.bars, Some((Rank::Kyu(2), Rank::Kyu(20))));
    assert_eq!(
        file.seeding,
        Some(Seeding { first: SeedSystem::SplitAndFold, last_round_first: 2, second: SeedSystem::SplitAndFold })
    );
    let game = &file.games[0];
    assert_eq!((game.black.as_str(), game.white.as_str()), ("LAMYSTEPHANE", "JUHTAEHWAN"));
    assert_eq!(game.result, Some(GameResult { outcome: Outcome::Win(Color::White), reason: ResultReason::Played }));
    assert_eq!(file.byes, [(1, "EVAINANDÉOL".to_string())]);
    let ids: HashMap<String, PlayerId> =
        file.players.iter().enumerate().map(|(i, p)| (p.key(), PlayerId(i as u32 + 1))).collect();
    let commands = file.replay(&ids).unwrap();
    assert_eq!(commands.len(), 4, "fix the game, grant the bye, pair, record: {commands:?}");
    let mut partial = ids.clone();
    partial.remove("JUHTAEHWAN");
    assert!(matches!(file.replay(&partial), Err(GothaImportError::UnknownPlayer { round: 1, .. })));
}
