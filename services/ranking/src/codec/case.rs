//! Certification-case events ⇄ `weiqi.v1.CertificationCaseEvent`: evidence, automatic checks with
//! every rule's verdict, decisions, certificates; and as stored events ([`CASE_TYPE`]).

use prost::Message;
use weiqi_eventlog::{NewEvent, RecordedEvent};
use weiqi_proto::v1 as pb;
use weiqi_rating::{
    ActorId, Applicant, Basis, CaseEvent, CaseId, CertificateBody, CheckRecord, CivilDate, Evaluation, EventId,
    EventLevel, EventRef, Evidence, GameId, GameOutcome, Ineligible, Malformed, Millis, PlayerId, Proposal,
    RatingSample, RuleOutcome, Shortfall, SignedCertificate, TournamentPlacing, Verdict, VerifiedGame,
    parse_certificate,
};

use super::{
    CASE_TYPE, CodecError, DecodeError, EnumPairs, Meta, decode_error, envelope, fresh_event_id, open,
    read_legacy_json, required,
};

/// The JSON version of case events that earlier versions wrote (read only).
const CASE_JSON_VERSION: u32 = 1;

/// A case event to append (a typed `CertificationCaseEvent`).
#[must_use]
pub fn case_event(event: &CaseEvent, meta: &Meta) -> NewEvent {
    encode_case(event, meta, fresh_event_id())
}

/// A case event to append, with its event id.
pub(crate) fn encode_case(event: &CaseEvent, meta: &Meta, event_id: String) -> NewEvent {
    let body = pb::ranking_envelope::Body::CaseEvent(case_event_to_pb(event));
    NewEvent::new(CASE_TYPE, envelope(meta, event_id, body).encode_to_vec())
}

/// Reads a case event: a typed `CertificationCaseEvent`, or the JSON an earlier version wrote.
///
/// # Errors
/// When the payload is not a case event, a typed one lacks a field or holds an unknown enum value
/// (the reason names the field), or the JSON is not of the known version.
pub fn read_case(r: &RecordedEvent) -> Result<CaseEvent, DecodeError> {
    use pb::ranking_envelope::Body;
    match open(r)? {
        Body::CaseEvent(m) => case_event_from_pb(m).map_err(|e| decode_error(r, format!("{CASE_TYPE}: {e}"))),
        Body::Json(j) => read_legacy_json(r, &j, CASE_TYPE, CASE_JSON_VERSION),
        _ => Err(decode_error(r, format!("expected {CASE_TYPE}"))),
    }
}

const APPLICANT: EnumPairs<Applicant, pb::CaseApplicant> =
    EnumPairs(&[(Applicant::Player, pb::CaseApplicant::Player), (Applicant::Organiser, pb::CaseApplicant::Organiser)]);

const OUTCOME: EnumPairs<GameOutcome, pb::EvidenceGameOutcome> = EnumPairs(&[
    (GameOutcome::Win, pb::EvidenceGameOutcome::Win),
    (GameOutcome::Draw, pb::EvidenceGameOutcome::Draw),
    (GameOutcome::Loss, pb::EvidenceGameOutcome::Loss),
]);

const LEVEL: EnumPairs<EventLevel, pb::EvidenceEventLevel> = EnumPairs(&[
    (EventLevel::Club, pb::EvidenceEventLevel::Club),
    (EventLevel::County, pb::EvidenceEventLevel::County),
    (EventLevel::City, pb::EvidenceEventLevel::City),
    (EventLevel::Provincial, pb::EvidenceEventLevel::Provincial),
    (EventLevel::National, pb::EvidenceEventLevel::National),
    (EventLevel::World, pb::EvidenceEventLevel::World),
    (EventLevel::Online, pb::EvidenceEventLevel::Online),
]);

