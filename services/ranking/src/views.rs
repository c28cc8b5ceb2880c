//! What the ranking service's readers see: a case, a registry entry, a leaderboard page, a rating,
//! a history, a certificate's verification, an import's outcome, as domain values built from the
//! service's records. [`crate::api::RankingApi`] answers with them; the pages render them in their
//! language; the gRPC server turns them into `weiqi.v1` messages once (`grpc/wire.rs`), so no page
//! names protobuf.
//!
//! Fields keep the wire's names. Text fields that carry a code (`applicant`, an evidence item's
//! `kind`, `unused`) keep the code; `evidence`, `check_lines` and `evidence_use` are English lines for
//! programs and logs, beside the same facts as data (`items`, `checks`) for pages to say in their
//! words.

use crate::cases::CaseRecord;
use crate::domain::{Profile, RankBasis, RankEntry, RatingPoint};
use crate::ledger::RatingReport;
use crate::readmodel::Leaderboard;
use crate::registry::RegistryEntry;
pub use weiqi_rating::CaseStatus;
pub use weiqi_rating::{Basis, EventId, EventLevel, EventRef, Ineligible, RuleOutcome, Shortfall, Verdict};

/// A page of a leaderboard.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeaderboardPage {
    /// Players on the board in all.
    pub total: u64,
    /// This page's lines, best first.
    pub entries: Vec<LeaderboardLine>,
    /// The player logs' position the board has folded (read your writes).
    pub position: u64,
}

/// One player's line of a leaderboard.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeaderboardLine {
    /// 1-based.
    pub place: u32,
    pub player_id: String,
    pub name_zh: String,
    pub name_latin: String,
    /// The national rank shown with the name (`3d`, `2k`; empty: none).
    pub rank: String,
    pub region: String,
    pub club: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: u32,
    pub provisional: bool,
    /// The amateur grade the rating stands for under the mapping of the system in force ("" when the
    /// mapping has none).
    pub rating_grade: String,
}

/// A registry entry: the profile and the grades held.
#[derive(Clone, Debug, PartialEq)]
pub struct RegistryPlayer {
    /// Names, region, club, EGD PIN.
    pub profile: Profile,
    /// The national rank shown with the name (professional if held, else amateur).
    pub rank: String,
    /// The grade held in each ladder.
    pub grades: Vec<GradeHeld>,
    pub registered_at_ms: i64,
    /// After a registration or update: the player logs' position it reached (read your writes); 0 on plain reads.
    pub position: u64,
    /// The open invitation's expiry (ms); 0: none open.
    pub invitation_expires_ms: i64,
    /// When an invitation was accepted (ms); 0: never.
    pub invitation_accepted_ms: i64,
    /// Retired as a duplicate of this entry; empty: not merged.
    pub merged_into: String,
    /// The duplicates merged into this entry, with why, who and when.
    pub merges: Vec<crate::domain::player::MergeRecord>,
}

/// A grade held in one ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct GradeHeld {
    pub ladder: String,
    /// The grade's code.
    pub grade: String,
    /// Its name in the ladder.
    pub grade_name: String,
    pub since_ms: i64,
    /// Declared, certified, or the certificate revoked.
    pub basis: RankBasis,
    /// The case that granted it.
    pub case_id: String,
}

/// A player's rating points and rank changes, oldest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    pub ratings: Vec<RatingPoint>,
    pub ranks: Vec<RankEntry>,
}

/// A certificate checked against the association's key and revocation list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Verification {
    pub valid: bool,
    /// Why not: `bad_signature`, `revoked`, `wrong_key`, `wrong_association`, `malformed_certificate` …
    pub code: String,
    /// The reason in English, for logs.
    pub message: String,
    /// The certificate's contents, when it could be read.
    pub serial: String,
    pub player_id: String,
    pub player_name: String,
    pub ladder: String,
    pub grade: String,
    pub date: String,
    pub case_id: String,
    pub basis: String,
    /// The association that signed it, and the signing key's fingerprint.
    pub association: String,
    pub key_id: String,
    /// The revocation list consulted.
    pub revocations_sequence: u64,
}

/// The signed revocation list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RevocationList {
    /// The file's text.
    pub text: String,
    pub sequence: u64,
    pub entries: u32,
}

/// The association's public key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AssociationKey {
    /// The key file's text.
    pub text: String,
    pub association: String,
    pub key_id: String,
}

