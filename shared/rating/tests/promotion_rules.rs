//! Each kind of promotion rule, proven given / when / then against the shipped example files:
//! given a player's standing and verified results, when the rules are evaluated, then these verdicts.

use std::collections::BTreeMap;

use weiqi_rating::{
    AssociationRules, Basis, EventId, EventLevel, EventRef, Evidence, GameId, GameOutcome, Ineligible, Millis,
    PlayerId, RatingSample, Shortfall, Standing, TournamentPlacing, Verdict, VerifiedGame, evaluate, load_rules,
};

const DAY: i64 = 86_400_000;

fn cwa() -> AssociationRules {
    load_rules(include_str!("../rules/cwa-amateur.toml")).unwrap()
}

fn pro() -> AssociationRules {
    load_rules(include_str!("../rules/professional-example.toml")).unwrap()
}

fn shanghai() -> AssociationRules {
    load_rules(include_str!("../rules/shanghai-kyu.toml")).unwrap()
}

/// A player holding `grade` since day 10.
fn player(grade: &str) -> Standing {
    Standing {
        player: PlayerId::from("li-ming"),
        grade: (grade != "unranked").then(|| grade.to_owned()),
        since: Millis(10 * DAY),
    }
}

fn event(kind: &str, level: EventLevel) -> EventRef {
    EventRef {
        id: EventId::from(format!("{kind}-2026").as_str()),
        name: format!("2026 {kind}"),
        kind: kind.to_owned(),
        level,
    }
}

fn placing(event: EventRef, group: Option<&str>, place: u32, wins: u32, rounds: u32, day: i64) -> Evidence {
    Evidence::Placing(TournamentPlacing {
        event,
        group: group.map(str::to_owned),
        place,
        rounds,
        wins,
        field: 64,
        field_by_grade: BTreeMap::new(),
        at: Millis(day * DAY),
    })
}

fn quota_placing(place: u32, five_dans: u32) -> Evidence {
    let Evidence::Placing(mut p) = placing(event("6d-qualification", EventLevel::National), None, place, 5, 7, 20)
    else {
        unreachable!()
    };
    p.field_by_grade.insert("5d".into(), five_dans);
    p.field = five_dans;
    Evidence::Placing(p)
}

fn rating(rating: f64, deviation: f64, games: u32) -> Evidence {
    Evidence::Rating(RatingSample { system: "glicko2".into(), rating, deviation, games, at: Millis(30 * DAY) })
}

fn pro_game(n: u32, opponent_grade: &str, outcome: GameOutcome) -> Evidence {
    Evidence::Game(VerifiedGame {
        game: GameId(format!("pg{n}")),
        opponent: PlayerId(format!("opp{n}")),
        opponent_grade: Some(opponent_grade.to_owned()),
        outcome,
        at: Millis((20 + i64::from(n)) * DAY),
        event: Some(event("pro-promotion", EventLevel::National)),
    })
}

const NOW: Millis = Millis(400 * DAY);

/// Evaluates and returns the verdict of one rule, plus the proposal's grade.
fn when(rules: &AssociationRules, standing: &Standing, evidence: &[Evidence], rule: &str) -> (Verdict, Option<String>) {
    let e = evaluate(rules, standing, evidence, NOW).unwrap();
    let verdict = e.outcome(rule).unwrap_or_else(|| panic!("no rule {rule}")).verdict.clone();
    (verdict, e.proposal.map(|p| p.to))
}

// --- dan qualification: N wins of M in a given group ---

#[test]
fn qualification_five_wins_of_seven_in_the_1d_group_makes_1_dan() {
    let given = player("1k");
    let results = [placing(event("dan-qualification", EventLevel::Provincial), Some("1d"), 9, 5, 7, 40)];
    let (verdict, proposal) = when(&cwa(), &given, &results, "qualify-1d");
    assert!(matches!(verdict, Verdict::Met(Basis::WinsInGroup { wins: 5, rounds: 7, .. })), "{verdict}");
    assert_eq!(proposal.as_deref(), Some("1d"));
}

#[test]
fn qualification_four_wins_fall_short() {
    let results = [placing(event("dan-qualification", EventLevel::Provincial), Some("1d"), 20, 4, 7, 40)];
    let (verdict, proposal) = when(&cwa(), &player("1k"), &results, "qualify-1d");
    assert_eq!(verdict, Verdict::Unmet(Shortfall::TooFewWins { wins: 4, needed: 5, rounds: 7 }));
    assert_eq!(verdict.to_string(), "not met: 4 wins of 7, 5 needed");
    assert_eq!(proposal, None);
}

