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
//! [`read_players`] takes the players (names, rank, club, country, EGD PIN, rating) for a new event;
//! [`read_tournament`] takes the whole file (players, games with results, byes, rounds, McMahon bars,
//! seed systems) and [`GothaTournament::replay`] turns its rounds into this platform's commands, so an
//! event run in OpenGotha continues here. The file written carries what OpenGotha's own files carry
//! for the event: bar and floor, the bye and absence values of its defaults, dates, the placement
//! criteria and the seed systems.

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

    /// The platform account a player from a file is registered under: the key's Latin letters and
    /// digits in small letters (`LIMING` → `liming`), or `egd-<PIN>` when the key has none (a name in
    /// Chinese script); empty when there is neither.
    #[must_use]
    pub fn account(&self) -> String {
        let key: String = self.key().chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_lowercase();
        match (key.is_empty(), self.egf_pin) {
            (false, _) => key,
            (true, Some(pin)) => format!("egd-{pin}"),
            (true, None) => String::new(),
        }
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

/// How an event's games are timed, as OpenGotha names it (`complementaryTimeSystem`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GothaOvertime {
    /// No overtime (`SUDDENDEATH`).
    #[default]
    SuddenDeath,
    /// Standard (Japanese) byo-yomi, seconds a move (`STDBYOYOMI`, `stdByoYomiTime`).
    Standard {
        /// Seconds a period.
        seconds: u32,
    },
    /// Canadian byo-yomi: moves in a period of seconds (`CANBYOYOMI`).
    Canadian {
        /// Moves a period.
        moves: u32,
        /// Seconds a period.
        seconds: u32,
    },
    /// Fischer: seconds added a move (`FISCHER`).
    Fischer {
        /// Seconds a move.
        seconds: u32,
    },
}

/// What an OpenGotha file says of the event beyond its pairing: where, when, who directs it, how it
/// is timed, and the clubs' short codes (OpenGotha keeps four characters of a club).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GothaEvent {
    /// `location` (OpenGotha's default when absent is "Paris").
    pub location: String,
    /// `director`.
    pub director: String,
    /// `beginDate`, `endDate` (`None`: the start and the last result).
    pub begin: Option<weiqi_time::CivilDate>,
    /// The last day.
    pub end: Option<weiqi_time::CivilDate>,
    /// Played on the Internet (`bInternet`).
    pub internet: bool,
    /// Board size.
    pub size: u32,
    /// Komi, in points (`7.5`).
    pub komi: String,
    /// Basic time, minutes.
    pub basic_minutes: u32,
    /// The overtime.
    pub overtime: GothaOvertime,
    /// Each club (as registered) → its short code.
    pub club_codes: std::collections::BTreeMap<String, String>,
}

impl Default for GothaEvent {
    fn default() -> GothaEvent {
        GothaEvent {
            location: String::new(),
            director: String::new(),
            begin: None,
            end: None,
            internet: false,
            size: 19,
            komi: "7.5".into(),
            basic_minutes: 60,
            overtime: GothaOvertime::SuddenDeath,
            club_codes: std::collections::BTreeMap::new(),
        }
    }
}

/// The tournament as an OpenGotha file with the event's facts left at their defaults (see
/// [`export_opengotha_event`]).
#[must_use]
pub fn export_opengotha(t: &Tournament, planned: u32) -> String {
    export_opengotha_event(t, planned, &GothaEvent::default())
}

/// A bye's value as OpenGotha writes it: twice the points (`genMMS2ValueBye`, `genMMS2ValueAbsent`).
fn twice(kind: ByeKind) -> &'static str {
    match kind {
        ByeKind::FullPoint => "2",
        ByeKind::HalfPoint => "1",
        ByeKind::ZeroPoint => "0",
    }
}

