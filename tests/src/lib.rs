//! `weiqi-e2e`: a harness that starts the suite's real components — game service(s), gateway on a free
//! port (gRPC, and HTTP for the broadcast overlay) — on the embedded log or on a real nats-server, and a
//! gRPC client with tokens for each role. The tests in `tests/` drive it only through the public APIs.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tonic::transport::Channel;
use weiqi_eventlog::{
    AnyBus, AnyEventLog, EmbeddedConfig, EmbeddedLog, JetStreamConfig, JetStreamLog, LocalBus, NatsBus,
};
use weiqi_game::api::GameApi;
use weiqi_game::client::GameClient;
use weiqi_game::grpc::GameGrpc;
use weiqi_game::service::GameService;
use weiqi_gateway::auth::{Authority, Role};
use weiqi_gateway::info::InfoGateway;
use weiqi_proto::v1 as pb;
use weiqi_proto::v1::game_service_client::GameServiceClient;

/// A running suite.
pub struct Suite {
    /// The gateway's address (`http://127.0.0.1:<port>`).
    pub url: String,
    /// The gateway's HTTP side (`127.0.0.1:<port>`): the broadcast overlay.
    pub http: String,
    /// The server's token authority.
    pub auth: Authority,
    /// The event log (for checking what was appended).
    pub log: AnyEventLog,
    /// Game-service instances serving over the bus (NATS suites), so tests can stop one.
    pub game_instances: Vec<JoinHandle<()>>,
    gateway: JoinHandle<()>,
    http_server: JoinHandle<()>,
    _dir: Option<tempfile::TempDir>,
}

impl Drop for Suite {
    fn drop(&mut self) {
        self.gateway.abort();
        self.http_server.abort();
        for h in &self.game_instances {
            h.abort();
        }
    }
}

async fn start_gateway(
    client: GameClient,
    log: AnyEventLog,
    auth: Authority,
    backend: &str,
) -> (String, JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let url = format!("http://{}", listener.local_addr().expect("bound"));
    let routes = weiqi_gateway::server::base_routes(
        GameGrpc::new(GameApi::new(client, log, Arc::new(Vec::new)), auth.clone()),
        InfoGateway::new(auth, backend, vec![]),
    )
    .await;
    let handle = tokio::spawn(async move {
        let _ = weiqi_gateway::server::serve_grpc(routes, listener, std::future::pending()).await;
    });
    (url, handle)
}

/// The gateway's HTTP side: the broadcast overlay.
async fn start_http(log: AnyEventLog, auth: Authority) -> (String, JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let addr = listener.local_addr().expect("bound").to_string();
    let router = weiqi_web::overlay::router(log, auth);
    let handle = tokio::spawn(async move {
        let _ = weiqi_gateway::server::serve_http(router, listener, std::future::pending()).await;
    });
    (addr, handle)
}

fn authority() -> Authority {
    Authority::new(b"e2e secret: thirty-two bytes at least!", "weiqi-e2e")
}

impl Suite {
    /// Everything in process on an embedded log (what `weiqi up` runs).
    pub async fn embedded() -> Suite {
        let dir = tempfile::tempdir().expect("a temp dir");
        let log = AnyEventLog::Embedded(
            EmbeddedLog::open(dir.path().join("events.redb"), EmbeddedConfig::default()).expect("embedded log"),
        );
        let game = GameClient::Local(Arc::new(GameService::new(log.clone())));
        let auth = authority();
        let (url, gateway) = start_gateway(game, log.clone(), auth.clone(), "embedded").await;
        let (http, http_server) = start_http(log.clone(), auth.clone()).await;
        let _ = LocalBus::new();
        Suite { url, http, auth, log, game_instances: Vec::new(), gateway, http_server, _dir: Some(dir) }
    }

    /// On a real nats-server: `instances` game services serve over NATS request/reply (queue group), and
    /// the gateway reaches them over the bus.
    pub async fn nats(url: &str, instances: usize) -> Suite {
        let config = JetStreamConfig { timeout: Duration::from_secs(2), ..JetStreamConfig::default() };
        let js = JetStreamLog::connect(url, config).await.expect("JetStream");
        let bus = AnyBus::Nats(NatsBus::new(js.client().clone()));
        let log = AnyEventLog::JetStream(js);
        let mut game_instances = Vec::new();
        for _ in 0..instances.max(1) {
            let svc = Arc::new(GameService::new(log.clone()));
            let bus = bus.clone();
            game_instances.push(tokio::spawn(async move {
                let _ = svc.serve(&bus).await;
            }));
        }
        // Give the queue subscriptions a moment to register on the server.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let auth = authority();
        let (url, gateway) =
            start_gateway(GameClient::Bus(bus, Duration::from_secs(3)), log.clone(), auth.clone(), "nats").await;
        let (http, http_server) = start_http(log.clone(), auth.clone()).await;
        Suite { url, http, auth, log, game_instances, gateway, http_server, _dir: None }
    }

    /// A token for a subject with roles (events `*` for staff).
    pub fn token(&self, sub: &str, roles: &[Role]) -> String {
        let staff = roles.iter().any(|r| matches!(r, Role::Referee | Role::ChiefReferee | Role::Organiser));
        let events: &[&str] = if staff { &["*"] } else { &[] };
        self.auth.issue(sub, roles, events, Duration::from_secs(3600))
    }

    /// A connected client.
    pub async fn client(&self) -> GameServiceClient<Channel> {
        let mut tries = 0;
        loop {
            match Channel::from_shared(self.url.clone()).expect("a URL").connect().await {
                Ok(ch) => return GameServiceClient::new(ch),
                Err(e) if tries < 50 => {
                    tries += 1;
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(e) => panic!("cannot connect to the gateway: {e}"),
            }
        }
    }

    /// How many events the game's log holds.
    pub async fn events(&self, game: &str) -> u64 {
        use weiqi_eventlog::EventLog;
        self.log
            .last_sequence(weiqi_eventlog::AggregateKind::Game, &weiqi_eventlog::AggregateId::new(game).expect("an id"))
            .await
            .expect("the log answers")
    }
}

/// A request with a bearer token.
pub fn authed<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut r = tonic::Request::new(message);
    r.metadata_mut().insert("authorization", format!("Bearer {token}").parse().expect("ASCII token"));
    r
}

/// A fresh request id.
pub fn rid() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// The typed rejection code in a status, if any.
pub fn code_of(status: &tonic::Status) -> String {
    weiqi_gateway::error::rejection_of(status).map(|r| r.code).unwrap_or_default()
}

/// A point from a GTP vertex on a board of `size`.
pub fn pt(vertex: &str, size: u8) -> pb::Point {
    let p = weiqi_rules::Point::from_gtp(vertex, size).expect("a vertex");
    pb::Point { x: p.x as u32, y: p.y as u32 }
}
