//! Arbitrary text as an OpenGotha tournament file: reading its players answers players or a
//! `GothaError`, never panics, and every player read has a key without whitespace.

#![no_main]

use libfuzzer_sys::fuzz_target;
use weiqi_pairing::opengotha::read_players;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(players) = read_players(&text) {
        for p in players {
            assert!(!p.key().chars().any(char::is_whitespace));
        }
    }
});
