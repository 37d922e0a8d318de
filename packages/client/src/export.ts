// `@neutral/client/export`: a mailbox exported as JSON Lines (format "neutral-mailbox", version 1),
// and verified offline from the file alone. Kept out of the main entry: the SDK's size budget.
// The format is documented in the README ("Exporting a mailbox").
import { JSON_RPC_ERRORS } from "@neutral/protocol";
import { isAddress } from "./crypto/ecdsa.js";
import { NeutralError } from "./errors.js";
import type { NeutralServiceClient } from "./generated/methods.js";
import type { HomeRecord, KeyBundle, Message } from "./generated/types.js";
import { isValidHomeRecord } from "./home.js";
import { checkMessage, type CheckContext, type HomeNode } from "./messages.js";
import { isValidKeyBundle } from "./messaging-key.js";
import type { Neutral } from "./neutral.js";
import { RpcError, type CallOptions } from "./rpc.js";

export const MAILBOX_FORMAT = "neutral-mailbox";
export const MAILBOX_VERSION = 1;

/** Line 1 of an export. */
export interface MailboxHeader {
  format: typeof MAILBOX_FORMAT;
  version: typeof MAILBOX_VERSION;
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
}

export interface ExportOptions extends CallOptions {
  /** Messages per `getInbox` page, 1..100 (default 100). */
  limit?: number;
}

const isMethodNotFound = (error: unknown) => error instanceof RpcError && error.code === JSON_RPC_ERRORS.MethodNotFound.code;

/** Every message of the mailbox, both directions, oldest first, page by page (`after` cursors). */
async function* walkMailbox(client: NeutralServiceClient, limit: number, call: CallOptions): AsyncGenerator<Message[]> {
  let after = "0";
  for (;;) {
    const page = await client.getInbox({ inboxFilter: { direction: "all" }, limit, after }, call);
    yield page.data;
    const next = page.cursor ?? page.data.at(-1)?.id;
    if (page.end || next === undefined) return;
    if (BigInt(next) <= BigInt(after)) throw new NeutralError("PROTOCOL_ERROR", `The node's inbox walk went backwards (after ${after}, next ${next})`);
    after = next;
  }
}

/**
 * The account's mailbox as JSON Lines (each string one line, without its newline): the header, then
 * every message sent and received, as the node served it, in id order, each once. The mailbox is
 * read twice, a page at a time (memory does not grow with it): first to learn the correspondents,
 * whose home records go in the header, then to write the messages up to the newest one the first
 * walk saw (messages stored meanwhile are left for the next export).
 */
export function exportMailbox(neutral: Neutral, options: ExportOptions = {}): AsyncIterable<string> {
  const limit = options.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new NeutralError("INVALID_ARGUMENT", "limit must be an integer in 1..100");
  const call: CallOptions = { ...(options.signal && { signal: options.signal }), ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) };
  return {
    async *[Symbol.asyncIterator]() {
      const exportedAt = Date.now();
      await neutral.ready();
      const client = neutral.client;
      const [account, info] = await Promise.all([neutral.getAddress(), neutral.nodeInfo()]);
      const correspondents = new Set<string>();
      let last: bigint | undefined;
      for await (const messages of walkMailbox(client, limit, call)) {
        for (const message of messages) {
          for (const party of [message.from.toLowerCase(), message.to.toLowerCase()]) if (party !== account) correspondents.add(party);
          last = BigInt(message.id);
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
      };
      yield JSON.stringify(header);
      if (last === undefined) return;
      for await (const messages of walkMailbox(client, limit, call)) {
        for (const message of messages) {
          if (BigInt(message.id) > last) return;
          yield JSON.stringify(message);
        }
      }
    },
  };
}

/** One thing wrong with an export: where (line, 1-based; the message id when it could be read) and what. */
export interface ExportProblem {
  line: number;
  /** The message's id; null for the header or a line whose id cannot be read. */
  id: string | null;
  problem: string;
}

export interface MailboxVerification {
  account: string;
  node: string;
  exportedAt: number;
  /** Message lines in the export. */
  messages: number;
  /** Messages whose signature and both receipts check out, in order, each once. */
  verified: number;
  problems: ExportProblem[];
}

export interface VerifyOptions {
  /** Receipts signed by these nodes are accepted for any account, as `createNeutral`'s `trustedNodes`. */
  trustedNodes?: readonly string[];
}

const MESSAGE_ID = /^(?:0|[1-9][0-9]{0,18})$/;
const CIPHERTEXT = /^(?:[0-9a-fA-F]{2})+$/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isRecordShape = (value: unknown): value is HomeRecord =>
  isObject(value) && typeof value.account === "string" && typeof value.node === "string" && typeof value.timestamp === "number" && typeof value.signature === "string";
const isBundleShape = (value: unknown): value is KeyBundle =>
  isObject(value) && typeof value.account === "string" && typeof value.key === "string" && typeof value.timestamp === "number" && typeof value.signature === "string";

