//! Issue 30 item 7: every tie-break criterion has one name per language, from one table the core
//! owns, and an organiser may type any of them.

use std::collections::HashSet;
use weiqi_pairing::standings::TieBreak;

#[test]
fn every_criterion_has_one_name_per_language_and_reads_back_from_each() {
    let (mut en, mut zh) = (HashSet::new(), HashSet::new());
    let all = TieBreak::FIXED.into_iter().chain([TieBreak::Board(1), TieBreak::Board(3)]);
    for c in all {
        let n = c.names();
        assert!(en.insert(n.en.clone()) && zh.insert(n.zh.clone()), "{n:?} is not unique");
        assert!(!n.zh.is_ascii() && n.en.is_ascii(), "{n:?}");
        for typed in [n.code.clone(), n.code.to_lowercase(), n.en.clone(), n.zh.clone()] {
            assert_eq!(TieBreak::from_any_name(&typed), Some(c), "{typed:?}");
        }
    }
    // SOSM is named for what it counts; the cut SOS (去尾对手分, SOS−1) is another tie-break.
    assert_eq!(TieBreak::Sosm.names().zh, "对手麦克马洪分");
    assert_eq!(TieBreak::from_any_name("去尾对手分"), None);
    assert_eq!(TieBreak::from_any_name("小分"), None);
}