/// The tournament as an OpenGotha file (see the module doc): players, games with results, byes, and
/// every parameter set OpenGotha's importer requires (it refuses a file without its general,
/// handicap, placement or pairing parameters, and reads an empty number as an error), with this
/// event's values: rounds (`planned`, or those paired if more), McMahon bar and floor, the values of
/// a bye and of an absence, handicaps, placement criteria, seed systems, and the event's facts.
///
/// Only the pairing's odd player is a `ByePlayer` (OpenGotha keeps one a round); a player excused
/// from a round (a requested bye, a rest) is absent that round in `participating`, and the absence's
/// value is the one most such byes had.
#[must_use]
pub fn export_opengotha_event(t: &Tournament, planned: u32, event: &GothaEvent) -> String {
    use crate::event::ByeReason;
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
            // Excused from the round (not the pairing's odd player): absent that round.
            let excused = t
                .rounds
                .get(round - 1)
                .is_some_and(|r| r.byes.iter().any(|b| b.player == *id && b.reason != ByeReason::Pairing));
            participating.push(if out || excused { '0' } else { '1' });
        }
        let rank = gotha_rank(r.rank);
        let pin = r.egd_pin.map_or_else(String::new, |v| v.to_string());
        let club = r.club.as_deref().unwrap_or("").trim();
        let club = event.club_codes.get(club).map_or(club, String::as_str);
        // OpenGotha takes a country of two letters or none: anything else fails the whole file.
        let country = r.country.as_deref().unwrap_or("").trim();
        let two_letters = country.len() == 2 && country.bytes().all(|b| b.is_ascii_alphabetic());
        let country = if two_letters { country.to_ascii_uppercase() } else { String::new() };
        let mut p = BytesStart::new("Player");
        for (k, v) in [
            ("agaExpirationDate", ""),
            ("agaId", ""),
            ("club", club),
            ("country", &country),
            ("egfPin", &pin),
            ("ffgLicence", ""),
            ("ffgLicenceStatus", ""),
            ("firstName", given),
            ("grade", &rank),
            ("name", surname),
            ("participating", &participating),
            ("rank", &rank),
        ] {
            p.push_attribute((k, v));
        }
        // An empty rating fails OpenGotha's number parse: no rating, no attribute (its default).
        if let Some(rating) = r.rating {
            p.push_attribute(("rating", rating.to_string().as_str()));
            p.push_attribute(("ratingOrigin", "EGF"));
        } else {
            p.push_attribute(("ratingOrigin", ""));
        }
        p.push_attribute(("registeringStatus", "FIN"));
        p.push_attribute(("smmsCorrection", "0"));
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
        for b in round.byes.iter().filter(|b| b.reason == ByeReason::Pairing) {
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
    let cfg = t.config.as_ref();
    // McMahon bar and floor as OpenGotha names them; a Swiss puts everyone in one group.
    let (bar, floor) = match cfg.map(|c| &c.format) {
        Some(crate::config::Format::McMahon { bars, .. }) => (gotha_rank(bars.top), gotha_rank(bars.bottom)),
        _ => ("30K".to_string(), "30K".to_string()),
    };
    let start = if t.started_at.0 > 0 { t.started_at } else { t.created_at };
    let begin = event.begin.unwrap_or_else(|| weiqi_time::CivilDate::from_millis(start));
    let end =
        event.end.or(event.begin).unwrap_or_else(|| weiqi_time::CivilDate::from_millis(t.last_result_at.max(start)));
    let (begin, end) = (begin.to_string(), end.to_string());
    // The values of a bye and of an absence, twice the points, as this tournament scores them.
    let bye = twice(cfg.map_or(ByeKind::FullPoint, |c| c.pairing_bye));
    let mut excused: Vec<ByeKind> = t
        .rounds
        .iter()
        .flat_map(|r| r.byes.iter().filter(|b| b.reason != ByeReason::Pairing).map(|b| b.kind))
        .collect();
    excused.sort_by_key(|k| twice(*k));
    let absent = [ByeKind::ZeroPoint, ByeKind::HalfPoint, ByeKind::FullPoint]
        .into_iter()
        .max_by_key(|k| (excused.iter().filter(|e| *e == k).count(), *k == ByeKind::ZeroPoint))
        .map_or("0", twice);
    let (system, std_seconds, can_moves, can_seconds, fischer_seconds) = match event.overtime {
        GothaOvertime::SuddenDeath => ("SUDDENDEATH", 30, 15, 300, 10),
        GothaOvertime::Standard { seconds } => ("STDBYOYOMI", seconds, 15, 300, 10),
        GothaOvertime::Canadian { moves, seconds } => ("CANBYOYOMI", 30, moves, seconds, 10),
        GothaOvertime::Fischer { seconds } => ("FISCHER", 30, 15, 300, seconds),
    };
    let numbers =
        [event.basic_minutes, std_seconds, can_moves, can_seconds, fischer_seconds, event.size].map(|n| n.to_string());
    let [basic, std_seconds, can_moves, can_seconds, fischer_seconds, size] = &numbers;
    for (k, v) in [
        ("bInternet", if event.internet { "true" } else { "false" }),
        ("basicTime", basic.as_str()),
        ("beginDate", begin.as_str()),
        ("byoYomi", if matches!(event.overtime, GothaOvertime::SuddenDeath) { "false" } else { "true" }),
        ("canByoYomiTime", can_seconds.as_str()),
        ("complementaryTimeSystem", system),
        ("director", event.director.as_str()),
        ("endDate", end.as_str()),
        ("fischerTime", fischer_seconds.as_str()),
        ("genCountNotPlayedGamesAsHalfPoint", "false"),
        ("genMMBar", bar.as_str()),
        ("genMMFloor", floor.as_str()),
        ("genMMS2ValueAbsent", absent),
        ("genMMS2ValueBye", bye),
        ("genMMZero", "30K"),
        ("genNBW2ValueAbsent", absent),
        ("genNBW2ValueBye", bye),
        ("genRoundDownNBWMMS", "true"),
        ("komi", event.komi.as_str()),
        ("location", event.location.as_str()),
        ("name", name),
        ("nbMovesCanTime", can_moves.as_str()),
        ("numberOfCategories", "1"),
        ("numberOfRounds", rounds_text.as_str()),
        ("shortName", if short.is_empty() { "tournament" } else { short.as_str() }),
        ("size", size.as_str()),
        ("stdByoYomiTime", std_seconds.as_str()),
        ("time", basic.as_str()),
    ] {
        general.push_attribute((k, v));
    }
    let _ = w.write_event(Event::Empty(general));
    // Handicaps (OpenGotha refuses a file without them): none, or by rank less the reduction, at
    // most the ceiling.
    let (by_mms, correction, ceiling) = match cfg.map(|c| c.pairing.handicap) {
        Some(crate::weights::HandicapPolicy::ByRank { reduction, ceiling }) => ("false", reduction, ceiling.min(9)),
        _ => ("false", 0, 0),
    };
    let mut handicap = BytesStart::new("HandicapParameterSet");
    for (k, v) in [
        ("hdBasedOnMMS", by_mms.to_string()),
        ("hdCeiling", ceiling.to_string()),
        ("hdCorrection", correction.to_string()),
        ("hdNoHdRankThreshold", if ceiling == 0 { "30K".to_string() } else { "9D".to_string() }),
    ] {
        handicap.push_attribute((k, v.as_str()));
    }
    let _ = w.write_event(Event::Empty(handicap));
    // The placement criteria, in OpenGotha's names (six slots, NULL for the unused).
    let _ = w.write_event(Event::Start(BytesStart::new("PlacementParameterSet")));
    let _ = w.write_event(Event::Start(BytesStart::new("PlacementCriteria")));
    let mut criteria: Vec<&str> =
        cfg.map(|c| c.ranking.iter().filter_map(|&tb| placement_name(tb)).collect()).unwrap_or_default();
    criteria.resize(6, "NULL");
    for (n, name) in criteria.iter().take(6).enumerate() {
        let mut c = BytesStart::new("PlacementCriterion");
        c.push_attribute(("name", *name));
        c.push_attribute(("number", (n + 1).to_string().as_str()));
        let _ = w.write_event(Event::Empty(c));
    }
    let _ = w.write_event(Event::End(BytesEnd::new("PlacementCriteria")));
    let _ = w.write_event(Event::End(BytesEnd::new("PlacementParameterSet")));
    // The seed systems inside a score group, as this tournament pairs (crate::seeding).
    let seeding = cfg.map(|c| c.pairing.seeding).unwrap_or_default();
    let mut pairing = BytesStart::new("PairingParameterSet");
    let last_first = seeding.last_round_first.to_string();
    for (k, v) in [
        ("paiMaAdditionalPlacementCritSystem1", "Rating"),
        ("paiMaAdditionalPlacementCritSystem2", "NULL"),
        ("paiMaLastRoundForSeedSystem1", last_first.as_str()),
        ("paiMaMaximizeSeeding", "5000000"),
        ("paiMaSeedSystem1", seeding.first.opengotha()),
        ("paiMaSeedSystem2", seeding.second.opengotha()),
    ] {
        pairing.push_attribute((k, v));
    }
    let _ = w.write_event(Event::Empty(pairing));
    let _ = w.write_event(Event::End(BytesEnd::new("TournamentParameterSet")));
    let _ = w.write_event(Event::End(BytesEnd::new("Tournament")));
    let mut out = String::from_utf8(w.into_inner()).unwrap_or_default();
    let _ = writeln!(out);
    out
}

