//! The tournament log's events on the wire: every event is an encoded `weiqi.v1.TournamentEventEnvelope`
//! (ids, sequence, server time, cause, actor, body, and a result's fact), except published standings,
//! which are the public event `weiqi.v1.TournamentResultsPublished` with that message as the whole
//! payload, so consumers (the ranking service) read them without the private envelope.
//!
//! Read back: typed bodies, the JSON core events of earlier versions (the upgrade path, see the crate
//! doc), and standings published inside the envelope by earlier versions.

use prost::Message;
use weiqi_eventlog::{NewEvent, RecordedEvent};
use weiqi_game::convert::{
    actor_from_pb, actor_to_pb, ruleset_from_pb, ruleset_to_pb, time_control_from_pb, time_control_to_pb,
};
use weiqi_game::domain::{Actor, SpectatorDelay};
use weiqi_pairing::ids::{Millis, PlayerId};
use weiqi_proto::v1 as pb;
use weiqi_rules::{Komi, Ruleset};

use crate::aggregate::{Body, Event, Placing, Published, ResultFact, RoundsImported, StandingRow};
use crate::convert::{self, BadRequest, DecodeError};
use crate::facts::EventFacts;
use crate::settings::GameSettings;
use weiqi_time::CivilDate;

/// The public event type of published standings (see the module doc).
pub const RESULTS_PUBLISHED: &str = weiqi_proto::event_types::TOURNAMENT_RESULTS_PUBLISHED;
/// The event type of the game settings recorded with `Created`.
pub const GAME_SETTINGS: &str = "weiqi.v1.TournamentGameSettings";
/// The event type of a registered player's account.
pub const ENTRANT: &str = "weiqi.v1.TournamentEntrant";
/// The event type of an import's marker.
pub const ROUNDS_IMPORTED: &str = "weiqi.v1.TournamentRoundsImported";
/// The event's facts (dates, place, director, club codes).
pub const FACTS: &str = "weiqi.v1.TournamentFacts";
/// The event type earlier versions stored published standings under (inside the envelope).
pub const STANDINGS_PUBLISHED_V1: &str = "weiqi.v1.TournamentStandingsPublished";

/// One stored tournament event with its place in the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// Its sequence in the tournament's log.
    pub sequence: u64,
    /// A unique id (empty for public events, which carry none).
    pub event_id: String,
    /// Server time of the decision.
    pub at: Millis,
    /// The command that caused it.
    pub causation: String,
    /// Who issued the command.
    pub actor: Actor,
    /// The event.
    pub event: Event,
}

/// The event type a body is stored under.
pub fn type_name(body: &Body) -> String {
    match body {
        Body::Domain(e) => format!("weiqi.v1.tournament.{}", convert::event_type(e)),
        Body::Settings(_) => GAME_SETTINGS.into(),
        Body::Entrant { .. } => ENTRANT.into(),
        Body::Published(_) => RESULTS_PUBLISHED.into(),
        Body::Imported(_) => ROUNDS_IMPORTED.into(),
        Body::Facts(_) => FACTS.into(),
    }
}

/// The stored form of an event (what [`decode`] reads back).
pub fn encode(tournament_id: &str, r: &Recorded) -> NewEvent {
    let name = type_name(&r.event.body);
    let payload = match &r.event.body {
        Body::Published(p) => published_to_pb(tournament_id, p, r.at, &r.actor).encode_to_vec(),
        _ => envelope(tournament_id, r).encode_to_vec(),
    };
    NewEvent::new(name, payload)
}

/// The envelope of an event, as replies carry it.
pub fn envelope(tournament_id: &str, r: &Recorded) -> pb::TournamentEventEnvelope {
    pb::TournamentEventEnvelope {
        event_id: r.event_id.clone(),
        tournament_id: tournament_id.to_string(),
        sequence: r.sequence,
        server_time_ms: r.at.0,
        causation_id: r.causation.clone(),
        correlation_id: String::new(),
        actor: Some(actor_to_pb(&r.actor)),
        body: Some(body_to_pb(&r.event.body)),
        result: r.event.result.as_ref().map(fact_to_pb),
    }
}

