//! The gateway's views: the service's answers as `weiqi.v1` messages.

use weiqi_proto::v1 as pb;

use crate::cases::CaseRecord;
use crate::codec::player::{basis_pb, profile_pb};
use crate::ledger::RatingReport;
use crate::readmodel::Leaderboard;
use crate::registry::RegistryEntry;

/// A case as the gateway shows it.
#[must_use]
pub fn case_view(record: &CaseRecord) -> pb::CaseView {
    use weiqi_rating::{Applicant, CaseStatus, Evidence};
    let c = &record.case;
    let status = match c.status {
        CaseStatus::Open => pb::case_view::Status::Open,
        CaseStatus::AwaitingConfirmation => pb::case_view::Status::AwaitingConfirmation,
        CaseStatus::Approved => pb::case_view::Status::Approved,
        CaseStatus::Rejected => pb::case_view::Status::Rejected,
        CaseStatus::Issued => pb::case_view::Status::Issued,
        CaseStatus::Revoked => pb::case_view::Status::Revoked,
    };
    let evidence = c
        .evidence
        .iter()
        .map(|e| match e {
            Evidence::Game(g) => format!(
                "game {}: {:?} against {}{}",
                g.game,
                g.outcome,
                g.opponent,
                g.event.as_ref().map(|e| format!(" in {e}")).unwrap_or_default()
            ),
            Evidence::Placing(p) => format!(
                "{}{}: place {} of {}, {} wins in {} rounds",
                p.event,
                p.group.as_ref().map(|g| format!(" group {g}")).unwrap_or_default(),
                p.place,
                p.field,
                p.wins,
                p.rounds
            ),
            Evidence::Rating(r) => {
                format!("{} rating {:.1} ±{:.1} after {} games", r.system, r.rating, r.deviation, r.games)
            }
        })
        .collect();
    let evidence_refs = c
        .evidence
        .iter()
        .map(|e| match e {
            Evidence::Game(g) => format!("game:{}", g.game),
            Evidence::Placing(p) => format!("tournament:{}", p.event.id),
            Evidence::Rating(_) => "rating".to_owned(),
        })
        .collect();
    let evidence_use = evidence_use(c);
    let (checked, supports, digest, lines) = match &c.check {
        Some(check) => (
            true,
            check.supports_request,
            check.rules_digest.clone(),
            check.evaluation.outcomes.iter().map(ToString::to_string).collect(),
        ),
        None => (false, false, String::new(), Vec::new()),
    };
    let decision = c.decision.as_ref();
    pb::CaseView {
        case_id: c.id.0.clone(),
        player_id: c.player.0.clone(),
        ladder: c.ladder.clone(),
        current_grade: c.standing.grade.clone().unwrap_or_default(),
        requested_grade: c.requested.clone(),
        status: status as i32,
        opened_by: c.opened_by.0.clone(),
        applicant: match c.applicant {
            Applicant::Player => "player".into(),
            Applicant::Organiser => "organiser".into(),
        },
        opened_at_ms: c.opened_at.0,
        evidence,
        checked,
        check_supports_request: supports,
        rules_digest: digest,
        check_lines: lines,
        reviewer: c.reviewer.as_ref().map(|r| r.0.clone()).unwrap_or_default(),
        approved: decision.is_some_and(|d| d.approved),
        reasons: decision.map(|d| d.reasons.clone()).unwrap_or_default(),
        override_reason: decision.or(c.proposal.as_ref()).and_then(|d| d.override_reason.clone()).unwrap_or_default(),
        proposed_by: c
            .proposal
            .as_ref()
            .or(decision.filter(|d| d.confirmed_by.is_some()))
            .map(|d| d.reviewer.0.clone())
            .unwrap_or_default(),
        confirmed_by: decision.and_then(|d| d.confirmed_by.as_ref()).map(|a| a.0.clone()).unwrap_or_default(),
        evidence_refs,
        evidence_use,
        certificate: c.certificate.as_ref().map(|x| x.to_text()).unwrap_or_default(),
        certificate_serial: c.certificate.as_ref().map(|x| x.body.serial.clone()).unwrap_or_default(),
        revocation_reason: c.revocation.as_ref().map(|(_, r, _)| r.clone()).unwrap_or_default(),
        detail_json: serde_json::to_string(c).unwrap_or_default(),
        revisions: c.revisions.iter().map(revision_view).collect(),
        flagged: c.flagged(),
        items: evidence_items(c),
    }
}