/// The message of a case event.
#[must_use]
pub fn case_event_to_pb(event: &CaseEvent) -> pb::CertificationCaseEvent {
    use pb::certification_case_event as m;
    use pb::certification_case_event::Kind;
    let kind = match event {
        CaseEvent::Opened { case, player, opened_by, applicant, ladder, current, since, requested, at } => {
            Kind::Opened(m::Opened {
                case_id: case.0.clone(),
                player_id: player.0.clone(),
                opened_by: opened_by.0.clone(),
                applicant: APPLICANT.encode(*applicant),
                ladder: ladder.clone(),
                current_grade: current.clone(),
                since_ms: since.0,
                requested_grade: requested.clone(),
                at_ms: at.0,
            })
        }
        CaseEvent::EvidenceAttached { items, at } => Kind::EvidenceAttached(m::EvidenceAttached {
            items: items.iter().map(evidence_to_pb).collect(),
            at_ms: at.0,
        }),
        CaseEvent::AutomaticCheckCompleted { check, at } => {
            Kind::AutomaticCheckCompleted(m::AutomaticCheckCompleted { check: Some(check_to_pb(check)), at_ms: at.0 })
        }
        CaseEvent::ReviewerAssigned { reviewer, at } => {
            Kind::ReviewerAssigned(m::ReviewerAssigned { reviewer: reviewer.0.clone(), at_ms: at.0 })
        }
        CaseEvent::OverrideProposed { reviewer, note, override_reason, at } => {
            Kind::OverrideProposed(m::OverrideProposed {
                reviewer: reviewer.0.clone(),
                note: note.clone(),
                override_reason: override_reason.clone(),
                at_ms: at.0,
            })
        }
        CaseEvent::Approved { reviewer, note, override_reason, confirmed_by, at } => Kind::Approved(m::Approved {
            reviewer: reviewer.0.clone(),
            note: note.clone(),
            override_reason: override_reason.clone(),
            confirmed_by: confirmed_by.as_ref().map(|c| c.0.clone()).unwrap_or_default(),
            at_ms: at.0,
        }),
        CaseEvent::Rejected { reviewer, reasons, at } => {
            Kind::Rejected(m::Rejected { reviewer: reviewer.0.clone(), reasons: reasons.clone(), at_ms: at.0 })
        }
        CaseEvent::CertificateIssued { certificate, at } => Kind::CertificateIssued(m::CertificateIssued {
            certificate: Some(certificate_to_pb(certificate)),
            at_ms: at.0,
        }),
        CaseEvent::CertificateRevoked { serial, by, reason, at } => Kind::CertificateRevoked(m::CertificateRevoked {
            serial: serial.clone(),
            by: by.0.clone(),
            reason: reason.clone(),
            at_ms: at.0,
        }),
        CaseEvent::RevisionsAcknowledged { reviewer, note, at } => {
            Kind::RevisionsAcknowledged(m::RevisionsAcknowledged {
                reviewer: reviewer.0.clone(),
                note: note.clone(),
                at_ms: at.0,
            })
        }
        CaseEvent::EvidenceRevised { before, after, at } => Kind::EvidenceRevised(m::EvidenceRevised {
            before: Some(evidence_to_pb(before)),
            after: after.as_ref().map(evidence_to_pb),
            at_ms: at.0,
        }),
    };
    pb::CertificationCaseEvent { kind: Some(kind) }
}