/// A ranking criterion from OpenGotha's name, if this platform has it (`NBW`: the points of a Swiss).
fn criterion_of(name: &str) -> Option<crate::standings::TieBreak> {
    use crate::standings::TieBreak as T;
    Some(match name {
        "MMS" => T::Mms,
        "NBW" => T::Points,
        "SOSW" => T::Sos,
        "SOSOSW" => T::Sosos,
        "SODOSW" => T::Sodos,
        "SOSM" => T::Sosm,
        "SOSOSM" => T::Sososm,
        _ => return None,
    })
}

/// OpenGotha's name for a ranking criterion, if it has one.
fn placement_name(tb: crate::standings::TieBreak) -> Option<&'static str> {
    use crate::standings::TieBreak as T;
    Some(match tb {
        T::Mms => "MMS",
        T::Points | T::Wins => "NBW",
        T::Sos => "SOSW",
        T::Sosos => "SOSOSW",
        T::Sodos => "SODOSW",
        T::Sosm => "SOSM",
        T::Sososm => "SOSOSM",
        _ => return None,
    })
}

/// Surname and given name from the Latin name (split at its first space), else from the name in
/// Chinese script (its first character the surname, the rest the given name). OpenGotha refuses a
/// file with an empty surname or given name, so a missing part is written `-`.
fn split_name(latin: &str, zh: &str) -> (String, String) {
    let or_dash = |s: &str| if s.trim().is_empty() { "-".to_string() } else { s.trim().to_string() };
    let latin = latin.trim();
    if latin.is_empty() {
        let zh = zh.trim();
        let mut chars = zh.chars();
        let surname: String = chars.next().map(String::from).unwrap_or_default();
        return (or_dash(&surname), or_dash(chars.as_str()));
    }
    match latin.split_once(char::is_whitespace) {
        Some((surname, given)) => (or_dash(surname), or_dash(given)),
        None => (latin.to_string(), "-".to_string()),
    }
}

