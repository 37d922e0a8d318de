// Drains the outbox: messages stored for accounts homed on other nodes go to those nodes with
// `neutralService_deliver`, oldest first per destination, in batches. A destination that fails is
// retried after a backoff that doubles each time (with jitter), kept in the database; a message
// still undelivered after the retry period, or refused for good, turns failed with a reason. One
// process of a node drains (the store's delivery lease: on PostgreSQL, one replica of many).
import { messageJson } from "@neutral/protocol";
import type { FederationConfig } from "../config.js";
import { messageDigest } from "../crypto/eip712.js";
import type { Secp256k1 } from "../crypto/secp256k1.js";
import type { Logger } from "../log.js";
import type { DeliveryLease, MessageStore, OutboxEntry, SettledDelivery } from "../storage/store.js";
import type { Directory } from "./directory.js";
import { PeerCallError, type NodeClient, type PeerTarget } from "./node-client.js";
import type { PeerRegistry } from "./peers.js";
import { receiverReceiptSigner } from "./records.js";

export interface Deliverer {
  /** Drain soon; `node`: that destination just showed it is up (it called us), so its backoff ends. */
  kick(node?: string): void;
  /** Stops draining (a batch in flight finishes) and lets go of the lease. */
  stop(): Promise<void>;
}

export interface DelivererOptions {
  self: string;
  store: MessageStore;
  curve: Secp256k1;
  peers: PeerRegistry;
  directory: Pick<Directory, "learnHomes">;
  client: NodeClient;
  config: Pick<FederationConfig, "retryPeriodSeconds" | "retryBackoffMs" | "retryBackoffMaxMs" | "peerTimeoutMs">;
  logger: Logger;
  /** How often the outbox is looked at without a kick: the safety net, and on PostgreSQL how sends on other replicas are noticed. */
  pollMs: number;
  now?: () => number;
  random?: () => number;
}

/** Messages in one delivery, and the most JSON they may weigh (a peer's body limit is 1 MiB by default). */
const BATCH_MESSAGES = 100;
const BATCH_BYTES = 512 * 1024;
/** How often a process without the lease asks for it again. */
const LEASE_RETRY_MS = 2_000;

interface WireMessage {
  message: string;
  from: string;
  to: string;
  signature: string;
  sender_receipt: string;
  timestamp: number;
}

/** The fields of a sender's copy, as its JSON holds them. */
function fieldsOf(entry: OutboxEntry): WireMessage | undefined {
  try {
    const parsed = JSON.parse(entry.json) as Partial<WireMessage>;
    if (
      typeof parsed.message === "string" &&
      typeof parsed.from === "string" &&
      typeof parsed.to === "string" &&
      typeof parsed.signature === "string" &&
      typeof parsed.sender_receipt === "string" &&
      typeof parsed.timestamp === "number"
    ) {
      return { message: parsed.message, from: parsed.from, to: parsed.to, signature: parsed.signature, sender_receipt: parsed.sender_receipt, timestamp: parsed.timestamp };
    }
  } catch {
    // unreadable: failed below
  }
  return undefined;
}

const wireFields = (fields: WireMessage) => ({
  message: fields.message,
  from: fields.from,
  to: fields.to,
  signature: fields.signature,
  senderReceipt: fields.sender_receipt,
  timestamp: fields.timestamp,
});

const failed = (entry: OutboxEntry, fields: WireMessage | undefined, reason: string): SettledDelivery => ({
  id: entry.id,
  sender: entry.sender,
  json: fields ? messageJson(entry.id, { ...wireFields(fields), status: "failed", reason }) : entry.json.replace(/"status":"pending"\}$/, `"status":"failed","reason":${JSON.stringify(reason)}}`),
});

