//! Arbitrary UTF-8 as a rank, as a CSV cell, a form field, an OpenGotha attribute or an `.h9` column
//! gives it (`3段`, `12级`, `业余初段`, `5k`…): both rank readers (the tournament's and the
//! certification office's) answer a rank or an error and never panic, and a rank read back from its
//! own text is itself.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(rank) = text.parse::<weiqi_pairing::rank::Rank>() {
        assert_eq!(rank.to_string().parse::<weiqi_pairing::rank::Rank>(), Ok(rank));
    }
    if let Ok(rank) = text.parse::<weiqi_rating::Rank>() {
        assert_eq!(rank.to_string().parse::<weiqi_rating::Rank>().ok(), Some(rank));
    }
});
