// The docs site's script (bundled by build.mjs into dist/try-it.js): the theme toggle, search over
// methods, schemas and sections, and "Try it": every method's form (generated from the spec) builds
// the JSON-RPC request, signs in with a throwaway key or a pasted token, POSTs it to the relay that
// serves the page and shows the answer. No network but that one origin; no inline scripts.
import { bearerToken, describeToken, newPrivateKey } from "./siwe.js";
import { THEME_KEY } from "./theme-key.js";

const $ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T | null => root.querySelector<T>(selector);
const $$ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T[] => Array.from(root.querySelectorAll<T>(selector));

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: { className?: string; text?: string; href?: string } = {}, ...children: Node[]) {
  const node = document.createElement(tag);
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  if (props.href !== undefined) (node as HTMLAnchorElement).href = props.href;
  node.append(...children);
  return node;
}

/** Served over HTTP(S) by a relay (or anything else); from file:// there is no relay to call. */
const served = location.protocol === "http:" || location.protocol === "https:";
const OFFLINE = "Try it needs this page served by a relay: it sends the request to the server the page came from (POST /). Start one (see Running a relay) and open its /docs/.";

// ---- theme ------------------------------------------------------------------------------------

function setupTheme(): void {
  const button = $<HTMLButtonElement>("#theme-toggle");
  if (!button) return;
  const order = ["auto", "light", "dark"] as const;
  const current = () => (document.documentElement.dataset.theme as "light" | "dark" | undefined) ?? "auto";
  const show = () => {
    button.textContent = `Theme: ${current()}`;
    button.title = "Switch between the system's colour scheme, light and dark";
  };
  button.addEventListener("click", () => {
    const next = order[(order.indexOf(current()) + 1) % order.length]!;
    if (next === "auto") delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = next;
    try {
      if (next === "auto") localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, next);
    } catch {
      // not kept across visits then
    }
    show();
  });
  show();
  button.hidden = false;
}

// ---- search -----------------------------------------------------------------------------------

