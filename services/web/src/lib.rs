//! `weiqi-web`: the web front door (`../shared/spec/WEB.md`), served by the gateway's HTTP side at `/`.
//!
//! Pages are rendered on the server with [`maud`] and made live with two small ES modules
//! (`assets/game.js`, `assets/lobby.js`) and Server-Sent Events. There is no Node step: the assets are
//! files in this crate, compiled into the binary and served under their content hash with a year's
//! cache lifetime.
//!
//! * [`session`] — who is asking: the session cookie (HttpOnly, SameSite=Lax, Secure under TLS) carries
//!   an API token with the account's claims, checked against the account's folded log on every request, so
//!   a disabled account is logged out at once; the CSRF token (double-submit cookie, compared in
//!   constant time) that every form and `fetch` POST carries; the language (`?lang=`, the `lang`
//!   cookie, `Accept-Language`, else Chinese).
//! * [`limits`] — login attempts per address and per account (GCRA from `governor`).
//! * [`i18n`] — every string in a Fluent catalogue, zh-CN and en (`locales/`), with the Go vocabulary
//!   in its usual Chinese (黑, 白, 提子, 读秒, 数子, 贴目, 中盘胜…).
//! * [`index`] — the games and accounts the pages list, folded from the logs (rebuilt on start).
//! * [`challenges`] — casual games offered and taken up in the lobby.
//! * [`charts`] — SVG charts drawn on the server (ratings, statistics), shared with `weiqi stats`.
//! * [`pages`] — home and lobby, login, self-registration (when an administrator opens it), the
//!   first-administrator page, the account page (API tokens),
//!   the administrators' accounts page, the game page (players, spectators, referees), the
//!   multi-board view, a tournament's public page (standings, pairings, crosstable); the organiser's
//!   desk (create, register by hand or from a CSV file with a preview, start, pair with explanations,
//!   overrides, results, withdrawals, publish, exports, printable sheets); the certification office
//!   (queue, case with evidence and the check line by line, assign, decide, four-eyes confirmation,
//!   revoke, the revocation list) and the player's application for a grade; the leaderboards, player
//!   profiles with a server-drawn rating chart and the statistics of their games, certificate pages with a QR code, and the
//!   verification page.
//! * [`live`] — a game's view as Server-Sent Events, for the viewer's role (the sealed move hidden).
//! * [`act`] — a page's commands (`POST /games/{id}/act`), as domain commands to the game's API
//!   ([`weiqi_game::api::GameApi`]) with the session's caller, so the web decides no rule and adds no
//!   second permission model: the game's authority decides for the pages as for gRPC callers.
//! * [`overlay`] — broadcast overlays over plain HTTP (`/overlay/{game}`, its event stream) and the
//!   game record (`/games/{game}/sgf`); [`words`] — results, byo-yomi calls and time systems in words.
//!
//! # Stable test contract (WEB.md)
//!
//! `[data-vertex]` on every intersection (with `data-stone`, `data-dead`), `[data-action]` on every
//! command control (`confirm` for confirmations), `[data-result]`, `[data-to-move]`,
//! `[data-clock=black|white]`, `[data-error]`; `/login` with `input[name=name]`,
//! `input[name=password]` and one submit button; `/games/{id}`.
//!
//! # Invariants
//!
//! * Architecture Invariant: the web calls the same game API and makes the same actor checks as
//!   gRPC callers (`weiqi_game::authority`, through `weiqi_game::api`); it keeps no game state of its
//!   own and sends no token to itself.
//! * A POST without the CSRF token appends nothing.
//! * What a role may not see (the sealed move, the nigiri secret) is not in any page or stream sent to
//!   it: views are folded through the game domain, which keeps both hidden until revealed.

pub mod act;
pub mod assets;
pub mod certificate_pdf;
pub mod challenges;
pub mod charts;
pub mod chat;
pub mod fanout;
pub mod i18n;
pub mod index;
pub mod kv;
pub mod limits;
pub mod live;
pub mod overlay;
pub mod pages;
pub mod presence;
pub mod session;
pub mod shared_review;
pub mod words;

use std::sync::{Arc, Mutex};

use weiqi_account::AccountService;
use weiqi_edge::auth::Authority;
use weiqi_eventlog::AnyEventLog;
use weiqi_game::api::GameApi;

/// The player registry a self-registered account is entered in (the ranking service's), seen from
/// the web without depending on the ranking crate.
pub trait Registry: Send + Sync {
    /// Enters `player` with its names, region and declared rank (`3段`, `5k`, `业余1段`; `None`: none
    /// declared), as `by` (an administrator, or `self-registration`).
    #[allow(clippy::too_many_arguments, reason = "the registry entry's fields, each its own text")]
    fn register<'a>(
        &'a self,
        player: &'a str,
        name_zh: &'a str,
        name_latin: &'a str,
        region: &'a str,
        rank: Option<&'a str>,
        by: &'a str,
        request_id: &'a str,
    ) -> futures::future::BoxFuture<'a, Result<(), String>>;

    /// The player's entry as (name in Chinese script, name in Latin script, region), if registered.
    fn profile<'a>(&'a self, player: &'a str) -> futures::future::BoxFuture<'a, Option<(String, String, String)>>;
}

/// The services the web calls beside games: the gateway's own RPC implementations (so the desks and
/// public pages make the same checks as gRPC callers) and the registry self-registration writes to.
#[derive(Clone, Default)]
pub struct Services {
    /// The player registry self-registered accounts are entered in.
    pub registry: Option<Arc<dyn Registry>>,
    /// The tournament service's API (the desks and the public pages call it in process).
    pub tournaments: Option<weiqi_tournament::api::TournamentApi>,
    /// The gateway's `RankingService`.
    pub ranking: Option<weiqi_ranking::api::RankingApi>,
}

