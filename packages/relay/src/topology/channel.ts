// The one message protocol between a cluster primary and its workers. Every exchange the node's
// processes have is a topic of this catalogue, typed at both ends: a worker's requests to its
// primary (with an answer), its notices (without), and the primary's requests and notices to
// workers. The envelope, the request ids and pending answers, a worker's exit and the primary's
// disappearance are handled here once. Only this folder imports node:cluster or calls process.send.
import cluster, { type Worker as ClusterWorker } from "node:cluster";
import type { Registry } from "prom-client";
import { errorFromWire, errorToWire, PrimaryGoneError, type WireErrorInfo } from "../errors.js";
import type { KickHint } from "../federation/deliverer.js";
import type { ConnectionRefusal } from "../http/connection-guard.js";
import type { CommitEvent } from "../live/commits.js";
import type { WireEntry } from "../storage/sqlite-append-writer.js";
import type { ChannelResult } from "./cluster/writer.js";

/** `[key, cost per dimension…]` rows of a token-bucket table's consumption, by table name. */
export type WireUsage = Record<string, [string, ...number[]][]>;
export type RegistryJson = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

/** What a worker asks its primary, and the answer. */
export interface WorkerRequests {
  /** Commit these appends through the node's one SQLite writer (cluster/writer.ts). */
  append: { request: { appends: WireEntry[] }; answer: { results: ChannelResult[] } };
  /** May this client open one more connection? (cluster/connections.ts) */
  "connection-open": { request: { key: string }; answer: { refused?: ConnectionRefusal } };
  /** The whole node's metrics text, for GET /metrics on the public port (cluster/metrics.ts). */
  "metrics-scrape": { request: Record<string, never>; answer: { text: string } };
}

/** What a worker tells its primary, expecting nothing back. */
export interface WorkerNotices {
  /** An admitted connection closed. */
  "connection-close": { key: string };
  /** What this worker's rate limits and quotas took since its last report (cluster/limits.ts). */
  "limits-usage": { tables: WireUsage };
  /** A message was queued for another node: drain the outbox now (cluster/deliveries.ts). */
  "delivery-kick": { hint?: KickHint };
  /** The accounts this worker began or stopped streaming: commits of theirs carry their message to it (cluster/commits.ts). */
  streams: { opened: string[]; closed: string[] };
}

/** What the primary asks a worker, and the answer. */
export interface PrimaryRequests {
  /** This worker's metrics registry, to be summed with the others'. */
  "metrics-registry": { request: Record<string, never>; answer: { metrics: RegistryJson } };
}

/** What the primary tells workers, expecting nothing back. */
export interface PrimaryNotices {
  /** Commits of the node's writer, for the workers' open streams and kept proofs (cluster/commits.ts). */
  commits: { events: readonly CommitEvent[] };
  /** What the other workers' rate limits and quotas took (cluster/limits.ts). */
  "limits-others": { tables: WireUsage };
}

const CHANNEL = "neutral";

type Envelope =
  | { channel: typeof CHANNEL; kind: "notice"; topic: string; body: unknown }
  | { channel: typeof CHANNEL; kind: "request"; topic: string; id: number; body: unknown }
  | { channel: typeof CHANNEL; kind: "answer"; topic: string; id: number; body?: unknown; error?: WireErrorInfo };

const isEnvelope = (message: unknown): message is Envelope =>
  typeof message === "object" &&
  message !== null &&
  (message as { channel?: unknown }).channel === CHANNEL &&
  typeof (message as { topic?: unknown }).topic === "string" &&
  ((message as { kind?: unknown }).kind === "notice" || typeof (message as { id?: unknown }).id === "number");

type Requests<R> = { [K in keyof R]: { request: unknown; answer: unknown } };
type Handler<R extends Requests<R>, T extends keyof R, From> = (body: R[T]["request"], from: From) => R[T]["answer"] | Promise<R[T]["answer"]>;
type Listener<N, T extends keyof N, From> = (body: N[T], from: From) => void;

/** Answers each request with its handler's result, or the error it threw. */
function answerer<R extends Requests<R>, From>(handlers: Map<string, Handler<R, keyof R, From>>, reply: (message: Envelope, from: From) => void) {
  return (envelope: Extract<Envelope, { kind: "request" }>, from: From) => {
    const handler = handlers.get(envelope.topic);
    if (!handler) return;
    Promise.resolve()
      .then(() => handler(envelope.body as R[keyof R]["request"], from))
      .then(
        (body) => reply({ channel: CHANNEL, kind: "answer", topic: envelope.topic, id: envelope.id, body }, from),
        (error: unknown) => reply({ channel: CHANNEL, kind: "answer", topic: envelope.topic, id: envelope.id, error: errorToWire(error) }, from),
      );
  };
}

