//! The pages, one file each, and what they share: the layout (header, language switch, sign-in state),
//! the CSRF field, redirects and the client's address.

pub mod account;
pub mod admin;
pub mod certificate;
pub mod desk;
pub mod game;
pub mod home;
pub mod invitation;
pub mod login;
pub mod office;
pub mod players;
pub mod ranking_refusal;
pub mod register;
pub mod registry;
pub mod review;
pub mod setup;
pub mod tournament;
pub mod watch;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::Web;
use crate::i18n::{Lang, t};
use crate::session::Viewer;

/// Every page route.
pub fn router(web: Arc<Web>) -> axum::Router {
    let pages = axum::Router::new()
        .route("/", get(home::home))
        .route("/lobby/live", get(home::lobby_stream))
        .route("/challenges", post(home::create_challenge))
        .route("/challenges/{id}/{verb}", post(home::answer_challenge))
        .route("/login", get(login::form).post(login::submit))
        .route("/logout", post(login::logout))
        .route("/setup/{secret}", get(setup::form).post(setup::submit))
        .route("/account", get(account::page))
        .route("/account/password", post(account::password))
        .route("/account/tokens", post(account::issue))
        .route("/account/tokens/{id}/revoke", post(account::revoke))
        .route("/account/sign-out-everywhere", post(account::sign_out_everywhere))
        .route("/register", get(register::form).post(register::submit))
        .route("/admin/registration", post(admin::registration))
        .route("/admin/accounts", get(admin::page).post(admin::create))
        .route("/admin/accounts/{name}/{verb}", post(admin::change))
        .route("/games/{id}", get(game::page))
        .route("/games/{id}/live", get(crate::live::live))
        .route("/games/{id}/act", post(crate::act::act))
        .route("/games/{id}/presence", get(crate::live::presence))
        .route("/games/{id}/review", get(review::page))
        .route("/registry", get(registry::page_get))
        .route("/registry/{id}/profile", post(registry::profile))
        .route("/registry/{id}/rank", post(registry::rank))
        .route("/registry/{id}/invite", post(registry::invite))
        .route("/registry/{id}/merge", post(registry::merge))
        .route("/invitations/{player}/{secret}", get(invitation::form).post(invitation::accept))
        .route("/games/{id}/rematch", post(home::rematch))
        .route("/games/{id}/review/data", get(review::data))
        .route("/games/{id}/review/estimate", get(review::estimate))
        .route("/games/{id}/review/share", post(review::share))
        .route("/reviews/{board}", get(review::shared_page).post(review::shared_move))
        .route("/reviews/{board}/live", get(review::shared_live))
        .route("/games/{id}/chat", post(crate::chat::act))
        .route("/games/{id}/chat/live", get(crate::chat::live))
        .route("/watch", get(watch::page))
        .route("/tournaments/{id}", get(tournament::page_get))
        .route("/desk", get(desk::list).post(desk::create))
        .route(
            "/desk/ratings",
            get(desk::ratings::get)
                .post(desk::ratings::import)
                .layer(axum::extract::DefaultBodyLimit::max(desk::ratings::MAX_BYTES + 64 * 1024)),
        )
        .route("/desk/tournaments/{id}", get(desk::page_get))
        .route("/desk/tournaments/{id}/import", post(desk::import::import))
        .route("/desk/tournaments/{id}/export/{kind}", get(desk::export))
        .route("/desk/tournaments/{id}/print/{what}", get(desk::print))
        .route("/desk/tournaments/{id}/register", post(desk::act::register))
        .route("/desk/tournaments/{id}/team", post(desk::act::team))
        .route("/desk/tournaments/{id}/line-up", post(desk::act::line_up))
        .route("/desk/tournaments/{id}/start", post(desk::act::start))
        .route("/desk/tournaments/{id}/pair", post(desk::act::pair))
        .route("/desk/tournaments/{id}/chat", post(desk::act::chat))
        .route("/desk/tournaments/{id}/forbid", post(desk::act::forbid))
        .route("/desk/tournaments/{id}/allow", post(desk::act::allow))
        .route("/desk/tournaments/{id}/fix", post(desk::act::fix))
        .route("/desk/tournaments/{id}/bye", post(desk::act::bye))
        .route("/desk/tournaments/{id}/result", post(desk::act::result))
        .route("/desk/tournaments/{id}/withdraw", post(desk::act::withdraw))
        .route("/desk/tournaments/{id}/publish", post(desk::act::publish))
        .route("/desk/tournaments/{id}/facts", post(desk::act::facts))
        .route("/desk/tournaments/{id}/edit", post(desk::act::edit))
        .route("/desk/tournaments/{id}/remove", post(desk::act::remove))
        .route("/desk/tournaments/{id}/unpair", post(desk::act::unpair))
        .route("/desk/tournaments/{id}/settings", post(desk::act::settings))
        .route("/desk/tournaments/{id}/cancel-bye", post(desk::act::cancel_bye))
        .route("/desk/tournaments/{id}/{verb}", post(desk::act::unknown))
        .route("/office", get(office::queue))
        .route("/office/revocations", get(office::revocations))
        .route("/office/cases/{id}", get(office::case_get))
        .route("/office/cases/{id}/{verb}", post(office::case_act))
        .route("/account/rank", get(office::apply_form).post(office::apply))
        .route("/players", get(players::leaderboard))
        .route("/players/{id}", get(players::profile))
        .route("/my/games", get(players::my_games))
        .route("/certificates/{serial}", get(certificate::page_get))
        .route("/certificates/{serial}/pdf", get(certificate::pdf_get))
        .route("/verify", get(certificate::verify_get).post(certificate::verify_post))
        .route("/assets/{file}", get(crate::assets::serve))
        .with_state(web);
    weiqi_edge::headers::pages(pages)
}

