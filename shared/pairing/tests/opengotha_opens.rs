//! Issue 30 item 16: a file OpenGotha loads. The reader below is written from OpenGotha 3.51's
//! importer (`ExternalDocument.importTournamentFromXMLFile` and the methods it calls, read in the
//! source of `lucvannier/opengotha`, not copied): it refuses what makes OpenGotha refuse the file
//! ("Some problem occured with file …") and what it would open wrong, without a word:
//!
//! * a missing `GeneralParameterSet`, `HandicapParameterSet`, `PlacementParameterSet` or
//!   `PairingParameterSet` (a null element dereferenced);
//! * an empty number (`rating=""`: `Integer.parseInt("")`), a player without a surname or given
//!   name, a country that is not two letters or none;
//! * `dataVersion` absent or below 201 (every rating gets 2050 more; players are looked up by Latin
//!   letters only, so games of players with Chinese names are dropped);
//! * a game or bye whose player key matches no player (skipped), two games on one table of a round
//!   (the later replaces the earlier), two byes in a round (the last wins);
//! * dates that are not `yyyy-MM-dd` (today instead), ranks that do not read (-99), placement
//!   criteria OpenGotha does not name;
//! * general parameters left to the importer's defaults where they are not OpenGotha's own:
//!   `location` (Paris), `complementaryTimeSystem` (Canadian byo-yomi), `genMMS2ValueAbsent`,
//!   `genMMS2ValueBye`, `genNBW2ValueBye` (0).

use std::collections::{BTreeMap, HashMap, HashSet};

use quick_xml::Reader;
use quick_xml::events::Event;
use weiqi_pairing::command::Command;
use weiqi_pairing::config::{ByeKind, Format, McMahonBars, TournamentConfig};
use weiqi_pairing::event::WithdrawalReason;
use weiqi_pairing::ids::{Color, GameRef, PlayerId};
use weiqi_pairing::opengotha::{GothaEvent, GothaOvertime, export_opengotha_event};
use weiqi_pairing::outcome::{GameResult, Outcome, ResultReason};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::simulate::Simulation;

/// What OpenGotha would have after opening the file.
#[derive(Debug, Default)]
struct Opened {
    /// Player key → (club as OpenGotha keeps it: 4 characters, participating).
    players: BTreeMap<String, (String, String)>,
    games: usize,
    byes: usize,
    general: HashMap<String, String>,
    handicap: HashMap<String, String>,
    criteria: Vec<String>,
}

/// OpenGotha's `Player.convertKDPToInt`: `12K` → -12, `1D` → 0, `1P` → 6; -99 when it does not read.
fn kdp(s: &str) -> i32 {
    let s = s.trim();
    let Some(last) = s.chars().last() else { return -99 };
    let number = &s[..s.len() - last.len_utf8()];
    let Ok(n) = number.parse::<i32>() else { return -99 };
    let v = match last.to_ascii_uppercase() {
        'K' => -n,
        'D' => n - 1,
        'P' => match n {
            1..=3 => 6,
            4..=6 => 7,
            _ => 8,
        },
        c if c.is_ascii_digit() && !number.is_empty() => -(s.parse::<i32>().unwrap_or(99)),
        _ => return -99,
    };
    v.clamp(-30, 8)
}

/// OpenGotha's `Player.computeKeyString`: name and first name, spaces removed, in capitals.
fn key(name: &str, first: &str) -> String {
    format!("{name}{first}").replace(' ', "").to_uppercase()
}

const CRITERIA: &[&str] = &[
    "NULL", "CAT", "NBW", "CPS", "MMS", "STS", "Rank", "Rating", "CUSSW", "CUSSM", "SOSW", "SOSW-1", "SOSW-2",
    "SODOSW", "SOSM", "SOSM-1", "SOSM-2", "SODOSM", "SOSTS", "SOSOSW", "SOSOSM", "EXT", "EXR", "DC", "SDC",
];

const RESULTS: &[&str] =
    &["RESULT_UNKNOWN", "RESULT_WHITEWINS", "RESULT_BLACKWINS", "RESULT_EQUAL", "RESULT_BOTHLOSE", "RESULT_BOTHWIN"];

