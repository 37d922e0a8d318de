// Live delivery for the SDK: `neutralService_subscribe` (openrpc.json `x-subscription`) turned into one
// endless iteration of decrypted, checked messages that survives cut connections, node restarts and
// every end reason, resuming after the last id it yielded (the node resends nothing before it and
// skips nothing after it).
import { JSON_RPC_ERRORS, MESSAGE_ID_PATTERN } from "@neutral/protocol";
import { NeutralError } from "./errors.js";
import { errors } from "./generated/errors.js";
import { getInboxRequest, type NeutralServiceClient } from "./generated/methods.js";
import type { Direction, EndReason, Message, NodeInfo, SubscribeFilter } from "./generated/types.js";
import type { MailboxProblem } from "./mailbox-proof.js";
import type { DecryptedMessage } from "./messages.js";
import { RpcError, RpcTransportError } from "./rpc.js";
import { pause } from "./utils/pause.js";

/** Why a stream stopped before `live()` was done with it. */
export type LiveInterruption =
  /** The node ended the stream (`neutralService_end`): the token expired, it is stopping, this client read too slowly, the account opened more streams than the node allows, or the node, at its stream bound, made room for another client address. */
  | { kind: "ended"; reason: EndReason; message: string }
  /** The stream stopped without an end event: the connection was closed, or the node (or the worker serving it) died. */
  | { kind: "cut" }
  /**
   * Connecting or reading failed: `RpcTransportError` (no answer, a connection reset, a stream silent
   * for longer than two keep-alive intervals) or an `RpcError` worth retrying (-32029 busy, HTTP 5xx,
   * a token the node refused, retried once with a fresh one).
   */
  | { kind: "error"; error: RpcError | RpcTransportError };

/** Where a live stream is, for a UI. In order: connecting, live, then reconnecting → connecting → live after each interruption. */
export type LiveState =
  /** Opening a stream; `attempt` counts the attempts since the start or since the stream was last live (1 first). */
  | { state: "connecting"; attempt: number }
  /** Caught up: every message up to `cursor` (a message id, "0" for none) has been yielded, and new ones arrive as they are stored. */
  | { state: "live"; cursor: string }
  /** Interrupted by `cause`; attempt number `attempt` (counted as by "connecting") starts after `delayMs`. */
  | { state: "reconnecting"; attempt: number; delayMs: number; cause: LiveInterruption };

interface LiveBaseOptions {
  /** Aborting it ends the iteration (without an error) and closes the HTTP stream. */
  signal?: AbortSignal;
  /**
   * Where to start (exclusive), a message id: every message after it, then live. Pass the last id an
   * app has seen (kept from a previous run) to catch up on what it missed since, then go on live;
   * `"0"` streams the whole mailbox first. Default: only messages newer than the newest one when the
   * iteration starts.
   */
  after?: string;
  /** Only messages whose timestamp is at or after this, ms since the epoch. */
  since?: number;
  /** Only messages whose timestamp is before this, ms since the epoch. */
  until?: number;
  /** Called with each connection state, in order (see `LiveState`). An exception it throws ends the iteration. */
  onState?: (state: LiveState) => void;
  /**
   * Called when a message this account sent that was yielded as "pending" (to an account homed on
   * another node) settles: with the sender's copy as it reads now, `status` "delivered" (both
   * receipts, checked) or "failed" (with `reason`). Only streams that select sent messages see
   * them (`direction` "sent" or "all", or `chat`). After a reconnection, the messages still pending
   * are looked up once (a status that changed while disconnected is not replayed). Each message is
   * reported once.
   */
  onStatus?: (message: DecryptedMessage) => void;
  /**
   * The verifiable mailbox (with `verify`, the default): called with what the node failed to prove
   * of the messages about to be yielded (each problem naming its kind, and its position and message
   * where it has them), before they are yielded marked `proven: false`. Messages are proven before
   * they are yielded: while the stream catches up, up to 100 at a time; once live, each as it arrives.
   */
  onMailboxProblems?: (problems: MailboxProblem[]) => void;
  /** The first reconnection delay, ms (default 250); it doubles with each failed attempt, up to `maxDelayMs`, with jitter (each delay is 50–100 % of that). */
  minDelayMs?: number;
  /** The longest reconnection delay, ms (default 10 000). */
  maxDelayMs?: number;
}

