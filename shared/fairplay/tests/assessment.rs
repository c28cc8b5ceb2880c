//! The assessment on fixed analyses (issue 34, "an assessment test on fixed analyses"): a band of
//! human players, one who plays the engine's first choice in most positions and one who spends the
//! same time on every move with the window out of focus; the verdicts and their reasons follow the
//! shipped rule table. Then the table's refusals, and an invariant: a stricter reading never gives
//! a more severe verdict.

use proptest::prelude::*;
use weiqi_fairplay::{
    Baseline, Candidate, Figure, Figures, MoveAnalysis, RuleTable, TableError, Turn, Verdict, assess, figures,
};

/// A position where A4 is the engine's first choice (10), B4 second (9), C4 third (6) and D4
/// fourth (1): the best stands 4 above the third, so it is complex under the shipped table.
fn position(n: u32, played: &str) -> MoveAnalysis {
    let candidates = [("A4", 10.0), ("B4", 9.0), ("C4", 6.0), ("D4", 1.0)]
        .into_iter()
        .map(|(v, value)| Candidate { vertex: v.into(), value })
        .collect();
    MoveAnalysis { move_number: n, black: n % 2 == 1, played: played.into(), candidates }
}

/// Sixty counted moves (from move 31), choosing by `pick(i)` among A4, B4, C4, D4 and a move the
/// engine did not list.
fn player(pick: impl Fn(u32) -> &'static str) -> Vec<MoveAnalysis> {
    (0..60).map(|i| position(31 + 2 * i, pick(i))).collect()
}

/// A human of the band: first choice about 35–45 % of the time, depending on `seed`.
fn human(seed: u32) -> Vec<MoveAnalysis> {
    player(move |i| match (i * 7 + seed * 3) % 10 {
        0..=3 => "A4",
        4..=5 => "B4",
        6 => "C4",
        7 => "D4",
        8 if seed.is_multiple_of(2) => "A4",
        _ => "Q16",
    })
}

fn timed(seconds: impl Fn(u32) -> f64, blurred: bool) -> Vec<Turn> {
    (0..60)
        .map(|i| Turn { move_number: 31 + 2 * i, seconds: Some(seconds(i)), blurred: Some(blurred && i % 2 == 0) })
        .collect()
}

fn band(table: &RuleTable) -> (Baseline, Vec<Figures>) {
    let humans: Vec<Figures> = (0..12)
        .map(|s| figures(&human(s), &timed(|i| f64::from(2 + (i * 13 + s * 5) % 40), false), &table.assessment))
        .collect();
    (Baseline::of("dan", "rapid", &humans, table.assessment.min_positions), humans)
}

#[test]
fn given_a_band_of_humans_when_an_engine_like_player_is_assessed_then_suspect_with_the_reasons() {
    let table = RuleTable::built_in();
    let (baseline, humans) = band(&table);
    // Every human of the band is clear or watched, never suspect.
    for (i, h) in humans.iter().enumerate() {
        let a = assess(h, &baseline, &table, 1.0);
        assert_ne!(a.verdict, Verdict::Suspect, "human {i}: {a:?}");
    }
    // The engine's first choice 58 times in 60: engine-like and accurate.
    let assisted = player(|i| if i % 30 == 0 { "B4" } else { "A4" });
    let f = figures(&assisted, &timed(|i| f64::from(2 + (i * 13) % 40), false), &table.assessment);
    let a = assess(&f, &baseline, &table, 1.0);
    assert_eq!(a.verdict, Verdict::Suspect, "{a:?}");
    let raised: Vec<&str> = a.flags.iter().map(|f| f.rule.as_str()).collect();
    for rule in ["top1-high", "loss-low", "complex-top1-high"] {
        assert!(raised.contains(&rule), "{rule}: {raised:?}");
    }
    assert_eq!(a.reasons.first().map(String::as_str), Some("engine-like-and-accurate"), "{a:?}");
    let top1 = a.flags.iter().find(|f| f.figure == Figure::Top1).unwrap();
    assert!(top1.value > top1.threshold && top1.mean.is_some() && top1.sd.is_some(), "{top1:?}");
}

#[test]
fn given_human_moves_when_the_timing_is_mechanical_and_focus_is_lost_then_watched_not_suspected() {
    let table = RuleTable::built_in();
    let (baseline, _) = band(&table);
    // Human choices, five seconds on every move, the window out of focus on half the turns.
    let f = figures(&human(4), &timed(|_| 5.0, true), &table.assessment);
    let a = assess(&f, &baseline, &table, 1.0);
    let raised: Vec<&str> = a.flags.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(raised, vec!["time-regular", "blur-high"], "{a:?}");
    assert_eq!(a.verdict, Verdict::Watch, "two flags of behaviour alone are not enough for the queue");
}

#[test]
fn too_few_moves_say_nothing() {
    let table = RuleTable::built_in();
    let (baseline, _) = band(&table);
    let few: Vec<MoveAnalysis> = (0..10).map(|i| position(31 + 2 * i, "A4")).collect();
    let a = assess(&figures(&few, &[], &table.assessment), &baseline, &table, 1.0);
    assert!(a.too_few && a.flags.is_empty() && a.verdict == Verdict::Clear, "{a:?}");
}

#[test]
fn a_table_that_names_what_does_not_exist_is_refused_with_the_reason() {
    let shipped = include_str!("../rules/default.toml");
    type Expected = fn(&TableError) -> bool;
    let table: [(String, Expected); 5] = [
        (shipped.replace("figure = \"top1\"", "figure = \"luck\""), |e| matches!(e, TableError::Syntax(_))),
        (shipped.replace("id = \"top3-high\"", "id = \"top1-high\""), |e| matches!(e, TableError::DuplicateId(_))),
        (shipped.replace("above = 0.3", "above = 0.3\nbelow = 0.1"), |e| matches!(e, TableError::BadThreshold(_))),
        (shipped.replace("all_of = [\"top1-high\", \"loss-low\"]", "all_of = [\"top1-high\", \"lucky\"]"), |e| {
            matches!(e, TableError::UnknownFlag { .. })
        }),
        (shipped.replace("at_least = 1", "at_least = 0"), |e| matches!(e, TableError::NoCondition(_))),
    ];
    for (text, expected) in table {
        let e = RuleTable::parse(&text).unwrap_err();
        assert!(expected(&e), "{e}");
    }
}

proptest! {
    /// A stricter reading (larger sd thresholds) never gives a more severe verdict.
    #[test]
    fn a_stricter_reading_never_raises_the_verdict(first in 0u32..60, seed in 0u32..12, k in 1.0f64..4.0) {
        let table = RuleTable::built_in();
        let (baseline, _) = band(&table);
        let moves = player(move |i| if i < first { "A4" } else if (i + seed) % 3 == 0 { "B4" } else { "Q16" });
        let f = figures(&moves, &timed(|i| f64::from(1 + (i * seed) % 17), seed.is_multiple_of(2)), &table.assessment);
        let loose = assess(&f, &baseline, &table, 1.0);
        let strict = assess(&f, &baseline, &table, k);
        prop_assert!(strict.verdict <= loose.verdict, "{loose:?} → {strict:?}");
        prop_assert!(strict.flags.len() <= loose.flags.len());
    }
}
