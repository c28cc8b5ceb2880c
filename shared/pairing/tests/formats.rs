//! Every format, end to end in the domain: a full event with seeded random results, checked for the
//! invariants of that format.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{ByeKind, Format, LineUpRule, McMahonBars, TeamSchedule, TournamentConfig};
use weiqi_pairing::event::{BracketSlot, ByeReason, Champion, Stage, TournamentEvent};
use weiqi_pairing::ids::{Color, GameRef, PlayerId, TeamId};
use weiqi_pairing::outcome::Outcome;
use weiqi_pairing::rank::Rank;
use weiqi_pairing::record::records;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::state::Phase;
use weiqi_pairing::team::{match_scores, team_standings};

fn players(n: u32) -> Vec<Registration> {
    (1..=n)
        .map(|i| {
            let rank = Rank::from_value(7 - (i as i32 * 3) % 25);
            let mut r = Registration::new(PlayerId(i), &format!("Player {i}"), rank);
            r.club = Some(format!("Club {}", i % 5));
            r
        })
        .collect()
}

fn sim(format: Format, n: u32, seed: u64) -> Simulation {
    let mut s = Simulation::new(TournamentConfig::new("t", format, seed), seed).unwrap();
    s.register_all(&players(n)).unwrap();
    s.run(Command::Start).unwrap();
    s
}

fn champion(s: &Simulation) -> Champion {
    match s.state.phase {
        Phase::Finished(c) => c,
        other => panic!("not finished: {other:?}"),
    }
}

/// Every active player appears exactly once per round (a game or a bye).
fn each_round_places_everyone_once(s: &Simulation) {
    for round in &s.state.rounds {
        let mut seen = BTreeSet::new();
        for g in &round.games {
            assert!(seen.insert(g.paired.black), "round {}: {} twice", round.number, g.paired.black);
            assert!(seen.insert(g.paired.white), "round {}: {} twice", round.number, g.paired.white);
        }
        for b in &round.byes {
            assert!(seen.insert(b.player), "round {}: {} twice", round.number, b.player);
        }
    }
}

fn meetings(s: &Simulation) -> BTreeMap<(PlayerId, PlayerId), u32> {
    let mut m = BTreeMap::new();
    for round in &s.state.rounds {
        for g in &round.games {
            let (a, b) = (g.paired.black.min(g.paired.white), g.paired.black.max(g.paired.white));
            *m.entry((a, b)).or_insert(0) += 1;
        }
    }
    m
}

#[test]
fn swiss_never_repeats_a_pairing_or_a_bye() {
    for seed in 1..=3 {
        let mut s = sim(Format::Swiss { rounds: 7 }, 37, seed);
        s.play_to_end(20).unwrap();
        assert_eq!(s.state.current_round(), 7);
        each_round_places_everyone_once(&s);
        assert!(meetings(&s).values().all(|&k| k == 1), "a rematch");
        let mut byes = BTreeMap::new();
        for r in &s.state.rounds {
            assert_eq!(r.byes.len(), 1, "37 players: one bye per round");
            *byes.entry(r.byes[0].player).or_insert(0) += 1;
        }
        assert!(byes.values().all(|&k| k == 1), "a second bye");
        assert!(matches!(champion(&s), Champion::Player(_)));
    }
}

#[test]
fn mcmahon_pairs_on_mcmahon_score_between_the_bars() {
    let bars = McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(10) };
    let mut s = sim(Format::McMahon { rounds: 5, bars }, 40, 9);
    s.run(Command::PairRound).unwrap();
    // Round 1: everyone at or above 3d starts equal, so no pair crosses more than the field needs.
    let r1 = &s.state.rounds[0];
    let mms0 = |p: PlayerId| {
        let v = s.state.players[&p].registration.rank.value();
        v.clamp(bars.bottom.value(), bars.top.value())
    };
    let diff: i32 = r1.games.iter().map(|g| (mms0(g.paired.black) - mms0(g.paired.white)).abs()).sum();
    // Exact optimum on a sorted list pairs neighbours: the sum of gaps between (2k, 2k+1).
    let mut sorted: Vec<i32> = s.state.players.keys().map(|&p| mms0(p)).collect();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let best: i32 = sorted.chunks(2).map(|c| (c[0] - c[1]).abs()).sum();
    assert_eq!(diff, best);
    s.play_round().unwrap();
    s.play_to_end(20).unwrap();
    each_round_places_everyone_once(&s);
    assert!(meetings(&s).values().all(|&k| k == 1));
    assert!(matches!(champion(&s), Champion::Player(_)));
}

