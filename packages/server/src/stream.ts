import type { ServerResponse } from "node:http";
import { RawJson } from "./raw-json.js";

// Methods with `x-subscription` answer an event stream: the handler returns an async iterable of
// JSON-RPC notifications and this module sends them as Server-Sent Events (the pattern of MCP's
// Streamable HTTP transport), pulling the next one only while the client keeps up.

/** A JSON-RPC notification as a generated `…Notification` type describes it. */
export interface NotificationShape {
  method: string;
  params: unknown;
}

/**
 * One event of a stream: a notification of the method's `x-subscription`, with its SSE `id` (the
 * resume cursor, for notifications that have one). `params` may be pre-serialized (`rawJson`).
 */
export type StreamEvent<N extends NotificationShape = NotificationShape> = N extends NotificationShape
  ? { readonly id?: string; readonly method: N["method"]; readonly params: N["params"] | RawJson<N["params"]> }
  : never;

/** What a subscription handler returns. */
export type EventStream<N extends NotificationShape = NotificationShape> = AsyncIterable<StreamEvent<N>>;

/** The context of a subscription handler: the request's, plus the stream's lifetime. */
export type StreamContext<Ctx> = Ctx & {
  /** Aborted when the stream ends for any reason not the handler's own: the client left, it read too slowly, the server closed it. Stop producing then. */
  readonly signal: AbortSignal;
  /** The request's `Last-Event-ID` header (what a reconnecting EventSource sends), as received. */
  readonly lastEventId?: string;
};

/** Why the HTTP glue itself ends a stream. */
export type StreamEndReason = "slow-consumer";

export interface StreamOptions {
  /** A comment line (`: keep-alive`) is sent when nothing else was for this long, ms. Default 15,000. */
  keepAliveMs?: number;
  /** Bytes of events waiting for the client to read before the handler is asked for more. Default 64 KiB. */
  bufferBytes?: number;
  /**
   * The window over which a client that is behind must keep up, ms: while events wait for it (the
   * buffer at `bufferBytes`), it must take at least `bufferBytes` in every window of this length,
   * else the stream is ended as a slow consumer. (Not restarted at each drain: a client reading a
   * little now and then cannot keep a stream alive that it does not read.) Default 30,000.
   */
  stallMs?: number;
  /** The last event of a stream the glue ends itself (with the last SSE id sent); absent or `undefined`: it just ends. */
  endEvent?: (reason: StreamEndReason, lastId: string | undefined) => StreamEvent | undefined;
}

/** The text of one SSE event carrying a notification. */
export function eventText(event: StreamEvent): string {
  return eventParts(event).join("");
}

/**
 * One SSE event as the text before its params, the params' JSON, and the text after: written as
 * three pieces, a big event (a 64 KiB message is ~130 KB of JSON) is not copied once more into a
 * string of its own.
 */
function eventParts(event: StreamEvent): [string, string, string] {
  const params = event.params instanceof RawJson ? event.params.json : JSON.stringify(event.params);
  // An id is one line: one with a line break or NUL would be ignored by the client's parser.
  const id = event.id !== undefined && !/[\r\n\0]/.test(event.id) ? `id: ${event.id}\n` : "";
  return [`${id}data: {"jsonrpc":"2.0","method":${JSON.stringify(event.method)},"params":`, params, "}\n\n"];
}

const KEEP_ALIVE = ": keep-alive\n\n";

/** An event up to this many characters is written as one string (`sendEventStream`'s `write`). */
const SMALL_EVENT = 16 * 1024;

/** An open stream, as the keep-alive timer sees it. */
interface KeepAlive {
  readonly response: ServerResponse;
  lastWrite: number;
}

/**
 * One timer per keep-alive interval for all the process's streams (not one per stream: ten thousand
 * idle streams would be ten thousand timers and their closures).
 */
const keepAlives = new Map<number, { streams: Set<KeepAlive>; timer: NodeJS.Timeout }>();

function keepAlive(stream: KeepAlive, intervalMs: number): () => void {
  let group = keepAlives.get(intervalMs);
  if (!group) {
    const streams = new Set<KeepAlive>();
    const timer = setInterval(() => {
      const now = performance.now();
      for (const open of streams) {
        if (now - open.lastWrite < intervalMs * 0.9 || open.response.writableLength > 0) continue;
        open.lastWrite = now;
        open.response.write(KEEP_ALIVE);
      }
    }, intervalMs);
    timer.unref();
    keepAlives.set(intervalMs, (group = { streams, timer }));
  }
  const { streams, timer } = group;
  streams.add(stream);
  return () => {
    streams.delete(stream);
    if (streams.size > 0) return;
    clearInterval(timer);
    keepAlives.delete(intervalMs);
  };
}

/**
 * Where a stream's memory is counted (the HTTP glue's `heldBytes`): the bytes of events waiting for
 * the client, and whether the stream is waiting on its client (then it may be dropped to make room).
 */
export interface StreamHold {
  /** The stream now holds `bytes` of unsent events. */
  resize(bytes: number): void;
  /** The stream waits on its client (true) or not (false). */
  waiting(on: boolean): void;
}

/**
 * Sends `events` on `response` as an event stream until the iterable ends, the client goes away, or
 * the client does not keep up (`StreamOptions.stallMs`; then `endEvent("slow-consumer")` goes last).
 * `abort` is aborted once the stream is over for a reason not the iterable's own; the caller aborts
 * it when `response` closes. What waits for the client is counted in `hold`. Resolves when the
 * stream is over; never rejects (an iterable that throws ends the stream, and the error goes to `onError`).
 */
