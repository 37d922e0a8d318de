// `@neutral/client/export`: a mailbox exported as JSON Lines (format "neutral-mailbox", version 2:
// the node's signed head of the account's log and every position up to it, with its message or why
// it is gone), verified offline from the file alone, and imported at a new home with the head.
// Version 1 exports (messages only) are still read. Kept out of the main entry: the SDK's size
// budget. The format is documented in the README ("Exporting a mailbox").
import { JSON_RPC_ERRORS } from "@neutral/protocol";
import { isAddress } from "./crypto/ecdsa.js";
import { NeutralError } from "./errors.js";
import type { NeutralServiceClient } from "./generated/methods.js";
import type { HomeRecord, KeyBundle, LogPage, LogPosition, MailboxHead, Message } from "./generated/types.js";
import { logCheck, type LogCheck, type LogProblem } from "./export-log.js";
import { isValidHomeRecord } from "./home.js";
import { checkMessage, type CheckContext, type HomeNode } from "./messages.js";
import { isValidKeyBundle } from "./messaging-key.js";
import type { HeadStore } from "./context.js";
import type { Neutral } from "./neutral.js";
import { RpcError, type CallOptions } from "./rpc.js";

export const MAILBOX_FORMAT = "neutral-mailbox";
/** The version exports are written in. Version 2 (spec 2.10.0) carries the log; version 1 carried messages only, and is still read. */
export const MAILBOX_VERSION = 2;
/** The versions read. */
export type MailboxVersion = 1 | 2;

/** Line 1 of an export. */
export interface MailboxHeader {
  format: typeof MAILBOX_FORMAT;
  version: MailboxVersion;
  /** The exported account (lowercase). */
  account: string;
  /** The address of the node the mailbox was read from (`nodeInfo().address`, lowercase): the account's home node. */
  node: string;
  /** When the export started, ms since the epoch. */
  exportedAt: number;
  /** The account's home record as the node served it (`getHome`), or null. */
  home: HomeRecord | null;
  /** The account's key bundle as the node served it (`getKey`), or null. */
  key: KeyBundle | null;
  /** Every correspondent's home record as the node served it, or null when it has none; keyed by lowercase address. */
  homes: Record<string, HomeRecord | null>;
  /** Version 2: the node's signed head of the account's log when the export started; the lines after the header are its positions 1 to `size`. */
  head?: MailboxHead;
  /** Version 2: the node's retention and clock window (`nodeInfo().limits`), by which the reasons positions give are checked. */
  limits?: { retentionSeconds: number; clockSkewMs: number };
}

export interface ExportOptions extends CallOptions {
  /** Positions per `getLog` page, 1..1000 (default 500; the node cuts a page of large messages to its answer budget). */
  limit?: number;
}

const isMethodNotFound = (error: unknown) => error instanceof RpcError && error.code === JSON_RPC_ERRORS.MethodNotFound.code;

/**
 * The positions of the account's log from 1 to `size`, page by page, each with its message while
 * the node serves it (`getLog` with `messages`); `first` is the page already read from position 1.
 */
async function* walkLog(client: NeutralServiceClient, size: number, limit: number, call: CallOptions, first?: LogPage): AsyncGenerator<LogPosition[]> {
  let next = 1;
  let page = first;
  while (next <= size) {
    page ??= await client.getLog({ from: next, limit, messages: true }, call);
    const entries = page.entries.filter((entry) => entry.seq <= size);
    const last = entries.at(-1)?.seq;
    // What the node serves is written as served (the verification names what is wrong); a walk that does not go on ends here.
    if (last === undefined || !(last >= next)) throw new NeutralError("PROTOCOL_ERROR", `The node's log has no position ${next}, below its head's size ${size}`);
    yield entries;
    next = last + 1;
    page = undefined;
  }
}

/**
 * The account's mailbox as JSON Lines (each string one line, without its newline): the header, with
 * the node's signed head of the account's log, then every position of the log up to that head, as
 * the node serves it (`getLog` with `messages`: its message, or why it is gone). The log is read
 * twice, a page at a time (memory does not grow with it): first to learn the correspondents, whose
 * home records go in the header, then to write the positions.
 */
