//! `GET /desk/tournaments/{id}/export/{kind}`: the tournament's files.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::Web;
use crate::i18n::t;
use crate::pages::{DeskStaff, message, refused_status, refused_text};
use weiqi_tournament::api::{ExportKind, H9Overrides};

use super::*;

/// `GET /desk/tournaments/{id}/export/{kind}`: `standings.csv`, `pairings.csv` or `results.h9`,
/// exactly what the gateway's `Export` answers.
pub async fn export(
    State(web): State<Arc<Web>>,
    DeskStaff { viewer, .. }: DeskStaff,
    Path((id, kind)): Path<(String, String)>,
    RawQuery(q): RawQuery,
) -> Response {
    let lang = viewer.lang;
    let Some(s) = service(&web) else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "tournament-not-found"));
    };
    // Pairings of any round (`?round=N`; the latest by default).
    let round = crate::pages::params(q.as_deref()).get("round").and_then(|r| r.parse().ok()).unwrap_or(0);
    let kind = match kind.as_str() {
        "standings.csv" => ExportKind::StandingsCsv,
        "pairings.csv" => ExportKind::PairingsCsv { round },
        "results.h9" => ExportKind::H9,
        "opengotha.xml" => ExportKind::OpenGotha,
        _ => return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "desk-unknown-export")),
    };
    match s.export(&id, kind, H9Overrides::default()).await {
        Ok(e) => {
            let mut response = e.content.into_response();
            let content_type = e.content_type;
            let filename: String =
                e.filename.chars().filter(|c| c.is_ascii_alphanumeric() || "._-".contains(*c)).collect();
            if let Ok(v) = HeaderValue::from_str(content_type) {
                response.headers_mut().insert(header::CONTENT_TYPE, v);
            }
            if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")) {
                response.headers_mut().insert(header::CONTENT_DISPOSITION, v);
            }
            response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(e) => message(&web, &viewer, refused_status(&e), &refused_text(lang, &e)),
    }
}
