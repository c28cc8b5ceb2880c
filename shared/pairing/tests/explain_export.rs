//! Explanations of pairings, and the CSV and `.h9` exports.

use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, TournamentConfig};
use weiqi_pairing::explain::{Basis, ScoreGaps, Verdict, explain_pairing};
use weiqi_pairing::export::{H9Header, export_h9, pairings_csv, standings_csv};
use weiqi_pairing::ids::{Color, GameRef, PlayerId};
use weiqi_pairing::outcome::GameResult;
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::standings::standings;
use weiqi_pairing::weights::Criterion;

fn four_players() -> Simulation {
    let mut cfg = TournamentConfig::new("Hangzhou Open", Format::Swiss { rounds: 2 }, 3);
    cfg.ranking = vec![weiqi_pairing::standings::TieBreak::Points, weiqi_pairing::standings::TieBreak::Sos];
    let mut s = Simulation::new(cfg, 3).unwrap();
    let names = ["Li Wei", "Wang Fang", "Zhang Min", "Chen Jie"];
    let zh = ["李伟", "王芳", "张敏", "陈杰"];
    for i in 0..4u32 {
        let mut r = Registration::new(PlayerId(i + 1), names[i as usize], Rank::Dan(3));
        r.name_zh = zh[i as usize].into();
        r.club = Some(if i == 0 { "Hangzhou, West Lake".into() } else { "Qiyuan".into() });
        r.egd_pin = Some(17000000 + u64::from(i));
        s.run(Command::Register { registration: r }).unwrap();
    }
    s.run(Command::Start).unwrap();
    s
}

/// Round 1: the winners meet in round 2, and so do the losers.
fn after_two_rounds() -> Simulation {
    let mut s = four_players();
    s.run(Command::PairRound).unwrap();
    for g in s.state.rounds[0].games.clone() {
        let game = GameRef { round: 1, table: g.paired.table };
        s.run(Command::RecordResult { game, result: GameResult::win(Color::Black) }).unwrap();
    }
    s.run(Command::PairRound).unwrap();
    s
}

#[test]
fn why_the_winners_met() {
    let s = after_two_rounds();
    let winners: Vec<PlayerId> = s.state.rounds[0].games.iter().map(|g| g.paired.black).collect();
    let losers: Vec<PlayerId> = s.state.rounds[0].games.iter().map(|g| g.paired.white).collect();
    let (a, b) = (winners[0], winners[1]);
    let e = explain_pairing(&s.state, 2, a, b, 3).unwrap();
    assert_eq!(e.basis, Basis::Matching);
    assert_eq!(e.scores, Some((2, 2)));
    assert_eq!(e.cost.unwrap().score_diff, 0);
    let verdict = |p: PlayerId| e.alternatives.iter().find(|x| x.instead == p).unwrap().verdict.clone();
    // A's round-1 opponent was met already; the other loser would make two pairs two points apart.
    let met = s.state.rounds[0].games.iter().find(|g| g.paired.black == a).unwrap().paired.white;
    assert_eq!(verdict(met), Verdict::AlreadyMet);
    let other = *losers.iter().find(|&&p| p != met).unwrap();
    assert_eq!(
        verdict(other),
        Verdict::Worse {
            partner: met,
            criterion: Criterion::ScoreDifference,
            // Two pairs two points apart in a round of two score groups: 2·(2 + 2) each.
            chosen: 0,
            swapped: 16,
            differences: Some(ScoreGaps { chosen: [0, 0], swapped: [2, 2], groups: 2 }),
        }
    );
    let text = e.to_string();
    assert!(text.contains("they have already met"), "{text}");
    assert!(text.contains("score differences 2 and 2 instead of 0 and 0"), "{text}");
    assert!(text.contains("costs d·(2 + d), as OpenGotha weighs it: 16 instead of 0"), "{text}");
}

#[test]
fn an_exact_pairing_has_no_better_swap() {
    let mut s = Simulation::new(TournamentConfig::new("x", Format::Swiss { rounds: 4 }, 9), 9).unwrap();
    let regs: Vec<Registration> =
        (1..=24).map(|i| Registration::new(PlayerId(i), "p", Rank::from_value(5 - (i as i32 % 9)))).collect();
    s.register_all(&regs).unwrap();
    s.run(Command::Start).unwrap();
    s.play_to_end(4).unwrap();
    for r in &s.state.rounds {
        for g in &r.games {
            let e = explain_pairing(&s.state, r.number, g.paired.black, g.paired.white, 6).unwrap();
            for alt in &e.alternatives {
                assert!(!matches!(alt.verdict, Verdict::Better { .. }), "round {}: {e}", r.number);
                if alt.verdict == Verdict::AlreadyMet {
                    let met = s.state.rounds[..r.number as usize - 1].iter().flat_map(|x| x.games.iter()).any(|x| {
                        (x.paired.black == g.paired.black && x.paired.white == alt.instead)
                            || (x.paired.white == g.paired.black && x.paired.black == alt.instead)
                    });
                    assert!(met);
                }
            }
        }
    }
}

