//! Finding external tools, and the skip policy shared by every test that needs one.

use std::path::{Path, PathBuf};

/// Why an external tool cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    /// The tool is not installed (not at `$env`, not on `PATH`, not in the extra directories).
    #[error("{tool} not found (set ${env} or put it on PATH); install hint: {hint}")]
    Missing {
        /// The tool's name, e.g. `nats-server`.
        tool: String,
        /// The environment variable that can point at it.
        env: String,
        /// How to install it.
        hint: String,
    },
    /// The tool is installed but older than the version the tests need.
    #[error("{tool} at {path} is version {found}, but at least {required} is needed; {hint}")]
    TooOld {
        /// The tool's name.
        tool: String,
        /// Where it was found.
        path: PathBuf,
        /// The version it reports.
        found: String,
        /// The minimum version.
        required: String,
        /// How to install a newer one.
        hint: String,
    },
    /// The tool is there but could not be started or did not become ready. Never skipped.
    #[error("{tool} failed: {reason}")]
    Failed {
        /// The tool's name.
        tool: String,
        /// What went wrong, with the tail of its log when there is one.
        reason: String,
    },
}

impl ExternalError {
    /// Whether the skip policy may skip a test for this error (a missing or too old tool), as
    /// opposed to a tool that is present but broken.
    pub fn is_skippable(&self) -> bool {
        matches!(self, Self::Missing { .. } | Self::TooOld { .. })
    }
}

/// `true` when `WEIQI_REQUIRE_EXTERNAL=1` (or `true`/`yes`): missing tools fail tests instead
/// of skipping them.
pub fn require_external() -> bool {
    std::env::var("WEIQI_REQUIRE_EXTERNAL").map(|v| matches!(v.trim(), "1" | "true" | "yes")).unwrap_or(false)
}

/// The skip notice for `error` if the policy says "skip", or `None` if the test must fail.
pub fn skip_reason(error: &ExternalError) -> Option<String> {
    (error.is_skippable() && !require_external())
        .then(|| format!("SKIPPED (set WEIQI_REQUIRE_EXTERNAL=1 to make this a failure): {error}"))
}

/// Applies the skip policy to a result: `Some(value)` on success; `None` after printing a
/// notice when the tool is missing and skipping is allowed; a panic otherwise.
///
/// # Panics
///
/// When the tool is present but broken, or missing under `WEIQI_REQUIRE_EXTERNAL=1`.
pub fn skip_or_fail<T>(result: Result<T, ExternalError>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(error) => match skip_reason(&error) {
            Some(notice) => {
                eprintln!("{notice}");
                None
            }
            None => panic!("required external tool unavailable: {error}"),
        },
    }
}

/// Finds an external program: `$WEIQI_<NAME>` (upper case, `-` as `_`) if set, else `PATH`,
/// else the `extra_dirs` (e.g. `&["/usr/games"]` for `gnugo`). Combine with [`skip_or_fail`]
/// or [`require!`](crate::require).
pub fn external_tool(name: &str, extra_dirs: &[&str]) -> Result<PathBuf, ExternalError> {
    let env = format!("WEIQI_{}", name.to_uppercase().replace('-', "_"));
    find_program(name, &env, extra_dirs, &format!("install {name}"))
}

/// Finds `name` through `$env`, then `PATH`, then `extra_dirs`.
pub(crate) fn find_program(name: &str, env: &str, extra_dirs: &[&str], hint: &str) -> Result<PathBuf, ExternalError> {
    let missing = || ExternalError::Missing { tool: name.to_owned(), env: env.to_owned(), hint: hint.to_owned() };
    if let Some(explicit) = std::env::var_os(env).filter(|v| !v.is_empty()) {
        let path = PathBuf::from(explicit);
        return if is_executable(&path) { Ok(path) } else { Err(missing()) };
    }
    let path_dirs = std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect::<Vec<_>>()).unwrap_or_default();
    path_dirs
        .into_iter()
        .chain(extra_dirs.iter().map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
        .ok_or_else(missing)
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

/// The directory of reference game records: `$WEIQI_CORPUS`, else `../shared/corpus` next to
/// the workspace root. Missing is skippable, like a missing tool.
pub fn corpus_dir() -> Result<PathBuf, ExternalError> {
    let missing = |env_hint: &str| ExternalError::Missing {
        tool: "game corpus".to_owned(),
        env: "WEIQI_CORPUS".to_owned(),
        hint: env_hint.to_owned(),
    };
    if let Some(explicit) = std::env::var_os("WEIQI_CORPUS").filter(|v| !v.is_empty()) {
        let dir = PathBuf::from(explicit);
        return if dir.is_dir() { Ok(dir) } else { Err(missing("$WEIQI_CORPUS does not name a directory")) };
    }
    let dir = workspace_root().join("../shared/corpus");
    if dir.is_dir() { Ok(dir) } else { Err(missing("expected ../shared/corpus beside the workspace")) }
}

/// The workspace root: the nearest ancestor of this crate whose `Cargo.toml` has `[workspace]`.
fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .ancestors()
        .find(|dir| {
            std::fs::read_to_string(dir.join("Cargo.toml")).map(|text| text.contains("[workspace]")).unwrap_or(false)
        })
        .unwrap_or(manifest_dir)
        .to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_and_too_old_are_skippable_but_failures_are_not() {
        let table = [
            (ExternalError::Missing { tool: "x".into(), env: "WEIQI_X".into(), hint: "h".into() }, true),
            (
                ExternalError::TooOld {
                    tool: "x".into(),
                    path: "/x".into(),
                    found: "1".into(),
                    required: "2".into(),
                    hint: "h".into(),
                },
                true,
            ),
            (ExternalError::Failed { tool: "x".into(), reason: "crashed".into() }, false),
        ];
        for (error, skippable) in table {
            assert_eq!(error.is_skippable(), skippable, "{error}");
        }
    }

    #[test]
    fn an_absent_tool_is_missing_with_its_env_variable() {
        let error = external_tool("weiqi-no-such-tool-xyz", &["/nonexistent"]).unwrap_err();
        match error {
            ExternalError::Missing { tool, env, .. } => {
                assert_eq!(tool, "weiqi-no-such-tool-xyz");
                assert_eq!(env, "WEIQI_WEIQI_NO_SUCH_TOOL_XYZ");
            }
            other => panic!("expected Missing, got {other}"),
        }
    }

    #[test]
    fn a_tool_in_an_extra_directory_is_found() {
        // `sh` is in /bin on every Unix; look for it with an empty PATH-like search by naming
        // /bin as the extra directory.
        let found = external_tool("sh", &["/bin"]).expect("sh exists");
        assert!(found.ends_with("sh"));
    }

    #[test]
    fn the_workspace_root_has_a_workspace_manifest() {
        let root = workspace_root();
        let text = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert!(text.contains("[workspace]"));
    }
}