function notAnExport(why: string): NeutralError {
  return new NeutralError("INVALID_ARGUMENT", `Not a ${MAILBOX_FORMAT} version ${MAILBOX_VERSION} export: ${why}`);
}

/** The header, or throws when line 1 is not one; `problems` gets what is wrong inside a readable header. */
function readHeader(line: string, problems: ExportProblem[]): { header: MailboxHeader; homes: Map<string, HomeNode> } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw notAnExport("line 1 is not JSON");
  }
  if (!isObject(value) || value.format !== MAILBOX_FORMAT) throw notAnExport(`line 1 has no "format": "${MAILBOX_FORMAT}"`);
  if (value.version !== MAILBOX_VERSION) throw notAnExport(`its version is ${JSON.stringify(value.version)}`);
  const { account, node, exportedAt, home, key, homes } = value;
  if (typeof account !== "string" || !isAddress(account)) throw notAnExport("the header's account is not an address");
  if (typeof node !== "string" || !isAddress(node)) throw notAnExport("the header's node is not an address");
  if (typeof exportedAt !== "number") throw notAnExport("the header has no exportedAt");
  if (!isObject(homes)) throw notAnExport("the header has no homes");
  if (home !== null && !isRecordShape(home)) throw notAnExport("the header's home is neither a home record nor null");
  if (key !== null && !isBundleShape(key)) throw notAnExport("the header's key is neither a key bundle nor null");
  const self = account.toLowerCase();
  const header: MailboxHeader = { format: MAILBOX_FORMAT, version: MAILBOX_VERSION, account: self, node: node.toLowerCase(), exportedAt, home, key, homes: {} };
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
  let messages = 0;
  let verified = 0;
  let lineNumber = 0;
  let newest: { id: bigint; line: number } | undefined;
  for await (const line of lines) {
    lineNumber++;
    if (read === undefined) {
      read = readHeader(line, problems);
      const { header, homes } = read;
      const unknown = (who: string): HomeNode => ({ kind: "unknown", reason: `${who} is not in the export's header` });
      context = {
        sessionNode: header.node,
        trustedNodes: (options.trustedNodes ?? []).map((node) => node.toLowerCase()),
        homeOf: async (who) => homes.get(who) ?? unknown(who),
      };
      continue;
    }
    if (line.trim() === "") continue;
    messages++;
    const flag = (id: string | null, problem: string) => problems.push({ line: lineNumber, id, problem });
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
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
  return { account: read.header.account, node: read.header.node, exportedAt: read.header.exportedAt, messages, verified, problems };
}

export interface ImportOptions extends CallOptions {
  /** Messages per `importMessages` call, 1..100 (default 100). */
  batch?: number;
}

/** What {@link importMailbox} did: the messages stored (or found there already), and those it left out, with why. */
export interface MailboxImport {
  imported: number;
  skipped: ExportProblem[];
}

/**
 * Imports an export of this account's mailbox (`exportMailbox`, made at its former home node) into
 * its mailbox at the session's node, its new home after a move: every delivered message, oldest
 * first, with its original signatures and receipts (`neutralService_importMessages`, up to 100 a
 * call). Pending and failed copies are not history: they are skipped and listed. Safe to run again:
 * messages already there keep their ids. Run `verifyMailboxExport` first to know what the file holds.
 */
export async function importMailbox(neutral: Neutral, lines: Iterable<string> | AsyncIterable<string>, options: ImportOptions = {}): Promise<MailboxImport> {
  const size = options.batch ?? 100;
  if (!Number.isInteger(size) || size < 1 || size > 100) throw new NeutralError("INVALID_ARGUMENT", "batch must be an integer in 1..100");
  const call: CallOptions = { ...(options.signal && { signal: options.signal }), ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) };
  const self = await neutral.getAddress();
  const skipped: ExportProblem[] = [];
  let imported = 0;
  let batch: Message[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const { ids } = await neutral.client.importMessages({ messages: batch }, call);
    imported += ids.length;
    batch = [];
  };
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (lineNumber === 1) {
      const { header } = readHeader(line, []);
      if (header.account !== self) throw new NeutralError("INVALID_ARGUMENT", `The export is ${header.account}'s mailbox, not this account's (${self})`);
      continue;
    }
    if (line.trim() === "") continue;
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      skipped.push({ line: lineNumber, id: null, problem: "not JSON" });
      continue;
    }
    const id = isObject(message) && typeof message.id === "string" ? message.id : null;
    if (!isObject(message) || typeof message.from !== "string" || typeof message.to !== "string") {
      skipped.push({ line: lineNumber, id, problem: "not a message" });
    } else if ((message.status !== undefined && message.status !== "delivered") || message.receiver_receipt === undefined) {
      skipped.push({ line: lineNumber, id, problem: `not delivered (${message.status ?? "no receiver receipt"}): not history to import` });
    } else {
      batch.push(message);
      if (batch.length === size) await flush();
    }
  }
  if (lineNumber === 0) throw notAnExport("it is empty");
  await flush();
  return { imported, skipped };
}
