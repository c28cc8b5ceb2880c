// Several boards at once, each following its game's stream, read-only.
import { Board, parseVertex, rankText } from "./board.js";

const config = JSON.parse(document.getElementById("watch-config").textContent);
const S = config.strings;
const clock = (ms) => { const t = Math.max(0, Math.ceil(ms / 1000)); return Math.floor(t / 60) + ":" + String(t % 60).padStart(2, "0"); };
for (const article of document.querySelectorAll("article.mini")) {
  const id = article.dataset.game, svg = article.querySelector("svg");
  let board = null;
  const source = new EventSource(`/games/${encodeURIComponent(id)}/live?lang=${config.lang}`);
  // Closed when the page is left (see game.js).
  addEventListener("pagehide", () => source.close());
  source.addEventListener("view", (e) => {
    const v = JSON.parse(e.data);
    if (!v.size) return;
    if (!board || board.n !== v.size) board = new Board(svg, v.size, { label: (S["board-label"] || "").replace(/\{ ?\$?n ?\}/g, v.size) });
    const last = v.last_move && v.last_move.move !== "pass" ? parseVertex(v.last_move.move, v.size) : null;
    board.draw(v.rows || [], { last });
    // Each name with its rank beside it, as everywhere a game is shown.
    const name = (p) => (p ? [p.name || p.id, rankText(p.rank, { dan: S["rank-dan"], kyu: S["rank-kyu"], pro: S["rank-pro"] })].filter(Boolean).join(" ") : "");
    article.querySelector(".names").textContent = `${S.black} ${name(v.black)} – ${S.white} ${name(v.white)}`;
    article.querySelector(".status").textContent = v.result ? v.result.sgf : (S[`phase-${v.phase}`] || "") + (v.move_number ? " · " + v.move_number : "");
    view = v; receivedAt = Date.now(); tick();
  });
  // The clocks count down here between views: the server sends a view only when the game changes.
  let view = null, receivedAt = 0;
  const tick = () => {
    if (!view) return;
    for (const side of ["black", "white"]) {
      const c = view.clock && view.clock[side], el = article.querySelector(`[data-clock="${side}"]`);
      const running = !view.clocks_frozen && view.phase === "playing" && view.to_move === side, elapsed = running ? Date.now() - receivedAt : 0;
      const left = c ? (c.main_ms > 0 ? Math.max(0, c.main_ms - elapsed) || c.period_left_ms : Math.max(0, c.period_left_ms - elapsed)) : 0;
      el.textContent = c ? clock(left) : "—";
    }
  };
  setInterval(tick, 500);
  source.addEventListener("error", () => article.classList.add("offline"));
  source.addEventListener("view", () => article.classList.remove("offline"));
}