/// The client's address (for the login limits), when the server was started with connect info.
pub struct ClientAddr(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientAddr, Self::Rejection> {
        Ok(ClientAddr(parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip())))
    }
}

/// The hidden CSRF field every form carries.
pub fn csrf_field(viewer: &Viewer) -> Markup {
    html! { input type="hidden" name="csrf" value=(viewer.csrf); }
}

/// A page in the layout, with the viewer's cookies.
pub fn page(web: &Web, viewer: &Viewer, title: &str, body: Markup, scripts: &[&str]) -> Response {
    let lang = viewer.lang;
    let other = match lang {
        Lang::ZhCn => (Lang::En, "English"),
        Lang::En => (Lang::ZhCn, "中文"),
    };
    let markup = html! {
        (DOCTYPE)
        html lang=(lang.tag()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width,initial-scale=1";
                meta name="csrf-token" content=(viewer.csrf);
                title { (title) " · " (t(lang, "site-name")) }
                link rel="stylesheet" href=(crate::assets::url("style.css"));
            }
            body {
                a.skip href="#main" { (t(lang, "skip-to-content")) }
                header.top {
                    a.brand href="/" { (t(lang, "site-name")) }
                    nav aria-label=(t(lang, "nav-label")) {
                        a href="/" { (t(lang, "nav-home")) }
                        a href="/watch" { (t(lang, "nav-watch")) }
                        a href="/players" { (t(lang, "nav-players")) }
                        @if desk::staff(viewer).is_some() { a href="/desk" { (t(lang, "nav-desk")) } }
                        @if let Some(m) = &viewer.member {
                            @if m.has(weiqi_edge::auth::Role::Reviewer) { a href="/office" { (t(lang, "nav-office")) } }
                            @if m.has(weiqi_edge::auth::Role::Player) { a href="/my/games" { (t(lang, "my-games")) } }
                            @if m.has(weiqi_edge::auth::Role::Player) { a href="/account/rank" { (t(lang, "nav-rank")) } }
                            a href="/account" { (m.account.display_name) }
                            @if m.has(weiqi_edge::auth::Role::Admin) || m.has(weiqi_edge::auth::Role::Organiser) {
                                a href="/registry" { (t(lang, "nav-registry")) }
                            }
                            @if m.has(weiqi_edge::auth::Role::Admin) {
                                a href="/admin/accounts" { (t(lang, "nav-admin")) }
                            }
                            form.inline method="post" action="/logout" {
                                (csrf_field(viewer))
                                button type="submit" data-action="logout" { (t(lang, "logout")) }
                            }
                        } @else {
                            a href="/login" { (t(lang, "login")) }
                        }
                        a.lang href={ "?lang=" (other.0.tag()) } hreflang=(other.0.tag()) lang=(other.0.tag()) { (other.1) }
                    }
                }
                main id="main" { (body) }
                @for s in scripts {
                    script type="module" src=(crate::assets::url(s)) {}
                }
            }
        }
    };
    respond(web, viewer, StatusCode::OK, markup)
}

