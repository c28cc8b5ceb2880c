//! Issue 15 item 1: seeding inside a score group. A 16-player McMahon with a top bar at 3 dan: round
//! 1 pairs the top half of each score group against its bottom half as the chosen seed system says,
//! and the explanation names the rule, the places, the players and the MMS.

use std::collections::BTreeSet;
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{Format, McMahonBars, TournamentConfig};
use weiqi_pairing::explain::explain_pairing;
use weiqi_pairing::ids::PlayerId;
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::rounds::next_round_candidates;
use weiqi_pairing::seeding::{SeedSystem, Seeding};
use weiqi_pairing::simulate::Simulation;
use weiqi_pairing::state::Tournament;
use weiqi_pairing::swiss::{PairingParams, pair_round};
use weiqi_pairing::weights::Candidate;

/// 5d 4d 4d 3d 3d 3d | 2d 2d | 1d 1d | 1k 1k 1k 1k | 2k 2k: a top group of six (the bar is 3d),
/// groups of two, and a group of four.
const RANKS: [Rank; 16] = [
    Rank::Dan(5),
    Rank::Dan(4),
    Rank::Dan(4),
    Rank::Dan(3),
    Rank::Dan(3),
    Rank::Dan(3),
    Rank::Dan(2),
    Rank::Dan(2),
    Rank::Dan(1),
    Rank::Dan(1),
    Rank::Kyu(1),
    Rank::Kyu(1),
    Rank::Kyu(1),
    Rank::Kyu(1),
    Rank::Kyu(2),
    Rank::Kyu(2),
];

fn field(seeding: Option<Seeding>) -> Simulation {
    let bars = McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(20) };
    let mut config = TournamentConfig::new("Spring McMahon", Format::McMahon { rounds: 5, bars }, 2026);
    if let Some(s) = seeding {
        config.pairing.seeding = s;
    }
    let mut s = Simulation::new(config, 1).unwrap();
    let players: Vec<Registration> = RANKS
        .iter()
        .enumerate()
        .map(|(i, &rank)| Registration::new(PlayerId(i as u32 + 1), &format!("Player {}", i + 1), rank))
        .collect();
    s.register_all(&players).unwrap();
    s.run(Command::Start).unwrap();
    s
}

/// The score groups before round 1, each in seeding order (rank, then lot).
fn groups(t: &Tournament) -> Vec<Vec<PlayerId>> {
    let mut cands = next_round_candidates(t);
    cands.sort_by_key(|c| (-c.score, -c.rank, c.lot, c.id));
    let mut out: Vec<Vec<PlayerId>> = Vec::new();
    let mut last = None;
    for c in &cands {
        if last != Some(c.score) {
            out.push(Vec::new());
            last = Some(c.score);
        }
        out.last_mut().unwrap().push(c.id);
    }
    out
}

fn pairs(t: &Tournament, round: usize) -> BTreeSet<(PlayerId, PlayerId)> {
    t.rounds[round]
        .games
        .iter()
        .map(|g| (g.paired.black.min(g.paired.white), g.paired.black.max(g.paired.white)))
        .collect()
}

fn pair(x: PlayerId, y: PlayerId) -> (PlayerId, PlayerId) {
    (x.min(y), x.max(y))
}

fn show(t: &Tournament, ps: &BTreeSet<(PlayerId, PlayerId)>) -> String {
    let label = |p: PlayerId| format!("{}({})", p.0, t.players[&p].registration.rank);
    ps.iter().map(|&(a, b)| format!("{} v {}", label(a), label(b))).collect::<Vec<_>>().join(", ")
}

#[test]
fn round_one_pairs_top_half_against_bottom_half_of_each_group() {
    for (system, rule) in [
        (SeedSystem::SplitAndFold, "fold: 1st v last"),
        (SeedSystem::SplitAndSlip, "slip: 1st v n/2+1-th"),
        (SeedSystem::SplitAndRandom, "random across the halves"),
    ] {
        let seeding = Seeding { first: system, last_round_first: 1, second: SeedSystem::SplitAndFold };
        let mut s = field(Some(seeding));
        let gs = groups(&s.state);
        assert_eq!(gs.iter().map(Vec::len).collect::<Vec<_>>(), vec![6, 2, 2, 4, 2], "the score groups");
        s.run(Command::PairRound).unwrap();
        let got = pairs(&s.state, 0);
        println!("{system:?}: {}", show(&s.state, &got));
        for g in &gs {
            let n = g.len();
            for (i, &p) in g.iter().enumerate().take(n / 2) {
                let partner = got.iter().find_map(|&(a, b)| {
                    if a == p {
                        Some(b)
                    } else if b == p {
                        Some(a)
                    } else {
                        None
                    }
                });
                let j =
                    g.iter().position(|&q| Some(q) == partner).unwrap_or_else(|| panic!("{rule}: {p} left its group"));
                match system {
                    SeedSystem::SplitAndFold => assert_eq!(j, n - 1 - i, "{rule}, group {g:?}"),
                    SeedSystem::SplitAndSlip => assert_eq!(j, i + n / 2, "{rule}, group {g:?}"),
                    SeedSystem::SplitAndRandom => assert!(j >= n / 2, "{rule}, group {g:?}"),
                }
            }
        }
    }
}

