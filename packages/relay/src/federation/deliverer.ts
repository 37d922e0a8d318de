// Drains the outbox: messages stored for accounts homed on other nodes go to those nodes with
// `neutralService_deliver`, oldest first per destination, in batches. A destination that fails is
// retried after a backoff that doubles each time (with jitter), kept in the database; a message
// still undelivered after the retry period, or refused for good, turns failed with a reason. One
// process of a node drains (the store's delivery lease: on PostgreSQL, one replica of many).
//
// A destination's messages go in OUTBOX_LANES lanes at once (by recipient: one sender's messages
// to one recipient are in one lane). In a lane one batch is in flight at a time, so that the other
// node stores them in the order this node accepted them; but the next batch goes out as soon as an
// answer comes, and this node checks the receipts of one batch and settles it while the other node
// stores the next. The lanes let the other node check one batch while it commits another.
//
// Only a failure of the call itself (the peer unreachable, overloaded, or answering nonsense) backs
// off the whole destination. A message the other node refuses for now (a quota of its recipient)
// holds back that message and the later ones of the same sender to the same recipient, until the
// refusal's `retryAfter` (or a backoff of its own), and the rest of the destination's mail goes on
// (issue 33, finding 3).
import { deliveryAnswerDigest, failedMessageJson, messageJson } from "@neutral/protocol";
import type { FederationConfig } from "../config.js";
import type { Secp256k1 } from "../crypto/secp256k1.js";
import type { Logger } from "../log.js";
import { OUTBOX_LANES, type DeliveryLease, type DestinationState, type MessageStore, type OutboxEntry, type SettledDelivery } from "../storage/store.js";
import type { Directory } from "./directory.js";
import { PeerCallError, type NodeClient, type PeerTarget } from "./node-client.js";
import type { PeerRegistry } from "./peers.js";


/** What a kick says: drain this destination (a message was just queued for it), or this peer just called us (its backoff ends). Nothing: look at every destination. */
export interface KickHint {
  destination?: string;
  peerUp?: string;
}

export interface Deliverer {
  /** Drain soon. */
  kick(hint?: KickHint): void;
  /**
   * Calls `listener` with each settlement (the sender copy's id and new JSON, delivered or failed)
   * as it is made, before its commit: a send waiting for its receipt answers at once. (Were the
   * commit lost, the entry would be delivered again and get the same receipt.) Returns the
   * function that stops it.
   */
  onSettled(listener: (settled: readonly SettledDelivery[]) => void): () => void;
  /** Stops draining (a batch in flight finishes) and lets go of the lease. */
  stop(): Promise<void>;
}

export interface DelivererOptions {
  self: string;
  store: MessageStore;
  curve: Secp256k1;
  peers: PeerRegistry;
  directory: Pick<Directory, "learnHomes" | "localHome">;
  client: NodeClient;
  config: Pick<FederationConfig, "retryPeriodSeconds" | "retryBackoffMs" | "retryBackoffMaxMs" | "peerTimeoutMs">;
  logger: Logger;
  /** How often the outbox is looked at without a kick: the safety net, and on PostgreSQL how sends on other replicas are noticed. */
  pollMs: number;
}

/** Messages in one delivery, and the most JSON they may weigh (a peer's body limit is 1 MiB by default). */
const BATCH_MESSAGES = 100;
const BATCH_BYTES = 512 * 1024;
/** How often a process without the lease asks for it again. */
const LEASE_RETRY_MS = 2_000;
/** Messages past the retry period are looked for at most this often. */
const EXPIRE_EVERY_MS = 1_000;

interface WireMessage {
  message: string;
  from: string;
  to: string;
  signature: string;
  sender_receipt: string;
  /** The sender's copy's position here, which `sender_receipt` binds (spec 3.0.0). */
  sender_seq?: number;
  timestamp: number;
  expires?: number;
}

/** A position a receipt binds: a whole number from 1. */
const isPosition = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 1;

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
      typeof parsed.timestamp === "number" &&
      (parsed.expires === undefined || typeof parsed.expires === "number") &&
      (parsed.sender_seq === undefined || isPosition(parsed.sender_seq))
    ) {
      const { message, from, to, signature, sender_receipt, sender_seq, timestamp, expires } = parsed;
      return { message, from, to, signature, sender_receipt, ...(sender_seq !== undefined && { sender_seq }), timestamp, ...(expires !== undefined && { expires }) };
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
  senderSeq: fields.sender_seq,
  timestamp: fields.timestamp,
  expires: fields.expires,
});

