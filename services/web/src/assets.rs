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

/// The board's look, in the site's style sheet and the overlay's.
pub const BOARD_CSS: &str = include_str!("../assets/board.css");

/// The board module, shared by the game page, the multi-board view and the broadcast overlay.
pub const BOARD_JS: &str = include_str!("../assets/board.js");

static ASSETS: LazyLock<Vec<Asset>> = LazyLock::new(|| {
    let board = asset("board.js", JS, BOARD_JS.to_string());
    // Modules import `./board.js`: point them at its hashed name (so the importer's hash changes
    // with it, and no stale board.js is ever combined with a new page script).
    let import = |text: &str| text.replace("\"./board.js\"", &format!("\"./{}\"", board.hashed));
    vec![
        asset("style.css", "text/css; charset=utf-8", [include_str!("../assets/style.css"), BOARD_CSS].concat()),
        asset("game.js", JS, import(include_str!("../assets/game.js"))),
        asset("lobby.js", JS, import(include_str!("../assets/lobby.js"))),
        asset("chat.js", JS, include_str!("../assets/chat.js").to_string()),
        asset("review.js", JS, import(include_str!("../assets/review.js"))),
        asset("watch.js", JS, import(include_str!("../assets/watch.js"))),
        asset("print.js", JS, include_str!("../assets/print.js").to_string()),
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

    /// WCAG 2 relative luminance of `#rrggbb`.
    fn luminance(hex: &str) -> f64 {
        let digits = hex.trim_start_matches('#');
        // `#rgb` is `#rrggbb`.
        let full: String =
            if digits.len() == 3 { digits.chars().flat_map(|c| [c, c]).collect() } else { digits.into() };
        let v = u32::from_str_radix(&full, 16).unwrap();
        let channel = |c: u32| {
            let c = f64::from(c) / 255.0;
            if c <= 0.039_28 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
        };
        0.2126 * channel((v >> 16) & 0xff) + 0.7152 * channel((v >> 8) & 0xff) + 0.0722 * channel(v & 0xff)
    }

    fn contrast(a: &str, b: &str) -> f64 {
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    /// Text colours on their backgrounds pass WCAG AA (4.5:1), read from the stylesheet itself.
    #[test]
    fn text_contrast_passes_wcag_aa() {
        let css = include_str!("../assets/style.css");
        let var = |name: &str| {
            let at = css.find(&format!("--{name}:")).unwrap_or_else(|| panic!("--{name} in style.css"));
            css[at..].split(':').nth(1).unwrap().split(';').next().unwrap().trim().to_string()
        };
        let pairs = [
            ("ink", "paper"),
            ("ink", "card"),
            ("muted", "card"),
            ("muted", "paper"),
            ("accent-ink", "accent"),
            ("bad", "card"),
            ("bad", "paper"),
            ("ok", "card"),
        ];
        for (fg, bg) in pairs {
            let c = contrast(&var(fg), &var(bg));
            assert!(c >= 4.5, "--{fg} on --{bg}: {c:.2}:1");
        }
        // The header (white on #2d2a26), links (#6b1f0b) and the board's coordinates (#2b2b2b on #dcb35c).
        assert!(css.contains("background: #2d2a26; color: #fff") && contrast("#ffffff", "#2d2a26") >= 4.5);
        assert!(css.contains("a { color: #6b1f0b; }") && contrast("#6b1f0b", &var("paper")) >= 4.5);
        assert!(contrast("#2b2b2b", "#dcb35c") >= 4.5);
    }
}
