// What the CLI prints: the stable JSON shapes and the human table. Everything that came over the
// network (plaintexts above all: other people write them) is escaped before it reaches a terminal.
import type { DecryptedMessage, DeliveryStatus, MailboxProblem } from "@neutral/client";

/** A message as `--json` prints it. The shape is stable (see README.md, "JSON output"). */
export interface MessageJson {
  id: string;
  from: string;
  to: string;
  direction: "received" | "sent";
  timestamp: number;
  /** Only when the sender gave the message an end (ms since the epoch): no node serves it after. */
  expires?: number;
  /** null when the body could not be decrypted. */
  text: string | null;
  verified: boolean;
  checks: { decrypted: boolean; signature: boolean; senderReceipt: boolean; receiverReceipt: boolean };
  problems: string[];
  /** "pending" or "failed" only on a message you sent to an account homed on another node. */
  status: DeliveryStatus;
  /** Only with status "failed": why, in the words of your node. */
  reason?: string;
  /** The verifiable mailbox: whether the node's signed head proved the message (absent when nothing was proven, as for `watch`). */
  proven?: boolean;
}

export function messageJson(message: DecryptedMessage): MessageJson {
  const { decrypted, signature, senderReceipt, receiverReceipt } = message.checks;
  return {
    id: message.id,
    from: message.from,
    to: message.to,
    direction: message.direction,
    timestamp: message.timestamp,
    ...(message.expires !== undefined && { expires: message.expires }),
    text: message.text ?? null,
    verified: message.verified,
    checks: { decrypted, signature, senderReceipt, receiverReceipt },
    problems: [...message.problems],
    status: message.status,
    ...(message.status === "failed" && { reason: message.reason ?? "" }),
    ...(message.proven !== undefined && { proven: message.proven }),
  };
}

// Characters JSON.stringify leaves raw but a terminal may act on: DEL and the C1 controls (U+009B
// is a one-byte CSI on some terminals), the line/paragraph separators, and the bidirectional
// embeddings, overrides and isolates that reorder what is displayed ("Trojan Source").
const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One line of JSON; the same value JSON.parse gives back, but safe to print to a terminal. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// For the human output: every C0 control (ESC starts the ANSI sequences), DEL, C1, and the
// characters above. Newlines and tabs are handled by the callers that allow them.
const TERMINAL_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `text` with every control character made visible as an escape (`\x1b`, `\u202e`, `\n`). */
export function escapeControls(text: string): string {
  return text.replace(TERMINAL_UNSAFE, (char) => {
    const code = char.charCodeAt(0);
    return NAMED[char] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`);
  });
}

/** A plaintext as lines for the table: real line breaks kept, tabs as spaces, every other control escaped. */
export function textLines(text: string): string[] {
  return text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => escapeControls(line.replace(/\t/g, "    ")));
}

/** `0x1234…abcd`. */
export function shortAddress(address: string): string {
  const safe = escapeControls(address);
  return safe.length > 12 ? `${safe.slice(0, 6)}…${safe.slice(-4)}` : safe;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** Local time as `YYYY-MM-DD HH:MM:SS`. */
export function localTime(ms: number): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return "????-??-?? ??:??:??";
  const day = `${String(date.getFullYear()).padStart(4, "0")}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`;
  return `${day} ${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
}

export const VERIFIED = "✓";
export const UNVERIFIED = "✗";
export const PENDING = "…";

/** What a pending message says, in the table and after `send`. */
export const PENDING_TEXT = "pending: not delivered to the recipient's node yet";

/** "failed: <reason>" (escaped), for a message whose delivery failed. */
export const failedText = (message: DecryptedMessage) => `failed: ${escapeControls(message.reason || "no reason given")}`;

/**
 * The problems of a message besides its not being delivered (a pending or failed message has no
 * receiver receipt: that is its status, said on its own, not a verification failure).
 */
export function otherProblems(message: DecryptedMessage): string[] {
  if (message.status === "delivered" || message.raw.receiver_receipt !== undefined) return message.problems;
  const { decrypted, signature, senderReceipt } = message.checks;
  if (decrypted && signature && senderReceipt) return [];
  // The receiver receipt's problem is the one about delivery; every other one stays.
  return message.problems.filter((problem) => !problem.startsWith("not delivered yet") && !problem.startsWith("delivery failed"));
}

/** The mark of a message: ✓ verified (and proven, when it was asked), … pending, ✗ otherwise (failed, a check failed, not proven). */
export function markOf(message: DecryptedMessage): string {
  if (message.proven === false) return UNVERIFIED;
  if (message.verified) return VERIFIED;
  return message.status === "pending" && otherProblems(message).length === 0 ? PENDING : UNVERIFIED;
}

/** The columns a table aligns. */
export interface Widths {
  id: number;
}

export function widthsOf(messages: readonly DecryptedMessage[]): Widths {
  return { id: Math.max(2, ...messages.map((message) => escapeControls(message.id).length)) };
}

const TIME_WIDTH = 19;
const PEER_WIDTH = 11;

export function tableHeader(widths: Widths): string {
  return ["TIME".padEnd(TIME_WIDTH), "ID".padStart(widths.id), " ", "PEER".padEnd(PEER_WIDTH), " ", "TEXT"].join("  ").trimEnd();
}

/**
 * One message as table lines: time, id, arrow (← received from the peer, → sent to the peer),
 * the peer's short address, ✓ or ✗, and the text; further lines of the text, then what failed
 * verification, are indented under the text column.
 */
export function messageRows(message: DecryptedMessage, widths: Widths, unproven: readonly MailboxProblem[] = []): string[] {
  const peer = message.direction === "sent" ? message.to : message.from;
  const arrow = message.direction === "sent" ? "→" : "←";
  const mark = markOf(message);
  const lines = message.text === undefined ? ["(could not decrypt)"] : textLines(message.text);
  const head = [localTime(message.timestamp), escapeControls(message.id).padStart(widths.id), arrow, shortAddress(peer).padEnd(PEER_WIDTH), mark].join("  ");
  const indent = " ".repeat(TIME_WIDTH + widths.id + 1 + PEER_WIDTH + 1 + 4 * 2 + 2);
  const rows = [`${head}  ${lines[0]}`.trimEnd(), ...lines.slice(1).map((line) => `${indent}${line}`.trimEnd())];
  if (message.status === "pending") rows.push(`${indent}${PENDING} ${PENDING_TEXT}`);
  if (message.status === "failed") rows.push(`${indent}${UNVERIFIED} ${failedText(message)}`);
  const problems = otherProblems(message);
  if (!message.verified && (message.status === "delivered" || problems.length > 0)) {
    rows.push(`${indent}${UNVERIFIED} not verified: ${problems.map(escapeControls).join("; ") || "unknown reason"}`);
  }
  if (message.proven === false) {
    const why = unproven.filter((problem) => problem.id === message.id).map((problem) => escapeControls(problem.message));
    rows.push(`${indent}${UNVERIFIED} not proven: ${why.join("; ") || "the node's head is not proven (see above)"}`);
  }
  return rows;
}

/** A page of messages as a table with a header; `unproven`: what the pages' proofs did not show (the verifiable mailbox). */
export function messageTable(messages: readonly DecryptedMessage[], unproven: readonly MailboxProblem[] = []): string[] {
  const widths = widthsOf(messages);
  return [tableHeader(widths), ...messages.flatMap((message) => messageRows(message, widths, unproven))];
}