/// A response with the viewer's cookies.
pub fn respond(web: &Web, viewer: &Viewer, status: StatusCode, markup: Markup) -> Response {
    let mut response = (status, markup).into_response();
    for c in web.cookies_for(viewer) {
        response.headers_mut().append(header::SET_COOKIE, c);
    }
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A 303 to `to`, with extra cookies.
pub fn redirect(to: &str, cookies: Vec<HeaderValue>) -> Response {
    let mut response = (StatusCode::SEE_OTHER, [(header::LOCATION, to.to_string())]).into_response();
    for c in cookies {
        response.headers_mut().append(header::SET_COOKIE, c);
    }
    response
}

/// The refusal page for a form POST without its CSRF token.
pub fn csrf_refused(web: &Web, viewer: &Viewer) -> Response {
    let lang = viewer.lang;
    let body = html! {
        h1 { (t(lang, "refused")) }
        p data-error="csrf" role="alert" { (t(lang, "refusal-csrf")) }
        p { a href="/" { (t(lang, "nav-home")) } }
    };
    let mut r = page(web, viewer, &t(lang, "refused"), body, &[]);
    *r.status_mut() = StatusCode::FORBIDDEN;
    r
}

/// A message shown as a page (no such game, sign in first…).
pub fn message(web: &Web, viewer: &Viewer, status: StatusCode, text: &str) -> Response {
    let lang = viewer.lang;
    let body = html! {
        p data-error="page" role="alert" { (text) }
        p { a href="/" { (t(lang, "nav-home")) } }
    };
    let mut r = page(web, viewer, text, body, &[]);
    *r.status_mut() = status;
    r
}

/// A refusal from a service's domain API: its stable code, its kind (`None`: a fault of the
/// infrastructure) and its message.
pub trait Refused: std::fmt::Display {
    /// The stable code (`ko`, `permission_denied`, `not_found`…).
    fn code(&self) -> &str;
    /// The kind of refusal; `None` for a fault (unavailable, or data that does not decode).
    fn kind(&self) -> Option<weiqi_aggregate::RejectionKind>;
    /// The refusal in the page's language when its words need its data (who, which grade); `None`:
    /// said by its code.
    fn said(&self, _lang: Lang) -> Option<String> {
        None
    }
}

/// Each service's API error is a refusal the pages render the same way.
macro_rules! refused_by {
    ($($error:ty),*) => {
        $(impl Refused for $error {
            fn code(&self) -> &str {
                <$error>::code(self)
            }
            fn kind(&self) -> Option<weiqi_aggregate::RejectionKind> {
                <$error>::kind(self)
            }
        })*
    };
}

refused_by!(weiqi_game::api::ApiError, weiqi_tournament::api::ApiError);

impl Refused for weiqi_ranking::api::ApiError {
    fn code(&self) -> &str {
        weiqi_ranking::api::ApiError::code(self)
    }
    fn kind(&self) -> Option<weiqi_aggregate::RejectionKind> {
        weiqi_ranking::api::ApiError::kind(self)
    }
    fn said(&self, lang: Lang) -> Option<String> {
        ranking_refusal::said(lang, self)
    }
}

/// A domain API's refusal in the page's language: the catalogue's words for its code, else the
/// service's own; a fault as "unavailable".
pub fn refused_text(lang: Lang, e: &impl Refused) -> String {
    match e.kind() {
        Some(_) => e.said(lang).unwrap_or_else(|| crate::i18n::refusal(lang, e.code(), &e.to_string())),
        None => t(lang, "refusal-unavailable"),
    }
}

/// The HTTP status of a domain API's refusal.
pub fn refused_status(e: &impl Refused) -> StatusCode {
    e.kind().map_or(StatusCode::SERVICE_UNAVAILABLE, weiqi_edge::status::http_status)
}

/// `response` with `status`.
pub fn with_status(mut response: Response, status: StatusCode) -> Response {
    *response.status_mut() = status;
    response
}

/// A query string's parameters, percent-decoded (the last of a repeated name wins).
pub fn params(query: Option<&str>) -> std::collections::HashMap<String, String> {
    serde_urlencoded::from_str(query.unwrap_or_default()).unwrap_or_default()
}

/// Who a staff page lets in: its rule over the viewer, and the refusal (a message id) for anyone else.
pub trait StaffRule: Send + Sync + 'static {
    /// The member the page lets in, if the viewer is one.
    fn admits(viewer: &Viewer) -> Option<&crate::session::Member>;
    /// The refusal's message id.
    const REFUSAL: &'static str;
}

