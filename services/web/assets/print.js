// Print buttons ([data-action=print]) on the printable pages (pairings, standings, result slips,
// certificates). A file, not an inline handler: the pages' policy runs no inline script.
for (const button of document.querySelectorAll("[data-action=print]")) {
  button.addEventListener("click", () => window.print());
}