/** `live()`'s options: the inbox's filter (`from`, `direction`) or one chat (`chat`: both directions with that peer), a start, callbacks. */
export type LiveOptions = LiveBaseOptions &
  (
    | {
        /** Only messages from this sender. */
        from?: string;
        /** "received" (default), "sent", or "all". */
        direction?: Direction;
        chat?: undefined;
      }
    | {
        /** Both directions of the chat with this peer. */
        chat: string;
        from?: undefined;
        direction?: undefined;
      }
  );

/** What `live()` needs of the session. */
export interface LiveSession {
  /** The typed client with the session's token. */
  client: NeutralServiceClient;
  /** Signs in, publishes the account's home and key (as every call does first). */
  ready(): Promise<void>;
  /** Forgets the current token: the next request signs a new one. */
  renewToken(): void;
  decode(message: Message): Promise<DecryptedMessage>;
  nodeInfo(): Promise<NodeInfo>;
  /**
   * Proves that the node's log holds `messages` at positions of a head consistent with the last one
   * this device verified (the SDK's `proveMessages`); absent with `verify: false`: nothing is proven.
   */
  prove?(messages: readonly Message[]): Promise<{ problems: MailboxProblem[] }>;
}

const DEFAULT_MIN_DELAY_MS = 250;
const DEFAULT_MAX_DELAY_MS = 10_000;
/** The spec's longest keep-alive interval (`limits.keepAliveMs` is at most this). */
const MAX_KEEP_ALIVE_MS = 15_000;
/** Pending sent messages remembered for `onStatus` (the oldest are dropped past it). */
const MAX_PENDING = 1_000;
/** Settled message ids remembered so that none is reported twice. */
const MAX_REPORTED = 1_000;
/** Messages proven with one request while a stream catches up (openrpc.json `neutralService_getProof`: at most 100 ids). */
const PROOF_BATCH = 100;

/** Whether message id `a` comes after `b` (decimal strings without leading zeros). */
const isAfter = (a: string, b: string) => (a.length !== b.length ? a.length > b.length : a > b);

/** Rejects with the signal's reason as soon as it aborts (a sign-in or a decode may not watch the signal itself). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** Adds `id` to `set`, dropping the oldest entry past `max`. */
function remember(set: Set<string>, id: string, max: number): void {
  set.add(id);
  if (set.size > max) set.delete(set.values().next().value!);
}

/** What to do after a failure: retry (after at least `afterMs`, the node's `retryAfter`), or give up (rethrow). */
function retryDelay(error: unknown): { retry: false } | { retry: true; afterMs?: number } {
  if (error instanceof RpcTransportError) {
    // An HTTP answer that is not JSON-RPC: a proxy's 502/503 passes, a 404 or 406 (no such endpoint, no streams) will not.
    const status = error.status;
    return status === undefined || status >= 500 || status === 408 || status === 429 ? { retry: true } : { retry: false };
  }
  if (!(error instanceof RpcError)) return { retry: false };
  if (error.code === errors.RateLimited.code) {
    const seconds = typeof error.data === "object" && error.data !== null ? (error.data as { retryAfter?: unknown }).retryAfter : undefined;
    return { retry: true, ...(typeof seconds === "number" && seconds > 0 && { afterMs: seconds * 1000 }) };
  }
  if (error.code === JSON_RPC_ERRORS.InternalError.code || (error.status ?? 0) >= 500) return { retry: true };
  return { retry: false };
}

/**
 * The messages `filter` selects, decrypted and checked, in id order, each once: first those after
 * `options.after` (default: after the newest message at start), then each new one as it is stored.
 */
