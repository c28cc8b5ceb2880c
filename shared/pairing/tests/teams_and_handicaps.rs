//! Team standings by hand (Art. 27.2) and McMahon handicap games.

use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, LineUpRule, McMahonBars, TeamSchedule, TournamentConfig};
use weiqi_pairing::event::ColorBy;
use weiqi_pairing::ids::{Color, GameRef, PlayerId, TeamId};
use weiqi_pairing::outcome::GameResult;
use weiqi_pairing::rank::Rank;
use weiqi_pairing::ratio::Ratio;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::standings::TieBreak;
use weiqi_pairing::team::team_standings;
use weiqi_pairing::weights::HandicapPolicy;

/// Three teams of two boards, single round robin. Every game is won by the home team's player on
/// board 1 and by the away team's player on board 2, except where noted, so the hand count is:
/// each match 2–2 on board points → match points 1–1, unless a board is reversed.
#[test]
fn team_round_robin_tie_breaks_by_hand() {
    let format =
        Format::Team { boards: 2, line_up: LineUpRule::FixedOrder, schedule: TeamSchedule::RoundRobin { cycles: 1 } };
    let mut s = Simulation::new(TournamentConfig::new("teams", format, 4), 4).unwrap();
    let regs: Vec<Registration> = (1..=6).map(|i| Registration::new(PlayerId(i), "p", Rank::Dan(2))).collect();
    s.register_all(&regs).unwrap();
    for k in 0..3u32 {
        let members = vec![PlayerId(2 * k + 1), PlayerId(2 * k + 2)];
        s.run(Command::RegisterTeam { team: TeamId(k + 1), name: format!("T{}", k + 1), members }).unwrap();
    }
    s.run(Command::Start).unwrap();
    // Team 1 wins both boards of every match it plays; the other match is split 1–1.
    for _ in 0..3 {
        s.run(Command::PairRound).unwrap();
        let round = s.state.rounds.last().unwrap().clone();
        for g in &round.games {
            let team_of = |p: PlayerId| s.state.players[&p].team.unwrap();
            let winner = if team_of(g.paired.black) == TeamId(1) {
                Color::Black
            } else if team_of(g.paired.white) == TeamId(1) {
                Color::White
            } else {
                Color::Black // 2 v 3: Black wins both boards, one for each team
            };
            s.run(Command::RecordResult {
                game: GameRef { round: round.number, table: g.paired.table },
                result: GameResult::win(winner),
            })
            .unwrap();
        }
    }
    let st = team_standings(&s.state);
    assert_eq!(st.criteria, vec![TieBreak::MatchPoints, TieBreak::BoardPoints, TieBreak::Board(1), TieBreak::Board(2)]);
    // Team 1: two match wins (4 match points), 8 board points (4 games × 2).
    assert_eq!(st.rows[0].team, TeamId(1));
    assert_eq!(st.rows[0].values[0], Ratio::int(4));
    assert_eq!(st.rows[0].values[1], Ratio::int(8));
    // Teams 2 and 3: lost to team 1, drew each other 2–2 (Black won both boards: one board each):
    // 1 match point and 2 board points each; the first board decides.
    let rest: Vec<_> = st.rows[1..].iter().collect();
    for r in &rest {
        assert_eq!(r.values[0], Ratio::int(1));
        assert_eq!(r.values[1], Ratio::int(2));
    }
    // In the 2–3 match Black won on both boards: the home team holds Black on board 1, so the home
    // team's first board scored and the away team's second board scored.
    assert_ne!(rest[0].values[2], rest[1].values[2]);
    assert_eq!(rest[0].values[2], Ratio::int(2));
    assert_eq!(rest[0].decided_by, Some(TieBreak::Board(1)));
    assert_eq!(rest[1].decided_by, Some(TieBreak::Board(1)));
}

#[test]
fn mcmahon_handicap_games_give_black_to_the_weaker_player() {
    let bars = McMahonBars { top: Rank::Dan(5), bottom: Rank::Kyu(20) };
    let mut cfg = TournamentConfig::new("hcp", Format::McMahon { rounds: 2, bars }, 8);
    cfg.pairing.handicap = HandicapPolicy::ByRank { reduction: 1, ceiling: 9 };
    let mut s = Simulation::new(cfg, 8).unwrap();
    // Ranks far apart: the pairing must give handicaps.
    let ranks = ["5d", "1d", "3k", "8k"];
    for (i, r) in ranks.iter().enumerate() {
        s.run(Command::Register { registration: Registration::new(PlayerId(i as u32 + 1), "p", r.parse().unwrap()) })
            .unwrap();
    }
    s.run(Command::Start).unwrap();
    s.run(Command::PairRound).unwrap();
    for g in &s.state.rounds[0].games {
        let rank = |p: PlayerId| s.state.players[&p].registration.rank.value();
        let expected = ((rank(g.paired.black) - rank(g.paired.white)).abs() - 1).clamp(0, 9) as u8;
        assert_eq!(g.paired.handicap, expected);
        if g.paired.handicap > 0 {
            assert_eq!(g.paired.color_by, ColorBy::Handicap);
            assert!(rank(g.paired.black) < rank(g.paired.white), "the weaker player takes Black");
        }
    }
    // McMahon scores 34 (5d), 30 (1d), 27 (3k), 22 (8k): neighbours meet, 5d–1d and 3k–8k.
    let pairs: Vec<(u32, u32)> = s.state.rounds[0]
        .games
        .iter()
        .map(|g| (g.paired.black.0.min(g.paired.white.0), g.paired.black.0.max(g.paired.white.0)))
        .collect();
    assert!(pairs.contains(&(1, 2)) && pairs.contains(&(3, 4)), "{pairs:?}");
}
