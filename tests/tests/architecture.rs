//! The map checks itself: `ARCHITECTURE.md`'s "The map's rules, checked" block against the tree.
//!
//! * `crate NAME: DEPS` — each workspace crate's normal and build dependencies on other workspace
//!   crates are among those listed (dev-dependencies are free); every workspace crate is listed.
//! * `proto PATH` — every non-test Rust file under a `src/` that names `weiqi_proto` lies under a
//!   listed path.
//! * `pure PATH` — no Rust file under these paths names an async or IO crate or reads a clock.
//! * `clock PATH` — only these files read the system clock.
//!
//! Paths are prefixes relative to the repository; text after `debt:` is a comment. A failure names the
//! file and the line, and the rule it breaks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The repository: this package's parent (cargo names the package's folder when the test runs; the
/// folder it was compiled in is the fallback, for a test binary run by hand).
fn root() -> PathBuf {
    let package = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned());
    Path::new(&package).parent().expect("the repository").to_path_buf()
}

#[derive(Debug, Default)]
struct Map {
    crates: BTreeMap<String, BTreeSet<String>>,
    proto: Vec<String>,
    pure: Vec<String>,
    clock: Vec<String>,
}

/// Reads the rules block of ARCHITECTURE.md.
fn map() -> Map {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let section = text.split("## The map's rules, checked").nth(1).expect("the map's rules section");
    let block = section.split("```text").nth(1).and_then(|b| b.split("```").next()).expect("the rules block");
    let mut m = Map::default();
    for line in block.lines() {
        let line = line.split(" debt:").next().unwrap_or("").trim();
        let Some((kind, rest)) = line.split_once(' ') else { continue };
        match kind {
            "crate" => {
                let (name, deps) = rest.split_once(':').expect("crate NAME: DEPS");
                m.crates.entry(name.trim().to_owned()).or_default().extend(deps.split_whitespace().map(str::to_owned));
            }
            "proto" => m.proto.push(rest.trim().to_owned()),
            "pure" => m.pure.push(rest.trim().to_owned()),
            "clock" => m.clock.push(rest.trim().to_owned()),
            other => panic!("unknown rule {other:?} in the map"),
        }
    }
    m
}

/// Every workspace member's manifest.
fn manifests() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["shared", "services"] {
        for entry in std::fs::read_dir(root().join(dir)).expect("a workspace folder") {
            let path = entry.expect("an entry").path().join("Cargo.toml");
            if path.exists() {
                out.push(path);
            }
        }
    }
    out.push(root().join("tests/Cargo.toml"));
    out.sort();
    out
}

/// Every `.rs` file under `dir`, as a path relative to the repository with `/` separators.
fn rust_files(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') && name != "node_modules" {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            let rel = path.strip_prefix(root()).expect("under the root").to_string_lossy().replace('\\', "/");
            out.push(rel);
        }
    }
}

/// The non-test source files: under a package's `src/` (not its `tests/`, `benches/`, `fuzz/`).
fn sources() -> Vec<String> {
    let mut all = Vec::new();
    for dir in ["shared", "services", "tests/src"] {
        rust_files(&root().join(dir), &mut all);
    }
    all.retain(|f| f.contains("/src/") && !f.contains("/tests/") || f.starts_with("tests/src/"));
    all.sort();
    all
}

/// The code lines of a file (comment lines dropped), numbered from 1.
fn code_lines(file: &str) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(root().join(file)).expect("a source file");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l.split(" // ").next().unwrap_or(l).to_owned()))
        .collect()
}

/// Whether `line` has `word` not joined to an identifier (`.await` but not `.awaiting`, `tokio` but not
/// `tokiox`).
fn names(line: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let starts = word.chars().next().is_some_and(ident);
    let ends = word.chars().next_back().is_some_and(ident);
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        let joined_before = starts && before.is_some_and(ident);
        let joined_after = ends && after.is_some_and(ident);
        !(joined_before || joined_after)
    })
}