/// A case event from its stored message.
///
/// # Errors
/// [`CodecError`] naming the field that is missing or holds an unknown value, or a certificate that
/// does not read back.
pub fn case_event_from_pb(event: pb::CertificationCaseEvent) -> Result<CaseEvent, CodecError> {
    use pb::certification_case_event::Kind;
    Ok(match required(event.kind, "CertificationCaseEvent.kind")? {
        Kind::Opened(m) => CaseEvent::Opened {
            case: CaseId(m.case_id),
            player: PlayerId(m.player_id),
            opened_by: ActorId(m.opened_by),
            applicant: APPLICANT.decode("CertificationCaseEvent.Opened.applicant", m.applicant)?,
            ladder: m.ladder,
            current: m.current_grade,
            since: Millis(m.since_ms),
            requested: m.requested_grade,
            at: Millis(m.at_ms),
        },
        Kind::EvidenceAttached(m) => CaseEvent::EvidenceAttached {
            items: m.items.into_iter().map(evidence_from_pb).collect::<Result<_, _>>()?,
            at: Millis(m.at_ms),
        },
        Kind::AutomaticCheckCompleted(m) => CaseEvent::AutomaticCheckCompleted {
            check: check_from_pb(required(m.check, "CertificationCaseEvent.AutomaticCheckCompleted.check")?)?,
            at: Millis(m.at_ms),
        },
        Kind::ReviewerAssigned(m) => CaseEvent::ReviewerAssigned { reviewer: ActorId(m.reviewer), at: Millis(m.at_ms) },
        Kind::OverrideProposed(m) => CaseEvent::OverrideProposed {
            reviewer: ActorId(m.reviewer),
            note: m.note,
            override_reason: m.override_reason,
            at: Millis(m.at_ms),
        },
        Kind::Approved(m) => CaseEvent::Approved {
            reviewer: ActorId(m.reviewer),
            note: m.note,
            override_reason: m.override_reason,
            confirmed_by: Some(m.confirmed_by).filter(|c| !c.is_empty()).map(ActorId),
            at: Millis(m.at_ms),
        },
        Kind::Rejected(m) => {
            CaseEvent::Rejected { reviewer: ActorId(m.reviewer), reasons: m.reasons, at: Millis(m.at_ms) }
        }
        Kind::CertificateIssued(m) => CaseEvent::CertificateIssued {
            certificate: certificate_from_pb(required(
                m.certificate,
                "CertificationCaseEvent.CertificateIssued.certificate",
            )?)?,
            at: Millis(m.at_ms),
        },
        Kind::CertificateRevoked(m) => {
            CaseEvent::CertificateRevoked { serial: m.serial, by: ActorId(m.by), reason: m.reason, at: Millis(m.at_ms) }
        }
        Kind::RevisionsAcknowledged(m) => {
            CaseEvent::RevisionsAcknowledged { reviewer: ActorId(m.reviewer), note: m.note, at: Millis(m.at_ms) }
        }
        Kind::EvidenceRevised(m) => CaseEvent::EvidenceRevised {
            before: evidence_from_pb(required(m.before, "CertificationCaseEvent.EvidenceRevised.before")?)?,
            after: m.after.map(evidence_from_pb).transpose()?,
            at: Millis(m.at_ms),
        },
    })
}

// ---- evidence ----

fn event_ref_to_pb(e: &EventRef) -> pb::EvidenceEventRef {
    pb::EvidenceEventRef {
        event_id: e.id.0.clone(),
        name: e.name.clone(),
        kind: e.kind.clone(),
        level: LEVEL.encode(e.level),
    }
}

fn event_ref_from_pb(m: pb::EvidenceEventRef) -> Result<EventRef, CodecError> {
    Ok(EventRef {
        id: EventId(m.event_id),
        name: m.name,
        kind: m.kind,
        level: LEVEL.decode("EvidenceEventRef.level", m.level)?,
    })
}

/// An event reference the domain always has.
fn required_event(m: Option<pb::EvidenceEventRef>, field: &'static str) -> Result<EventRef, CodecError> {
    event_ref_from_pb(required(m, field)?)
}

fn game_to_pb(g: &VerifiedGame) -> pb::EvidenceGame {
    pb::EvidenceGame {
        game_id: g.game.0.clone(),
        opponent_id: g.opponent.0.clone(),
        opponent_grade: g.opponent_grade.clone(),
        outcome: OUTCOME.encode(g.outcome),
        at_ms: g.at.0,
        event: g.event.as_ref().map(event_ref_to_pb),
    }
}

