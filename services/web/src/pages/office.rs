//! The certification office (`/office`): the review queue; a case with its evidence linked to the
//! games (their pages and SGF) and the tournaments, and the automatic check line by line; assign,
//! decide, confirm an override (four eyes: a second, different reviewer), revoke; the current
//! revocation list. And the player's side (`/account/rank`): apply for a grade with evidence chosen
//! from their own finished games and tournaments, and follow their cases.
//!
//! Every command is the gateway's own `RankingService` call with the session's token: the office adds
//! no rule and no permission of its own (the ranking service refuses a party reviewing, a second
//! approval by the same reviewer, an override without a justification…, and the page says why).

use serde::Deserialize;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::{Markup, html};
use weiqi_edge::auth::Role;
use weiqi_ranking::api::RankingApi;
use weiqi_ranking::cases::{Application, Verdict};
use weiqi_ranking::views::{Basis, CaseStatus, CaseView, EventRef, EvidenceItem, Ineligible, RuleOutcome, Shortfall};

use super::desk::rid_field;
use super::{
    acting, csrf_field, csrf_refused, form_request_id, message, notice, page, redirect, refused_status, refused_text,
    with_status,
};
use crate::Web;
use crate::i18n::{Lang, grade_text, rank_text, t, ta, try_t};
use crate::session::{Member, Viewer, csrf_ok};

/// The ranking service's API, when this process runs it.
fn ranking(web: &Web) -> Option<&RankingApi> {
    web.ranking.as_ref()
}

fn reviewer(viewer: &Viewer) -> Option<&Member> {
    <super::OfficeRule as super::StaffRule>::admits(viewer)
}

/// A case's status as a word (`data-status` carries the stable name).
pub fn status_name(status: CaseStatus) -> &'static str {
    match status {
        CaseStatus::Open => "open",
        CaseStatus::AwaitingConfirmation => "awaiting-confirmation",
        CaseStatus::Approved => "approved",
        CaseStatus::Rejected => "rejected",
        CaseStatus::Issued => "issued",
        CaseStatus::Revoked => "revoked",
    }
}

pub(crate) fn status_text_of(lang: Lang, status: CaseStatus) -> String {
    t(lang, &format!("case-status-{}", status_name(status)))
}

fn cases_table(lang: Lang, cases: &[CaseView], link: bool) -> Markup {
    html! {
        div.table-wrap { table.cases {
            thead { tr {
                th { (t(lang, "case-id")) } th { (t(lang, "case-player")) } th { (t(lang, "case-grades")) }
                th { (t(lang, "field-status")) } th { (t(lang, "case-reviewer")) } th { (t(lang, "case-check")) }
            } }
            tbody { @for c in cases {
                tr data-case=(c.case_id) data-status=(status_name(c.status)) {
                    td { @if link { a href={ "/office/cases/" (c.case_id) } { (c.case_id) } } @else { a href={ "/account/rank?case=" (c.case_id) } { (c.case_id) } } }
                    td { a href={ "/players/" (c.player_id) } { (c.player_id) } }
                    td { (if c.current_grade.is_empty() { "—".to_string() } else { grade_text(lang, &c.ladder, &c.current_grade) }) " → " (grade_text(lang, &c.ladder, &c.requested_grade)) }
                    td { (status_text_of(lang, c.status)) @if c.flagged { " " span.warning data-flag="" { (t(lang, "case-flag-short")) } } }
                    td { (c.reviewer) }
                    td { (check_word(lang, c)) }
                }
            } }
        } }
    }
}

fn check_word(lang: Lang, c: &CaseView) -> String {
    match (c.checked, c.check_supports_request) {
        (false, _) => t(lang, "case-check-not-run"),
        (true, true) => t(lang, "case-check-supports"),
        (true, false) => t(lang, "case-check-does-not-support"),
    }
}

