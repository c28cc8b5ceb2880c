//! The tournament core's types to and from `weiqi.v1` protobuf, once.
//!
//! Everything a client sends or reads is typed protobuf, mapped here. The core's events are stored as
//! typed messages too ([`core_to_pb`], [`core_from_pb`]; the field-by-field mapping is [`crate::codec`]);
//! the versioned JSON that earlier versions stored is still read ([`domain_from_pb`]), never written by
//! the service (see the crate doc, "The log's encoding").

use weiqi_pairing::config::{ByeKind, Format, LineUpRule, McMahonBars, PointSystem, TeamSchedule, TournamentConfig};
use weiqi_pairing::event::{ByeReason, TournamentEvent};
use weiqi_pairing::ids::{Color, Millis, PlayerId};
use weiqi_pairing::outcome::{GameResult, Outcome, ResultReason};
use weiqi_pairing::rank::Rank;
use weiqi_pairing::registration::Registration;
use weiqi_pairing::rejection::Rejection;
use weiqi_pairing::seeding::SeedSystem;
use weiqi_pairing::standings::TieBreak;
use weiqi_pairing::weights::HandicapPolicy;
use weiqi_proto::v1 as pb;

/// The JSON encoding version of [`TournamentEvent`] in `TournamentDomainEvent.schema`: the one earlier
/// versions wrote, and the only one read (frozen: the typed encoding replaced JSON).
pub const DOMAIN_SCHEMA: u32 = 1;

/// A request field that cannot be used, with a stable code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct BadRequest {
    /// Machine-readable reason (`bad_rank`, `missing_format`, …).
    pub code: &'static str,
    /// For people.
    pub message: String,
}

fn bad(code: &'static str, message: impl Into<String>) -> BadRequest {
    BadRequest { code, message: message.into() }
}

/// A stored event that does not decode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("undecodable tournament event: {0}")]
pub struct DecodeError(pub String);

impl From<crate::codec::CodecError> for DecodeError {
    fn from(e: crate::codec::CodecError) -> Self {
        DecodeError(e.to_string())
    }
}

// ---- configuration ----

/// A rank from text ("5k", "3d", "1p").
pub fn rank_from_text(s: &str) -> Result<Rank, BadRequest> {
    s.parse::<Rank>().map_err(|e| bad("bad_rank", e.to_string()))
}

/// The format from the wire.
pub fn format_from_pb(f: Option<&pb::TournamentFormat>) -> Result<Format, BadRequest> {
    use pb::tournament_format::Format as F;
    use pb::tournament_format::team::Schedule;
    let Some(f) = f.and_then(|f| f.format.as_ref()) else {
        return Err(bad("missing_format", "config.format is required"));
    };
    Ok(match f {
        F::Knockout(k) => Format::Knockout { losses: k.losses },
        F::RoundRobin(r) => Format::RoundRobin { cycles: r.cycles },
        F::Swiss(s) => Format::Swiss { rounds: s.rounds },
        F::Mcmahon(m) => Format::McMahon {
            rounds: m.rounds,
            bars: McMahonBars { top: rank_from_text(&m.top_bar)?, bottom: rank_from_text(&m.bottom_bar)? },
        },
        F::SwissElimination(s) => Format::SwissElimination { rounds: s.rounds, losses: s.losses },
        F::Match(m) => Format::Match { wins_needed: m.wins_needed },
        F::FixedMatch(m) => Format::FixedMatch { games: m.games },
        F::GroupsThenKnockout(g) => Format::GroupsThenKnockout { groups: g.groups, advance: g.advance },
        F::Team(t) => Format::Team {
            boards: t.boards,
            line_up: match pb::tournament_format::team::LineUp::try_from(t.line_up) {
                Ok(pb::tournament_format::team::LineUp::PerMatch) => LineUpRule::PerMatch,
                _ => LineUpRule::FixedOrder,
            },
            schedule: match t.schedule {
                Some(Schedule::SwissRounds(rounds)) => TeamSchedule::Swiss { rounds },
                Some(Schedule::RoundRobinCycles(cycles)) => TeamSchedule::RoundRobin { cycles },
                None => TeamSchedule::RoundRobin { cycles: 1 },
            },
        },
        F::TeamRotation(_) => Format::TeamRotation,
        F::WinAndContinue(_) => Format::WinAndContinue,
    })
}

