// The broadcast overlay: draws the `view` stream of the game named in the page's own path, in the
// language the server chose (<html lang>), with the game page's board module and the words of the
// site's catalogue (the page carries them as JSON). Served as a file: the overlay's policy runs no
// inline script.
import { Board, parseVertex, rankText } from "./board.js";

const LANG = document.documentElement.lang;
const T = JSON.parse(document.getElementById("overlay-strings").textContent);
const t = (k, n) => String(T[k] ?? k).replaceAll("{n}", n);
const q = new URLSearchParams(location.search);
const source = new EventSource(location.pathname.replace(/\/$/, "") + "/events?lang=" + LANG + "&token=" + encodeURIComponent(q.get("token") || ""));
const svg = document.getElementById("board");
let board = null;

function draw(v) {
  if (!v.size) return;
  if (!board || board.n !== v.size) board = new Board(svg, v.size, { label: t("board-label", v.size) });
  const last = v.last_move && v.last_move.move !== "pass" ? parseVertex(v.last_move.move, v.size) : null;
  board.draw(v.rows, { last });
}
function mmss(ms) { const t = Math.max(0, Math.ceil(ms / 1000)); const h = Math.floor(t / 3600), mm = Math.floor(t / 60) % 60, ss = String(t % 60).padStart(2, "0"); return (h ? h + ":" + String(mm).padStart(2, "0") : mm) + ":" + ss; }
function clock(c) {
  if (!c) return "";
  if (c.period === 0) return mmss(c.main_ms);
  let text = mmss(c.period_left_ms) + " ×" + c.periods_left;
  if (c.moves_left > 0) text += " (" + c.moves_left + ")";
  return text;
}
const side_name = (id) => t(id === "black" ? "words-black" : "words-white");
function side(id, v) {
  const p = v[id], c = v.clock && v.clock[id], box = document.getElementById(id);
  box.classList.toggle("turn", v.to_move === id);
  box.querySelector(".name").textContent = (id === "black" ? "● " : "○ ") + side_name(id) + " " + (p.name || p.id) + " " + rankText(p.rank, { dan: T["rank-dan"], kyu: T["rank-kyu"], pro: T["rank-pro"] });
  box.querySelector(".clock").textContent = clock(c);
  box.querySelector(".call").textContent = v.call && v.call.side === id ? v.call.text : "";
  box.querySelector(".small").textContent = t("captures") + " " + p.prisoners + (p.warnings ? " · " + t("warnings") + " " + p.warnings : "");
}
source.addEventListener("view", (e) => {
  const v = JSON.parse(e.data);
  draw(v);
  side("black", v); side("white", v);
  const where = [v.event, v.round ? t("overlay-round", v.round) : "", v.board ? t("overlay-board", v.board) : "", t("board-label", v.size)];
  document.getElementById("event").textContent = where.filter(Boolean).join(" · ");
  document.getElementById("system").textContent = v.time_system || "";
  document.getElementById("moves").replaceChildren(...(v.moves || []).map((m) => {
    const li = document.createElement("li");
    li.textContent = t("move-number", m.number) + "  " + side_name(m.color) + " " + (m.move === "pass" ? t("pass") : m.move);
    return li;
  }));
  const box = document.getElementById("resultbox");
  box.hidden = !v.result;
  if (v.result) {
    document.getElementById("result").textContent = v.result.words;
    document.getElementById("sgf").textContent = v.result.sgf || "";
  }
  document.getElementById("status").textContent = t("move-number", v.move_number) + " · " + t("phase-" + v.phase);
  if (v.phase === "ended") source.close();
});
source.addEventListener("problem", (e) => { document.getElementById("status").textContent = e.data; source.close(); });
source.onerror = () => { document.getElementById("status").textContent = t("reconnecting"); };
