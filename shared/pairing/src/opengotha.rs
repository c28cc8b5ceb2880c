//! OpenGotha's tournament file (the XML OpenGotha saves): players read from one, and a tournament
//! written as one, so an event can move between this platform and the pairing program most European
//! and many Asian directors use.
//!
//! # The file
//! ```text
//! <Tournament dataVersion="201">
//!   <Players>
//!     <Player name="Li" firstName="Ming" rank="4D" grade="4D" country="CN" club="SHQY" egfPin="…"
//!             rating="2400" ratingOrigin="" participating="1111…" registeringStatus="FIN" …/>
//!   </Players>
//!   <Games>
//!     <Game roundNumber="1" tableNumber="1" blackPlayer="LIMING" whitePlayer="WANGFANG"
//!           knownColor="true" handicap="0" result="RESULT_BLACKWINS"/>
//!   </Games>
//!   <ByePlayers><ByePlayer roundNumber="2" player="ZHAOQIANG"/></ByePlayers>
//!   <TournamentParameterSet><GeneralParameterSet name="…" numberOfRounds="5" …/></TournamentParameterSet>
//! </Tournament>
//! ```
//! A player's key (in games and byes) is their surname and given name, spaces removed, in capitals.
//! Ranks are written `12K`, `4D`, `1P`. Results are `RESULT_BLACKWINS`, `RESULT_WHITEWINS`,
//! `RESULT_EQUAL`, `RESULT_BOTHLOSE` or `RESULT_UNKNOWN` (no result yet, or void), with `_BYDEF`
//! appended to a result given without the game being played (a forfeit). The Latin name is split at its
//! first space into surname and given name (as for the `.h9` table); a player without one is written
//! with the name in Chinese script as the surname.
//!
//! Reading takes the players only (names, rank, club, country, EGD PIN, rating): rounds and results
//! are this platform's own once it runs the event.

use std::fmt::Write as _;

use quick_xml::Reader;
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, Event};

use crate::config::ByeKind;
use crate::ids::Color;
use crate::outcome::{Outcome, ResultReason};
use crate::rank::Rank;
use crate::state::Tournament;

/// The most rounds an OpenGotha file describes (its `participating` strings have this many flags).
pub const MAX_ROUNDS: usize = 20;

/// A player as an OpenGotha file lists them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GothaPlayer {
    /// Surname (`name`).
    pub name: String,
    /// Given name (`firstName`).
    pub first_name: String,
    /// Rank as written (`4D`, `12K`).
    pub rank: String,
    /// Two-letter country code.
    pub country: String,
    /// Club code.
    pub club: String,
    /// EGD PIN, if any.
    pub egf_pin: Option<u64>,
    /// Rating, if any.
    pub rating: Option<i32>,
}

impl GothaPlayer {
    /// The player's key in games and byes: surname and given name, spaces removed, in capitals.
    #[must_use]
    pub fn key(&self) -> String {
        key(&self.name, &self.first_name)
    }

    /// The rank, if it reads as one.
    #[must_use]
    pub fn parsed_rank(&self) -> Option<Rank> {
        self.rank.parse().ok()
    }
}

fn key(name: &str, first_name: &str) -> String {
    format!("{name}{first_name}").chars().filter(|c| !c.is_whitespace()).flat_map(char::to_uppercase).collect()
}

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GothaError {
    /// Not well-formed XML.
    #[error("not an OpenGotha file: {0}")]
    Xml(String),
    /// No `<Tournament>` root.
    #[error("not an OpenGotha file: no <Tournament> element")]
    NotATournament,
}

