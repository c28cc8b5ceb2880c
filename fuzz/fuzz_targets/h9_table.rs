//! Arbitrary text as an EGD `.h9` table: reading answers a table or an `H9Error`, checking answers a
//! list of problems, neither panics, and every player line read has a rank and one entry per
//! result token.

#![no_main]

use libfuzzer_sys::fuzz_target;
use weiqi_pairing::h9::{check_h9, parse_h9};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(file) = parse_h9(&text) {
        for (i, p) in file.players.iter().enumerate() {
            assert_eq!(p.line as usize, i + 1);
            assert!(!p.rank.is_empty());
        }
    }
    let _ = check_h9(&text);
});