fn color_balance(s: &Simulation) -> HashMap<PlayerId, i32> {
    let mut b = HashMap::new();
    for r in &s.state.rounds {
        for g in &r.games {
            *b.entry(g.paired.black).or_insert(0) += 1;
            *b.entry(g.paired.white).or_insert(0) -= 1;
        }
    }
    b
}

#[test]
fn round_robin_everyone_meets_everyone_once_per_cycle() {
    for (n, cycles) in [(7u32, 1u32), (8, 1), (6, 2), (5, 3)] {
        let mut s = sim(Format::RoundRobin { cycles }, n, u64::from(n));
        s.play_to_end(100).unwrap();
        let m = meetings(&s);
        assert_eq!(m.len() as u32, n * (n - 1) / 2);
        assert!(m.values().all(|&k| k == cycles), "n={n} cycles={cycles}");
        for (_, b) in color_balance(&s) {
            assert!(b.abs() <= if cycles % 2 == 0 { 0 } else { 1 }, "n={n} cycles={cycles}: balance {b}");
        }
        each_round_places_everyone_once(&s);
        assert!(matches!(champion(&s), Champion::Player(_)));
    }
}

#[test]
fn single_knockout_has_exactly_one_champion() {
    for n in [2u32, 5, 13, 16] {
        let mut s = sim(Format::Knockout { losses: 1 }, n, u64::from(n));
        s.play_to_end(20).unwrap();
        let Champion::Player(c) = champion(&s) else { panic!("no champion") };
        let recs = records(&s.state, s.state.current_round());
        let unbeaten: Vec<PlayerId> = recs.list.iter().filter(|r| r.losses == 0).map(|r| r.player).collect();
        assert_eq!(unbeaten, vec![c], "n={n}");
        let games: usize = s.state.rounds.iter().map(|r| r.games.len()).sum();
        assert_eq!(games as u32, n - 1, "n={n}: a knockout of n players has n-1 games");
        // Byes only in round 1, to the top seeds.
        for r in &s.state.rounds[1..] {
            assert!(r.byes.is_empty() || r.games.is_empty());
        }
        let eliminated = s.state.players.values().filter(|e| e.eliminated_in.is_some()).count();
        assert_eq!(eliminated as u32, n - 1);
    }
}

#[test]
fn multi_loss_elimination_removes_players_at_the_loss_count() {
    for losses in [2u32, 3] {
        let mut s = sim(Format::Knockout { losses }, 11, u64::from(losses));
        s.play_to_end(200).unwrap();
        let Champion::Player(c) = champion(&s) else { panic!("no champion") };
        let log = s.log.clone();
        // Replay: at each elimination, the player has exactly `losses` losses.
        let mut t = weiqi_pairing::state::Tournament::default();
        for e in &log {
            weiqi_pairing::state::evolve(&mut t, e);
            if let TournamentEvent::PlayerEliminated { player, round } = e {
                let r = records(&t, *round);
                assert_eq!(r.get(*player).unwrap().losses, losses);
            }
        }
        let recs = records(&s.state, s.state.current_round());
        assert!(recs.get(c).unwrap().losses < losses);
        let eliminated = s.state.players.values().filter(|e| e.eliminated_in.is_some()).count();
        assert_eq!(eliminated, 10);
    }
}