#[test]
fn qualification_counts_only_the_named_group_and_results_since_the_current_grade() {
    let results = [
        // Wrong group.
        placing(event("dan-qualification", EventLevel::Provincial), Some("2d"), 3, 6, 7, 40),
        // Right group, but before the player became 1 kyu (day 10).
        placing(event("dan-qualification", EventLevel::Provincial), Some("1d"), 1, 7, 7, 5),
    ];
    let (verdict, _) = when(&cwa(), &player("1k"), &results, "qualify-1d");
    assert!(matches!(verdict, Verdict::Unmet(Shortfall::NoMatchingResult { .. })), "{verdict}");
}

#[test]
fn qualification_does_not_apply_to_other_grades() {
    let results = [placing(event("dan-qualification", EventLevel::Provincial), Some("3d"), 1, 7, 7, 40)];
    let (verdict, _) = when(&cwa(), &player("1d"), &results, "qualify-3d");
    assert_eq!(
        verdict,
        Verdict::NotEligible(Ineligible::NotFromGrade { current: "1d".into(), allowed: vec!["2d".into()] })
    );
    let (verdict, _) = when(&cwa(), &player("3d"), &results, "qualify-3d");
    assert_eq!(verdict, Verdict::NotEligible(Ineligible::AlreadyAtOrAbove { current: "3d".into() }));
}

// --- jump promotions ---

#[test]
fn jump_a_1_kyu_winning_every_game_in_the_2d_group_becomes_2_dan() {
    let results = [placing(event("dan-qualification", EventLevel::Provincial), Some("2d"), 1, 7, 7, 40)];
    let (verdict, proposal) = when(&cwa(), &player("1k"), &results, "qualify-2d-jump");
    assert!(matches!(verdict, Verdict::Met(_)), "{verdict}");
    assert_eq!(proposal.as_deref(), Some("2d"));
    // Six wins in the same group: no jump, and no ordinary 2-dan rule for a 1 kyu either.
    let results = [placing(event("dan-qualification", EventLevel::Provincial), Some("2d"), 4, 6, 7, 40)];
    let (verdict, proposal) = when(&cwa(), &player("1k"), &results, "qualify-2d-jump");
    assert!(matches!(verdict, Verdict::Unmet(Shortfall::TooFewWins { wins: 6, .. })));
    assert_eq!(proposal, None);
}

#[test]
fn jump_shanghai_grading_by_games_won_proposes_the_highest_grade_met() {
    let results = [placing(event("shanghai-grading", EventLevel::City), Some("none"), 1, 6, 6, 40)];
    let e = evaluate(&shanghai(), &player("unranked"), &results, NOW).unwrap();
    let proposal = e.proposal.clone().unwrap();
    assert_eq!(proposal.to, "sh-8");
    assert_eq!(proposal.rules, vec!["sh-none-jump-8"]);
    assert!(e.supports("sh-10") && e.supports("sh-9") && e.supports("sh-8"));
    // Five wins: one level jumped, to 9级.
    let results = [placing(event("shanghai-grading", EventLevel::City), Some("none"), 2, 5, 6, 40)];
    let e = evaluate(&shanghai(), &player("sh-none"), &results, NOW).unwrap();
    assert_eq!(e.proposal.unwrap().to, "sh-9");
}

// --- placings in named national or provincial events (6 dan) ---

#[test]
fn placing_top_eight_nationally_makes_6_dan() {
    let results = [placing(event("amateur-individual", EventLevel::National), None, 6, 8, 11, 50)];
    let (verdict, proposal) = when(&cwa(), &player("5d"), &results, "6d-by-placing");
    assert!(matches!(verdict, Verdict::Met(Basis::Placed { place: 6, max_place: 8, .. })), "{verdict}");
    assert_eq!(proposal.as_deref(), Some("6d"));
}

#[test]
fn placing_fourth_provincially_is_not_enough() {
    let results = [placing(event("amateur-individual", EventLevel::Provincial), None, 4, 6, 9, 50)];
    let (verdict, _) = when(&cwa(), &player("5d"), &results, "6d-by-placing");
    assert_eq!(verdict, Verdict::Unmet(Shortfall::PlaceTooLow { place: 4, max_place: 3 }));
    // A city event of the same kind does not count at all.
    let results = [placing(event("amateur-individual", EventLevel::City), None, 1, 9, 9, 50)];
    let (verdict, _) = when(&cwa(), &player("5d"), &results, "6d-by-placing");
    assert!(matches!(verdict, Verdict::Unmet(Shortfall::NoMatchingResult { .. })));
}

