//! Deterministic ids: every game and every command the service issues on its own has an id derived
//! from the tournament, the round and the table, so that a retry, a restart or a second instance
//! issues the *same* id and the logs de-duplicate it.
//!
//! | what | id |
//! | --- | --- |
//! | the game of round `r`, table `b` | `t-<tournament>-r<r>-b<b>` |
//! | the same after the round's pairing was taken back `g` times | `t-<tournament>-r<r>g<g>-b<b>` |
//! | creating that game (game log) | `create-<game>` |
//! | its result recorded from `GameEnded` (tournament log) | `result-<game>` |
//! | its no-show claim (tournament log) | `noshow-<game>` |
//! | closing it after the tournament decided it (game log) | `close-<game>` |
//! | pairing round `r` automatically (tournament log) | `pair-<tournament>-r<r>` |

use weiqi_eventlog::MAX_NAME_LEN;

/// The longest tournament id: long enough for a slug, short enough that every derived id fits in
/// [`MAX_NAME_LEN`] bytes.
pub const MAX_TOURNAMENT_ID_LEN: usize = 80;

/// Why a tournament id is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadTournamentId {
    /// Empty.
    #[error("the tournament id is empty")]
    Empty,
    /// Longer than [`MAX_TOURNAMENT_ID_LEN`].
    #[error("the tournament id is longer than {MAX_TOURNAMENT_ID_LEN} bytes")]
    TooLong,
    /// A character outside `A-Z a-z 0-9 _ -`.
    #[error("the tournament id may only hold A-Z a-z 0-9 _ - (found {0:?})")]
    BadCharacter(char),
}

/// Checks a tournament id.
pub fn check_tournament_id(id: &str) -> Result<(), BadTournamentId> {
    if id.is_empty() {
        return Err(BadTournamentId::Empty);
    }
    if id.len() > MAX_TOURNAMENT_ID_LEN {
        return Err(BadTournamentId::TooLong);
    }
    match id.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-')) {
        Some(c) => Err(BadTournamentId::BadCharacter(c)),
        None => Ok(()),
    }
}

/// The game id of a table of a round's first pairing.
pub fn game_id(tournament: &str, round: u32, table: u32) -> String {
    game_id_in(tournament, round, 0, table)
}

/// The game id of a table of a round's `pairing`-th pairing (0: the first; each time a round's pairing
/// is taken back, its next pairing's games get new ids, apart from the closed ones).
pub fn game_id_in(tournament: &str, round: u32, pairing: u32, table: u32) -> String {
    let id = if pairing == 0 {
        format!("t-{tournament}-r{round}-b{table}")
    } else {
        format!("t-{tournament}-r{round}g{pairing}-b{table}")
    };
    debug_assert!(id.len() + "noshow-".len() <= MAX_NAME_LEN);
    id
}

/// A game id made by [`game_id_in`], read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableGame<'a> {
    /// The tournament.
    pub tournament: &'a str,
    /// The round.
    pub round: u32,
    /// Which pairing of the round (0: the first).
    pub pairing: u32,
    /// The table.
    pub table: u32,
}

/// The tournament, round, pairing and table of a game id made by [`game_id_in`].
pub fn parse_game_id(id: &str) -> Option<TableGame<'_>> {
    let rest = id.strip_prefix("t-")?;
    let (rest, table) = rest.rsplit_once("-b")?;
    let (tournament, round) = rest.rsplit_once("-r")?;
    let (round, pairing) = match round.split_once('g') {
        Some((round, pairing)) => (round, pairing.parse().ok()?),
        None => (round, 0),
    };
    let round: u32 = round.parse().ok()?;
    let table: u32 = table.parse().ok()?;
    (!tournament.is_empty() && round > 0 && table > 0).then_some(TableGame { tournament, round, pairing, table })
}

/// The command that creates a game.
pub fn create_command(game: &str) -> String {
    format!("create-{game}")
}

/// The command that records a game's result from its `GameEnded`.
pub fn result_command(game: &str) -> String {
    format!("result-{game}")
}

/// The command that claims a game's no-show.
pub fn no_show_command(game: &str) -> String {
    format!("noshow-{game}")
}

/// The command that closes a game the tournament has decided.
pub fn close_command(game: &str) -> String {
    format!("close-{game}")
}

/// The command that gives a game the result the tournament corrected in event `sequence` of its log
/// (each correction once, however often the manager replays it).
pub fn correct_command(game: &str, sequence: u64) -> String {
    format!("correct-{game}-{sequence}")
}

/// The command that closes a game whose round's pairing was taken back.
pub fn unpair_command(game: &str) -> String {
    format!("unpair-{game}")
}

/// How often a round's pairing may be taken back (so that every derived id stays a valid name).
pub const MAX_PAIRINGS: u32 = weiqi_pairing::decide::MAX_UNPAIRS;

/// The command that pairs a round automatically.
pub fn pair_command(tournament: &str, round: u32) -> String {
    format!("pair-{tournament}-r{round}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn game_ids_name_their_round_and_table() {
        let at = |tournament, round, pairing, table| Some(TableGame { tournament, round, pairing, table });
        assert_eq!(game_id("city-open", 3, 12), "t-city-open-r3-b12");
        assert_eq!(game_id_in("city-open", 3, 2, 12), "t-city-open-r3g2-b12");
        assert_eq!(parse_game_id("t-city-open-r3-b12"), at("city-open", 3, 0, 12));
        assert_eq!(parse_game_id("t-city-open-r3g2-b12"), at("city-open", 3, 2, 12));
        assert_eq!(parse_game_id("t-a-r2-b-r3-b4"), at("a-r2-b", 3, 0, 4));
        for bad in ["g-1", "t--r1-b1", "t-x-r0-b1", "t-x-r1-b", "t-x-b1", "0b6f3c2e-9d1a", "t-x-r1g-b1", "t-x-r1gx-b1"]
        {
            assert_eq!(parse_game_id(bad), None, "{bad}");
        }
    }

    #[test]
    fn tournament_ids_are_checked() {
        assert_eq!(check_tournament_id("open_2026-a"), Ok(()));
        assert_eq!(check_tournament_id(""), Err(BadTournamentId::Empty));
        assert_eq!(check_tournament_id("a.b"), Err(BadTournamentId::BadCharacter('.')));
        assert_eq!(check_tournament_id(&"x".repeat(81)), Err(BadTournamentId::TooLong));
    }

    proptest! {
        #[test]
        fn every_derived_id_is_a_valid_name(
            t in "[A-Za-z0-9_-]{1,80}", round in 1u32.., pairing in 0u32..=MAX_PAIRINGS, table in 1u32..
        ) {
            let g = game_id_in(&t, round, pairing, table);
            let back = TableGame { tournament: t.as_str(), round, pairing, table };
            prop_assert_eq!(parse_game_id(&g), Some(back));
            for id in [g.clone(), create_command(&g), result_command(&g), no_show_command(&g), close_command(&g),
                       unpair_command(&g), pair_command(&t, round)] {
                prop_assert!(weiqi_eventlog::CommandId::new(&id).is_ok(), "{}", id);
            }
        }
    }
}