/// The default is OpenGotha's for McMahon: split and random in rounds 1–2, then split and fold; the
/// same seed draws the same pairing.
#[test]
fn the_default_is_opengothas_and_the_draw_is_seeded() {
    let a = field(None);
    assert_eq!(a.state.config.as_ref().unwrap().pairing.seeding, Seeding::OPENGOTHA_MCMAHON);
    let (mut a, mut b) = (a, field(None));
    a.run(Command::PairRound).unwrap();
    b.run(Command::PairRound).unwrap();
    assert_eq!(pairs(&a.state, 0), pairs(&b.state, 0));
    let swiss = TournamentConfig::new("s", Format::Swiss { rounds: 3 }, 1);
    assert_eq!(swiss.pairing.seeding, Seeding::OPENGOTHA_SWISS);
}

/// Before item 1 the matching saw no seeding: every pair inside a group cost the same, and the
/// pairing order decided, so the two strongest of the top group met (5d v 4d). The same candidates
/// without seats still pair that way; with seats (fold) the 5d meets the last 3d.
#[test]
fn without_seats_the_top_seeds_met_and_with_them_they_do_not() {
    let fold = Seeding { first: SeedSystem::SplitAndFold, last_round_first: 5, second: SeedSystem::SplitAndFold };
    let s = field(Some(fold));
    let top = groups(&s.state)[0].clone();
    let seated = next_round_candidates(&s.state);
    let unseated: Vec<Candidate> = seated.iter().cloned().map(|c| Candidate { seat: None, ..c }).collect();
    let plan = |c: &[Candidate]| {
        let p = pair_round(c, &BTreeSet::new(), &s.state.config.as_ref().unwrap().pairing, &PairingParams::default())
            .unwrap();
        p.pairs.iter().map(|x| pair(x.a, x.b)).collect::<BTreeSet<_>>()
    };
    let before = plan(&unseated);
    let after = plan(&seated);
    println!("before item 1: {}", show(&s.state, &before));
    println!("after item 1 (split and fold): {}", show(&s.state, &after));
    assert!(before.contains(&pair(top[0], top[1])), "the old pairing put the top two seeds together");
    assert!(after.contains(&pair(top[0], top[5])) && after.contains(&pair(top[1], top[4])));
    assert!(after.contains(&pair(top[2], top[3])));
    // And the round the service pairs is the seated plan.
    let mut s = s;
    s.run(Command::PairRound).unwrap();
    assert_eq!(pairs(&s.state, 0), after);
}

#[test]
fn the_explanation_names_the_rule_the_places_and_the_players_in_mms() {
    let fold = Seeding { first: SeedSystem::SplitAndFold, last_round_first: 5, second: SeedSystem::SplitAndFold };
    let mut s = field(Some(fold));
    let top = groups(&s.state)[0].clone();
    s.run(Command::PairRound).unwrap();
    let e = explain_pairing(&s.state, 1, top[0], top[5], 4).unwrap();
    let text = e.to_string();
    println!("{text}");
    // MMS of the top group: 3d at the bar; McMahon score 30 + 3 - 1 = 32 in the usual numbering,
    // whatever the numbering, the text shows the MMS itself, not twice it.
    let (sa, _) = e.scores.unwrap();
    let mms = sa / 2;
    assert!(text.contains(&format!("MMS {mms} and {mms}")), "{text}");
    assert!(!text.contains(&format!("MMS {sa} ")), "{text}");
    assert!(text.contains("places 1 and 6 of 6") && text.contains("split and fold"), "{text}");
    assert!(text.contains("Player 1 (5d)"), "{text}");
    assert!(!text.contains("P1 "), "players are named, not numbered: {text}");
}