/// The evidence as data, with which rules of the check use each item.
fn evidence_items(c: &weiqi_rating::Case) -> Vec<pb::CaseEvidenceItem> {
    use weiqi_rating::{Evidence, GameOutcome, Verdict as V};
    c.evidence
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut item = pb::CaseEvidenceItem::default();
            match e {
                Evidence::Game(g) => {
                    item.kind = "game".into();
                    item.game_id = g.game.0.clone();
                    item.opponent_id = g.opponent.0.clone();
                    item.outcome = outcome_word(g.outcome).into();
                    if let Some(ev) = &g.event {
                        item.event_id = ev.id.0.clone();
                        item.event_name = ev.name.clone();
                    }
                }
                Evidence::Placing(p) => {
                    item.kind = "placing".into();
                    item.event_id = p.event.id.0.clone();
                    item.event_name = p.event.name.clone();
                    item.group = p.group.clone().unwrap_or_default();
                    (item.place, item.field, item.wins, item.rounds) = (p.place, p.field, p.wins, p.rounds);
                }
                Evidence::Rating(r) => {
                    item.kind = "rating".into();
                    item.system = r.system.clone();
                    (item.rating, item.deviation, item.games) = (r.rating, r.deviation, r.games);
                }
            }
            match &c.check {
                None => item.unused = "not-checked".into(),
                Some(check) => {
                    for o in check.evaluation.outcomes.iter().filter(|o| o.evidence.contains(&(i as u32))) {
                        match o.verdict {
                            V::Met(_) => item.met_rules.push(o.rule.clone()),
                            _ => item.unmet_rules.push(o.rule.clone()),
                        }
                    }
                    if item.met_rules.is_empty() && item.unmet_rules.is_empty() {
                        item.unused = if e.at() < c.standing.since {
                            "before-grade"
                        } else {
                            match e {
                                Evidence::Game(g) if g.outcome == GameOutcome::Loss => "loss",
                                Evidence::Game(_) => "game",
                                Evidence::Placing(_) => "event",
                                Evidence::Rating(_) => "rating",
                            }
                        }
                        .into();
                    }
                }
            }
            item
        })
        .collect()
}

/// A revised item of evidence as the office reads it.
fn revision_view(r: &weiqi_rating::EvidenceRevision) -> pb::CaseEvidenceRevision {
    use weiqi_rating::Evidence;
    let word = |e: &Evidence| match e {
        Evidence::Game(g) => outcome_word(g.outcome).to_owned(),
        Evidence::Placing(p) => format!("{}/{}", p.place, p.wins),
        Evidence::Rating(r) => format!("{:.0}", r.rating),
    };
    let mut view = pb::CaseEvidenceRevision {
        before: word(&r.before),
        after: r.after.as_ref().map(word).unwrap_or_default(),
        after_decision: r.after_decision,
        at_ms: r.at.0,
        ..Default::default()
    };
    match &r.before {
        Evidence::Game(g) => {
            view.kind = "game".into();
            view.game_id = g.game.0.clone();
            view.opponent_id = g.opponent.0.clone();
        }
        Evidence::Placing(p) => {
            view.kind = "placing".into();
            view.event_id = p.event.id.0.clone();
            view.event_name = p.event.name.clone();
        }
        Evidence::Rating(_) => view.kind = "rating".into(),
    }
    view
}

/// A game's result for the player, as the views name it.
fn outcome_word(o: weiqi_rating::GameOutcome) -> &'static str {
    match o {
        weiqi_rating::GameOutcome::Win => "win",
        weiqi_rating::GameOutcome::Loss => "loss",
        weiqi_rating::GameOutcome::Draw => "draw",
    }
}

/// A registry entry as the gateway shows it.
#[must_use]
pub fn registry_view(
    entry: &RegistryEntry,
    ladder: impl Fn(&str) -> Option<weiqi_rating::Ladder>,
) -> pb::RegistryPlayer {
    let s = &entry.state;
    pb::RegistryPlayer {
        profile: Some(profile_pb(&entry.profile)),
        rank: s.display_rank().map(|r| r.to_string()).unwrap_or_default(),
        grades: s
            .grades
            .iter()
            .map(|(l, h)| pb::GradeHeld {
                ladder: l.clone(),
                grade: h.grade.clone(),
                grade_name: ladder(l)
                    .and_then(|x| x.position(&h.grade).and_then(|p| x.grade(p).map(|g| g.name.clone())))
                    .unwrap_or_default(),
                since_ms: h.since.0,
                basis: basis_pb(h.basis) as i32,
                case_id: h.case.as_ref().map(|c| c.0.clone()).unwrap_or_default(),
            })
            .collect(),
        registered_at_ms: s.registered_at.map_or(0, |m| m.0),
        position: 0,
    }
}