/// The format for people ("McMahon, 5 rounds (bars 3d/20k)").
pub fn format_text(f: &Format) -> String {
    match f {
        Format::Knockout { losses: 1 } => "Knockout".into(),
        Format::Knockout { losses } => format!("Knockout, out at {losses} losses"),
        Format::RoundRobin { cycles: 1 } => "Round robin".into(),
        Format::RoundRobin { cycles } => format!("Round robin, {cycles} cycles"),
        Format::Swiss { rounds } => format!("Swiss, {rounds} rounds"),
        Format::McMahon { rounds, bars } => format!("McMahon, {rounds} rounds (bars {}/{})", bars.top, bars.bottom),
        Format::SwissElimination { rounds, losses } => {
            format!("Swiss with elimination at {losses} losses, {rounds} rounds")
        }
        Format::Match { wins_needed } => format!("Match, best of {}", wins_needed * 2 - 1),
        Format::FixedMatch { games } => format!("Match of {games} games"),
        Format::GroupsThenKnockout { groups, advance } => {
            format!("{groups} groups, top {advance} to a cross knockout")
        }
        Format::Team { boards, .. } => format!("Team event, {boards} boards"),
        Format::TeamRotation => "Full team rotation".into(),
        Format::WinAndContinue => "Win-and-continue (擂台赛)".into(),
    }
}

/// The format as a message of the pages' catalogues (`format-<key>`) and its arguments (ranks in their
/// Latin form, for the page to show as its readers write them): the words are the page's, the facts
/// the tournament's.
pub fn format_message(f: &Format) -> (&'static str, Vec<(&'static str, String)>) {
    match f {
        Format::Knockout { losses: 1 } => ("knockout", vec![]),
        Format::Knockout { losses } => ("knockout-losses", vec![("losses", losses.to_string())]),
        Format::RoundRobin { cycles: 1 } => ("round-robin", vec![]),
        Format::RoundRobin { cycles } => ("round-robin-cycles", vec![("cycles", cycles.to_string())]),
        Format::Swiss { rounds } => ("swiss", vec![("rounds", rounds.to_string())]),
        Format::McMahon { rounds, bars } => (
            "mcmahon",
            vec![("rounds", rounds.to_string()), ("top", bars.top.to_string()), ("bottom", bars.bottom.to_string())],
        ),
        Format::SwissElimination { rounds, losses } => {
            ("swiss-elimination", vec![("rounds", rounds.to_string()), ("losses", losses.to_string())])
        }
        Format::Match { wins_needed } => ("match", vec![("games", (wins_needed * 2 - 1).to_string())]),
        Format::FixedMatch { games } => ("fixed-match", vec![("games", games.to_string())]),
        Format::GroupsThenKnockout { groups, advance } => {
            ("groups-knockout", vec![("groups", groups.to_string()), ("advance", advance.to_string())])
        }
        Format::Team { boards, .. } => ("team", vec![("boards", boards.to_string())]),
        Format::TeamRotation => ("team-rotation", vec![]),
        Format::WinAndContinue => ("win-and-continue", vec![]),
    }
}

/// How a bye scores, from the wire (unspecified: full point).
pub fn bye_kind_from_pb(kind: i32) -> ByeKind {
    use pb::tournament_config::ByeKind as K;
    match K::try_from(kind) {
        Ok(K::HalfPoint) => ByeKind::HalfPoint,
        Ok(K::ZeroPoint) => ByeKind::ZeroPoint,
        _ => ByeKind::FullPoint,
    }
}

