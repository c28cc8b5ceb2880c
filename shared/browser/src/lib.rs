//! `weiqi-browser`: real Chromium for the web's tests and for `weiqi bench web`.
//!
//! [`Driver::start`] runs Debian's `chromedriver` (package `chromium-driver`) on a free loopback port;
//! [`Driver::session`] opens a headless Chromium with its own temporary profile (cookies and storage
//! are not shared between sessions, so two sessions are two people) and a chosen viewport
//! ([`Viewport::DESKTOP`], [`Viewport::PHONE`]: 390×844 with touch, as a phone reports it). Pages are
//! then driven with [`fantoccini`] over WebDriver.
//!
//! The tools are found as the testkit finds every outside program: `$WEIQI_CHROMEDRIVER` /
//! `$WEIQI_CHROMIUM`, else `PATH`. Missing, the tests skip, unless `WEIQI_REQUIRE_EXTERNAL=1` (CI),
//! when they fail with the install hint.
//!
//! # Invariants
//!
//! * Every session has a fresh profile directory, removed with the [`Session`].
//! * The driver process is killed and reaped when the [`Driver`] is dropped.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use weiqi_testkit::{ExternalError, external_tool};

pub use fantoccini;

pub mod site;
pub use site::{Server, play};

/// A window size, and whether it is a touch phone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    /// CSS pixels.
    pub width: u32,
    /// CSS pixels.
    pub height: u32,
    /// A phone: mobile emulation with touch and a device pixel ratio of 3.
    pub phone: bool,
}

impl Viewport {
    /// A laptop screen.
    pub const DESKTOP: Viewport = Viewport { width: 1280, height: 900, phone: false };
    /// A phone held upright (the size WEB.md names: 390×844).
    pub const PHONE: Viewport = Viewport { width: 390, height: 844, phone: true };
}

/// Why the browser could not be used.
#[derive(Debug, thiserror::Error)]
pub enum BrowserError {
    /// chromedriver or chromium is missing (skippable), or failed to start.
    #[error(transparent)]
    External(#[from] ExternalError),
    /// A WebDriver session could not be opened.
    #[error("opening a Chromium session: {0}")]
    Session(String),
}

/// A running chromedriver.
pub struct Driver {
    child: Child,
    port: u16,
    chromium: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> Result<u16, ExternalError> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| ExternalError::Failed { tool: "chromedriver".into(), reason: format!("no free port: {e}") })
}

fn find(tool: &str, env: &str, hint: &str) -> Result<PathBuf, ExternalError> {
    if let Some(path) = std::env::var_os(env).map(PathBuf::from).filter(|p| p.exists()) {
        return Ok(path);
    }
    external_tool(tool, &["/usr/bin", "/usr/lib/chromium"]).map_err(|e| match e {
        ExternalError::Missing { .. } => {
            ExternalError::Missing { tool: tool.into(), env: env.trim_start_matches('$').into(), hint: hint.into() }
        }
        other => other,
    })
}

impl Driver {
    /// Whether chromedriver and chromium are installed (without starting them).
    ///
    /// # Errors
    /// The one missing.
    pub fn tools() -> Result<(), ExternalError> {
        let hint = "apt-get install chromium chromium-driver";
        find("chromedriver", "WEIQI_CHROMEDRIVER", hint)?;
        find("chromium", "WEIQI_CHROMIUM", hint)?;
        Ok(())
    }

