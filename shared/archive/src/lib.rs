//! The archive: historical game records brought into the event log, and the statistics analysts
//! ask of them.
//!
//! An association that moves to the platform brings years of SGF records; analysts replay them.
//! Each record becomes one **archived game**: an aggregate of its own kind (`archive`) in the event
//! log with a single event, [`codec::EVENT_TYPE`], that holds the record's bytes exactly as read
//! (charset, variations and comments kept) and what was read from it (players, ranks, date, event,
//! round, place, rules, komi, handicap, time system, result, the main line with its captures and
//! the final position's hash). The record is replayed through the rules core first
//! ([`ArchivedGame::from_sgf`]); one that does not replay is refused with the reason and never
//! written.
//!
//! # Design
//! * **Content-hash ids.** A game's id is `sgf-` and the first 32 hex digits of the record's SHA-256
//!   ([`archive_id`]): importing the same file twice finds the id taken and writes nothing.
//! * **Never live.** Archived games are their own kind, so no live follower (clocks, the tournament
//!   manager, the ranking service's game follower) ever reads one: they are never flagged, paired or
//!   rated unless the import is asked to rate them.
//! * **Exported back as they came.** The stored bytes are the record: exporting writes them back,
//!   and they replay to the same final position (tested).
//! * **Statistics** ([`stats`]) take one game at a time and keep only tallies, so the same code serves
//!   a directory of SGF files, the archive in the log and the web's player pages.
//!
//! # Code map
//! * `game.rs`: [`ArchivedGame`], reading and replaying a record.
//! * `codec.rs`: the stored form (protobuf `weiqi.v1.ArchivedGame`), the only module that knows
//!   protobuf.
//! * `stats.rs`: [`Stats`] and its [`Report`].
//!
//! Pure: no IO, no clock. The shells (`weiqi sgf import`, `weiqi stats`) live in the `weiqi` binary.

pub mod codec;
mod game;
pub mod stats;

pub use game::{
    ArchiveError, ArchivedGame, ArchivedMove, MAX_RECORD_BYTES, Reason, Winner, archive_id, first_date, moves_of,
};
pub use stats::{GameFacts, Report, Stats};

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &[u8] =
        b"(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Li]BR[2d]PW[Wang]WR[1d]DT[2003-05-12,13]EV[Spring]RE[W+R]\
;B[ee];W[cc];B[gc]C[a comment](;W[cg];B[tt])(;W[gg]))";

    #[test]
    fn a_record_is_read_replayed_and_kept_as_it_came() {
        let g = ArchivedGame::from_sgf(RECORD, "cwa-archive").unwrap();
        assert!(g.id.starts_with("sgf-") && g.id.len() == 36, "{}", g.id);
        assert_eq!(g.sgf, RECORD);
        assert_eq!((g.size, g.komi_halves, g.handicap, g.rules.as_str()), (9, Some(14), 0, "chinese"));
        assert_eq!((g.black.0.as_str(), g.white.1.as_str()), ("Li", "1d"));
        assert_eq!(g.played_on, "2003-05-12".parse().ok());
        assert_eq!((g.winner, g.reason), (Winner::White, Reason::Resignation));
        assert_eq!(g.moves.len(), 5, "the main line: the first variation");
        assert_eq!(g.moves[4].point, None, "B[tt] is a pass on 9x9");
        let back = codec::decode(&codec::encode(&g)).unwrap();
        assert_eq!(back, g);
        assert_eq!(archive_id(RECORD).0, g.id, "the same bytes, the same id");
    }

    #[test]
    fn a_record_that_does_not_replay_is_refused() {
        let twice = b"(;GM[1]FF[4]SZ[9];B[ee];W[ee])";
        let e = ArchivedGame::from_sgf(twice, "").unwrap_err();
        assert!(e.to_string().contains("move 2") || e.to_string().contains('2'), "{e}");
        assert!(ArchivedGame::from_sgf(b"not sgf", "").is_err());
    }

    #[test]
    fn a_game_played_here_reads_as_a_main_line_with_its_captures() {
        use weiqi_rules::{Color, Game, Move, Point, Ruleset};
        let mut g = Game::new(9, Ruleset::chinese()).unwrap();
        let p = |s: &str| Point::from_sgf(s.as_bytes()).unwrap();
        // White's stone on aa is captured by Black's ab.
        for (c, m) in [(Color::Black, "ba"), (Color::White, "aa"), (Color::Black, "ab")] {
            g.play(c, Move::Play(p(m))).unwrap();
        }
        g.forfeit_turn(Color::White);
        g.play(Color::Black, Move::Pass).unwrap();
        let moves = moves_of(&g);
        let taken: Vec<(Color, Option<Point>, u32)> = moves.iter().map(|m| (m.color, m.point, m.captures)).collect();
        assert_eq!(
            taken,
            [
                (Color::Black, Some(p("ba")), 0),
                (Color::White, Some(p("aa")), 0),
                (Color::Black, Some(p("ab")), 1),
                (Color::Black, None, 0),
            ],
            "the forfeited turn is not a move"
        );
    }

    #[test]
    fn dates_read_in_the_forms_records_use() {
        assert_eq!(first_date("2003-05-12,13"), "2003-05-12".parse().ok());
        assert_eq!(first_date("1998-11"), "1998-11-01".parse().ok());
        assert_eq!(first_date("1930"), "1930-01-01".parse().ok());
        assert_eq!(first_date("spring 1930"), None);
    }
}