/** A worker's end of the channel: to its primary. */
export interface PrimaryLink {
  /** Asks the primary; rejects with PrimaryGoneError once the primary is gone, or with what its handler threw. */
  request<T extends keyof WorkerRequests>(topic: T, body: WorkerRequests[T]["request"], options?: { timeoutMs?: number }): Promise<WorkerRequests[T]["answer"]>;
  /** Tells the primary, if it is still there. */
  notify<T extends keyof WorkerNotices>(topic: T, body: WorkerNotices[T]): void;
  /** Hears the primary's notices of `topic`; returns the function that stops listening. */
  on<T extends keyof PrimaryNotices>(topic: T, listener: (body: PrimaryNotices[T]) => void): () => void;
  /** Answers the primary's requests of `topic`; returns the function that stops answering. */
  answer<T extends keyof PrimaryRequests>(topic: T, handler: (body: PrimaryRequests[T]["request"]) => PrimaryRequests[T]["answer"] | Promise<PrimaryRequests[T]["answer"]>): () => void;
  /** Whether the primary is still there. */
  readonly connected: boolean;
  /** Called once when the primary goes (this worker is then on its way out). */
  onDisconnect(listener: () => void): void;
}

let primaryLink: PrimaryLink | undefined;

/** This worker's link to its primary (one per process). Throws outside a cluster worker. */
export function linkToPrimary(): PrimaryLink {
  if (primaryLink) return primaryLink;
  const send = process.send?.bind(process);
  if (!cluster.isWorker || !send) throw new Error("linkToPrimary() works in a cluster worker only");
  const pending = new Map<number, { resolve: (body: unknown) => void; reject: (error: unknown) => void }>();
  const listeners = new Map<string, Set<(body: unknown) => void>>();
  const handlers = new Map<string, Handler<PrimaryRequests, keyof PrimaryRequests, undefined>>();
  let nextId = 1;
  let gone = false;
  const post = (message: Envelope, onError: (error: Error) => void = () => {}) => {
    if (gone || !process.connected) return onError(new PrimaryGoneError());
    send(message, undefined, {}, (error: Error | null) => {
      if (error) onError(error);
    });
  };
  const answer = answerer(handlers, (message) => post(message));
  process.on("message", (message: unknown) => {
    if (!isEnvelope(message)) return;
    if (message.kind === "notice") for (const listener of listeners.get(message.topic) ?? []) listener(message.body);
    else if (message.kind === "request") answer(message, undefined);
    else {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(errorFromWire(message.error));
      else waiting?.resolve(message.body);
    }
  });
  const disconnected = new Set<() => void>();
  process.once("disconnect", () => {
    gone = true;
    const error = new PrimaryGoneError();
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
    for (const listener of disconnected) listener();
  });
  primaryLink = {
    request(topic, body, options = {}) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const settle = (outcome: () => void) => {
          if (timer) clearTimeout(timer);
          pending.delete(id);
          outcome();
        };
        pending.set(id, { resolve: (answer) => settle(() => resolve(answer as never)), reject: (error) => settle(() => reject(error)) });
        if (options.timeoutMs !== undefined) timer = setTimeout(() => pending.get(id)?.reject(new Error(`the primary did not answer ${topic} within ${options.timeoutMs} ms`)), options.timeoutMs);
        post({ channel: CHANNEL, kind: "request", topic, id, body }, (error) =>
          pending.get(id)?.reject(error instanceof PrimaryGoneError ? error : new PrimaryGoneError(`could not reach the primary process: ${error.message}`)),
        );
      });
    },
    notify(topic, body) {
      post({ channel: CHANNEL, kind: "notice", topic, body });
    },
    on(topic, listener) {
      let set = listeners.get(topic);
      if (!set) listeners.set(topic, (set = new Set()));
      const entry = listener as (body: unknown) => void;
      set.add(entry);
      return () => void set.delete(entry);
    },
    answer(topic, handler) {
      handlers.set(topic, handler as never);
      return () => void handlers.delete(topic);
    },
    get connected() {
      return !gone && process.connected;
    },
    onDisconnect(listener) {
      if (gone) listener();
      else disconnected.add(listener);
    },
  };
  return primaryLink;
}

/** A worker as the primary sees it. */
export interface WorkerRef {
  readonly id: number;
}