export async function* liveMessages(session: LiveSession, filter: SubscribeFilter, options: LiveOptions): AsyncGenerator<DecryptedMessage> {
  const { signal, onState, onStatus } = options;
  const minDelay = Math.max(1, options.minDelayMs ?? DEFAULT_MIN_DELAY_MS);
  const maxDelay = Math.max(minDelay, options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
  const { client } = session;
  const call = { ...(signal && { signal }) };
  const start = options.after;
  /** The last message id yielded (or the start): the stream resumes after it. */
  let cursor = start;
  /** Interruptions since the stream was last live: the backoff's exponent. */
  let failures = 0;
  /** Connection attempts since the start or since the stream was last live. */
  let attempts = 0;
  /** A token the node refused was renewed, and nothing has worked since. */
  let renewed = false;
  let resumed = false;
  /** Sent messages yielded as pending, for `onStatus`. */
  const pending = new Set<string>();
  /** Messages whose settled status `onStatus` was given. */
  const reported = new Set<string>();

  const report = async (raw: Message) => {
    if (reported.has(raw.id) || !onStatus) return;
    remember(reported, raw.id, MAX_REPORTED);
    pending.delete(raw.id);
    onStatus(await unlessAborted(session.decode(raw), signal));
  };

  /** Status changes are not replayed on resume: looks up the pending messages once the new stream is live. */
  const recheckPending = async () => {
    const ids = [...pending];
    const size = Math.max(1, Math.min(20, (await session.nodeInfo()).limits.maxBatch));
    for (let i = 0; i < ids.length; i += size) {
      const chunk = ids.slice(i, i + size);
      const pages = await client.rpc.batch(
        chunk.map((id) => getInboxRequest({ inboxFilter: { direction: "sent" }, after: (BigInt(id) - 1n).toString(), limit: 1 })),
        call,
      );
      for (const [index, page] of pages.entries()) {
        if (!page.ok) throw page.error;
        const stored = page.value.data[0];
        if (stored === undefined || stored.id !== chunk[index]) pending.delete(chunk[index]!); // no longer there: nothing to wait for
        else if (stored.status !== "pending") await report(stored);
      }
    }
  };

  /** Messages streamed but not yet yielded: proven together first (`session.prove`). */
  let held: Message[] = [];
  /** Yields the held messages in order, decoded and (with `session.prove`) proven; the cursor follows. */
  async function* release(): AsyncGenerator<DecryptedMessage> {
    if (held.length === 0) return;
    const batch = held;
    held = [];
    const messages = [];
    for (const raw of batch) messages.push(await unlessAborted(session.decode(raw), signal));
    if (session.prove) {
      const { problems } = await unlessAborted(session.prove(batch), signal);
      // A problem of the head (forged, rollback, fork) leaves no message proven; the others, theirs.
      const headProblem = problems.some((problem) => problem.id === undefined);
      const failed = new Set(problems.map((problem) => problem.id));
      for (const message of messages) message.proven = !headProblem && !failed.has(message.id);
      if (problems.length > 0) options.onMailboxProblems?.(problems);
    }
    for (const message of messages) {
      cursor = message.id;
      if (onStatus && message.direction === "sent" && message.status === "pending") remember(pending, message.id, MAX_PENDING);
      yield message;
    }
  }

  for (;;) {
    onState?.({ state: "connecting", attempt: ++attempts });
    let cause: LiveInterruption;
    /** The node's `retryAfter`, ms; 0: retry at once. */
    let afterMs: number | undefined;
    try {
      await unlessAborted(session.ready(), signal);
      if (cursor === undefined) {
        // Everything newer than the mailbox's newest message: the stream walks on from it, so a
        // message stored between this call and the subscription is not missed.
        const newest = await client.getInbox({ inboxFilter: { direction: "all" }, limit: 1 }, call);
        cursor = newest.data[0]?.id ?? "0";
      }
      const { keepAliveMs } = (await unlessAborted(session.nodeInfo(), signal)).limits;
      const events = client.subscribe(
        { filter, after: start ?? cursor },
        { ...call, lastEventId: cursor, idleTimeoutMs: 2 * Math.min(keepAliveMs ?? MAX_KEEP_ALIVE_MS, MAX_KEEP_ALIVE_MS) + 5_000 },
      );
      let ended: Extract<LiveInterruption, { kind: "ended" }> | undefined;
      /** Whether this stream has caught up: each message is then proven (and yielded) as it arrives. */
      let caughtUp = false;
      for await (const event of events) {
        if (event.method === "neutralService_message") {
          const raw = event.params.message;
          if (!MESSAGE_ID_PATTERN.test(raw.id) || raw.id === "0") throw new NeutralError("PROTOCOL_ERROR", "The node streamed a message without a valid id");
          const last = held.at(-1)?.id ?? cursor;
          if (!isAfter(raw.id, last)) continue; // sent already
          held.push(raw);
          if (caughtUp || !session.prove || held.length >= PROOF_BATCH) yield* release();
          continue;
        }
        yield* release();
        if (event.method === "neutralService_caughtUp") {
          caughtUp = true;
          const at = event.params.cursor;
          // The node may have walked past messages the filter does not select.
          if (at !== undefined && MESSAGE_ID_PATTERN.test(at) && isAfter(at, cursor)) cursor = at;
          failures = 0;
          attempts = 0;
          renewed = false;
          onState?.({ state: "live", cursor });
          if (resumed && onStatus && pending.size > 0) await recheckPending();
          resumed = true;
        } else if (event.method === "neutralService_status") {
          await report(event.params.message);
        } else if (event.method === "neutralService_end") {
          const { reason, message, cursor: at } = event.params;
          if (at !== undefined && MESSAGE_ID_PATTERN.test(at) && isAfter(at, cursor)) cursor = at;
          ended = { kind: "ended", reason, message };
          break;
        }
      }
      if (signal?.aborted) return;
      // What arrived before the stream stopped is yielded (proven) before reconnecting after it.
      yield* release();
      cause = ended ?? { kind: "cut" };
      if (ended?.reason === "token-expired") session.renewToken();
    } catch (error) {
      // Messages not yielded yet come again after the cursor, on the next stream.
      held = [];
      if (signal?.aborted) return;
      if (error instanceof RpcError && error.code === errors.Unauthorized.code) {
        // An expired token, or clocks that disagree: once with a fresh token, then it is the account's problem.
        if (renewed) throw error;
        renewed = true;
        session.renewToken();
        cause = { kind: "error", error };
        afterMs = 0;
      } else {
        const verdict = retryDelay(error);
        if (!verdict.retry) throw error;
        cause = { kind: "error", error: error as RpcError | RpcTransportError };
        afterMs = verdict.afterMs;
      }
    }
    failures++;
    const backoff = Math.min(maxDelay, minDelay * 2 ** Math.min(failures - 1, 30));
    // A stream that was live and ended because its token expired comes back at once, with a new one.
    if (failures === 1 && cause.kind === "ended" && cause.reason === "token-expired") afterMs = 0;
    // Another stream took this one's place (more than the node allows of this account are open, or
    // the node is at its stream bound): coming straight back would end that one in turn, and so on.
    // Wait as long as the backoff allows.
    if (cause.kind === "ended" && cause.reason === "limit") afterMs = Math.max(afterMs ?? 0, maxDelay / 2);
    const delayMs = afterMs === 0 ? 0 : Math.max(afterMs ?? 0, Math.round(backoff * (0.5 + Math.random() / 2)));
    onState?.({ state: "reconnecting", attempt: attempts + 1, delayMs, cause });
    await pause(delayMs, signal).catch(() => undefined); // rejects only when aborted: the stream ends here
    if (signal?.aborted) return;
  }
}
