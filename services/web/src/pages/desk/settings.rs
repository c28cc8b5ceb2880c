//! The desk's card of what may change mid-event (issue 30 item 10): a Swiss's or McMahon's rounds
//! (not below those played), the McMahon bars (between rounds), the tie-break order, each change an
//! event of the tournament's log, listed under the form with when it was made and what it set.

use maud::{Markup, html};
use weiqi_tournament::views::Settings;

use super::rid_field;
use crate::i18n::{Lang, rank_text, t, ta};
use crate::pages::csrf_field;
use crate::pages::tournament::criterion;
use crate::session::Viewer;

/// The criteria in the page's words, in order (`积分、对手分`).
fn ranking_text(lang: Lang, codes: &[String]) -> String {
    let names: Vec<String> = codes.iter().map(|c| criterion(lang, c)).collect();
    names.join(if lang == Lang::ZhCn { "、" } else { ", " })
}

/// When, to the minute (UTC).
fn when(ms: i64) -> String {
    let minute = ms.rem_euclid(weiqi_time::Millis::DAY.0) / 60_000;
    format!("{} {:02}:{:02} UTC", weiqi_time::CivilDate::from_millis(weiqi_time::Millis(ms)), minute / 60, minute % 60)
}

/// The card.
pub(super) fn card(lang: Lang, viewer: &Viewer, id: &str, s: &Settings) -> Markup {
    html! {
        section.card id="settings" {
            h2 { (t(lang, "desk-settings-title")) }
            p.small { (t(lang, "desk-settings-help")) }
            form.grid method="post" action={ "/desk/tournaments/" (id) "/settings" } {
                (csrf_field(viewer)) (rid_field())
                @if let Some(rounds) = s.rounds {
                    label { (t(lang, "desk-field-rounds")) input name="rounds" type="number" min="1" max="99" value=(rounds); }
                }
                @if let Some((top, bottom)) = &s.bars {
                    label { (t(lang, "desk-field-top_bar")) input name="top_bar" value=(rank_text(lang, top)); }
                    label { (t(lang, "desk-field-bottom_bar")) input name="bottom_bar" value=(rank_text(lang, bottom)); }
                }
                label { (t(lang, "desk-field-ranking")) input name="ranking" value=(ranking_text(lang, &s.ranking)); }
                button type="submit" data-action="change-settings" { (t(lang, "desk-settings-save")) }
            }
            @if !s.changes.is_empty() {
                h3 { (t(lang, "desk-settings-changes")) }
                ol data-settings-changes=(s.changes.len()) {
                    @for c in &s.changes {
                        li {
                            (when(c.at_ms)) " · " (ta(lang, "desk-settings-by", &[("name", c.by.clone())])) " · "
                            @if let Some(r) = c.rounds { (ta(lang, "desk-settings-rounds", &[("n", r.to_string())])) " · " }
                            @if let Some((top, bottom)) = &c.bars {
                                (ta(lang, "desk-settings-bars", &[("top", rank_text(lang, top)), ("bottom", rank_text(lang, bottom))])) " · "
                            }
                            (ranking_text(lang, &c.ranking))
                        }
                    }
                }
            }
        }
    }
}