/// A body as the envelope carries it (published standings as earlier versions stored them: the
/// log itself stores them as the public event).
pub fn body_to_pb(body: &Body) -> pb::tournament_event_envelope::Body {
    use pb::tournament_event_envelope::Body as B;
    match body {
        Body::Domain(e) => B::Core(convert::core_to_pb(e)),
        Body::Settings(s) => B::Settings(settings_to_pb(s)),
        Body::Entrant { player, account } => {
            B::Entrant(pb::TournamentEntrant { player: player.0, account_id: account.clone() })
        }
        Body::Imported(i) => B::Imported(pb::TournamentRoundsImported {
            source: i.source.clone(),
            sha256: i.sha256.clone(),
            rounds: i.rounds,
            games: i.games,
            byes: i.byes,
        }),
        Body::Published(p) => B::Published(pb::TournamentStandingsPublished {
            after_round: p.after_round,
            r#final: p.final_,
            criteria: p.criteria.clone(),
            rows: p.placings.iter().map(|pl| row_to_pb(&pl.row)).collect(),
        }),
        Body::Facts(f) => B::Facts(facts_to_pb(f)),
    }
}

/// Decodes one stored event.
pub fn decode(r: &RecordedEvent) -> Result<Recorded, DecodeError> {
    let at = |e: String| DecodeError(format!("sequence {}: {e}", r.sequence));
    if r.event_type == RESULTS_PUBLISHED {
        let m = pb::TournamentResultsPublished::decode(r.payload.clone()).map_err(|e| at(e.to_string()))?;
        let actor = match &m.published_by {
            Some(a) => actor_from_pb(a).map_err(|e| at(e.to_string()))?,
            None => Actor::System("tournament".into()),
        };
        return Ok(Recorded {
            sequence: r.sequence,
            event_id: String::new(),
            at: Millis(m.published_at_ms),
            causation: r.command_id.as_str().to_string(),
            actor,
            event: Event::plain(Body::Published(published_from_pb(&m))),
        });
    }
    let env = pb::TournamentEventEnvelope::decode(r.payload.clone()).map_err(|e| at(e.to_string()))?;
    let body = body_from_pb(env.body.as_ref()).map_err(|e| at(e.0))?;
    let actor = match &env.actor {
        Some(a) => actor_from_pb(a).map_err(|e| at(e.to_string()))?,
        None => Actor::System("tournament".into()),
    };
    Ok(Recorded {
        sequence: r.sequence,
        event_id: env.event_id.clone(),
        at: Millis(env.server_time_ms),
        causation: env.causation_id.clone(),
        actor,
        event: Event { body, result: env.result.as_ref().map(fact_from_pb).transpose().map_err(|e| at(e.0))? },
    })
}

/// The body of a stored envelope: a typed core event, or the JSON core event of an earlier version
/// (the upgrade path; the same core event either way).
pub fn body_from_pb(b: Option<&pb::tournament_event_envelope::Body>) -> Result<Body, DecodeError> {
    use pb::tournament_event_envelope::Body as B;
    match b {
        Some(B::Core(c)) => Ok(Body::Domain(convert::core_from_pb(c)?)),
        Some(B::Domain(d)) => Ok(Body::Domain(convert::domain_from_pb(d)?)),
        Some(B::Settings(s)) => Ok(Body::Settings(settings_from_pb(s).map_err(|e| DecodeError(e.to_string()))?)),
        Some(B::Entrant(e)) => Ok(Body::Entrant { player: PlayerId(e.player), account: e.account_id.clone() }),
        Some(B::Imported(i)) => Ok(Body::Imported(RoundsImported {
            source: i.source.clone(),
            sha256: i.sha256.clone(),
            rounds: i.rounds,
            games: i.games,
            byes: i.byes,
        })),
        Some(B::Published(p)) => Ok(Body::Published(Published {
            after_round: p.after_round,
            final_: p.r#final,
            criteria: p.criteria.clone(),
            placings: p.rows.iter().map(|row| Placing { row: row_from_pb(row), ..Placing::default() }).collect(),
        })),
        Some(B::Facts(f)) => Ok(Body::Facts(facts_from_pb(f).map_err(|e| DecodeError(e.to_string()))?)),
        None => Err(DecodeError("empty envelope".into())),
    }
}

