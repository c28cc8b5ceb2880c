//! Past tournaments as rating history: an EGD results table (`.h9`) rated here (issue 15 item 9),
//! so an association moving to the platform keeps what its players did before.
//!
//! * **Who.** A line of the table is a player here when its EGD PIN (after `|`) is the PIN in a
//!   registered player's profile; lines without one, or with a PIN nobody here has, are reported and
//!   their games left out (a game needs both players' ratings).
//! * **Seeds.** A matched player without a rating here is seeded first from the rank the table gives
//!   them (the nominal rating of that grade under the current system, as a declared rank is).
//! * **Games.** Each game once (from the line with the smaller number), Black as the table marks the
//!   colour (`w`/`b`), or the weaker player when only a handicap is given; stones from the `h`
//!   mark, komi from the header's `KM`; ended on the header's last date (`DT`), else now. Rounds
//!   without a game (`0+`, `0-`, `0=`) are not games and are not rated.
//! * **Rated as a tournament.** Every game carries the table's id, `h9-` and the first 16 hex digits
//!   of its SHA-256, so under EGF GoR they are rated together as the EGD rates a tournament
//!   (`CloseTournament`), and a table imported twice is recognised and changes nothing. A table
//!   none of whose games could be rated (nobody here yet) is not recorded, so it can be imported
//!   again once its players are registered.
//!   Under Elo each game is rated as it is recorded; under Glicko-2 it waits for the period.
//! * Tables are rated in the order they are imported: import an archive oldest first.

use std::collections::HashMap;

use weiqi_pairing::h9::{H9File, H9Outcome, H9Result};
use weiqi_pairing::ids::Color;
use weiqi_rating::{GameConditions, GameId, Millis, PlayerId, RatedGame, RatedResult, RatingCommand, RatingEvent};

use super::RankingService;
use crate::error::RankingError;

/// What importing one results table did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct H9Import {
    /// The table's id (`h9-<16 hex digits>`): its games' tournament.
    pub tournament: String,
    /// The table had been imported before: nothing changed.
    pub already_imported: bool,
    /// Lines matched to players here: (line, player).
    pub matched: Vec<(u32, PlayerId)>,
    /// Lines with no player here: (line, name as written, PIN if any).
    pub not_registered: Vec<(u32, String, Option<u64>)>,
    /// Players seeded from the table's rank before their games: (player, rating).
    pub seeded: Vec<(PlayerId, f64)>,
    /// Games recorded.
    pub games: usize,
    /// Games left out because a player is not here.
    pub games_left_out: usize,
    /// Players whose rating changed (EGF: when the table was rated as a tournament; Elo: per game).
    pub rated: usize,
}

/// The header's last date (`DT[2026-11-28,2026-11-29]`), as the time the games ended (18:00 UTC).
fn ended_at(file: &H9File) -> Option<Millis> {
    let dates = file.header.get("DT")?;
    let last = dates.split(',').map(str::trim).rfind(|d| !d.is_empty())?;
    let date: weiqi_rating::CivilDate = last.parse().ok()?;
    Some(Millis(date.to_millis().0 + 18 * 3_600_000))
}