export function exportMailbox(neutral: Neutral, options: ExportOptions = {}): AsyncIterable<string> {
  const limit = options.limit ?? 500;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new NeutralError("INVALID_ARGUMENT", "limit must be an integer in 1..1000");
  const call: CallOptions = { ...(options.signal && { signal: options.signal }), ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) };
  return {
    async *[Symbol.asyncIterator]() {
      const exportedAt = Date.now();
      await neutral.ready();
      const client = neutral.client;
      const [account, info] = await Promise.all([neutral.getAddress(), neutral.nodeInfo()]);
      const first = await client.getLog({ from: 1, limit, messages: true }, call);
      const { head } = first;
      const correspondents = new Set<string>();
      for await (const entries of walkLog(client, head.size, limit, call, first)) {
        for (const { message } of entries) {
          if (message === undefined) continue;
          for (const party of [message.from.toLowerCase(), message.to.toLowerCase()]) if (party !== account) correspondents.add(party);
        }
      }
      let federates = true;
      const homeOf = async (who: string): Promise<HomeRecord | null> => {
        if (!federates) return null;
        try {
          return await client.getHome({ account: who }, call);
        } catch (error) {
          if (!isMethodNotFound(error)) throw error;
          federates = false;
          return null;
        }
      };
      const home = await homeOf(account);
      const homes: Record<string, HomeRecord | null> = {};
      for (const who of [...correspondents].sort()) homes[who] = await homeOf(who);
      const header: MailboxHeader = {
        format: MAILBOX_FORMAT,
        version: MAILBOX_VERSION,
        account,
        node: info.address.toLowerCase(),
        exportedAt,
        home,
        key: await client.getKey({ account }, call),
        homes,
        head,
        limits: { retentionSeconds: info.limits.retentionSeconds ?? 0, clockSkewMs: info.limits.clockSkewMs },
      };
      yield JSON.stringify(header);
      for await (const entries of walkLog(client, head.size, limit, call)) {
        for (const entry of entries) yield JSON.stringify(entry);
      }
    },
  };
}

/**
 * One thing wrong with an export: where (line, 1-based; the message id when it could be read) and
 * what. In a version 2 export's log, also the position and the kind, as an audit names them.
 */
export interface ExportProblem {
  line: number;
  /** The message's id; null for the header or a line whose id cannot be read. */
  id: string | null;
  problem: string;
  /** Version 2: the position concerned, when there is one. */
  seq?: number;
  /** Version 2: the kind of a problem of the log (`MailboxProblemKind`). */
  kind?: LogProblem["kind"];
  /** Version 2: for a rollback or fork of two heads the node signed, the portable proof. */
  proof?: LogProblem["proof"];
}

export interface MailboxVerification {
  account: string;
  node: string;
  exportedAt: number;
  /** The export's format version. */
  version: MailboxVersion;
  /** Messages in the export (version 2: positions that carry one). */
  messages: number;
  /** Messages whose signature and both receipts check out (version 1: in order, each once). */
  verified: number;
  problems: ExportProblem[];
  /** Version 2: the node's signed head the export carries. */
  head?: MailboxHead;
  /** Version 2: the positions, and how each was accounted for (by its message, or by why its copy is gone). */
  positions?: number;
  accounted?: Record<"message" | "deleted" | "expired" | "retention", number>;
  /** Version 2: every position up to the head is there and accounted for, and they give its root (and extend the device's head): no problem with a `kind`. */
  complete?: boolean;
}

export interface VerifyOptions {
  /** Receipts signed by these nodes are accepted for any account, as `createNeutral`'s `trustedNodes`. */
  trustedNodes?: readonly string[];
  /**
   * This device's verified heads (`NeutralOptions.heads`; the CLI's state folder): a version 2
   * export's log must extend the one verified for its account at its node, or it is a rollback or a fork.
   */
  heads?: HeadStore;
}

const MESSAGE_ID = /^(?:0|[1-9][0-9]{0,18})$/;
const CIPHERTEXT = /^(?:[0-9a-fA-F]{2})+$/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isRecordShape = (value: unknown): value is HomeRecord =>
  isObject(value) && typeof value.account === "string" && typeof value.node === "string" && typeof value.timestamp === "number" && typeof value.signature === "string";
const isBundleShape = (value: unknown): value is KeyBundle =>
  isObject(value) && typeof value.account === "string" && typeof value.key === "string" && typeof value.timestamp === "number" && typeof value.signature === "string";

function notAnExport(why: string): NeutralError {
  return new NeutralError("INVALID_ARGUMENT", `Not a ${MAILBOX_FORMAT} export (version 1 or ${MAILBOX_VERSION}): ${why}`);
}