// --- the 6-dan quota: 5% of participating 5-dans ---

#[test]
fn quota_five_percent_of_forty_five_dans_is_two_places() {
    let (verdict, proposal) = when(&cwa(), &player("5d"), &[quota_placing(2, 40)], "6d-quota");
    assert!(matches!(verdict, Verdict::Met(Basis::WithinQuota { place: 2, slots: 2, eligible: 40, .. })), "{verdict}");
    assert_eq!(proposal.as_deref(), Some("6d"));
    let (verdict, _) = when(&cwa(), &player("5d"), &[quota_placing(3, 40)], "6d-quota");
    assert_eq!(verdict, Verdict::Unmet(Shortfall::OutsideQuota { place: 3, slots: 2, eligible: 40 }));
}

#[test]
fn quota_rounds_down_so_nineteen_five_dans_give_no_place() {
    let (verdict, _) = when(&cwa(), &player("5d"), &[quota_placing(1, 19)], "6d-quota");
    assert_eq!(verdict, Verdict::Unmet(Shortfall::OutsideQuota { place: 1, slots: 0, eligible: 19 }));
    let (verdict, _) = when(&cwa(), &player("5d"), &[quota_placing(1, 20)], "6d-quota");
    assert!(matches!(verdict, Verdict::Met(Basis::WithinQuota { slots: 1, .. })));
}

// --- winning the national amateur championship (7 dan) ---

#[test]
fn title_the_national_amateur_champion_becomes_7_dan_even_from_5_dan() {
    let results = [placing(event("national-amateur-championship", EventLevel::National), None, 1, 7, 7, 60)];
    let (verdict, proposal) = when(&cwa(), &player("5d"), &results, "7d-national-champion");
    assert!(matches!(verdict, Verdict::Met(Basis::Won { .. })), "{verdict}");
    assert_eq!(proposal.as_deref(), Some("7d"));
}

#[test]
fn title_the_runner_up_does_not() {
    let results = [placing(event("national-amateur-championship", EventLevel::National), None, 2, 6, 7, 60)];
    let (verdict, _) = when(&cwa(), &player("6d"), &results, "7d-national-champion");
    assert_eq!(verdict, Verdict::Unmet(Shortfall::NotWon { place: 2 }));
}

// --- rating thresholds ---

#[test]
fn rating_a_settled_rating_earns_the_kyu_certificate() {
    let (verdict, proposal) = when(&cwa(), &player("15k"), &[rating(1250.0, 80.0, 25)], "kyu-10k-by-rating");
    assert!(matches!(verdict, Verdict::Met(Basis::RatingReached { games: 25, .. })), "{verdict}");
    assert_eq!(proposal.as_deref(), Some("10k"));
}

#[test]
fn rating_provisional_low_or_too_few_games_do_not() {
    let cases = [
        (rating(1250.0, 150.0, 25), Shortfall::DeviationTooHigh { deviation: 150.0, max: 110.0 }),
        (rating(1190.0, 80.0, 25), Shortfall::RatingTooLow { rating: 1190.0, threshold: 1200.0 }),
        (rating(1250.0, 80.0, 12), Shortfall::TooFewRatedGames { games: 12, needed: 20 }),
    ];
    for (evidence, want) in cases {
        let (verdict, _) = when(&cwa(), &player("15k"), &[evidence], "kyu-10k-by-rating");
        assert_eq!(verdict, Verdict::Unmet(want));
    }
    let (verdict, _) = when(&cwa(), &player("15k"), &[], "kyu-10k-by-rating");
    assert_eq!(verdict, Verdict::Unmet(Shortfall::NoRating { system: "glicko2".into() }));
}

// --- a professional promotion points table ---

#[test]
fn points_wins_against_higher_equal_and_lower_dans_add_up_to_promotion() {
    // 1p needs 30 points for 2p: wins score 4 / 3 / 2 against higher / equal / lower, draws 2 / 1 / 1.
    let mut results: Vec<Evidence> = (0..5).map(|n| pro_game(n, "3p", GameOutcome::Win)).collect(); // 20
    results.extend((5..8).map(|n| pro_game(n, "1p", GameOutcome::Win))); // 9 → 29
    results.push(pro_game(8, "2p", GameOutcome::Loss)); // 0 → 29
    let (verdict, proposal) = when(&pro(), &player("1p"), &results, "pro-2p-points");
    assert_eq!(verdict, Verdict::Unmet(Shortfall::TooFewPoints { points: 29, needed: 30 }));
    assert_eq!(proposal, None);

    results.push(pro_game(9, "1p", GameOutcome::Draw)); // 1 → 30
    let (verdict, proposal) = when(&pro(), &player("1p"), &results, "pro-2p-points");
    assert!(
        matches!(
            verdict,
            Verdict::Met(Basis::PointsReached { points: 30, from_games: 30, from_places: 0, games: 10, .. })
        ),
        "{verdict}"
    );
    assert_eq!(proposal.as_deref(), Some("2p"));
}