fn game_from_pb(g: pb::EvidenceGame) -> Result<VerifiedGame, CodecError> {
    Ok(VerifiedGame {
        game: GameId(g.game_id),
        opponent: PlayerId(g.opponent_id),
        opponent_grade: g.opponent_grade,
        outcome: OUTCOME.decode("EvidenceGame.outcome", g.outcome)?,
        at: Millis(g.at_ms),
        event: g.event.map(event_ref_from_pb).transpose()?,
    })
}

fn evidence_to_pb(e: &Evidence) -> pb::EvidenceItem {
    use pb::evidence_item::Kind;
    let kind = match e {
        Evidence::Game(g) => Kind::Game(game_to_pb(g)),
        Evidence::Placing(p) => Kind::Placing(pb::EvidencePlacing {
            event: Some(event_ref_to_pb(&p.event)),
            group: p.group.clone(),
            place: p.place,
            rounds: p.rounds,
            wins: p.wins,
            field: p.field,
            field_by_grade: p.field_by_grade.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            at_ms: p.at.0,
        }),
        Evidence::Rating(r) => Kind::Rating(pb::EvidenceRating {
            system: r.system.clone(),
            rating: Some(r.rating),
            deviation: Some(r.deviation),
            games: r.games,
            at_ms: r.at.0,
        }),
    };
    pb::EvidenceItem { kind: Some(kind) }
}

fn evidence_from_pb(m: pb::EvidenceItem) -> Result<Evidence, CodecError> {
    use pb::evidence_item::Kind;
    Ok(match required(m.kind, "EvidenceItem.kind")? {
        Kind::Game(g) => Evidence::Game(game_from_pb(g)?),
        Kind::Placing(p) => Evidence::Placing(TournamentPlacing {
            event: required_event(p.event, "EvidencePlacing.event")?,
            group: p.group,
            place: p.place,
            rounds: p.rounds,
            wins: p.wins,
            field: p.field,
            field_by_grade: p.field_by_grade.into_iter().collect(),
            at: Millis(p.at_ms),
        }),
        Kind::Rating(r) => Evidence::Rating(RatingSample {
            system: r.system,
            rating: required(r.rating, "EvidenceRating.rating")?,
            deviation: required(r.deviation, "EvidenceRating.deviation")?,
            games: r.games,
            at: Millis(r.at_ms),
        }),
    })
}

// ---- the automatic check ----

fn check_to_pb(c: &CheckRecord) -> pb::CaseCheckRecord {
    let e = &c.evaluation;
    pb::CaseCheckRecord {
        association: c.association.clone(),
        rules_digest: c.rules_digest.clone(),
        evaluation: Some(pb::CaseEvaluation {
            player_id: e.player.0.clone(),
            current_grade: e.current.clone(),
            outcomes: e.outcomes.iter().map(outcome_to_pb).collect(),
            proposal: e.proposal.as_ref().map(|p| pb::CaseProposal { to_grade: p.to.clone(), rules: p.rules.clone() }),
        }),
        supports_request: c.supports_request,
        two_reviewers: c.two_reviewers,
        rule_set: c.rule_set.clone(),
    }
}

fn check_from_pb(m: pb::CaseCheckRecord) -> Result<CheckRecord, CodecError> {
    let e = required(m.evaluation, "CaseCheckRecord.evaluation")?;
    Ok(CheckRecord {
        two_reviewers: m.two_reviewers,
        rule_set: m.rule_set,
        association: m.association,
        rules_digest: m.rules_digest,
        evaluation: Evaluation {
            player: PlayerId(e.player_id),
            current: e.current_grade,
            outcomes: e.outcomes.into_iter().map(outcome_from_pb).collect::<Result<_, _>>()?,
            proposal: e.proposal.map(|p| Proposal { to: p.to_grade, rules: p.rules }),
        },
        supports_request: m.supports_request,
    })
}