/// The core configuration from the wire; `seed` replaces a zero seed.
pub fn config_from_pb(c: &pb::TournamentConfig, seed: u64) -> Result<TournamentConfig, BadRequest> {
    if c.name.trim().is_empty() {
        return Err(bad("missing_name", "config.name is required"));
    }
    let format = format_from_pb(c.format.as_ref())?;
    let mut config = TournamentConfig::new(c.name.trim(), format, if c.seed == 0 { seed } else { c.seed });
    if let Some(p) = &c.points {
        config.points = PointSystem { win: p.win, draw: p.draw, loss: p.loss };
    }
    if !c.ranking.is_empty() {
        config.ranking = c
            .ranking
            .iter()
            .map(|n| TieBreak::from_name(n).ok_or_else(|| bad("bad_tie_break", format!("unknown criterion {n:?}"))))
            .collect::<Result<_, _>>()?;
    }
    config.pairing_bye = bye_kind_from_pb(c.pairing_bye);
    if c.handicap_by_rank {
        if c.handicap_ceiling > 9 || c.handicap_reduction > 9 {
            return Err(bad("bad_handicap", "handicap reduction and ceiling are 0-9 stones"));
        }
        config.pairing.handicap =
            HandicapPolicy::ByRank { reduction: c.handicap_reduction as u8, ceiling: c.handicap_ceiling as u8 };
    }
    config.pairing.separate_clubs = c.separate_clubs;
    config.pairing.separate_regions = c.separate_regions;
    config.pairing.separate_families = c.separate_families;
    {
        use pb::tournament_pairing_policy::SeedSystem as S;
        let system = |v: i32, default: SeedSystem| match S::try_from(v) {
            Ok(S::Unspecified) => Ok(default),
            Ok(S::SplitAndRandom) => Ok(SeedSystem::SplitAndRandom),
            Ok(S::SplitAndFold) => Ok(SeedSystem::SplitAndFold),
            Ok(S::SplitAndSlip) => Ok(SeedSystem::SplitAndSlip),
            Err(_) => Err(bad("bad_seed_system", format!("unknown seed system {v}"))),
        };
        let d = config.pairing.seeding;
        config.pairing.seeding.first = system(c.seeding_first, d.first)?;
        config.pairing.seeding.second = system(c.seeding_second, d.second)?;
        if let Some(last) = c.seeding_last_round_first {
            if last > 1000 {
                return Err(bad("bad_seeding_rounds", "seeding_last_round_first is a round number (at most 1000)"));
            }
            config.pairing.seeding.last_round_first = last;
        }
    }
    if c.no_show_limit_ms < 0 {
        return Err(bad("bad_no_show_limit", "no_show_limit_ms must not be negative"));
    }
    if c.no_show_limit_ms > 0 {
        config.no_show_limit_ms = c.no_show_limit_ms;
    }
    if let Some(n) = c.withdraw_after_no_shows {
        config.withdraw_after_no_shows = (n > 0).then_some(n);
    }
    config.shared_places = c.shared_places;
    config.unplayed_sosm = crate::codec::config::unplayed_sosm_from_pb(c.unplayed_sosm)
        .map_err(|_| bad("bad_unplayed_sosm", format!("unknown unplayed_sosm {}", c.unplayed_sosm)))?;
    Ok(config)
}

// ---- players ----

/// The registration snapshot of `player` from the wire.
pub fn registration_from_snapshot(
    player: PlayerId,
    s: &pb::TournamentPlayerSnapshot,
) -> Result<Registration, BadRequest> {
    if s.name_latin.trim().is_empty() && s.name_zh.trim().is_empty() {
        return Err(bad("missing_name", "a player needs a name (Chinese or Latin script)"));
    }
    let text = |v: &str| (!v.trim().is_empty()).then(|| v.trim().to_string());
    Ok(Registration {
        player,
        name_zh: s.name_zh.trim().to_string(),
        name_latin: s.name_latin.trim().to_string(),
        rank: rank_from_text(&s.rank)?,
        rating: s.rating,
        club: text(&s.club),
        region: text(&s.region),
        family: text(&s.family),
        country: text(&s.country),
        egd_pin: (s.egd_pin != 0).then_some(s.egd_pin),
        at: Millis(0),
    })
}

/// The snapshot of a registration, for the wire.
pub fn snapshot_of(r: &Registration) -> pb::TournamentPlayerSnapshot {
    pb::TournamentPlayerSnapshot {
        name_zh: r.name_zh.clone(),
        name_latin: r.name_latin.clone(),
        rank: r.rank.to_string(),
        rating: r.rating,
        club: r.club.clone().unwrap_or_default(),
        region: r.region.clone().unwrap_or_default(),
        family: r.family.clone().unwrap_or_default(),
        country: r.country.clone().unwrap_or_default(),
        egd_pin: r.egd_pin.unwrap_or(0),
    }
}

