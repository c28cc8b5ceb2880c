// The SVG board, shared by the game page and the multi-board view.
// Every intersection is a <g data-vertex="D4"> carrying data-stone="black"|"white" and data-dead="true"
// (WEB.md's stable test contract); coordinates, star points, the last-move mark and a ghost stone under
// the pointer are drawn around them.
const NS = "http://www.w3.org/2000/svg";
export const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

function el(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
}

function stars(n) {
  if (n < 7) return [];
  const e = n >= 13 ? 3 : 2, m = (n - 1) / 2, f = n - 1 - e, list = [[e, e], [e, f], [f, e], [f, f]];
  if (n % 2 === 1) { list.push([m, m]); if (n >= 15) list.push([e, m], [m, e], [f, m], [m, f]); }
  return list;
}

// A rank as the page's readers write it: "3d" with the page's words { dan: "业余{n}段", kyu: "{n}级",
// pro: "职业{n}段" } (the catalogue's rank-dan, rank-kyu, rank-pro); any other text as it is.
export function rankText(rank, words) {
  const m = /^(\d+)\s*([dkp])$/i.exec(String(rank || "").trim());
  if (!m) return rank || "";
  const word = { d: words.dan, k: words.kyu, p: words.pro }[m[2].toLowerCase()];
  return word ? String(word).replaceAll("{n}", m[1]) : rank;
}

export function vertexName(x, y, n) { return LETTERS[x] + String(n - y); }

export function parseVertex(v, n) {
  const m = /^([A-HJ-Za-hj-z])(\d{1,2})$/.exec(String(v).trim());
  if (!m) return null;
  const x = LETTERS.indexOf(m[1].toUpperCase()), y = n - parseInt(m[2], 10);
  return x >= 0 && x < n && y >= 0 && y < n ? [x, y] : null;
}

// The stones of the chain through (x, y) on `rows` ("X", "O", ".").
export function chainOf(rows, x, y) {
  const n = rows.length, c = rows[y][x], out = [], seen = new Set([y * n + x]), todo = [[x, y]];
  if (c !== "X" && c !== "O") return out;
  while (todo.length) {
    const [a, b] = todo.pop(); out.push([a, b]);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const p = a + dx, q = b + dy;
      if (p < 0 || q < 0 || p >= n || q >= n || seen.has(q * n + p) || rows[q][p] !== c) continue;
      seen.add(q * n + p); todo.push([p, q]);
    }
  }
  return out;
}

// Empty regions (dead stones removed) touching one colour only: "X" or "O" per point, else null.
export function territory(rows, dead) {
  const n = rows.length, grid = rows.map((r, y) => [...r].map((c, x) => dead.has(y * n + x) ? "." : c));
  const owner = new Array(n * n).fill(null), seen = new Set();
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
    if (grid[y][x] !== "." || seen.has(y * n + x)) continue;
    const region = [], todo = [[x, y]], borders = new Set(); seen.add(y * n + x);
    while (todo.length) {
      const [a, b] = todo.pop(); region.push(b * n + a);
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const p = a + dx, q = b + dy;
        if (p < 0 || q < 0 || p >= n || q >= n) continue;
        const c = grid[q][p];
        if (c === ".") { if (!seen.has(q * n + p)) { seen.add(q * n + p); todo.push([p, q]); } } else borders.add(c);
      }
    }
    if (borders.size === 1) { const o = [...borders][0]; for (const i of region) owner[i] = o; }
  }
  return owner;
}