/// A game as an OpenGotha file lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GothaGame {
    /// Round, from 1.
    pub round: u32,
    /// Table, from 1.
    pub table: u32,
    /// Black's key.
    pub black: String,
    /// White's key.
    pub white: String,
    /// Handicap stones.
    pub handicap: u8,
    /// The result (`None`: `RESULT_UNKNOWN`).
    pub result: Option<crate::outcome::GameResult>,
}

/// A whole OpenGotha tournament: general parameters, players, games and byes.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GothaTournament {
    /// `GeneralParameterSet/@name`.
    pub name: String,
    /// `numberOfRounds`.
    pub rounds: u32,
    /// McMahon bar and floor (`genMMBar`, `genMMFloor`), when they read as ranks.
    pub bars: Option<(Rank, Rank)>,
    /// Seed systems (`paiMaSeedSystem1`, `paiMaLastRoundForSeedSystem1`, `paiMaSeedSystem2`).
    pub seeding: Option<crate::seeding::Seeding>,
    /// Players in file order.
    pub players: Vec<GothaPlayer>,
    /// Games in file order.
    pub games: Vec<GothaGame>,
    /// Byes: (round, player key).
    pub byes: Vec<(u32, String)>,
    /// What a bye scores (`genMMS2ValueBye`), when the file says.
    pub bye_kind: Option<ByeKind>,
    /// What an absence scores (`genMMS2ValueAbsent`), when the file says.
    pub absent_kind: Option<ByeKind>,
    /// The placement criteria this platform has, in the file's order (`NBW`, `SOSW`, `MMS`, …).
    pub criteria: Vec<crate::standings::TieBreak>,
}

/// Why a tournament file's rounds cannot be imported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GothaImportError {
    /// The file could not be read.
    #[error("{0}")]
    File(#[from] GothaError),
    /// A game or bye names a player the file does not list.
    #[error("round {round}: no player with the key {key} in the file")]
    UnknownPlayer {
        /// The round.
        round: u32,
        /// The key.
        key: String,
    },
    /// An attribute that must be a number is not.
    #[error("{element}/@{attribute} is not a number: {value:?}")]
    NotANumber {
        /// The element.
        element: &'static str,
        /// The attribute.
        attribute: &'static str,
        /// The text.
        value: String,
    },
    /// A round is missing between two that are present.
    #[error("round {0} has no games or byes, but a later round has")]
    MissingRound(u32),
    /// A game of an earlier round has no result while a later round was paired.
    #[error("round {round}, table {table}: no result, but round {later} was paired")]
    OpenGame {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The later round.
        later: u32,
    },
}