fn outcome_to_pb(o: &RuleOutcome) -> pb::CaseRuleOutcome {
    use pb::case_rule_outcome::Verdict as V;
    let verdict = match &o.verdict {
        Verdict::Met(b) => V::Met(basis_to_pb(b)),
        Verdict::Unmet(s) => V::Unmet(shortfall_to_pb(s)),
        Verdict::NotEligible(i) => V::NotEligible(ineligible_to_pb(i)),
    };
    pb::CaseRuleOutcome {
        rule: o.rule.clone(),
        kind: o.kind.clone(),
        to_grade: o.to.clone(),
        verdict: Some(verdict),
        evidence: o.evidence.clone(),
    }
}

fn outcome_from_pb(m: pb::CaseRuleOutcome) -> Result<RuleOutcome, CodecError> {
    use pb::case_rule_outcome::Verdict as V;
    let verdict = match required(m.verdict, "CaseRuleOutcome.verdict")? {
        V::Met(b) => Verdict::Met(basis_from_pb(b)?),
        V::Unmet(s) => Verdict::Unmet(shortfall_from_pb(s)?),
        V::NotEligible(i) => Verdict::NotEligible(ineligible_from_pb(i)?),
    };
    Ok(RuleOutcome { rule: m.rule, kind: m.kind, to: m.to_grade, verdict, evidence: m.evidence })
}

fn basis_to_pb(b: &Basis) -> pb::CaseRuleMet {
    use pb::case_rule_met::{Kind, Placed, PointsReached, RatingReached, WinsInGroup, WithinQuota, Won};
    let kind = match b {
        Basis::WinsInGroup { event, group, wins, rounds } => Kind::WinsInGroup(WinsInGroup {
            event: Some(event_ref_to_pb(event)),
            group: group.clone(),
            wins: *wins,
            rounds: *rounds,
        }),
        Basis::Placed { event, place, max_place } => {
            Kind::Placed(Placed { event: Some(event_ref_to_pb(event)), place: *place, max_place: *max_place })
        }
        Basis::Won { event } => Kind::Won(Won { event: Some(event_ref_to_pb(event)) }),
        Basis::WithinQuota { event, place, slots, eligible, percent } => Kind::WithinQuota(WithinQuota {
            event: Some(event_ref_to_pb(event)),
            place: *place,
            slots: *slots,
            eligible: *eligible,
            percent: Some(*percent),
        }),
        Basis::RatingReached { system, rating, threshold, games, at } => Kind::RatingReached(RatingReached {
            system: system.clone(),
            rating: Some(*rating),
            threshold: Some(*threshold),
            games: *games,
            at_ms: at.0,
        }),
        Basis::PointsReached { points, needed, from_games, from_places, games } => Kind::PointsReached(PointsReached {
            points: *points,
            needed: *needed,
            from_games: *from_games,
            from_places: *from_places,
            games: *games,
        }),
    };
    pb::CaseRuleMet { kind: Some(kind) }
}

fn basis_from_pb(m: pb::CaseRuleMet) -> Result<Basis, CodecError> {
    use pb::case_rule_met::Kind;
    Ok(match required(m.kind, "CaseRuleMet.kind")? {
        Kind::WinsInGroup(b) => Basis::WinsInGroup {
            event: required_event(b.event, "CaseRuleMet.WinsInGroup.event")?,
            group: b.group,
            wins: b.wins,
            rounds: b.rounds,
        },
        Kind::Placed(b) => Basis::Placed {
            event: required_event(b.event, "CaseRuleMet.Placed.event")?,
            place: b.place,
            max_place: b.max_place,
        },
        Kind::Won(b) => Basis::Won { event: required_event(b.event, "CaseRuleMet.Won.event")? },
        Kind::WithinQuota(b) => Basis::WithinQuota {
            event: required_event(b.event, "CaseRuleMet.WithinQuota.event")?,
            place: b.place,
            slots: b.slots,
            eligible: b.eligible,
            percent: required(b.percent, "CaseRuleMet.WithinQuota.percent")?,
        },
        Kind::RatingReached(b) => Basis::RatingReached {
            system: b.system,
            rating: required(b.rating, "CaseRuleMet.RatingReached.rating")?,
            threshold: required(b.threshold, "CaseRuleMet.RatingReached.threshold")?,
            games: b.games,
            at: Millis(b.at_ms),
        },
        Kind::PointsReached(b) => Basis::PointsReached {
            points: b.points,
            needed: b.needed,
            from_games: b.from_games,
            from_places: b.from_places,
            games: b.games,
        },
    })
}

