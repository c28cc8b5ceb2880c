//! The desk's list of registered players (issue 30 items 9 and 12): one line a player with the number
//! every desk action asks for, the name, rank and club; opened, a form that corrects the registration
//! (the rank only until the first round is paired) and, for a player never placed in a round, a
//! button that takes them off the field (one who played withdraws instead). On a phone each player is
//! one line that opens, not a table that wraps names character by character.

use maud::{Markup, html};
use weiqi_tournament::views::PlayerLine;

use super::rid_field;
use crate::i18n::{Lang, rank_text, t, ta};
use crate::pages::csrf_field;
use crate::session::Viewer;

/// The card (nothing once the event is finished: its registrations are history).
///
/// `next`: the round not yet paired, whose attendance the card marks (check-in: a player marked
/// absent gets the rules' zero-point bye for it, taken back if they come after all).
pub(super) fn card(
    lang: Lang,
    viewer: &Viewer,
    id: &str,
    players: &[PlayerLine],
    rank_open: bool,
    next: Option<u32>,
) -> Markup {
    let action = |verb: &str| format!("/desk/tournaments/{id}/{verb}");
    html! {
        section.card id="players" {
            h2 { (ta(lang, "desk-players", &[("n", players.len().to_string())])) }
            @if players.is_empty() { p.small { (t(lang, "desk-players-none")) } }
            @for p in players {
                @let name = if p.name_zh.is_empty() { p.name_latin.as_str() } else { p.name_zh.as_str() };
                details.player data-player=(p.player) data-withdrawn[p.withdrawn] {
                    summary {
                        span.number { "#" (p.player) } " " strong { (name) } " " span.rank { (rank_text(lang, &p.rank)) }
                        @if !p.club.is_empty() { " · " (p.club) }
                        @if p.withdrawn { " · " span.warning { (t(lang, "desk-player-withdrawn")) } }
                        @if let (Some(round), Some(kind)) = (next, &p.bye_next) {
                            " · " span.warning data-absent=(kind) {
                                @if kind == "zero-point" { (ta(lang, "desk-absent-round", &[("round", round.to_string())])) }
                                @else { (ta(lang, "desk-bye-round", &[("round", round.to_string())])) }
                            }
                        }
                    }
                    @if let Some(round) = next.filter(|_| !p.withdrawn) {
                        @if p.bye_next.is_some() {
                            form.inline method="post" action=(action("cancel-bye")) {
                                (csrf_field(viewer)) (rid_field())
                                input type="hidden" name="round" value=(round);
                                input type="hidden" name="player" value=(p.player);
                                button type="submit" data-action="cancel-bye" { (ta(lang, "desk-cancel-bye", &[("round", round.to_string())])) }
                            }
                        } @else {
                            form.inline method="post" action=(action("bye")) {
                                (csrf_field(viewer)) (rid_field())
                                input type="hidden" name="round" value=(round);
                                input type="hidden" name="player" value=(p.player);
                                input type="hidden" name="kind" value="zero";
                                button type="submit" data-action="mark-absent" { (ta(lang, "desk-mark-absent", &[("round", round.to_string())])) }
                            }
                        }
                    }
                    form.grid method="post" action=(action("edit")) {
                        (csrf_field(viewer)) (rid_field())
                        input type="hidden" name="player" value=(p.player);
                        label { (t(lang, "field-name-zh")) input name="name_zh" value=(p.name_zh); }
                        label { (t(lang, "field-name-latin")) input name="name_latin" value=(p.name_latin); }
                        @if rank_open {
                            label { (t(lang, "col-rank")) input name="rank" value=(rank_text(lang, &p.rank)); }
                        } @else {
                            label { (t(lang, "col-rank")) input name="rank" value=(rank_text(lang, &p.rank)) readonly; }
                            p.small { (t(lang, "desk-rank-fixed")) }
                        }
                        label { (t(lang, "desk-field-club")) input name="club" value=(p.club); }
                        label { (t(lang, "field-region")) input name="region" value=(p.region); }
                        label { (t(lang, "desk-field-family")) input name="family" value=(p.family); }
                        p.small { (ta(lang, "desk-player-account", &[("account", p.account.clone())])) }
                        button type="submit" data-action="edit-player" { (t(lang, "desk-edit-player")) }
                    }
                    @if !p.placed {
                        form.inline method="post" action=(action("remove")) {
                            (csrf_field(viewer)) (rid_field())
                            input type="hidden" name="player" value=(p.player);
                            button.danger type="submit" data-action="remove-player" { (t(lang, "desk-remove-player")) }
                        }
                    }
                }
            }
        }
    }
}