/// `GET /office`: the review queue (unassigned, mine, and overrides waiting for a second reviewer).
pub async fn queue(
    State(web): State<Arc<Web>>,
    super::Reviewer { viewer, member, .. }: super::Reviewer,
    RawQuery(q): RawQuery,
) -> Response {
    let lang = viewer.lang;
    let Some(r) = ranking(&web) else {
        return message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable"));
    };
    let all = super::params(q.as_deref()).get("all").is_some_and(|v| v == "1");
    let cases = match r.review_queue(&member.claims, all).await {
        Ok(c) => c,
        Err(e) => return message(&web, &viewer, refused_status(&e), &refused_text(lang, &e)),
    };
    let body = html! {
        h1 { (t(lang, "office-title")) }
        p.small {
            @if all { a href="/office" { (t(lang, "office-mine")) } } @else { a href="/office?all=1" { (t(lang, "office-all")) } }
            " · " a href="/office/revocations" { (t(lang, "office-revocations")) }
        }
        section.card id="queue" {
            h2 { (t(lang, "office-queue")) }
            @if cases.is_empty() { p.small data-empty="" { (t(lang, "office-queue-empty")) } }
            @else { (cases_table(lang, &cases, true)) }
        }
    };
    page(&web, &viewer, &t(lang, "office-title"), body, &[])
}

/// `GET /office/cases/{id}`.
pub async fn case_get(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
) -> Response {
    let note = super::params(q.as_deref())
        .get("done")
        .and_then(|d| try_t(viewer.lang, &format!("office-done-{d}")))
        .map(|text| (true, text));
    render_case(&web, &viewer, &id, note).await
}

fn evidence_link(lang: Lang, reference: &str) -> Markup {
    html! {
        @if let Some(game) = reference.strip_prefix("game:") {
            a href={ "/games/" (game) } data-evidence-game=(game) { (t(lang, "case-open-game")) } " · "
            a href={ "/games/" (game) "/sgf" } { "SGF" }
        } @else if let Some(tournament) = reference.strip_prefix("tournament:") {
            a href={ "/tournaments/" (tournament) } data-evidence-tournament=(tournament) { (t(lang, "case-open-results")) }
        }
    }
}

