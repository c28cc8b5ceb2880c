//! Archived games as rating history (`weiqi sgf import --rate`, issue 16): an association that
//! brings its archive can feed the results of its members' past games to the rating system.
//!
//! * **Who.** A record's player is a player here when the name it gives (`PB`, `PW`) is, ignoring
//!   case and surrounding spaces, exactly one registered player's id, Chinese name or Latin name.
//!   A name nobody here has, or that two players share, is reported with its games, which are left
//!   out (a game needs both players' ratings).
//! * **Seeds.** A matched player without a rating here is seeded first from the rank the record
//!   gives them (`BR`, `WR`: the nominal rating of that grade under the current system, as a
//!   declared rank is).
//! * **Order.** Games are rated oldest first by the date the record gives (`DT`), then by id; a
//!   record without a date cannot be placed and is left out, as is one without a winner or jigo
//!   (void, unknown). A game ends at 18:00 UTC of its date (never after now).
//! * **Once.** A game's id is its archive id (the record's content hash), so rating the same
//!   records again finds them rated and changes nothing.
//! * **One by one.** Each game is rated on its own, not as part of a tournament (records name their
//!   event only as text); under Glicko-2 it waits for its period, as every game does.
//! * Promotion is not checked here: past results move ratings, and the checks run at the player's
//!   next rated game or review, as for any change of rating.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use weiqi_rating::{GameConditions, GameId, Millis, PlayerId, RatedGame, RatedResult, RatingCommand};

use super::RankingService;
use crate::error::RankingError;

/// Who won an archived game, for the rating system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchivedWinner {
    /// Black won.
    Black,
    /// White won.
    White,
    /// Jigo.
    Draw,
    /// No winner known (void, unknown): not rated.
    None,
}

/// One archived game's result, as the rating system takes it.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchivedResult {
    /// The archive id (`sgf-…`): the rated game's id.
    pub game: String,
    /// Black's name and rank as the record gives them.
    pub black: (String, String),
    /// White's name and rank.
    pub white: (String, String),
    /// Who won.
    pub winner: ArchivedWinner,
    /// Komi in half points, if the record gives one.
    pub komi_halves: Option<i32>,
    /// Handicap stones.
    pub handicap: u8,
    /// The date played, as UTC midnight.
    pub played_on: Option<Millis>,
}

/// What rating archived games did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArchiveRating {
    /// Games rated now.
    pub rated: usize,
    /// Games rated before (nothing changed).
    pub already_rated: usize,
    /// Games left out because a name matches no single player here.
    pub unmatched: usize,
    /// Names that match no player here, with their games.
    pub not_registered: BTreeMap<String, usize>,
    /// Names that match more than one player here, with their games.
    pub ambiguous: BTreeMap<String, usize>,
    /// Games without a date.
    pub undated: usize,
    /// Games without a winner or jigo.
    pub no_result: usize,
    /// Games whose two names are one player.
    pub self_play: usize,
    /// Players seeded from a record's rank before their first game here: (player, rating).
    pub seeded: Vec<(PlayerId, f64)>,
    /// Players whose rating changed.
    pub players: usize,
}

impl ArchiveRating {
    /// Games left out, for whatever reason.
    #[must_use]
    pub fn left_out(&self) -> usize {
        self.unmatched + self.undated + self.no_result + self.self_play
    }
}

/// A name as matched: trimmed, lowercase.
fn key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The ladder and grade of a rank as records write it (`5d`, `3k`, `9p`).
fn ladder_of(rank: &str) -> Option<(&'static str, String)> {
    let r = rank.trim().to_lowercase();
    let digits = r.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    match &r[digits..] {
        "k" | "d" => Some(("amateur", r)),
        "p" => Some(("professional", r)),
        _ => None,
    }
}