/// The name a game shows: the Chinese name if there is one, else the Latin one.
pub fn display_name(r: &Registration) -> String {
    if r.name_zh.is_empty() { r.name_latin.clone() } else { r.name_zh.clone() }
}

// ---- results ----

/// A result from the wire (reason unspecified: played).
pub fn result_from_pb(r: Option<&pb::TournamentGameOutcome>) -> Result<GameResult, BadRequest> {
    use pb::tournament_game_outcome::{Outcome as O, Reason as R};
    let r = r.ok_or_else(|| bad("missing_result", "result is required"))?;
    let outcome = match O::try_from(r.outcome) {
        Ok(O::BlackWins) => Outcome::Win(Color::Black),
        Ok(O::WhiteWins) => Outcome::Win(Color::White),
        Ok(O::Draw) => Outcome::Draw,
        Ok(O::BothLose) => Outcome::BothLose,
        Ok(O::Void) => Outcome::Void,
        _ => return Err(bad("missing_outcome", "result.outcome is required")),
    };
    let reason = match R::try_from(r.reason) {
        Ok(R::Forfeit) => ResultReason::Forfeit,
        Ok(R::Referee) => ResultReason::Referee,
        Ok(R::Counted) => ResultReason::Counted,
        Ok(R::Resignation) => ResultReason::Resignation,
        Ok(R::Time) => ResultReason::Time,
        _ => ResultReason::Played,
    };
    Ok(GameResult { outcome, reason })
}

/// A result for the wire.
pub fn result_to_pb(r: &GameResult) -> pb::TournamentGameOutcome {
    use pb::tournament_game_outcome::{Outcome as O, Reason as R};
    let outcome = match r.outcome {
        Outcome::Win(Color::Black) => O::BlackWins,
        Outcome::Win(Color::White) => O::WhiteWins,
        Outcome::Draw => O::Draw,
        Outcome::BothLose => O::BothLose,
        Outcome::Void => O::Void,
    };
    let reason = match r.reason {
        ResultReason::Played => R::Played,
        ResultReason::Forfeit => R::Forfeit,
        ResultReason::Referee => R::Referee,
        ResultReason::Counted => R::Counted,
        ResultReason::Resignation => R::Resignation,
        ResultReason::Time => R::Time,
    };
    pb::TournamentGameOutcome { outcome: outcome as i32, reason: reason as i32 }
}

/// A result as the pairings list shows it: `B+`, `W+`, `draw`, `both-lose`, `void`; `!` for a forfeit.
pub fn result_text(r: Option<&GameResult>) -> String {
    let Some(r) = r else { return String::new() };
    let mut s = match r.outcome {
        Outcome::Win(Color::Black) => "B+",
        Outcome::Win(Color::White) => "W+",
        Outcome::Draw => "draw",
        Outcome::BothLose => "both-lose",
        Outcome::Void => "void",
    }
    .to_string();
    if r.reason == ResultReason::Forfeit {
        s.push('!');
    }
    s
}

/// A bye's kind as text.
pub fn bye_kind_text(k: ByeKind) -> &'static str {
    match k {
        ByeKind::FullPoint => "full-point",
        ByeKind::HalfPoint => "half-point",
        ByeKind::ZeroPoint => "zero-point",
    }
}

/// A bye's reason as text.
pub fn bye_reason_text(r: ByeReason) -> &'static str {
    match r {
        ByeReason::Pairing => "pairing",
        ByeReason::Requested => "requested",
        ByeReason::Rest => "rest",
        ByeReason::Advance => "advance",
    }
}