const isHeadShape = (value: unknown): value is MailboxHead =>
  isObject(value) &&
  typeof value.account === "string" &&
  typeof value.size === "number" &&
  Number.isSafeInteger(value.size) &&
  value.size >= 0 &&
  typeof value.root === "string" &&
  typeof value.timestamp === "number" &&
  typeof value.signature === "string";

/** The header, or throws when line 1 is not one; `problems` gets what is wrong inside a readable header. */
function readHeader(line: string, problems: ExportProblem[]): { header: MailboxHeader; homes: Map<string, HomeNode> } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw notAnExport("line 1 is not JSON");
  }
  if (!isObject(value) || value.format !== MAILBOX_FORMAT) throw notAnExport(`line 1 has no "format": "${MAILBOX_FORMAT}"`);
  if (value.version !== 1 && value.version !== 2) throw notAnExport(`its version is ${JSON.stringify(value.version)}`);
  const version: MailboxVersion = value.version;
  const { account, node, exportedAt, home, key, homes, head, limits } = value;
  if (version === 2) {
    if (!isHeadShape(head)) throw notAnExport("the header has no head (a version 2 export carries the node's signed head of the log)");
    if (!isObject(limits) || typeof limits.retentionSeconds !== "number" || typeof limits.clockSkewMs !== "number") throw notAnExport("the header has no limits");
  }
  if (typeof account !== "string" || !isAddress(account)) throw notAnExport("the header's account is not an address");
  if (typeof node !== "string" || !isAddress(node)) throw notAnExport("the header's node is not an address");
  if (typeof exportedAt !== "number") throw notAnExport("the header has no exportedAt");
  if (!isObject(homes)) throw notAnExport("the header has no homes");
  if (home !== null && !isRecordShape(home)) throw notAnExport("the header's home is neither a home record nor null");
  if (key !== null && !isBundleShape(key)) throw notAnExport("the header's key is neither a key bundle nor null");
  const self = account.toLowerCase();
  const header: MailboxHeader = {
    format: MAILBOX_FORMAT,
    version,
    account: self,
    node: node.toLowerCase(),
    exportedAt,
    home,
    key,
    homes: {},
    ...(version === 2 && { head: head as MailboxHead, limits: limits as MailboxHeader["limits"] }),
  };
  const headerProblem = (problem: string) => problems.push({ line: 1, id: null, problem });
  if (key !== null && !isValidKeyBundle(key, self)) headerProblem(`the key bundle is not signed by ${self}`);

  // The rule of the live checks: a record its account did not sign is ignored, as if there were none.
  const known = new Map<string, HomeNode>();
  const learn = (who: string, record: unknown) => {
    if (record === null) return known.set(who, { kind: "none" });
    if (isRecordShape(record) && isValidHomeRecord(record, who)) return known.set(who, { kind: "record", node: record.node.toLowerCase() });
    headerProblem(`the home record of ${who} is not signed by ${who}: ignored`);
    return known.set(who, { kind: "none" });
  };
  for (const [who, record] of Object.entries(homes)) {
    if (!isAddress(who)) {
      headerProblem(`homes has an entry that is not an address`);
      continue;
    }
    header.homes[who.toLowerCase()] = record as HomeRecord | null;
    learn(who.toLowerCase(), record);
  }
  learn(self, home);
  return { header, homes: known };
}

/** What is wrong with the fields of a message line that the signature checks do not cover, or undefined. */
function malformed(value: Record<string, unknown>): string | undefined {
  if (typeof value.id !== "string" || !MESSAGE_ID.test(value.id)) return "its id is missing or malformed";
  for (const field of ["from", "to"] as const) {
    if (typeof value[field] !== "string" || !isAddress(value[field])) return `its ${field} is missing or not an address`;
  }
  if (typeof value.message !== "string" || !CIPHERTEXT.test(value.message)) return "its ciphertext (message) is missing or not hex";
  if (typeof value.timestamp !== "number" || !Number.isSafeInteger(value.timestamp)) return "its timestamp is missing or not an integer";
  return undefined;
}

/**
 * Verifies an export offline (no network, no key): each message's sender signature and its
 * receipts against the home nodes the header's records name, by the SDK's own rules; that the
 * messages are the account's, in id order, each once. Throws `NeutralError` INVALID_ARGUMENT when
 * line 1 is not a neutral-mailbox version 1 header.
 */
