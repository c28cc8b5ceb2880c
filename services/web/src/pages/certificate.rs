//! A certificate's page (`/certificates/{serial}`), made to be printed, with a QR code (drawn on the
//! server as SVG with `qrcode`) that opens the verification page for it; and the verification page
//! (`/verify`): paste the certificate's text or upload its file (or follow the QR code), and the
//! page shows the server's answer: the signature checked against the association's key and the
//! certificate against the current revocation list (with that list's sequence), and, when it fails,
//! why (a bad signature, revoked, another association's key, not a certificate).

use std::sync::Arc;

use axum::extract::{Multipart, Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use maud::{Markup, PreEscaped, html};
use weiqi_ranking::views::Verification;

use super::{Uploaded, csrf_field, csrf_refused, message, page, refused_status, refused_text};
use crate::Web;
use crate::i18n::{Lang, basis_text, grade_text, t, ta, try_t};
use crate::session::Viewer;
use crate::session::csrf_ok;

/// The largest certificate file the page reads (its PDF, with the font subset, included).
pub const MAX_BYTES: usize = 4 * 1024 * 1024;

fn serial_ok(serial: &str) -> bool {
    !serial.is_empty() && serial.len() <= 128 && serial.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// The site's own address as the browser reached it (for the QR code's absolute link).
pub(super) fn origin(web: &Web, headers: &HeaderMap) -> String {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("localhost");
    let host: String = host.chars().filter(|c| c.is_ascii_alphanumeric() || ".:-[]".contains(*c)).collect();
    let scheme = if web.config.secure_cookies { "https" } else { "http" };
    format!("{scheme}://{host}")
}

/// The QR code of `text` as an SVG document.
pub fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color<'_>>()
            .min_dimensions(160, 160)
            .dark_color(qrcode::render::svg::Color("#000000"))
            .light_color(qrcode::render::svg::Color("#ffffff"))
            .build(),
    )
}

fn verdict(lang: Lang, v: &Verification) -> Markup {
    let code = if v.valid {
        "valid"
    } else if v.code.is_empty() {
        "invalid"
    } else {
        v.code.as_str()
    };
    html! {
        section.card.verdict id="verdict" data-verdict=(code) role="status" {
            h2 { @if v.valid { "✓ " (t(lang, "verify-valid")) } @else { "✗ " (try_t(lang, &format!("verify-{}", code.replace('_', "-"))).unwrap_or_else(|| t(lang, "verify-invalid"))) } }
            @if !v.valid && !v.message.is_empty() { p.small { (v.message) } }
            @if !v.serial.is_empty() {
                dl.facts {
                    dt { (t(lang, "certificate-serial")) } dd.mono { (v.serial) }
                    dt { (t(lang, "case-player")) } dd { a href={ "/players/" (v.player_id) } { (v.player_name) } " (" (v.player_id) ")" }
                    dt { (t(lang, "certificate-grade")) } dd { (grade_text(lang, &v.ladder, &v.grade)) }
                    dt { (t(lang, "certificate-date")) } dd { (v.date) }
                    dt { (t(lang, "certificate-basis")) } dd { (basis_text(lang, &v.basis)) }
                }
            }
            p.small data-revocations-sequence=(v.revocations_sequence) {
                (ta(lang, "verify-list-consulted", &[("sequence", v.revocations_sequence.to_string())]))
                " · " a href="/office/revocations" { (t(lang, "office-revocations")) }
            }
        }
    }
}

/// The ranking's API and the certificate `serial`, or the page saying it is not there (or why not).
async fn certificate_of(
    web: &Web,
    viewer: &Viewer,
    serial: &str,
) -> Result<(weiqi_ranking::api::RankingApi, weiqi_ranking::views::CertificateView), Response> {
    let lang = viewer.lang;
    let not_found = || message(web, viewer, StatusCode::NOT_FOUND, &t(lang, "certificate-not-found"));
    let Some(r) = web.ranking.clone().filter(|_| serial_ok(serial)) else { return Err(not_found()) };
    match r.certificate(serial).await {
        Ok(c) => Ok((r, c)),
        Err(e) if e.kind() == Some(weiqi_aggregate::RejectionKind::NotFound) => Err(not_found()),
        Err(e) => Err(message(web, viewer, refused_status(&e), &refused_text(lang, &e))),
    }
}