/// The game service's outcome of a game, as the tournament records it: `None` for a game that is to
/// be replayed (a referee records the replay's result by hand). `winner_is_paired_black` maps the
/// game's winning color back to the pairing (colors can be swapped by a referee, Art. 17.1).
pub fn result_from_game(
    result: &weiqi_game::domain::GameResult,
    game_black_is_paired_black: bool,
) -> Option<GameResult> {
    use weiqi_game::domain::{EndReason, Outcome as G};
    let paired = |c: weiqi_rules::Color| {
        let black = matches!(c, weiqi_rules::Color::Black) == game_black_is_paired_black;
        if black { Color::Black } else { Color::White }
    };
    let outcome = match result.outcome {
        G::BlackWins => Outcome::Win(paired(weiqi_rules::Color::Black)),
        G::WhiteWins => Outcome::Win(paired(weiqi_rules::Color::White)),
        G::Draw => Outcome::Draw,
        G::BothLose => Outcome::BothLose,
        G::NoResult => Outcome::Void,
        G::Replay => return None,
    };
    let reason = match result.reason {
        EndReason::Forfeit | EndReason::Lateness => ResultReason::Forfeit,
        EndReason::Referee | EndReason::Warnings => ResultReason::Referee,
        EndReason::Score | EndReason::Resignation | EndReason::Time | EndReason::Cycle => ResultReason::Played,
    };
    Some(GameResult { outcome, reason })
}

/// A tournament's result as the game service records it (the inverse of [`result_from_game`]): the
/// winner in the game's colours, and how the game ended. A forfeit is `Forfeit` (not rated, `B+F`);
/// a result entered as counted, resigned or out of time ends the game that way; a result played with
/// no "how" is a counted one (`B+`, no margin known); a ruling stays a referee's decision.
pub fn result_to_game(
    result: &GameResult,
    game_black_is_paired_black: bool,
) -> (weiqi_game::domain::Outcome, weiqi_game::domain::EndReason) {
    use weiqi_game::domain::{EndReason, Outcome as G};
    let outcome = match result.outcome {
        Outcome::Win(c) => {
            if (c == Color::Black) == game_black_is_paired_black {
                G::BlackWins
            } else {
                G::WhiteWins
            }
        }
        Outcome::Draw => G::Draw,
        Outcome::BothLose => G::BothLose,
        Outcome::Void => G::NoResult,
    };
    let reason = match result.reason {
        ResultReason::Forfeit => EndReason::Forfeit,
        ResultReason::Referee => EndReason::Referee,
        ResultReason::Played | ResultReason::Counted => EndReason::Score,
        ResultReason::Resignation => EndReason::Resignation,
        ResultReason::Time => EndReason::Time,
    };
    (outcome, reason)
}

// ---- rejections ----

/// A stable code for a core rejection.
pub fn rejection_code(r: &Rejection) -> &'static str {
    match r {
        Rejection::NotCreated => "not_found",
        Rejection::AlreadyCreated => "already_exists",
        Rejection::InvalidConfig(_) => "invalid_config",
        Rejection::RegistrationClosed => "registration_closed",
        Rejection::AlreadyRegistered(_) => "already_registered",
        Rejection::TeamAlreadyRegistered(_) => "team_already_registered",
        Rejection::UnknownPlayer(_) => "unknown_player",
        Rejection::UnknownTeam(_) => "unknown_team",
        Rejection::PlayerInAnotherTeam(_) => "player_in_another_team",
        Rejection::AlreadyStarted => "already_started",
        Rejection::NotStarted => "not_started",
        Rejection::TooFewEntrants { .. } => "too_few_entrants",
        Rejection::Finished => "finished",
        Rejection::RoundIncomplete(_) => "round_incomplete",
        Rejection::NotNextRound(_) => "not_next_round",
        Rejection::UnknownGame(_) => "unknown_game",
        Rejection::AlreadyRecorded(_) => "already_recorded",
        Rejection::NotRecorded(_) => "not_recorded",
        Rejection::NotInGame(_) => "not_in_game",
        Rejection::DecisiveResultRequired => "decisive_result_required",
        Rejection::NoShowTooEarly { .. } => "no_show_too_early",
        Rejection::Withdrawn(_) => "withdrawn",
        Rejection::NotInThisFormat => "not_in_this_format",
        Rejection::AlreadyPlaced(_) => "already_placed",
        Rejection::SamePlayer => "same_player",
        Rejection::NotForbidden(..) => "not_forbidden",
        Rejection::LineUpMissing(_) => "line_up_missing",
        Rejection::InvalidLineUp(_) => "invalid_line_up",
        Rejection::Pairing(_) => "pairing_failed",
        Rejection::RankFixed(_) => "rank_fixed",
        Rejection::AlreadyPlayed(_) => "already_played",
        Rejection::CannotUnpair(_) => "cannot_unpair",
        Rejection::NoByeToCancel(_) => "no_bye_to_cancel",
        Rejection::SettingsFixed(what) => match *what {
            "rounds" => "settings_fixed_rounds",
            "bars" => "settings_fixed_bars",
            _ => "settings_fixed",
        },
    }
}

