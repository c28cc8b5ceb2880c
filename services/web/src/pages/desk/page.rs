//! `GET /desk/tournaments/{id}`: a tournament's desk page (its state, the forms for the next step,
//! each pairing explained, the Art. 28 ruling of each withdrawal).

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, html};
use weiqi_tournament::views;

use crate::Web;
use crate::i18n::{Lang, rank_text, t, ta, try_t};
use crate::pages::tournament::{pairings_table, standings_table};
use crate::pages::{csrf_field, message, notice, page};
use crate::session::Viewer;

use super::list::phase_text;
use super::*;

/// `GET /desk/tournaments/{id}`.
pub async fn page_get(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
) -> Response {
    let lang = viewer.lang;
    let query = crate::pages::params(q.as_deref());
    let mut note = query.get("done").and_then(|d| try_t(lang, &format!("desk-done-{d}"))).map(|text| (true, text));
    let explain = query.get("explain").cloned();
    let mut draft = None;
    if query.contains_key("draft")
        && let (Some(member), Some(s)) = (staff(&viewer), service(&web))
    {
        match s.preview(&member.caller(), &id).await {
            Ok(mut p) => {
                for g in &mut p.games {
                    g.result = "draft".into();
                }
                draft = Some(html! {
                    section.card id="draft" data-draft-round=(p.round) {
                        h2 { (ta(lang, "desk-draft", &[("round", p.round.to_string())])) }
                        p.small { (t(lang, "desk-draft-help")) }
                        (pairings_table(lang, &p))
                    }
                });
            }
            Err(e) => note = Some((false, refused_text(lang, &e))),
        }
    }
    let results = query.get("results").and_then(|r| r.parse().ok());
    render(&web, &viewer, &id, note, draft, Shown { explain, results }).await
}

/// The fields of one player's registration (the registration form and the late-entry form).
pub(super) fn player_fields(lang: Lang, rank_example: &str) -> Markup {
    html! {
        label { (t(lang, "desk-field-account")) input name="account" required autocapitalize="none"; }
        label { (t(lang, "field-name-zh")) input name="name_zh"; }
        label { (t(lang, "field-name-latin")) input name="name_latin"; }
        label { (t(lang, "col-rank")) input name="rank" placeholder=(rank_example); }
        label { (t(lang, "desk-field-club")) input name="club"; }
        label { (t(lang, "field-region")) input name="region"; }
        label { (t(lang, "desk-field-family")) input name="family"; }
    }
}

