//! Promotion and ladder rules as data, at run time (issue 15 item 13): `weiqi up --promotion-rules
//! DIR` loads every `*.toml` in `DIR` instead of the compiled-in examples ([`crate::shipped_rules`],
//! still the default), validated at start-up with the rule files' precise errors (file, line and
//! column, what is wrong), one file per ladder.
//!
//! Every automatic check records the rule set it used: its name (the file name; `built-in/<file>`
//! for the examples) and the SHA-256 of its text. A case is checked when it opens, and its decision
//! rests on that recorded check, so a changed rule set applies to new cases only: cases opened
//! before the change keep the check, the name and the digest they were opened with.

use std::path::{Path, PathBuf};

use weiqi_rating::{AssociationRules, load_rules};

/// Why a rules directory could not be used.
#[derive(Debug, thiserror::Error)]
pub enum RulesDirError {
    /// The directory (or a file in it) could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// No `*.toml` file in the directory.
    #[error("{0} holds no rule file (*.toml)")]
    Empty(PathBuf),
    /// A file does not validate; the rule file's own errors follow.
    #[error("{file}:\n{errors}")]
    Invalid {
        /// The file name.
        file: String,
        /// The validation errors, one per line.
        errors: String,
    },
    /// Two files promote on the same ladder.
    #[error("{first} and {second} both give rules for the {ladder} ladder; keep one file per ladder")]
    SameLadder {
        /// The ladder.
        ladder: String,
        /// The first file.
        first: String,
        /// The second file.
        second: String,
    },
}

/// Loads and validates every `*.toml` in `dir`, in file-name order; each rule set is named after
/// its file.
///
/// # Errors
/// See [`RulesDirError`]: every file's problems are reported, not just the first file's.
pub fn load_rules_dir(dir: &Path) -> Result<Vec<AssociationRules>, RulesDirError> {
    let read = |path: &Path, e| RulesDirError::Read { path: path.to_path_buf(), source: e };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| read(dir, e))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(RulesDirError::Empty(dir.to_path_buf()));
    }
    let mut out: Vec<AssociationRules> = Vec::new();
    for path in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(&path).map_err(|e| read(&path, e))?;
        let mut rules =
            load_rules(&text).map_err(|e| RulesDirError::Invalid { file: name.clone(), errors: e.to_string() })?;
        rules.name = name;
        if let Some(first) = out.iter().find(|r| r.ladder.id == rules.ladder.id) {
            return Err(RulesDirError::SameLadder {
                ladder: rules.ladder.id.clone(),
                first: first.name.clone(),
                second: rules.name,
            });
        }
        out.push(rules);
    }
    Ok(out)
}