export async function verifyMailboxExport(lines: Iterable<string> | AsyncIterable<string>, options: VerifyOptions = {}): Promise<MailboxVerification> {
  const problems: ExportProblem[] = [];
  let read: { header: MailboxHeader; homes: Map<string, HomeNode> } | undefined;
  let context: CheckContext | undefined;
  let log: LogCheck | undefined;
  let messages = 0;
  let verified = 0;
  let lineNumber = 0;
  let newest: { id: bigint; line: number } | undefined;
  for await (const line of lines) {
    lineNumber++;
    if (read === undefined) {
      read = readHeader(line, problems);
      context = checkContextOf(read, options);
      log = logCheckOf(read.header, await options.heads?.get(read.header.account, read.header.node));
      continue;
    }
    if (line.trim() === "") continue;
    const flag = (id: string | null, problem: string) => problems.push({ line: lineNumber, id, problem });
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (log !== undefined) {
      // Version 2: a position of the log, with its message or why it is gone.
      if (!isObject(value)) flag(null, "the line is not a position of the log");
      const found = log.position(value);
      const id = isObject(value) && typeof value.id === "string" ? value.id : null;
      problems.push(...found.map((problem) => logProblemAt(lineNumber, id, problem)));
      if (!isObject(value) || !isObject(value.message)) continue;
      messages++;
      const shape = malformed(value.message);
      const message = value.message as unknown as Message;
      if (shape !== undefined) {
        flag(id, `malformed message: ${shape}`);
        continue;
      }
      const checks = await checkMessage(message, context!);
      for (const problem of checks.problems) flag(message.id, problem);
      if (found.length === 0 && log.intact && checks.problems.length === 0) verified++;
      continue;
    }
    messages++;
    if (value === undefined) {
      flag(null, "the line is not JSON");
      continue;
    }
    if (!isObject(value)) {
      flag(null, "the line is not a message object");
      continue;
    }
    const id = typeof value.id === "string" && MESSAGE_ID.test(value.id) ? value.id : null;
    const shape = malformed(value);
    if (shape !== undefined) {
      flag(id, `malformed message: ${shape}`);
      continue;
    }
    const message = value as unknown as Message;
    let ok = true;
    const position = BigInt(message.id);
    if (newest !== undefined && position <= newest.id) {
      ok = false;
      flag(message.id, position === newest.id ? `a duplicate of the message on line ${newest.line}` : `out of id order: after ${newest.id} (line ${newest.line})`);
    } else {
      newest = { id: position, line: lineNumber };
    }
    const self = read.header.account;
    if (message.from.toLowerCase() !== self && message.to.toLowerCase() !== self) {
      ok = false;
      flag(message.id, `not a message of ${self}: neither its from nor its to`);
    }
    const checks = await checkMessage(message, context!);
    for (const problem of checks.problems) flag(message.id, problem);
    if (ok && checks.problems.length === 0) verified++;
  }
  if (read === undefined) throw notAnExport("it is empty");
  const { header } = read;
  const summary: MailboxVerification = { account: header.account, node: header.node, exportedAt: header.exportedAt, version: header.version, messages, verified, problems };
  if (log === undefined) return summary;
  problems.push(...log.finish().map((problem) => logProblemAt(1, null, problem)));
  // Complete: nothing wrong with the log itself (a message's signature or receipts are the messages' problems).
  return { ...summary, head: header.head!, positions: log.read, accounted: { ...log.accounted }, complete: problems.every((problem) => problem.kind === undefined) };
}

/** How an export's messages are checked: their receipts against the home nodes its header names. */
function checkContextOf({ header, homes }: { header: MailboxHeader; homes: Map<string, HomeNode> }, options: VerifyOptions): CheckContext {
  const unknown = (who: string): HomeNode => ({ kind: "unknown", reason: `${who} is not in the export's header` });
  return {
    sessionNode: header.node,
    trustedNodes: (options.trustedNodes ?? []).map((node) => node.toLowerCase()),
    homeOf: async (who) => homes.get(who) ?? unknown(who),
  };
}

/** The check of a version 2 export's log against its head (and the device's `known` one); none for version 1. */
function logCheckOf(header: MailboxHeader, known: MailboxHead | undefined): LogCheck | undefined {
  if (header.version !== 2) return undefined;
  return logCheck({
    account: header.account,
    node: header.node,
    head: header.head!,
    retentionSeconds: header.limits!.retentionSeconds,
    clockSkewMs: header.limits!.clockSkewMs,
    exportedAt: header.exportedAt,
    ...(known && { known }),
  });
}

const logProblemAt = (line: number, id: string | null, { kind, seq, message, proof }: LogProblem): ExportProblem => ({
  line,
  id,
  problem: message,
  kind,
  ...(seq !== undefined && { seq }),
  ...(proof && { proof }),
});

