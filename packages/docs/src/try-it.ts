// The docs site's script (bundled by build.mjs into dist/try-it.js): the theme toggle, search over
// methods, notifications, schemas and sections, and "Try it": every method's form (generated from the
// spec) builds the JSON-RPC request, signs in with a throwaway key or a pasted token, POSTs it to the
// relay that serves the page and shows the answer; a method answered as an event stream
// (`x-subscription`) shows each event as it arrives until the node ends the stream or Stop aborts it.
// No network but that one origin; no inline scripts.
import type { SignIn } from "./sign-in.js";
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

/** Where sign-in.js is: next to this script. */
const signInSrc = new URL("sign-in.js", (document.currentScript as HTMLScriptElement | null)?.src || location.href).href;
let signInCode: Promise<SignIn> | undefined;

/** The signing code (sign-in.js: secp256k1 and keccak-256), loaded the first time someone signs in. */
function loadSignIn(): Promise<SignIn> {
  signInCode ??= new Promise<SignIn>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = signInSrc;
    script.addEventListener("load", () => (window.neutralDocsSignIn ? resolve(window.neutralDocsSignIn) : reject(new Error("sign-in.js did not run"))));
    script.addEventListener("error", () => reject(new Error(`could not load ${signInSrc}`)));
    document.head.append(script);
  }).catch((error: unknown) => {
    signInCode = undefined; // try again on the next click
    throw error;
  });
  return signInCode;
}

/** Runs `action` with the signing code, saying so in the sign-in state if it cannot be loaded. */
async function withSignIn(action: (code: SignIn) => void): Promise<void> {
  let code: SignIn;
  try {
    code = await loadSignIn();
  } catch (error) {
    const state = $("#signin-state");
    if (state) state.textContent = `Cannot sign in: ${(error as Error).message}.`;
    return;
  }
  action(code);
}

function signInWithThrowawayKey({ bearerToken, newPrivateKey }: SignIn): void {
  // A fresh key each time, never stored: it lives as long as this page.
  const signed = bearerToken(newPrivateKey(), { domain: location.host, uri: location.origin });
  session = { token: signed.token, address: signed.address, expiresAt: signed.expiresAt, how: "throwaway key", message: signed.message };
  showSession();
}