async fn render_case(web: &Web, viewer: &Viewer, id: &str, note: Option<(bool, String)>) -> Response {
    let lang = viewer.lang;
    let (Some(member), Some(r)) = (reviewer(viewer), ranking(web)) else {
        return message(web, viewer, StatusCode::FORBIDDEN, &t(lang, "office-only"));
    };
    let c = match r.case(&member.claims, id).await {
        Ok(c) => c,
        Err(e) => return message(web, viewer, refused_status(&e), &refused_text(lang, &e)),
    };
    let status = status_name(c.status);
    let action = |verb: &str| format!("/office/cases/{id}/{verb}");
    let me = member.name().to_string();
    let body = html! {
        h1 { (ta(lang, "case-title", &[("id", c.case_id.clone())])) }
        (notice(note.as_ref()))
        section.card id="case" data-status=(status) {
            dl.facts {
                dt { (t(lang, "case-player")) } dd { a href={ "/players/" (c.player_id) } { (c.player_id) } }
                dt { (t(lang, "case-grades")) } dd { (if c.current_grade.is_empty() { "—".to_string() } else { grade_text(lang, &c.ladder, &c.current_grade) }) " → " strong { (grade_text(lang, &c.ladder, &c.requested_grade)) } }
                dt { (t(lang, "field-status")) } dd data-case-status=(status) { (status_text_of(lang, c.status)) }
                dt { (t(lang, "case-applicant")) } dd { (c.opened_by) " (" (t(lang, &format!("case-applicant-{}", c.applicant))) ")" }
                dt { (t(lang, "case-reviewer")) } dd { (if c.reviewer.is_empty() { t(lang, "case-unassigned") } else { c.reviewer.clone() }) }
                @if !c.proposed_by.is_empty() { dt { (t(lang, "case-proposed-by")) } dd { (c.proposed_by) } }
                @if !c.confirmed_by.is_empty() { dt { (t(lang, "case-confirmed-by")) } dd { (c.confirmed_by) } }
                @if !c.override_reason.is_empty() { dt { (t(lang, "case-override")) } dd { (c.override_reason) } }
                @if !c.reasons.is_empty() { dt { (t(lang, "case-reasons")) } dd { (c.reasons.join("; ")) } }
                @if !c.revocation_reason.is_empty() { dt { (t(lang, "case-revocation")) } dd { (c.revocation_reason) } }
            }
        }
        section.card id="evidence" {
            h2 { (t(lang, "case-evidence")) }
            @if c.evidence.is_empty() { p.small { (t(lang, "case-no-evidence")) } }
            ol { @for (i, line) in c.evidence.iter().enumerate() {
                li data-evidence=(i) {
                    // In the page's language from the evidence's data; the service's own line otherwise.
                    @match c.items.get(i) {
                        Some(item) => (evidence_line(lang, item)),
                        None => (line),
                    }
                    " " (evidence_link(lang, c.evidence_refs.get(i).map_or("", String::as_str)))
                    @match c.items.get(i) {
                        Some(item) => { br; span.small data-evidence-use=(i) { (evidence_use(lang, item)) } }
                        None => @if let Some(used) = c.evidence_use.get(i) { br; span.small.mono data-evidence-use=(i) { (used) } },
                    }
                }
            } }
        }
        @if !c.revisions.is_empty() {
            section.card id="revisions" data-flagged=(c.flagged) {
                h2 { (t(lang, "case-revisions")) }
                @if c.flagged { p.warning role="alert" data-flag="" { (t(lang, "case-flagged")) } }
                ol { @for r in &c.revisions {
                    @if r.kind == "placing" {
                        li data-revision=(r.event_id) data-before=(r.before) data-after=(r.after) {
                            (ta(lang, "case-revision-placing", &[
                                ("event", if r.event_name.is_empty() { r.event_id.clone() } else { r.event_name.clone() }),
                                ("before", placing_text(lang, &r.before)),
                                ("after", if r.after.is_empty() { t(lang, "case-outcome-none") } else { placing_text(lang, &r.after) }),
                            ]))
                            " " a href={ "/tournaments/" (r.event_id) } { (t(lang, "case-open-results")) }
                            @if r.after_decision { " " span.small { (t(lang, "case-revision-after-decision")) } }
                        }
                    } @else {
                        li data-revision=(r.game_id) data-before=(r.before) data-after=(r.after) {
                            (ta(lang, "case-revision", &[
                                ("opponent", r.opponent_id.clone()),
                                ("before", t(lang, &format!("case-outcome-{}", r.before))),
                                ("after", if r.after.is_empty() { t(lang, "case-outcome-none") } else { t(lang, &format!("case-outcome-{}", r.after)) }),
                            ]))
                            " " a href={ "/games/" (r.game_id) } { (t(lang, "case-open-game")) }
                            @if r.after_decision { " " span.small { (t(lang, "case-revision-after-decision")) } }
                        }
                    }
                } }
                @if c.flagged {
                    form.grid method="post" action=(action("acknowledge")) {
                        (csrf_field(viewer)) (rid_field())
                        label { (t(lang, "case-acknowledge-note")) textarea name="note" rows="2" required {} }
                        button type="submit" data-action="acknowledge" { (t(lang, "case-acknowledge")) }
                    }
                }
            }
        }
        section.card id="check" {
            h2 { (t(lang, "case-check")) " — " (check_word(lang, &c)) }
            @if !c.rules_digest.is_empty() { p.small.mono { (t(lang, "case-rules-digest")) " " (c.rules_digest) } }
            // In the page's language from the check's data (issue 30 item 6); the service's lines for a
            // case whose check has no data.
            ol.check-lines {
                @if c.checks.is_empty() { @for line in &c.check_lines { li.mono { (line) } } }
                @for (i, o) in c.checks.iter().enumerate() { li data-check=(i) data-rule=(o.rule) { (check_line(lang, &c.ladder, o)) } }
            }
        }
        @if status == "open" || status == "awaiting-confirmation" {
            section.card id="decide" {
                h2 { (t(lang, "case-decide")) }
                @if status == "open" && c.reviewer != me {
                    form.inline method="post" action=(action("assign")) {
                        (csrf_field(viewer)) (rid_field())
                        button type="submit" data-action="assign-me" { (t(lang, "case-assign-me")) }
                    }
                }
                @if status == "awaiting-confirmation" {
                    p role="status" data-four-eyes="" { (ta(lang, "case-awaiting", &[("who", c.proposed_by.clone())])) }
                }
                @if status == "open" && !c.check_supports_request {
                    p.small { (ta(lang, "case-override-help", &[("n", "20".to_string())])) }
                }
                form.grid method="post" action=(action("decide")) {
                    (csrf_field(viewer)) (rid_field())
                    @if status == "open" {
                        label { (t(lang, "case-note")) textarea name="reasons" rows="2" {} }
                        @if !c.check_supports_request {
                            label { (t(lang, "case-override")) textarea name="override_reason" rows="3" {} }
                        }
                    } @else {
                        label { (t(lang, "case-decline-reason")) textarea name="reasons" rows="2" {} }
                    }
                    div.actions {
                        button type="submit" name="verdict" value="approve" data-action=(if status == "open" { "approve" } else { "confirm" }) {
                            (t(lang, if status == "open" { "case-approve" } else { "case-confirm" }))
                        }
                        button type="submit" name="verdict" value="reject" data-action="reject" { (t(lang, "case-reject")) }
                    }
                }
            }
        }
        @if status == "issued" {
            section.card id="certificate" {
                h2 { (t(lang, "case-certificate")) }
                p { a href={ "/certificates/" (c.certificate_serial) } data-certificate=(c.certificate_serial) { (c.certificate_serial) } }
                form.grid method="post" action=(action("revoke")) {
                    (csrf_field(viewer)) (rid_field())
                    label { (t(lang, "case-revocation")) textarea name="reason" rows="2" required {} }
                    button type="submit" data-action="revoke-certificate" { (t(lang, "case-revoke")) }
                }
            }
        }
        @if status == "revoked" && !c.certificate_serial.is_empty() {
            p { a href={ "/certificates/" (c.certificate_serial) } data-certificate=(c.certificate_serial) { (c.certificate_serial) } }
        }
        p.small { a href="/office" { (t(lang, "office-back")) } }
    };
    page(web, viewer, &ta(lang, "case-title", &[("id", c.case_id.clone())]), body, &[])
}

