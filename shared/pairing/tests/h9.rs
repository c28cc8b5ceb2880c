//! Issue 15 item 7: the `.h9` table as the EGD's format page defines it. What this project writes
//! passes the checker written from that page and reads back through this project's own reader to
//! the tournament it came from; a published OpenGotha table and the page's own example entries read.

use std::collections::HashMap;
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, LineUpRule, McMahonBars, TeamSchedule, TournamentConfig};
use weiqi_pairing::h9::{H9Header, H9Outcome, H9Problem, H9Result, check_h9, export_h9, parse_h9, parse_result};
use weiqi_pairing::ids::{Color, GameRef, PlayerId, TeamId};
use weiqi_pairing::outcome::{GameResult, Outcome, ResultReason};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::record::{Entry, records};
use weiqi_pairing::registration::Registration;
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::weights::HandicapPolicy;
use weiqi_time::CivilDate;

/// Nine players (a bye every round), handicaps by rank minus one, three rounds, one forfeit.
fn mcmahon() -> Simulation {
    let bars = McMahonBars { top: Rank::Dan(2), bottom: Rank::Kyu(15) };
    let mut config = TournamentConfig::new("Hangzhou Spring McMahon", Format::McMahon { rounds: 3, bars }, 42);
    config.pairing.handicap = HandicapPolicy::ByRank { reduction: 1, ceiling: 9 };
    let mut s = Simulation::new(config, 42).unwrap();
    let names =
        ["Li Wei", "Wang Fang", "Zhang Min", "Chen Jie", "Liu Yang", "Zhao Lei", "Sun Li", "Zhou Tao", "Wu Hao"];
    for (i, n) in names.iter().enumerate() {
        let mut r = Registration::new(PlayerId(i as u32 + 1), n, Rank::from_value(3 - 2 * i as i32));
        r.club = Some(if i % 2 == 0 { "West Lake".into() } else { "Qiyuan".into() });
        r.egd_pin = (i < 5).then_some(16_000_000 + i as u64);
        s.run(Command::Register { registration: r }).unwrap();
    }
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    // Table 1 of round 1 is a forfeit: White did not come.
    let forfeit = GameResult { outcome: Outcome::Win(Color::Black), reason: ResultReason::Forfeit };
    s.run(Command::RecordResult { game: GameRef { round: 1, table: 1 }, result: forfeit }).unwrap();
    s.play_round().unwrap();
    s.play_to_end(3).unwrap();
    s
}

#[test]
fn the_export_passes_the_format_page_checker_and_reads_back() {
    let s = mcmahon();
    let t = &s.state;
    let header = H9Header::for_tournament(t, "0.5".into(), 60);
    let h9 = export_h9(t, &header);
    println!("{h9}");
    assert_eq!(check_h9(&h9), vec![], "{h9}");
    // No mark the page does not define, no lot column.
    let players: Vec<&str> = h9.lines().filter(|l| !l.starts_with(';')).collect();
    assert!(!h9.contains('!'), "{h9}");
    assert!(h9.lines().any(|l| l.starts_with("; Pl Name Rk Co Club MMS SOSM SOSOSM")), "{h9}");
    assert!(!h9.contains("Lot"), "{h9}");
    // DT, HA, KM and TM from the tournament's own data.
    let file = parse_h9(&h9).unwrap();
    let day = CivilDate::from_millis(t.started_at).to_string();
    let last = CivilDate::from_millis(t.last_result_at).to_string();
    assert_eq!(file.header["DT"], format!("{day},{last}"));
    assert_eq!(file.header["HA"], "h1");
    assert_eq!(file.header["KM"], "0.5");
    assert_eq!(file.header["TM"], "60");
    assert_eq!(file.header["EV"], "Hangzhou Spring McMahon");
    assert_eq!(file.players.len(), players.len());

    // Round trip: every line is the player it names, and every round is what the records hold.
    let by_name: HashMap<String, PlayerId> =
        t.players.iter().map(|(&p, e)| (e.registration.name_latin.clone(), p)).collect();
    let line_of: HashMap<PlayerId, u32> =
        file.players.iter().map(|p| (by_name[&format!("{} {}", p.surname, p.given)], p.line)).collect();
    let recs = records(t, t.current_round());
    let mut forfeits = 0;
    for p in &file.players {
        let id = by_name[&format!("{} {}", p.surname, p.given)];
        let reg = &t.players[&id].registration;
        assert_eq!(p.rank, reg.rank.to_string());
        assert_eq!(p.club.replace('_', " "), reg.club.clone().unwrap());
        assert_eq!(p.pin, reg.egd_pin);
        assert_eq!(p.columns.len(), 3, "MMS, SOSM, SOSOSM");
        let rec = recs.get(id).unwrap();
        assert_eq!(p.results.len(), rec.entries.len());
        for (got, want) in p.results.iter().zip(&rec.entries) {
            match (got, want) {
                (H9Result::Free(H9Outcome::Win), Entry::Game { forfeit: true, .. }) => forfeits += 1,
                (H9Result::Free(H9Outcome::Loss), Entry::Game { forfeit: true, .. }) => forfeits += 1,
                (H9Result::Free(H9Outcome::Win), Entry::Bye { .. }) => {}
                (
                    H9Result::Game { opponent, outcome, color, handicap, by_default },
                    Entry::Game { opponent: o, result, color: c, handicap: h, forfeit: false, .. },
                ) => {
                    assert_eq!(*opponent, line_of[o]);
                    let want = match result {
                        weiqi_pairing::outcome::PlayerResult::Win => H9Outcome::Win,
                        weiqi_pairing::outcome::PlayerResult::Draw => H9Outcome::Jigo,
                        _ => H9Outcome::Loss,
                    };
                    assert_eq!(*outcome, want);
                    assert_eq!(*color, Some(*c));
                    assert_eq!(handicap.unwrap_or(0), *h);
                    assert!(!by_default);
                }
                other => panic!("{} {}: {other:?}", p.surname, p.given),
            }
        }
    }
    assert_eq!(forfeits, 2, "the forfeit is a free win for one side and a free round for the other");
    assert!(
        file.players
            .iter()
            .flat_map(|p| &p.results)
            .any(|r| matches!(r, H9Result::Game { handicap: Some(h), .. } if *h > 0)),
        "handicap games carry their stones"
    );
}