/// The desk page of a tournament, with a notice and an import preview.
pub async fn render(
    web: &Web,
    viewer: &Viewer,
    id: &str,
    note: Option<(bool, String)>,
    preview: Option<Markup>,
    shown: Shown,
) -> Response {
    let Shown { explain, results } = shown;
    let lang = viewer.lang;
    if staff(viewer).is_none() {
        return message(web, viewer, StatusCode::FORBIDDEN, &t(lang, "desk-only"));
    }
    let loaded = match load(web, id, lang).await {
        Ok(l) => l,
        Err((status, text)) => return message(web, viewer, status, &text),
    };
    let explanation = match (&explain, service(web)) {
        (Some(e), Some(s)) => explain_text(lang, s, id, e).await,
        _ => None,
    };
    let Loaded { summary, standings, rounds } = &loaded;
    let (players, settings) = match (staff(viewer), service(web)) {
        (Some(member), Some(api)) => {
            (api.players(&member.caller(), id).await.unwrap_or_default(), api.settings(&member.caller(), id).await.ok())
        }
        _ => (Vec::new(), None),
    };
    // Whether the event's players may talk in their games' chat (the chat's moderation decides).
    let chat_on = match service(web) {
        Some(api) => match (api.event_of(id).await, web.chat.moderation().await) {
            (Ok(event), Ok(m)) => Some(m.players_chat_on(Some(&event))),
            _ => None,
        },
        None => None,
    };
    let phase = summary.phase.as_str();
    let next_round = summary.rounds_paired + 1;
    let latest = rounds.last();
    // Results of any round may be corrected: the round asked for, else the latest.
    let shown_round = results.and_then(|n| rounds.iter().find(|p| p.round == n)).or(latest);
    let action = |verb: &str| format!("/desk/tournaments/{id}/{verb}");
    let title = if summary.name.is_empty() { id.to_string() } else { summary.name.clone() };
    let can_pair = phase == "running"
        && latest.is_none_or(|p| p.completed)
        && (summary.rounds_planned == 0 || summary.rounds_paired < summary.rounds_planned);
    let swiss_like = summary.format_key == "swiss" || summary.format_key == "mcmahon";
    let team = summary.format_key.starts_with("team") || summary.format.to_lowercase().contains("team");
    let body = html! {
        h1 { (title) }
        p.small data-phase=(phase) {
            (crate::pages::tournament::format_summary(lang, summary)) " · " (phase_text(lang, phase)) " · " (ta(lang, "tournament-players", &[("n", summary.players.to_string())]))
            " · " a href={ "/tournaments/" (id) } { (t(lang, "desk-public-page")) }
        }
        @if let Some(d) = summary.settings.as_ref().and_then(|s| s.spectator_delay).filter(|d| !d.is_live()) {
            p.small data-spectator-delay { (ta(lang, "desk-spectator-delay", &[("delay", crate::words::delay(lang, d))])) }
        }
        (notice(note.as_ref()))
        @if let Some(p) = &preview { (p) }
        @if phase == "registration" {
            section.card id="register" {
                h2 { (t(lang, "desk-register")) }
                form.grid method="post" action=(action("register")) {
                    (csrf_field(viewer)) (rid_field())
                    (player_fields(lang, "3k"))
                    p.small { (t(lang, "desk-register-help")) }
                    button type="submit" data-action="register" { (t(lang, "desk-register-one")) }
                }
                h3 { (t(lang, "desk-import")) }
                p.small { (t(lang, "desk-import-help")) }
                form.grid method="post" action=(action("import")) enctype="multipart/form-data" {
                    (csrf_field(viewer))
                    label { (t(lang, "desk-import-file")) input type="file" name="file" accept=".csv,text/csv,.xml,application/xml" required; }
                    button type="submit" data-action="preview-import" { (t(lang, "desk-import-preview")) }
                }
                @if team {
                    h3 { (t(lang, "desk-register-team")) }
                    form.grid method="post" action=(action("team")) {
                        (csrf_field(viewer)) (rid_field())
                        label { (t(lang, "desk-team-number")) input name="team" type="number" min="1" required; }
                        label { (t(lang, "desk-field-name")) input name="name" required; }
                        label { (t(lang, "desk-team-members")) input name="members" required placeholder="1, 2, 3"; }
                        button type="submit" data-action="register-team" { (t(lang, "desk-register-team")) }
                    }
                }
                h3 { (t(lang, "desk-start")) }
                form.inline method="post" action=(action("start")) {
                    (csrf_field(viewer)) (rid_field())
                    button type="submit" data-action="start-tournament" { (t(lang, "desk-start")) }
                }
            }
        }
        @if phase == "running" && (summary.format_key == "swiss" || summary.format_key == "mcmahon") {
            // Late entries (issue 30 item 9): Swiss and McMahon take a player until the last round; they
            // are paired from the next round on, and the rounds before count as not played.
            section.card id="late-entry" {
                h2 { (t(lang, "desk-late-entry")) }
                p.small { (ta(lang, "desk-late-entry-help", &[("round", next_round.to_string())])) }
                form.grid method="post" action=(action("register")) {
                    (csrf_field(viewer)) (rid_field())
                    (player_fields(lang, "3级"))
                    button type="submit" data-action="register" { (t(lang, "desk-register-one")) }
                }
            }
        }
        @if phase == "running" {
            section.card id="rounds" {
                h2 { (t(lang, "desk-rounds")) }
                @if can_pair {
                    a.button href={ "/desk/tournaments/" (id) "?draft=1" } data-action="preview-pairing" { (ta(lang, "desk-preview", &[("round", next_round.to_string())])) }
                    " "
                    form.inline method="post" action=(action("pair")) {
                        (csrf_field(viewer)) (rid_field())
                        input type="hidden" name="round" value=(next_round);
                        button type="submit" data-action="pair" { (ta(lang, "desk-pair", &[("round", next_round.to_string())])) }
                    }
                } @else if let Some(p) = latest {
                    p.small { (ta(lang, "desk-round-open", &[("round", p.round.to_string())])) }
                }
                // A round whose games have no result yet may be paired again (issue 30 item 10).
                @if let Some(p) = latest.filter(|p| swiss_like && !p.games.is_empty() && p.games.iter().all(|g| g.result.is_empty())) {
                    form.inline method="post" action=(action("unpair")) {
                        (csrf_field(viewer)) (rid_field())
                        input type="hidden" name="round" value=(p.round);
                        button type="submit" data-action="unpair" { (ta(lang, "desk-unpair", &[("round", p.round.to_string())])) }
                    }
                    p.small { (t(lang, "desk-unpair-help")) }
                }
            }
        }
        @if let Some(text) = &explanation {
            div.card data-explanation="" role="status" { h3 { (t(lang, "desk-explanation")) } (text) }
        }
        @if let Some(p) = shown_round {
                section.card id="results" data-round=(p.round) {
                    h2 { (ta(lang, "desk-results", &[("round", p.round.to_string())])) }
                    @if rounds.len() > 1 {
                        nav.small data-rounds="" {
                            (t(lang, "desk-results-of")) " "
                            @for r in rounds.iter() {
                                @if r.round == p.round { strong { (r.round) } } @else {
                                    a href={ "/desk/tournaments/" (id) "?results=" (r.round) "#results" } data-results-round=(r.round) { (r.round) }
                                }
                                " "
                            }
                        }
                    }
                    div.table-wrap { table {
                        thead { tr { th { (t(lang, "col-table")) } th { (t(lang, "black")) } th { (t(lang, "white")) } th { (t(lang, "col-result")) } th { (t(lang, "desk-enter-result")) } } }
                        tbody { @for g in &p.games {
                            tr data-table=(g.table) data-black=(g.black) data-white=(g.white) data-result=(g.result) {
                                td { (g.table) }
                                td { (g.black_name) " " span.rank { (rank_text(lang, &g.black_rank)) } " " span.small { "#" (g.black) } }
                                td { (g.white_name) " " span.rank { (rank_text(lang, &g.white_rank)) } " " span.small { "#" (g.white) } }
                                td {
                                    @if g.game_id.is_empty() { (crate::pages::tournament::result_text(lang, &g.result)) }
                                    @else { a href={ "/games/" (g.game_id) } { (crate::pages::tournament::result_text(lang, &g.result)) } }
                                    " "
                                    a.small href={ "/desk/tournaments/" (id) "?explain=" (p.round) ":" (g.black) ":" (g.white) } data-action="explain" { (t(lang, "desk-why")) }
                                }
                                td {
                                    form.inline method="post" action=(action("result")) {
                                        (csrf_field(viewer)) (rid_field())
                                        input type="hidden" name="round" value=(p.round);
                                        input type="hidden" name="table" value=(g.table);
                                        input type="hidden" name="correction" value=(if g.result.is_empty() { "" } else { "on" });
                                        select name="outcome" aria-label=(t(lang, "col-result")) {
                                            @for (v, k) in [("B+", "result-black-wins"), ("W+", "result-white-wins"), ("draw", "result-draw"), ("both-lose", "result-both-lose"), ("void", "result-void")] {
                                                @if v != "draw" || draw_allowed(&summary.settings, g.handicap) {
                                                    option value=(v) selected[g.result.trim_end_matches('!') == v] { (t(lang, k)) }
                                                }
                                            }
                                        }
                                        select name="how" aria-label=(t(lang, "desk-how")) {
                                            @for (v, k) in HOW {
                                                option value=(v) selected[how_of(&g.result) == v] { (t(lang, k)) }
                                            }
                                        }
                                        button type="submit" data-action=(if g.result.is_empty() { "record-result" } else { "correct" }) { (t(lang, if g.result.is_empty() { "desk-record" } else { "desk-correct" })) }
                                    }
                                }
                            }
                        } }
                    } }
                    @for b in &p.byes { p.small data-bye=(b.player) { (b.name) " #" (b.player) ": " (t(lang, "bye")) " (" (try_t(lang, &format!("bye-{}", b.kind)).unwrap_or_else(|| b.kind.clone())) ")" } }
                    p.small data-prints=(p.round) {
                        @for (what, key) in [("pairings", "desk-print-pairings"), ("seating", "desk-print-seating"), ("slips", "desk-print-slips"), ("standings", "desk-print-standings-after")] {
                            a href={ "/desk/tournaments/" (id) "/print/" (what) "?round=" (p.round) } target="_blank" data-print=(what) { (ta(lang, key, &[("round", p.round.to_string())])) } " · "
                        }
                        a href={ "/desk/tournaments/" (id) "/print/wallchart" } target="_blank" data-print="wallchart" { (t(lang, "desk-print-wallchart")) }
                    }
                }
        }
        @if phase == "running" {
            section.card id="overrides" {
                h2 { (ta(lang, "desk-overrides", &[("round", next_round.to_string())])) }
                p.small { (t(lang, "desk-overrides-help")) }
                form.inline method="post" action=(action("forbid")) {
                    (csrf_field(viewer)) (rid_field())
                    input name="a" type="number" min="1" required aria-label=(t(lang, "desk-player-a")) placeholder=(t(lang, "desk-player-a"));
                    input name="b" type="number" min="1" required aria-label=(t(lang, "desk-player-b")) placeholder=(t(lang, "desk-player-b"));
                    select name="scope" aria-label=(t(lang, "desk-forbid-scope")) {
                        option value="event" { (t(lang, "desk-forbid-event")) }
                        option value="round" { (ta(lang, "desk-forbid-round", &[("round", next_round.to_string())])) }
                    }
                    input type="hidden" name="round" value=(next_round);
                    button type="submit" data-action="forbid" { (t(lang, "desk-forbid")) }
                }
                @if !summary.forbids.is_empty() {
                    table data-forbids="" {
                        caption { (t(lang, "desk-forbids")) }
                        thead { tr { th { (t(lang, "desk-forbids")) } th { (t(lang, "desk-forbid-scope")) } th {} } }
                        tbody { @for f in &summary.forbids {
                            tr data-forbid={ (f.a) "-" (f.b) } data-scope=(if f.round == 0 { "event".to_string() } else { f.round.to_string() }) {
                                td { (f.a_name) " #" (f.a) " — " (f.b_name) " #" (f.b) }
                                td { @if f.round == 0 { (t(lang, "desk-forbid-event")) } @else { (ta(lang, "desk-forbid-round", &[("round", f.round.to_string())])) } }
                                td { form.inline method="post" action=(action("allow")) {
                                    (csrf_field(viewer)) (rid_field())
                                    input type="hidden" name="a" value=(f.a);
                                    input type="hidden" name="b" value=(f.b);
                                    button.link type="submit" data-action="lift-forbid" { (t(lang, "desk-forbid-lift")) }
                                } }
                            }
                        } }
                    }
                }
                form.inline method="post" action=(action("fix")) {
                    (csrf_field(viewer)) (rid_field())
                    input type="hidden" name="round" value=(next_round);
                    input name="black" type="number" min="1" required aria-label=(t(lang, "black")) placeholder=(t(lang, "black"));
                    input name="white" type="number" min="1" required aria-label=(t(lang, "white")) placeholder=(t(lang, "white"));
                    button type="submit" data-action="fix-pair" { (t(lang, "desk-fix")) }
                }
                form.inline method="post" action=(action("bye")) {
                    (csrf_field(viewer)) (rid_field())
                    input type="hidden" name="round" value=(next_round);
                    input name="player" type="number" min="1" required aria-label=(t(lang, "desk-player")) placeholder=(t(lang, "desk-player"));
                    select name="kind" aria-label=(t(lang, "desk-field-bye")) {
                        @for (v, k) in [("full", "bye-full-point"), ("half", "bye-half-point"), ("zero", "bye-zero-point")] { option value=(v) { (t(lang, k)) } }
                    }
                    button type="submit" data-action="grant-bye" { (t(lang, "desk-bye")) }
                }
            }
            @if team {
                section.card id="line-up" {
                    h2 { (ta(lang, "desk-line-up", &[("round", next_round.to_string())])) }
                    form.inline method="post" action=(action("line-up")) {
                        (csrf_field(viewer)) (rid_field())
                        input type="hidden" name="round" value=(next_round);
                        input name="team" type="number" min="1" required aria-label=(t(lang, "desk-team-number")) placeholder=(t(lang, "desk-team-number"));
                        input name="members" required aria-label=(t(lang, "desk-team-members")) placeholder="1, 2, 3";
                        button type="submit" data-action="submit-line-up" { (t(lang, "desk-submit-line-up")) }
                    }
                }
            }
            section.card id="withdraw" {
                h2 { (t(lang, "desk-withdraw")) }
                p.small data-ruling="" { (withdrawal_ruling(lang, summary)) }
                @if !summary.withdrawals.is_empty() {
                    ul data-withdrawals="" { @for w in &summary.withdrawals {
                        li data-withdrawal=(w.player) { (withdrawal_line(lang, w)) }
                    } }
                }
                form.inline method="post" action=(action("withdraw")) {
                    (csrf_field(viewer)) (rid_field())
                    input name="player" type="number" min="1" required aria-label=(t(lang, "desk-player")) placeholder=(t(lang, "desk-player"));
                    select name="reason" aria-label=(t(lang, "desk-withdraw-reason")) {
                        @for (v, k) in [("request", "withdraw-request"), ("no-shows", "withdraw-no-shows"), ("disqualified", "withdraw-disqualified")] { option value=(v) { (t(lang, k)) } }
                    }
                    button type="submit" data-action="withdraw" { (t(lang, "desk-withdraw")) }
                }
            }
        }
        @if phase != "finished" {
            // Attendance is marked for the next round while it is not paired yet.
            @let next = (phase == "running" && swiss_like && latest.is_none_or(|p| p.completed)).then_some(next_round);
            (super::players::card(lang, viewer, id, &players, summary.rounds_paired == 0, next))
        }
        @if phase != "finished" && let Some(s) = &settings { (super::settings::card(lang, viewer, id, s)) }
        (super::facts::card(lang, viewer, id, summary, standings.as_ref()))
        @if phase != "finished" && let Some(on) = chat_on {
            section.card id="players-chat" data-players-chat=(if on { "on" } else { "off" }) {
                h2 { (t(lang, "desk-chat-title")) }
                p.small { (t(lang, if on { "desk-chat-on" } else { "desk-chat-off" })) }
                form.inline method="post" action=(action("chat")) {
                    (csrf_field(viewer)) (rid_field())
                    input type="hidden" name="on" value=(if on { "0" } else { "1" });
                    button type="submit" data-action="players-chat" { (t(lang, if on { "desk-chat-switch-off" } else { "desk-chat-switch-on" })) }
                }
            }
        }
        @if phase != "registration" {
            section.card id="publish" {
                h2 { (t(lang, "desk-publish-title")) }
                form.inline method="post" action=(action("publish")) {
                    (csrf_field(viewer)) (rid_field())
                    button type="submit" data-action="publish" { (t(lang, "desk-publish")) }
                }
                p.small {
                    a href={ "/desk/tournaments/" (id) "/export/standings.csv" } download data-export="standings-csv" { (t(lang, "desk-export-standings")) } " · "
                    a href={ "/desk/tournaments/" (id) "/export/pairings.csv" } download data-export="pairings-csv" { (t(lang, "desk-export-pairings")) }
                    @if rounds.len() > 1 {
                        " (" @for (i, r) in rounds.iter().enumerate() {
                            @if i > 0 { " " }
                            a href={ "/desk/tournaments/" (id) "/export/pairings.csv?round=" (r.round) } download data-export={ "pairings-csv-" (r.round) } { (ta(lang, "desk-round-n", &[("round", r.round.to_string())])) }
                        } ")"
                    }
                    " · "
                    a href={ "/desk/tournaments/" (id) "/export/results.h9" } download data-export="h9" { (t(lang, "desk-export-h9")) } " · "
                    a href={ "/desk/tournaments/" (id) "/export/opengotha.xml" } download data-export="opengotha" { (t(lang, "desk-export-opengotha")) } " · "
                    a href={ "/desk/tournaments/" (id) "/print/standings" } target="_blank" { (t(lang, "desk-print-standings")) }
                }
            }
        }
        @if let Some(s) = standings && !s.rows.is_empty() {
            section.card id="standings" { h2 { (t(lang, "standings")) } (standings_table(lang, s)) }
        }
        @if rounds.len() > 1 {
            section id="earlier" { h2 { (t(lang, "desk-earlier-rounds")) } @for p in rounds.iter().rev().skip(1) { (pairings_table(lang, p)) } }
        }
    };
    page(web, viewer, &title, body, &[])
}