/// One item of evidence in the page's language.
fn evidence_line(lang: Lang, item: &EvidenceItem) -> String {
    let event = if item.event_name.is_empty() { item.event_id.clone() } else { item.event_name.clone() };
    match item.kind.as_str() {
        "game" => {
            let outcome = t(lang, &format!("case-outcome-{}", item.outcome));
            let line = ta(lang, "case-item-game", &[("opponent", item.opponent_id.clone()), ("result", outcome)]);
            if event.is_empty() { line } else { ta(lang, "case-item-in-event", &[("line", line), ("event", event)]) }
        }
        "placing" => ta(
            lang,
            "case-item-placing",
            &[
                ("event", event),
                ("group", if item.group.is_empty() { "—".to_owned() } else { rank_text(lang, &item.group) }),
                ("place", item.place.to_string()),
                ("n", item.field.to_string()),
                ("wins", item.wins.to_string()),
                ("rounds", item.rounds.to_string()),
            ],
        ),
        _ => ta(
            lang,
            "case-item-rating",
            &[
                ("system", item.system.clone()),
                ("rating", format!("{:.1}", item.rating)),
                ("games", item.games.to_string()),
            ],
        ),
    }
}

/// One rule's verdict of a case's check, in the page's language: the rule's id (a code of the
/// association's rule file), the grade it gives as the association writes it, and why.
fn check_line(lang: Lang, ladder: &str, o: &RuleOutcome) -> String {
    use weiqi_ranking::views::Verdict as V;
    let event = |e: &EventRef| if e.name.is_empty() { e.id.to_string() } else { e.name.clone() };
    let n = |v: u32| v.to_string();
    let (verdict, why) = match &o.verdict {
        V::Met(b) => (
            "check-met",
            match b {
                Basis::WinsInGroup { event: e, group, wins, rounds } => ta(
                    lang,
                    "check-basis-wins",
                    &[
                        ("wins", n(*wins)),
                        ("rounds", n(*rounds)),
                        ("event", event(e)),
                        ("group", group.as_deref().map_or_else(|| "none".to_owned(), |g| rank_text(lang, g))),
                    ],
                ),
                Basis::Placed { event: e, place, max_place } => {
                    ta(lang, "check-basis-placed", &[("place", n(*place)), ("event", event(e)), ("max", n(*max_place))])
                }
                Basis::Won { event: e } => ta(lang, "check-basis-won", &[("event", event(e))]),
                Basis::WithinQuota { event: e, place, slots, eligible, percent } => ta(
                    lang,
                    "check-basis-quota",
                    &[
                        ("place", n(*place)),
                        ("event", event(e)),
                        ("slots", n(*slots)),
                        ("percent", percent.to_string()),
                        ("eligible", n(*eligible)),
                    ],
                ),
                Basis::RatingReached { system, rating, threshold, games, .. } => ta(
                    lang,
                    "check-basis-rating",
                    &[
                        ("system", system_name(lang, system)),
                        ("rating", format!("{rating:.1}")),
                        ("threshold", threshold.to_string()),
                        ("games", n(*games)),
                    ],
                ),
                Basis::PointsReached { points, needed, from_games, from_places, games } => ta(
                    lang,
                    "check-basis-points",
                    &[
                        ("points", points.to_string()),
                        ("needed", needed.to_string()),
                        ("from_games", from_games.to_string()),
                        ("games", n(*games)),
                        ("from_places", from_places.to_string()),
                    ],
                ),
            },
        ),
        V::Unmet(s) => (
            "check-unmet",
            match s {
                // What the rule looks for is the rule file's (its id names it); the English line spells it.
                Shortfall::NoMatchingResult { wanted } => {
                    ta(lang, "check-short-no-result", &[("wanted", wanted.clone())])
                }
                Shortfall::TooFewWins { wins, needed, rounds } => {
                    ta(lang, "check-short-wins", &[("wins", n(*wins)), ("rounds", n(*rounds)), ("needed", n(*needed))])
                }
                Shortfall::PlaceTooLow { place, max_place } => {
                    ta(lang, "check-short-place", &[("place", n(*place)), ("max", n(*max_place))])
                }
                Shortfall::NotWon { place } => ta(lang, "check-short-not-won", &[("place", n(*place))]),
                Shortfall::OutsideQuota { place, slots, eligible } => ta(
                    lang,
                    "check-short-quota",
                    &[("place", n(*place)), ("slots", n(*slots)), ("eligible", n(*eligible))],
                ),
                Shortfall::NoRating { system } => {
                    ta(lang, "check-short-no-rating", &[("system", system_name(lang, system))])
                }
                Shortfall::RatingTooLow { rating, threshold } => ta(
                    lang,
                    "check-short-rating",
                    &[("rating", format!("{rating:.1}")), ("threshold", threshold.to_string())],
                ),
                Shortfall::TooFewRatedGames { games, needed } => {
                    ta(lang, "check-short-games", &[("games", n(*games)), ("needed", n(*needed))])
                }
                Shortfall::DeviationTooHigh { deviation, max } => ta(
                    lang,
                    "check-short-deviation",
                    &[("deviation", format!("{deviation:.1}")), ("max", max.to_string())],
                ),
                Shortfall::TooFewPoints { points, needed } => {
                    ta(lang, "check-short-points", &[("points", points.to_string()), ("needed", needed.to_string())])
                }
            },
        ),
        V::NotEligible(i) => (
            "check-not-eligible",
            match i {
                Ineligible::AlreadyAtOrAbove { current } => {
                    ta(lang, "check-already", &[("grade", grade_text(lang, ladder, current))])
                }
                Ineligible::NotFromGrade { current, allowed } => {
                    let allowed: Vec<String> = allowed.iter().map(|g| grade_text(lang, ladder, g)).collect();
                    ta(
                        lang,
                        "check-not-from",
                        &[
                            ("grade", grade_text(lang, ladder, current)),
                            ("allowed", allowed.join(&t(lang, "list-separator"))),
                        ],
                    )
                }
            },
        ),
    };
    ta(lang, verdict, &[("rule", o.rule.clone()), ("grade", grade_text(lang, ladder, &o.to)), ("why", why)])
}

