//! Every shipped rule file loads.

use weiqi_rating::load_rules;

#[test]
fn shipped_rule_files_load() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        match load_rules(&text) {
            Ok(rules) => assert!(!rules.rules.is_empty()),
            Err(e) => panic!("{}:\n{e}", path.display()),
        }
        n += 1;
    }
    assert_eq!(n, 4);
}
