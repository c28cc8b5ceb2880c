//! `GET /admin/backup` on a running `weiqi up`: the embedded log's file belongs to that one process, so
//! a backup while the platform runs is taken by the process itself and streamed to the caller:
//!
//! ```text
//! curl -fsS -H "Authorization: Bearer $(weiqi token --sub admin --role admin)" \
//!      -o weiqi.weiqi-backup http://127.0.0.1:8080/admin/backup
//! ```
//!
//! Administrators only (a token with the `admin` role). The file is the one `weiqi backup` writes (the
//! same cut at the heads when the request arrives); it is spooled in the data directory, unlinked as
//! soon as it is open, and streamed. The response's `x-weiqi-backup` header carries the summary as
//! JSON (events, aggregates, batches, bytes, seconds, kinds).

use std::path::PathBuf;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use indicatif::ProgressBar;
use weiqi_edge::auth::{Authority, Role};
use weiqi_eventlog::AnyEventLog;

/// The route, on `log`; `spool` is the directory the file is written to before it is sent.
pub fn router(log: AnyEventLog, auth: Authority, source: String, spool: PathBuf) -> axum::Router {
    axum::Router::new().route(
        "/admin/backup",
        axum::routing::get(move |headers: HeaderMap| {
            let (log, auth, source, spool) = (log.clone(), auth.clone(), source.clone(), spool.clone());
            async move { serve(&log, &auth, &source, &spool, &headers).await }
        }),
    )
}

fn refuse(status: StatusCode, why: &str) -> Response {
    (status, format!("{why}\n")).into_response()
}

async fn serve(
    log: &AnyEventLog,
    auth: &Authority,
    source: &str,
    spool: &std::path::Path,
    headers: &HeaderMap,
) -> Response {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let Some(token) = token else {
        return refuse(StatusCode::UNAUTHORIZED, "a backup needs an administrator's token (Authorization: Bearer …)");
    };
    match auth.verify(token) {
        Ok(claims) if claims.roles.contains(&Role::Admin) => {}
        Ok(_) => return refuse(StatusCode::FORBIDDEN, "a backup is for administrators (role admin)"),
        Err(e) => return refuse(StatusCode::UNAUTHORIZED, &format!("token refused: {e}")),
    }
    if let Err(e) = std::fs::create_dir_all(spool) {
        return refuse(StatusCode::INTERNAL_SERVER_ERROR, &format!("cannot spool in {}: {e}", spool.display()));
    }
    let path = spool.join(format!(".backup-{}.weiqi-backup", uuid::Uuid::new_v4().simple()));
    let summary = match super::backup(log, source, &path, &ProgressBar::hidden()).await {
        Ok(summary) => summary,
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, &format!("backup failed: {e:#}")),
    };
    let file = match tokio::fs::File::open(&path).await {
        Ok(file) => file,
        Err(e) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, &format!("reading the backup: {e}")),
    };
    // Open: the name can go now, the bytes stay until the stream is dropped.
    let _ = std::fs::remove_file(&path);
    tracing::info!(events = summary.events, bytes = summary.bytes, seconds = summary.seconds, "backup served");
    let mut response = Body::from_stream(tokio_util::io::ReaderStream::new(file)).into_response();
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/octet-stream"));
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(summary.bytes));
    let name = format!("attachment; filename=\"weiqi-{}.weiqi-backup\"", super::now_ms() / 1000);
    if let Ok(v) = HeaderValue::from_str(&name) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    if let Ok(Ok(v)) = serde_json::to_string(&summary).map(HeaderValue::try_from) {
        h.insert("x-weiqi-backup", v);
    }
    response
}
