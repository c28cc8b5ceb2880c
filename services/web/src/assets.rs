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
    /// Its bytes.
    pub body: &'static str,
}

fn asset(name: &'static str, content_type: &'static str, body: &'static str) -> Asset {
    let digest = hex::encode(Sha256::digest(body.as_bytes()));
    let (stem, ext) = name.rsplit_once('.').expect("assets have an extension");
    Asset { name, hashed: format!("{stem}.{}.{ext}", &digest[..10]), content_type, body }
}

static ASSETS: LazyLock<Vec<Asset>> = LazyLock::new(|| {
    vec![
        asset("style.css", "text/css; charset=utf-8", include_str!("../assets/style.css")),
        asset("board.js", "text/javascript; charset=utf-8", include_str!("../assets/board.js")),
        asset("game.js", "text/javascript; charset=utf-8", include_str!("../assets/game.js")),
        asset("lobby.js", "text/javascript; charset=utf-8", include_str!("../assets/lobby.js")),
        asset("watch.js", "text/javascript; charset=utf-8", include_str!("../assets/watch.js")),
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
            a.body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such asset").into_response(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn asset_urls_carry_a_content_hash() {
        let u = super::url("game.js");
        assert!(
            u.starts_with("/assets/game.") && u.ends_with(".js") && u.len() == "/assets/game.0123456789.js".len(),
            "{u}"
        );
    }
}