const SYSTEM_CLOCK: [&str; 5] =
    ["SystemTime::now", "Utc::now", "OffsetDateTime::now_utc", "OffsetDateTime::now_local", "Local::now"];
const ASYNC_OR_IO: [&str; 12] = [
    "tokio",
    "futures",
    "async",
    ".await",
    "std::fs",
    "std::net",
    "std::process",
    "std::thread",
    "tonic",
    "redis",
    "async_nats",
    "Instant::now",
];

fn under(file: &str, prefixes: &[String]) -> bool {
    prefixes.iter().any(|p| file.starts_with(p.as_str()))
}

/// What in the tree breaks the map (empty: nothing).
fn violations(m: &Map) -> Vec<String> {
    let mut out = Vec::new();
    // Crates and their edges.
    for manifest in manifests() {
        let text = std::fs::read_to_string(&manifest).expect("a manifest");
        let doc: toml::Table = text.parse().expect("a manifest parses");
        let name = doc["package"]["name"].as_str().expect("a package name").to_owned();
        let Some(allowed) = m.crates.get(&name) else {
            out.push(format!("{}: crate {name} is not on the map", manifest.display()));
            continue;
        };
        for section in ["dependencies", "build-dependencies"] {
            let Some(deps) = doc.get(section).and_then(|d| d.as_table()) else { continue };
            for dep in deps.keys().filter(|d| d.starts_with("weiqi-")) {
                if !allowed.contains(dep) {
                    out.push(format!("crate {name} depends on {dep} ([{section}]): the map does not allow it"));
                }
            }
        }
    }
    // Files.
    for file in sources() {
        let lines = code_lines(&file);
        if !under(&file, &m.proto)
            && let Some((n, _)) = lines.iter().find(|(_, l)| names(l, "weiqi_proto"))
        {
            out.push(format!("{file}:{n}: names weiqi_proto outside the map's edges"));
        }
        if under(&file, &m.pure) {
            for (n, l) in &lines {
                if let Some(word) = ASYNC_OR_IO.iter().chain(SYSTEM_CLOCK.iter()).find(|w| names(l, w)) {
                    out.push(format!("{file}:{n}: a pure core names {word}"));
                }
            }
        }
        if !under(&file, &m.clock)
            && let Some((n, word)) =
                lines.iter().find_map(|(n, l)| SYSTEM_CLOCK.iter().find(|w| l.contains(**w)).map(|w| (n, w)))
        {
            out.push(format!("{file}:{n}: reads the system clock ({word}) outside Environment"));
        }
    }
    out
}

#[test]
fn the_code_stays_on_its_map() {
    let m = map();
    assert!(m.crates.len() >= 20 && !m.proto.is_empty() && !m.pure.is_empty() && !m.clock.is_empty(), "{m:?}");
    let found = violations(&m);
    assert!(found.is_empty(), "the code left ARCHITECTURE.md's map:\n{}", found.join("\n"));
}

/// The checker catches what it should: a map without an edge, a pure path, or the clock's home makes
/// the same tree fail, each naming the rule.
#[test]
fn the_checker_sees_each_kind_of_departure() {
    let mut m = map();
    m.crates.get_mut("weiqi-game").expect("the game crate").remove("weiqi-rules");
    m.proto.retain(|p| p != "services/game/src/");
    m.clock.retain(|p| p != "shared/eventlog/src/env.rs");
    m.pure.push("shared/aggregate/src/".into());
    let found = violations(&m);
    let has = |needle: &str| found.iter().any(|f| f.contains(needle));
    assert!(has("crate weiqi-game depends on weiqi-rules"), "{found:?}");
    assert!(has("services/game/src/") && has("names weiqi_proto outside the map's edges"), "{found:?}");
    assert!(has("shared/eventlog/src/env.rs") && has("reads the system clock"), "{found:?}");
    assert!(has("shared/aggregate/src/") && has("a pure core names"), "{found:?}");
    assert!(names("x.await;", ".await") && !names("state.awaiting_acceptance()", ".await"));
    assert!(names("use tokio::sync;", "tokio") && !names("let tokiox = 1;", "tokio"));
}
