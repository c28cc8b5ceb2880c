//! The desk's card of the event's own facts: the dates, city and country, director and the clubs'
//! EGD codes (a form that sets them as a whole, `POST …/facts`), and what the exports make of them:
//! the EGF class the time control earns (or that it earns none, and why), and the clubs the `.h9`
//! table would write as `-` for want of a code.

use maud::{Markup, html};
use weiqi_tournament::facts::{EventFacts, egf_class, egf_times};
use weiqi_tournament::views::{Standings, Summary};

use super::rid_field;
use crate::i18n::{Lang, t, ta};
use crate::pages::csrf_field;
use crate::session::Viewer;

/// The card.
pub(super) fn card(lang: Lang, viewer: &Viewer, id: &str, summary: &Summary, standings: Option<&Standings>) -> Markup {
    let facts = summary.facts.clone().unwrap_or_default();
    let date = |d: Option<weiqi_time::CivilDate>| d.map(|d| d.to_string()).unwrap_or_default();
    let clubs: String = facts.club_codes.iter().map(|(club, code)| format!("{club} = {code}\n")).collect();
    let uncoded = uncoded_clubs(&facts, standings);
    html! {
        section.card id="facts" {
            h2 { (t(lang, "desk-facts-title")) }
            p.small data-egf-class=(class_code(summary)) { (class_line(lang, summary)) }
            @if !uncoded.is_empty() {
                p.warning data-uncoded-clubs=(uncoded.len()) { (ta(lang, "desk-facts-uncoded", &[("clubs", uncoded.join("、"))])) }
            }
            form.stack method="post" action={ "/desk/tournaments/" (id) "/facts" } {
                (csrf_field(viewer)) (rid_field())
                div.inline {
                    label { (t(lang, "desk-field-start")) input type="date" name="start" value=(date(facts.start)); }
                    label { (t(lang, "desk-field-end")) input type="date" name="end" value=(date(facts.end)); }
                }
                div.inline {
                    label { (t(lang, "desk-field-city")) input name="city" value=(facts.city) placeholder=(t(lang, "desk-city-example")); }
                    label { (t(lang, "desk-field-city_latin")) input name="city_latin" value=(facts.city_latin) placeholder="Hangzhou"; }
                    label { (t(lang, "desk-field-country")) input name="country" value=(if facts.country.is_empty() { "CN" } else { facts.country.as_str() }) maxlength="2" size="3" autocapitalize="characters"; }
                }
                label { (t(lang, "desk-field-director")) input name="director" value=(facts.director); }
                label { (t(lang, "desk-field-clubs")) textarea name="clubs" rows="3" placeholder=(t(lang, "desk-clubs-example")) { (clubs) } }
                button type="submit" data-action="set-facts" { (t(lang, "desk-facts-save")) }
            }
        }
    }
}

/// The EGF class the event's time control earns, as a letter (`none`: none; `unknown`: no settings).
fn class_code(summary: &Summary) -> String {
    match &summary.settings {
        None => "unknown".into(),
        Some(s) => egf_class(&s.time_control, s.manual_start).map_or_else(|| "none".into(), |c| c.to_string()),
    }
}

/// The class in words, with the basic and adjusted time it comes from.
fn class_line(lang: Lang, summary: &Summary) -> String {
    let Some(s) = &summary.settings else { return String::new() };
    let Some((basic, adjusted, _)) = egf_times(&s.time_control) else {
        return t(lang, "desk-egf-no-clock");
    };
    let minutes = |d: weiqi_clock::DurationMs| format!("{}", (d.0 as f64 / 60_000.0 * 10.0).round() / 10.0);
    let args = [("basic", minutes(basic)), ("adjusted", minutes(adjusted))];
    match egf_class(&s.time_control, s.manual_start) {
        Some(class) => {
            let mut args = args.to_vec();
            args.push(("class", class.to_string()));
            ta(lang, "desk-egf-class", &args)
        }
        None if s.manual_start => ta(lang, "desk-egf-none", &args),
        None => ta(lang, "desk-egf-none-online", &args),
    }
}

/// The registered players' clubs that have no code and are not ASCII (the `.h9` writes `-`).
fn uncoded_clubs(facts: &EventFacts, standings: Option<&Standings>) -> Vec<String> {
    let mut clubs: Vec<String> =
        standings.map(|s| s.rows.iter().map(|r| r.club.trim().to_string()).collect()).unwrap_or_default();
    clubs.sort();
    clubs.dedup();
    clubs.retain(|c| !c.is_empty() && facts.club_code(c).is_none());
    clubs
}
