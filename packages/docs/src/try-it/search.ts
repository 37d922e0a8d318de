// Search over the page: methods, the notifications of event-stream methods, schemas and sections.
import { $, $$, el } from "./dom.js";

interface Entry {
  id: string;
  name: string;
  kind: "method" | "notification" | "schema" | "section";
  summary: string;
  text: string;
}

function searchIndex(): Entry[] {
  const entries: Entry[] = [];
  for (const article of $$("main article.method, main article.schema")) {
    const kind = article.classList.contains("method") ? "method" : "schema";
    const name = $("h3", article)?.textContent?.trim() ?? article.id;
    const summary = ($(".summary", article) ?? $("h3 + p", article) ?? $("p:not(.badges)", article))?.textContent?.trim() ?? "";
    entries.push({ id: article.id, name, kind, summary, text: (article.textContent ?? "").toLowerCase() });
  }
  // The notifications of event-stream methods, each under its own anchor.
  for (const notification of $$("main article.method .notification[id]")) {
    const name = $("h5", notification)?.textContent?.trim() ?? notification.id;
    const summary = $(".notification-summary", notification)?.textContent?.trim() ?? "";
    entries.push({ id: notification.id, name, kind: "notification", summary, text: (notification.textContent ?? "").toLowerCase() });
  }
  // Sections by their headings: a heading's own id, or else its section's.
  for (const heading of $$("main h2, main h3, main h4")) {
    if (heading.closest("article")) continue;
    const section = heading.parentElement?.closest("section[id]");
    const id = heading.id || (section && $(":scope > h2, :scope > h3", section) === heading ? section.id : "");
    if (id) entries.push({ id, name: heading.textContent?.trim() ?? id, kind: "section", summary: "", text: "" });
  }
  return entries;
}

function search(entries: Entry[], query: string): Entry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const scored: [number, Entry][] = [];
  for (const entry of entries) {
    const name = entry.name.toLowerCase();
    const summary = entry.summary.toLowerCase();
    let score = 0;
    for (const word of words) {
      if (name === word) score += 40;
      else if (name.startsWith(word) || name.includes(`_${word}`) || name.includes(`.${word}`)) score += 25;
      else if (name.includes(word)) score += 15;
      else if (summary.includes(word)) score += 4;
      else if (entry.text.includes(word)) score += 1;
      else {
        score = 0;
        break;
      }
    }
    if (score > 0) scored.push([score + (entry.kind === "section" ? 0 : 0.5), entry]);
  }
  return scored.sort((a, b) => b[0] - a[0]).map(([, entry]) => entry);
}

export function setupSearch(): void {
  const box = $("#search-box");
  const input = $<HTMLInputElement>("#search");
  const results = $<HTMLUListElement>("#search-results");
  if (!box || !input || !results) return;
  const entries = searchIndex();
  let found: Entry[] = [];
  const render = () => {
    found = search(entries, input.value).slice(0, 12);
    results.replaceChildren(
      ...found.map((entry) =>
        el(
          "li",
          {},
          el("a", { href: `#${entry.id}` }, entry.kind === "section" ? document.createTextNode(entry.name) : el("code", { text: entry.name }), el("span", { className: "note", text: ` ${entry.kind}${entry.summary ? ` · ${entry.summary}` : ""}` })),
        ),
      ),
    );
    if (input.value.trim() && found.length === 0) results.append(el("li", { className: "note", text: "No match." }));
  };
  input.addEventListener("input", render);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && found[0]) {
      event.preventDefault();
      location.hash = found[0].id;
    } else if (event.key === "Escape") {
      input.value = "";
      render();
    }
  });
  box.hidden = false;
}
