// The lobby follows /lobby/live and fetches itself again when a game, an account or a challenge
// changes, replacing only the lists (forms being filled in are left alone). When one of the viewer's
// own challenges has been accepted, the page goes to its game.
function localTimes(root) {
  for (const t of root.querySelectorAll("time[data-time]")) {
    const d = new Date(Number(t.dataset.time));
    t.textContent = d.toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
  }
}
localTimes(document);
let busy = false;
async function refresh() {
  if (busy) return;
  busy = true;
  try {
    const res = await fetch(location.pathname + location.search, { headers: { accept: "text/html" } });
    if (res.ok) {
      const doc = new DOMParser().parseFromString(await res.text(), "text/html");
      const fresh = doc.getElementById("lobby"), here = document.getElementById("lobby");
      // A challenge of mine that became a game (its id is the game's): the challenger is taken to it.
      const mine = [...document.querySelectorAll("[data-challenge][data-mine]")].map((li) => li.dataset.challenge);
      const taken = fresh && mine.find((id) => fresh.querySelector(`#my-games tr[data-game="${CSS.escape(id)}"]`));
      if (taken) { location.assign(`/games/${encodeURIComponent(taken)}`); return; }
      if (fresh && here) { here.replaceWith(fresh); localTimes(fresh); }
    }
  } finally { busy = false; }
}
// A page left (or kept in the back-forward cache) closes its streams: a browser holds few connections
// to one host, and a stream left open would starve the next page's requests. A page brought back
// from that cache loads afresh.
const live = new EventSource("/lobby/live");
live.addEventListener("changed", refresh);
addEventListener("pagehide", () => live.close());
addEventListener("pageshow", (e) => { if (e.persisted) location.reload(); });

// The challenge form shows only the chosen time system's fields.
const system = document.querySelector("select[data-time-system]");
function showSystem() {
  for (const f of document.querySelectorAll("fieldset[data-time-for]")) f.hidden = !f.dataset.timeFor.split(" ").includes(system.value);
}
if (system) { system.addEventListener("change", showSystem); showSystem(); }