/// A rating system's name as its readers know it (Glicko-2, Elo, EGF).
pub(super) fn system_name(lang: Lang, system: &str) -> String {
    try_t(lang, &format!("rating-system-{system}")).unwrap_or_else(|| system.to_owned())
}

/// Which rules of the check use an item, in the page's language.
fn evidence_use(lang: Lang, item: &EvidenceItem) -> String {
    let mut parts = Vec::new();
    if !item.met_rules.is_empty() {
        parts.push(ta(lang, "case-use-met", &[("rule", item.met_rules.join(", "))]));
    }
    if !item.unmet_rules.is_empty() {
        parts.push(ta(lang, "case-use-unmet", &[("rule", item.unmet_rules.join(", "))]));
    }
    if !item.unused.is_empty() {
        parts.push(t(lang, &format!("case-use-none-{}", item.unused)));
    }
    parts.join(&t(lang, "sentence-separator"))
}

/// A placing's "place/wins" as the page's readers say it.
fn placing_text(lang: Lang, value: &str) -> String {
    let (place, wins) = value.split_once('/').unwrap_or((value, ""));
    ta(lang, "case-placing", &[("place", place.to_owned()), ("wins", wins.to_owned())])
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect()
}

/// The case page's forms: the CSRF token and request id every one carries, and the fields of each
/// command (a verdict with its reasons and an override's reason, an acknowledgement's note, a
/// revocation's reason).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CaseForm {
    csrf: String,
    rid: String,
    /// `approve` or `reject`.
    verdict: String,
    /// One reason a line.
    reasons: String,
    override_reason: String,
    note: String,
    reason: String,
}

