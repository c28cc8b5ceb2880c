//! The weiqi site scripted through WEB.md's stable test contract only (`data-vertex`, `data-action`,
//! `data-result`, `data-to-move`, `data-error`, `/login`, `/games/{id}`), and a `weiqi up` process to
//! script it against. Shared by the browser tests and `weiqi bench web`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::Session;

/// A `weiqi up` process on fixed ports, restartable on the same data.
pub struct Server {
    binary: PathBuf,
    data_dir: PathBuf,
    nats: Option<String>,
    /// `127.0.0.1:port` of the gRPC side.
    pub grpc: String,
    /// `http://127.0.0.1:port` of the web.
    pub base: String,
    /// The first-administrator link, if printed.
    pub setup_link: Option<String>,
    /// Extra environment for `weiqi up` (e.g. `WEIQI_RATING_SYSTEM`).
    pub env: Vec<(String, String)>,
    child: Option<Child>,
    started: bool,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

impl Server {
    /// A server for `binary` (the `weiqi` executable) on `data_dir`, on NATS JetStream if `nats` is
    /// given; not started yet (so accounts can be added to an embedded log first).
    pub fn new(binary: &Path, data_dir: &Path, nats: Option<&str>) -> Server {
        let (grpc, http) = (free_port(), free_port());
        Server {
            binary: binary.to_path_buf(),
            data_dir: data_dir.to_path_buf(),
            nats: nats.map(str::to_string),
            grpc: format!("127.0.0.1:{grpc}"),
            base: format!("http://127.0.0.1:{http}"),
            setup_link: None,
            env: Vec::new(),
            child: None,
            started: false,
        }
    }

    fn common(&self, command: &mut Command) {
        command.arg("--data-dir").arg(&self.data_dir);
        if let Some(url) = &self.nats {
            command.arg("--nats").arg(url);
        }
    }