/// Opens the file as OpenGotha's importer would, or says why it would fail or go wrong.
fn opengotha_opens(xml: &str) -> Result<Opened, String> {
    // Every element with its attributes, in document order (the importer finds elements by tag name
    // anywhere in the document).
    let mut elements: Vec<(String, HashMap<String, String>)> = Vec::new();
    let mut reader = Reader::from_str(xml);
    loop {
        match reader.read_event().map_err(|e| format!("malformed XML (opens as an empty tournament): {e}"))? {
            Event::Start(e) | Event::Empty(e) => {
                let mut attrs = HashMap::new();
                for a in e.attributes() {
                    let a = a.map_err(|e| format!("malformed attribute: {e}"))?;
                    let v = a.unescape_value().map_err(|e| format!("malformed attribute: {e}"))?;
                    attrs.insert(String::from_utf8_lossy(a.key.as_ref()).into_owned(), v.into_owned());
                }
                elements.push((String::from_utf8_lossy(e.name().as_ref()).into_owned(), attrs));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    fn all<'a>(
        elements: &'a [(String, HashMap<String, String>)],
        name: &'a str,
    ) -> impl Iterator<Item = &'a HashMap<String, String>> {
        elements.iter().filter(move |(n, _)| n == name).map(|(_, a)| a)
    }
    let first = |name: &str| elements.iter().find(|(n, _)| n == name).map(|(_, a)| a);
    // An absent attribute takes the importer's default; an empty one fails the number parse.
    let number = |element: &str, a: &HashMap<String, String>, attr: &str| -> Result<Option<i64>, String> {
        match a.get(attr) {
            None => Ok(None),
            Some(v) => {
                v.parse::<i64>().map(Some).map_err(|_| format!("{element}/@{attr}={v:?}: NumberFormatException"))
            }
        }
    };
    let root = first("Tournament").ok_or("no <Tournament>: NullPointerException")?;
    match number("Tournament", root, "dataVersion")? {
        Some(v) if v >= 201 => {}
        v => return Err(format!("dataVersion {v:?} < 201: ratings +2050, players looked up by Latin letters only")),
    }
    let mut opened = Opened::default();
    for p in all(&elements, "Player") {
        let (name, first_name) =
            (p.get("name").cloned().unwrap_or_default(), p.get("firstName").cloned().unwrap_or_default());
        if name.is_empty() || first_name.is_empty() {
            return Err(format!(
                "player {name:?} {first_name:?}: empty name (PlayerException, then NullPointerException)"
            ));
        }
        let country = p.get("country").map_or(0, |c| c.chars().count());
        if country != 0 && country != 2 {
            return Err(format!("player {name} {first_name}: country {:?} is not 2 letters", p.get("country")));
        }
        number("Player", p, "rating")?;
        number("Player", p, "smmsCorrection")?;
        let rank = p.get("rank").map_or("30K", String::as_str);
        if kdp(rank) == -99 && kdp(p.get("grade").map_or("", String::as_str)) == -99 {
            return Err(format!("player {name} {first_name}: rank {rank:?} does not read (-99)"));
        }
        let k = key(&name, &first_name);
        let club: String = p.get("club").map_or("", String::as_str).chars().take(4).collect();
        let participating = p.get("participating").cloned().unwrap_or_default();
        if opened.players.insert(k.clone(), (club, participating)).is_some() {
            return Err(format!("two players with the key {k}: the second is not imported"));
        }
    }
    let mut tables = HashSet::new();
    for g in all(&elements, "Game") {
        let round = number("Game", g, "roundNumber")?.unwrap_or(1);
        let table = number("Game", g, "tableNumber")?.unwrap_or(1);
        number("Game", g, "handicap")?;
        if !(1..=20).contains(&round) {
            return Err(format!("game in round {round}: outside 1..20"));
        }
        for side in ["whitePlayer", "blackPlayer"] {
            let k = g.get(side).map_or(String::new(), |v| v.replace(' ', "").to_uppercase());
            if !opened.players.contains_key(&k) {
                return Err(format!(
                    "round {round} table {table}: {side} {k:?} is no player's key: the game is skipped"
                ));
            }
        }
        let result = g.get("result").map_or("RESULT_UNKNOWN", String::as_str);
        if !RESULTS.contains(&result.trim_end_matches("_BYDEF")) {
            return Err(format!("round {round} table {table}: result {result:?} is not OpenGotha's (read as unknown)"));
        }
        if !tables.insert(round * 1000 + table) {
            return Err(format!("round {round} table {table}: a second game replaces the first"));
        }
        opened.games += 1;
    }
    let mut bye_rounds = HashSet::new();
    for b in all(&elements, "ByePlayer") {
        let round = number("ByePlayer", b, "roundNumber")?.unwrap_or(1);
        if !(1..=20).contains(&round) {
            return Err(format!("bye in round {round}: ArrayIndexOutOfBoundsException"));
        }
        let k = b.get("player").map_or(String::new(), |v| v.replace(' ', "").to_uppercase());
        if !opened.players.contains_key(&k) {
            return Err(format!("bye in round {round}: {k:?} is no player's key: skipped"));
        }
        if !bye_rounds.insert(round) {
            return Err(format!("two byes in round {round}: the last wins"));
        }
        opened.byes += 1;
    }
    if first("TournamentParameterSet").is_none() {
        return Err("no TournamentParameterSet: an undefined tournament".into());
    }
    for set in ["GeneralParameterSet", "HandicapParameterSet", "PlacementParameterSet", "PairingParameterSet"] {
        if first(set).is_none() {
            return Err(format!("no {set}: NullPointerException"));
        }
    }
    let general = first("GeneralParameterSet").unwrap();
    for attr in [
        "numberOfRounds",
        "numberOfCategories",
        "genNBW2ValueAbsent",
        "genNBW2ValueBye",
        "genMMS2ValueAbsent",
        "genMMS2ValueBye",
    ] {
        number("GeneralParameterSet", general, attr)?;
    }
    if number("GeneralParameterSet", general, "numberOfCategories")? == Some(0) {
        return Err("numberOfCategories 0: NegativeArraySizeException".into());
    }
    // Where the importer's default is not OpenGotha's own, the file must say.
    for attr in [
        "location",
        "complementaryTimeSystem",
        "genMMS2ValueAbsent",
        "genMMS2ValueBye",
        "genNBW2ValueBye",
        "beginDate",
        "endDate",
    ] {
        if !general.contains_key(attr) {
            return Err(format!("GeneralParameterSet/@{attr} absent: the importer's default is not this event's"));
        }
    }
    for attr in ["beginDate", "endDate"] {
        let date = &general[attr];
        let ok = date.len() == 10 && date.parse::<weiqi_time::CivilDate>().is_ok_and(|d| d.year > 1900);
        if !ok {
            return Err(format!("GeneralParameterSet/@{attr}={date:?}: not yyyy-MM-dd, read as today"));
        }
    }
    if !["SUDDENDEATH", "STDBYOYOMI", "CANBYOYOMI", "FISCHER"].contains(&general["complementaryTimeSystem"].as_str()) {
        return Err(format!(
            "complementaryTimeSystem {:?}: read as Canadian byo-yomi",
            general["complementaryTimeSystem"]
        ));
    }
    for attr in ["genMMBar", "genMMFloor"] {
        if general.get(attr).is_some_and(|r| kdp(r) == -99) {
            return Err(format!("GeneralParameterSet/@{attr}={:?} does not read (-99)", general[attr]));
        }
    }
    let handicap = first("HandicapParameterSet").unwrap();
    number("HandicapParameterSet", handicap, "hdCorrection")?;
    number("HandicapParameterSet", handicap, "hdCeiling")?;
    if handicap.get("hdNoHdRankThreshold").is_some_and(|r| kdp(r) == -99) {
        return Err("hdNoHdRankThreshold does not read".into());
    }
    for c in all(&elements, "PlacementCriterion") {
        let n = number("PlacementCriterion", c, "number")?.unwrap_or(1);
        if !(1..=6).contains(&n) {
            return Err(format!("PlacementCriterion number {n}: ArrayIndexOutOfBoundsException"));
        }
        let name = c.get("name").map_or("NULL", String::as_str);
        if !CRITERIA.contains(&name) {
            return Err(format!("placement criterion {name:?} is not OpenGotha's (read as NULL)"));
        }
        opened.criteria.push(name.to_string());
    }
    let pairing = first("PairingParameterSet").unwrap();
    for (attr, value) in pairing {
        if attr.starts_with("paiMaSeed")
            || attr.ends_with("Mode")
            || attr.contains("PlacementCrit")
            || attr.starts_with("paiSeRank")
        {
            continue;
        }
        if value == "true" || value == "false" {
            continue;
        }
        value.parse::<f64>().map_err(|_| format!("PairingParameterSet/@{attr}={value:?}: NumberFormatException"))?;
    }
    opened.general = general.clone();
    opened.handicap = handicap.clone();
    Ok(opened)
}

/// A Chinese McMahon as a director runs it: names in Chinese script only, no ratings, clubs in
/// Chinese, an odd field (a pairing bye), a requested bye, a forfeit and a withdrawal.
fn event() -> Simulation {
    let bars = McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(10) };
    let mut config = TournamentConfig::new("杭州公开赛", Format::McMahon { rounds: 4, bars }, 9);
    config.pairing_bye = ByeKind::FullPoint;
    let mut s = Simulation::new(config, 9).unwrap();
    let names = ["李明", "王芳", "张伟", "陈杰", "刘洋", "赵磊", "孙丽"];
    for (i, n) in names.iter().enumerate() {
        let mut r = Registration::new(PlayerId(i as u32 + 1), "", Rank::from_value(2 - 2 * i as i32));
        r.name_zh = (*n).to_string();
        r.club = Some(if i % 2 == 0 { "杭州棋院" } else { "上海棋院" }.into());
        r.country = Some(if i == 6 { "中国" } else { "CN" }.into());
        s.run(Command::Register { registration: r }).unwrap();
    }
    s.run(Command::Start).unwrap();
    s.run(Command::GrantBye { round: 1, player: PlayerId(7), kind: ByeKind::HalfPoint }).unwrap();
    s.run(Command::PairRound).unwrap();
    let forfeit = GameResult { outcome: Outcome::Win(Color::White), reason: ResultReason::Forfeit };
    s.run(Command::RecordResult { game: GameRef { round: 1, table: 1 }, result: forfeit }).unwrap();
    s.play_round().unwrap();
    s.run(Command::Withdraw { player: PlayerId(6), reason: WithdrawalReason::Request }).unwrap();
    s.play_to_end(3).unwrap();
    s
}

