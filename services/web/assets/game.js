// The game page: draws the server's views (Server-Sent Events from /games/{id}/live) and sends the
// viewer's commands to /games/{id}/act with the CSRF token. A stone is shown at once and taken back,
// with the reason, if the server refuses it. The clocks count down locally between readings.
import { Board, chainOf, parseVertex, rankText, territory, vertexName } from "./board.js";

const config = JSON.parse(document.getElementById("game-config").textContent);
const S = config.strings, LANG = config.lang, GAME = config.game;
const csrf = document.querySelector('meta[name="csrf-token"]').content;
const $ = (sel) => document.querySelector(sel);
const fmt = (key, args = {}) => String(S[key] || key).replace(/\{ ?\$?(\w+) ?\}/g, (_, k) => args[k] ?? "");

let view = config.view, board = null, receivedAt = Date.now(), pending = null, confirming = null;
let sealMode = false, muted = localStorage.getItem("weiqi-muted") === "1", lastCall = "";
let numbersOn = localStorage.getItem("weiqi-numbers") === "1", pendingTimer = 0, warnedAt = -1, heardMove = null;
// On a touch screen a tap shows the stone where it would go and a second tap (or the confirm button)
// plays it: 19×19 points are 18 px apart on a phone. A setting, on by default where the pointer is coarse.
const touch = window.matchMedia && matchMedia("(pointer: coarse)").matches;
let confirmTaps = (localStorage.getItem("weiqi-confirm-taps") ?? (touch ? "1" : "0")) === "1", candidate = null;
let lastMarks = null, marksChanged = false; // the count's marks as last drawn
// Who the viewer is: the stream's first event (views are the same for every viewer); their color and
// whether they sit at this game are read from each view.
let seat = { referee: view.referee, chief: view.chief, viewer: view.viewer };
function seated(v) {
  const n = seat.viewer, id = (p) => p && p.id;
  return Object.assign(v, seat, {
    me: n ? (id(v.black) === n ? "black" : id(v.white) === n ? "white" : null) : null,
    seated: !!n && (v.seats || []).includes(n),
  });
}

function rid() { return (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now()); }

function showError(text) {
  const e = $("#error");
  if (text) { e.textContent = text; e.setAttribute("data-error", "true"); } else { e.textContent = ""; e.removeAttribute("data-error"); }
}

