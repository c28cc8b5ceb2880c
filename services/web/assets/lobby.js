// The lobby follows /lobby/live and fetches itself again when a game, an account or a challenge
// changes, replacing only the lists (forms being filled in are left alone).
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
      if (fresh && here) { here.replaceWith(fresh); localTimes(fresh); }
    }
  } finally { busy = false; }
}
new EventSource("/lobby/live").addEventListener("changed", refresh);
