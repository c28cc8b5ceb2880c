//! How the engine is started: the ruleset (a preset with ko, suicide and komi overrides), the
//! random seed of the bot, and the name and version it reports.

use weiqi_rules::{KoRule, Komi, Ruleset, Suicide, UnknownRuleset};

/// The engine's settings, fixed for the whole session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The rules every game of the session is played under. GTP `komi` and `loadsgf` change the
    /// komi; nothing else changes the rules.
    pub ruleset: Ruleset,
    /// Seed of the random bot behind `genmove`. Same seed and same commands, same moves.
    pub seed: u64,
    /// What `name` answers.
    pub name: String,
    /// What `version` answers.
    pub version: String,
}

impl Default for Config {
    /// Chinese rules, seed 0, named `weiqi` with this crate's version.
    fn default() -> Config {
        Config::new(Ruleset::chinese(), 0)
    }
}

/// A command-line setting the engine cannot use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// `--rules` names no preset.
    #[error(transparent)]
    UnknownRuleset(#[from] UnknownRuleset),
    /// `--ko` is not `simple`, `positional` or `situational`.
    #[error("unknown ko rule {0:?} (known: simple, positional, situational)")]
    UnknownKoRule(String),
    /// `--suicide` is not `allowed` or `forbidden`.
    #[error("unknown suicide rule {0:?} (known: allowed, forbidden)")]
    UnknownSuicideRule(String),
    /// `--komi` is not a whole number of half points.
    #[error("komi {0:?} is not a multiple of 0.5")]
    BadKomi(String),
}

impl Config {
    /// A configuration with the given rules and seed, named `weiqi`.
    pub fn new(ruleset: Ruleset, seed: u64) -> Config {
        Config { ruleset, seed, name: "weiqi".to_string(), version: env!("CARGO_PKG_VERSION").to_string() }
    }

    /// The configuration `weiqi gtp [--rules PRESET] [--ko K] [--suicide S] [--komi K] [--seed N]`
    /// asks for: the preset (Chinese if none), then each override applied on top of it.
    pub fn from_options(
        rules: Option<&str>,
        ko: Option<&str>,
        suicide: Option<&str>,
        komi: Option<&str>,
        seed: u64,
    ) -> Result<Config, ConfigError> {
        let mut ruleset = match rules {
            Some(name) => name.parse::<Ruleset>()?,
            None => Ruleset::chinese(),
        };
        if let Some(k) = ko {
            ruleset.ko = parse_ko_rule(k)?;
        }
        if let Some(s) = suicide {
            ruleset.suicide = parse_suicide(s)?;
        }
        if let Some(k) = komi {
            ruleset.komi = parse_komi(k)?;
        }
        Ok(Config::new(ruleset, seed))
    }
}

/// Parses `--ko`: `simple`, `positional` (also `psk`, `positional-superko`) or `situational` (also
/// `ssk`, `situational-superko`), in any case.
pub fn parse_ko_rule(s: &str) -> Result<KoRule, ConfigError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "simple" => Ok(KoRule::Simple),
        "positional" | "psk" | "positional-superko" => Ok(KoRule::PositionalSuperko),
        "situational" | "ssk" | "situational-superko" => Ok(KoRule::SituationalSuperko),
        _ => Err(ConfigError::UnknownKoRule(s.to_string())),
    }
}

/// Parses `--suicide`: `allowed` or `forbidden`, in any case.
pub fn parse_suicide(s: &str) -> Result<Suicide, ConfigError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "allowed" | "allow" => Ok(Suicide::Allowed),
        "forbidden" | "forbid" => Ok(Suicide::Forbidden),
        _ => Err(ConfigError::UnknownSuicideRule(s.to_string())),
    }
}

/// Parses a komi in points (`7.5`, `-3`, `0.5`): a whole number of half points.
pub fn parse_komi(s: &str) -> Result<Komi, ConfigError> {
    s.trim().parse::<f64>().ok().and_then(Komi::from_points).ok_or_else(|| ConfigError::BadKomi(s.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_override_the_preset() {
        let c = Config::from_options(Some("japanese"), Some("situational"), Some("allowed"), Some("0.5"), 9).unwrap();
        assert_eq!(c.ruleset.ko, KoRule::SituationalSuperko);
        assert_eq!(c.ruleset.suicide, Suicide::Allowed);
        assert_eq!(c.ruleset.komi, Komi(1));
        assert_eq!(c.ruleset.scoring, Ruleset::japanese().scoring);
        assert_eq!(c.seed, 9);
        assert_eq!(Config::from_options(None, None, None, None, 0).unwrap(), Config::default());
    }

    #[test]
    fn bad_options_are_refused_with_the_value() {
        assert!(matches!(
            Config::from_options(Some("martian"), None, None, None, 0),
            Err(ConfigError::UnknownRuleset(_))
        ));
        assert_eq!(parse_ko_rule("superduper"), Err(ConfigError::UnknownKoRule("superduper".into())));
        assert_eq!(parse_suicide("sometimes"), Err(ConfigError::UnknownSuicideRule("sometimes".into())));
        assert_eq!(parse_komi("6.25"), Err(ConfigError::BadKomi("6.25".into())));
        assert_eq!(parse_komi("seven"), Err(ConfigError::BadKomi("seven".into())));
        assert_eq!(parse_komi("NaN"), Err(ConfigError::BadKomi("NaN".into())));
        assert_eq!(parse_komi("-7"), Ok(Komi(-14)));
        assert_eq!(parse_ko_rule("PSK"), Ok(KoRule::PositionalSuperko));
    }
}