#[test]
fn points_places_in_promotion_tournaments_count_once_at_their_best_tier() {
    let mut results: Vec<Evidence> = (0..5).map(|n| pro_game(n, "2p", GameOutcome::Win)).collect(); // 20
    results.push(placing(event("pro-promotion-tournament", EventLevel::National), None, 1, 5, 5, 90)); // +10
    let (verdict, _) = when(&pro(), &player("1p"), &results, "pro-2p-points");
    assert!(matches!(verdict, Verdict::Met(Basis::PointsReached { points: 30, from_places: 10, .. })), "{verdict}");
}

#[test]
fn points_games_outside_promotion_events_do_not_count() {
    let results: Vec<Evidence> = (0..10)
        .map(|n| {
            let Evidence::Game(mut g) = pro_game(n, "5p", GameOutcome::Win) else { unreachable!() };
            g.event = Some(event("friendly", EventLevel::Club));
            Evidence::Game(g)
        })
        .collect();
    let (verdict, _) = when(&pro(), &player("1p"), &results, "pro-2p-points");
    assert_eq!(verdict, Verdict::Unmet(Shortfall::TooFewPoints { points: 0, needed: 30 }));
}

#[test]
fn pro_world_title_jumps_to_9_dan() {
    let results = [placing(event("pro-world-title", EventLevel::World), None, 1, 5, 5, 90)];
    let e = evaluate(&pro(), &player("3p"), &results, NOW).unwrap();
    assert_eq!(e.proposal.unwrap().to, "9p");
}

#[test]
fn an_unknown_current_grade_is_an_error_not_a_guess() {
    let err = evaluate(&cwa(), &player("3p"), &[], NOW).unwrap_err();
    assert_eq!(err.to_string(), r#"grade "3p" is not in ladder amateur"#);
}

#[test]
fn rank_mapping_from_the_file() {
    let rules = cwa();
    let m = rules.mapping("glicko2").unwrap();
    assert_eq!(m.grade_for(2100.0), Some("1d"));
    assert_eq!(m.grade_for(1500.0), Some("6k"));
    assert_eq!(m.rating_for("7d"), Some(2700.0));
    assert_eq!(m.grade_for(5000.0), Some("7d"), "8 dan is honorary, never reached by rating");
}

/// Issue 15 item 16: every rule line names the evidence it rests on, and a lost game counts for no
/// line: a 1p's points come from the wins and the draw, and the loss is in no rule's evidence.
#[test]
fn each_rule_line_names_the_evidence_it_counts_and_a_loss_counts_for_none() {
    let given = player("1p");
    let evidence = vec![
        pro_game(1, "3p", GameOutcome::Win),
        pro_game(2, "1p", GameOutcome::Loss),
        pro_game(3, "1p", GameOutcome::Draw),
        rating(1900.0, 60.0, 50),
    ];
    let e = evaluate(&pro(), &given, &evidence, NOW).unwrap();
    let line = e.outcome("pro-2p-points").unwrap();
    assert_eq!(line.evidence, vec![0, 2], "{line:?}");
    let used: Vec<u32> = e.outcomes.iter().flat_map(|o| o.evidence.iter().copied()).collect();
    assert!(!used.contains(&1), "the loss counts for no rule line: {:?}", e.outcomes);
    assert!(!used.contains(&3), "no professional rule reads ratings");

    // A qualification line names the placing that decided it; a rating line its sample.
    let given = player("1k");
    let evidence = vec![
        rating(2050.0, 60.0, 50),
        placing(event("dan-qualification", EventLevel::National), Some("1d"), 5, 5, 7, 20),
    ];
    let e = evaluate(&cwa(), &given, &evidence, NOW).unwrap();
    assert!(matches!(e.outcome("qualify-1d").unwrap().verdict, Verdict::Met(_)));
    assert_eq!(e.outcome("qualify-1d").unwrap().evidence, vec![1]);
    let kyu = e.outcome("kyu-1k-by-rating").unwrap();
    assert!(matches!(kyu.verdict, Verdict::NotEligible(_)) && kyu.evidence.is_empty(), "a 1k is past 1k");
}