/// An issued certificate.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CertificateView {
    /// The certificate file's text.
    pub certificate: String,
    pub serial: String,
    pub case_id: String,
    pub player_id: String,
    pub revoked: bool,
    pub revocation_reason: String,
}

/// A player's rating now.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RatingSummary {
    pub player_id: String,
    pub system: String,
    /// False if the player has no rated game yet.
    pub rated: bool,
    pub rating: f64,
    /// Glicko-2 deviation including inactivity up to now.
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    pub provisional: bool,
    /// The grade the rating stands for under the association's mapping, if any.
    pub grade_for_rating: String,
    /// Games waiting in the open Glicko-2 period.
    pub pending_games: u32,
}

/// A certification case as its readers see it.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseView {
    pub case_id: String,
    pub player_id: String,
    pub ladder: String,
    pub current_grade: String,
    pub requested_grade: String,
    pub status: CaseStatus,
    pub opened_by: String,
    /// `player` or `organiser`.
    pub applicant: String,
    pub opened_at_ms: i64,
    /// One line per verified item, in English (the pages say `items` in their language).
    pub evidence: Vec<String>,
    /// The automatic check ran.
    pub checked: bool,
    pub check_supports_request: bool,
    pub rules_digest: String,
    /// One line per rule, in English.
    pub check_lines: Vec<String>,
    /// The same check as data, one outcome per rule (for pages to say in their words).
    pub checks: Vec<RuleOutcome>,
    pub reviewer: String,
    pub approved: bool,
    pub reasons: Vec<String>,
    pub override_reason: String,
    /// The certificate file's text, once issued.
    pub certificate: String,
    pub certificate_serial: String,
    pub revocation_reason: String,
    /// The whole case as JSON, for auditors.
    pub detail_json: String,
    /// The reviewer who proposed an override.
    pub proposed_by: String,
    /// The one who confirmed it.
    pub confirmed_by: String,
    /// What each evidence line refers to: `game:<id>`, `tournament:<id>` or `rating`.
    pub evidence_refs: Vec<String>,
    /// Which rule lines each evidence item counts for, in English.
    pub evidence_use: Vec<String>,
    /// Evidence corrected after it was attached, in order.
    pub revisions: Vec<EvidenceChange>,
    /// Evidence changed after the case was decided: the office must look again.
    pub flagged: bool,
    /// The evidence as data, in the order of `evidence`.
    pub items: Vec<EvidenceItem>,
}

/// One item of a case's evidence, as data.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvidenceItem {
    /// `game`, `placing` or `rating`.
    pub kind: String,
    pub game_id: String,
    pub opponent_id: String,
    /// For the player: `win`, `loss`, `draw`.
    pub outcome: String,
    pub event_id: String,
    pub event_name: String,
    pub group: String,
    pub place: u32,
    pub field: u32,
    pub wins: u32,
    pub rounds: u32,
    pub system: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: u32,
    /// The rules of the check that count it.
    pub met_rules: Vec<String>,
    /// The rules that considered it, not met.
    pub unmet_rules: Vec<String>,
    /// When no rule uses it, why: `not-checked`, `before-grade`, `loss`, `game`, `event`, `rating`.
    pub unused: String,
}

/// Evidence that changed after it was attached.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvidenceChange {
    pub game_id: String,
    pub opponent_id: String,
    /// A game: the result for the player as the case held it (`win` …); a placing: `place/wins`.
    pub before: String,
    /// As the log says now; empty: it no longer counts.
    pub after: String,
    /// The case was already decided.
    pub after_decision: bool,
    pub at_ms: i64,
    /// `game` or `placing`.
    pub kind: String,
    pub event_id: String,
    pub event_name: String,
}

/// What an EGD rating list seeded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EgdImport {
    /// Players seeded, with their rating.
    pub seeded: Vec<Seeded>,
    /// Registered players whose EGD PIN the list lacks.
    pub not_in_list: Vec<String>,
    /// Players already rated here (kept).
    pub already_rated: Vec<String>,
    /// Players whose GoR maps to no rating under the current system.
    pub unmapped: Vec<String>,
    /// Players the list holds.
    pub list_players: u32,
    /// The list's date (YYYY-MM-DD; empty: none).
    pub list_date: String,
}

/// A player seeded with a rating.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seeded {
    pub player_id: String,
    pub rating: f64,
}