/// `GET /certificates/{serial}`.
pub async fn page_get(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path(serial): Path<String>,
    headers: HeaderMap,
) -> Response {
    let lang = viewer.lang;
    let (r, record) = match certificate_of(&web, &viewer, &serial).await {
        Ok(found) => found,
        Err(response) => return response,
    };
    let checked = r.verify_certificate(&record.certificate).await.ok();
    let link = format!("{}/verify?serial={serial}", origin(&web, &headers));
    let qr = qr_svg(&link);
    let body = html! {
        article.certificate-page data-serial=(serial) {
            @if let Some(v) = &checked {
                p.certificate-association data-association=(v.association) { (r.association_name(&v.association, &v.ladder)) }
            }
            h1 { (t(lang, "certificate-title")) }
            @if let Some(v) = &checked {
                p.certificate-name { (v.player_name) }
                p.certificate-grade data-grade=(v.grade) { (grade_text(lang, &v.ladder, &v.grade)) }
                dl.facts {
                    dt { (t(lang, "certificate-serial")) } dd.mono { (serial) }
                    dt { (t(lang, "certificate-date")) } dd { (v.date) }
                    dt { (t(lang, "certificate-basis")) } dd { (basis_text(lang, &v.basis)) }
                }
            }
            @if record.revoked {
                p.error role="alert" data-revoked="" { (ta(lang, "certificate-revoked", &[("reason", record.revocation_reason.clone())])) }
            }
            div.qr {
                @if let Some(svg) = &qr { figure data-qr="" aria-label=(t(lang, "certificate-qr")) { (PreEscaped(svg.clone())) } }
                p.small { (t(lang, "certificate-scan")) br; a href=(link) data-qr-link=(link) { (link) } }
            }
            details {
                summary { (t(lang, "certificate-text")) }
                pre.certificate data-certificate-text="" { (record.certificate) }
            }
            p.no-print {
                button type="button" data-action="print" { (t(lang, "desk-print")) }
                " " a href={ "/certificates/" (serial) "/pdf?lang=" (lang.tag()) } download={ "certificate-" (serial) ".pdf" } data-link="certificate-pdf" { (t(lang, "certificate-pdf")) }
            }
        }
    };
    page(&web, &viewer, &t(lang, "certificate-title"), body, &["print.js"])
}

/// `GET /certificates/{serial}/pdf`: the certificate as an A4 PDF in the page's language.
pub async fn pdf_get(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    Path(serial): Path<String>,
    headers: HeaderMap,
) -> Response {
    use axum::response::IntoResponse as _;
    let lang = viewer.lang;
    let (r, record) = match certificate_of(&web, &viewer, &serial).await {
        Ok(found) => found,
        Err(response) => return response,
    };
    let v = match r.verify_certificate(&record.certificate).await {
        Ok(v) => v,
        Err(e) => return message(&web, &viewer, refused_status(&e), &refused_text(lang, &e)),
    };
    let link = format!("{}/verify?serial={serial}", origin(&web, &headers));
    let mut facts = vec![
        (t(lang, "certificate-serial"), serial.clone()),
        (t(lang, "certificate-date"), v.date.clone()),
        (t(lang, "certificate-basis"), basis_text(lang, &v.basis)),
        (t(lang, "certificate-key"), v.key_id.clone()),
    ];
    if record.revoked {
        facts.push((
            t(lang, "certificate-status"),
            ta(lang, "certificate-revoked", &[("reason", record.revocation_reason.clone())]),
        ));
    }
    let sheet = crate::certificate_pdf::Sheet {
        title: t(lang, "certificate-title"),
        association: r.association_name(&v.association, &v.ladder),
        name: v.player_name.clone(),
        grade: grade_text(lang, &v.ladder, &v.grade),
        facts,
        scan: t(lang, "certificate-scan"),
        link,
        certificate: record.certificate.clone(),
    };
    match tokio::task::spawn_blocking(move || crate::certificate_pdf::render(&sheet)).await {
        Ok(Ok(pdf)) => (
            [
                (header::CONTENT_TYPE, "application/pdf".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"certificate-{serial}.pdf\"")),
            ],
            pdf,
        )
            .into_response(),
        Ok(Err(crate::certificate_pdf::PdfError::NoFont)) => {
            message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "certificate-pdf-no-font"))
        }
        Ok(Err(e)) => {
            tracing::warn!(%serial, "{e}");
            message(&web, &viewer, StatusCode::INTERNAL_SERVER_ERROR, &t(lang, "refusal-unavailable"))
        }
        Err(_) => message(&web, &viewer, StatusCode::SERVICE_UNAVAILABLE, &t(lang, "refusal-unavailable")),
    }
}