/// `POST /office/cases/{id}/{verb}`: `assign` (to me), `decide` (approve, confirm or reject),
/// `acknowledge` (keep a decision whose evidence changed), `revoke`.
pub async fn case_act(
    State(web): State<Arc<Web>>,
    Path((id, verb)): Path<(String, String)>,
    headers: HeaderMap,
    Form(form): Form<CaseForm>,
) -> Response {
    let (viewer, member) = match acting(&web, &headers, Some(&form.csrf), reviewer, "office-only").await {
        Ok(v) => v,
        Err(refused) => return refused,
    };
    let lang = viewer.lang;
    let Some(r) = ranking(&web) else {
        return message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable"));
    };
    let claims = &member.claims;
    let rid = form_request_id(Some(&form.rid));
    let outcome = match verb.as_str() {
        "assign" => r.assign_reviewer(claims, &id, "", &rid).await.map(|_| ()),
        "decide" => {
            let decision = if form.verdict.trim() == "approve" {
                let override_reason = Some(form.override_reason.trim().to_string()).filter(|o| !o.is_empty());
                Verdict::Approve { note: lines(&form.reasons).join("; "), override_reason }
            } else {
                Verdict::Reject { reasons: lines(&form.reasons) }
            };
            r.decide(claims, &id, decision, &rid).await.map(|_| ())
        }
        "acknowledge" => r.acknowledge_revisions(claims, &id, form.note.trim(), &rid).await.map(|_| ()),
        "revoke" => r.revoke(claims, &id, form.reason.trim(), &rid).await.map(|_| ()),
        _ => return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "desk-unknown-command")),
    };
    match outcome {
        Ok(()) => redirect(&format!("/office/cases/{id}?done={verb}"), vec![]),
        Err(e) => with_status(
            render_case(&web, &viewer, &id, Some((false, refused_text(lang, &e)))).await,
            refused_status(&e),
        ),
    }
}

/// `GET /office/revocations`: the current signed revocation list (public: anyone may check it).
pub async fn revocations(State(web): State<Arc<Web>>, viewer: Viewer) -> Response {
    let lang = viewer.lang;
    let Some(r) = ranking(&web) else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "refusal-unavailable"));
    };
    let list = match r.revocation_list().await {
        Ok(l) => l,
        Err(e) => return message(&web, &viewer, refused_status(&e), &refused_text(lang, &e)),
    };
    let body = html! {
        h1 { (t(lang, "office-revocations")) }
        p data-revocations=(list.entries) { (ta(lang, "revocations-summary", &[("n", list.entries.to_string()), ("sequence", list.sequence.to_string())])) }
        pre.certificate data-revocation-list="" { (list.text) }
    };
    page(&web, &viewer, &t(lang, "office-revocations"), body, &[])
}

