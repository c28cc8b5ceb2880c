// The broadcast overlay: draws the `view` stream of the game named in the page's own path, in the
// language the server chose (<html lang>). Served as a file: the overlay's policy runs no inline script.
const LANG = document.documentElement.lang;
const T = {
  "zh-CN": {black: "黑", white: "白", captured: "提子", warnings: "警告", move: "第{n}手", pass: "停一手", round: "第{n}轮", board: "第{n}台",
    reconnecting: "正在重新连接…", board_label: "{n}路棋盘", phases: {new: "未开始", nigiri: "猜先", ready: "等待开始", playing: "对局中", paused: "暂停", adjourned: "封盘", scoring: "数子", ended: "终局"}},
  "en": {black: "Black", white: "White", captured: "captured", warnings: "warnings", move: "move {n}", pass: "pass", round: "round {n}", board: "board {n}",
    reconnecting: "reconnecting…", board_label: "{n}×{n} board", phases: {new: "new", nigiri: "nigiri", ready: "waiting to start", playing: "in play", paused: "paused", adjourned: "adjourned", scoring: "counting", ended: "over"}},
}[LANG] || {};
const t = (k, n) => String(T[k]).replaceAll("{n}", n);
const q = new URLSearchParams(location.search);
const source = new EventSource(location.pathname.replace(/\/$/, "") + "/events?lang=" + LANG + "&token=" + encodeURIComponent(q.get("token") || ""));
const NS = "http://www.w3.org/2000/svg";
const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
function el(name, attrs, text) { const e = document.createElementNS(NS, name); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; return e; }
function stars(n) {
  if (n < 7) return [];
  const e = n >= 13 ? 3 : 2, m = (n - 1) / 2, f = n - 1 - e, list = [[e, e], [e, f], [f, e], [f, f]];
  if (n % 2 === 1) { list.push([m, m]); if (n >= 15) list.push([e, m], [m, e], [f, m], [m, f]); }
  return list;
}
function draw(v) {
  // The board with a margin for coordinates: letters above and below, numbers left and right.
  const svg = document.getElementById("board"), n = v.size, m = 5, s = (100 - 2 * m) / n, o = m + s / 2;
  svg.replaceChildren();
  svg.setAttribute("aria-label", t("board_label", n));
  const at = (i) => o + i * s;
  for (let i = 0; i < n; i++) {
    svg.append(el("line", {x1: at(0), y1: at(i), x2: at(n - 1), y2: at(i), stroke: "#000", "stroke-width": .15}));
    svg.append(el("line", {x1: at(i), y1: at(0), x2: at(i), y2: at(n - 1), stroke: "#000", "stroke-width": .15}));
    const style = {"font-size": Math.min(3, s * .55), "text-anchor": "middle", "dominant-baseline": "central", fill: "#222"};
    svg.append(el("text", {...style, x: at(i), y: m / 2}, LETTERS[i]));
    svg.append(el("text", {...style, x: at(i), y: 100 - m / 2}, LETTERS[i]));
    svg.append(el("text", {...style, x: m / 2, y: at(i)}, String(n - i)));
    svg.append(el("text", {...style, x: 100 - m / 2, y: at(i)}, String(n - i)));
  }
  for (const [x, y] of stars(n)) svg.append(el("circle", {cx: at(x), cy: at(y), r: s * .12}));
  let last = null;
  if (v.last_move && v.last_move.move !== "pass") {
    const mv = v.last_move.move; last = [LETTERS.indexOf(mv[0]), n - parseInt(mv.slice(1), 10)];
  }
  v.rows.forEach((row, y) => [...row].forEach((c, x) => {
    if (c !== "X" && c !== "O") return;
    svg.append(el("circle", {cx: at(x), cy: at(y), r: s * .47, fill: c === "X" ? "#111" : "#f8f8f8", stroke: "#000", "stroke-width": .12}));
    if (last && last[0] === x && last[1] === y)
      svg.append(el("circle", {cx: at(x), cy: at(y), r: s * .2, fill: "none", stroke: c === "X" ? "#fff" : "#000", "stroke-width": .5}));
  }));
}
function mmss(ms) { const t = Math.max(0, Math.ceil(ms / 1000)); const h = Math.floor(t / 3600), mm = Math.floor(t / 60) % 60, ss = String(t % 60).padStart(2, "0"); return (h ? h + ":" + String(mm).padStart(2, "0") : mm) + ":" + ss; }
function clock(c) {
  if (!c) return "";
  if (c.period === 0) return mmss(c.main_ms);
  let text = mmss(c.period_left_ms) + " ×" + c.periods_left;
  if (c.moves_left > 0) text += " (" + c.moves_left + ")";
  return text;
}
function side(id, v) {
  const p = v[id], c = v.clock && v.clock[id], box = document.getElementById(id);
  box.classList.toggle("turn", v.to_move === id);
  box.querySelector(".name").textContent = (id === "black" ? "● " : "○ ") + T[id] + " " + (p.name || p.id) + " " + p.rank;
  box.querySelector(".clock").textContent = clock(c);
  box.querySelector(".call").textContent = v.call && v.call.side === id ? v.call.text : "";
  box.querySelector(".small").textContent = T.captured + " " + p.prisoners + (p.warnings ? " · " + T.warnings + " " + p.warnings : "");
}
source.addEventListener("view", (e) => {
  const v = JSON.parse(e.data);
  draw(v);
  side("black", v); side("white", v);
  const where = [v.event, v.round ? t("round", v.round) : "", v.board ? t("board", v.board) : "", t("board_label", v.size)];
  document.getElementById("event").textContent = where.filter(Boolean).join(" · ");
  document.getElementById("system").textContent = v.time_system || "";
  document.getElementById("moves").replaceChildren(...(v.moves || []).map((m) => {
    const li = document.createElement("li");
    li.textContent = t("move", m.number) + "  " + T[m.color] + " " + (m.move === "pass" ? T.pass : m.move);
    return li;
  }));
  const box = document.getElementById("resultbox");
  box.hidden = !v.result;
  if (v.result) {
    document.getElementById("result").textContent = v.result.words;
    document.getElementById("sgf").textContent = v.result.sgf || "";
  }
  document.getElementById("status").textContent = t("move", v.move_number) + " · " + (T.phases[v.phase] || v.phase);
  if (v.phase === "ended") source.close();
});
source.addEventListener("problem", (e) => { document.getElementById("status").textContent = e.data; source.close(); });
source.onerror = () => { document.getElementById("status").textContent = T.reconnecting; };
