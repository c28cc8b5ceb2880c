//! Issue 15 item 9: the EGD's rating list reads. The sample is lines of the EGD's own download
//! (`allworld_lp.html`, as stored in OpenGotha's `ratinglists/egf_db.txt`, 29 Nov 2018), its header,
//! footer and placeholder rows included.

use weiqi_rating::CivilDate;
use weiqi_rating::egd_list::{EgdListError, parse_egd_rating_list};

#[test]
fn the_egd_list_reads_players_pins_grades_and_gor() {
    let list = parse_egd_rating_list(include_str!("data/egd-allworld-sample.html")).unwrap();
    assert_eq!(list.date, Some(CivilDate { year: 2018, month: 11, day: 29 }));
    let pins: Vec<u64> = list.players.iter().map(|p| p.pin).collect();
    assert_eq!(pins, [13633719, 12949827, 14013142, 10825089, 16825589, 12662870], "placeholder rows skipped");
    let reda = &list.players[2];
    assert_eq!((reda.surname.as_str(), reda.given.as_str(), reda.country.as_str()), ("Abd el Fatah", "Reda", "AT"));
    assert_eq!((reda.club.as_str(), reda.grade.as_str(), reda.gor, reda.tournaments), ("Wien", "2d", 1786, 7));
    assert_eq!(list.players[3].given, "", "a player without a given name");
    assert_eq!(list.players[4].given, "Barbara van");
    let pro = &list.players[5];
    assert_eq!((pro.grade.as_str(), pro.gor, pro.tournaments), ("2p", 2734, 176));
}

#[test]
fn broken_lists_are_refused_with_the_line() {
    assert_eq!(parse_egd_rating_list("<html>no players</html>"), Err(EgdListError::Empty));
    let cut = " 13633719  Aagren Thomas  SE  Upp  6k\n";
    assert_eq!(parse_egd_rating_list(cut), Err(EgdListError::Short { line: 1 }));
    let bad = " 13633719  Aagren Thomas   SE  Upp   6k   --  14x4   1  T040529C\n";
    assert!(matches!(parse_egd_rating_list(bad), Err(EgdListError::NotANumber { line: 1, field: "GoR", .. })));
}

/// A list line whose tokens end in a multi-byte character (a name in Chinese, 3段) is read or
/// refused, never a panic (the grade column was once found by splitting off the last byte).
#[test]
fn lines_with_chinese_text_never_panic() {
    for text in ["<pre>\n 12345678 李 明 CN Hz 3段 1 2100\n</pre>", "1 段", "段 3d", "é"] {
        let _ = weiqi_rating::egd_list::parse_egd_rating_list(text);
    }
}
