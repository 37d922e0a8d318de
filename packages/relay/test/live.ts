// Test support for live delivery: a subscriber that reads a relay's event stream into an array.
import { call, type RunningRelay } from "../testing/index.js";
import type { TestWallet } from "./wallets.js";

export interface LiveEvent {
  /** The SSE id (message events only). */
  id?: string;
  method: string;
  params: Record<string, unknown>;
}

export interface Stream {
  readonly status: number;
  /** The events so far. */
  readonly events: LiveEvent[];
  /** The ids of the message events so far, in arrival order. */
  ids(): string[];
  /** Keep-alive comments seen. */
  readonly comments: number;
  /** Settles when the body ends: "ended" (the node ended it), "cut" (the connection failed), "closed" (we closed it). */
  readonly done: Promise<"ended" | "cut" | "closed">;
  /** Resolves once `condition` holds of the events (checked at every event), or rejects after `timeoutMs`. */
  until(condition: (events: LiveEvent[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Closes the stream from this side. */
  close(): void;
  /** The JSON body when the node refused to open a stream. */
  readonly refusal?: { error: { code: number; message: string; data?: Record<string, unknown> } };
}

export interface SubscribeOptions {
  after?: string;
  filter?: Record<string, unknown>;
  /** The params exactly as sent (by position or by name); wins over `after` and `filter`. */
  params?: unknown;
  lastEventId?: string;
  headers?: Record<string, string>;
  /**
   * Gives up (rejects) when the answer's headers have not come within this many ms. Unset: waits as
   * long as the connection lives. A connection the node accepted as a worker died can stay open
   * with nobody serving it; a subscriber that reconnects around such deaths needs a deadline.
   */
  headersTimeoutMs?: number;
}

/** Opens `neutralService_subscribe` on `url` and reads it in the background. */
export async function subscribe(url: string, token: string, options: SubscribeOptions = {}): Promise<Stream> {
  const abort = new AbortController();
  const params = options.params ?? { ...(options.filter && { filter: options.filter }), ...(options.after !== undefined && { after: options.after }) };
  const headersDeadline =
    options.headersTimeoutMs === undefined
      ? undefined
      : setTimeout(() => abort.abort(new Error(`no answer headers within ${options.headersTimeoutMs} ms`)), options.headersTimeoutMs);
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      authorization: `Bearer ${token}`,
      ...(options.lastEventId !== undefined && { "last-event-id": options.lastEventId }),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_subscribe", params }),
    signal: abort.signal,
  }).finally(() => clearTimeout(headersDeadline));
  const events: LiveEvent[] = [];
  const waiters = new Set<() => void>();
  let comments = 0;
  const isStream = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  const refusal = isStream ? undefined : ((await response.json()) as Stream["refusal"]);
  let closedHere = false;

  const read = async (): Promise<"ended" | "cut" | "closed"> => {
    if (!isStream) return "ended";
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return "ended";
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id: string | undefined;
          let data: string | undefined;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments++;
            else if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("data: ")) data = line.slice(6);
          }
          if (data === undefined) continue;
          const json = JSON.parse(data) as { method: string; params: Record<string, unknown> };
          events.push({ ...(id !== undefined && { id }), method: json.method, params: json.params });
        }
        for (const wake of waiters) wake();
      }
    } catch {
      return closedHere ? "closed" : "cut";
    } finally {
      for (const wake of waiters) wake();
    }
  };
  let finished = false;
  const done = read().then((outcome) => {
    finished = true;
    for (const wake of waiters) wake();
    return outcome;
  });

  return {
    status: response.status,
    events,
    ids: () => events.filter((event) => event.method === "neutralService_message").map((event) => event.id!),
    get comments() {
      return comments;
    },
    done,
    ...(refusal && { refusal }),
    until(condition, timeoutMs = 20_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (condition(events)) {
            cleanup();
            resolve();
          } else if (finished) {
            cleanup();
            reject(new Error(`the stream ended before the condition held (${events.length} events; last: ${JSON.stringify(events.at(-1))})`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out after ${timeoutMs} ms with ${events.length} events (last: ${JSON.stringify(events.at(-1))})`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close() {
      closedHere = true;
      abort.abort();
    },
  };
}

/** Sends `count` messages from `from` to `to` through `relay`, `inFlight` at a time; resolves with their ids in send order. */
export async function sendMany(relay: Pick<RunningRelay, "url">, from: TestWallet, token: string, to: string, count: number, inFlight = 8): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const signed = await from.sign({ to, message: index.toString(16).padStart(8, "0") });
      for (let attempt = 0; ; attempt++) {
        let answer: Awaited<ReturnType<typeof call>> | undefined;
        try {
          answer = await call(relay.url, "neutralService_sendMessage", [signed], token);
        } catch (error) {
          // The node is being killed and restarted under the test: resend (the same signed message is stored once).
          if (attempt >= 300) throw error;
        }
        // A database connection lost under the test answers -32603: the resend is stored once.
        const internal = (answer?.body as { error?: { code?: number } } | undefined)?.error?.code === -32603;
        if (internal && attempt >= 300) throw new Error(`send failed: ${answer!.text.slice(0, 300)}`);
        if (answer !== undefined && answer.status < 500 && !internal) {
          if (answer.status !== 200 || answer.body?.error !== undefined) throw new Error(`send failed: ${answer.status} ${answer.text.slice(0, 300)}`);
          ids[index] = (answer.body.result[0] as { id: string }).id;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return ids;
}

/** Asserts `ids` are strictly increasing, i.e. in id order with none twice. */
export function inIdOrder(ids: readonly string[]): boolean {
  return ids.every((id, i) => i === 0 || BigInt(id) > BigInt(ids[i - 1]!));
}