#[test]
fn standings_and_pairings_as_csv() {
    let mut s = after_two_rounds();
    s.play_round().unwrap();
    let st = standings(&s.state);
    let csv = standings_csv(&s.state, &st);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "place,player,name_zh,name_latin,rank,club,region,games,wins,Points,SOS,decided_by,shared,withdrawn"
    );
    assert_eq!(lines.len(), 5);
    // The club with a comma is quoted.
    assert!(csv.contains("\"Hangzhou, West Lake\""));
    assert!(csv.contains("李伟"));
    let p = pairings_csv(&s.state, 2);
    let lines: Vec<&str> = p.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("round,table,black,"));
    assert!(lines[1].starts_with("2,1,"));
}

#[test]
fn h9_table_for_the_european_database() {
    let mut s = after_two_rounds();
    for g in s.state.rounds[1].games.clone() {
        let game = GameRef { round: 2, table: g.paired.table };
        s.run(Command::RecordResult { game, result: GameResult::win(Color::White) }).unwrap();
    }
    let header = H9Header {
        class: Some('B'),
        place: "CN,Hangzhou".into(),
        dates: "2026-11-28,2026-11-29".into(),
        handicap: "h0".into(),
        komi: "7.5".into(),
        basic_minutes: 60,
        club_codes: Default::default(),
    };
    let h9 = export_h9(&s.state, &header);
    let lines: Vec<&str> = h9.lines().collect();
    assert_eq!(lines[0], "; CL[B]");
    assert_eq!(lines[1], "; EV[Hangzhou Open]");
    assert_eq!(lines[2], "; PC[CN,Hangzhou]");
    assert_eq!(lines[6], "; TM[60]");
    let players: Vec<&str> = lines.iter().copied().filter(|l| !l.starts_with(';')).collect();
    assert_eq!(players.len(), 4);
    let st = standings(&s.state);
    // Every line: place, surname, given name, rank, country, club, 2 values, 2 results, PIN.
    for (k, line) in players.iter().enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f[0], (k + 1).to_string());
        assert_eq!(f[3], "3d");
        assert_eq!(f[4], "CN");
        assert_eq!(f.len(), 11, "{line}");
        assert!(f[10].starts_with("|170000"));
        // Results name opponents by place and agree with the standings order.
        let me = st.rows[k].player;
        for (r, token) in f[8..10].iter().enumerate() {
            let g = s.state.rounds[r].games.iter().find(|g| g.paired.black == me || g.paired.white == me).unwrap();
            let black = g.paired.black == me;
            let opp = if black { g.paired.white } else { g.paired.black };
            let opp_place = st.rows.iter().position(|x| x.player == opp).unwrap() + 1;
            let won = (r == 0) == black; // round 1 Black won, round 2 White won
            let expect = format!("{opp_place}{}/{}", if won { '+' } else { '-' }, if black { 'b' } else { 'w' });
            assert_eq!(*token, expect, "{line}");
        }
    }
    assert!(players[0].contains(" Li Wei ") || players.iter().any(|l| l.contains(" Li Wei ")));
    assert!(players.iter().any(|l| l.contains("Hangzhou,_West_Lake")));
}

#[test]
fn an_opengotha_file_written_reads_back_with_its_players_games_and_results() {
    use weiqi_pairing::opengotha::{GothaError, export_opengotha, read_players};
    let mut s = after_two_rounds();
    for g in s.state.rounds[1].games.clone() {
        let game = GameRef { round: 2, table: g.paired.table };
        s.run(Command::RecordResult { game, result: GameResult::win(Color::White) }).unwrap();
    }
    let xml = export_opengotha(&s.state, 2);
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>"), "{xml}");
    // The players read back as they were registered (the club's comma escaped and unescaped).
    let players = read_players(&xml).unwrap();
    let names: Vec<(String, String)> = players.iter().map(|p| (p.name.clone(), p.first_name.clone())).collect();
    assert_eq!(
        names,
        [("Li", "Wei"), ("Wang", "Fang"), ("Zhang", "Min"), ("Chen", "Jie")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .to_vec()
    );
    assert!(players.iter().all(|p| p.rank == "3D" && p.parsed_rank() == Some(Rank::Dan(3))));
    assert_eq!(players[0].club, "Hangzhou, West Lake");
    assert_eq!(players[0].egf_pin, Some(17000000));
    assert_eq!(players[0].key(), "LIWEI");
    // Every game, with the keys of its players and its result.
    let games = xml.matches("<Game ").count();
    assert_eq!(games, 4, "{xml}");
    for g in &s.state.rounds[1].games {
        let key = |id: PlayerId| players[(id.0 - 1) as usize].key();
        let line = format!(
            "<Game blackPlayer=\"{}\" handicap=\"0\" knownColor=\"true\" result=\"RESULT_WHITEWINS\" roundNumber=\"2\" tableNumber=\"{}\" whitePlayer=\"{}\"/>",
            key(g.paired.black),
            g.paired.table,
            key(g.paired.white)
        );
        assert!(xml.contains(&line), "{line} in {xml}");
    }
    assert_eq!(xml.matches("RESULT_BLACKWINS").count(), 2);
    assert!(xml.contains("numberOfRounds=\"2\"") && xml.contains("name=\"Hangzhou Open\""), "{xml}");
    // Not a tournament file, or not XML at all.
    assert_eq!(read_players("<Players/>"), Err(GothaError::NotATournament));
    assert!(matches!(read_players("<Tournament><Player name=\"a\" </Tournament>"), Err(GothaError::Xml(_))));
}
