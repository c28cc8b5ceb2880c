//! `/watch?games=a,b,c`: several live games at once (a broadcaster's or a club's wall), each board
//! following its own `/games/{id}/live` stream, read-only. Without `games`, the newest live games.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::response::Response;
use maud::html;
use serde_json::json;

use super::json_block;
use crate::Web;
use crate::i18n::{script_strings, t};
use crate::index::Listed;
use crate::session::Viewer;

/// How many boards one page shows.
const MAX_BOARDS: usize = 16;

fn games_of(query: Option<&str>) -> Vec<String> {
    let Some(q) = query else { return Vec::new() };
    q.split('&')
        .filter_map(|kv| kv.split_once('='))
        .filter(|(k, _)| *k == "games")
        .flat_map(|(_, v)| v.replace("%2C", ",").split([',', '+']).map(str::to_string).collect::<Vec<_>>())
        .filter(|id| {
            !id.is_empty() && id.len() <= 128 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
        .take(MAX_BOARDS)
        .collect()
}

/// `GET /watch`.
pub async fn page_get(State(web): State<Arc<Web>>, viewer: Viewer, RawQuery(q): RawQuery) -> Response {
    let lang = viewer.lang;
    let mut games = games_of(q.as_deref());
    if games.is_empty() {
        games = web.index.games(4, Listed::live).into_iter().map(|g| g.id).collect();
    }
    let config = json!({
        "games": games,
        "lang": lang.tag(),
        "strings": script_strings(lang, super::game::SCRIPT_KEYS),
    });
    let body = html! {
        h1 { (t(lang, "watch-title")) }
        @if games.is_empty() { p.small { (t(lang, "live-games-none")) } }
        div.multi {
            @for g in &games {
                article.mini data-game=(g) {
                    a href={ "/games/" (g) } {
                        svg.board viewBox="0 0 100 100" role="img" aria-label=(t(lang, "board-label")) {}
                    }
                    p.mini-line { span.names {} " " span.status {} }
                    p.mini-clocks { span data-clock="black" role="timer" {} " · " span data-clock="white" role="timer" {} }
                }
            }
        }
        script type="application/json" id="watch-config" { (json_block(&config)) }
    };
    super::page(&web, &viewer, &t(lang, "watch-title"), body, &["watch.js"])
}

pub use page_get as page;

#[cfg(test)]
mod tests {
    #[test]
    fn game_ids_are_taken_from_the_query_and_checked() {
        assert_eq!(super::games_of(Some("games=a,b%2Cc&x=1")), vec!["a", "b", "c"]);
        assert_eq!(super::games_of(Some("games=<script>,ok")), vec!["ok"]);
        assert!(super::games_of(None).is_empty());
    }
}