/// For each evidence item of a case, which rule lines of its check it counts for (issue 15 item 16):
/// `counts for qualify-5d (met)`, `considered by qualify-5d (not met)`, or why it counts for none.
#[must_use]
pub fn evidence_use(c: &weiqi_rating::Case) -> Vec<String> {
    use weiqi_rating::{Evidence, GameOutcome, Verdict as V};
    let Some(check) = &c.check else {
        return c.evidence.iter().map(|_| "not checked yet".to_owned()).collect();
    };
    c.evidence
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let lines: Vec<String> = check
                .evaluation
                .outcomes
                .iter()
                .filter(|o| o.evidence.contains(&(i as u32)))
                .map(|o| match o.verdict {
                    V::Met(_) => format!("counts for {} (met)", o.rule),
                    _ => format!("considered by {} (not met)", o.rule),
                })
                .collect();
            if !lines.is_empty() {
                return lines.join("; ");
            }
            let why = if e.at() < c.standing.since {
                "from before the current grade"
            } else {
                match e {
                    Evidence::Game(g) if g.outcome == GameOutcome::Loss => "a loss",
                    Evidence::Game(_) => "no rule that applies counts this game",
                    Evidence::Placing(_) => "no rule that applies counts this event",
                    Evidence::Rating(_) => "no rule that applies uses this rating",
                }
            };
            format!("counts for no rule: {why}")
        })
        .collect()
}

/// A leaderboard page as the gateway shows it.
#[must_use]
pub fn leaderboard_view(board: &Leaderboard) -> pb::LeaderboardResponse {
    pb::LeaderboardResponse {
        total: board.total,
        entries: board
            .entries
            .iter()
            .map(|e| pb::LeaderboardEntry {
                place: e.place,
                player_id: e.row.player.clone(),
                name_zh: e.row.name_zh.clone(),
                name_latin: e.row.name_latin.clone(),
                rank: e.row.rank().map(|r| r.to_string()).unwrap_or_default(),
                region: e.row.region.clone(),
                club: e.row.club.clone(),
                rating: e.row.rating.unwrap_or_default(),
                deviation: e.row.deviation,
                games: e.row.games,
                provisional: e.row.provisional,
            })
            .collect(),
        position: 0,
    }
}

/// A rating report as the gateway shows it.
#[must_use]
pub fn rating_view(player: &str, r: &RatingReport) -> pb::RatingSummary {
    pb::RatingSummary {
        player_id: player.to_owned(),
        system: r.system.clone(),
        rated: r.view.is_some_and(|v| v.games > 0),
        rating: r.view.map_or(0.0, |v| v.rating),
        deviation: r.view.map_or(0.0, |v| v.deviation),
        volatility: r.view.map_or(0.0, |v| v.volatility),
        games: r.view.map_or(0, |v| v.games),
        provisional: r.view.is_none_or(|v| v.provisional),
        grade_for_rating: r.grade_for_rating.clone().unwrap_or_default(),
        pending_games: r.pending_games,
    }
}

/// A verification outcome as the gateway shows it.
#[must_use]
pub fn verify_view(
    text: &str,
    outcome: &Result<weiqi_rating::Verified, weiqi_rating::VerifyError>,
    list_sequence: u64,
) -> pb::VerifyCertificateResponse {
    use weiqi_rating::VerifyError as E;
    let body = weiqi_rating::parse_certificate(text).ok().map(|c| c.body);
    let (valid, code, message, sequence) = match outcome {
        Ok(v) => (true, "", String::new(), v.revocations_checked.map_or(list_sequence, |(s, _)| s)),
        Err(e) => {
            let code = match e {
                E::MalformedCertificate(_) => "malformed_certificate",
                E::MalformedKey(_) => "malformed_key",
                E::MalformedRevocations(_) => "malformed_revocations",
                E::WrongAssociation { .. } => "wrong_association",
                E::WrongKey { .. } => "wrong_key",
                E::BadSignature => "bad_signature",
                E::RevocationsWrongKey { .. } => "revocations_wrong_key",
                E::RevocationsBadSignature => "revocations_bad_signature",
                E::Revoked { .. } => "revoked",
            };
            (false, code, e.to_string(), list_sequence)
        }
    };
    let b = body.as_ref();
    let field = |f: fn(&weiqi_rating::CertificateBody) -> String| b.map(f).unwrap_or_default();
    pb::VerifyCertificateResponse {
        valid,
        code: code.to_owned(),
        message,
        serial: field(|b| b.serial.clone()),
        player_id: field(|b| b.player.0.clone()),
        player_name: field(|b| b.player_name.clone()),
        ladder: field(|b| b.ladder.clone()),
        grade: field(|b| b.grade.clone()),
        date: field(|b| b.date.to_string()),
        case_id: field(|b| b.case.0.clone()),
        basis: field(|b| b.basis.clone()),
        revocations_sequence: sequence,
    }
}