/// The desk's rule: organisers, referees and administrators ([`desk::staff`]).
pub struct DeskRule;

impl StaffRule for DeskRule {
    fn admits(viewer: &Viewer) -> Option<&crate::session::Member> {
        desk::staff(viewer)
    }
    const REFUSAL: &'static str = "desk-only";
}

/// The certification office's rule: reviewers and administrators.
pub struct OfficeRule;

impl StaffRule for OfficeRule {
    fn admits(viewer: &Viewer) -> Option<&crate::session::Member> {
        viewer
            .member
            .as_ref()
            .filter(|m| m.has(weiqi_edge::auth::Role::Reviewer) || m.has(weiqi_edge::auth::Role::Admin))
    }
    const REFUSAL: &'static str = "office-only";
}

/// A staff page's viewer as a handler's argument: the viewer and the member `R` lets in; anyone else
/// is answered with the page's refusal (403, in the viewer's language) before the handler runs. (A
/// form POST checks its CSRF token first: [`acting`].)
pub struct Staff<R> {
    /// Who asks.
    pub viewer: Viewer,
    /// The member the rule let in.
    pub member: crate::session::Member,
    rule: std::marker::PhantomData<R>,
}

impl<R: StaffRule> FromRequestParts<Arc<Web>> for Staff<R> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, web: &Arc<Web>) -> Result<Self, Response> {
        let viewer = web.viewer(&parts.headers, parts.uri.query()).await;
        match R::admits(&viewer).cloned() {
            Some(member) => Ok(Staff { viewer, member, rule: std::marker::PhantomData }),
            None => Err(message(web, &viewer, StatusCode::FORBIDDEN, &t(viewer.lang, R::REFUSAL))),
        }
    }
}

/// The desk's staff, as a handler's argument.
pub type DeskStaff = Staff<DeskRule>;
/// The certification office's reviewers, as a handler's argument.
pub type Reviewer = Staff<OfficeRule>;

/// An account refusal in the page's language.
pub fn account_error(lang: Lang, e: &weiqi_account::AccountError) -> String {
    match e {
        weiqi_account::AccountError::Refused(r) => crate::i18n::refusal(lang, r.code(), &r.to_string()),
        weiqi_account::AccountError::Password(_) => t(lang, "refusal-password-length"),
        weiqi_account::AccountError::RequestIdReused => t(lang, "refusal-request-id-reused"),
        weiqi_account::AccountError::Unavailable(_) => t(lang, "refusal-unavailable"),
    }
}

/// A form POST that may act: the viewer (once the form's CSRF token checks) and the member `may`
/// lets act; else the page that refuses it (403 with `refused` as the reason).
///
/// # Errors
/// The refusal page: a missing or wrong CSRF token, or a viewer `may` does not let act.
pub async fn acting(
    web: &Web,
    headers: &axum::http::HeaderMap,
    csrf: Option<&str>,
    may: fn(&Viewer) -> Option<&crate::session::Member>,
    refused: &str,
) -> Result<(Viewer, crate::session::Member), Response> {
    let viewer = web.viewer(headers, None).await;
    if !crate::session::csrf_ok(headers, csrf) {
        return Err(csrf_refused(web, &viewer));
    }
    match may(&viewer).cloned() {
        Some(member) => Ok((viewer, member)),
        None => Err(message(web, &viewer, StatusCode::FORBIDDEN, &t(viewer.lang, refused))),
    }
}