#[test]
fn swiss_elimination_keeps_the_field_even() {
    for seed in 1..=4 {
        let mut s = sim(Format::SwissElimination { rounds: 12, losses: 3 }, 21, seed);
        s.play_to_end(30).unwrap();
        champion(&s);
        // Replay the log: whenever the active field is odd and someone was eliminated in the round
        // before, that player is reprieved and nobody gets a pairing bye.
        let mut t = weiqi_pairing::state::Tournament::default();
        let mut reprieves = 0;
        for e in &s.log {
            if let TournamentEvent::RoundPaired { round, byes, games, .. } = e {
                let just_out = t.players.values().any(|p| p.eliminated_in == Some(round - 1));
                let pairing_byes = byes.iter().filter(|b| b.reason == ByeReason::Pairing).count();
                if just_out || *round == 1 {
                    assert_eq!(pairing_byes, usize::from(*round == 1), "seed {seed} round {round}");
                }
                assert!(!games.is_empty());
            }
            if let TournamentEvent::PlayerReprieved { .. } = e {
                reprieves += 1;
            }
            weiqi_pairing::state::evolve(&mut t, e);
        }
        assert!(reprieves > 0, "seed {seed}: an odd field never occurred");
        let recs = records(&s.state, s.state.current_round());
        for (p, e) in &s.state.players {
            if e.eliminated_in.is_some() {
                assert!(recs.get(*p).unwrap().losses >= 3);
            }
        }
    }
}

#[test]
fn best_of_seven_ends_at_four_wins() {
    let mut s = sim(Format::Match { wins_needed: 4 }, 2, 3);
    s.play_to_end(50).unwrap();
    let Champion::Player(c) = champion(&s) else { panic!() };
    let recs = records(&s.state, s.state.current_round());
    assert_eq!(recs.get(c).unwrap().wins, 4);
    let other = recs.list.iter().find(|r| r.player != c).unwrap();
    assert!(other.wins < 4);
    // Colors alternate.
    for w in s.state.rounds.windows(2) {
        assert_eq!(w[0].games[0].paired.black, w[1].games[0].paired.white);
    }
}

/// A ten-game match (十番棋) is played out unless the lead can no longer be caught; the side with more
/// points wins, equal points after ten games draw it.
#[test]
fn a_ten_game_match_stops_when_the_lead_cannot_be_caught() {
    let mut early = 0;
    for seed in 0..40 {
        let mut s = sim(Format::FixedMatch { games: 10 }, 2, seed);
        s.play_to_end(20).unwrap();
        let played = u32::try_from(s.state.rounds.len()).unwrap();
        assert!(played <= 10, "seed {seed}: {played} games");
        let recs = records(&s.state, s.state.current_round());
        let (a, b) = (&recs.list[0], &recs.list[1]);
        let left = 2 * i64::from(10 - played);
        match champion(&s) {
            Champion::Player(c) => {
                let (w, l) = if a.player == c { (a, b) } else { (b, a) };
                assert!(w.points - l.points > left, "seed {seed}: {} vs {} with {left} left", w.points, l.points);
                // One game earlier, the match was still open.
                assert!(w.points - l.points <= left + 4, "seed {seed}: decided late");
            }
            Champion::None => assert_eq!((played, a.points), (10, b.points), "seed {seed}"),
            other => panic!("seed {seed}: {other:?}"),
        }
        if played < 10 {
            early += 1;
        }
        for w in s.state.rounds.windows(2) {
            assert_eq!(w[0].games[0].paired.black, w[1].games[0].paired.white, "colors alternate");
        }
    }
    assert!(early > 0, "no match was decided early");
}

#[test]
fn groups_then_cross_knockout_as_in_seed_001() {
    let cfg = TournamentConfig::seed_001_local_event("city", 2, 11);
    let mut s = Simulation::new(cfg, 11).unwrap();
    s.register_all(&players(10)).unwrap();
    s.run(Command::Start).unwrap();
    s.play_to_end(30).unwrap();
    let Champion::Player(_) = champion(&s) else { panic!() };
    // Group stage: 5 players per group, round robin within each group.
    let group_games: Vec<_> =
        s.state.rounds.iter().filter(|r| r.stage == Stage::Groups).flat_map(|r| r.games.iter()).collect();
    assert_eq!(group_games.len(), 2 * 10);
    assert!(group_games.iter().all(|g| g.paired.group.is_some()));
    // Cross knockout: A1–B2 and B1–A2, then the final.
    let ko: Vec<_> = s.state.rounds.iter().filter(|r| r.stage == Stage::Knockout).collect();
    assert_eq!(ko.len(), 2);
    assert_eq!(ko[0].games.len(), 2);
    assert_eq!(ko[1].games.len(), 1);
    let group_of =
        |p: PlayerId| group_games.iter().find(|g| g.paired.black == p || g.paired.white == p).unwrap().paired.group;
    for g in &ko[0].games {
        assert_ne!(group_of(g.paired.black), group_of(g.paired.white), "cross pairing");
    }
    // Points are 3/1/0.
    assert_eq!(s.state.config.as_ref().unwrap().points.win, 3);
}

