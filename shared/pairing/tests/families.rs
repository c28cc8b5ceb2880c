//! Issue 30 item 11: soft avoidance of one family, beside clubs and regions (pairgoth has it).
//!
//! Four players with equal scores and colors: every matching costs the same but for separation, so
//! which two play is the family criterion's alone to decide.
//!
//! ```text
//!   families      separate_families   pairs
//!   {1,2} {3,4}   on                  1–3 2–4 or 1–4 2–3   (never 1–2 or 3–4)
//!   {1,3} {2,4}   on                  1–2 3–4 or 1–4 2–3
//!   {1,4} {2,3}   on                  1–2 3–4 or 1–3 2–4
//!   any           off                 one fixed matching: it pairs a family in one of the three rows
//! ```

use std::collections::BTreeSet;

use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, TournamentConfig};
use weiqi_pairing::event::TournamentEvent;
use weiqi_pairing::ids::PlayerId;
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::swiss::{PairingParams, pair_round};
use weiqi_pairing::weights::{Candidate, PairingPolicy, edge_cost};

fn player(id: u32, family: u32) -> Candidate {
    Candidate {
        id: PlayerId(id),
        score: 0,
        rank: 0,
        lot: u64::from(id),
        color_balance: 0,
        last_color: None,
        byes: 0,
        opponents: Vec::new(),
        club: None,
        region: None,
        family: Some(family),
        seat: None,
    }
}

fn pairs(field: &[Candidate], separate_families: bool) -> BTreeSet<(u32, u32)> {
    let policy = PairingPolicy { separate_families, ..PairingPolicy::default() };
    let plan = pair_round(field, &BTreeSet::new(), &policy, &PairingParams::default()).unwrap();
    plan.pairs.iter().map(|p| (p.a.0.min(p.b.0), p.a.0.max(p.b.0))).collect()
}

/// The three ways to split players 1–4 into two families of two.
const SPLITS: [[u32; 4]; 3] = [[0, 0, 1, 1], [0, 1, 0, 1], [0, 1, 1, 0]];

fn field(split: [u32; 4]) -> Vec<Candidate> {
    (1..=4).map(|i| player(i, split[i as usize - 1])).collect()
}

fn pairs_a_family(split: [u32; 4], pairs: &BTreeSet<(u32, u32)>) -> bool {
    pairs.iter().any(|&(a, b)| split[a as usize - 1] == split[b as usize - 1])
}

#[test]
fn with_the_setting_no_family_plays_itself_when_another_pairing_exists() {
    for split in SPLITS {
        let chosen = pairs(&field(split), true);
        assert_eq!(chosen.len(), 2);
        assert!(!pairs_a_family(split, &chosen), "{split:?}: {chosen:?}");
    }
}

#[test]
fn without_the_setting_the_family_is_not_looked_at() {
    let paired_a_family = SPLITS.iter().filter(|&&split| pairs_a_family(split, &pairs(&field(split), false))).count();
    assert!(paired_a_family >= 1, "the setting would prove nothing if the plain pairing never met a family");
}

#[test]
fn a_family_weighs_as_much_as_one_club_and_one_region_and_no_more() {
    let policy = PairingPolicy {
        separate_clubs: true,
        separate_regions: true,
        separate_families: true,
        ..PairingPolicy::default()
    };
    let (mut a, mut b) = (player(1, 7), player(2, 7));
    assert_eq!(edge_cost(&a, &b, &policy, 1).unwrap().separation, 3);
    (a.club, b.club, a.region, b.region) = (Some(1), Some(1), Some(2), Some(2));
    assert_eq!(edge_cost(&a, &b, &policy, 1).unwrap().separation, 3, "the tier holds at most 3");
    b.family = Some(8);
    assert_eq!(edge_cost(&a, &b, &policy, 1).unwrap().separation, 3, "club 2 + region 1");
    b.region = None;
    assert_eq!(edge_cost(&a, &b, &policy, 1).unwrap().separation, 2);
}

/// The family a director writes in a registration reaches the pairing: a Swiss of two cousins
/// records the cost of their separation only when the event separates families.
#[test]
fn the_registrations_family_reaches_the_round() {
    for separate in [false, true] {
        let mut config = TournamentConfig::new("t", Format::Swiss { rounds: 1 }, 7);
        config.pairing.separate_families = separate;
        let mut s = Simulation::new(config, 7).unwrap();
        let cousins: Vec<Registration> = (1..=2)
            .map(|i| {
                let mut r = Registration::new(PlayerId(i), &format!("Wang {i}"), Rank::Kyu(5));
                r.family = Some("王家".into());
                r
            })
            .collect();
        s.register_all(&cousins).unwrap();
        s.run(Command::Start).unwrap();
        let events = s.run(Command::PairRound).unwrap();
        let cost = events
            .iter()
            .find_map(|e| match e {
                TournamentEvent::RoundPaired { games, .. } => games.first().and_then(|g| g.cost),
                _ => None,
            })
            .expect("one game with its cost");
        assert_eq!(cost.separation, if separate { 3 } else { 0 }, "separate_families = {separate}");
    }
}
