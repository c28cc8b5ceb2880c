//! The static files (`assets/`), compiled into the binary and served as `/assets/{stem}.{hash}.{ext}`
//! with a year's immutable cache lifetime: a new build changes the hash, so browsers never run a stale
//! script against a new page.

use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// One embedded file.
pub struct Asset {
    /// `game.js`.
    pub name: &'static str,
    /// `game.1a2b3c4d5e.js`: the path part pages link to.
    pub hashed: String,
    /// Its content type.
    pub content_type: &'static str,
    /// Its bytes (modules' imports of other assets rewritten to their hashed names).
    pub body: String,
}

fn asset(name: &'static str, content_type: &'static str, body: String) -> Asset {
    let digest = hex::encode(Sha256::digest(body.as_bytes()));
    let (stem, ext) = name.rsplit_once('.').expect("assets have an extension");
    Asset { name, hashed: format!("{stem}.{}.{ext}", &digest[..10]), content_type, body }
}

const JS: &str = "text/javascript; charset=utf-8";

static ASSETS: LazyLock<Vec<Asset>> = LazyLock::new(|| {
    let board = asset("board.js", JS, include_str!("../assets/board.js").to_string());
    // Modules import `./board.js`: point them at its hashed name (so the importer's hash changes
    // with it, and no stale board.js is ever combined with a new page script).
    let import = |text: &str| text.replace("\"./board.js\"", &format!("\"./{}\"", board.hashed));
    vec![
        asset("style.css", "text/css; charset=utf-8", include_str!("../assets/style.css").to_string()),
        asset("game.js", JS, import(include_str!("../assets/game.js"))),
        asset("lobby.js", JS, import(include_str!("../assets/lobby.js"))),
        asset("watch.js", JS, import(include_str!("../assets/watch.js"))),
        board,
    ]
});

/// The URL of asset `name` (`/assets/game.1a2b3c4d5e.js`).
pub fn url(name: &str) -> String {
    let a = ASSETS.iter().find(|a| a.name == name).unwrap_or_else(|| panic!("no asset {name}"));
    format!("/assets/{}", a.hashed)
}

/// `GET /assets/{file}`.
pub async fn serve(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|a| a.hashed == file) {
        Some(a) => (
            [(header::CONTENT_TYPE, a.content_type), (header::CACHE_CONTROL, "public, max-age=31536000, immutable")],
            a.body.clone(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such asset").into_response(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn modules_import_the_hashed_board() {
        let game = super::ASSETS.iter().find(|a| a.name == "game.js").unwrap();
        let board = super::url("board.js");
        assert!(game.body.contains(&format!("\".{}\"", board.trim_start_matches("/assets"))), "{board}");
        assert!(!game.body.contains("\"./board.js\""));
    }

    #[test]
    fn asset_urls_carry_a_content_hash() {
        let u = super::url("game.js");
        assert!(
            u.starts_with("/assets/game.") && u.ends_with(".js") && u.len() == "/assets/game.0123456789.js".len(),
            "{u}"
        );
    }
}
