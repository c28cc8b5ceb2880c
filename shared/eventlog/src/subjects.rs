//! NATS subject and stream names. Architecture invariant: no other crate of the workspace
//! spells a NATS subject; they all come from here.
//!
//! With the default prefix `weiqi`:
//!
//! | what | name |
//! | --- | --- |
//! | the log of one aggregate | subject `weiqi.<kind>.<id>`, e.g. `weiqi.game.0b6f…` |
//! | the log of one kind | stream `WEIQI_GAMES`, `WEIQI_TOURNAMENTS`, `WEIQI_PLAYERS`, `WEIQI_CASES` |
//! | commands to a service | subject `weiqi.cmd.<service>.<key>`, queue group `weiqi.<service>` |
//! | ephemeral topics | subject `weiqi.<topic>.<key>`, e.g. `weiqi.clock.<game>` |
//! | raw publish benchmark | stream `WEIQI_BENCH_RAW`, subjects `weiqi.bench.<n>` |

use crate::AggregateKind;

/// The subject of one aggregate's log.
pub(crate) fn aggregate(prefix: &str, kind: AggregateKind, id: &str) -> String {
    format!("{prefix}.{}.{id}", kind.as_str())
}

/// The subjects of one kind's stream.
pub(crate) fn kind_wildcard(prefix: &str, kind: AggregateKind) -> String {
    format!("{prefix}.{}.*", kind.as_str())
}

/// The aggregate id in a subject of `kind`, if the subject is one.
pub(crate) fn aggregate_id_of<'s>(prefix: &str, kind: AggregateKind, subject: &'s str) -> Option<&'s str> {
    subject.strip_prefix(prefix)?.strip_prefix('.')?.strip_prefix(kind.as_str())?.strip_prefix('.')
}

/// The stream holding the logs of `kind`: `WEIQI_GAMES` for the game kind.
pub(crate) fn stream(prefix: &str, kind: AggregateKind) -> String {
    format!("{}_{}S", prefix.to_uppercase().replace(['.', '-'], "_"), kind.as_str().to_uppercase())
}

/// The subject a service's instances receive commands on, for one key.
pub(crate) fn command(prefix: &str, service: &str, key: &str) -> String {
    format!("{prefix}.cmd.{service}.{key}")
}

/// The subjects a service's instances subscribe to (all keys).
pub(crate) fn command_wildcard(prefix: &str, service: &str) -> String {
    format!("{prefix}.cmd.{service}.*")
}

/// The queue group of a service: each command goes to one instance.
pub(crate) fn queue_group(prefix: &str, service: &str) -> String {
    format!("{prefix}.{service}")
}

/// The subject of an ephemeral topic for one key, or for all keys (`key = None`).
pub(crate) fn topic(prefix: &str, topic: &str, key: Option<&str>) -> String {
    format!("{prefix}.{topic}.{}", key.unwrap_or("*"))
}

/// Words a topic or service may not be, because the log or the bus uses them.
pub(crate) fn is_reserved(word: &str) -> bool {
    AggregateKind::parse(word).is_some() || matches!(word, "cmd" | "bench")
}

/// The stream of the raw publish benchmark.
pub(crate) fn bench_stream(prefix: &str) -> String {
    format!("{}_BENCH_RAW", prefix.to_uppercase().replace(['.', '-'], "_"))
}

/// The subjects of the raw publish benchmark's stream.
pub(crate) fn bench_wildcard(prefix: &str) -> String {
    format!("{prefix}.bench.*")
}

/// One subject of the raw publish benchmark.
pub(crate) fn bench_subject(prefix: &str, n: usize) -> String {
    format!("{prefix}.bench.{n}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_documented_table() {
        assert_eq!(aggregate("weiqi", AggregateKind::Game, "g1"), "weiqi.game.g1");
        assert_eq!(kind_wildcard("weiqi", AggregateKind::Case), "weiqi.case.*");
        assert_eq!(stream("weiqi", AggregateKind::Game), "WEIQI_GAMES");
        assert_eq!(stream("weiqi", AggregateKind::Tournament), "WEIQI_TOURNAMENTS");
        assert_eq!(stream("weiqi", AggregateKind::Player), "WEIQI_PLAYERS");
        assert_eq!(stream("weiqi", AggregateKind::Case), "WEIQI_CASES");
        assert_eq!(command("weiqi", "game", "g1"), "weiqi.cmd.game.g1");
        assert_eq!(command_wildcard("weiqi", "game"), "weiqi.cmd.game.*");
        assert_eq!(topic("weiqi", "clock", Some("g1")), "weiqi.clock.g1");
        assert_eq!(topic("weiqi", "clock", None), "weiqi.clock.*");
        assert_eq!(bench_stream("weiqi"), "WEIQI_BENCH_RAW");
    }

    #[test]
    fn aggregate_ids_come_back_out_of_subjects() {
        assert_eq!(aggregate_id_of("weiqi", AggregateKind::Game, "weiqi.game.g1"), Some("g1"));
        assert_eq!(aggregate_id_of("weiqi", AggregateKind::Game, "weiqi.player.g1"), None);
        assert_eq!(aggregate_id_of("weiqi", AggregateKind::Game, "other.game.g1"), None);
    }

    #[test]
    fn kinds_and_cmd_are_reserved() {
        assert!(is_reserved("game") && is_reserved("cmd") && is_reserved("bench"));
        assert!(!is_reserved("clock"));
    }
}