    /// Starts chromedriver on a free port and waits until it answers.
    ///
    /// # Errors
    /// chromedriver or chromium missing, or not starting within 20 s.
    pub async fn start() -> Result<Driver, BrowserError> {
        let hint = "apt-get install chromium chromium-driver";
        let driver = find("chromedriver", "WEIQI_CHROMEDRIVER", hint)?;
        let chromium = find("chromium", "WEIQI_CHROMIUM", hint)?;
        let port = free_port()?;
        let child = Command::new(&driver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ExternalError::Failed { tool: "chromedriver".into(), reason: format!("cannot spawn: {e}") })?;
        let this = Driver { child, port, chromium };
        let deadline = Instant::now() + Duration::from_secs(20);
        while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
            if Instant::now() > deadline {
                return Err(ExternalError::Failed {
                    tool: "chromedriver".into(),
                    reason: "not listening after 20 s".into(),
                }
                .into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(this)
    }

    /// A new headless Chromium with its own profile, at `viewport`, preferring `language`
    /// (`zh-CN`, `en`) as its `Accept-Language`.
    ///
    /// # Errors
    /// The session could not be opened.
    pub async fn session(&self, viewport: Viewport, language: &str) -> Result<Session, BrowserError> {
        let profile = tempfile::tempdir().map_err(|e| BrowserError::Session(e.to_string()))?;
        let mut args = vec![
            "--headless=new".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-dev-shm-usage".to_string(),
            "--no-first-run".to_string(),
            "--hide-scrollbars".to_string(),
            format!("--user-data-dir={}", profile.path().display()),
            format!("--lang={language}"),
            format!("--window-size={},{}", viewport.width, viewport.height),
        ];
        if viewport.phone {
            args.push("--touch-events=enabled".into());
        }
        let mut chrome = json!({
            "binary": self.chromium.display().to_string(),
            "args": args,
            "prefs": { "intl.accept_languages": language },
        });
        if viewport.phone {
            chrome["mobileEmulation"] = json!({
                "deviceMetrics": { "width": viewport.width, "height": viewport.height, "pixelRatio": 3.0, "touch": true, "mobile": true },
                "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36",
            });
        }
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert("goog:chromeOptions".into(), chrome);
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .map_err(|e| BrowserError::Session(e.to_string()))?;
        if !viewport.phone {
            // Headless windows ignore --window-size on some versions: set it again.
            let _ = client.set_window_size(viewport.width, viewport.height).await;
        }
        Ok(Session { client, _profile: profile })
    }
}

/// One browser: a WebDriver client and its profile directory.
pub struct Session {
    /// The WebDriver client.
    pub client: Client,
    _profile: tempfile::TempDir,
}

/// How long [`Session::wait_for`] waits.
pub const WAIT: Duration = Duration::from_secs(20);

impl Session {
    /// Runs `script` (a function body; `arguments[i]` are `args`) and returns its value.
    ///
    /// # Panics
    /// When the script throws: a test failure with the script's error.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.client.execute(script, args).await.unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Waits until `script` returns something truthy, and returns it.
    ///
    /// # Panics
    /// After [`WAIT`], with `what` and the page's `[data-error]` text, if any.
    pub async fn wait_for(&self, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Ok(v) = self.client.execute(script, vec![]).await
                && !matches!(&v, Value::Null | Value::Bool(false))
                && v != json!("")
                && v != json!(0)
            {
                return v;
            }
            if Instant::now() > deadline {
                let error = self
                    .client
                    .execute("const e=document.querySelector('[data-error]');return e?e.textContent:null", vec![])
                    .await
                    .ok();
                let url = self.client.current_url().await.map(|u| u.to_string()).unwrap_or_default();
                // A module that threw while loading rejects its import again with the same error.
                let scripts = self
                    .client
                    .execute_async(
                        "const done = arguments[0]; Promise.all([...document.querySelectorAll('script[type=module]')].map(s => import(s.src).then(() => null, e => s.src + ': ' + e + ' ' + (e.stack || '')))).then(r => done(r.filter(Boolean)));",
                        vec![],
                    )
                    .await
                    .ok();
                let text = self
                    .client
                    .execute("return document.body ? document.body.innerText.slice(0, 1500) : ''", vec![])
                    .await
                    .ok();
                panic!(
                    "timed out waiting for {what} on {url} (error shown: {error:?}; script errors: {scripts:?}); the page \
                     reads: {text:?}"
                );
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// Clicks the element `css` matches (waiting for it to appear).
    ///
    /// # Panics
    /// When it never appears or cannot be clicked.
    pub async fn click(&self, css: &str) {
        let element = tokio::time::timeout(WAIT, self.client.wait().forever().for_element(Locator::Css(css)))
            .await
            .unwrap_or_else(|_| panic!("no element {css}"))
            .unwrap_or_else(|e| panic!("no element {css}: {e}"));
        element.click().await.unwrap_or_else(|e| panic!("clicking {css}: {e}"));
    }

    /// Types `text` into the field `css` matches, replacing what is there.
    ///
    /// # Panics
    /// When the field is missing.
    pub async fn fill(&self, css: &str, text: &str) {
        let element = self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no field {css}: {e}"));
        element.clear().await.unwrap_or_else(|e| panic!("clearing {css}: {e}"));
        element.send_keys(text).await.unwrap_or_else(|e| panic!("typing into {css}: {e}"));
    }

    /// Chooses the file at `path` in the file input `css` matches (as a person picking it would).
    ///
    /// # Panics
    /// When the input is missing or refuses the file.
    pub async fn upload(&self, css: &str, path: &Path) {
        let element = self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no file input {css}: {e}"));
        let path = path.to_str().expect("a UTF-8 path");
        element.send_keys(path).await.unwrap_or_else(|e| panic!("choosing {path} in {css}: {e}"));
    }

    /// What the browser downloads from `href` (relative to the page), as text, with the page's cookies:
    /// `(HTTP status, content type, body)`.
    ///
    /// # Panics
    /// When the request fails outright.
    pub async fn download(&self, href: &str) -> (u16, String, String) {
        let v = self
            .client
            .execute_async(
                "const done = arguments[1]; fetch(arguments[0], {credentials: 'same-origin'}).then(async r => done([r.status, r.headers.get('content-type') || '', await r.text()]), e => done([0, '', String(e)]));",
                vec![json!(href)],
            )
            .await
            .unwrap_or_else(|e| panic!("downloading {href}: {e}"));
        let status = v[0].as_u64().unwrap_or(0) as u16;
        assert_ne!(status, 0, "downloading {href}: {}", v[2]);
        (status, v[1].as_str().unwrap_or_default().to_string(), v[2].as_str().unwrap_or_default().to_string())
    }

    /// The text of the first element `css` matches, or `None`.
    pub async fn text(&self, css: &str) -> Option<String> {
        let v = self
            .client
            .execute("const e=document.querySelector(arguments[0]);return e?e.textContent:null", vec![json!(css)])
            .await
            .ok()?;
        v.as_str().map(str::to_string)
    }

    /// Saves a PNG screenshot of the window to `path` (its folder is created).
    ///
    /// # Panics
    /// When the screenshot cannot be taken or written.
    pub async fn screenshot(&self, path: &Path) {
        let png = self.client.screenshot().await.unwrap_or_else(|e| panic!("screenshot: {e}"));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(path, png).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
    }

    /// The value of the cookie `name` this browser holds for the open page's site (HttpOnly ones too,
    /// which a page's script cannot read), or `None`.
    pub async fn cookie(&self, name: &str) -> Option<String> {
        self.client.get_named_cookie(name).await.ok().map(|c| c.value().to_string())
    }

    /// Ends the session (closes the browser).
    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}
