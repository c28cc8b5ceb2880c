//! `GET /desk/tournaments/{id}/export/{kind}`: the tournament's files.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use weiqi_proto::v1 as pb;

use crate::Web;
use crate::i18n::t;
use crate::pages::{DeskStaff, bearer, http_status, message, status_text};

use super::*;

/// `GET /desk/tournaments/{id}/export/{kind}`: `standings.csv`, `pairings.csv` or `results.h9`,
/// exactly what the gateway's `Export` answers.
pub async fn export(
    State(web): State<Arc<Web>>,
    DeskStaff { viewer, member, .. }: DeskStaff,
    Path((id, kind)): Path<(String, String)>,
    RawQuery(q): RawQuery,
) -> Response {
    let lang = viewer.lang;
    let Some(s) = service(&web) else {
        return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "tournament-not-found"));
    };
    use pb::export_tournament_request::Kind;
    let kind = match kind.as_str() {
        "standings.csv" => Kind::StandingsCsv,
        "pairings.csv" => Kind::PairingsCsv,
        "results.h9" => Kind::H9,
        "opengotha.xml" => Kind::Opengotha,
        _ => return message(&web, &viewer, StatusCode::NOT_FOUND, &t(lang, "desk-unknown-export")),
    };
    // Pairings of any round (`?round=N`; the latest by default).
    let round = crate::pages::params(q.as_deref()).get("round").and_then(|r| r.parse().ok()).unwrap_or(0);
    let r = pb::ExportTournamentRequest { tournament_id: id, kind: kind as i32, round, ..Default::default() };
    match s.export(bearer(&member.token, r)).await {
        Ok(e) => {
            let e = e.into_inner();
            let mut response = e.content.into_response();
            let content_type =
                if e.content_type.is_empty() { "text/plain; charset=utf-8".to_string() } else { e.content_type };
            let filename: String =
                e.filename.chars().filter(|c| c.is_ascii_alphanumeric() || "._-".contains(*c)).collect();
            if let Ok(v) = HeaderValue::from_str(&content_type) {
                response.headers_mut().insert(header::CONTENT_TYPE, v);
            }
            if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")) {
                response.headers_mut().insert(header::CONTENT_DISPOSITION, v);
            }
            response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(e) => message(&web, &viewer, http_status(&e), &status_text(lang, &e)),
    }
}
