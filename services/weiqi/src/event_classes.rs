//! Which tournaments count for promotion rules, and as what: the association's own list, given to
//! `weiqi up --event-classes FILE` (TOML). A tournament not in the list still rates its games; only its
//! placings are ignored by the promotion rules.
//!
//! ```toml
//! [[event]]
//! tournament = "national-dan-2026-1d"     # the tournament id
//! name = "2026 全国业余围棋定段赛 1段组"
//! kind = "dan-qualification"             # the kind the rule files name
//! level = "national"                     # club, county, city, provincial, national, world, online
//! group = "1d"                           # optional
//! ```

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use serde::Deserialize;
use weiqi_ranking::tournaments::{Classifier, EventClass};
use weiqi_rating::EventLevel;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    event: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    tournament: String,
    name: String,
    kind: String,
    level: EventLevel,
    group: Option<String>,
}

/// The classifier for a file (none: every tournament unclassified).
pub fn load(path: Option<&Path>) -> Result<Classifier> {
    let Some(path) = path else { return Ok(Arc::new(|_| None)) };
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let file: File =
        toml::from_str(&text).with_context(|| format!("{} is not a valid event-classes file", path.display()))?;
    let mut by_id = HashMap::new();
    for e in file.event {
        let class = EventClass { name: e.name, kind: e.kind, level: e.level, group: e.group };
        anyhow::ensure!(
            by_id.insert(e.tournament.clone(), class).is_none(),
            "tournament {} is listed twice",
            e.tournament
        );
    }
    Ok(Arc::new(move |id: &str| by_id.get(id).cloned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_classifies_its_tournaments_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("classes.toml");
        std::fs::write(
            &path,
            "[[event]]\ntournament = \"t1\"\nname = \"City Open\"\nkind = \"dan-qualification\"\nlevel = \"city\"\ngroup = \"1d\"\n",
        )
        .unwrap();
        let classify = load(Some(&path)).unwrap();
        let c = classify("t1").unwrap();
        assert_eq!((c.kind.as_str(), c.level, c.group.as_deref()), ("dan-qualification", EventLevel::City, Some("1d")));
        assert!(classify("t2").is_none());
        std::fs::write(&path, "[[event]]\ntournament = \"t1\"\nlevel = \"galactic\"\n").unwrap();
        assert!(load(Some(&path)).is_err());
    }
}