const failed = (entry: OutboxEntry, reason: string): SettledDelivery => ({ id: entry.id, sender: entry.sender, json: failedMessageJson(entry.json, reason) });

/** What one drain of a destination did: messages it sent, and when the first hold it skipped ends. */
interface DrainProgress {
  sent: number;
  firstHoldEnds: number;
}

/** A batch read from the outbox, ready to go. */
interface Batch {
  items: { entry: OutboxEntry; fields: WireMessage }[];
  /** The messages' EIP-712 digests, in order: what the answer's signature covers. */
  digests: Uint8Array[];
  params: { messages: WireMessage[]; homes: unknown[] };
  /** The id of its last entry: the next batch starts after it. */
  lastId: number;
}

type Outcome = { receiver_receipt?: unknown; receiver_seq?: unknown; refused?: { code?: unknown; message?: unknown; permanent?: unknown; home?: unknown } } | null;

export function startDeliverer(options: DelivererOptions): Deliverer {
  const { store, curve, peers, client, logger, config } = options;
  /** Destinations being drained, and those kicked meanwhile (to look again once the drain ends). */
  const busy = new Set<string>();
  const again = new Set<string>();
  /** Each destination's backoff, as kept in the database: this process is its only writer while it holds the lease. */
  const states = new Map<string, DestinationState>();
  /**
   * (sender, recipient) pairs whose oldest waiting message the other node refused for now, by
   * `sender>recipient`: none of the pair's messages goes before `until`. Kept in memory: after a
   * restart each is tried once more, and held again if still refused.
   */
  const holds = new Map<string, { until: number; failures: number }>();
  const pairOf = (sender: string, recipient: string) => `${sender}>${recipient}`;
  const isHeld = (pair: string, now: number) => (holds.get(pair)?.until ?? 0) > now;
  /**
   * Destinations whose every waiting message was held at their last drain, and until when: a pass
   * does not read their outbox again before the first hold ends (a message newly queued for one
   * drains it at once). Many held messages must not be read again at every pass.
   */
  const allHeldUntil = new Map<string, number>();
  const running = new Set<Promise<void>>();
  const listeners = new Set<(settled: readonly SettledDelivery[]) => void>();
  let lease: DeliveryLease | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** When the timer fires (a later schedule never pushes it back). */
  let timerAt = Infinity;
  let passQueued = false;
  let lastExpiry = -Infinity;

  const backoffMs = (failures: number) => {
    const full = Math.min(config.retryBackoffMaxMs, config.retryBackoffMs * 2 ** Math.min(30, failures - 1));
    return Math.max(1, Math.round(full * (0.5 + Math.random() / 2)));
  };

  async function setState(node: string, state: DestinationState | undefined): Promise<void> {
    if (state === undefined) {
      if (!states.delete(node)) return;
    } else states.set(node, state);
    await store.setDestinationState(node, state);
  }

  async function backOff(node: string, reason: string): Promise<void> {
    const failures = (states.get(node)?.failures ?? 0) + 1;
    const delay = backoffMs(failures);
    await setState(node, { node, failures, nextAttemptAt: Date.now() + delay, lastError: reason.slice(0, 500) });
    logger.warn({ destination: node, failures, retryInMs: delay, reason }, "delivery to a node failed; retrying later");
    schedule(delay);
  }

  /** Holds back a pair refused for now: until its `retryAfter` (seconds, within the backoff bounds), else for its own doubling backoff. */
  function hold(pair: string, retryAfterSeconds: number | undefined): void {
    const failures = (holds.get(pair)?.failures ?? 0) + 1;
    const delay =
      retryAfterSeconds === undefined ? backoffMs(failures) : Math.min(config.retryBackoffMaxMs, Math.max(config.retryBackoffMs, Math.ceil(retryAfterSeconds * 1000)));
    holds.set(pair, { until: Date.now() + delay, failures });
    schedule(delay);
  }

  /** Holds back the pairs of the messages `outcomes` refuses for now (before the next batch is read: it must not carry their later messages). */
  function holdRefused(batch: Batch, outcomes: Outcome[]): void {
    batch.items.forEach(({ entry, fields }, i) => {
      const refusal = outcomes[i]?.refused;
      if (typeof outcomes[i]?.receiver_receipt === "string" || refusal?.permanent === true) return;
      const pair = pairOf(entry.sender, fields.to);
      if (isHeld(pair, Date.now())) return; // a later message of a pair held by an earlier one of this batch
      const retryAfter = (refusal as { retryAfter?: unknown } | undefined)?.retryAfter;
      hold(pair, typeof retryAfter === "number" && Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined);
    });
  }

  async function settle(settled: readonly SettledDelivery[]): Promise<void> {
    if (settled.length === 0) return;
    for (const listener of listeners) listener(settled);
    await store.settleDeliveries(settled);
  }

  /** Fails every entry of the outbox older than the retry period, with the last error its destination saw. */
  async function expire(): Promise<void> {
    if (Date.now() - lastExpiry < EXPIRE_EVERY_MS) return;
    lastExpiry = Date.now();
    const before = Date.now() - config.retryPeriodSeconds * 1000;
    const seconds = config.retryPeriodSeconds;
    const period = seconds % 3600 === 0 ? `${seconds / 3600} h` : seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
    for (;;) {
      const entries = await store.expiredOutboxEntries(before, 500);
      if (entries.length === 0) return;
      await settle(
        entries.map((entry) => {
          const last = states.get(entry.destination)?.lastError;
          return failed(entry, `not delivered to the recipient's node ${entry.destination} within ${period}${last ? ` (last attempt: ${last})` : ""}`);
        }),
      );
      logger.warn({ failed: entries.length }, "messages to other nodes failed: the retry period is over");
    }
  }

  /**
   * The next batch of `lane` (undefined: any) for `node` after `afterId`, or undefined when there is
   * none. `read`: the entries that follow `afterId`, read already.
   */
  async function nextBatch(node: string, lane: number | undefined, afterId: number, read: OutboxEntry[] | undefined, drained: DrainProgress): Promise<Batch | undefined> {
    for (;;) {
      const entries = read ?? (await store.outboxEntries(node, BATCH_MESSAGES, afterId, lane));
      read = undefined;
      if (entries.length === 0) return undefined;
      const items: Batch["items"] = [];
      const unreadable: SettledDelivery[] = [];
      let bytes = 0;
      const clock = Date.now();
      for (const entry of entries) {
        const fields = fieldsOf(entry);
        if (!fields) {
          unreadable.push(failed(entry, "the stored message is unreadable"));
          continue;
        }
        const hold = holds.get(pairOf(entry.sender, fields.to));
        if (hold && hold.until > clock) {
          drained.firstHoldEnds = Math.min(drained.firstHoldEnds, hold.until);
          continue; // waits behind its pair's refused message
        }
        bytes += entry.json.length;
        if (items.length > 0 && bytes > BATCH_BYTES) break;
        items.push({ entry, fields });
      }
      await settle(unreadable);
      if (items.length === 0) {
        if (entries.length < BATCH_MESSAGES) return undefined; // the rest is held
        afterId = entries[entries.length - 1]!.id;
        continue;
      }
      drained.sent += items.length;
      const senders = [...new Set(items.map(({ fields }) => fields.from))];
      const homes = (await Promise.all(senders.map((sender) => options.directory.localHome(sender)))).filter((record) => record !== undefined);
      return {
        items,
        digests: items.map(({ entry }) => Buffer.from(entry.digest, "hex")),
        params: { messages: items.map(({ fields }) => fields), homes },
        lastId: items[items.length - 1]!.entry.id,
      };
    }
  }

  /**
   * What an answer allows before it is settled: nothing when it is not the peer's signature over
   * these messages and outcomes, or malformed; else its outcomes.
   */
  function readAnswer(peer: PeerTarget, answer: { outcomes?: unknown; signature?: unknown } | null, batch: Batch): { outcomes: Outcome[] } | { rejected: string } {
    const outcomes = answer?.outcomes;
    if (!Array.isArray(outcomes) || outcomes.length !== batch.items.length) return { rejected: "the node's answer does not have one outcome per message" };
    const signature = answer?.signature;
    if (typeof signature !== "string" || !/^0x[0-9a-fA-F]{130}$/.test(signature)) return { rejected: "the node's answer is not signed" };
    const digest = deliveryAnswerDigest(peer.address, batch.digests, JSON.stringify(outcomes));
    if (curve.recoverAddress(digest, Buffer.from(signature.slice(2), "hex")) !== peer.address) {
      logger.warn({ destination: peer.address }, "a node's answer to a delivery is not its signature over these messages: not accepted");
      return { rejected: "the node's answer is not its signature over these messages" };
    }
    return { outcomes: outcomes as Outcome[] };
  }

  /**
   * Settles each outcome of an answered batch (the peer signed the answer: `readAnswer`): a receipt
   * delivers it, a refusal for good fails it (or sends it on, for a recipient that moved), a
   * refusal for now leaves it waiting (its pair is held: `holdRefused`). Resolves with why the
   * drain must stop, or undefined.
   */
  async function apply(peer: PeerTarget, batch: Batch, outcomes: Outcome[]): Promise<string | undefined> {
    const settled: SettledDelivery[] = [];
    const moved = new Map<string, number[]>();
    let stoppedBy: string | undefined;
    for (let i = 0; i < batch.items.length; i++) {
      const { entry, fields } = batch.items[i]!;
      const outcome = outcomes[i];
      if (typeof outcome?.receiver_receipt === "string") {
        if (!/^0x[0-9a-fA-F]{130}$/.test(outcome.receiver_receipt)) {
          stoppedBy = "the node answered a receipt that is not a signature";
          break;
        }
        const receiverSeq = outcome.receiver_seq;
        if (receiverSeq !== undefined && !isPosition(receiverSeq)) {
          stoppedBy = "the node answered a receipt's position that is not one";
          break;
        }
        // Kept as the node answered it: a receipt bound to the recipient's copy's position is that
        // node's promise, which the sender holds against every head it signs of the recipient's log.
        settled.push({
          id: entry.id,
          sender: entry.sender,
          json: messageJson(entry.id, { ...wireFields(fields), receiverReceipt: outcome.receiver_receipt.toLowerCase(), receiverSeq }),
        });
        holds.delete(pairOf(entry.sender, fields.to));
        continue;
      }
      const refusal = outcome?.refused;
      const message = typeof refusal?.message === "string" ? refusal.message.slice(0, 300) : "refused";
      if (refusal?.permanent !== true) continue; // waits, its pair held
      holds.delete(pairOf(entry.sender, fields.to));
      if (refusal.home !== undefined) {
        // The recipient moved: deliver there instead, if this node federates with its new home.
        const [record] = await options.directory.learnHomes([refusal.home]);
        const target = record?.account === fields.to ? peers.byAddress(record.node) : undefined;
        if (record && target && target.address !== peer.address) {
          moved.set(target.address, [...(moved.get(target.address) ?? []), entry.id]);
          continue;
        }
      }
      settled.push(failed(entry, `refused by the recipient's node: ${message}`));
    }
    await settle(settled);
    for (const [node, ids] of moved) {
      await store.redirectOutbox(ids, node);
      kickDestination(node);
    }
    return stoppedBy;
  }

  /** Delivers `node`'s entries until none is left, a failure backs it off, or this process stops. */
  async function drain(node: string): Promise<void> {
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
        await settle(entries.map((entry) => failed(entry, `the recipient's home node ${node} is not a peer of this node`)));
      }
    }
    const target = peer;
    // A backlog (more than a batch waiting: after an outage, a burst) goes in every lane at once;
    // a steady stream in one sequence, whose batches then carry more messages each.
    const waiting = await store.outboxEntries(node, BATCH_MESSAGES + 1);
    const drained: DrainProgress = { sent: 0, firstHoldEnds: Infinity };
    const reasons =
      waiting.length > BATCH_MESSAGES
        ? await Promise.all(Array.from({ length: OUTBOX_LANES }, (_, lane) => drainLane(target, lane, undefined, drained)))
        : [await drainLane(target, undefined, waiting, drained)];
    const reason = reasons.find((value) => value !== undefined);
    if (reason === undefined && drained.sent === 0 && drained.firstHoldEnds < Infinity) allHeldUntil.set(node, drained.firstHoldEnds);
    else allHeldUntil.delete(node);
    return reason === undefined ? setState(node, undefined) : backOff(node, reason);
  }

  /**
   * Delivers one lane of `peer`'s entries (undefined: all of them, in one sequence) until none is
   * left or one fails; resolves with why it stopped early, or undefined. `waiting`: its first
   * entries, read already.
   */
  async function drainLane(peer: PeerTarget, lane: number | undefined, waiting: OutboxEntry[] | undefined, drained: DrainProgress): Promise<string | undefined> {
    const node = peer.address;
    const call = (batch: Batch) => client.call(peer, "neutralService_deliver", batch.params, config.peerTimeoutMs) as Promise<{ outcomes?: unknown; signature?: unknown } | null>;
    const first = await nextBatch(node, lane, 0, waiting, drained);
    if (!first) return undefined;
    let batch: Batch = first;
    let answer = call(batch);
    /** The check and settlement of the batch before the one in flight. */
    let applying: Promise<string | undefined> = Promise.resolve(undefined);
    for (;;) {
      let answered: { outcomes?: unknown; signature?: unknown } | null;
      try {
        answered = await answer;
      } catch (error) {
        return (await applying) ?? (error instanceof PeerCallError ? error.message : String(error));
      }
      const read = readAnswer(peer, answered, batch);
      if (!("rejected" in read)) holdRefused(batch, read.outcomes);
      const goOn = !("rejected" in read);
      const next: Batch | undefined = goOn && !stopped && lease ? await nextBatch(node, lane, batch.lastId, undefined, drained) : undefined;
      // Send the next batch now, and check this one while the other node stores it.
      if (next) answer = call(next);
      const previous = await applying;
      if (previous !== undefined) {
        if (next) await answer.catch(() => undefined); // answered after we gave up on it: its entries go again later
        return previous;
      }
      if ("rejected" in read) return read.rejected;
      applying = apply(peer, batch, read.outcomes);
      if (!next) return applying;
      batch = next;
    }
  }

  /** Starts draining `node` unless it is being drained (then it is looked at again afterwards) or backing off. */
  function kickDestination(node: string): void {
    if (stopped || !lease) return;
    if (busy.has(node)) {
      again.add(node);
      return;
    }
    const due = states.get(node)?.nextAttemptAt ?? 0;
    if (due > Date.now()) return; // its timer is set (schedule)
    busy.add(node);
    const work = drain(node)
      .catch((error: unknown) => logger.error({ err: error, destination: node }, "delivering to a node failed"))
      .finally(() => {
        busy.delete(node);
        running.delete(work);
        if (again.delete(node)) kickDestination(node); // what arrived for it meanwhile
      });
    running.add(work);
  }

  /** Every destination with entries, and the expiry: on the timer and on a kick without a hint. */
  async function pass(): Promise<void> {
    if (stopped || !lease) return;
    const clock0 = Date.now();
    for (const [pair, { until }] of holds) if (until <= clock0 - config.retryBackoffMaxMs) holds.delete(pair); // long over: its failures forgotten
    await expire();
    const destinations = await store.outboxDestinations();
    const clock = Date.now();
    let wake = options.pollMs;
    for (const destination of destinations) {
      if (destination.state && !states.has(destination.node)) states.set(destination.node, destination.state);
      const due = states.get(destination.node)?.nextAttemptAt ?? 0;
      if (due > clock && !busy.has(destination.node)) wake = Math.min(wake, due - clock);
      const held = allHeldUntil.get(destination.node) ?? 0;
      if (held > clock) {
        wake = Math.min(wake, held - clock);
        continue; // all of it waits behind refusals for now: nothing to read before the first ends
      }
      kickDestination(destination.node);
    }
    schedule(wake);
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    const delay = Math.max(5, Math.min(delayMs, options.pollMs));
    if (Date.now() + delay >= timerAt) return;
    clearTimeout(timer);
    timerAt = Date.now() + delay;
    timer = setTimeout(() => {
      timerAt = Infinity;
      kick();
    }, delay);
    timer.unref();
  }

  function kick(hint: KickHint = {}): void {
    if (stopped || !lease) return;
    if (hint.peerUp !== undefined) {
      // It called us: whatever backoff it has is over.
      const state = states.get(hint.peerUp);
      if (state && state.nextAttemptAt > Date.now()) {
        const node = hint.peerUp;
        void setState(node, { ...state, nextAttemptAt: Date.now() })
          .then(() => kickDestination(node))
          .catch((error: unknown) => logger.error({ err: error }, "could not end a node's backoff"));
      }
      return;
    }
    if (hint.destination !== undefined) {
      allHeldUntil.delete(hint.destination); // a new message for it may not be held
      return kickDestination(hint.destination);
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
    // The backoffs another process (a replica that held the lease before) left.
    states.clear();
    for (const destination of await store.outboxDestinations().catch(() => [])) if (destination.state) states.set(destination.node, destination.state);
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
    onSettled(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(running);
      await lease?.release();
      lease = undefined;
    },
  };
}
