// A game's chat: one panel per room the viewer reads ([data-chat="players"|"spectators"], one
// [data-message] per message), each following /games/{id}/chat/live?room=…, with a form where the
// viewer may write. Messages are set as text (never as HTML). A player's page has no spectators' panel
// until the game ends (the server would refuse its stream too); then it opens one.
const config = JSON.parse(document.getElementById("game-config").textContent);
const chat = config.chat, S = config.strings, GAME = config.game, LANG = config.lang;
const csrf = document.querySelector('meta[name="csrf-token"]').content;
const box = document.getElementById("chat");
const rid = () => (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now());

async function send(body) {
  try {
    const res = await fetch(`/games/${encodeURIComponent(GAME)}/chat?lang=${LANG}`, {
      method: "POST", headers: { "content-type": "application/json", "x-csrf-token": csrf },
      body: JSON.stringify({ request_id: rid(), ...body }),
    });
    return await res.json();
  } catch (_) { return { ok: false, message: S["refusal-unavailable"] }; }
}

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text) e.textContent = text;
  return e;
}

const open = new Map();
function panel(room) {
  if (open.has(room)) return;
  const section = el("section", { "data-chat": room, class: "chat card", "aria-label": S[`chat-${room}`] });
  const h = el("h2", {}, S[`chat-${room}`]);
  const list = el("ol", { class: "messages", "aria-live": "polite" });
  const error = el("p", { class: "error chat-error", role: "alert" });
  section.append(h, list, error);
  if ((chat.write || []).includes(room)) {
    const form = el("form", { class: "chat-form", autocomplete: "off" });
    const input = el("input", { name: "text", maxlength: "500", required: "", "aria-label": S["chat-placeholder"], placeholder: S["chat-placeholder"] });
    const button = el("button", { type: "submit", "data-action": "chat-send" }, S["chat-send"]);
    form.append(input, button);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      button.disabled = true;
      const answer = await send({ action: "post", room, text });
      button.disabled = false;
      if (answer.ok) { input.value = ""; error.textContent = ""; } else error.textContent = answer.message || answer.code;
    });
    section.append(form);
  } else if (!chat.me) section.append(el("p", { class: "small" }, S["chat-sign-in"]));
  else if (room === "players" && chat.seated && chat.players_chat_on === false) {
    // The event switched its players' chat off: the page says so (staff may still write here).
    section.append(el("p", { class: "small", "data-chat-off": "" }, S["chat-players-off"]));
  }
  box.append(section);
  box.hidden = false;
  open.set(room, section);
  const source = new EventSource(`/games/${encodeURIComponent(GAME)}/chat/live?room=${room}&lang=${LANG}`);
  source.addEventListener("chat", (e) => draw(list, error, JSON.parse(e.data).messages));
  // Closed when the page is left (see game.js).
  addEventListener("pagehide", () => source.close());
}

function draw(list, error, messages) {
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren(...messages.map((m) => {
    const li = el("li", { "data-message": String(m.id) });
    if (m.hidden) li.classList.add("hidden-message");
    const who = el("strong", {}, m.name || m.author);
    const text = el("span", { class: "text" }, m.text);
    li.append(who, document.createTextNode(" "), text);
    if (m.hidden) li.append(el("span", { class: "small" }, " " + S["chat-hidden-mark"]));
    if (m.reports) li.append(el("span", { class: "small" }, " " + S["chat-reported"].replace(/\{ ?\$?n ?\}/, m.reports)));
    const tools = el("span", { class: "tools" });
    if (chat.me && !m.mine) {
      const r = el("button", { type: "button", class: "link", "data-action": "chat-report" }, S["chat-report"]);
      r.addEventListener("click", async () => { const a = await send({ action: "report", message: m.id }); error.textContent = a.ok ? S["chat-report-sent"] : (a.message || a.code); });
      tools.append(r);
    }
    if (chat.staff && !m.hidden) {
      const h = el("button", { type: "button", class: "link", "data-action": "chat-hide" }, S["chat-hide"]);
      h.addEventListener("click", async () => { const reason = prompt(S["chat-reason"]) || ""; const a = await send({ action: "hide", message: m.id, reason }); if (!a.ok) error.textContent = a.message || a.code; });
      tools.append(h);
    }
    if (chat.staff && !m.mine) {
      const mute = el("button", { type: "button", class: "link", "data-action": "chat-mute" }, S["chat-mute"]);
      mute.addEventListener("click", async () => { const reason = prompt(S["chat-reason"]) || ""; const a = await send({ action: "mute", message: m.id, reason }); error.textContent = a.ok ? S["chat-muted"] : (a.message || a.code); });
      tools.append(mute);
    }
    if (tools.childNodes.length) li.append(" ", tools);
    return li;
  }));
  if (atEnd) list.scrollTop = list.scrollHeight;
}

for (const room of chat.rooms || []) panel(room);
// When the game ends, its players read (and write in) the spectators' room too.
if (chat.seated) {
  new MutationObserver(() => {
    if (document.body.dataset.phase === "ended" && !open.has("spectators")) {
      chat.write = [...new Set([...(chat.write || []), "spectators"])];
      panel("spectators");
    }
  }).observe(document.body, { attributes: true, attributeFilter: ["data-phase"] });
}
