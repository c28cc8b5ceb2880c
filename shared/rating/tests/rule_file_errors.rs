//! Invalid rule files are refused with the line, the column and the reason.

use expect_test::{Expect, expect};
use weiqi_rating::{RuleProblem, load_rules};

const HEADER: &str = r#"[association]
id = "cwa"
name = "test"
ladder = "amateur"
"#;

/// Loads HEADER + `body` and renders every error as `line:column reason`.
fn check(body: &str, want: Expect) {
    let text = format!("{HEADER}{body}");
    let errors = load_rules(&text).expect_err("the file must be refused");
    let rendered: Vec<String> = errors.0.iter().map(|e| format!("{}:{} {}", e.line, e.column, e.problem)).collect();
    want.assert_eq(&rendered.join("\n"));
}

#[test]
fn toml_syntax_error() {
    check(
        r#"
[[rule]]
id = "qualify-1d
"#,
        expect![[r#"7:17 invalid basic string, expected `"`"#]],
    );
}

#[test]
fn unknown_field_is_refused_at_its_line() {
    check(
        r#"
[[rule]]
id = "r"
kind = "title"
to = "7d"
event_kind = "national-amateur-championship"
min_wins_typo = 3
"#,
        expect![
            "11:1 unknown field `min_wins_typo`, expected one of `id`, `kind`, `description`, `from`, `to`, `jump`, `event_kind`, `event_level`, `event_name`, `group`, `min_wins`, `rounds`, `placings`, `percent`, `of_grade`, `rounding`, `system`, `min_rating`, `min_games`, `max_deviation`, `needed`, `games`, `win`, `draw`, `loss`, `places`"
        ],
    );
}

#[test]
fn unknown_grade() {
    check(
        r#"
[[rule]]
id = "r"
kind = "title"
to = "9d"
event_kind = "x"
"#,
        expect![[r#"9:6 unknown grade "9d" in ladder amateur: expected one of 25k, 24k, 23k … 6d, 7d, 8d"#]],
    );
}

#[test]
fn demotion_and_undeclared_jump() {
    check(
        r#"
[[rule]]
id = "down"
kind = "title"
from = ["3d"]
to = "2d"
event_kind = "x"

[[rule]]
id = "skip"
kind = "title"
from = ["1d"]
to = "3d"
event_kind = "x"
"#,
        expect![[r#"
            9:9 rule promotes from 3d to 2d, which is not a promotion
            16:9 rule skips grades from 1d to 3d; write `jump = true` if that is intended"#]],
    );
}

#[test]
fn missing_and_misplaced_fields() {
    check(
        r#"
[[rule]]
id = "q"
kind = "qualification"
to = "1d"
event_kind = "dan-qualification"
min_wins = 5
percent = 5.0
"#,
        expect![[r#"
            6:1 rule kind qualification needs the field `rounds`
            12:11 field `percent` does not apply to rule kind qualification"#]],
    );
}

#[test]
fn qualification_numbers_must_make_sense() {
    check(
        r#"
[[rule]]
id = "q"
kind = "qualification"
to = "1d"
event_kind = "dan-qualification"
min_wins = 8
rounds = 7
"#,
        expect!["11:12 min_wins 8 is more than the 7 rounds played"],
    );
}

#[test]
fn quota_percent_and_rounding() {
    check(
        r#"
[[rule]]
id = "q"
kind = "quota"
from = ["5d"]
to = "6d"
event_kind = "6d-qualification"
percent = 0.0
of_grade = "5d"
rounding = "up"
"#,
        expect![[r#"
            12:11 percent must be above 0 and at most 100, not 0
            14:12 unknown rounding "up": expected floor, ceil or nearest"#]],
    );
}

#[test]
fn kinds_levels_systems_and_selectors() {
    check(
        r#"
[[rule]]
id = "a"
kind = "lottery"
to = "1d"

[[rule]]
id = "b"
kind = "placing"
from = ["5d"]
to = "6d"
placings = [{ event_level = "galactic", max_place = 3 }, { max_place = 1 }]

[[rule]]
id = "c"
kind = "rating"
to = "1k"
system = "trueskill"
min_rating = 2000.0
"#,
        expect![[r#"
            8:8 unknown rule kind "lottery": expected qualification, placing, title, quota, rating or points
            16:29 unknown event level "galactic": expected club, county, city, provincial, national, world or online
            16:58 say which events count: give event_kind, event_level or event_name
            22:10 unknown rating system "trueskill": expected glicko2, egf or elo"#]],
    );
}

#[test]
fn duplicate_ids_and_bad_ids() {
    check(
        r#"
[[rule]]
id = "same"
kind = "title"
to = "7d"
from = ["6d"]
event_kind = "x"

[[rule]]
id = "same"
kind = "title"
to = "7d"
from = ["6d"]
event_kind = "y"

[[rule]]
id = "Has Space"
kind = "title"
to = "7d"
from = ["6d"]
event_kind = "z"
"#,
        expect![[r#"
            14:6 rule id "same" is used twice
            21:6 id "Has Space" must be non-empty and use only a-z, 0-9, '-', '_' and '.'"#]],
    );
}

#[test]
fn unknown_ladder_and_bad_mapping() {
    let text = r#"[association]
id = "x"
name = "x"
ladder = "tokyo"

[[rule]]
id = "r"
kind = "title"
to = "1d"
event_kind = "e"
"#;
    let errors = load_rules(text).unwrap_err();
    assert_eq!(errors.0.len(), 1);
    assert_eq!((errors.0[0].line, errors.0[0].column), (4, 10));
    assert!(matches!(&errors.0[0].problem, RuleProblem::UnknownLadder { ladder } if ladder == "tokyo"));

    check(
        r#"
[rank_mapping.glicko2]
table = [{ grade = "1k", rating = 2000.0 }, { grade = "1d", rating = 1900.0 }]

[rank_mapping.egf]
anchor = "1d"
rating = 2100.0

[[rule]]
id = "r"
kind = "title"
from = ["6d"]
to = "7d"
event_kind = "e"
"#,
        expect![[r#"
            7:55 rank mapping ratings must rise with the grades: 1k (2000) is not below 1d (1900)
            9:1 a rank mapping needs either anchor + rating + per_grade, or table"#]],
    );
}

#[test]
fn a_file_without_rules_is_refused() {
    let errors = load_rules(HEADER).unwrap_err();
    assert_eq!(errors.to_string(), "line 1, column 1: the file has no [[rule]]");
}

#[test]
fn custom_ladders_are_defined_with_grade_entries() {
    let text = r#"[association]
id = "club"
name = "club ladder"
ladder = "club"

[[grade]]
code = "bronze"
name = "铜"

[[grade]]
code = "silver"
name = "银"

[[grade]]
code = "silver"
name = "银 again"

[[rule]]
id = "r"
kind = "title"
to = "silver"
event_kind = "club-championship"
"#;
    let errors = load_rules(text).unwrap_err();
    assert_eq!(errors.to_string(), r#"line 15, column 8: grade code "silver" appears twice in the ladder"#);
    let fixed = text.replace("code = \"silver\"\nname = \"银 again\"", "code = \"gold\"\nname = \"金\"");
    let rules = load_rules(&fixed).unwrap();
    assert_eq!(rules.ladder.codes(), ["bronze", "silver", "gold"]);
}