/// A core rejection for the wire (its kind picks the gRPC status).
pub fn rejection_to_pb(r: &Rejection) -> pb::Rejection {
    weiqi_edge::status::rejection(rejection_kind(r), rejection_code(r), r.to_string())
}

/// What kind of refusal a core rejection is.
pub fn rejection_kind(r: &Rejection) -> weiqi_aggregate::RejectionKind {
    use weiqi_aggregate::RejectionKind as Kind;
    match r {
        Rejection::NotCreated
        | Rejection::UnknownPlayer(_)
        | Rejection::UnknownTeam(_)
        | Rejection::UnknownGame(_)
        | Rejection::NotForbidden(..) => Kind::NotFound,
        Rejection::AlreadyCreated | Rejection::AlreadyRegistered(_) | Rejection::TeamAlreadyRegistered(_) => {
            Kind::AlreadyExists
        }
        Rejection::InvalidConfig(_) | Rejection::SamePlayer | Rejection::InvalidLineUp(_) => Kind::InvalidArgument,
        _ => Kind::FailedPrecondition,
    }
}

// ---- domain events in the log ----

/// The variant name of an event ("RoundPaired").
pub fn event_type(e: &TournamentEvent) -> &'static str {
    match e {
        TournamentEvent::Created { .. } => "Created",
        TournamentEvent::PlayerRegistered { .. } => "PlayerRegistered",
        TournamentEvent::PlayerEdited { .. } => "PlayerEdited",
        TournamentEvent::SettingsChanged { .. } => "SettingsChanged",
        TournamentEvent::ByeCancelled { .. } => "ByeCancelled",
        TournamentEvent::PlayerRemoved { .. } => "PlayerRemoved",
        TournamentEvent::RoundUnpaired { .. } => "RoundUnpaired",
        TournamentEvent::TeamRegistered { .. } => "TeamRegistered",
        TournamentEvent::LotsDrawn { .. } => "LotsDrawn",
        TournamentEvent::Started { .. } => "Started",
        TournamentEvent::PairForbidden { .. } => "PairForbidden",
        TournamentEvent::PairAllowed { .. } => "PairAllowed",
        TournamentEvent::PairingFixed { .. } => "PairingFixed",
        TournamentEvent::ByeGranted { .. } => "ByeGranted",
        TournamentEvent::LineUpSubmitted { .. } => "LineUpSubmitted",
        TournamentEvent::RoundPaired { .. } => "RoundPaired",
        TournamentEvent::ResultRecorded { .. } => "ResultRecorded",
        TournamentEvent::ResultCorrected { .. } => "ResultCorrected",
        TournamentEvent::NoShowRecorded { .. } => "NoShowRecorded",
        TournamentEvent::WarningIssued { .. } => "WarningIssued",
        TournamentEvent::PlayerWithdrawn { .. } => "PlayerWithdrawn",
        TournamentEvent::PlayerEliminated { .. } => "PlayerEliminated",
        TournamentEvent::PlayerReprieved { .. } => "PlayerReprieved",
        TournamentEvent::RoundCompleted { .. } => "RoundCompleted",
        TournamentEvent::Finished { .. } => "Finished",
    }
}

/// A domain event as stored: the typed message (`TournamentEventEnvelope.body.core`).
pub fn core_to_pb(e: &TournamentEvent) -> pb::TournamentCoreEvent {
    crate::codec::event_to_pb(e)
}

/// A stored typed domain event. The error names the field that is missing, out of range or holds an
/// enum value this version does not know ([`crate::codec::event_from_pb`] gives it typed).
pub fn core_from_pb(m: &pb::TournamentCoreEvent) -> Result<TournamentEvent, DecodeError> {
    Ok(crate::codec::event_from_pb(m)?)
}

/// A domain event as earlier versions stored it: versioned JSON (`TournamentEventEnvelope.body.domain`).
/// The service no longer writes it; it is kept to build logs as they were written (upgrade tests, tools).
pub fn domain_to_pb(e: &TournamentEvent) -> pb::TournamentDomainEvent {
    pb::TournamentDomainEvent {
        r#type: event_type(e).to_string(),
        schema: DOMAIN_SCHEMA,
        json: serde_json::to_string(e).expect("tournament events always serialise"),
    }
}