/// One withdrawn player's ruling with its numbers: the rounds unplayed, what each counts in the
/// opponents' SOS and in their own SOSM, and by which rule.
pub(super) fn withdrawal_line(lang: Lang, w: &views::WithdrawalCount) -> String {
    let who = format!("{} #{}", w.name, w.player);
    let mut parts = vec![ta(lang, "withdrawal-after", &[("who", who), ("round", w.after_round.to_string())])];
    match w.ruling.as_str() {
        "results-void" => parts.push(t(lang, "withdrawal-void")),
        "results-stand-rest-forfeited" => parts.push(t(lang, "withdrawal-forfeited")),
        _ => {
            let rounds = w.unplayed_rounds.iter().map(ToString::to_string).collect::<Vec<_>>();
            if rounds.is_empty() {
                parts.push(t(lang, "withdrawal-none-unplayed"));
            } else {
                let rounds = rounds.join(&t(lang, "list-separator"));
                parts.push(ta(lang, "withdrawal-unplayed", &[("rounds", rounds)]));
                if !w.for_opponents.is_empty() {
                    let value = crate::pages::tournament::shown(&w.for_opponents);
                    parts.push(ta(lang, "withdrawal-for-opponents", &[("value", value)]));
                }
                if !w.own_sosm.is_empty() {
                    let key = if w.own_sosm_rule == "own-final-mms" {
                        "withdrawal-own-sosm-final"
                    } else {
                        "withdrawal-own-sosm-start"
                    };
                    parts.push(ta(lang, key, &[("value", crate::pages::tournament::shown(&w.own_sosm))]));
                }
            }
        }
    }
    parts.join(&t(lang, "sentence-separator"))
}