function usePastedToken({ describeToken }: SignIn): void {
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
    throwaway.addEventListener("click", () => void withSignIn(signInWithThrowawayKey));
  }
  if (use) {
    use.disabled = !served;
    use.addEventListener("click", () => void withSignIn(usePastedToken));
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

/**
 * The form's request and its headers (the session's token when the method needs one), or undefined
 * once the form shows why it cannot be sent (the page is not served by a relay, a param is bad).
 */
function prepare(form: HTMLFormElement, accept?: string): { request: ReturnType<typeof buildRequest>; headers: Record<string, string>; needsToken: boolean } | undefined {
  if (!served) {
    output(form, el("p", { className: "try-error", text: OFFLINE }));
    return undefined;
  }
  let request;
  try {
    request = buildRequest(form);
  } catch (error) {
    output(form, el("p", { className: "try-error", text: (error as Error).message }));
    return undefined;
  }
  const needsToken = form.dataset.auth === "true";
  const headers: Record<string, string> = { "content-type": "application/json", ...(accept && { accept }) };
  if (needsToken && session) headers.authorization = `Bearer ${session.token}`;
  return { request, headers, needsToken };
}

async function send(form: HTMLFormElement): Promise<void> {
  const prepared = prepare(form);
  if (!prepared) return;
  const { request, headers, needsToken } = prepared;
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

// ---- event streams ----------------------------------------------------------------------------

/** One Server-Sent Event: its `id` field (if this event had one), `event` type and joined `data`. */
interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * A Server-Sent Events parser (the WHATWG event-stream format): feed it decoded text as it arrives.
 * Lines end in CRLF, LF or CR; a blank line dispatches the event; `:` lines are comments.
 */
function sseParser(onEvent: (event: SseEvent) => void, onComment: (text: string) => void): (text: string) => void {
  let buffer = "";
  let data: string[] = [];
  let id: string | undefined;
  let event = "";
  const line = (text: string) => {
    if (text === "") {
      if (data.length > 0) onEvent({ ...(id !== undefined && { id }), event: event || "message", data: data.join("\n") });
      data = [];
      id = undefined;
      event = "";
      return;
    }
    if (text.startsWith(":")) return onComment(text.slice(1).trim());
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) id = value;
    else if (field === "event") event = value;
  };
  return (text) => {
    buffer += text;
    for (;;) {
      const end = buffer.search(/[\r\n]/);
      // A CR at the end may be the first half of a CRLF: wait for the next chunk.
      if (end < 0 || (buffer[end] === "\r" && end === buffer.length - 1)) return;
      line(buffer.slice(0, end));
      buffer = buffer.slice(buffer[end] === "\r" && buffer[end + 1] === "\n" ? end + 2 : end + 1);
    }
  };
}

/** The last event of a stream the node ends (`EndReason`, protocol §12): its params say why, and where to resume. */
const END_NOTIFICATION = "neutralService_end";

/** Events kept on the page per stream: older ones are dropped from the list (the count stays). */
const MAX_SHOWN_EVENTS = 200;

/** The open stream of each form, to stop it. */
const streams = new Map<HTMLFormElement, AbortController>();

type StreamState = "idle" | "connecting" | "streaming" | "ended" | "error";

function streamState(form: HTMLFormElement, state: StreamState, text: string): void {
  const line = $(".try-stream-state", form);
  if (!line) return;
  line.dataset.state = state;
  line.textContent = text;
}

/** An event as the list shows it: the notification's method, its SSE id, and its params as JSON. */
function eventItem(event: SseEvent, received: Date): HTMLLIElement {
  let method = "";
  let shown = event.data;
  try {
    const json = JSON.parse(event.data) as { method?: unknown; params?: unknown };
    if (typeof json.method === "string") method = json.method;
    shown = JSON.stringify(json.params ?? null, null, 2);
  } catch {
    // not JSON: shown as it came
  }
  const head = el(
    "p",
    { className: "try-event-head" },
    el("code", { className: "try-event-method", text: method || `(${event.event})` }),
    el("span", { className: "note", text: `${event.id !== undefined ? ` · id ${event.id}` : " · no id"} · ${received.toLocaleTimeString()}` }),
  );
  const item = el("li", { className: "try-event" }, head, el("pre", {}, el("code", { className: "try-event-params", text: shown })));
  item.dataset.method = method;
  if (event.id !== undefined) item.dataset.id = event.id;
  return item;
}

/**
 * Opens the form's event stream: POSTs the request with `Accept: text/event-stream` and reads the
 * body as it arrives (fetch, not EventSource: that can neither POST nor set Authorization), each
 * event into the list. A refusal before the stream starts is a JSON-RPC error response, shown as such.
 */
async function openStream(form: HTMLFormElement): Promise<void> {
  const prepared = prepare(form, "text/event-stream");
  if (!prepared) return;
  const { request, headers, needsToken } = prepared;
  const submit = $<HTMLButtonElement>("button[type=submit]", form);
  const stop = $<HTMLButtonElement>(".try-stop", form);
  const list = $(".try-events", form);
  const abort = new AbortController();
  streams.get(form)?.abort();
  streams.set(form, abort);
  if (submit) submit.disabled = true;
  if (stop) stop.disabled = false;
  list?.replaceChildren();
  output(form);
  streamState(form, "connecting", "Connecting…");

  let count = 0;
  let keepAlives = 0;
  let lastId: string | undefined;
  let end: { reason?: unknown; message?: unknown; cursor?: unknown } | undefined;
  const streaming = () => {
    const counts = `${count} event${count === 1 ? "" : "s"}${keepAlives ? ` · ${keepAlives} keep-alive${keepAlives === 1 ? "" : "s"}` : ""}${lastId !== undefined ? ` · last id ${lastId}` : ""}`;
    streamState(form, "streaming", `Streaming: ${counts}.`);
  };
  try {
    const response = await fetch(new URL("/", location.origin), { method: "POST", headers, body: JSON.stringify(request), signal: abort.signal, cache: "no-store" });
    const type = response.headers.get("content-type") ?? "";
    const status = el("p", { className: `try-status ${response.ok ? "ok" : "failed"}`, text: `HTTP ${response.status} ${response.statusText}${type ? ` · ${type.split(";")[0]}` : ""}` });
    if (!type.startsWith("text/event-stream") || !response.body) {
      // Refused before the stream started: an ordinary JSON-RPC answer (or not JSON at all).
      const text = await response.text();
      let shown = text;
      let error: { code?: unknown; message?: unknown } | undefined;
      try {
        const json = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
        shown = JSON.stringify(json, null, 2);
        error = json.error;
      } catch {
        // not JSON: shown as it came
      }
      const nodes: Node[] = [status];
      if (needsToken && !session) nodes.push(el("p", { className: "note", text: "No token was sent: sign in under Try it first." }));
      nodes.push(el("pre", {}, el("code", { className: "try-response", text: shown })));
      output(form, ...nodes);
      streamState(
        form,
        "error",
        error
          ? `Refused: ${String(error.code)} ${String(error.message)} (HTTP ${response.status}).`
          : `Refused: HTTP ${response.status}, ${type.startsWith("application/json") ? "a JSON answer, not an event stream" : "and the answer is not JSON: is this page served by a neutralService relay?"}.`,
      );
      return;
    }
    output(form, status);
    streaming();
    const parse = sseParser(
      (event) => {
        count++;
        if (event.id !== undefined) lastId = event.id;
        const item = eventItem(event, new Date());
        if (item.dataset.method === END_NOTIFICATION) {
          try {
            end = ((JSON.parse(event.data) as { params?: typeof end }).params ?? {}) as typeof end;
          } catch {
            end = {};
          }
        }
        list?.append(item);
        while (list && list.children.length > MAX_SHOWN_EVENTS) list.firstElementChild?.remove();
        streaming();
      },
      () => {
        keepAlives++;
        streaming();
      },
    );
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parse(decoder.decode(value, { stream: true }));
    }
    parse(decoder.decode());
    const resume = end?.cursor !== undefined ? ` Resume after ${String(end.cursor)}.` : lastId !== undefined ? ` Resume after ${lastId}.` : "";
    streamState(
      form,
      "ended",
      end
        ? `Ended by the node: ${String(end.reason ?? "no reason")}${end.message !== undefined ? ` (${String(end.message)})` : ""}.${resume}`
        : `Ended: the node closed the stream after ${count} event${count === 1 ? "" : "s"}.${resume}`,
    );
  } catch (error) {
    if (abort.signal.aborted) {
      streamState(form, "ended", `Ended: stopped (you pressed Stop) after ${count} event${count === 1 ? "" : "s"}.${lastId !== undefined ? ` Resume after ${lastId}.` : ""}`);
    } else {
      streamState(form, "error", `${count === 0 ? "Could not reach the relay" : "The connection was lost"}: ${(error as Error).message}`);
    }
  } finally {
    if (streams.get(form) === abort) streams.delete(form);
    if (submit) submit.disabled = false;
    if (stop) stop.disabled = true;
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
    const stream = form.dataset.stream === "true";
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void (stream ? openStream(form) : send(form));
    });
    if (stream) $<HTMLButtonElement>(".try-stop", form)?.addEventListener("click", () => streams.get(form)?.abort());
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