#[test]
fn a_team_event_is_exported_board_by_board() {
    let format =
        Format::Team { boards: 2, line_up: LineUpRule::FixedOrder, schedule: TeamSchedule::RoundRobin { cycles: 1 } };
    let mut s = Simulation::new(TournamentConfig::new("City Teams", format, 8), 8).unwrap();
    let regs: Vec<Registration> =
        (1..=8).map(|i| Registration::new(PlayerId(i), &format!("Player {i}"), Rank::Kyu(i as u8))).collect();
    s.register_all(&regs).unwrap();
    for k in 0..4u32 {
        let members = vec![PlayerId(2 * k + 1), PlayerId(2 * k + 2)];
        s.run(Command::RegisterTeam { team: TeamId(k + 1), name: format!("Team {}", k + 1), members }).unwrap();
    }
    s.run(Command::Start).unwrap();
    s.play_to_end(10).unwrap();
    let h9 = export_h9(&s.state, &H9Header::for_tournament(&s.state, "7.5".into(), 30));
    assert_eq!(check_h9(&h9), vec![], "{h9}");
    let file = parse_h9(&h9).unwrap();
    assert_eq!(file.players.len(), 8, "every board's player is a line");
    assert!(file.players.iter().all(|p| p.results.len() == 3), "three rounds of board games");
    // Team-mates are listed together, board 1 first.
    for pair in file.players.chunks(2) {
        let n = |p: &weiqi_pairing::h9::H9Player| p.given.parse::<u32>().unwrap();
        assert_eq!(n(&pair[0]) % 2, 1, "board 1 first: {pair:?}");
        assert_eq!(n(&pair[1]), n(&pair[0]) + 1);
    }
}

#[test]
fn a_published_opengotha_table_reads_and_passes_but_for_its_header() {
    let text = include_str!("data/TestPartEtLic.h9");
    let file = parse_h9(text).unwrap();
    assert_eq!(file.players.len(), 22);
    assert_eq!(file.header["EV"], "Test Participation et Licence FFG");
    let p11 = &file.players[10];
    assert_eq!((p11.surname.as_str(), p11.given.as_str(), p11.rank.as_str()), ("Guignard-Perret", "Ugo", "10K"));
    assert_eq!(p11.columns, ["29", "542", "1081", "0"]);
    assert_eq!(file.players[4].surname, "de Butler");
    // OpenGotha wrote its time as TA[80], not the TM[…] the format asks for.
    assert_eq!(check_h9(text), vec![H9Problem::MissingHeader("TM")]);
}