fn team_sim(format: Format, teams: u32, size: u32, seed: u64) -> Simulation {
    let mut s = Simulation::new(TournamentConfig::new("teams", format, seed), seed).unwrap();
    s.register_all(&players(teams * size)).unwrap();
    for k in 0..teams {
        let members = (1..=size).map(|i| PlayerId(k * size + i)).collect();
        s.run(Command::RegisterTeam { team: TeamId(k + 1), name: format!("Team {}", k + 1), members }).unwrap();
    }
    s.run(Command::Start).unwrap();
    s
}

#[test]
fn team_round_robin_board_points_make_match_points() {
    let format =
        Format::Team { boards: 3, line_up: LineUpRule::FixedOrder, schedule: TeamSchedule::RoundRobin { cycles: 1 } };
    let mut s = team_sim(format, 5, 4, 21);
    s.play_to_end(20).unwrap();
    let Champion::Team(_) = champion(&s) else { panic!() };
    let scores = match_scores(&s.state, s.state.current_round());
    assert_eq!(scores.len(), 10, "5 teams meet once each");
    let mut met = BTreeSet::new();
    for m in &scores {
        assert!(met.insert((m.home.min(m.away), m.home.max(m.away))));
        assert_eq!(m.board_points[0] + m.board_points[1], 3 * 2, "three boards of 2 points");
        let expect = match m.board_points[0].cmp(&m.board_points[1]) {
            std::cmp::Ordering::Greater => [2, 0],
            std::cmp::Ordering::Less => [0, 2],
            std::cmp::Ordering::Equal => [1, 1],
        };
        assert_eq!(m.match_points, expect);
    }
    // Fixed board order: board k is always the team's k-th member; home holds Black on odd boards.
    for r in &s.state.rounds {
        for g in &r.games {
            let b = g.paired.team_board.unwrap();
            let m = r.team_matches[b.match_no as usize - 1];
            let home_black = b.board % 2 == 1;
            let home_player = if home_black { g.paired.black } else { g.paired.white };
            assert_eq!(s.state.players[&home_player].team, Some(m.home));
            assert_eq!(s.state.teams[&m.home].members[b.board as usize - 1], home_player);
        }
    }
    let st = team_standings(&s.state);
    assert_eq!(st.rows.len(), 5);
}

#[test]
fn team_swiss_with_line_ups_per_match() {
    let format = Format::Team { boards: 2, line_up: LineUpRule::PerMatch, schedule: TeamSchedule::Swiss { rounds: 3 } };
    let mut s = team_sim(format, 4, 3, 5);
    for round in 1..=3u32 {
        let missing = s.clone().run(Command::PairRound);
        assert!(matches!(missing, Err(weiqi_pairing::rejection::Rejection::LineUpMissing(_))));
        for k in 1..=4u32 {
            let first = (k - 1) * 3 + 1;
            // Rotate who rests.
            let players: Vec<PlayerId> = (0..3).map(|i| PlayerId(first + (i + round) % 3)).take(2).collect();
            s.run(Command::SubmitLineUp { round, team: TeamId(k), players }).unwrap();
        }
        s.run(Command::PairRound).unwrap();
        s.play_round().unwrap();
    }
    let Champion::Team(_) = champion(&s) else { panic!() };
    let scores = match_scores(&s.state, 3);
    let mut met = BTreeSet::new();
    for m in &scores {
        assert!(met.insert((m.home.min(m.away), m.home.max(m.away))), "teams met twice");
    }
}

#[test]
fn team_rotation_every_player_meets_every_opponent() {
    let mut s = team_sim(Format::TeamRotation, 2, 4, 8);
    s.play_to_end(10).unwrap();
    champion(&s);
    let m = meetings(&s);
    assert_eq!(m.len(), 16);
    for a in 1..=4 {
        for b in 5..=8 {
            assert_eq!(m.get(&(PlayerId(a), PlayerId(b))), Some(&1));
        }
    }
}

