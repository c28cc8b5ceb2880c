//! Issue 15 item 14: the example ladders are complete. Every amateur certificate grade the seeds name
//! (25, 20, 15, 10, 5, 2 and 1 kyu) is some rule's target, every kyu grade (and unranked) has a rule
//! that lifts it, and every professional dan 1p–9p can be reached from the one below.

use weiqi_rating::{AssociationRules, load_rules};

fn rules(text: &str) -> AssociationRules {
    load_rules(text).unwrap()
}

/// Whether some rule promotes from `grade` (`None`: unranked) to something higher.
fn lifts(r: &AssociationRules, grade: Option<usize>) -> Vec<String> {
    r.rules
        .iter()
        .filter(|rule| {
            let below = grade.is_none_or(|g| g < rule.to);
            let listed = if rule.from.is_empty() {
                match grade {
                    Some(g) => g + 1 == rule.to || (rule.jump && g < rule.to),
                    None => rule.jump,
                }
            } else {
                rule.from.contains(&grade)
            };
            below && listed
        })
        .map(|rule| rule.id.clone())
        .collect()
}

#[test]
fn every_amateur_certificate_grade_is_reachable_and_no_kyu_grade_is_stuck() {
    let r = rules(include_str!("../rules/cwa-amateur.toml"));
    let pos = |code: &str| r.ladder.position(code).unwrap();
    for cert in ["25k", "20k", "15k", "10k", "5k", "2k", "1k"] {
        assert!(r.rules.iter().any(|rule| rule.to == pos(cert)), "no rule awards the {cert} certificate");
    }
    assert!(!lifts(&r, None).is_empty(), "unranked players can earn a first certificate");
    for k in (1..=25).rev() {
        let code = format!("{k}k");
        assert!(!lifts(&r, Some(pos(&code))).is_empty(), "{code} has no rule to a higher grade");
    }
    // The gaps the issue found: 16k–24k in the 10-kyu rule, and 4k/3k to 2k.
    let ten = r.rules.iter().find(|x| x.id == "kyu-10k-by-rating").unwrap();
    for k in 11..=25 {
        assert!(ten.from.contains(&Some(pos(&format!("{k}k")))), "{k}k is in the 10-kyu rule");
    }
    for k in ["4k", "3k"] {
        assert!(lifts(&r, Some(pos(k))).iter().any(|id| id == "kyu-2k-by-rating"), "{k} reaches 2k");
    }
    // Dan grades up to 7 dan can be promoted from.
    for d in 1..=6 {
        assert!(!lifts(&r, Some(pos(&format!("{d}d")))).is_empty(), "{d}d is stuck");
    }
}

#[test]
fn every_professional_dan_is_reachable_from_the_one_below() {
    let r = rules(include_str!("../rules/professional-example.toml"));
    let pos = |code: &str| r.ladder.position(code).unwrap();
    for p in 1..=9 {
        let code = format!("{p}p");
        assert!(r.rules.iter().any(|rule| rule.to == pos(&code)), "no rule makes {code}");
    }
    for p in 1..=8 {
        let from = Some(pos(&format!("{p}p")));
        let next = pos(&format!("{}p", p + 1));
        assert!(
            r.rules.iter().any(|rule| rule.to == next && lifts(&r, from).contains(&rule.id)),
            "{p}p cannot reach {}p",
            p + 1
        );
    }
}