/// How the games are played, from the wire (a request or the log): a full ruleset wins over a preset
/// name; size 0 is 19; lateness 0 is the game service's default.
///
/// # Errors
/// A ruleset or time control that is not one.
pub fn settings_from_pb(s: &pb::TournamentGameSettings) -> Result<GameSettings, BadRequest> {
    let bad = |code, message: String| BadRequest { code, message };
    let mut ruleset = match &s.ruleset {
        Some(r) => ruleset_from_pb(r).map_err(|e| bad("bad_ruleset", e.to_string()))?,
        None if s.rules.is_empty() => Ruleset::chinese(),
        None => Ruleset::preset(&s.rules).ok_or_else(|| bad("bad_rules", format!("unknown ruleset {:?}", s.rules)))?,
    };
    if let Some(k) = s.komi_half_points {
        ruleset.komi = Komi(k);
    }
    let size = match s.size {
        0 => 19,
        n => u8::try_from(n).map_err(|_| bad("bad_size", format!("size = {n} is out of range: 2 to 25")))?,
    };
    // Every number from outside is range-checked: a negative limit was once taken as "the default".
    if !(0..=crate::aggregate::MAX_LATENESS_MS).contains(&s.lateness_limit_ms) {
        return Err(bad(
            "out_of_range",
            format!("lateness_limit_ms = {} is out of range: 0 (the default) to 24 hours", s.lateness_limit_ms),
        ));
    }
    let spectator_delay = match (s.spectator_delay_minutes, s.spectator_delay_moves) {
        (Some(_), Some(_)) => {
            return Err(bad("out_of_range", "spectator_delay_minutes and spectator_delay_moves: at most one".into()));
        }
        (Some(0), None) | (None, Some(0)) => None,
        (Some(m), None) => Some(SpectatorDelay::Minutes(m)),
        (None, Some(n)) => Some(SpectatorDelay::Moves(n)),
        // Neither: the default for a new event's request (the service fills it in), live in a
        // stored event written before delays existed.
        (None, None) => None,
    };
    if spectator_delay.is_some_and(|d| !d.in_range()) {
        return Err(bad(
            "out_of_range",
            format!(
                "the spectators' delay is out of range: at most {} minutes or {} moves",
                SpectatorDelay::MAX_MINUTES,
                SpectatorDelay::MAX_MOVES
            ),
        ));
    }
    Ok(GameSettings {
        spectator_delay,
        event_id: (!s.event_id.is_empty()).then(|| s.event_id.clone()),
        size,
        ruleset,
        time_control: time_control_from_pb(s.time_control.as_ref())
            .map_err(|e| bad("bad_time_control", e.to_string()))?,
        rated: s.rated,
        auto_pair: s.auto_pair,
        lateness_limit: (s.lateness_limit_ms > 0).then_some(weiqi_clock::DurationMs(s.lateness_limit_ms)),
        manual_start: s.manual_start,
        no_automatic_no_shows: s.no_automatic_no_shows,
    })
}

/// How the games are played, for the wire (reads back as the same settings).
pub fn settings_to_pb(s: &GameSettings) -> pb::TournamentGameSettings {
    pb::TournamentGameSettings {
        event_id: s.event_id.clone().unwrap_or_default(),
        size: u32::from(s.size),
        rules: s.ruleset.family.name().to_string(),
        ruleset: Some(ruleset_to_pb(&s.ruleset)),
        komi_half_points: Some(s.ruleset.komi.0),
        time_control: Some(time_control_to_pb(&s.time_control)),
        rated: s.rated,
        auto_pair: s.auto_pair,
        lateness_limit_ms: s.lateness_limit.map_or(0, |d| d.0),
        manual_start: s.manual_start,
        no_automatic_no_shows: s.no_automatic_no_shows,
        // Always written (0 minutes: live), so a stored event never falls back on a default.
        spectator_delay_minutes: match s.spectator_delay {
            None => Some(0),
            Some(SpectatorDelay::Minutes(m)) => Some(m),
            Some(SpectatorDelay::Moves(_)) => None,
        },
        spectator_delay_moves: match s.spectator_delay {
            Some(SpectatorDelay::Moves(n)) => Some(n),
            _ => None,
        },
    }
}

/// A standings row for the wire.
pub fn row_to_pb(r: &StandingRow) -> pb::TournamentStandingRow {
    pb::TournamentStandingRow {
        place: r.place,
        entrant: r.entrant,
        account_id: r.account.clone(),
        name_zh: r.name_zh.clone(),
        name_latin: r.name_latin.clone(),
        rank: r.rank.clone(),
        club: r.club.clone(),
        region: r.region.clone(),
        values: r.values.clone(),
        decided_by: r.decided_by.clone(),
        shared: r.shared,
        games: r.games,
        wins: r.wins,
        withdrawn: r.withdrawn,
    }
}

/// A standings row from the wire.
pub fn row_from_pb(r: &pb::TournamentStandingRow) -> StandingRow {
    StandingRow {
        place: r.place,
        entrant: r.entrant,
        account: r.account_id.clone(),
        name_zh: r.name_zh.clone(),
        name_latin: r.name_latin.clone(),
        rank: r.rank.clone(),
        club: r.club.clone(),
        region: r.region.clone(),
        values: r.values.clone(),
        decided_by: r.decided_by.clone(),
        shared: r.shared,
        games: r.games,
        wins: r.wins,
        withdrawn: r.withdrawn,
    }
}