fn result_of(code: &str) -> Option<crate::outcome::GameResult> {
    use crate::outcome::GameResult;
    let (base, by_default) = match code.strip_suffix("_BYDEF") {
        Some(b) => (b, true),
        None => (code, false),
    };
    let outcome = match base {
        "RESULT_BLACKWINS" => Outcome::Win(Color::Black),
        "RESULT_WHITEWINS" => Outcome::Win(Color::White),
        "RESULT_EQUAL" => Outcome::Draw,
        "RESULT_BOTHLOSE" | "RESULT_BOTHLOOSE" => Outcome::BothLose,
        _ => return None,
    };
    Some(GameResult { outcome, reason: if by_default { ResultReason::Forfeit } else { ResultReason::Played } })
}

/// Reads a whole OpenGotha tournament file (see the module doc).
///
/// # Errors
/// [`GothaImportError`] for XML that is not an OpenGotha tournament or numbers that do not read.
pub fn read_tournament(xml: &str) -> Result<GothaTournament, GothaImportError> {
    let num = |element: &'static str, attribute: &'static str, value: &str| {
        value.trim().parse::<u32>().map_err(|_| GothaImportError::NotANumber {
            element,
            attribute,
            value: value.into(),
        })
    };
    let mut reader = Reader::from_str(xml);
    reader.config_mut().trim_text(true);
    let mut t = GothaTournament::default();
    let mut root = false;
    let (mut seed1, mut seed2, mut last1) = (None, None, None);
    loop {
        let event = reader.read_event().map_err(|e| GothaError::Xml(e.to_string()))?;
        let (Event::Start(e) | Event::Empty(e)) = event else {
            if matches!(event, Event::Eof) {
                break;
            }
            continue;
        };
        let attrs: std::collections::HashMap<String, String> = e
            .attributes()
            .filter_map(Result::ok)
            .filter_map(|a| {
                let v = a.unescape_value().ok()?.trim().to_string();
                Some((String::from_utf8_lossy(a.key.as_ref()).into_owned(), v))
            })
            .collect();
        let get = |k: &str| attrs.get(k).map_or("", String::as_str);
        match e.name().as_ref() {
            b"Tournament" => root = true,
            b"Player" if root => t.players.push(player(&e)?),
            b"Game" if root => t.games.push(GothaGame {
                round: num("Game", "roundNumber", get("roundNumber"))?,
                table: num("Game", "tableNumber", get("tableNumber"))?,
                black: get("blackPlayer").to_string(),
                white: get("whitePlayer").to_string(),
                handicap: u8::try_from(num(
                    "Game",
                    "handicap",
                    if get("handicap").is_empty() { "0" } else { get("handicap") },
                )?)
                .unwrap_or(9)
                .min(9),
                result: result_of(get("result")),
            }),
            b"ByePlayer" if root => {
                t.byes.push((num("ByePlayer", "roundNumber", get("roundNumber"))?, get("player").to_string()))
            }
            b"GeneralParameterSet" if root => {
                t.name = get("name").to_string();
                if !get("numberOfRounds").is_empty() {
                    t.rounds = num("GeneralParameterSet", "numberOfRounds", get("numberOfRounds"))?;
                }
                if let (Ok(top), Ok(bottom)) = (get("genMMBar").parse::<Rank>(), get("genMMFloor").parse::<Rank>()) {
                    t.bars = Some((top, bottom));
                }
                let kind = |v: &str| match v.trim() {
                    "0" => Some(ByeKind::ZeroPoint),
                    "1" => Some(ByeKind::HalfPoint),
                    "2" => Some(ByeKind::FullPoint),
                    _ => None,
                };
                t.bye_kind = kind(get("genMMS2ValueBye"));
                t.absent_kind = kind(get("genMMS2ValueAbsent"));
            }
            b"PlacementCriterion" if root => {
                if let Some(c) = criterion_of(get("name")) {
                    t.criteria.push(c);
                }
            }
            b"PairingParameterSet" if root => {
                seed1 = crate::seeding::SeedSystem::parse(get("paiMaSeedSystem1"));
                seed2 = crate::seeding::SeedSystem::parse(get("paiMaSeedSystem2"));
                last1 = get("paiMaLastRoundForSeedSystem1").parse::<u32>().ok();
            }
            _ => {}
        }
    }
    if !root {
        return Err(GothaError::NotATournament.into());
    }
    if let (Some(first), Some(second)) = (seed1, seed2) {
        t.seeding = Some(crate::seeding::Seeding { first, last_round_first: last1.unwrap_or(2), second });
    }
    Ok(t)
}