/// A file's text as people's programs write it: UTF-8 (a byte-order mark dropped), else the
/// encoding the detector Firefox uses names (GB18030/GBK from Excel on Chinese Windows), as the SGF
/// reader does. Answers the text and the encoding's name.
pub fn decode_upload(bytes: &[u8]) -> (String, &'static str) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let charset = weiqi_sgf::Charset::detect(bytes);
    (charset.decode(bytes), charset.name())
}

/// A multipart form's text fields.
#[derive(Debug, Default)]
pub struct Uploaded {
    /// Each field at most the size allowed, by name (an empty file input is an empty field).
    pub fields: std::collections::HashMap<String, String>,
    /// Some field was larger than allowed (and left out).
    pub too_big: bool,
    /// The encoding each field was read in (`UTF-8`, or what a file not in UTF-8 was detected as:
    /// `GB18030` for Excel's CSV on Chinese Windows).
    pub encodings: std::collections::HashMap<String, &'static str>,
    /// Each file's bytes as sent, by field name (a PDF is not text).
    pub files: std::collections::HashMap<String, Vec<u8>>,
}

impl Uploaded {
    /// Reads every field of `multipart`, leaving out those larger than `max` bytes.
    pub async fn read(mut multipart: axum::extract::Multipart, max: usize) -> Uploaded {
        let mut uploaded = Uploaded::default();
        while let Ok(Some(part)) = multipart.next_field().await {
            let name = part.name().unwrap_or_default().to_string();
            let is_file = part.file_name().is_some();
            let Ok(bytes) = part.bytes().await else { break };
            if bytes.len() > max {
                uploaded.too_big = true;
                continue;
            }
            if is_file {
                uploaded.files.insert(name.clone(), bytes.to_vec());
            }
            let (text, encoding) = decode_upload(&bytes);
            uploaded.encodings.insert(name.clone(), encoding);
            uploaded.fields.insert(name, text);
        }
        uploaded
    }

    /// The encoding field `name` was read in.
    pub fn encoding(&self, name: &str) -> &'static str {
        self.encodings.get(name).copied().unwrap_or("UTF-8")
    }

    /// The field `name`, trimmed ("" if absent).
    pub fn get(&self, name: &str) -> &str {
        self.fields.get(name).map_or("", |v| v.trim())
    }
}

/// A notice above a desk's page: done (`role=status`) or refused (`role=alert`, `data-error`).
pub fn notice(note: Option<&(bool, String)>) -> Markup {
    html! {
        @if let Some((ok, text)) = note {
            @if *ok { p.notice role="status" data-notice="ok" { (text) } }
            @else { p.error data-error="desk" role="alert" { (text) } }
        }
    }
}

/// A fresh request id (each form submission is one command).
pub fn request_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// The request id a form was drawn with (so sending it twice is one command), else a fresh one.
pub fn form_request_id(sent: Option<&str>) -> String {
    match sent.map(str::trim) {
        Some(r) if !r.is_empty() && r.len() <= 64 => r.to_string(),
        _ => request_id(),
    }
}

/// JSON for a `<script type="application/json">` block (no `</script>` can close it early).
pub fn json_block(value: &serde_json::Value) -> PreEscaped<String> {
    PreEscaped(value.to_string().replace('<', "\\u003c"))
}

/// Milliseconds as `m:ss` or `h:mm:ss`.
pub fn clock_text(ms: i64) -> String {
    let s = (ms.max(0) + 999) / 1000;
    let (h, m, s) = (s / 3600, (s / 60) % 60, s % 60);
    if h > 0 { format!("{h}:{m:02}:{s:02}") } else { format!("{m}:{s:02}") }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clocks_read_as_players_read_them() {
        assert_eq!(super::clock_text(0), "0:00");
        assert_eq!(super::clock_text(59_001), "1:00");
        assert_eq!(super::clock_text(3_600_000 + 61_000), "1:01:01");
    }

    #[test]
    fn json_in_a_script_block_cannot_close_it() {
        let v = serde_json::json!({"name": "</script><script>alert(1)</script>"});
        assert!(!super::json_block(&v).0.contains("</script"));
    }
}
