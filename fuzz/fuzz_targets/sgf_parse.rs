//! SGF bytes of any kind: parsing, reading game information and the main line, and replaying it
//! through the rules core must return values (a collection or a precise error), never panic, and
//! what was parsed must write out as SGF that parses again to the same shape.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(collection) = weiqi_sgf::parse(data) else { return };
    for tree in &collection.games {
        if let Ok(record) = weiqi_sgf::Record::from_tree(tree) {
            let _ = record.replay(record.ruleset());
        }
    }
    let text = weiqi_sgf::write(&collection);
    let again = weiqi_sgf::parse_str(&text).expect("written SGF parses again");
    assert_eq!(again.games.len(), collection.games.len());
    for (a, b) in again.games.iter().zip(&collection.games) {
        assert_eq!(a.nodes.len(), b.nodes.len(), "a round trip keeps every node");
    }
});