impl RankingService {
    /// Rates an EGD results table here (see the module doc).
    ///
    /// # Errors
    /// Faults while reading the player logs or appending; a refusal of the rating core (a game in
    /// the future, for a table dated after today).
    pub async fn import_h9_results(&self, file: &H9File, sha256: &str) -> Result<H9Import, RankingError> {
        self.ready().await?;
        let tournament = format!("h9-{}", &sha256[..sha256.len().min(16)]);
        let mut out = H9Import { tournament: tournament.clone(), ..H9Import::default() };
        let by_pin: HashMap<u64, PlayerId> =
            self.players_by_pin().await?.into_iter().map(|(p, pin)| (pin, p)).collect();
        let mut here: HashMap<u32, PlayerId> = HashMap::new();
        for line in &file.players {
            match line.pin.and_then(|pin| by_pin.get(&pin)) {
                Some(p) => {
                    here.insert(line.line, p.clone());
                    out.matched.push((line.line, p.clone()));
                }
                None => out.not_registered.push((
                    line.line,
                    format!("{} {}", line.surname, line.given).trim().to_string(),
                    line.pin,
                )),
            }
        }
        let now = self.now();
        let at = ended_at(file).map_or(now, |t| if t.0 > now.0 { now } else { t });
        let komi = file.header.get("KM").and_then(|k| k.trim().parse::<f64>().ok()).unwrap_or(7.5);
        let rank = |line: u32| {
            file.players
                .iter()
                .find(|p| p.line == line)
                .and_then(|p| p.rank.parse::<weiqi_pairing::rank::Rank>().ok())
                .map_or(i32::MIN, weiqi_pairing::rank::Rank::value)
        };
        let mut games = Vec::new();
        for line in &file.players {
            for (round, result) in line.results.iter().enumerate() {
                let H9Result::Game { opponent, outcome, color, handicap, .. } = *result else { continue };
                if opponent <= line.line {
                    continue;
                }
                let (Some(me), Some(them)) = (here.get(&line.line), here.get(&opponent)) else {
                    out.games_left_out += 1;
                    continue;
                };
                let stones = handicap.unwrap_or(0);
                let i_am_black = match color {
                    Some(c) => c == Color::Black,
                    None if stones > 0 => rank(line.line) < rank(opponent),
                    None => true,
                };
                let (black, white) = if i_am_black { (me, them) } else { (them, me) };
                let result = match (outcome, i_am_black) {
                    (H9Outcome::Jigo, _) => RatedResult::Jigo,
                    (H9Outcome::Win, true) | (H9Outcome::Loss, false) => RatedResult::BlackWins,
                    _ => RatedResult::WhiteWins,
                };
                let conditions = if stones >= 2 {
                    GameConditions::handicap(stones)
                } else {
                    GameConditions { komi, ..GameConditions::even() }
                };
                games.push(RatedGame {
                    id: GameId(format!("{tournament}-r{}-{}-{opponent}", round + 1, line.line)),
                    black: black.clone(),
                    white: white.clone(),
                    result,
                    conditions,
                    ended_at: at,
                    tournament: Some(tournament.clone()),
                });
            }
        }
        let seen = self
            .ledger
            .read(|book, _, _| {
                book.tournament_rated(&tournament) || games.first().is_some_and(|g| book.has_game(&g.id))
            })
            .await?;
        if seen {
            out.already_imported = true;
            return Ok(out);
        }
        for line in &file.players {
            let Some(player) = here.get(&line.line) else { continue };
            if self.ledger.read(|book, _, _| book.stored(player).is_some()).await? {
                continue;
            }
            let grade = line.rank.trim().to_lowercase();
            self.seed_from_rank(player, "amateur", &grade).await?;
            if let Some(view) = self.ledger.read(|book, _, _| book.view(player, now)).await? {
                out.seeded.push((player.clone(), view.rating));
            }
        }
        let mut rated = std::collections::BTreeSet::new();
        let mut changed = |events: &[RatingEvent]| {
            rated.extend(crate::domain::ledger::rated_players(events));
            for e in events {
                if let RatingEvent::GameRated { black, white, .. } = e {
                    rated.extend([black.player.clone(), white.player.clone()]);
                }
            }
        };
        for game in games {
            changed(&self.ledger.record(&self.registry, RatingCommand::RecordGame(game), None).await?);
            out.games += 1;
        }
        // A table none of whose games could be rated is not closed: once its players are registered
        // with their PINs, importing it again rates it.
        if out.games > 0 {
            changed(&self.ledger.record(&self.registry, RatingCommand::CloseTournament { tournament }, None).await?);
        }
        for p in &rated {
            self.promotions_for(p).await?;
        }
        out.rated = rated.len();
        tracing::info!(tournament = %out.tournament, games = out.games, rated = out.rated, "results table imported");
        Ok(out)
    }
}
