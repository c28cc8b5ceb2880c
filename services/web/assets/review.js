// The review of a finished game: every position from /games/{id}/review/data, stepped through with
// the buttons, the slider, the arrow keys or a click on the graph; a click on the board starts a
// variation on a private board (captures played here, nothing sent); the estimator's territory at the
// shown move from …/review/estimate.
import { Board, chainOf, parseVertex, vertexName } from "./board.js";

const config = JSON.parse(document.getElementById("review-config").textContent);
const S = config.strings, GAME = config.game;
const $ = (sel) => document.querySelector(sel);
const fmt = (key, args = {}) => String(S[key] || key).replace(/\{ ?\$?(\w+) ?\}/g, (_, k) => args[k] ?? "");
let data = null, at = 0, board = null, variation = [], rows = null, owner = null, territory = false;

function copy(r) { return r.map((l) => (typeof l === "string" ? l.split("") : [...l])); }

// Plays `color` at (x, y) on the grid `g` (arrays of "X", "O", "."): captures the opponent's chains
// left without liberties; refuses an occupied point or a suicide.
function playOn(g, x, y, color) {
  if (g[y][x] !== ".") return false;
  const me = color === "black" ? "X" : "O", them = me === "X" ? "O" : "X", n = g.length;
  g[y][x] = me;
  const asRows = () => g.map((l) => l.join(""));
  const libertyless = (cx, cy) => chainOf(asRows(), cx, cy).every(([a, b]) =>
    [[1, 0], [-1, 0], [0, 1], [0, -1]].every(([dx, dy]) => { const p = a + dx, q = b + dy; return p < 0 || q < 0 || p >= n || q >= n || g[q][p] !== "."; }));
  for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    const p = x + dx, q = y + dy;
    if (p < 0 || q < 0 || p >= n || q >= n || g[q][p] !== them) continue;
    if (libertyless(p, q)) for (const [a, b] of chainOf(asRows(), p, q)) g[b][a] = ".";
  }
  if (libertyless(x, y)) { g[y][x] = "."; return false; }
  return true;
}

function nextColor() {
  if (variation.length) return variation[variation.length - 1].color === "black" ? "white" : "black";
  const last = data.moves[at - 1];
  return last && last[0] === "black" ? "white" : "black";
}

function draw() {
  const n = data.size;
  if (!board) {
    board = new Board($("#board"), n, { interactive: true, label: fmt("board-label", { n }) });
    $("#board").addEventListener("click", onClick);
  }
  rows = copy(data.positions[at]);
  for (const v of variation) playOn(rows, v.x, v.y, v.color);
  const shown = rows.map((l) => l.join(""));
  let last = null;
  if (variation.length) last = [variation[variation.length - 1].x, variation[variation.length - 1].y];
  else if (at > 0 && data.moves[at - 1][1] !== "pass") last = parseVertex(data.moves[at - 1][1], n);
  const own = territory && owner && !variation.length ? owner.map((o) => (o > 0 ? "X" : o < 0 ? "O" : null)) : null;
  const numbers = variation.length ? (() => { const out = new Array(n * n).fill(null); variation.forEach((v, i) => { out[v.y * n + v.x] = i + 1; }); return out; })() : null;
  board.draw(shown, { last, owner: own, numbers, words: { black: S.black, white: S.white } });
  board.ghostColor = nextColor();
  const move = data.moves[at - 1];
  $("#position").textContent = fmt("review-move", { n: at, total: data.moves.length }) + (move ? ` · ${S[move[0]]} ${move[1] === "pass" ? S.pass : move[1]}` : "") + " · " + leadText(data.leads[at]);
  $("#scrub").value = String(at);
  const v = $("#variation");
  v.dataset.variation = String(variation.length);
  v.textContent = variation.length ? fmt("review-variation", { n: variation.length, moves: variation.map((m) => vertexName(m.x, m.y, n)).join(" ") }) : "";
  $('[data-action="review-main"]').hidden = !variation.length;
  graphMark();
  if (SHARED && SHARED.driver) publish();
}