#[test]
fn win_and_continue_ends_when_a_team_runs_out() {
    for seed in 1..=5 {
        let mut s = team_sim(Format::WinAndContinue, 2, 5, seed);
        s.play_to_end(20).unwrap();
        let Champion::Team(winner) = champion(&s) else { panic!() };
        let loser = if winner == TeamId(1) { TeamId(2) } else { TeamId(1) };
        let recs = records(&s.state, s.state.current_round());
        // Every player of the losing team has lost once; the winner of each game stays on.
        for p in &s.state.teams[&loser].members {
            assert_eq!(recs.get(*p).unwrap().losses, 1);
        }
        for w in s.state.rounds.windows(2) {
            let g = &w[0].games[0];
            let stay = match g.result.unwrap().outcome {
                Outcome::Win(Color::Black) => g.paired.black,
                Outcome::Win(Color::White) => g.paired.white,
                _ => continue,
            };
            let next = &w[1].games[0].paired;
            assert!(next.black == stay || next.white == stay);
        }
        assert!(s.state.rounds.len() >= 5 && s.state.rounds.len() <= 9);
    }
}

#[test]
fn knockout_bye_slots_advance_top_seeds() {
    let mut s = sim(Format::Knockout { losses: 1 }, 6, 2);
    s.run(Command::PairRound).unwrap();
    let r1 = &s.state.rounds[0];
    let through: Vec<PlayerId> =
        r1.bracket.iter().filter_map(|b| if let BracketSlot::Through(p) = b { Some(*p) } else { None }).collect();
    assert_eq!(through.len(), 2);
    // The two first seeds (rank, then lot) get the byes.
    let mut seeds: Vec<(i32, u64, PlayerId)> =
        s.state.players.iter().map(|(&p, e)| (-e.registration.rank.value(), e.lot, p)).collect();
    seeds.sort();
    let top: BTreeSet<PlayerId> = seeds[..2].iter().map(|&(_, _, p)| p).collect();
    assert_eq!(through.iter().copied().collect::<BTreeSet<_>>(), top);
    assert!(r1.byes.iter().all(|b| b.kind == ByeKind::FullPoint && b.reason == ByeReason::Advance));
    let _ = GameRef { round: 1, table: 1 };
}

/// Issue 15 item 3: every format reports the rounds it plans (0 only for the open-ended ones), and
/// an event played to its end played exactly that many (a best-of-N match at most that many).
#[test]
fn rounds_planned_is_the_number_of_rounds_played() {
    use weiqi_pairing::rounds::rounds_planned;
    let bars = McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(10) };
    let individual = [
        (Format::RoundRobin { cycles: 1 }, 6, 5),
        (Format::RoundRobin { cycles: 2 }, 5, 10),
        (Format::Swiss { rounds: 4 }, 9, 4),
        (Format::McMahon { rounds: 3, bars }, 8, 3),
        (Format::Knockout { losses: 1 }, 11, 4),
        (Format::GroupsThenKnockout { groups: 2, advance: 2 }, 10, 5 + 2),
        (Format::FixedMatch { games: 6 }, 2, 6),
        (Format::Match { wins_needed: 4 }, 2, 7),
    ];
    for (format, n, expected) in individual {
        let mut s = sim(format.clone(), n, 3);
        let planned = rounds_planned(&s.state);
        assert_eq!(planned, expected, "{format:?} with {n} players");
        s.play_to_end(40).unwrap();
        let played = s.state.current_round();
        match format {
            // A fixed match stops early once the lead cannot be caught; a best-of-N at four wins.
            Format::Match { .. } | Format::FixedMatch { .. } => assert!(played <= planned, "{format:?}"),
            _ => assert_eq!(played, planned, "{format:?} with {n} players"),
        }
    }
    let team_rr =
        Format::Team { boards: 2, line_up: LineUpRule::FixedOrder, schedule: TeamSchedule::RoundRobin { cycles: 1 } };
    for (format, teams, size, expected) in [(team_rr, 5, 2, 5), (Format::TeamRotation, 2, 3, 3)] {
        let mut s = team_sim(format.clone(), teams, size, 5);
        assert_eq!(rounds_planned(&s.state), expected, "{format:?}");
        s.play_to_end(40).unwrap();
        assert_eq!(s.state.current_round(), expected, "{format:?}");
    }
    // Open-ended: a double elimination's length depends on who loses.
    assert_eq!(rounds_planned(&sim(Format::Knockout { losses: 2 }, 8, 1).state), 0);
}
