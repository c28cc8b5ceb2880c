//! "Why?": a pairing's explanation in the page's language (issue 30 items 6 and 13).
//!
//! The tournament service answers the explanation as data (`weiqi_pairing::explain::PairingExplanation`,
//! the `json` of `ExplainPairing`); every sentence here is a message of the catalogue with the
//! explanation's values as arguments: the pair's criteria, the seats in the score group, and for each
//! nearby alternative why it was not chosen (met before, forbidden, not available, a rematch it would
//! force, or the criterion it would make worse, with the numbers).

use maud::{Markup, html};
use weiqi_pairing::event::ColorBy;
use weiqi_pairing::explain::{Basis, PairingExplanation, ScoreGaps, ScoreUnit, Verdict};
use weiqi_pairing::ids::PlayerId;
use weiqi_pairing::seeding::{SEEDING_SCALE, SeedSystem};
use weiqi_pairing::weights::Criterion;

use crate::i18n::{Lang, t, ta};

fn who(e: &PairingExplanation, p: PlayerId) -> String {
    e.names.get(&p).cloned().unwrap_or_else(|| format!("#{}", p.0))
}

fn unit_name(lang: Lang, unit: ScoreUnit) -> String {
    t(
        lang,
        match unit {
            ScoreUnit::Points => "explain-unit-points",
            ScoreUnit::Mms { .. } => "explain-unit-mms",
            ScoreUnit::LivesLeft { .. } => "explain-unit-lives",
        },
    )
}

fn criterion(lang: Lang, c: Criterion) -> String {
    t(
        lang,
        match c {
            Criterion::Rematch => "explain-criterion-rematch",
            Criterion::ScoreDifference => "explain-criterion-score",
            Criterion::ColorBalance => "explain-criterion-color",
            Criterion::Seeding => "explain-criterion-seeding",
            Criterion::Handicap => "explain-criterion-handicap",
            Criterion::Separation => "explain-criterion-separation",
        },
    )
}

fn colors(lang: Lang, c: ColorBy) -> String {
    t(
        lang,
        match c {
            ColorBy::Balance => "explain-colors-balance",
            ColorBy::Alternation => "explain-colors-alternation",
            ColorBy::Nigiri => "explain-colors-nigiri",
            ColorBy::Handicap => "explain-colors-handicap",
            ColorBy::Berger => "explain-colors-berger",
            ColorBy::Organiser => "explain-colors-organiser",
            ColorBy::BoardOrder => "explain-colors-board-order",
        },
    )
}

fn system(lang: Lang, s: SeedSystem) -> String {
    t(
        lang,
        match s {
            SeedSystem::SplitAndRandom => "explain-seed-random",
            SeedSystem::SplitAndFold => "explain-seed-fold",
            SeedSystem::SplitAndSlip => "explain-seed-slip",
        },
    )
}

/// A criterion's value: score differences in the tournament's unit, the rest as counted.
fn value(e: &PairingExplanation, c: Criterion, v: u32) -> String {
    match c {
        Criterion::ScoreDifference => e.unit.show(i64::from(v)),
        _ => v.to_string(),
    }
}