/// What rating a `.h9` results table did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct H9Import {
    /// `h9-` and 16 hex digits of the table's SHA-256.
    pub tournament: String,
    pub already_imported: bool,
    /// Lines matched to players here.
    pub matched: Vec<H9Line>,
    /// Lines with no player here.
    pub not_registered: Vec<H9Line>,
    /// Players seeded from the table's rank before their games.
    pub seeded: Vec<Seeded>,
    pub games: u32,
    /// Games left out because a player is not here.
    pub games_left_out: u32,
    /// Players whose rating changed.
    pub rated: u32,
}

/// A line of a `.h9` table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct H9Line {
    pub line: u32,
    /// Matched: the player here.
    pub player_id: String,
    /// Not registered: the name.
    pub name: String,
    /// Not registered: the EGD PIN (0: none).
    pub egd_pin: u64,
}

/// A case as its readers see it.
#[must_use]
pub fn case_view(record: &CaseRecord) -> CaseView {
    use weiqi_rating::{Applicant, Evidence};
    let c = &record.case;
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
    let checks = c.check.as_ref().map(|check| check.evaluation.outcomes.clone()).unwrap_or_default();
    let decision = c.decision.as_ref();
    CaseView {
        case_id: c.id.0.clone(),
        player_id: c.player.0.clone(),
        ladder: c.ladder.clone(),
        current_grade: c.standing.grade.clone().unwrap_or_default(),
        requested_grade: c.requested.clone(),
        status: c.status,
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
        checks,
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
fn evidence_items(c: &weiqi_rating::Case) -> Vec<EvidenceItem> {
    use weiqi_rating::{Evidence, GameOutcome, Verdict as V};
    c.evidence
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut item = EvidenceItem::default();
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
fn revision_view(r: &weiqi_rating::EvidenceRevision) -> EvidenceChange {
    use weiqi_rating::Evidence;
    let word = |e: &Evidence| match e {
        Evidence::Game(g) => outcome_word(g.outcome).to_owned(),
        Evidence::Placing(p) => format!("{}/{}", p.place, p.wins),
        Evidence::Rating(r) => format!("{:.0}", r.rating),
    };
    let mut view = EvidenceChange {
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

/// A registry entry as its readers see it.
#[must_use]
pub fn registry_view(entry: &RegistryEntry, ladder: impl Fn(&str) -> Option<weiqi_rating::Ladder>) -> RegistryPlayer {
    let s = &entry.state;
    RegistryPlayer {
        profile: entry.profile.clone(),
        rank: s.display_rank().map(|r| r.to_string()).unwrap_or_default(),
        grades: s
            .grades
            .iter()
            .map(|(l, h)| GradeHeld {
                ladder: l.clone(),
                grade: h.grade.clone(),
                grade_name: ladder(l)
                    .and_then(|x| x.position(&h.grade).and_then(|p| x.grade(p).map(|g| g.name.clone())))
                    .unwrap_or_default(),
                since_ms: h.since.0,
                basis: h.basis,
                case_id: h.case.as_ref().map(|c| c.0.clone()).unwrap_or_default(),
            })
            .collect(),
        registered_at_ms: s.registered_at.map_or(0, |m| m.0),
        position: 0,
        invitation_expires_ms: s.invitation.as_ref().map_or(0, |i| i.expires_at.0),
        invitation_accepted_ms: s.invitation_accepted.map_or(0, |m| m.0),
        merged_into: s.merged_into.as_ref().map(|m| m.into.0.clone()).unwrap_or_default(),
        merges: s.absorbed.clone(),
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

/// A leaderboard page.
#[must_use]
pub fn leaderboard_view(board: &Leaderboard) -> LeaderboardPage {
    LeaderboardPage {
        total: board.total,
        entries: board
            .entries
            .iter()
            .map(|e| LeaderboardLine {
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
                rating_grade: String::new(),
            })
            .collect(),
        position: 0,
    }
}

/// A rating report as its reader sees it.
#[must_use]
pub fn rating_view(player: &str, r: &RatingReport) -> RatingSummary {
    RatingSummary {
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

/// A verification outcome.
#[must_use]
pub fn verify_view(
    text: &str,
    outcome: &Result<weiqi_rating::Verified, weiqi_rating::VerifyError>,
    list_sequence: u64,
) -> Verification {
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
    Verification {
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
        association: field(|b| b.association.clone()),
        key_id: field(|b| b.key_id.clone()),
        revocations_sequence: sequence,
    }
}