/// How the web is set up.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// Mark cookies `Secure` (the site is served over TLS, directly or behind a proxy).
    pub secure_cookies: bool,
    /// Open public live streams per address ([`fanout::PER_ADDRESS`] by default; `None`: no limit).
    pub streams_per_address: Option<u32>,
}

impl Default for WebConfig {
    fn default() -> Self {
        WebConfig { secure_cookies: false, streams_per_address: Some(fanout::PER_ADDRESS) }
    }
}

/// Server time, from the environment (the only reader of the system clock).
pub(crate) fn now() -> weiqi_clock::Millis {
    use weiqi_aggregate::Environment as _;
    weiqi_aggregate::SystemEnvironment.now()
}

/// The web's shared state.
pub struct Web {
    pub(crate) log: AnyEventLog,
    pub(crate) auth: Authority,
    pub(crate) game: GameApi,
    pub(crate) accounts: AccountService<AnyEventLog>,
    pub(crate) site: weiqi_account::site::SiteService<AnyEventLog>,
    pub(crate) chat: weiqi_chat::ChatService<AnyEventLog>,
    pub(crate) presence: Arc<presence::Presence>,
    pub(crate) reviews: pages::review::Reviews,
    pub(crate) shared_boards: shared_review::SharedBoards,
    pub(crate) registry: Option<Arc<dyn Registry>>,
    pub(crate) tournaments: Option<weiqi_tournament::api::TournamentApi>,
    pub(crate) ranking: Option<weiqi_ranking::api::RankingApi>,
    pub(crate) index: index::Index,
    pub(crate) challenges: challenges::Challenges,
    pub(crate) fanout: Arc<fanout::Fanout>,
    pub(crate) limits: limits::LoginLimits,
    pub(crate) config: WebConfig,
    /// The one-time secret of the first-administrator link, while no administrator exists.
    pub(crate) setup: Mutex<Option<String>>,
}

impl Web {
    /// The web over the log, the token authority, the game's API, the accounts, the player
    /// registry self-registered players are entered in, and the gateway's tournament and ranking RPCs
    /// (the desks and public pages call them as gRPC callers do).
    pub fn new(
        log: AnyEventLog,
        auth: Authority,
        game: GameApi,
        accounts: AccountService<AnyEventLog>,
        services: Services,
        config: WebConfig,
    ) -> Arc<Web> {
        let Services { registry, tournaments, ranking } = services;
        // An account command of this process counts for its tokens at the next request, before the
        // index has folded it from the log.
        let observed = auth.clone();
        let accounts = accounts.with_observer(Arc::new(move |name: &str, account: &weiqi_account::Account| {
            observed.set_standing(name, Some(session::standing(account)));
        }));
        let site = weiqi_account::site::SiteService::new(log.clone(), Arc::new(weiqi_aggregate::SystemEnvironment));
        let chat = weiqi_chat::ChatService::new(log.clone(), Arc::new(weiqi_aggregate::SystemEnvironment));
        Arc::new(Web {
            site,
            chat,
            presence: Arc::default(),
            reviews: pages::review::Reviews::default(),
            shared_boards: shared_review::SharedBoards::default(),
            registry,
            tournaments,
            ranking,
            index: index::Index::default(),
            challenges: challenges::Challenges::default(),
            fanout: fanout::Fanout::new(log.clone(), config.streams_per_address),
            limits: limits::LoginLimits::default(),
            setup: Mutex::new(None),
            log,
            auth,
            game,
            accounts,
            config,
        })
    }

    /// Starts folding the game and account logs into the index, and waits until it has caught up with
    /// what is stored (so the first page lists every game).
    ///
    /// # Errors
    /// The log is unreachable.
    pub async fn start(self: &Arc<Web>) -> Result<(), weiqi_eventlog::LogError> {
        index::spawn(self.clone()).await?;
        // On JetStream, every gateway sees every open challenge; its lobby pages hear of each change.
        if let AnyEventLog::JetStream(js) = &self.log {
            let web = Arc::downgrade(self);
            let changed = move || {
                if let Some(web) = web.upgrade() {
                    web.index.poke();
                }
            };
            self.challenges
                .share_through(js.client().clone(), changed)
                .await
                .map_err(|e| weiqi_eventlog::LogError::Unavailable(Box::new(e)))?;
            // And the shared review boards, driven on one gateway and followed on any.
            self.shared_boards
                .share_through(js.client().clone())
                .await
                .map_err(|e| weiqi_eventlog::LogError::Unavailable(Box::new(e)))?;
            // And who has a game's page open, on any gateway.
            self.presence
                .share_through(js.client().clone())
                .await
                .map_err(|e| weiqi_eventlog::LogError::Unavailable(e.into()))?;
        }
        Ok(())
    }

    /// The path of the first-administrator page (`/setup/{secret}`), made once while no account holds
    /// the `admin` role; `None` once one does.
    pub fn first_admin_path(&self) -> Option<String> {
        if self.index.has_admin() {
            return None;
        }
        let mut setup = self.setup.lock().expect("setup lock");
        let secret = setup.get_or_insert_with(|| {
            let mut bytes = Vec::with_capacity(32);
            bytes.extend_from_slice(uuid::Uuid::new_v4().as_bytes());
            bytes.extend_from_slice(uuid::Uuid::new_v4().as_bytes());
            hex::encode(bytes)
        });
        Some(format!("/setup/{secret}"))
    }

    /// The pages, to merge into the gateway's HTTP router (beside `/overlay`, `/metrics`, `/healthz`
    /// and `/games/{id}/sgf`).
    pub fn router(self: &Arc<Web>) -> axum::Router {
        pages::router(self.clone())
    }
}