// ---- the player's side ----

/// `GET /account/rank`: apply for a grade with evidence from one's own games and tournaments, and
/// one's cases.
pub async fn apply_form(State(web): State<Arc<Web>>, viewer: Viewer) -> Response {
    render_apply(&web, &viewer, None).await
}

async fn render_apply(web: &Web, viewer: &Viewer, note: Option<(bool, String)>) -> Response {
    let lang = viewer.lang;
    let (Some(member), Some(r)) = (viewer.member.as_ref(), ranking(web)) else {
        return super::redirect("/login?next=/account/rank", vec![]);
    };
    let me = member.name().to_string();
    let cases = r.my_cases(&member.claims).await.unwrap_or_default();
    let games = web.index.games(200, |g| g.seats(&me) && g.state.result.is_some());
    // Tournaments by their names, as players know them (issue 33 item 2), not by their ids.
    let mut tournaments = Vec::new();
    for id in web.index.tournaments() {
        let name = match &web.tournaments {
            Some(api) => api.summary(&id, 0).await.map(|s| s.name).unwrap_or_default(),
            None => String::new(),
        };
        tournaments.push((id, name));
    }
    let body = html! {
        h1 { (t(lang, "apply-title")) }
        p.small { a href={ "/players/" (me) } data-my-profile="" { (t(lang, "apply-my-profile")) } }
        (notice(note.as_ref()))
        @if !cases.is_empty() {
            section.card id="my-cases" { h2 { (t(lang, "apply-my-cases")) } (cases_table(lang, &cases, member.has(Role::Reviewer))) }
        }
        section.card id="apply" {
            h2 { (t(lang, "apply-new")) }
            form.grid method="post" action="/account/rank" {
                (csrf_field(viewer)) (rid_field())
                label { (t(lang, "apply-grade")) input name="grade" required placeholder="1d" pattern="[0-9]{1,2}[kdpKDP]"; }
                fieldset {
                    legend { (t(lang, "apply-games")) }
                    @if games.is_empty() { p.small { (t(lang, "apply-no-games")) } }
                    // Each game as people know it: its day, colour, opponent and result (not its id).
                    @for g in &games {
                        @let line = super::players::game_line(web, lang, &me, &g.state);
                        label.check {
                            input type="checkbox" name="game" value=(g.id) data-evidence=(g.id);
                            span {
                                (line.date) " · " (line.words)
                                @if let Some((event, round)) = &line.event {
                                    @let name = tournaments.iter().find(|(id, _)| id == event).map(|(_, n)| n.as_str()).filter(|n| !n.is_empty()).unwrap_or(event.as_str());
                                    " · " span data-event=(event) { (ta(lang, "apply-game-event", &[("event", name.to_string()), ("round", round.to_string())])) }
                                }
                                @if let Some(r) = &line.result { " · " (r) }
                                @if let Some(o) = line.outcome { " " strong.outcome { (t(lang, &format!("profile-{o}"))) } }
                            }
                        }
                    }
                }
                fieldset {
                    legend { (t(lang, "apply-tournaments")) }
                    @if tournaments.is_empty() { p.small { (t(lang, "apply-no-tournaments")) } }
                    @for (id, name) in &tournaments {
                        label.check {
                            input type="checkbox" name="tournament" value=(id);
                            @if name.is_empty() { (id) } @else { (name) " " span.small { "(" (id) ")" } }
                        }
                    }
                }
                label.check { input type="checkbox" name="rating" value="on"; (t(lang, "apply-include-rating")) }
                button type="submit" data-action="apply-for-rank" { (t(lang, "apply-submit")) }
            }
        }
    };
    let mut response = page(web, viewer, &t(lang, "apply-title"), body, &[]);
    if note.as_ref().is_some_and(|n| !n.0) {
        *response.status_mut() = StatusCode::BAD_REQUEST;
    }
    response
}