/// The players of an OpenGotha file, in file order.
///
/// # Errors
/// [`GothaError`] when the text is not well-formed XML or not an OpenGotha tournament.
pub fn read_players(xml: &str) -> Result<Vec<GothaPlayer>, GothaError> {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().trim_text(true);
    let mut players = Vec::new();
    let mut tournament = false;
    loop {
        match reader.read_event().map_err(|e| GothaError::Xml(e.to_string()))? {
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                b"Tournament" => tournament = true,
                b"Player" if tournament => players.push(player(&e)?),
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    if tournament { Ok(players) } else { Err(GothaError::NotATournament) }
}

fn player(e: &BytesStart<'_>) -> Result<GothaPlayer, GothaError> {
    let mut p = GothaPlayer::default();
    for a in e.attributes() {
        let a = a.map_err(|e| GothaError::Xml(e.to_string()))?;
        let value = a.unescape_value().map_err(|e| GothaError::Xml(e.to_string()))?.trim().to_string();
        match a.key.as_ref() {
            b"name" => p.name = value,
            b"firstName" => p.first_name = value,
            b"rank" => p.rank = value,
            b"country" => p.country = value,
            b"club" => p.club = value,
            b"egfPin" => p.egf_pin = value.parse().ok().filter(|pin| *pin > 0),
            b"rating" => p.rating = value.parse().ok(),
            _ => {}
        }
    }
    Ok(p)
}

/// A rank as OpenGotha writes it (`4D`, `12K`, `1P`).
#[must_use]
pub fn gotha_rank(rank: Rank) -> String {
    rank.to_string().to_uppercase()
}

/// The tournament as an OpenGotha file (see the module doc): players, games with results, byes, and
/// the general parameters (name, and the rounds: `planned`, or those paired if more).
#[must_use]
pub fn export_opengotha(t: &Tournament, planned: u32) -> String {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    let names: std::collections::HashMap<_, _> = t
        .players
        .iter()
        .map(|(id, e)| {
            let (surname, given) = split_name(&e.registration.name_latin, &e.registration.name_zh);
            (*id, (surname, given))
        })
        .collect();
    let rounds = (planned as usize).max(t.rounds.len()).clamp(1, MAX_ROUNDS);
    let _ = w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), Some("no"))));
    let mut root = BytesStart::new("Tournament");
    root.push_attribute(("dataVersion", "201"));
    let _ = w.write_event(Event::Start(root));
    let _ = w.write_event(Event::Start(BytesStart::new("Players")));
    for (id, e) in &t.players {
        let r = &e.registration;
        let (surname, given) = &names[id];
        let mut participating = String::with_capacity(MAX_ROUNDS);
        for round in 1..=MAX_ROUNDS {
            let out = e.withdrawn.as_ref().is_some_and(|w| round as u32 > w.after_round);
            participating.push(if out { '0' } else { '1' });
        }
        let rank = gotha_rank(r.rank);
        let rating = r.rating.map_or_else(String::new, |v| v.to_string());
        let pin = r.egd_pin.map_or_else(String::new, |v| v.to_string());
        let mut p = BytesStart::new("Player");
        for (k, v) in [
            ("agaExpirationDate", ""),
            ("agaId", ""),
            ("club", r.club.as_deref().unwrap_or("")),
            ("country", r.country.as_deref().unwrap_or("")),
            ("egfPin", &pin),
            ("ffgLicence", ""),
            ("ffgLicenceStatus", ""),
            ("firstName", given),
            ("grade", &rank),
            ("name", surname),
            ("participating", &participating),
            ("rank", &rank),
            ("rating", &rating),
            ("ratingOrigin", ""),
            ("registeringStatus", "FIN"),
            ("smmsCorrection", "0"),
        ] {
            p.push_attribute((k, v));
        }
        let _ = w.write_event(Event::Empty(p));
    }
    let _ = w.write_event(Event::End(BytesEnd::new("Players")));
    let key_of = |id| names.get(id).map(|(s, g): &(String, String)| key(s, g)).unwrap_or_default();
    let _ = w.write_event(Event::Start(BytesStart::new("Games")));
    for round in &t.rounds {
        for g in &round.games {
            let result = match g.result {
                None => "RESULT_UNKNOWN".to_string(),
                Some(r) => {
                    let base = match r.outcome {
                        Outcome::Win(Color::Black) => "RESULT_BLACKWINS",
                        Outcome::Win(Color::White) => "RESULT_WHITEWINS",
                        Outcome::Draw => "RESULT_EQUAL",
                        Outcome::BothLose => "RESULT_BOTHLOSE",
                        Outcome::Void => "RESULT_UNKNOWN",
                    };
                    let forfeit = r.reason == ResultReason::Forfeit && r.outcome != Outcome::Void;
                    format!("{base}{}", if forfeit { "_BYDEF" } else { "" })
                }
            };
            let mut e = BytesStart::new("Game");
            let (round_n, table, handicap) =
                (round.number.to_string(), g.paired.table.to_string(), g.paired.handicap.to_string());
            for (k, v) in [
                ("blackPlayer", key_of(&g.paired.black).as_str()),
                ("handicap", &handicap),
                ("knownColor", "true"),
                ("result", &result),
                ("roundNumber", &round_n),
                ("tableNumber", &table),
                ("whitePlayer", key_of(&g.paired.white).as_str()),
            ] {
                e.push_attribute((k, v));
            }
            let _ = w.write_event(Event::Empty(e));
        }
    }
    let _ = w.write_event(Event::End(BytesEnd::new("Games")));
    let _ = w.write_event(Event::Start(BytesStart::new("ByePlayers")));
    for round in &t.rounds {
        for b in round.byes.iter().filter(|b| b.kind != ByeKind::ZeroPoint) {
            let mut e = BytesStart::new("ByePlayer");
            e.push_attribute(("player", key_of(&b.player).as_str()));
            e.push_attribute(("roundNumber", round.number.to_string().as_str()));
            let _ = w.write_event(Event::Empty(e));
        }
    }
    let _ = w.write_event(Event::End(BytesEnd::new("ByePlayers")));
    let _ = w.write_event(Event::Start(BytesStart::new("TournamentParameterSet")));
    let name = t.config.as_ref().map_or("", |c| c.name.as_str());
    let short: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).take(20).collect();
    let mut general = BytesStart::new("GeneralParameterSet");
    let rounds_text = rounds.to_string();
    for (k, v) in [
        ("name", name),
        ("shortName", if short.is_empty() { "tournament" } else { short.as_str() }),
        ("numberOfRounds", rounds_text.as_str()),
        ("numberOfCategories", "1"),
    ] {
        general.push_attribute((k, v));
    }
    let _ = w.write_event(Event::Empty(general));
    let _ = w.write_event(Event::End(BytesEnd::new("TournamentParameterSet")));
    let _ = w.write_event(Event::End(BytesEnd::new("Tournament")));
    let mut out = String::from_utf8(w.into_inner()).unwrap_or_default();
    let _ = writeln!(out);
    out
}

/// Surname and given name from the Latin name (split at its first space), else the name in Chinese
/// script as the surname.
fn split_name(latin: &str, zh: &str) -> (String, String) {
    let latin = latin.trim();
    if latin.is_empty() {
        return (zh.trim().to_string(), String::new());
    }
    match latin.split_once(char::is_whitespace) {
        Some((surname, given)) => (surname.to_string(), given.trim().to_string()),
        None => (latin.to_string(), String::new()),
    }
}