fn verify_form(lang: Lang, viewer: &crate::session::Viewer, text: &str) -> Markup {
    html! {
        section.card id="verify-form" {
            p.small { (t(lang, "verify-help")) }
            form.grid method="post" action="/verify" enctype="multipart/form-data" {
                (csrf_field(viewer))
                label { (t(lang, "verify-paste")) textarea name="certificate" rows="10" spellcheck="false" { (text) } }
                label { (t(lang, "verify-upload")) input type="file" name="file" accept=".txt,.cert,.pdf,text/plain,application/pdf"; }
                button type="submit" data-action="verify" { (t(lang, "verify-check")) }
            }
        }
    }
}

async fn check(web: &Web, lang: Lang, text: &str) -> Result<Verification, (StatusCode, String)> {
    let r = web.ranking.clone().ok_or((StatusCode::SERVICE_UNAVAILABLE, t(lang, "refusal-unavailable")))?;
    r.verify_certificate(text).await.map_err(|e| (refused_status(&e), refused_text(lang, &e)))
}

/// `GET /verify` (`?serial=` checks that certificate at once: where the QR code leads).
pub async fn verify_get(State(web): State<Arc<Web>>, viewer: Viewer, RawQuery(q): RawQuery) -> Response {
    let lang = viewer.lang;
    let serial = super::params(q.as_deref()).remove("serial").filter(|s| serial_ok(s));
    let mut text = String::new();
    let mut answer = None;
    if let (Some(serial), Some(r)) = (serial, web.ranking.clone()) {
        match r.certificate(&serial).await {
            Ok(c) => {
                text = c.certificate;
                answer = Some(check(&web, lang, &text).await);
            }
            Err(e) => answer = Some(Err((refused_status(&e), refused_text(lang, &e)))),
        }
    }
    render_verify(&web, &viewer, &text, answer)
}

fn render_verify(
    web: &Web,
    viewer: &crate::session::Viewer,
    text: &str,
    answer: Option<Result<Verification, (StatusCode, String)>>,
) -> Response {
    let lang = viewer.lang;
    let body = html! {
        h1 { (t(lang, "verify-title")) }
        @match &answer {
            Some(Ok(v)) => (verdict(lang, v)),
            Some(Err((_, why))) => p.error data-error="verify" role="alert" { (why) },
            None => {},
        }
        (verify_form(lang, viewer, text))
    };
    let mut response = page(web, viewer, &t(lang, "verify-title"), body, &[]);
    if let Some(Err((status, _))) = answer {
        *response.status_mut() = status;
    }
    response
}

/// `POST /verify`: a pasted or uploaded certificate.
pub async fn verify_post(
    State(web): State<Arc<Web>>,
    viewer: Viewer,
    headers: HeaderMap,
    multipart: Multipart,
) -> Response {
    let lang = viewer.lang;
    let Uploaded { mut fields, too_big, files: uploaded_files, .. } = Uploaded::read(multipart, MAX_BYTES).await;
    if !csrf_ok(&headers, fields.get("csrf").map(String::as_str)) {
        return csrf_refused(&web, &viewer);
    }
    // Kept as sent: the signature covers the text.
    let (pasted, file) = (fields.remove("certificate").unwrap_or_default(), fields.remove("file").unwrap_or_default());
    if too_big {
        let why = ta(lang, "import-too-big", &[("kb", (MAX_BYTES / 1024).to_string())]);
        return render_verify(&web, &viewer, "", Some(Err((StatusCode::PAYLOAD_TOO_LARGE, why))));
    }
    // A PDF this site made carries the signed text; a text file is the certificate itself.
    let text = match uploaded_files.get("file") {
        Some(bytes) if bytes.starts_with(b"%PDF") => match crate::certificate_pdf::certificate_in_pdf(bytes) {
            Some(text) => text,
            None => {
                return render_verify(
                    &web,
                    &viewer,
                    "",
                    Some(Err((StatusCode::BAD_REQUEST, t(lang, "verify-pdf-none")))),
                );
            }
        },
        _ if file.trim().is_empty() => pasted,
        _ => file,
    };
    if text.trim().is_empty() {
        return render_verify(&web, &viewer, "", Some(Err((StatusCode::BAD_REQUEST, t(lang, "verify-empty")))));
    }
    let answer = check(&web, lang, &text).await;
    render_verify(&web, &viewer, &text, Some(answer))
}