/// `POST /account/rank`: the application (a form with repeated `game` and `tournament` fields).
pub async fn apply(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    headers: HeaderMap,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Response {
    let one = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim().to_string()).unwrap_or_default();
    let all = |k: &str| pairs.iter().filter(|(n, _)| n == k).map(|(_, v)| v.clone()).collect::<Vec<_>>();
    if !csrf_ok(&headers, Some(&one("csrf"))) {
        return csrf_refused(&web, &viewer);
    }
    let lang = viewer.lang;
    let (Some(member), Some(r)) = (viewer.member.as_ref(), ranking(&web)) else {
        return super::redirect("/login?next=/account/rank", vec![]);
    };
    let a = Application {
        request_id: form_request_id(Some(&one("rid"))),
        // The applicant themself.
        player: "".into(),
        ladder: String::new(),
        requested: one("grade").to_lowercase(),
        games: all("game"),
        tournaments: all("tournament"),
        include_rating: one("rating") == "on",
    };
    match r.apply(&member.claims, a).await {
        Ok(c) => {
            let text =
                ta(lang, "apply-opened", &[("id", c.case_id.clone()), ("status", status_text_of(lang, c.status))]);
            render_apply(&web, &viewer, Some((true, text))).await
        }
        Err(e) => {
            with_status(render_apply(&web, &viewer, Some((false, refused_text(lang, &e)))).await, refused_status(&e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weiqi_ranking::views::Verdict as V;

    fn outcome(verdict: V) -> RuleOutcome {
        RuleOutcome {
            rule: "dan-1d-by-group".into(),
            kind: "wins-in-group".into(),
            to: "1d".into(),
            verdict,
            evidence: vec![],
        }
    }

    /// Issue 30 item 6: the check's lines in the page's language, from the check's data: on a Chinese
    /// page no word of English but the rule's id (a code of the association's rule file).
    #[test]
    fn a_check_line_is_said_in_the_pages_language() {
        let event = EventRef {
            id: weiqi_ranking::views::EventId("hz-mcmahon".into()),
            name: "2026 杭州麦克马洪赛".into(),
            kind: "dan-qualification".into(),
            level: weiqi_ranking::views::EventLevel::City,
        };
        let lines = [
            outcome(V::Met(Basis::WinsInGroup { event: event.clone(), group: Some("1d".into()), wins: 5, rounds: 7 })),
            outcome(V::Met(Basis::WinsInGroup { event, group: None, wins: 5, rounds: 7 })),
            outcome(V::Unmet(Shortfall::TooFewWins { wins: 4, needed: 5, rounds: 7 })),
            outcome(V::Unmet(Shortfall::NoMatchingResult {
                wanted: "events of kind dan-qualification (7 rounds)".into(),
            })),
            outcome(V::Unmet(Shortfall::DeviationTooHigh { deviation: 150.0, max: 110.0 })),
            outcome(V::NotEligible(Ineligible::NotFromGrade {
                current: "unranked".into(),
                allowed: vec!["2k".into(), "1k".into()],
            })),
        ];
        let zh: Vec<String> = lines.iter().map(|o| check_line(Lang::ZhCn, "amateur", o)).collect();
        assert_eq!(zh[0], "dan-1d-by-group（→ 业余1段）：满足：在2026 杭州麦克马洪赛业余1段组7轮中胜5局");
        assert_eq!(zh[1], "dan-1d-by-group（→ 业余1段）：满足：在2026 杭州麦克马洪赛7轮中胜5局");
        assert_eq!(zh[2], "dan-1d-by-group（→ 业余1段）：未满足：7轮中胜4局，需胜5局");
        assert_eq!(zh[5], "dan-1d-by-group（→ 业余1段）：不适用：本条规则只适用于2级、1级，不适用于无段级");
        for line in &zh {
            let words = line.replace("dan-1d-by-group", "");
            let latin: Vec<&str> = words.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| !w.is_empty()).collect();
            assert!(latin.is_empty(), "{line}: {latin:?}");
        }
        let en = check_line(Lang::En, "amateur", &lines[2]);
        assert_eq!(en, "dan-1d-by-group (→ 1 dan (amateur)): not met: 4 wins of 7, 5 needed");
    }
}
