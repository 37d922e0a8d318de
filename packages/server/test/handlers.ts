// Small in-memory handlers for the stub's own tests (test support: never built nor shipped).
import type { RequestContext } from "../src/context.js";
import { RpcError, ErrorCode } from "../src/errors.js";
import type { Handlers, HomeRecord, KeyBundle, Message, SubscribeNotification } from "../src/neutral-service.js";
import type { StreamEvent } from "../src/stream.js";

export interface TestContext extends RequestContext<{ address: string }> {}

export const alice = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
export const bob = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
export const sig = (fill: string) => `0x${fill.repeat(130).slice(0, 130)}`;

export function message(id: number, from = alice, to = bob): Message {
  return { id: String(id), message: "abcd", from, to, signature: sig("1"), sender_receipt: sig("2"), receiver_receipt: sig("3"), timestamp: 1_700_000_000_000 + id };
}

/**
 * What the test subscription streams: `stored` first (those after the cursor), then whatever is
 * `push`ed; `endAfterCatchUp` makes it end by itself after the caught-up event.
 */
export class TestFeed {
  readonly stored: Message[] = [1, 2, 3].map((id) => message(id));
  /** Streams open now. */
  open = 0;
  endAfterCatchUp = false;
  /** Sees each message event the stream yields (to watch what is kept of it). */
  onEvent: ((event: object, id: string) => void) | undefined;
  #waiters = new Set<() => void>();

  push(...messages: Message[]): void {
    this.stored.push(...messages);
    for (const wake of this.#waiters) wake();
  }

  /** Resolves at the next push, or when `signal` aborts. */
  next(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.#waiters.delete(wake);
        signal.removeEventListener("abort", wake);
        resolve();
      };
      this.#waiters.add(wake);
      signal.addEventListener("abort", wake, { once: true });
    });
  }
}

