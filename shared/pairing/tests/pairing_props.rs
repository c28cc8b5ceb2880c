//! Pairing properties: the blossom solver against brute force, the Swiss plan against brute force on
//! small fields, and no rematch / no second bye across random 7-round events of 2–500 players.

use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, TournamentConfig};
use weiqi_pairing::ids::{Color, PlayerId};
use weiqi_pairing::matching::{WeightMatrix, brute_force_max_weight, max_weight_matching};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::rejection::Rejection;
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::swiss::{PairingError, PairingParams, pair_round};
use weiqi_pairing::weights::{Candidate, PairingPolicy, edge_cost, score_groups};

fn matrix(n: usize, cells: &[(u16, bool)]) -> WeightMatrix {
    let mut w = WeightMatrix::new(n);
    let mut k = 0;
    for i in 0..n {
        for j in i + 1..n {
            let (v, present) = cells[k % cells.len()];
            k += 1;
            if present {
                w.set(i, j, i128::from(v) + 1);
            }
        }
    }
    w
}

fn candidate(i: usize, score: i64, balance: i32, opponents: Vec<PlayerId>, byes: u32) -> Candidate {
    Candidate {
        id: PlayerId(i as u32),
        score,
        rank: (i % 7) as i32,
        lot: i as u64,
        color_balance: balance,
        last_color: if balance > 0 {
            Some(Color::Black)
        } else if balance < 0 {
            Some(Color::White)
        } else {
            None
        },
        byes,
        opponents,
        club: Some((i % 3) as u32),
        region: None,
        family: None,
        seat: None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The blossom matching has the brute-force optimum weight on random sparse graphs.
    #[test]
    fn blossom_matches_brute_force(n in 1usize..=11, cells in prop::collection::vec((0u16..1000, prop::bool::weighted(0.7)), 1..80)) {
        let w = matrix(n, &cells);
        let mate = max_weight_matching(&w);
        for (i, m) in mate.iter().enumerate() {
            if let Some(j) = *m {
                prop_assert_eq!(mate[j], Some(i));
                prop_assert!(w.get(i, j) > 0, "matched through a missing edge");
            }
        }
        prop_assert_eq!(w.total(&mate), brute_force_max_weight(&w));
    }

    /// On small fields the pairing is exactly optimal for the documented weights: its weight equals
    /// the brute-force maximum over every rematch-free matching of the players left after the bye.
    #[test]
    fn swiss_plan_is_optimal_on_small_fields(
        n in 2usize..=11,
        scores in prop::collection::vec(0i64..6, 11),
        balances in prop::collection::vec(-2i32..=2, 11),
        met in prop::collection::vec(prop::bool::weighted(0.25), 60),
        byes in prop::collection::vec(prop::bool::weighted(0.3), 11),
    ) {
        let mut opponents = vec![Vec::new(); n];
        let mut k = 0;
        for i in 0..n {
            for j in i + 1..n {
                if met[k % met.len()] {
                    opponents[i].push(PlayerId(j as u32));
                    opponents[j].push(PlayerId(i as u32));
                }
                k += 1;
            }
        }
        let cands: Vec<Candidate> = (0..n)
            .map(|i| candidate(i, scores[i], balances[i], opponents[i].clone(), u32::from(byes[i])))
            .collect();
        let policy = PairingPolicy { separate_clubs: true, ..PairingPolicy::default() };
        let result = pair_round(&cands, &BTreeSet::new(), &policy, &PairingParams::default());
        let weights = |field: &[usize]| {
            let mut w = WeightMatrix::new(field.len());
            for x in 0..field.len() {
                for y in x + 1..field.len() {
                    if let Some(c) = edge_cost(&cands[field[x]], &cands[field[y]], &policy, score_groups(&cands)) {
                        w.set(x, y, c.weight());
                    }
                }
            }
            w
        };
        let perfect = |field: &[usize]| {
            // BASE outweighs every total cost, so the optimum's weight reveals its number of edges.
            let base = weiqi_pairing::weights::BASE;
            let best = brute_force_max_weight(&weights(field));
            ((best + base - 1) / base) as usize * 2 == field.len()
        };
        let all: Vec<usize> = (0..n).collect();
        match result {
            Ok(plan) => {
                let bye = plan.bye.map(|p| p.0 as usize);
                let field: Vec<usize> = all.iter().copied().filter(|&i| Some(i) != bye).collect();
                prop_assert_eq!(plan.pairs.len() * 2, field.len());
                prop_assert_eq!(plan.weight(), brute_force_max_weight(&weights(&field)));
                for p in &plan.pairs {
                    prop_assert!(!cands[p.a.0 as usize].opponents.contains(&p.b), "rematch");
                }
                if let Some(b) = bye {
                    prop_assert_eq!(cands[b].byes, 0, "second bye");
                    // Every eligible player lower in the order could not have taken the bye.
                    let order = weiqi_pairing::swiss::pairing_order(&cands);
                    let pos = order.iter().position(|&i| i == b).unwrap();
                    for &lower in &order[pos + 1..] {
                        if cands[lower].byes == 0 {
                            let rest: Vec<usize> = all.iter().copied().filter(|&i| i != lower).collect();
                            prop_assert!(!perfect(&rest), "a lower eligible player could have had the bye");
                        }
                    }
                }
            }
            Err(PairingError::NoByeCandidate) => {
                prop_assert!(n % 2 == 1 && cands.iter().all(|c| c.byes > 0));
            }
            Err(PairingError::NoPairingWithoutRematch(_)) => {
                if n % 2 == 0 {
                    prop_assert!(!perfect(&all));
                } else {
                    for b in (0..n).filter(|&b| cands[b].byes == 0) {
                        let rest: Vec<usize> = all.iter().copied().filter(|&i| i != b).collect();
                        prop_assert!(!perfect(&rest));
                    }
                }
            }
        }
    }
}

fn field(n: u32, seed: u64) -> Vec<Registration> {
    (1..=n)
        .map(|i| {
            let v = ((u64::from(i) * 2654435761 + seed) % 30) as i32 - 22;
            Registration::new(PlayerId(i), &format!("P{i}"), Rank::from_value(v))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random 7-round Swiss events of 2–500 players: never a second bye, and never a rematch while a
    /// pairing without one exists; when none exists (a field too small for 7 rounds, or an unlucky
    /// history like ten players whose halves met each other five times), the round is still paired,
    /// with rematches as the last resort.
    #[test]
    fn seven_round_swiss_has_no_rematch_and_no_second_bye(
        n in prop_oneof![2u32..16, 16u32..120, 120u32..=500],
        seed in 0u64..1_000_000,
        mcmahon in prop::bool::ANY,
    ) {
        let format = if mcmahon {
            Format::McMahon { rounds: 7, bars: weiqi_pairing::config::McMahonBars { top: Rank::Dan(2), bottom: Rank::Kyu(15) } }
        } else {
            Format::Swiss { rounds: 7 }
        };
        let mut s = Simulation::new(TournamentConfig::new("p", format, seed), seed).unwrap();
        s.register_all(&field(n, seed)).unwrap();
        s.run(Command::Start).unwrap();
        let mut met: BTreeSet<(PlayerId, PlayerId)> = BTreeSet::new();
        let mut byes: BTreeMap<PlayerId, u32> = BTreeMap::new();
        for round in 1..=7u32 {
            // Whether a pairing without a rematch exists (the strict pairing finds one if any does).
            let strict = {
                let cands = weiqi_pairing::rounds::next_round_candidates(&s.state);
                let policy = s.state.config.as_ref().unwrap().pairing;
                pair_round(&cands, &s.state.forbidden_in(round), &policy, &PairingParams::exact(cands.len())).is_ok()
            };
            match s.run(Command::PairRound) {
                Ok(_) => {}
                Err(Rejection::Pairing(_)) => {
                    // Only when not even rematches help: a bye would go twice.
                    prop_assert!(!strict, "n={} round {} could not be paired", n, round);
                    prop_assert!(n % 2 == 1 && n <= 8, "n={} round {} could not be paired at all", n, round);
                    break;
                }
                Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
            }
            let r = s.state.rounds.last().unwrap();
            for g in &r.games {
                let key = (g.paired.black.min(g.paired.white), g.paired.black.max(g.paired.white));
                let first = met.insert(key);
                prop_assert!(first || !strict, "rematch {:?} in round {} where a pairing without one exists", key, round);
            }
            for b in &r.byes {
                let k = byes.entry(b.player).or_insert(0);
                *k += 1;
                prop_assert_eq!(*k, 1, "second bye");
            }
            prop_assert_eq!(r.games.len() * 2 + r.byes.len(), n as usize);
            s.play_round().unwrap();
        }
    }
}