impl RankingService {
    /// Rates archived games here (see the module doc).
    ///
    /// # Errors
    /// Faults while reading the player logs or appending.
    pub async fn rate_archived(&self, mut games: Vec<ArchivedResult>) -> Result<ArchiveRating, RankingError> {
        self.ready().await?;
        let mut out = ArchiveRating::default();
        let mut by_name: HashMap<String, BTreeSet<PlayerId>> = HashMap::new();
        for player in self.registered_players().await? {
            let state = self.registry.state(&player).await?;
            let mut names = vec![player.0.clone()];
            if let Some(p) = &state.profile {
                names.extend([p.name_zh.clone(), p.name_latin.clone()]);
            }
            for n in names.iter().map(|n| key(n)).filter(|n| !n.is_empty()) {
                by_name.entry(n).or_default().insert(player.clone());
            }
        }
        games.sort_by(|a, b| a.played_on.map(|m| m.0).cmp(&b.played_on.map(|m| m.0)).then(a.game.cmp(&b.game)));
        let now = self.now();
        let mut seeded = BTreeSet::new();
        let mut rated = BTreeSet::new();
        for g in games {
            let Some(day) = g.played_on else {
                out.undated += 1;
                continue;
            };
            let result = match g.winner {
                ArchivedWinner::Black => RatedResult::BlackWins,
                ArchivedWinner::White => RatedResult::WhiteWins,
                ArchivedWinner::Draw => RatedResult::Jigo,
                ArchivedWinner::None => {
                    out.no_result += 1;
                    continue;
                }
            };
            let mut players = Vec::new();
            for (name, _) in [&g.black, &g.white] {
                match by_name.get(&key(name)) {
                    Some(set) if set.len() == 1 => players.extend(set.iter().cloned()),
                    Some(_) => *out.ambiguous.entry(name.trim().to_string()).or_default() += 1,
                    None => *out.not_registered.entry(name.trim().to_string()).or_default() += 1,
                }
            }
            let [black, white] = players.as_slice() else {
                out.unmatched += 1;
                continue;
            };
            if black == white {
                out.self_play += 1;
                continue;
            }
            let id = GameId(g.game.clone());
            if self.ledger.read(|book, _, _| book.has_game(&id)).await? {
                out.already_rated += 1;
                continue;
            }
            for (player, (_, rank)) in [(black, &g.black), (white, &g.white)] {
                if seeded.contains(player) || self.ledger.read(|book, _, _| book.stored(player).is_some()).await? {
                    continue;
                }
                seeded.insert(player.clone());
                if let Some((ladder, grade)) = ladder_of(rank) {
                    self.seed_from_rank(player, ladder, &grade).await?;
                    if let Some(view) = self.ledger.read(|book, _, _| book.view(player, now)).await? {
                        out.seeded.push((player.clone(), view.rating));
                    }
                }
            }
            let stones = g.handicap;
            let conditions = if stones >= 2 {
                GameConditions::handicap(stones)
            } else {
                match g.komi_halves {
                    Some(k) => GameConditions { komi: f64::from(k) / 2.0, ..GameConditions::even() },
                    None => GameConditions::even(),
                }
            };
            let ended_at = Millis((day.0 + 18 * 3_600_000).min(now.0));
            let game = RatedGame {
                id,
                black: black.clone(),
                white: white.clone(),
                result,
                conditions,
                ended_at,
                tournament: None,
            };
            let events = self.ledger.record(&self.registry, RatingCommand::RecordGame(game), None).await?;
            rated.extend(crate::domain::ledger::rated_players(&events));
            rated.extend([black.clone(), white.clone()]);
            out.rated += 1;
        }
        out.players = rated.len();
        tracing::info!(
            rated = out.rated,
            already = out.already_rated,
            left_out = out.left_out(),
            "archived games rated"
        );
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_as_records_write_them_find_their_ladder() {
        assert_eq!(ladder_of("5d"), Some(("amateur", "5d".to_string())));
        assert_eq!(ladder_of(" 10K "), Some(("amateur", "10k".to_string())));
        assert_eq!(ladder_of("9p"), Some(("professional", "9p".to_string())));
        assert_eq!(ladder_of("strong"), None);
        assert_eq!(ladder_of(""), None);
    }
}