fn facts() -> GothaEvent {
    GothaEvent {
        location: "Hangzhou, CN".into(),
        director: "王立诚".into(),
        begin: Some("2026-11-28".parse().unwrap()),
        end: Some("2026-11-29".parse().unwrap()),
        internet: false,
        size: 19,
        komi: "7.5".into(),
        basic_minutes: 30,
        overtime: GothaOvertime::Standard { seconds: 60 },
        club_codes: [("杭州棋院".to_string(), "Hang".to_string())].into(),
    }
}

#[test]
fn the_file_written_opens_in_opengotha_with_the_events_values() {
    let s = event();
    let xml = export_opengotha_event(&s.state, 4, &facts());
    let opened = opengotha_opens(&xml).unwrap_or_else(|why| panic!("OpenGotha would not open it: {why}\n{xml}"));
    let played: usize = s.state.rounds.iter().map(|r| r.games.len()).sum();
    assert_eq!(opened.games, played, "every game, none skipped");
    assert_eq!(opened.players.len(), 7);
    // Chinese names: the surname is the first character, the given name the rest.
    let (club, participating) = &opened.players["李明"];
    assert_eq!(club, "Hang", "the club's code, not four characters of its name");
    assert!(participating.starts_with('1'));
    // The requested bye is an absence in round 1; the withdrawn player is absent after it.
    assert!(opened.players["孙丽"].1.starts_with('0'), "{xml}");
    let g = &opened.general;
    assert_eq!(
        [
            &g["location"],
            &g["director"],
            &g["beginDate"],
            &g["endDate"],
            &g["complementaryTimeSystem"],
            &g["stdByoYomiTime"]
        ],
        ["Hangzhou, CN", "王立诚", "2026-11-28", "2026-11-29", "STDBYOYOMI", "60"]
    );
    // A pairing bye scores a full point; the one absence was a half-point bye.
    assert_eq!((g["genMMS2ValueBye"].as_str(), g["genMMS2ValueAbsent"].as_str()), ("2", "1"));
    assert_eq!(opened.handicap["hdCeiling"], "0", "even games");
    assert_eq!(&opened.criteria[..3], ["MMS", "SOSM", "SOSOSM"]);
}

#[test]
fn the_reader_refuses_what_opengotha_refuses() {
    let s = event();
    let good = export_opengotha_event(&s.state, 4, &facts());
    assert!(opengotha_opens(&good).is_ok());
    // What this writer wrote before: an empty rating, no handicap parameters, no location.
    let broken = [
        good.replacen("<Player ", "<Player rating=\"\" ", 1),
        good.replace("<HandicapParameterSet", "<Unknown"),
        good.replace(" location=\"Hangzhou, CN\"", ""),
        good.replace(" dataVersion=\"201\"", ""),
        good.replacen("firstName=\"明\"", "firstName=\"\"", 1),
    ];
    for xml in &broken {
        assert!(opengotha_opens(xml).is_err(), "should not open: {xml}");
    }
}