interface Entry {
  id: string;
  name: string;
  kind: "method" | "schema" | "section";
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

function setupSearch(): void {
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

// ---- sign-in ----------------------------------------------------------------------------------

interface Session {
  token: string;
  address: string;
  expiresAt?: number;
  how: "throwaway key" | "pasted token";
  message: string;
}

let session: Session | undefined;

function showSession(): void {
  const state = $("#signin-state");
  if (state) {
    state.textContent = session
      ? `Signed in as ${session.address} (${session.how}${session.expiresAt ? `, expires ${new Date(session.expiresAt).toLocaleTimeString()}` : ""}).`
      : "Not signed in: methods that need a token are sent without one (and answer 401).";
  }
  const message = $("#signin-message");
  if (message) message.textContent = session ? session.message : "";
  const clear = $<HTMLButtonElement>("#signin-clear");
  if (clear) clear.disabled = !session;
  for (const line of $$("form.try[data-auth='true'] .try-auth")) {
    line.replaceChildren(
      session ? document.createTextNode(`Sends Authorization: Bearer … as ${session.address}. `) : document.createTextNode("Needs a bearer token, and you are not signed in. "),
      el("a", { href: "#try-it", text: session ? "Change" : "Sign in" }),
    );
  }
}

function signInWithThrowawayKey(): void {
  // A fresh key each time, never stored: it lives as long as this page.
  const signed = bearerToken(newPrivateKey(), { domain: location.host, uri: location.origin });
  session = { token: signed.token, address: signed.address, expiresAt: signed.expiresAt, how: "throwaway key", message: signed.message };
  showSession();
}

function usePastedToken(): void {
  const field = $<HTMLTextAreaElement>("#signin-token");
  const status = $("#signin-token-status");
  const token = field?.value.trim().replace(/^Bearer\s+/i, "") ?? "";
  const described = describeToken(token);
  if (!described) {
    if (status) status.textContent = "That is not a bearer token: expected base64url(SIWE message).0x-signature.";
    return;
  }
  if (status) status.textContent = described.domain === location.host ? "" : `Note: the token is for ${described.domain}, this page is ${location.host || "not served"}; the node may refuse it.`;
  session = { token, address: described.address, ...(described.expiresAt !== undefined && { expiresAt: described.expiresAt }), how: "pasted token", message: described.message };
  showSession();
}

function setupSignIn(): void {
  const offline = $("#try-offline");
  if (offline) offline.hidden = served;
  const throwaway = $<HTMLButtonElement>("#signin-throwaway");
  const use = $<HTMLButtonElement>("#signin-use-token");
  const clear = $<HTMLButtonElement>("#signin-clear");
  if (throwaway) {
    throwaway.disabled = !served;
    throwaway.addEventListener("click", signInWithThrowawayKey);
  }
  if (use) {
    use.disabled = !served;
    use.addEventListener("click", usePastedToken);
  }
  clear?.addEventListener("click", () => {
    session = undefined;
    showSession();
  });
  const panel = $("#signin");
  if (panel) panel.hidden = false;
  showSession();
}

// ---- the forms --------------------------------------------------------------------------------

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The value a field stands for: undefined when empty (the param is absent). Throws a readable error. */
function valueOf(field: Field): unknown {
  const text = field.value.trim();
  if (text === "") return undefined;
  switch (field.dataset.kind) {
    case "number": {
      const number = Number(text);
      if (!Number.isFinite(number)) throw new Error(`${field.name}: not a number`);
      return number;
    }
    case "boolean":
      return text === "true";
    case "json":
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new Error(`${field.name}: not valid JSON`);
      }
    default:
      return text;
  }
}

/**
 * The JSON-RPC request of a form. By position (as the examples are written): trailing absent params
 * dropped, absent ones before a given one sent as null. By name when the method takes only names.
 */
function buildRequest(form: HTMLFormElement): { jsonrpc: "2.0"; id: number; method: string; params: unknown[] | Record<string, unknown> } {
  const fields = $$<Field>("[data-kind]", form);
  const values = fields.map((field) => [field.name, valueOf(field)] as const);
  const method = form.dataset.method!;
  if (form.dataset.structure === "by-name") {
    return { jsonrpc: "2.0", id: 1, method, params: Object.fromEntries(values.filter(([, v]) => v !== undefined)) };
  }
  const params = values.map(([, v]) => v);
  while (params.length > 0 && params[params.length - 1] === undefined) params.pop();
  return { jsonrpc: "2.0", id: 1, method, params: params.map((v) => (v === undefined ? null : v)) };
}

function fill(form: HTMLFormElement, params: Record<string, unknown>): void {
  for (const field of $$<Field>("[data-kind]", form)) {
    const value = params[field.name];
    field.value = value === undefined ? "" : field.dataset.kind === "json" ? JSON.stringify(value, null, 2) : String(value);
  }
}

function output(form: HTMLFormElement, ...nodes: Node[]): void {
  $(".try-output", form)?.replaceChildren(...nodes);
}

async function send(form: HTMLFormElement): Promise<void> {
  if (!served) {
    output(form, el("p", { className: "try-error", text: OFFLINE }));
    return;
  }
  let request;
  try {
    request = buildRequest(form);
  } catch (error) {
    output(form, el("p", { className: "try-error", text: (error as Error).message }));
    return;
  }
  const needsToken = form.dataset.auth === "true";
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (needsToken && session) headers.authorization = `Bearer ${session.token}`;
  const button = $<HTMLButtonElement>("button[type=submit]", form);
  if (button) button.disabled = true;
  output(form, el("p", { className: "note", text: "Sending…" }));
  const started = performance.now();
  try {
    const response = await fetch(new URL("/", location.origin), { method: "POST", headers, body: JSON.stringify(request) });
    const text = await response.text();
    const ms = Math.round(performance.now() - started);
    let shown = text;
    let json = false;
    try {
      shown = JSON.stringify(JSON.parse(text), null, 2);
      json = true;
    } catch {
      // not JSON: shown as it came
    }
    const status = el("p", { className: `try-status ${response.ok ? "ok" : "failed"}`, text: `HTTP ${response.status} ${response.statusText} · ${ms} ms` });
    const nodes: Node[] = [status];
    if (needsToken && !session) nodes.push(el("p", { className: "note", text: "No token was sent: sign in under Try it first." }));
    if (!json) nodes.push(el("p", { className: "try-error", text: "The answer is not JSON: is this page served by a neutralService relay?" }));
    nodes.push(el("pre", {}, el("code", { className: "try-response", text: shown })));
    output(form, ...nodes);
  } catch (error) {
    output(form, el("p", { className: "try-error", text: `Could not reach the relay: ${(error as Error).message}` }));
  } finally {
    if (button) button.disabled = false;
  }
}

function setupForms(): void {
  for (const form of $$<HTMLFormElement>("form.try")) {
    const preview = $(".try-request", form);
    const refresh = () => {
      if (!preview) return;
      try {
        preview.textContent = JSON.stringify(buildRequest(form), null, 2);
        preview.classList.remove("invalid");
      } catch (error) {
        preview.textContent = (error as Error).message;
        preview.classList.add("invalid");
      }
    };
    form.addEventListener("input", refresh);
    form.addEventListener("change", (event) => {
      const preset = event.target as HTMLSelectElement;
      if (preset.classList.contains("try-preset")) {
        fill(form, JSON.parse(preset.selectedOptions[0]?.dataset.params ?? "{}") as Record<string, unknown>);
      }
      refresh();
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void send(form);
    });
    refresh();
  }
}

function start(): void {
  setupTheme();
  setupSearch();
  setupSignIn();
  setupForms();
  document.documentElement.classList.add("js");
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