/** The primary's end of the channel: to every worker. */
export interface WorkersLink {
  /** Answers every worker's requests of `topic`; returns the function that stops answering. */
  answer<T extends keyof WorkerRequests>(topic: T, handler: Handler<WorkerRequests, T, WorkerRef>): () => void;
  /** Hears every worker's notices of `topic`; returns the function that stops listening. */
  on<T extends keyof WorkerNotices>(topic: T, listener: Listener<WorkerNotices, T, WorkerRef>): () => void;
  /** Tells one worker, if it is still there. */
  notify<T extends keyof PrimaryNotices>(to: WorkerRef, topic: T, body: PrimaryNotices[T]): void;
  /** Tells every worker (but `except`). */
  broadcast<T extends keyof PrimaryNotices>(topic: T, body: PrimaryNotices[T], except?: WorkerRef): void;
  /** Asks one worker; undefined if it does not answer within `timeoutMs`, fails, or goes. */
  request<T extends keyof PrimaryRequests>(to: WorkerRef, topic: T, body: PrimaryRequests[T]["request"], timeoutMs: number): Promise<PrimaryRequests[T]["answer"] | undefined>;
  /** The workers connected now. */
  workers(): WorkerRef[];
  /** Called with each worker that exits, after its pending requests were settled; returns the function that stops it. */
  onExit(listener: (worker: WorkerRef) => void): () => void;
}

let workersLink: WorkersLink | undefined;

/** The primary's link to its workers (one per process). Throws outside a cluster primary. */
export function linkToWorkers(): WorkersLink {
  if (workersLink) return workersLink;
  if (!cluster.isPrimary) throw new Error("linkToWorkers() works in a cluster primary only");
  const handlers = new Map<string, Handler<WorkerRequests, keyof WorkerRequests, WorkerRef>>();
  const listeners = new Map<string, Set<(body: unknown, from: WorkerRef) => void>>();
  const exits = new Set<(worker: WorkerRef) => void>();
  const pending = new Map<number, { worker: number; settle: (body: unknown) => void }>();
  let nextId = 1;
  const connected = (id: number): ClusterWorker | undefined => {
    const worker = cluster.workers?.[id];
    return worker?.isConnected() ? worker : undefined;
  };
  const post = (to: WorkerRef, message: Envelope, onError: () => void = () => {}) => {
    const worker = connected(to.id);
    if (!worker) return onError();
    worker.send(message, undefined, (error: Error | null) => {
      if (error) onError();
    });
  };
  const answer = answerer(handlers as never, (message, from: WorkerRef) => post(from, message));
  cluster.on("message", (worker: ClusterWorker, message: unknown) => {
    if (!isEnvelope(message)) return;
    const from: WorkerRef = { id: worker.id };
    if (message.kind === "notice") for (const listener of listeners.get(message.topic) ?? []) listener(message.body, from);
    else if (message.kind === "request") answer(message, from);
    else pending.get(message.id)?.settle(message.error ? undefined : message.body);
  });
  cluster.on("exit", (worker: ClusterWorker) => {
    for (const [, waiting] of [...pending].filter(([, waiting]) => waiting.worker === worker.id)) waiting.settle(undefined);
    for (const listener of exits) listener({ id: worker.id });
  });
  workersLink = {
    answer(topic, handler) {
      handlers.set(topic, handler as never);
      return () => void handlers.delete(topic);
    },
    on(topic, listener) {
      let set = listeners.get(topic);
      if (!set) listeners.set(topic, (set = new Set()));
      const entry = listener as (body: unknown, from: WorkerRef) => void;
      set.add(entry);
      return () => void set.delete(entry);
    },
    notify(to, topic, body) {
      post(to, { channel: CHANNEL, kind: "notice", topic, body });
    },
    broadcast(topic, body, except) {
      const message: Envelope = { channel: CHANNEL, kind: "notice", topic, body };
      for (const worker of this.workers()) if (worker.id !== except?.id) post(worker, message);
    },
    request(to, topic, body, timeoutMs) {
      const id = nextId++;
      return new Promise((resolve) => {
        const timer = setTimeout(() => pending.get(id)?.settle(undefined), timeoutMs);
        pending.set(id, {
          worker: to.id,
          settle: (answer) => {
            clearTimeout(timer);
            pending.delete(id);
            resolve(answer as never);
          },
        });
        post(to, { channel: CHANNEL, kind: "request", topic, id, body }, () => pending.get(id)?.settle(undefined));
      });
    },
    workers() {
      return Object.values(cluster.workers ?? {}).flatMap((worker) => (worker?.isConnected() ? [{ id: worker.id }] : []));
    },
    onExit(listener) {
      exits.add(listener);
      return () => void exits.delete(listener);
    },
  };
  return workersLink;
}
