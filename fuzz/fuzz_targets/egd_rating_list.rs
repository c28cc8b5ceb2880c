//! Arbitrary text as an EGD rating list: reading answers a list or an `EgdListError`, never panics,
//! and every player read has a PIN of eight digits and a grade.

#![no_main]

use libfuzzer_sys::fuzz_target;
use weiqi_rating::egd_list::parse_egd_rating_list;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(list) = parse_egd_rating_list(&text) {
        for p in list.players {
            assert!(p.pin <= 99_999_999, "a PIN has eight digits");
            assert!(!p.grade.is_empty());
        }
    }
});