fn verdict(lang: Lang, e: &PairingExplanation, v: &Verdict) -> String {
    let b = who(e, e.b);
    match v {
        Verdict::AlreadyMet => t(lang, "explain-already-met"),
        Verdict::Forbidden => t(lang, "explain-forbidden"),
        Verdict::NotAvailable => t(lang, "explain-not-available"),
        Verdict::WouldForceRematch { partner } => {
            ta(lang, "explain-force-rematch", &[("b", b), ("d", who(e, *partner))])
        }
        Verdict::Worse { partner, differences: Some(gaps @ ScoreGaps { chosen, swapped, groups }), .. } => ta(
            lang,
            "explain-worse-gaps",
            &[
                ("b", b),
                ("d", who(e, *partner)),
                ("swapped", format!("{} + {}", e.unit.show(i64::from(swapped[0])), e.unit.show(i64::from(swapped[1])))),
                ("chosen", format!("{} + {}", e.unit.show(i64::from(chosen[0])), e.unit.show(i64::from(chosen[1])))),
                ("groups", groups.to_string()),
                ("swappedcost", gaps.swapped_cost().to_string()),
                ("chosencost", gaps.chosen_cost().to_string()),
            ],
        ),
        Verdict::Worse { partner, criterion: c, chosen, swapped, .. } => ta(
            lang,
            "explain-worse",
            &[
                ("b", b),
                ("d", who(e, *partner)),
                ("criterion", criterion(lang, *c)),
                ("swapped", value(e, *c, *swapped)),
                ("chosen", value(e, *c, *chosen)),
            ],
        ),
        Verdict::Tie { partner } => ta(lang, "explain-tie", &[("d", who(e, *partner))]),
        Verdict::Better { partner, criterion: c } => {
            ta(lang, "explain-better", &[("d", who(e, *partner)), ("criterion", criterion(lang, *c))])
        }
    }
}

/// The explanation, sentence by sentence.
pub fn explanation(lang: Lang, e: &PairingExplanation) -> Markup {
    let (a, b) = (who(e, e.a), who(e, e.b));
    let round = e.round.to_string();
    let head = match e.basis {
        Basis::Organiser => ta(lang, "explain-by-organiser", &[("round", round), ("a", a.clone()), ("b", b.clone())]),
        Basis::BergerTable => ta(lang, "explain-by-berger", &[("round", round), ("a", a.clone()), ("b", b.clone())]),
        Basis::Bracket => ta(lang, "explain-by-bracket", &[("round", round), ("a", a.clone()), ("b", b.clone())]),
        Basis::BoardOrder => {
            ta(lang, "explain-by-board-order", &[("round", round), ("a", a.clone()), ("b", b.clone())])
        }
        Basis::Matching => ta(lang, "explain-by-matching", &[("round", round), ("a", a.clone()), ("b", b.clone())]),
    };
    let criteria = match (e.scores, e.cost) {
        (Some((sa, sb)), Some(c)) => Some(ta(
            lang,
            "explain-criteria",
            &[
                ("unit", unit_name(lang, e.unit)),
                ("sa", e.unit.show(sa)),
                ("sb", e.unit.show(sb)),
                ("diff", e.unit.show(i64::from(c.score_diff))),
                ("color", c.color.to_string()),
                ("seeding", c.seeding.to_string()),
                ("handicap", c.handicap.to_string()),
                ("separation", c.separation.to_string()),
                ("colors", colors(lang, e.colors)),
            ],
        )),
        _ => None,
    };
    let seats = e.seats.map(|(x, y)| {
        if e.scores.is_some_and(|(sa, sb)| sa == sb) {
            ta(
                lang,
                "explain-seats",
                &[
                    ("x", (x.position + 1).to_string()),
                    ("y", (y.position + 1).to_string()),
                    ("size", x.size.to_string()),
                    ("system", system(lang, x.system)),
                    ("cost", e.cost.map_or(0, |c| c.seeding).to_string()),
                    ("scale", SEEDING_SCALE.to_string()),
                ],
            )
        } else {
            ta(lang, "explain-floats", &[("a", a.clone()), ("b", b.clone())])
        }
    });
    html! {
        div data-explained=(e.round) {
            p { (head) }
            @if let Some(c) = criteria { p.small { (c) } }
            @if let Some(s) = seats { p.small { (s) } }
            @if !e.alternatives.is_empty() {
                ul { @for alt in &e.alternatives {
                    li data-alternative=(alt.instead.0) {
                        (ta(lang, "explain-why-not", &[("c", who(e, alt.instead))])) " " (verdict(lang, e, &alt.verdict))
                    }
                } }
            }
        }
    }
}
