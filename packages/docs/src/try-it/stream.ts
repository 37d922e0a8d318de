// The Try it of a method answered as an event stream (`x-subscription`): each event shown as it
// arrives, with the stream's state, until the node ends the stream or Stop aborts it.
// The SSE parser is @neutral/client's, bundled from its source: the docs cannot depend on the client
// package (the client's tests depend on the relay, which serves these docs).
import { readSse, type SseEvent } from "@neutral/protocol";
import { $, el } from "./dom.js";
import { answerBody, noTokenNote, output, responseBlock, statusLine } from "./render.js";
import { prepare } from "./request.js";
import { currentSession } from "./session.js";

/** The last event of a stream the node ends (`EndReason`, protocol §12): its params say why, and where to resume. */
const END_NOTIFICATION = "neutralService_end";

/** Events kept on the page per stream: older ones are dropped from the list (the count stays). */
const MAX_SHOWN_EVENTS = 200;

/** The open stream of each form, to stop it. */
export const streams = new Map<HTMLFormElement, AbortController>();

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
    el("code", { className: "try-event-method", text: method || `(${event.event ?? "message"})` }),
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
export async function openStream(form: HTMLFormElement): Promise<void> {
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
    const status = statusLine(response, type ? ` · ${type.split(";")[0]}` : "");
    if (!type.startsWith("text/event-stream") || !response.body) {
      // Refused before the stream started: an ordinary JSON-RPC answer (or not JSON at all).
      const { shown, json } = answerBody(await response.text());
      const error = (json as { error?: { code?: unknown; message?: unknown } } | null | undefined)?.error;
      const nodes: Node[] = [status];
      if (needsToken && !currentSession()) nodes.push(noTokenNote());
      nodes.push(responseBlock(shown));
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
    const keepAlive = () => {
      keepAlives++;
      streaming();
    };
    for await (const event of readSse(response.body, { onComment: keepAlive })) {
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
    }
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