    /// `weiqi account add NAME --role ROLE… --password-file F` (panics on failure).
    pub fn add_account(&self, name: &str, roles: &[&str], display: &str, password: &str) {
        let file = self.data_dir.with_extension(format!("{name}.pw"));
        std::fs::write(&file, format!("{password}\n")).expect("writing the password file");
        let mut c = Command::new(&self.binary);
        c.arg("account");
        self.common(&mut c);
        c.args(["add", name, "--display-name", display, "--password-file"]).arg(&file);
        for r in roles {
            c.args(["--role", r]);
        }
        let out = c.output().expect("running weiqi account add");
        let _ = std::fs::remove_file(&file);
        assert!(out.status.success(), "weiqi account add {name}: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Runs another `weiqi` subcommand against this server's data and answers its standard output.
    pub fn weiqi(&self, args: &[&str]) -> String {
        let out = Command::new(&self.binary).args(args).output().expect("running weiqi");
        assert!(out.status.success(), "weiqi {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `weiqi token --sub SUB --role ROLE --event '*'` against this server's data: an API token.
    pub fn token(&self, sub: &str, role: &str) -> String {
        let data = self.data_dir.to_str().expect("a UTF-8 data directory").to_string();
        self.weiqi(&["token", "--sub", sub, "--role", role, "--event", "*", "--data-dir", &data]).trim().to_string()
    }

    /// The data directory.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Starts `weiqi up` and waits until it prints its home page address. The first start takes
    /// fresh ports and tries again if another process took one between choosing and binding it;
    /// later starts (a restart) keep the ports, so pages reconnect to the same address.
    ///
    /// # Panics
    /// When it does not start.
    pub fn start(&mut self) {
        for attempt in 1..=4 {
            match self.try_start() {
                Ok(()) => {
                    self.started = true;
                    return;
                }
                Err(why) if !self.started && attempt < 4 => {
                    eprintln!("weiqi up did not start ({why}); trying other ports");
                    self.grpc = format!("127.0.0.1:{}", free_port());
                    self.base = format!("http://127.0.0.1:{}", free_port());
                }
                Err(why) => panic!("{why}"),
            }
        }
    }

    fn try_start(&mut self) -> Result<(), String> {
        let mut c = Command::new(&self.binary);
        c.arg("up")
            .arg("--quiet")
            .arg("--grpc")
            .arg(&self.grpc)
            .arg("--http")
            .arg(self.base.trim_start_matches("http://"));
        self.common(&mut c);
        c.envs(self.env.iter().map(|(k, v)| (k, v)));
        c.env("RUST_LOG", "warn").stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::inherit());
        let mut child = c.spawn().expect("spawning weiqi up");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut home = false;
        while Instant::now() < deadline {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(line) => {
                    if let Some(link) = line.strip_prefix("weiqi: create the first administrator: ") {
                        self.setup_link = Some(link.trim().to_string());
                    }
                    if line.starts_with("weiqi: home page ") {
                        home = true;
                        // The admin line, if any, follows at once.
                        if let Ok(next) = rx.recv_timeout(Duration::from_millis(300))
                            && let Some(link) = next.strip_prefix("weiqi: create the first administrator: ")
                        {
                            self.setup_link = Some(link.trim().to_string());
                        }
                        break;
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if let Ok(Some(status)) = child.try_wait() {
                        return Err(format!("weiqi up exited early: {status}"));
                    }
                }
                Err(_) => break,
            }
        }
        if !home {
            let exited = child.try_wait().ok().flatten();
            let _ = child.kill();
            let _ = child.wait();
            return Err(match exited {
                Some(status) => format!("weiqi up exited early: {status}"),
                None => "weiqi up did not print its home page within 60 s".into(),
            });
        }
        self.child = Some(child);
        Ok(())
    }

    /// Kills the server (SIGKILL, as `kill -9`).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

impl Session {
    /// Opens `path` on `base`.
    ///
    /// # Panics
    /// When the page cannot be opened.
    pub async fn open(&self, base: &str, path: &str) {
        self.client.goto(&format!("{base}{path}")).await.unwrap_or_else(|e| panic!("opening {path}: {e}"));
    }

    /// Signs in on `/login` (the form WEB.md names) and waits to leave the login page. The site
    /// limits sign-ins per account (every attempt counts): a test that signs one account in many
    /// times waits as long as the page says, as a person would, and tries again.
    pub async fn login(&self, base: &str, name: &str, password: &str) {
        for _ in 0..4 {
            self.open(base, "/login").await;
            self.fill("input[name=name]", name).await;
            self.fill("input[name=password]", password).await;
            self.click("form[action='/login'] button[type=submit]").await;
            let outcome = self
                .wait_for(
                    &format!("{name} signed in"),
                    "if (document.readyState !== 'complete') return null; \
                     if (!location.pathname.startsWith('/login')) return 'in'; \
                     const e = document.querySelector('[data-error=login]'); \
                     const m = e && /(\\d+)/.exec(e.textContent); \
                     return m && e.textContent.length < 200 && document.querySelector('input[name=name]').value ? 'wait ' + m[1] : null",
                )
                .await;
            let Some(seconds) = outcome.as_str().and_then(|o| o.strip_prefix("wait ")) else { return };
            let seconds: u64 = seconds.parse().unwrap_or(5);
            tokio::time::sleep(std::time::Duration::from_secs(seconds.min(30) + 1)).await;
        }
        panic!("{name} could not sign in: still limited after four waits");
    }

    /// The game id of the page, once it is a game page.
    pub async fn game_id(&self) -> String {
        let v = self.wait_for("a game page", "const m = /^\\/games\\/([^/]+)$/.exec(location.pathname); return m && document.querySelector('[data-vertex]') ? m[1] : null").await;
        v.as_str().expect("a string").to_string()
    }

    /// Plays at `vertex` as a person does: a click or tap, and on a touch screen (where the first tap
    /// only proposes the stone, `[data-candidate]`) a second tap.
    pub async fn tap_to_play(&self, vertex: &str) {
        let css = format!("[data-vertex=\"{vertex}\"]");
        self.click(&css).await;
        let proposed = format!("return document.querySelector('{css}').getAttribute('data-candidate') === 'true'");
        if self.js(&proposed, vec![]).await == json!(true) {
            self.click(&css).await;
        }
    }

    /// The stone on `vertex` (`black`, `white`) or `None`.
    pub async fn stone(&self, vertex: &str) -> Option<String> {
        let v = self.js("const e = document.querySelector(`[data-vertex=\"${arguments[0]}\"]`); return e ? e.getAttribute('data-stone') : null", vec![json!(vertex)]).await;
        v.as_str().map(str::to_string)
    }

    /// Waits until `vertex` holds a `color` stone on this page.
    pub async fn wait_stone(&self, vertex: &str, color: &str) {
        let script = format!(
            "return document.querySelector('[data-vertex=\"{vertex}\"]')?.getAttribute('data-stone') === '{color}'"
        );
        self.wait_for(&format!("{color} at {vertex}"), &script).await;
    }

    /// Waits until this page shows `color` to move.
    pub async fn wait_to_move(&self, color: &str) {
        let script = format!("return !!document.querySelector('[data-to-move=\"{color}\"]')");
        self.wait_for(&format!("{color} to move"), &script).await;
    }

    /// Clicks a command control `[data-action=…]`, then its confirmation if one appears.
    pub async fn command(&self, action: &str, confirm: bool) {
        self.click(&format!("[data-action=\"{action}\"]")).await;
        if confirm {
            self.click("[data-action=\"confirm\"]").await;
        }
    }

    /// The text of `[data-result]` once it is shown.
    pub async fn result(&self) -> String {
        let v = self
            .wait_for(
                "the result",
                "const e = document.querySelector('[data-result]'); return e && e.textContent ? e.textContent : null",
            )
            .await;
        v.as_str().expect("a string").to_string()
    }
}

/// One move: `mover` (to play `color`) clicks `vertex`; both pages then show the stone.
pub async fn play(mover: &Session, other: &Session, vertex: &str, color: &str) {
    mover.wait_to_move(color).await;
    mover.tap_to_play(vertex).await;
    mover.wait_stone(vertex, color).await;
    other.wait_stone(vertex, color).await;
    // The mover's own page has the server's view (not only its optimistic stone) before the next move.
    let next = if color == "black" { "white" } else { "black" };
    mover.wait_for("the server's view after the move", &format!("return !!document.querySelector('[data-to-move=\"{next}\"]') || !document.querySelector('[data-to-move]')")).await;
}

/// `challenger` (Black) challenges the account `opponent` to a `size`×`size` game from the lobby;
/// `accepter` (signed in as `opponent`) accepts; both pages end on the game page. The game's id.
pub async fn challenge(base: &str, challenger: &Session, opponent: &str, accepter: &Session, size: u32) -> String {
    challenger.open(base, "/").await;
    challenger.fill("#challenge input[name=to]", opponent).await;
    challenger
        .js(
            "document.querySelector('#challenge select[name=size]').value = String(arguments[0]); document.querySelector('#challenge select[name=color]').value = 'black';",
            vec![json!(size)],
        )
        .await;
    challenger.click("[data-action=challenge]").await;
    challenger
        .wait_for("the challenge listed", "return !!document.querySelector('[data-challenge] [data-action=cancel]')")
        .await;
    accepter.open(base, "/").await;
    accepter.click("[data-action=accept-challenge]").await;
    let game = accepter.game_id().await;
    // The challenger's lobby hears of it (Server-Sent Events) and takes them to the game by itself.
    assert_eq!(challenger.game_id().await, game, "the challenger's page moved to the game");
    game
}