fn shortfall_to_pb(s: &Shortfall) -> pb::CaseRuleUnmet {
    use pb::case_rule_unmet::{
        DeviationTooHigh, Kind, NoMatchingResult, NoRating, NotWon, OutsideQuota, PlaceTooLow, RatingTooLow,
        TooFewPoints, TooFewRatedGames, TooFewWins,
    };
    let kind = match s {
        Shortfall::NoMatchingResult { wanted } => Kind::NoMatchingResult(NoMatchingResult { wanted: wanted.clone() }),
        Shortfall::TooFewWins { wins, needed, rounds } => {
            Kind::TooFewWins(TooFewWins { wins: *wins, needed: *needed, rounds: *rounds })
        }
        Shortfall::PlaceTooLow { place, max_place } => {
            Kind::PlaceTooLow(PlaceTooLow { place: *place, max_place: *max_place })
        }
        Shortfall::NotWon { place } => Kind::NotWon(NotWon { place: *place }),
        Shortfall::OutsideQuota { place, slots, eligible } => {
            Kind::OutsideQuota(OutsideQuota { place: *place, slots: *slots, eligible: *eligible })
        }
        Shortfall::NoRating { system } => Kind::NoRating(NoRating { system: system.clone() }),
        Shortfall::RatingTooLow { rating, threshold } => {
            Kind::RatingTooLow(RatingTooLow { rating: Some(*rating), threshold: Some(*threshold) })
        }
        Shortfall::TooFewRatedGames { games, needed } => {
            Kind::TooFewRatedGames(TooFewRatedGames { games: *games, needed: *needed })
        }
        Shortfall::DeviationTooHigh { deviation, max } => {
            Kind::DeviationTooHigh(DeviationTooHigh { deviation: Some(*deviation), max: Some(*max) })
        }
        Shortfall::TooFewPoints { points, needed } => {
            Kind::TooFewPoints(TooFewPoints { points: *points, needed: *needed })
        }
    };
    pb::CaseRuleUnmet { kind: Some(kind) }
}

fn shortfall_from_pb(m: pb::CaseRuleUnmet) -> Result<Shortfall, CodecError> {
    use pb::case_rule_unmet::Kind;
    Ok(match required(m.kind, "CaseRuleUnmet.kind")? {
        Kind::NoMatchingResult(s) => Shortfall::NoMatchingResult { wanted: s.wanted },
        Kind::TooFewWins(s) => Shortfall::TooFewWins { wins: s.wins, needed: s.needed, rounds: s.rounds },
        Kind::PlaceTooLow(s) => Shortfall::PlaceTooLow { place: s.place, max_place: s.max_place },
        Kind::NotWon(s) => Shortfall::NotWon { place: s.place },
        Kind::OutsideQuota(s) => Shortfall::OutsideQuota { place: s.place, slots: s.slots, eligible: s.eligible },
        Kind::NoRating(s) => Shortfall::NoRating { system: s.system },
        Kind::RatingTooLow(s) => Shortfall::RatingTooLow {
            rating: required(s.rating, "CaseRuleUnmet.RatingTooLow.rating")?,
            threshold: required(s.threshold, "CaseRuleUnmet.RatingTooLow.threshold")?,
        },
        Kind::TooFewRatedGames(s) => Shortfall::TooFewRatedGames { games: s.games, needed: s.needed },
        Kind::DeviationTooHigh(s) => Shortfall::DeviationTooHigh {
            deviation: required(s.deviation, "CaseRuleUnmet.DeviationTooHigh.deviation")?,
            max: required(s.max, "CaseRuleUnmet.DeviationTooHigh.max")?,
        },
        Kind::TooFewPoints(s) => Shortfall::TooFewPoints { points: s.points, needed: s.needed },
    })
}