/** Records the args each handler saw, so tests can check normalization. */
export function createTestHandlers() {
  const calls: { method: string; args: unknown; auth: unknown }[] = [];
  const feed = new TestFeed();
  const keys = new Map<string, KeyBundle>();
  const homes = new Map<string, HomeRecord>();
  const handlers: Handlers<TestContext> = {
    neutralService_getInbox(args, context) {
      calls.push({ method: "neutralService_getInbox", args, auth: context.auth });
      if (args.after === "666") throw new Error("SELECT * FROM secret_table -- boom");
      return { address: context.auth.address, data: [message(2), message(1)].slice(0, args.limit), end: true };
    },
    neutralService_getChat(args, context) {
      calls.push({ method: "neutralService_getChat", args, auth: context.auth });
      if (!args.inboxFilter.chat) throw RpcError.invalidParams("inboxFilter.chat", "names no chat: the user has none");
      return { id: args.inboxFilter.chat.toLowerCase(), data: [], end: true };
    },
    async neutralService_sendMessage(args, context) {
      calls.push({ method: "neutralService_sendMessage", args, auth: context.auth });
      if (args.message.from.toLowerCase() !== context.auth.address) throw new RpcError(ErrorCode.Forbidden, "Forbidden: from is not the caller");
      return { ...args.message, id: "7", message: args.message.message.toLowerCase(), sender_receipt: sig("a"), receiver_receipt: sig("b") };
    },
    neutralService_publishKey(args, context) {
      calls.push({ method: "neutralService_publishKey", args, auth: context.auth });
      const account = args.bundle.account.toLowerCase();
      if (account !== context.auth.address) throw new RpcError(ErrorCode.Forbidden, "Forbidden: account is not the caller");
      const current = keys.get(account);
      if (!current || args.bundle.timestamp > current.timestamp) keys.set(account, { ...args.bundle, account, key: args.bundle.key.toLowerCase() });
      return keys.get(account)!;
    },
    neutralService_getKey(args, context) {
      calls.push({ method: "neutralService_getKey", args, auth: context.auth });
      return keys.get(args.account.toLowerCase()) ?? null;
    },
    neutralService_publishHome(args, context) {
      calls.push({ method: "neutralService_publishHome", args, auth: context.auth });
      const account = args.record.account.toLowerCase();
      if (account !== context.auth.address) throw new RpcError(ErrorCode.Forbidden, "Forbidden: account is not the caller");
      homes.set(account, { ...args.record, account, node: args.record.node.toLowerCase() });
      return homes.get(account)!;
    },
    neutralService_getHome(args, context) {
      calls.push({ method: "neutralService_getHome", args, auth: context.auth });
      return homes.get(args.account.toLowerCase()) ?? null;
    },
    neutralService_deleteMessages(args, context) {
      calls.push({ method: "neutralService_deleteMessages", args, auth: context.auth });
      const account = args.request.account.toLowerCase();
      if (account !== context.auth.address) throw new RpcError(ErrorCode.Forbidden, "Forbidden: account is not the caller");
      return { node: sig("0").slice(0, 42), account, ids: args.request.ids, request: `0x${"0".repeat(64)}`, signature: sig("d") };
    },
    neutralService_setConsent(args, context) {
      calls.push({ method: "neutralService_setConsent", args, auth: context.auth });
      return { account: context.auth.address, policy: args.policy ?? null, records: args.records };
    },
    neutralService_getConsent(args, context) {
      calls.push({ method: "neutralService_getConsent", args, auth: context.auth });
      return { account: context.auth.address, policy: null, records: [], end: true };
    },
    neutralService_importMessages(args, context) {
      calls.push({ method: "neutralService_importMessages", args, auth: context.auth });
      return { ids: args.messages.map((_, i) => String(i + 1)) };
    },
    neutralService_getProof(args, context) {
      calls.push({ method: "neutralService_getProof", args, auth: context.auth });
      return { head: { account: context.auth.address, size: 0, root: `0x${"e3".repeat(32)}`, timestamp: 0, signature: `0x${"d".repeat(130)}` }, positions: [] };
    },
    neutralService_getLog(args, context) {
      calls.push({ method: "neutralService_getLog", args, auth: context.auth });
      return { head: { account: context.auth.address, size: 0, root: `0x${"e3".repeat(32)}`, timestamp: 0, signature: `0x${"d".repeat(130)}` }, entries: [], end: true };
    },
    neutralService_proveDelivery(args, context) {
      calls.push({ method: "neutralService_proveDelivery", args, auth: context.auth });
      return { proofs: args.ids.map((id) => ({ id, problem: "not a message you sent on this node" })) };
    },
    neutralService_provePositions(args, context) {
      calls.push({ method: "neutralService_provePositions", args, auth: context.auth });
      return { positions: args.messages.map(() => null) };
    },
    neutralService_deliver(args, context) {
      calls.push({ method: "neutralService_deliver", args, auth: context.auth });
      return { outcomes: args.messages.map(() => ({ receiver_receipt: sig("b") })), signature: sig("c") };
    },
    neutralService_lookup(args, context) {
      calls.push({ method: "neutralService_lookup", args, auth: context.auth });
      const known = args.accounts.map((account) => homes.get(account.toLowerCase())).filter((home) => home !== undefined);
      return { homes: known, keys: [] };
    },
    neutralService_subscribe(args, context) {
      calls.push({ method: "neutralService_subscribe", args, auth: context.auth });
      // Refusals come before the stream: thrown here, not from inside the generator.
      if (args.after === "666") throw new RpcError(ErrorCode.RateLimited, "Too many streams", { retryAfter: 3 });
      const start = Number(context.lastEventId ?? args.after ?? 0);
      const { signal } = context;
      return (async function* (): AsyncGenerator<StreamEvent<SubscribeNotification>> {
        feed.open++;
        try {
          let sent = 0; // index into feed.stored
          let cursor = start;
          let caughtUp = false;
          while (!signal.aborted) {
            while (sent < feed.stored.length) {
              const next = feed.stored[sent++]!;
              if (Number(next.id) <= cursor) continue;
              cursor = Number(next.id);
              const event = { id: next.id, method: "neutralService_message" as const, params: { message: next } };
              feed.onEvent?.(event, next.id);
              yield event;
            }
            if (!caughtUp) {
              caughtUp = true;
              yield { method: "neutralService_caughtUp", params: { cursor: String(cursor) } };
              if (feed.endAfterCatchUp) {
                yield { method: "neutralService_end", params: { reason: "shutdown", message: "done", cursor: String(cursor) } };
                return;
              }
            }
            if (sent === feed.stored.length) await feed.next(signal);
          }
        } finally {
          feed.open--;
        }
      })();
    },
    neutralService_nodeInfo(args, context) {
      calls.push({ method: "neutralService_nodeInfo", args, auth: context.auth });
      return {
        address: bob,
        software: "test",
        version: "0.0.0",
        domains: ["127.0.0.1"],
        limits: { maxLimit: 100, maxBatch: 100, maxBodyBytes: 1024, maxMessageBytes: 64, clockSkewMs: 300_000 },
      };
    },
  };
  return { handlers, calls, feed };
}