impl GothaTournament {
    /// A configuration for the file's event: McMahon between its bar and floor when it has them,
    /// else Swiss; its rounds (at least those played) and its seed systems.
    #[must_use]
    pub fn config(&self, seed: u64) -> crate::config::TournamentConfig {
        use crate::config::{Format, McMahonBars, TournamentConfig};
        let played = self.games.iter().map(|g| g.round).chain(self.byes.iter().map(|b| b.0)).max().unwrap_or(0);
        let rounds = self.rounds.max(played).max(1);
        // A bar equal to the floor puts everyone in one group: a Swiss.
        let format = match self.bars {
            Some((top, bottom)) if top != bottom => Format::McMahon { rounds, bars: McMahonBars { top, bottom } },
            _ => Format::Swiss { rounds },
        };
        let name = if self.name.trim().is_empty() { "OpenGotha import" } else { self.name.trim() };
        let mut c = TournamentConfig::new(name, format, seed);
        if let Some(s) = self.seeding {
            c.pairing.seeding = s;
        }
        // The file's placement criteria, when it names any this platform has (else the format's).
        if !self.criteria.is_empty() {
            c.ranking = self.criteria.clone();
        }
        c
    }

    /// The commands that replay the file's rounds on a started Swiss or McMahon tournament whose
    /// players are registered (`ids` maps each file key to the player): per round, every game fixed
    /// by hand with its colors and every bye granted, the round paired, then every result recorded
    /// (forfeits as forfeits). The rounds stop at the first one whose games are not all decided, which
    /// is imported as paired with the results it has.
    ///
    /// What does not carry over: OpenGotha's table numbers (tables follow the file's game order) and
    /// the handicap of a fixed game (the platform's handicap policy applies to paired games only).
    ///
    /// # Errors
    /// [`GothaImportError`]: an unknown key, a gap between rounds, an undecided game before a later round.
    pub fn replay(
        &self,
        ids: &std::collections::HashMap<String, crate::ids::PlayerId>,
    ) -> Result<Vec<crate::command::Command>, GothaImportError> {
        use crate::command::Command;
        let last = self.games.iter().map(|g| g.round).chain(self.byes.iter().map(|b| b.0)).max().unwrap_or(0);
        let id = |round: u32, key: &str| {
            ids.get(key).copied().ok_or_else(|| GothaImportError::UnknownPlayer { round, key: key.to_string() })
        };
        let mut commands = Vec::new();
        for round in 1..=last {
            let mut games: Vec<&GothaGame> = self.games.iter().filter(|g| g.round == round).collect();
            games.sort_by_key(|g| g.table);
            let byes: Vec<&(u32, String)> = self.byes.iter().filter(|b| b.0 == round).collect();
            if games.is_empty() && byes.is_empty() {
                return Err(GothaImportError::MissingRound(round));
            }
            for g in &games {
                commands.push(Command::FixPairing { round, black: id(round, &g.black)?, white: id(round, &g.white)? });
            }
            for (_, key) in &byes {
                let kind = self.bye_kind.unwrap_or(ByeKind::FullPoint);
                commands.push(Command::GrantBye { round, player: id(round, key)?, kind });
            }
            // Players in neither a game nor a bye were absent that round (OpenGotha's `participating`
            // flag): a zero-point bye, so the pairing does not pair them among themselves.
            let mut placed: std::collections::HashSet<&str> = byes.iter().map(|b| b.1.as_str()).collect();
            placed.extend(games.iter().flat_map(|g| [g.black.as_str(), g.white.as_str()]));
            let mut absent: Vec<(&String, &crate::ids::PlayerId)> =
                ids.iter().filter(|(k, _)| !placed.contains(k.as_str())).collect();
            absent.sort_by_key(|(_, p)| **p);
            for (_, &player) in absent {
                let kind = self.absent_kind.unwrap_or(ByeKind::ZeroPoint);
                commands.push(Command::GrantBye { round, player, kind });
            }
            commands.push(Command::PairRound);
            for (k, g) in games.iter().enumerate() {
                match g.result {
                    Some(result) => commands.push(Command::RecordResult {
                        game: crate::ids::GameRef { round, table: k as u32 + 1 },
                        result,
                    }),
                    None if round < last => {
                        return Err(GothaImportError::OpenGame { round, table: g.table, later: last });
                    }
                    None => {}
                }
            }
        }
        Ok(commands)
    }
}
