//! Arbitrary input lines for the GTP parser and engine: every line parses or is ignored, every
//! answer is one well-formed GTP response, and nothing panics.
//!
//! `loadsgf` and `printsgf FILE` are skipped: they touch files named by the input (the fuzzer could
//! overwrite files or read `/dev/zero`); the SGF side has its own target, `sgf_parse`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use weiqi_gtp::{Config, Engine, parse_line};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new(Config::default());
    for line in text.split('\n').take(256) {
        let Some(command) = parse_line(line) else { continue };
        if command.name == "loadsgf" || (command.name == "printsgf" && !command.args.is_empty()) {
            continue;
        }
        let response = engine.execute(&command);
        assert_eq!(response.id, command.id);
        let wire = response.to_wire();
        assert!(wire.starts_with('=') || wire.starts_with('?'));
        assert!(wire.ends_with("\n\n") && !wire[..wire.len() - 2].contains("\n\n"), "{wire:?}");
        if engine.has_quit() {
            break;
        }
    }
});