export class Board {
  constructor(svg, size, { interactive = false, label = "" } = {}) {
    this.svg = svg; this.n = size; this.cells = []; this.ghostColor = null; this.cursor = null;
    const n = size, m = 5, s = (100 - 2 * m) / n, o = m + s / 2;
    this.s = s; this.at = (i) => o + i * s;
    svg.replaceChildren();
    if (label) svg.setAttribute("aria-label", label);
    svg.append(el("rect", { x: 0, y: 0, width: 100, height: 100, fill: "#dcb35c", rx: 1.5 }));
    const lines = el("g", { stroke: "#1a1a1a", "stroke-width": 0.15 });
    const fs = Math.min(2.8, s * 0.5);
    for (let i = 0; i < n; i++) {
      lines.append(el("line", { x1: this.at(0), y1: this.at(i), x2: this.at(n - 1), y2: this.at(i) }));
      lines.append(el("line", { x1: this.at(i), y1: this.at(0), x2: this.at(i), y2: this.at(n - 1) }));
    }
    svg.append(lines);
    const coords = el("g", { "font-size": fs, "text-anchor": "middle", "dominant-baseline": "central", fill: "#2b2b2b", "aria-hidden": "true" });
    for (let i = 0; i < n; i++) {
      for (const [x, y, text] of [[this.at(i), m / 2, LETTERS[i]], [this.at(i), 100 - m / 2, LETTERS[i]], [m / 2, this.at(i), n - i], [100 - m / 2, this.at(i), n - i]]) {
        const t = el("text", { x, y }); t.textContent = text; coords.append(t);
      }
    }
    svg.append(coords);
    for (const [x, y] of stars(n)) svg.append(el("circle", { cx: this.at(x), cy: this.at(y), r: s * 0.11, fill: "#1a1a1a" }));
    const layer = el("g", {});
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
      const g = el("g", { "data-vertex": vertexName(x, y, n), class: "vertex", role: "img", "aria-label": vertexName(x, y, n) });
      g.append(el("rect", { x: this.at(x) - s / 2, y: this.at(y) - s / 2, width: s, height: s, fill: "transparent" }));
      const stone = el("circle", { cx: this.at(x), cy: this.at(y), r: s * 0.47, class: "stone" });
      const mark = el("circle", { cx: this.at(x), cy: this.at(y), r: s * 0.2, class: "mark" });
      const terr = el("rect", { x: this.at(x) - s * 0.15, y: this.at(y) - s * 0.15, width: s * 0.3, height: s * 0.3, class: "terr" });
      g.append(stone, mark, terr);
      layer.append(g); this.cells.push(g);
    }
    svg.append(layer);
    this.ghost = el("circle", { r: s * 0.47, class: "ghost", visibility: "hidden", "pointer-events": "none" });
    this.cursorMark = el("rect", { width: s, height: s, class: "cursor", visibility: "hidden", "pointer-events": "none" });
    svg.append(this.ghost, this.cursorMark);
    if (interactive) {
      svg.addEventListener("pointermove", (e) => {
        const g = e.target.closest && e.target.closest("[data-vertex]");
        if (!g || !this.ghostColor || g.hasAttribute("data-stone")) { this.ghost.setAttribute("visibility", "hidden"); return; }
        const i = this.cells.indexOf(g), x = i % n, y = Math.floor(i / n);
        this.ghost.setAttribute("cx", this.at(x)); this.ghost.setAttribute("cy", this.at(y));
        this.ghost.setAttribute("class", "ghost " + this.ghostColor);
        this.ghost.setAttribute("visibility", "visible");
      });
      svg.addEventListener("pointerleave", () => this.ghost.setAttribute("visibility", "hidden"));
    }
  }

  cell(x, y) { return this.cells[y * this.n + x]; }

  // Draws `rows`; `dead` and `owner` are sets/arrays by index; `last` is [x, y] or null.
  // `numbers`: the move number to write on each point's stone (null: none); `words`: { black, white }
  // for each intersection's label ("D4 black"), read by screen readers.
  draw(rows, { dead = new Set(), owner = null, last = null, numbers = null, words = null } = {}) {
    const n = this.n;
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
      const g = this.cell(x, y), c = rows[y] ? rows[y][x] : ".";
      const stone = c === "X" ? "black" : c === "O" ? "white" : null;
      if (words) {
        const label = vertexName(x, y, n) + (stone ? " " + words[stone] : "");
        if (g.getAttribute("aria-label") !== label) g.setAttribute("aria-label", label);
      }
      const num = numbers && stone ? numbers[y * n + x] : null;
      let t = g.querySelector(".num");
      if (num && !t) { t = el("text", { x: this.at(x), y: this.at(y), class: "num", "font-size": (this.s * 0.45).toFixed(2), "aria-hidden": "true" }); g.append(t); }
      if (t) t.textContent = num ? String(num) : "";
      g.classList.remove("pending");
      if (stone) g.setAttribute("data-stone", stone); else g.removeAttribute("data-stone");
      if (stone && dead.has(y * n + x)) g.setAttribute("data-dead", "true"); else g.removeAttribute("data-dead");
      const o = owner ? owner[y * n + x] : null;
      g.classList.toggle("own-black", o === "X" && (!stone || dead.has(y * n + x)));
      g.classList.toggle("own-white", o === "O" && (!stone || dead.has(y * n + x)));
      g.classList.toggle("last", !!last && last[0] === x && last[1] === y);
    }
    this.ghost.setAttribute("visibility", "hidden");
  }

  // Shows a stone at once (the move before the server answers).
  place(x, y, color) {
    const g = this.cell(x, y); g.setAttribute("data-stone", color); g.classList.add("pending");
  }

  setCursor(x, y) {
    this.cursor = [x, y];
    this.cursorMark.setAttribute("x", this.at(x) - this.s / 2); this.cursorMark.setAttribute("y", this.at(y) - this.s / 2);
    this.cursorMark.setAttribute("visibility", "visible");
  }
}