/// Published standings as the public event.
pub fn published_to_pb(tournament_id: &str, p: &Published, at: Millis, by: &Actor) -> pb::TournamentResultsPublished {
    pb::TournamentResultsPublished {
        tournament_id: tournament_id.to_string(),
        after_round: p.after_round,
        r#final: p.final_,
        published_at_ms: at.0,
        criteria: p.criteria.clone(),
        placings: p
            .placings
            .iter()
            .map(|pl| pb::TournamentPlacing {
                row: Some(row_to_pb(&pl.row)),
                game_ids: pl.game_ids.clone(),
                byes: pl.byes,
            })
            .collect(),
        published_by: Some(actor_to_pb(by)),
    }
}

/// The public event back into the domain.
pub fn published_from_pb(m: &pb::TournamentResultsPublished) -> Published {
    Published {
        after_round: m.after_round,
        final_: m.r#final,
        criteria: m.criteria.clone(),
        placings: m
            .placings
            .iter()
            .map(|pl| Placing {
                row: pl.row.as_ref().map(row_from_pb).unwrap_or_default(),
                game_ids: pl.game_ids.clone(),
                byes: pl.byes,
            })
            .collect(),
    }
}

/// A result fact on the wire.
pub fn fact_to_pb(f: &ResultFact) -> pb::TournamentResultFact {
    pb::TournamentResultFact {
        round: f.round,
        table: f.table,
        game_id: f.game_id.clone(),
        black_account: f.black_account.clone(),
        white_account: f.white_account.clone(),
        result: Some(convert::result_to_pb(&f.result)),
        correction: f.correction,
    }
}

fn fact_from_pb(f: &pb::TournamentResultFact) -> Result<ResultFact, DecodeError> {
    Ok(ResultFact {
        round: f.round,
        table: f.table,
        game_id: f.game_id.clone(),
        black_account: f.black_account.clone(),
        white_account: f.white_account.clone(),
        result: convert::result_from_pb(f.result.as_ref()).map_err(|e| DecodeError(e.to_string()))?,
        correction: f.correction,
    })
}

/// The stored envelope of an event as it is (`None` for a public event, which has none): for tests and
/// tools that look at the encoding itself.
pub fn stored_envelope(r: &RecordedEvent) -> Option<pb::TournamentEventEnvelope> {
    (r.event_type != RESULTS_PUBLISHED).then(|| pb::TournamentEventEnvelope::decode(r.payload.clone()).ok()).flatten()
}

/// The account a tournament event registers a player under, when it is a registration's `Entrant`
/// (the web's index of who plays in tournaments reads the log with this, without decoding more).
pub fn registered_account(r: &RecordedEvent) -> Option<String> {
    match stored_envelope(r)?.body? {
        pb::tournament_event_envelope::Body::Entrant(e) if !e.account_id.is_empty() => Some(e.account_id),
        _ => None,
    }
}

/// An event's facts for the wire.
pub fn facts_to_pb(f: &EventFacts) -> pb::TournamentFacts {
    let date = |d: Option<CivilDate>| d.map(|d| d.to_string()).unwrap_or_default();
    pb::TournamentFacts {
        start_date: date(f.start),
        end_date: date(f.end),
        city: f.city.clone(),
        city_latin: f.city_latin.clone(),
        country: f.country.clone(),
        director: f.director.clone(),
        club_codes: f.club_codes.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
    }
}

/// An event's facts from the wire (a request or the log), checked.
///
/// # Errors
/// A date that is not `YYYY-MM-DD`, or a fact [`EventFacts::validate`] refuses.
pub fn facts_from_pb(f: &pb::TournamentFacts) -> Result<EventFacts, BadRequest> {
    let date = |what: &str, s: &str| -> Result<Option<CivilDate>, BadRequest> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(None);
        }
        s.parse()
            .map(Some)
            .map_err(|_| BadRequest { code: "bad_date", message: format!("{what} {s:?} is not a YYYY-MM-DD date") })
    };
    let facts = EventFacts {
        start: date("start_date", &f.start_date)?,
        end: date("end_date", &f.end_date)?,
        city: f.city.trim().to_string(),
        city_latin: f.city_latin.trim().to_string(),
        country: f.country.trim().to_string(),
        director: f.director.trim().to_string(),
        club_codes: f.club_codes.iter().map(|(k, v)| (k.trim().to_string(), v.trim().to_string())).collect(),
    };
    facts.validate()?;
    Ok(facts)
}