#[test]
fn the_format_pages_entries_and_the_marks_it_does_not_define() {
    let g =
        |opponent, outcome, color, handicap| H9Result::Game { opponent, outcome, color, handicap, by_default: false };
    assert_eq!(parse_result("35="), Some(g(35, H9Outcome::Jigo, None, None)));
    assert_eq!(parse_result("23+/w"), Some(g(23, H9Outcome::Win, Some(Color::White), None)));
    assert_eq!(parse_result("11-/b5"), Some(g(11, H9Outcome::Loss, Some(Color::Black), Some(5))));
    assert_eq!(parse_result("0+"), Some(H9Result::Free(H9Outcome::Win)));
    assert_eq!(parse_result("0-"), Some(H9Result::Free(H9Outcome::Loss)));
    assert_eq!(parse_result("0="), Some(H9Result::Free(H9Outcome::Jigo)));
    for not in ["12k", "31", "6.5", "69Ly", "5x", "0=0", "3+/q"] {
        assert_eq!(parse_result(not), None, "{not}");
    }
    // OpenGotha's by-default forms read, and the checker names them.
    assert!(matches!(parse_result("22+!w0"), Some(H9Result::Game { by_default: true, .. })));
    assert!(matches!(parse_result("3+/b0!"), Some(H9Result::Game { by_default: true, .. })));
    let table = "; EV[x]\n; PC[CN,Hangzhou]\n; DT[2026-11-28]\n; CL[B]\n; HA[h9]\n; KM[7.5]\n; TM[60]\n\
                 1 Li Wei 3d CN Qiyuan 2+!w0 0+\n2 Wang Fang 2d CN Qiyuan 1-!b0 0-\n";
    assert_eq!(
        check_h9(table),
        vec![H9Problem::UndefinedMark { line: 1, round: 1 }, H9Problem::UndefinedMark { line: 2, round: 1 }]
    );
    // Disagreeing sides and a missing opponent are caught.
    let bad = "; EV[x]\n; PC[CN]\n; DT[2026-11-28,2026-11-29]\n; CL[B]\n; HA[h9]\n; KM[7.5]\n; TM[60]\n\
               1 Li Wei 3d CN Qiyuan 2+/w 3+/b\n2 Wang Fang 2d CN Qiyuan 1+/b 0-\n";
    let problems = check_h9(bad);
    assert!(problems.contains(&H9Problem::Disagree { round: 1, a: 1, b: 2 }), "{problems:?}");
    assert!(problems.contains(&H9Problem::NoSuchOpponent { line: 1, round: 2, opponent: 3 }), "{problems:?}");
    assert!(check_h9("; EV[x]\n; DT[28.11.2026]\n").contains(&H9Problem::BadDates("28.11.2026".into())));
}

proptest::proptest! {
    /// The reader and the checker never panic, whatever the text (also run as the fuzz target
    /// `h9_table`); player lines are numbered in order.
    #[test]
    fn any_text_reads_or_is_refused(lines in proptest::collection::vec("[0-9a-zA-Z+=/!|; \\-\\[\\]_]{0,40}", 0..12)) {
        let text = lines.join("\n");
        if let Ok(file) = parse_h9(&text) {
            for (i, p) in file.players.iter().enumerate() {
                proptest::prop_assert_eq!(p.line as usize, i + 1);
            }
        }
        let _ = check_h9(&text);
    }
}

/// A table written by a Chinese organiser: ranks as `3段` and `12级` (the rank column was once found
/// by splitting off the last byte, which panicked inside 段), and arbitrary text never panics.
#[test]
fn a_table_with_chinese_ranks_reads_and_no_text_panics() {
    let table = "; EV[城市赛]\n 1 Li Ming 3段 CN Hz 1 2+/b0\n 2 Wang Fang 12级 CN Hz 0 1-/w0\n";
    let file = weiqi_pairing::h9::parse_h9(table).expect("a table");
    let ranks: Vec<&str> = file.players.iter().map(|p| p.rank.as_str()).collect();
    assert_eq!(ranks, ["3段", "12级"]);
    for text in ["1 李明 段 CN", "1 Li 3段", "段", "1 é", "1 Li Ming 九段 CN Hz 0 0+"] {
        let _ = weiqi_pairing::h9::parse_h9(text);
        let _ = weiqi_pairing::h9::check_h9(text);
    }
}