async function act(action, body = {}, requestId = rid()) {
  for (let attempt = 0; attempt < 3; attempt++) {
    let res;
    try {
      // A request that hears nothing for 10 s (a stalled network) is sent again with the same id: the
      // server does what one id asks once.
      res = await fetch(`/games/${encodeURIComponent(GAME)}/act?lang=${LANG}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": csrf },
        body: JSON.stringify({ request_id: requestId, action, ...body }),
        signal: AbortSignal.timeout ? AbortSignal.timeout(10000) : undefined,
      });
    } catch (_) { await new Promise((r) => setTimeout(r, 400 * (attempt + 1))); continue; }
    let answer = {};
    try { answer = await res.json(); } catch (_) { answer = { ok: false, message: S["refusal-unavailable"] }; }
    if (res.status === 503 && attempt < 2) { await new Promise((r) => setTimeout(r, 400 * (attempt + 1))); continue; }
    return answer;
  }
  return { ok: false, code: "unavailable", message: S["refusal-unavailable"] };
}

function rows() { return view.rows || []; }
function deadSet() {
  const n = view.size, set = new Set(), marks = view.scoring ? view.scoring.marks : (view.dead || []);
  for (const m of marks) { const p = parseVertex(m, n); if (p) for (const [x, y] of chainOf(rows(), p[0], p[1])) set.add(y * n + x); }
  return set;
}

function myTurn() { return view.phase === "playing" && view.me && view.to_move === view.me; }

function draw() {
  document.body.dataset.phase = view.phase; // (the chat opens the spectators' room to the players at the end)
  for (const el of document.querySelectorAll(".review-link, .rematch-form")) el.hidden = view.phase !== "ended";
  const n = view.size;
  if (!n) return;
  if (!board || board.n !== n) {
    board = new Board($("#board"), n, { interactive: true, label: fmt("board-label", { n }) });
    $("#board").addEventListener("click", onBoardClick);
    $("#board").addEventListener("keydown", onBoardKey);
  }
  const dead = (view.phase === "scoring" || view.phase === "ended") ? deadSet() : new Set();
  const owner = view.phase === "scoring" || (view.phase === "ended" && view.result && /\+\d/.test(view.result.sgf || "")) ? territory(rows(), dead) : null;
  let last = null;
  if (view.last_move && view.last_move.move !== "pass") last = parseVertex(view.last_move.move, n);
  board.draw(rows(), { dead, owner, last, numbers: numbersOn ? stoneNumbers() : null, words: { black: S.black, white: S.white } });
  board.ghostColor = myTurn() ? view.me : null;
  if (pending) { pending = null; clearTimeout(pendingTimer); }
  if (candidate) { const p = parseVertex(candidate, n); if (!myTurn() || !p || board.cell(p[0], p[1]).hasAttribute("data-stone")) candidate = null; else choose(p[0], p[1]); }
  drawPanel();
}

// The number of the stone standing on each point (the latest move there), for the move numbers.
function stoneNumbers() {
  const n = view.size, out = new Array(n * n).fill(null);
  (view.all_moves || []).forEach(([_, m], i) => { const p = m !== "pass" && parseVertex(m, n); if (p) out[p[1] * n + p[0]] = i + 1; });
  return out;
}

function sideText(side) {
  const p = view[side] || {};
  const box = document.querySelector(`.side[data-side="${side}"]`);
  box.querySelector(".name").textContent = p.name || p.id || S[side];
  const rank = rankText(p.rank, { dan: S["rank-dan"], kyu: S["rank-kyu"], pro: S["rank-pro"] });
  box.querySelector(".rank").textContent = rank ? " " + rank : "";
  box.querySelector(".captures").textContent = `${S.captures} ${p.prisoners || 0}`;
  box.querySelector(".warnings").textContent = p.warnings ? `${S.warnings} ${p.warnings}` : "";
  box.classList.toggle("turn", view.phase === "playing" && view.to_move === side);
  box.classList.toggle("me", view.me === side);
}

function button(action, text, onClick, extra = "") {
  const b = document.createElement("button");
  b.type = "button"; b.dataset.action = action; b.textContent = text; if (extra) b.className = extra;
  b.addEventListener("click", onClick);
  return b;
}

function ask(kind, question, run) {
  confirming = { kind, question, run }; drawControls();
  const c = document.querySelector('[data-action="confirm"]'); if (c) c.focus();
}

// The controls are rebuilt only when they change: views arrive every second while a clock runs, and
// a control replaced under the pointer (or the keyboard focus) would lose the click.
let controlsKey = "";
function drawControls() {
  const wanted = [];
  if (confirming) {
    wanted.push(["question", confirming.question], ["confirm", S.confirm, async () => { const run = confirming.run; confirming = null; drawControls(); await run(); }, "primary"],
      ["cancel", S.cancel, () => { confirming = null; sealMode = false; drawControls(); }]);
  } else if (candidate && myTurn()) {
    wanted.push(["confirm", fmt("play-vertex", { vertex: candidate }), () => { const p = parseVertex(candidate, view.size); if (p) playAt(p[0], p[1]); }, "primary"],
      ["cancel", S.cancel, () => { choose(null); draw(); }]);
  } else if (view.me || view.seated) {
    if (view.phase === "nigiri" && view.nigiri && view.nigiri.guesser === view.viewer) {
      wanted.push(["guess-even", S["guess-even"], () => send("guess", { even: true })], ["guess-odd", S["guess-odd"], () => send("guess", { even: false })]);
    }
    if (view.phase === "ready") wanted.push(["start", S["start-clock"], () => send("start")]);
    if (view.phase === "playing" && view.me) {
      wanted.push(["pass", S.pass, () => ask("pass", S["confirm-pass"], () => send("pass", { move_number: view.move_number + 1 }))]);
      wanted.push(["resign", S.resign, () => ask("resign", S["confirm-resign"], () => send("resign")), "danger"]);
      // Only a game of an event is adjourned (its referee opens the sealed move; Art. 14).
      if (myTurn() && view.event) wanted.push(["seal", S["seal"], () => { sealMode = true; status(S["seal-help"]); }]);
    }
    if (view.phase === "playing" && view.me && absence && absence.claimable) {
      wanted.push(["claim-absence", S["claim-absence"], () => ask("claim-absence", S["confirm-claim-absence"], () => send("claim-absence")), "primary"]);
    }
    if (view.phase === "scoring" && view.me) {
      wanted.push(["accept", S["accept-count"], () => send("accept"), "primary"], ["dispute", S["dispute-count"], () => send("dispute")]);
    }
  }
  const key = JSON.stringify(wanted.map((w) => [w[0], w[1]]));
  if (key === controlsKey) return;
  controlsKey = key;
  const box = $("#controls");
  box.replaceChildren(...wanted.map(([action, text, run, extra]) => {
    if (action === "question") { const q = document.createElement("p"); q.textContent = text; q.className = "question"; return q; }
    return button(action, text, run, extra);
  }));
}

function status(text) { $("#status").textContent = text; }

function drawPanel() {
  sideText("black"); sideText("white");
  const st = $("#status");
  if (view.phase === "playing" && view.to_move) {
    st.setAttribute("data-to-move", view.to_move);
    st.textContent = myTurn() ? S["your-turn"] : S[`to-move-${view.to_move}`];
  } else {
    st.removeAttribute("data-to-move");
    let text = S[`phase-${view.phase}`] || view.phase;
    if (view.phase === "nigiri" && view.nigiri) text += " · " + (view.nigiri.guesser === view.viewer ? S["nigiri-you-guess"] : S["nigiri-wait"]);
    if (view.sealed) text += " · " + S["sealed-note"];
    if (view.phase === "paused") { const why = lastNote("paused"); if (why) text += " · " + why; }
    st.textContent = text;
  }
  const count = $("#count"); count.replaceChildren();
  if (view.phase === "scoring" && view.scoring) {
    const sc = view.scoring, p = document.createElement("p");
    p.textContent = view.me ? S["scoring-help"] : S["phase-scoring"];
    count.append(p);
    if (sc.count) {
      const c = document.createElement("p"); c.className = "count-line";
      c.textContent = fmt("count-line", { sgf: sc.count.sgf, stones: sc.count.stones });
      count.append(c);
    }
    // A change of marks withdraws every acceptance: said to both players, highlighted.
    const marks = (sc.marks || []).join(" ");
    // (a player's marks only: the estimator's suggestion opening the count is no change)
    if (lastMarks !== null && marks !== lastMarks && sc.by) { marksChanged = true; status(S["scoring-marks-changed"]); }
    if (sc.accepted.black || sc.accepted.white) marksChanged = false;
    lastMarks = marks;
    const a = document.createElement("p"); a.className = marksChanged ? "small changed" : "small";
    a.textContent = [sc.accepted.black ? S["scoring-accepted-black"] : "", sc.accepted.white ? S["scoring-accepted-white"] : ""].filter(Boolean).join(" · ") || (marksChanged ? S["scoring-marks-changed"] : S["scoring-waiting"]);
    count.append(a);
  } else lastMarks = null;
  const rb = $("#result"); rb.replaceChildren();
  if (view.result) {
    const label = document.createElement("span"); label.textContent = S["result-label"] + " ";
    const r = document.createElement("strong"); r.setAttribute("data-result", ""); r.textContent = view.result.sgf || "";
    const w = document.createElement("p"); w.className = "words"; w.textContent = view.result.words || "";
    rb.append(label, r, w);
  }
  // The move list: the latest move is always in sight (the list scrolls to its end as it grows).
  const list = $("#moves"); const moves = view.all_moves || [];
  const movesKey = moves.length + ":" + (moves.length ? moves[moves.length - 1].join("") : "");
  if (list.dataset.key !== movesKey) {
    list.dataset.key = movesKey;
    list.replaceChildren(...moves.map(([c, m], i) => {
      const li = document.createElement("li"); li.textContent = `${i + 1}. ${S[c]} ${m === "pass" ? S.pass : m}`;
      if (i === moves.length - 1) li.setAttribute("aria-current", "step");
      return li;
    }));
    list.scrollTop = list.scrollHeight;
  }
  // The rulings and turns of play both players are told about (a warning's reason, a void, a dispute).
  const notes = view.notes || [], box = $("#notes");
  box.hidden = !notes.length;
  if (box.dataset.count !== String(notes.length)) {
    box.dataset.count = String(notes.length);
    box.querySelector("ol").replaceChildren(...notes.map((n) => {
      const li = document.createElement("li"); li.dataset.note = n.kind; li.textContent = n.text; return li;
    }));
  }
  $("#vertex-entry").hidden = !(view.me && (view.phase === "playing" || view.phase === "scoring"));
  drawControls(); tickClocks(); announce();
}

function lastNote(kind) {
  const list = (view.notes || []).filter((n) => n.kind === kind);
  return list.length ? list[list.length - 1].text : "";
}

function clockText(ms) {
  const t = Math.max(0, Math.ceil(ms / 1000)), h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, s = String(t % 60).padStart(2, "0");
  return (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + s;
}

function tickClocks() {
  for (const side of ["black", "white"]) {
    const el = document.querySelector(`[data-clock="${side}"]`), per = el.nextElementSibling;
    const c = view.clock && view.clock[side];
    if (!c) { el.textContent = "—"; per.textContent = ""; continue; }
    // While the connection is not live, the clocks stand still where they were when it was lost (the
    // server's next view sets them right).
    const running = !view.clocks_frozen && view.phase === "playing" && view.to_move === side;
    let elapsed = running ? Math.max(0, (lostAt || Date.now()) - receivedAt) : 0, main = c.main_ms, period = c.period_left_ms;
    if (main > 0) { const used = Math.min(main, elapsed); main -= used; elapsed -= used; if (main > 0) elapsed = 0; }
    if (main <= 0 && elapsed > 0) period = Math.max(0, period - elapsed);
    if (main > 0) { el.textContent = clockText(main); per.textContent = c.periods_left ? fmt("periods-left", { n: c.periods_left }) : ""; }
    else if (period <= 0) { el.textContent = clockText(0); per.textContent = S["time-up"]; } // flagged (or about to be)
    else { el.textContent = clockText(period); per.textContent = `${S["byo-yomi"]} ` + (c.moves_left ? fmt("moves-left", { n: c.moves_left }) : fmt("periods-left", { n: c.periods_left })); }
    // A warning, once per move, as the player's own main time drops under a minute.
    if (side === view.me && running && !lostAt && main > 0 && main <= 60000 && c.main_ms > 60000 && warnedAt !== view.move_number) {
      warnedAt = view.move_number; status(S["main-time-ending"]); beep(880, 0.25);
    }
    el.setAttribute("aria-label", `${S[side]} ${el.textContent} ${per.textContent}`);
  }
}

// The call due now: the view's latest, or the last of its calls to come whose time has passed (the
// server sends nothing while a player thinks; the page says each call on time by itself).
function currentCall() {
  if (view.phase !== "playing") return null;
  const elapsed = Date.now() - receivedAt;
  let call = view.call;
  for (const c of view.calls || []) { if (c.in_ms <= elapsed) call = c; else break; }
  return call;
}

function announce() {
  for (const side of ["black", "white"]) document.querySelector(`.side[data-side="${side}"] .call`).textContent = "";
  const call = currentCall();
  if (!call) { lastCall = ""; return; }
  document.querySelector(`.side[data-side="${call.side}"] .call`).textContent = call.text;
  const key = `${view.move_number}:${call.side}:${call.text}`;
  if (key === lastCall) return;
  lastCall = key;
  if (!muted && window.speechSynthesis) {
    const u = new SpeechSynthesisUtterance(call.text); u.lang = LANG; speechSynthesis.cancel(); speechSynthesis.speak(u);
  }
}

async function send(action, body = {}) {
  showError("");
  const answer = await act(action, body);
  if (!answer.ok) { showError(answer.message || answer.code); draw(); }
  return answer;
}

async function playAt(x, y, tapped = false) {
  const n = view.size, vertex = vertexName(x, y, n);
  if (sealMode) {
    ask("seal", fmt("confirm-seal", { vertex }), async () => { sealMode = false; await send("seal", { vertex }); });
    return;
  }
  if (view.phase === "scoring" && view.me) { toggleDead(x, y); return; }
  if (view.me && (view.phase === "paused" || view.phase === "adjourned")) {
    const why = lastNote("paused");
    showError(S["paused-tap"] + (why ? " " + why : "")); return;
  }
  if (!myTurn() || pending) return;
  const cell = board.cell(x, y);
  if (cell.hasAttribute("data-stone")) { showError(S["vertex-" + cell.getAttribute("data-stone")]); return; }
  if (tapped && confirmTaps && candidate !== vertex) { choose(x, y); return; }
  choose(null);
  showError("");
  pending = vertex; board.place(x, y, view.me); board.ghostColor = null;
  // A move the server has not confirmed soon says that it is pending (a stalled network).
  clearTimeout(pendingTimer);
  pendingTimer = setTimeout(() => { if (pending === vertex) status(lostAt ? offline() : fmt("move-pending", { vertex })); }, 700);
  const answer = await act("play", { vertex, move_number: view.move_number + 1 });
  if (!answer.ok) { pending = null; clearTimeout(pendingTimer); showError(answer.message || answer.code); draw(); }
}

// The stone a first tap proposes (null: none): a ghost on the point, the point marked
// [data-candidate], and a confirm control beside the others.
function choose(x, y) {
  if (candidate && board) { const p = parseVertex(candidate, board.n); if (p) board.cell(p[0], p[1]).removeAttribute("data-candidate"); }
  candidate = x === null ? null : vertexName(x, y, view.size);
  if (candidate) {
    board.cell(x, y).setAttribute("data-candidate", "true");
    board.ghost.setAttribute("cx", board.at(x)); board.ghost.setAttribute("cy", board.at(y));
    board.ghost.setAttribute("class", "ghost candidate " + view.me); board.ghost.setAttribute("visibility", "visible");
    status(fmt("tap-again", { vertex: candidate }));
  }
  drawControls();
}

function toggleDead(x, y) {
  const n = view.size, r = rows();
  if (r[y][x] !== "X" && r[y][x] !== "O") return;
  const chain = new Set(chainOf(r, x, y).map(([a, b]) => b * n + a));
  const marks = (view.scoring.marks || []).filter((m) => { const p = parseVertex(m, n); return p && !chain.has(p[1] * n + p[0]); });
  const wasDead = marks.length !== (view.scoring.marks || []).length;
  if (!wasDead) marks.push(vertexName(x, y, n));
  send("mark", { vertices: marks });
}

function onBoardClick(e) {
  const g = e.target.closest && e.target.closest("[data-vertex]");
  if (!g || !board) return;
  const p = parseVertex(g.getAttribute("data-vertex"), board.n);
  if (p) playAt(p[0], p[1], true);
}

function onBoardKey(e) {
  if (!board) return;
  const n = board.n, [x, y] = board.cursor || [Math.floor(n / 2), Math.floor(n / 2)];
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (moves[e.key]) {
    e.preventDefault();
    const nx = Math.min(n - 1, Math.max(0, x + moves[e.key][0])), ny = Math.min(n - 1, Math.max(0, y + moves[e.key][1]));
    board.setCursor(nx, ny);
    const c = board.cell(nx, ny), stone = c.getAttribute("data-stone");
    status(`${vertexName(nx, ny, n)} · ${S[stone ? "vertex-" + stone : "vertex-empty"]}${c.hasAttribute("data-dead") ? " · " + S["vertex-dead"] : ""}`);
  } else if ((e.key === "Enter" || e.key === " ") && board.cursor) { e.preventDefault(); playAt(x, y); }
}

$("#vertex-entry").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("#vertex-input"), p = board && parseVertex(input.value, board.n);
  if (!p) { showError(fmt("board-label", { n: view.size })); return; }
  input.value = ""; playAt(p[0], p[1]);
});

// Who is away: each player's page (and the referee's) asks every three seconds while the game is
// played; a player away is said on their side, and a casual game's opponent away long enough may be
// claimed against (the server measures the absence, not this page).
let absence = null;
async function presence() {
  if (view.phase !== "playing" || !(view.seated || view.referee)) { absence = null; return; }
  let p;
  try { const r = await fetch(`/games/${encodeURIComponent(GAME)}/presence`); if (!r.ok) return; p = await r.json(); } catch (_) { return; }
  const opponent = view.me === "black" ? "white" : view.me === "white" ? "black" : null;
  for (const side of ["black", "white"]) {
    const el = document.querySelector(`.side[data-side="${side}"] .presence`), ms = p[side];
    // A page that only just opened is not yet "away": a few seconds' grace.
    const away = ms !== null && ms !== undefined && ms > 5000 && side !== view.me;
    el.textContent = away ? fmt("away", { time: clockText(ms) }) : "";
    el.toggleAttribute("data-away", away);
  }
  const ms = opponent ? p[opponent] : null;
  absence = { claimable: !!opponent && p.claim_after_ms !== null && ms !== null && ms >= p.claim_after_ms };
  if (opponent && p.claim_after_ms !== null && ms !== null && ms > 5000 && ms < p.claim_after_ms) {
    document.querySelector(`.side[data-side="${opponent}"] .presence`).textContent += " · " + fmt("claim-in", { time: clockText(p.claim_after_ms - ms) });
  }
  drawControls();
}
setInterval(presence, 3000);

// A short sound (WebAudio: nothing to download), unless muted.
let audio = null;
function beep(freq = 520, seconds = 0.06) {
  if (muted) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = freq; g.gain.setValueAtTime(0.15, audio.currentTime); g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + seconds);
    o.connect(g).connect(audio.destination); o.start(); o.stop(audio.currentTime + seconds);
  } catch (_) { /* no audio here */ }
}

// What a new view tells: each new move is said to screen readers (the opponent's, or every move for a
// spectator) with a click of a stone; the player's turn, while the tab is hidden, in its title and a
// notification (if they asked for them).
const title = document.title;
function told() {
  const key = view.move_number + ":" + (view.last_move ? view.last_move.move : "");
  if (heardMove === null) { heardMove = key; return; }
  if (key === heardMove || !view.last_move) { heardMove = key; return; }
  heardMove = key;
  const lm = view.last_move;
  if (lm.color !== view.me) {
    $("#announce").textContent = fmt("played", { side: S[lm.color], vertex: lm.move === "pass" ? S.pass : lm.move });
  }
  if (lm.move !== "pass") beep();
  if (myTurn() && document.hidden) {
    document.title = "● " + S["your-turn"] + " – " + title;
    if (window.Notification && Notification.permission === "granted" && localStorage.getItem("weiqi-notify") === "1") {
      try { new Notification(fmt("notify-title", { name: title }), { body: fmt("played", { side: S[lm.color], vertex: lm.move }), tag: GAME }); } catch (_) { /* not here */ }
    }
  }
}
document.addEventListener("visibilitychange", () => { if (!document.hidden) document.title = title; });
const notify = document.querySelector('[data-action="notify"]');
function drawNotify() {
  const on = localStorage.getItem("weiqi-notify") === "1" && window.Notification && Notification.permission === "granted";
  notify.textContent = on ? S["notify-off"] : S["notify-on"]; notify.setAttribute("aria-pressed", String(!!on));
  notify.parentElement.hidden = !window.Notification || !(view.me || view.seated) || view.phase === "ended";
}
notify.addEventListener("click", async () => {
  const on = localStorage.getItem("weiqi-notify") === "1";
  if (on) localStorage.setItem("weiqi-notify", "0");
  else if (window.Notification) {
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    localStorage.setItem("weiqi-notify", answer === "granted" ? "1" : "0");
  }
  drawNotify();
});
drawNotify();
const taps = document.querySelector('[data-action="confirm-taps"]');
function drawTaps() { taps.setAttribute("aria-pressed", String(confirmTaps)); }
taps.addEventListener("click", () => { confirmTaps = !confirmTaps; localStorage.setItem("weiqi-confirm-taps", confirmTaps ? "1" : "0"); choose(null); drawTaps(); });
drawTaps();
const numbers = document.querySelector('[data-action="numbers"]');
function drawNumbers() { numbers.setAttribute("aria-pressed", String(numbersOn)); }
numbers.addEventListener("click", () => { numbersOn = !numbersOn; localStorage.setItem("weiqi-numbers", numbersOn ? "1" : "0"); drawNumbers(); draw(); });
drawNumbers();

const mute = document.querySelector('[data-action="mute"]');
function drawMute() { mute.textContent = muted ? S["sound-off"] : S["sound-on"]; mute.setAttribute("aria-pressed", String(muted)); }
mute.addEventListener("click", () => { muted = !muted; localStorage.setItem("weiqi-muted", muted ? "1" : "0"); if (muted && window.speechSynthesis) speechSynthesis.cancel(); drawMute(); });
drawMute();

// The clock correction starts from the clocks as they read now: filled in when the referee turns to
// the form (and not again while they edit it).
const correction = document.querySelector('form[data-referee="correct-clock"]');
if (correction) correction.addEventListener("focusin", (e) => {
  if (e.relatedTarget && correction.contains(e.relatedTarget)) return; // moving between its fields
  for (const side of ["black", "white"]) {
    const c = view.clock && view.clock[side];
    if (!c) continue;
    const running = !view.clocks_frozen && view.phase === "playing" && view.to_move === side, elapsed = running ? Date.now() - receivedAt : 0;
    const main = Math.max(0, c.main_ms - elapsed);
    correction.querySelector(`[data-clock-main="${side}"]`).value = String(Math.floor(main / 1000));
    correction.querySelector(`[data-clock-periods="${side}"]`).value = String(c.periods_left || 0);
  }
});

// The referee panel: each form is one command.
for (const form of document.querySelectorAll("form[data-referee]")) {
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(form), kind = form.dataset.referee;
    if (kind === "warn") send("warn", { color: f.get("color"), reason: f.get("reason") });
    else if (kind === "pause") send("pause", { reason: f.get("reason") || "" });
    else if (kind === "void") send("void", { reason: f.get("reason"), ground: f.get("ground") });
    else if (kind === "lateness") send("lateness", { color: f.get("color"), minutes: Number(f.get("minutes")) });
    else if (kind === "adjudicate") send("adjudicate", { outcome: f.get("outcome"), note: f.get("note") });
    else if (kind === "correct-clock") {
      const side = (s) => f.get(`${s}_on`) ? { main_s: Number(f.get(`${s}_main`)), periods_left: Number(f.get(`${s}_periods`)) } : null;
      send("correct-clock", { black: side("black"), white: side("white"), reason: f.get("reason") });
    }
  });
  for (const b of form.querySelectorAll('button[type="button"]')) b.addEventListener("click", () => send(b.dataset.action));
}

// Live: the viewer's seat, then one view per event; EventSource reconnects by itself and the server
// starts with the latest view.
let lostAt = 0;
// What the page says while it cannot hear the server (and the move it is still sending, if any).
const offline = () => S.reconnecting + (pending ? " " + fmt("move-pending", { vertex: pending }) : "");
function connect() {
  const source = new EventSource(`/games/${encodeURIComponent(GAME)}/live?lang=${LANG}`);
  current = source;
  const back = () => {
    heard = Date.now(); connection("live");
    if (lostAt) { lostAt = 0; document.body.classList.remove("offline"); status(S.reconnected); }
  };
  source.addEventListener("seat", (e) => { seat = JSON.parse(e.data); seated(view); back(); });
  source.addEventListener("beat", back);
  source.addEventListener("view", (e) => {
    view = seated(JSON.parse(e.data)); receivedAt = Date.now(); back();
    draw(); told(); drawNotify();
  });
  source.addEventListener("error", () => {
    if (!lostAt) lostAt = Date.now();
    connection("lost"); document.body.classList.add("offline"); status(offline());
  });
}
// The connection's state on the board's container (WEB.md: [data-connection="live"|"stale"|"lost"]).
// A player's stream beats every second: two and a half seconds of silence (checked four times a second,
// so stale within three) make the page stale (a phone's network gone quiet): the clocks stop, the page
// says so and opens the stream anew.
// A spectator's stream beats every 15 s: three beats missed.
let heard = Date.now(), current = null;
const connection = (state) => { const w = document.querySelector(".board-wrap"); if (w) w.dataset.connection = state; };
draw();
connect();
// A page left (or kept in the back-forward cache) closes its streams: a browser holds few connections
// to one host, and a stream left open would starve the next page's requests. A page brought back
// from that cache loads afresh.
addEventListener("pagehide", () => { if (current) current.close(); current = null; });
addEventListener("pageshow", (e) => { if (e.persisted) location.reload(); });
setInterval(() => { tickClocks(); announce(); }, 250);
setInterval(() => {
  const quiet = view.seated ? 2500 : 45000;
  if (Date.now() - heard > quiet && current) {
    current.close(); heard = Date.now(); lostAt = lostAt || Date.now();
    connection("stale"); document.body.classList.add("offline"); status(offline()); tickClocks(); connect();
  }
}, 250);