export interface ImportOptions extends CallOptions {
  /** Messages per `importMessages` call, 1..100 (default 100). */
  batch?: number;
  /**
   * This device's verified heads (`NeutralOptions.heads`): a version 2 export's log must extend the
   * one verified for the account at the former home for its head to be passed on (`VerifyOptions.heads`).
   */
  heads?: HeadStore;
}

/** What {@link importMailbox} did: the messages stored (or found there already), and those it left out, with why. */
export interface MailboxImport {
  imported: number;
  skipped: ExportProblem[];
  /**
   * Version 2: the former home's head, passed to the new home with the last messages (kept there as
   * the account's prior history, `LogPage.prior`) when the export's log gives it and extends `known`;
   * null when it was not (then `problems` says why), or for a version 1 export.
   */
  head: MailboxHead | null;
  /** Version 2: what is wrong with the export's log, as `verifyMailboxExport` names it. */
  problems: ExportProblem[];
}

/**
 * Imports an export of this account's mailbox (`exportMailbox`, made at its former home node) into
 * its mailbox at the session's node, its new home after a move: every delivered message, oldest
 * first, with its original signatures and receipts (`neutralService_importMessages`, up to 100 a
 * call). Pending and failed copies are not history: they are skipped and listed. A version 2 export's
 * log is checked on the way as `verifyMailboxExport` checks it; when it gives the former home's head
 * (and extends the head `options.heads` holds for that node), the head goes to the new home with the last messages. Safe to run
 * again: messages already there keep their ids.
 */
export async function importMailbox(neutral: Neutral, lines: Iterable<string> | AsyncIterable<string>, options: ImportOptions = {}): Promise<MailboxImport> {
  const size = options.batch ?? 100;
  if (!Number.isInteger(size) || size < 1 || size > 100) throw new NeutralError("INVALID_ARGUMENT", "batch must be an integer in 1..100");
  const call: CallOptions = { ...(options.signal && { signal: options.signal }), ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) };
  const self = await neutral.getAddress();
  const skipped: ExportProblem[] = [];
  const problems: ExportProblem[] = [];
  let imported = 0;
  let batch: Message[] = [];
  const send = async (messages: Message[], head?: MailboxHead) => {
    const { ids } = await neutral.client.importMessages({ messages, ...(head && { head }) }, call);
    imported += ids.length;
  };
  let header: MailboxHeader | undefined;
  let log: LogCheck | undefined;
  /** Version 2: each message once (a message to oneself holds two positions). */
  const seen = new Set<string>();
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (lineNumber === 1) {
      header = readHeader(line, []).header;
      if (header.account !== self) throw new NeutralError("INVALID_ARGUMENT", `The export is ${header.account}'s mailbox, not this account's (${self})`);
      log = logCheckOf(header, await options.heads?.get(header.account, header.node));
      continue;
    }
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (log !== undefined) {
      const positionId = isObject(value) && typeof value.id === "string" ? value.id : null;
      problems.push(...log.position(value).map((problem) => logProblemAt(lineNumber, positionId, problem)));
      value = isObject(value) ? value.message : undefined;
      if (value === undefined) continue; // a position whose copy is gone: nothing to import
    }
    if (value === undefined) {
      skipped.push({ line: lineNumber, id: null, problem: "not JSON" });
      continue;
    }
    const message = value as Message;
    const id = isObject(message) && typeof message.id === "string" ? message.id : null;
    if (!isObject(message) || typeof message.from !== "string" || typeof message.to !== "string") {
      skipped.push({ line: lineNumber, id, problem: "not a message" });
    } else if ((message.status !== undefined && message.status !== "delivered") || message.receiver_receipt === undefined) {
      skipped.push({ line: lineNumber, id, problem: `not delivered (${message.status ?? "no receiver receipt"}): not history to import` });
    } else if (log === undefined || id === null || !seen.has(id)) {
      if (log !== undefined && id !== null) seen.add(id);
      // The last batch waits for the end: it carries the head.
      if (batch.length === size) {
        await send(batch);
        batch = [];
      }
      batch.push(message);
    }
  }
  if (header === undefined) throw notAnExport("it is empty");
  if (log !== undefined) problems.push(...log.finish().map((problem) => logProblemAt(1, null, problem)));
  const head = log !== undefined && problems.length === 0 && batch.length > 0 ? header.head! : null;
  if (batch.length > 0) await send(batch, head ?? undefined);
  return { imported, skipped, head, problems };
}