/// A domain event stored as JSON by an earlier version (the upgrade path: read, never written).
pub fn domain_from_pb(d: &pb::TournamentDomainEvent) -> Result<TournamentEvent, DecodeError> {
    if d.schema != DOMAIN_SCHEMA {
        return Err(DecodeError(format!("{}: unknown schema {}", d.r#type, d.schema)));
    }
    serde_json::from_str(&d.json).map_err(|e| DecodeError(format!("{}: {e}", d.r#type)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configs_take_the_format_defaults_unless_overridden() {
        let mut c = pb::TournamentConfig {
            name: "Open".into(),
            format: Some(pb::TournamentFormat {
                format: Some(pb::tournament_format::Format::Mcmahon(pb::tournament_format::McMahon {
                    rounds: 5,
                    top_bar: "3d".into(),
                    bottom_bar: "20k".into(),
                })),
            }),
            ..Default::default()
        };
        let cfg = config_from_pb(&c, 42).unwrap();
        assert_eq!(cfg.seed, 42);
        assert_eq!(cfg.ranking, vec![TieBreak::Mms, TieBreak::Sosm, TieBreak::Sososm, TieBreak::Lot]);
        assert_eq!(cfg.no_show_limit_ms, 15 * 60 * 1000);
        c.ranking = vec!["MMS".into(), "SOS".into()];
        c.withdraw_after_no_shows = Some(0);
        c.seed = 7;
        let cfg = config_from_pb(&c, 42).unwrap();
        assert_eq!((cfg.seed, cfg.ranking.len(), cfg.withdraw_after_no_shows), (7, 2, None));
        c.ranking = vec!["Elo".into()];
        assert_eq!(config_from_pb(&c, 1).unwrap_err().code, "bad_tie_break");
        c.format = None;
        assert_eq!(config_from_pb(&c, 1).unwrap_err().code, "missing_format");
    }

    #[test]
    fn game_results_map_back_to_the_pairing_colors() {
        use weiqi_game::domain::{EndReason, GameResult as G, Outcome as O};
        let g = |outcome, reason| G { outcome, reason, score: None };
        let table = [
            (g(O::BlackWins, EndReason::Resignation), true, Some(GameResult::win(Color::Black))),
            (g(O::BlackWins, EndReason::Resignation), false, Some(GameResult::win(Color::White))),
            (g(O::WhiteWins, EndReason::Time), true, Some(GameResult::win(Color::White))),
            (g(O::WhiteWins, EndReason::Lateness), true, Some(GameResult::forfeit(Color::White))),
            (
                g(O::BothLose, EndReason::Referee),
                true,
                Some(GameResult { outcome: Outcome::BothLose, reason: ResultReason::Referee }),
            ),
            (g(O::Draw, EndReason::Score), true, Some(GameResult::draw())),
            (
                g(O::NoResult, EndReason::Cycle),
                true,
                Some(GameResult { outcome: Outcome::Void, reason: ResultReason::Played }),
            ),
            (g(O::Replay, EndReason::Cycle), true, None),
        ];
        for (game, same, want) in table {
            assert_eq!(result_from_game(&game, same), want, "{game:?} {same}");
        }
    }

    #[test]
    fn results_round_trip_through_the_wire() {
        for r in [
            GameResult::win(Color::Black),
            GameResult::forfeit(Color::White),
            GameResult::draw(),
            GameResult { outcome: Outcome::BothLose, reason: ResultReason::Referee },
            GameResult { outcome: Outcome::Void, reason: ResultReason::Referee },
        ] {
            assert_eq!(result_from_pb(Some(&result_to_pb(&r))).unwrap(), r);
        }
        assert_eq!(result_text(Some(&GameResult::forfeit(Color::White))), "W+!");
    }
}

#[cfg(test)]
mod log_encoding {
    use super::*;
    use weiqi_pairing::config::McMahonBars;
    use weiqi_pairing::simulate::Simulation;

    /// Every event of whole simulated events survives the log's typed encoding, and the JSON encoding
    /// earlier versions wrote, unchanged.
    #[test]
    fn domain_events_round_trip_through_the_envelope() {
        let formats = [
            Format::McMahon { rounds: 4, bars: McMahonBars { top: Rank::Dan(3), bottom: Rank::Kyu(20) } },
            Format::Knockout { losses: 2 },
            Format::RoundRobin { cycles: 2 },
        ];
        for format in formats {
            let mut sim = Simulation::new(TournamentConfig::new("E", format.clone(), 9), 9).unwrap();
            sim.register_all(&weiqi_pairing::simulate::synthetic_field(9, 9)).unwrap();
            sim.run(weiqi_pairing::command::Command::Start).unwrap();
            sim.play_to_end(12).unwrap();
            assert!(sim.log.len() > 20);
            for e in &sim.log {
                assert_eq!(&core_from_pb(&core_to_pb(e)).unwrap(), e, "{format:?}");
                let stored = domain_to_pb(e);
                assert_eq!(stored.r#type, event_type(e));
                assert_eq!(&domain_from_pb(&stored).unwrap(), e, "{format:?}");
            }
        }
        let bad = pb::TournamentDomainEvent { r#type: "Started".into(), schema: 2, json: "{}".into() };
        assert!(domain_from_pb(&bad).is_err());
    }
}

// ---- what readers see ----

impl From<pb::TournamentSummary> for crate::views::Summary {
    fn from(s: pb::TournamentSummary) -> Self {
        crate::views::Summary {
            settings: s.settings.as_ref().and_then(|s| crate::codec::log::settings_from_pb(s).ok()),
            facts: s.facts.as_ref().and_then(|f| crate::codec::log::facts_from_pb(f).ok()),
            tournament_id: s.tournament_id,
            name: s.name,
            phase: s.phase,
            format: s.format,
            players: s.players,
            rounds_paired: s.rounds_paired,
            last_round_completed: s.last_round_completed,
            champion: s.champion,
            sequence: s.sequence,
            rounds_planned: s.rounds_planned,
            forbids: s
                .forbids
                .into_iter()
                .map(|f| crate::views::Forbid { a: f.a, b: f.b, round: f.round, a_name: f.a_name, b_name: f.b_name })
                .collect(),
            withdrawals: s
                .withdrawals
                .into_iter()
                .map(|w| crate::views::WithdrawalCount {
                    player: w.player,
                    name: w.name,
                    after_round: w.after_round,
                    ruling: w.ruling,
                    unplayed_rounds: w.unplayed_rounds,
                    for_opponents: w.for_opponents,
                    own_sosm: w.own_sosm,
                    own_sosm_rule: w.own_sosm_rule,
                })
                .collect(),
            publications: s.publications,
            format_key: s.format_key,
            format_args: s.format_args,
        }
    }
}

impl From<pb::TournamentStandings> for crate::views::Standings {
    fn from(s: pb::TournamentStandings) -> Self {
        crate::views::Standings {
            tournament_id: s.tournament_id,
            after_round: s.after_round,
            criteria: s.criteria,
            rows: s.rows.iter().map(crate::codec::log::row_from_pb).collect(),
            total: s.total,
            team: s.team,
            sequence: s.sequence,
        }
    }
}

impl From<pb::TournamentPairings> for crate::views::Pairings {
    fn from(p: pb::TournamentPairings) -> Self {
        crate::views::Pairings {
            tournament_id: p.tournament_id,
            round: p.round,
            games: p
                .games
                .into_iter()
                .map(|g| crate::views::Pairing {
                    table: g.table,
                    black: g.black,
                    white: g.white,
                    black_account: g.black_account,
                    white_account: g.white_account,
                    black_name: g.black_name,
                    white_name: g.white_name,
                    black_rank: g.black_rank,
                    white_rank: g.white_rank,
                    handicap: g.handicap,
                    colors_by: g.colors_by,
                    result: g.result,
                    game_id: g.game_id,
                    fixed: g.fixed,
                })
                .collect(),
            byes: p
                .byes
                .into_iter()
                .map(|b| crate::views::Bye {
                    player: b.player,
                    account_id: b.account_id,
                    name: b.name,
                    kind: b.kind,
                    reason: b.reason,
                })
                .collect(),
            completed: p.completed,
        }
    }
}