export function startDeliverer(options: DelivererOptions): Deliverer {
  const { store, curve, peers, client, logger, config } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const busy = new Set<string>();
  const running = new Set<Promise<void>>();
  let lease: DeliveryLease | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let passQueued = false;

  const backoffMs = (failures: number) => {
    const full = Math.min(config.retryBackoffMaxMs, config.retryBackoffMs * 2 ** Math.min(30, failures - 1));
    return Math.max(1, Math.round(full * (0.5 + random() / 2)));
  };

  async function backOff(node: string, failures: number, reason: string): Promise<void> {
    const delay = backoffMs(failures);
    await store.setDestinationState(node, { node, failures, nextAttemptAt: now() + delay, lastError: reason.slice(0, 500) });
    logger.warn({ destination: node, failures, retryInMs: delay, reason }, "delivery to a node failed; retrying later");
  }

  /** Fails every entry of the outbox older than the retry period, with the last error its destination saw. */
  async function expire(): Promise<void> {
    const before = now() - config.retryPeriodSeconds * 1000;
    const errors = new Map((await store.outboxDestinations()).map((destination) => [destination.node, destination.state?.lastError]));
    for (;;) {
      const entries = await store.expiredOutboxEntries(before, 500);
      if (entries.length === 0) return;
      const seconds = config.retryPeriodSeconds;
      const period = seconds % 3600 === 0 ? `${seconds / 3600} h` : seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
      await store.settleDeliveries(
        entries.map((entry) => {
          const last = errors.get(entry.destination);
          return failed(entry, fieldsOf(entry), `not delivered to the recipient's node ${entry.destination} within ${period}${last ? ` (last attempt: ${last})` : ""}`);
        }),
      );
      logger.warn({ failed: entries.length }, "messages to other nodes failed: the retry period is over");
    }
  }

  /** One delivery call for the oldest entries of `peer`; resolves with whether to go on with the next batch. */
  async function deliverBatch(peer: PeerTarget, failures: number): Promise<boolean> {
    const entries = await store.outboxEntries(peer.address, BATCH_MESSAGES);
    if (entries.length === 0) {
      if (failures > 0) await store.setDestinationState(peer.address, undefined);
      return false;
    }
    const batch: { entry: OutboxEntry; fields: WireMessage }[] = [];
    const unreadable: SettledDelivery[] = [];
    let bytes = 0;
    for (const entry of entries) {
      const fields = fieldsOf(entry);
      if (!fields) {
        unreadable.push(failed(entry, undefined, "the stored message is unreadable"));
        continue;
      }
      bytes += entry.json.length;
      if (batch.length > 0 && bytes > BATCH_BYTES) break;
      batch.push({ entry, fields });
    }
    if (unreadable.length > 0) await store.settleDeliveries(unreadable);
    if (batch.length === 0) return true;
    const senders = [...new Set(batch.map(({ fields }) => fields.from))];
    const homes = (await Promise.all(senders.map((sender) => store.getHomeRecord(sender)))).filter((record) => record !== undefined);
    const messages = batch.map(({ fields }) => fields);
    let outcomes: unknown;
    try {
      outcomes = ((await client.call(peer, "neutralService_deliver", { messages, homes }, config.peerTimeoutMs)) as { outcomes?: unknown } | null)?.outcomes;
    } catch (error) {
      await backOff(peer.address, failures + 1, error instanceof PeerCallError ? error.message : String(error));
      return false;
    }
    if (!Array.isArray(outcomes) || outcomes.length !== batch.length) {
      await backOff(peer.address, failures + 1, "the node's answer does not have one outcome per message");
      return false;
    }
    const settled: SettledDelivery[] = [];
    const moved = new Map<string, number[]>();
    let stoppedBy: string | undefined;
    for (let i = 0; i < batch.length; i++) {
      const { entry, fields } = batch[i]!;
      const outcome = outcomes[i] as { receiver_receipt?: unknown; refused?: { code?: unknown; message?: unknown; permanent?: unknown; home?: unknown } } | null;
      if (typeof outcome?.receiver_receipt === "string") {
        const digest = messageDigest(fields);
        if (receiverReceiptSigner(curve, digest, outcome.receiver_receipt) !== peer.address) {
          logger.warn({ destination: peer.address, id: entry.id }, "a node answered a receiver receipt it did not sign: not accepted");
          stoppedBy = "the node answered a receipt that is not its signature";
          break;
        }
        settled.push({ id: entry.id, sender: entry.sender, json: messageJson(entry.id, { ...wireFields(fields), receiverReceipt: outcome.receiver_receipt.toLowerCase() }) });
        continue;
      }
      const refusal = outcome?.refused;
      const message = typeof refusal?.message === "string" ? refusal.message.slice(0, 300) : "refused";
      if (refusal?.permanent !== true) {
        stoppedBy = `the node refused for now: ${message}`;
        break; // later messages wait, so that the recipient gets them in order
      }
      if (refusal.home !== undefined) {
        // The recipient moved: deliver there instead, if this node federates with its new home.
        const [record] = await options.directory.learnHomes([refusal.home]);
        const target = record?.account === fields.to ? peers.byAddress(record.node) : undefined;
        if (record && target && target.address !== peer.address) {
          moved.set(target.address, [...(moved.get(target.address) ?? []), entry.id]);
          continue;
        }
      }
      settled.push(failed(entry, fields, `refused by the recipient's node: ${message}`));
    }
    await store.settleDeliveries(settled);
    for (const [node, ids] of moved) await store.redirectOutbox(ids, node);
    if (moved.size > 0) kick();
    if (stoppedBy !== undefined) {
      await backOff(peer.address, failures + 1, stoppedBy);
      return false;
    }
    logger.debug({ destination: peer.address, delivered: settled.length, redirected: [...moved.values()].flat().length }, "delivered to a node");
    if (failures > 0) await store.setDestinationState(peer.address, undefined);
    return true;
  }

  async function drain(node: string, failures: number): Promise<void> {
    let peer = peers.byAddress(node);
    if (!peer && peers.unresolved) {
      await peers.resolve();
      peer = peers.byAddress(node);
    }
    if (!peer) {
      // Not (or no longer) a peer: nothing this node sends there can arrive.
      for (;;) {
        const entries = await store.outboxEntries(node, 500);
        if (entries.length === 0) return;
        await store.settleDeliveries(entries.map((entry) => failed(entry, fieldsOf(entry), `the recipient's home node ${node} is not a peer of this node`)));
      }
    }
    let attempt = failures;
    while (!stopped && lease && (await deliverBatch(peer, attempt))) attempt = 0;
  }

  async function pass(): Promise<void> {
    if (stopped || !lease) return;
    await expire();
    const destinations = await store.outboxDestinations();
    const clock = now();
    let wake = options.pollMs;
    for (const destination of destinations) {
      if (busy.has(destination.node)) continue;
      const due = destination.state?.nextAttemptAt ?? 0;
      if (due > clock) {
        wake = Math.min(wake, due - clock);
        continue;
      }
      busy.add(destination.node);
      const work = drain(destination.node, destination.state?.failures ?? 0)
        .catch((error: unknown) => logger.error({ err: error, destination: destination.node }, "delivering to a node failed"))
        .finally(() => {
          busy.delete(destination.node);
          running.delete(work);
          kick(); // what arrived for it meanwhile
        });
      running.add(work);
    }
    schedule(wake);
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(kick, Math.max(5, delayMs));
    timer.unref();
  }

  function kick(node?: string): void {
    if (stopped) return;
    if (node !== undefined && lease) {
      // It answered us (it delivered here): whatever backoff it has is over.
      void store
        .outboxDestinations()
        .then((destinations) => {
          const state = destinations.find((destination) => destination.node === node)?.state;
          return state && state.nextAttemptAt > now() ? store.setDestinationState(node, { ...state, nextAttemptAt: now() }) : undefined;
        })
        .then(() => kick())
        .catch((error: unknown) => logger.error({ err: error }, "could not end a node's backoff"));
      return;
    }
    if (passQueued) return;
    passQueued = true;
    setImmediate(() => {
      passQueued = false;
      pass().catch((error: unknown) => {
        logger.error({ err: error }, "the outbox pass failed");
        schedule(options.pollMs);
      });
    });
  }

  async function lead(): Promise<void> {
    while (!stopped && !lease) {
      try {
        lease = await store.leadDeliveries();
      } catch (error) {
        logger.error({ err: error }, "could not ask for the delivery lease");
      }
      if (lease) break;
      await new Promise((resolve) => setTimeout(resolve, LEASE_RETRY_MS).unref());
    }
    if (stopped && lease) {
      // Stopped while the lease was being granted: hand it back at once.
      const granted = lease;
      lease = undefined;
      await granted.release();
      return;
    }
    if (!lease) return;
    logger.debug("this process delivers the outbox");
    const held = lease;
    void held.lost.then(() => {
      if (lease !== held || stopped) return;
      logger.warn("lost the delivery lease; asking again");
      lease = undefined;
      void lead();
    });
    kick();
  }
  void lead();

  return {
    kick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(running);
      await lease?.release();
      lease = undefined;
    },
  };
}