// A shared board (/reviews/{board}): the driver's page sends what it shows after each change (at most
// five times a second); a follower's page shows every newer state the board's stream brings, until
// the follower steps away on their own (and again when they follow again).
const SHARED = config.shared || null;
let following = true, latest = SHARED ? SHARED.board : null, sendTimer = null, sentKey = "";
function publish() {
  if (sendTimer) return;
  sendTimer = setTimeout(async () => {
    sendTimer = null;
    const body = { at, variation: variation.map((v) => vertexName(v.x, v.y, data.size)), territory };
    const key = JSON.stringify(body);
    if (key === sentKey) return;
    sentKey = key;
    const csrf = document.querySelector("meta[name=csrf-token]");
    await fetch(`/reviews/${encodeURIComponent(SHARED.id)}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": csrf ? csrf.content : "" },
      body: key,
    }).catch(() => { sentKey = ""; });
  }, 200);
}
function apply(b) {
  if (!data || !b) return;
  at = Math.max(0, Math.min(data.positions.length - 1, b.at)); variation = []; owner = null;
  rows = copy(data.positions[at]);
  for (const name of b.variation || []) {
    const p = parseVertex(name, data.size);
    if (!p) break;
    const color = nextColor(), trial = copy(rows);
    for (const v of variation) playOn(trial, v.x, v.y, v.color);
    if (!playOn(trial, p[0], p[1], color)) break;
    variation.push({ x: p[0], y: p[1], color });
  }
  territory = !!b.territory;
  const t = $('[data-action="review-territory"]');
  t.setAttribute("aria-pressed", String(territory)); t.textContent = territory ? S["review-territory-off"] : S["review-territory"];
  $("[data-shared-board]").dataset.version = String(b.version);
  if (territory) loadTerritory(); else draw();
}
function follow(on) {
  following = on;
  const b = $('[data-action="review-follow"]');
  if (b) { b.setAttribute("aria-pressed", String(on)); b.textContent = on ? S["review-follow-stop"] : S["review-follow"]; }
  if (on) apply(latest);
}
// A follower's own step leaves the driver's board until they follow again.
function own() { if (SHARED && !SHARED.driver && following) follow(false); }
if (SHARED && !SHARED.driver) {
  const source = new EventSource(`/reviews/${encodeURIComponent(SHARED.id)}/live`);
  source.addEventListener("board", (e) => { latest = JSON.parse(e.data); if (following) apply(latest); });
  addEventListener("pagehide", () => source.close());
  $('[data-action="review-follow"]').addEventListener("click", () => follow(!following));
}

function leadText(l) {
  if (l === undefined || l === null) return "";
  if (Math.abs(l) < 0.5) return S["review-even"];
  return fmt(l > 0 ? "review-lead-black" : "review-lead-white", { n: Math.abs(l).toFixed(1) });
}

function go(i) {
  own();
  at = Math.max(0, Math.min(data.positions.length - 1, i)); variation = []; owner = null;
  if (territory) loadTerritory(); else draw();
}

async function loadTerritory() {
  const r = await fetch(`/games/${encodeURIComponent(GAME)}/review/estimate?at=${at}`);
  if (r.ok) { const e = await r.json(); if (e.at === at) owner = e.owner; }
  draw();
}

function onClick(e) {
  const g = e.target.closest && e.target.closest("[data-vertex]");
  if (!g || !data) return;
  const p = parseVertex(g.getAttribute("data-vertex"), data.size);
  if (!p) return;
  const color = nextColor(), trial = copy(rows);
  if (!playOn(trial, p[0], p[1], color)) return;
  own();
  variation.push({ x: p[0], y: p[1], color });
  draw();
}

// The graph of Black's estimated lead along the game (above the line: Black leads).
function graph() {
  const svg = $("#graph"), NS = "http://www.w3.org/2000/svg", leads = data.leads;
  const max = Math.max(10, ...leads.map((l) => Math.abs(l))), w = 300, h = 80, dx = w / Math.max(1, leads.length - 1);
  const y = (l) => h / 2 - (l / max) * (h / 2 - 4);
  const mk = (name, attrs) => { const e = document.createElementNS(NS, name); for (const k in attrs) e.setAttribute(k, attrs[k]); return e; };
  svg.replaceChildren(mk("line", { x1: 0, y1: h / 2, x2: w, y2: h / 2, stroke: "#999", "stroke-width": 0.5 }),
    mk("polyline", { points: leads.map((l, i) => `${(i * dx).toFixed(1)},${y(l).toFixed(1)}`).join(" "), fill: "none", stroke: "#1b1b1b", "stroke-width": 1.2 }));
  leads.forEach((l, i) => {
    const c = mk("circle", { cx: i * dx, cy: y(l), r: 2.5, fill: "transparent", "data-point": String(i) });
    c.addEventListener("click", () => go(i)); svg.append(c);
  });
  svg.append(mk("line", { id: "graph-at", x1: 0, y1: 0, x2: 0, y2: h, stroke: "#8a2a12", "stroke-width": 1 }));
}
function graphMark() {
  const m = document.getElementById("graph-at"); if (!m || !data) return;
  const x = (300 / Math.max(1, data.leads.length - 1)) * at; m.setAttribute("x1", x); m.setAttribute("x2", x);
}

for (const [action, step] of [["review-first", () => 0], ["review-prev", () => at - 1], ["review-next", () => at + 1], ["review-last", () => data.positions.length - 1]]) {
  $(`[data-action="${action}"]`).addEventListener("click", () => data && go(step()));
}
$('[data-action="review-main"]').addEventListener("click", () => { own(); variation = []; draw(); });
$('[data-action="review-territory"]').addEventListener("click", (e) => {
  own();
  territory = !territory; e.currentTarget.setAttribute("aria-pressed", String(territory));
  e.currentTarget.textContent = territory ? S["review-territory-off"] : S["review-territory"];
  if (territory) loadTerritory(); else draw();
});
$("#scrub").addEventListener("input", (e) => go(Number(e.target.value)));
document.addEventListener("keydown", (e) => {
  if (!data || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowLeft") go(at - 1); else if (e.key === "ArrowRight") go(at + 1);
});

const res = await fetch(`/games/${encodeURIComponent(GAME)}/review/data`);
if (res.ok) {
  data = await res.json();
  $("#scrub").max = String(data.positions.length - 1);
  at = data.positions.length - 1;
  graph();
  if (SHARED && !SHARED.driver) apply(latest); else draw();
}