export function sendEventStream(
  response: ServerResponse,
  events: AsyncIterable<StreamEvent>,
  abort: AbortController,
  headers: Record<string, string>,
  options: StreamOptions,
  onError: (error: unknown) => void,
  hold?: StreamHold,
): Promise<void> {
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const bufferBytes = options.bufferBytes ?? 64 * 1024;
  const stallMs = options.stallMs ?? 30_000;
  const { signal } = abort;
  const iterator = events[Symbol.asyncIterator]();
  let lastId: string | undefined;
  const alive: KeepAlive = { response, lastWrite: performance.now() };
  /**
   * What was written, counted as `writableLength` counts it (string length: events are JSON, in
   * practice ASCII); less what still waits in `response`, what the client (its kernel) has taken.
   */
  let written = 0;
  const taken = () => written - response.writableLength;
  const write = (...texts: string[]) => {
    alive.lastWrite = performance.now();
    const length = texts.reduce((sum, text) => sum + text.length, 0);
    written += length;
    // A small event as one string, one chunk: cheaper to write than pieces under cork. A big one in
    // its pieces, so that its params are not copied again.
    if (texts.length === 1 || length <= SMALL_EVENT) response.write(texts.length === 1 ? texts[0]! : texts.join(""));
    else {
      response.cork();
      for (const text of texts) response.write(text);
      response.uncork();
    }
    hold?.resize(response.writableLength);
  };

  // `connection: close`: a stream holds its connection to the end, and a client that stopped
  // reading cannot take another answer on it anyway.
  response.writeHead(200, { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no", connection: "close" });
  response.flushHeaders();
  const stopKeepAlive = keepAlive(alive, keepAliveMs);

  /** The window the client, while behind, must keep up over: when it started, and what it had taken then. */
  let window: { start: number; takenAtStart: number } | undefined;

  /** Resolves at the next drain ("drained"), at `deadline` ("deadline"), or when the stream is aborted ("aborted"). */
  const drainOrDeadline = (deadline: number): Promise<"drained" | "deadline" | "aborted"> =>
    new Promise((resolve) => {
      const finish = (outcome: "drained" | "deadline" | "aborted") => {
        clearTimeout(timer);
        response.off("drain", onDrain);
        signal.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      const onDrain = () => finish("drained");
      const onAbort = () => finish("aborted");
      const timer = setTimeout(() => finish("deadline"), Math.max(0, deadline - performance.now()));
      response.once("drain", onDrain);
      signal.addEventListener("abort", onAbort, { once: true });
    });

  /**
   * Waits until the client has taken what waits for it: true then, false when it did not keep up
   * (took less than `bufferBytes` in a window of `stallMs` while behind) or left.
   */
  const caughtUp = async (): Promise<boolean> => {
    hold?.waiting(true);
    try {
      for (;;) {
        window ??= { start: performance.now(), takenAtStart: taken() };
        const outcome = await drainOrDeadline(window.start + stallMs);
        if (outcome === "aborted") return false;
        hold?.resize(response.writableLength);
        if (outcome === "drained") return true;
        if (taken() - window.takenAtStart < bufferBytes) return false;
        window = { start: performance.now(), takenAtStart: taken() }; // it kept up: judged again over the next window
      }
    } finally {
      hold?.waiting(false);
    }
  };

  /** Writes the event; keeps its id. Nothing of it is kept here once written: while the client is waited for, only the response's buffer holds it. */
  const send = (event: StreamEvent) => {
    write(...eventParts(event));
    if (event.id !== undefined) lastId = event.id;
  };

  // Callbacks, not an async loop: a stream waits seconds for its next event, and whatever that wait
  // holds outlives two scavenges and is promoted. Waiting here holds the handler's promise and one
  // reaction to it; an async loop awaiting a race against the abort held a dozen objects more,
  // about 1 KB a wake-up of a stream (the relay's bench/HISTORY.md, issue 38).
  return new Promise<void>((done) => {
    let over = false;
    /** The handler's next event is awaited: an abort ends the stream at once, without waiting for it. */
    let pulling = false;
    const end = () => {
      if (over) return;
      over = true;
      pulling = false;
      signal.removeEventListener("abort", onAbort);
      stopKeepAlive();
      if (!signal.aborted) abort.abort();
      // A generator suspended in an await finishes its return at its next step: do not wait for it.
      try {
        iterator.return?.().catch(onError);
      } catch (error) {
        onError(error);
      }
      if (!response.destroyed) response.end();
      done();
    };
    const fail = (error: unknown) => {
      if (over) return;
      onError(error);
      end();
    };
    const onAbort = () => {
      if (pulling) end();
    };
    /** The client did not keep up: it is told so last, and the handler is stopped. */
    const endSlow = () => {
      abort.abort();
      const last = options.endEvent?.("slow-consumer", lastId);
      if (last) write(eventText(last));
      end();
    };
    const onNext = (next: IteratorResult<StreamEvent>) => {
      if (over) return;
      pulling = false;
      if (signal.aborted || next.done) return end();
      try {
        // The client took everything and its window ran out while the handler had nothing to send:
        // it is not behind. (Not at every drain: a client that drains now and then must still keep up.)
        if (window && response.writableLength === 0 && performance.now() - window.start >= stallMs) window = undefined;
        send(next.value);
      } catch (error) {
        return fail(error);
      }
      if (response.writableLength < bufferBytes) return pull();
      caughtUp().then((kept) => (kept ? pull() : signal.aborted ? end() : endSlow()), fail);
    };
    /** Asks the handler for its next event, unless the stream is over. */
    const pull = () => {
      if (over) return;
      if (signal.aborted) return end();
      pulling = true;
      let next: Promise<IteratorResult<StreamEvent>>;
      try {
        next = iterator.next();
      } catch (error) {
        return fail(error);
      }
      next.then(onNext, fail);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    pull();
  });
}
