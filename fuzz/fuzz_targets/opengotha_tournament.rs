//! Arbitrary text as an OpenGotha tournament file: reading answers a tournament or an error, and
//! replaying its rounds onto its own players answers commands or an error, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use weiqi_pairing::ids::PlayerId;
use weiqi_pairing::opengotha::read_tournament;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(t) = read_tournament(&text) {
        let ids = t.players.iter().enumerate().map(|(i, p)| (p.key(), PlayerId(i as u32 + 1))).collect();
        let _ = t.replay(&ids);
        let _ = t.config(1);
    }
});