fn ineligible_to_pb(i: &Ineligible) -> pb::CaseRuleNotEligible {
    use pb::case_rule_not_eligible::{AlreadyAtOrAbove, Kind, NotFromGrade};
    let kind = match i {
        Ineligible::AlreadyAtOrAbove { current } => {
            Kind::AlreadyAtOrAbove(AlreadyAtOrAbove { current_grade: current.clone() })
        }
        Ineligible::NotFromGrade { current, allowed } => {
            Kind::NotFromGrade(NotFromGrade { current_grade: current.clone(), allowed: allowed.clone() })
        }
    };
    pb::CaseRuleNotEligible { kind: Some(kind) }
}

fn ineligible_from_pb(m: pb::CaseRuleNotEligible) -> Result<Ineligible, CodecError> {
    use pb::case_rule_not_eligible::Kind;
    Ok(match required(m.kind, "CaseRuleNotEligible.kind")? {
        Kind::AlreadyAtOrAbove(i) => Ineligible::AlreadyAtOrAbove { current: i.current_grade },
        Kind::NotFromGrade(i) => Ineligible::NotFromGrade { current: i.current_grade, allowed: i.allowed },
    })
}

// ---- certificates ----

fn certificate_to_pb(c: &SignedCertificate) -> pb::RankCertificate {
    let b = &c.body;
    pb::RankCertificate {
        body: Some(pb::RankCertificateBody {
            serial: b.serial.clone(),
            association: b.association.clone(),
            key_id: b.key_id.clone(),
            player_id: b.player.0.clone(),
            player_name: b.player_name.clone(),
            ladder: b.ladder.clone(),
            grade: b.grade.clone(),
            grade_name: b.grade_name.clone(),
            date: b.date.to_string(),
            case_id: b.case.0.clone(),
            basis: b.basis.clone(),
        }),
        signature: c.signature_base64(),
    }
}

/// The certificate file's armor (`weiqi_rating::SignedCertificate::to_text`, documented in the
/// rating core's certificate module): the canonical body lines, then the signature line.
const BEGIN: &str = "-----BEGIN WEIQI RANK CERTIFICATE-----";
const END: &str = "-----END WEIQI RANK CERTIFICATE-----";

/// The signed certificate, rebuilt as its file and read back by the rating core's parser, which
/// checks every field and the signature's encoding. The rating core keeps the signature private, so
/// its file is the one way in.
fn certificate_from_pb(m: pb::RankCertificate) -> Result<SignedCertificate, CodecError> {
    let b = required(m.body, "RankCertificate.body")?;
    let date: CivilDate = b.date.parse().map_err(|e: weiqi_rating::BadDate| CodecError::Invalid {
        field: "RankCertificateBody.date",
        reason: e.to_string(),
    })?;
    let body = CertificateBody {
        serial: b.serial,
        association: b.association,
        key_id: b.key_id,
        player: PlayerId(b.player_id),
        player_name: b.player_name,
        ladder: b.ladder,
        grade: b.grade,
        grade_name: b.grade_name,
        date,
        case: CaseId(b.case_id),
        basis: b.basis,
    };
    let canonical = String::from_utf8_lossy(&body.canonical_bytes()).into_owned();
    let text = format!("{BEGIN}\n{canonical}signature: {}\n{END}\n", m.signature);
    let certificate = parse_certificate(&text).map_err(|e| {
        let field = match &e.problem {
            Malformed::BadValue { field, .. } if field == "signature" => "RankCertificate.signature",
            _ => "RankCertificate.body",
        };
        CodecError::Invalid { field, reason: e.to_string() }
    })?;
    if certificate.body != body {
        return Err(CodecError::Invalid {
            field: "RankCertificate.body",
            reason: "does not read back from the certificate file it makes".to_owned(),
        });
    }
    Ok(certificate)
}