/// The Art. 28 ruling for the format (what happens to a withdrawn player's results).
pub(super) fn withdrawal_ruling(lang: Lang, summary: &views::Summary) -> String {
    let f = if summary.format_key.is_empty() {
        summary.format.to_lowercase()
    } else {
        summary.format_key.replace('-', " ")
    };
    let key = if f.contains("mcmahon") || f.contains("麦克马洪") {
        "ruling-mcmahon"
    } else if f.contains("round robin") || f.contains("round-robin") || f.contains("循环") {
        "ruling-round-robin"
    } else if f.contains("team") || f.contains("match") || f.contains("团体") {
        "ruling-team"
    } else if f.contains("knockout") || f.contains("淘汰") {
        "ruling-knockout"
    } else {
        "ruling-swiss"
    };
    t(lang, key)
}

/// The pairing's explanation in the page's language (from the service's data, not its English text).
pub(super) async fn explain_text(lang: Lang, s: &TournamentApi, id: &str, spec: &str) -> Option<Markup> {
    let mut parts = spec.split(':').map(|p| p.parse::<u32>().ok());
    let (Some(Some(round)), Some(Some(a)), Some(Some(b))) = (parts.next(), parts.next(), parts.next()) else {
        return None;
    };
    let reply = s.explain(id, round, a, b, 0).await.ok()?;
    let explained: weiqi_pairing::explain::PairingExplanation = serde_json::from_str(&reply.json).ok()?;
    Some(super::explain::explanation(lang, &explained))
}

/// How a result came about, as the desk's select offers it (value, message id): counted, resigned, out
/// of time, not played (a forfeit, not rated), a referee's ruling.
pub(super) const HOW: [(&str, &str); 5] = [
    ("count", "desk-how-count"),
    ("resignation", "desk-how-resignation"),
    ("time", "desk-how-time"),
    ("forfeit", "desk-how-forfeit"),
    ("ruling", "desk-how-ruling"),
];

/// The `HOW` value a recorded result shows (`!` marks a forfeit in the pairings list).
pub(super) fn how_of(result: &str) -> &'static str {
    if result.ends_with('!') { "forfeit" } else { "count" }
}
