// Every failure becomes exactly one line on stderr: `neutral: <what went wrong>`. Exit 2 for a
// wrong invocation (with a pointer to --help), 1 for everything else.
import { NeutralError, RpcError, RpcTransportError } from "@neutral/client";
import { escapeControls } from "./format.js";

/** The command line itself is wrong: exit 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(
    message: string,
    /** Where to look: "neutral --help" or "neutral send --help". */
    readonly help = "neutral --help",
  ) {
    super(message);
  }
}

/** A failure the CLI describes itself, already in words for the user: exit 1. */
export class CliError extends Error {
  override readonly name = "CliError";
}

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** One line, every control character escaped (error texts can come from the node). */
const oneLine = (text: string) => escapeControls(text.replace(/\s*\n\s*/g, " ")).trim();

const HINTS: Partial<Record<string, string>> = {
  NO_RECIPIENT_KEY: "any neutral command does that, e.g. `neutral whoami`",
};

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/**
 * Why a request got no answer, from the innermost cause fetch gives: its code and the address it
 * tried, and the code in words (`ECONNREFUSED 127.0.0.1:8645: connection refused`).
 */
function networkReason(error: RpcTransportError): string {
  const own = error.message.replace(/^Request to \S+ failed: /, "");
  if (own !== "network error") return own;
  let cause: unknown = error.cause;
  let reason = own;
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    const { code, address, port, hostname } = cause as { code?: unknown; address?: unknown; port?: unknown; hostname?: unknown };
    if (typeof code === "string" && NETWORK_CODES[code]) {
      const host = typeof address === "string" ? (address.includes(":") ? `[${address}]` : address) : typeof hostname === "string" ? hostname : undefined;
      const where = host === undefined ? "" : typeof port === "number" ? ` ${host}:${port}` : ` ${host}`;
      return `${code}${where}: ${NETWORK_CODES[code]}`;
    }
    if (cause.message && cause.message !== "fetch failed") reason = cause.message;
    cause = cause.cause;
  }
  return reason;
}

function rpcDetail(error: RpcError): string {
  const data = error.data;
  if (typeof data === "object" && data !== null && "reason" in data) {
    const reason = (data as { reason: unknown }).reason;
    if (typeof reason === "string" && !error.message.includes(reason)) return `: ${reason}`;
  }
  return "";
}

export interface ErrorContext {
  /** The node URL, as shown to the user. */
  url?: string;
}

/** The exit code and the one line (without the `neutral: ` prefix) for an error. */
export function describeError(error: unknown, context: ErrorContext = {}): { code: number; line: string } {
  if (error instanceof UsageError) return { code: EXIT_USAGE, line: `${oneLine(error.message)} (see ${error.help})` };
  if (error instanceof CliError) return { code: EXIT_FAILURE, line: oneLine(error.message) };
  if (error instanceof NeutralError) {
    const hint = HINTS[error.code];
    return { code: EXIT_FAILURE, line: `${oneLine(error.message)}${hint ? `; ${hint}` : ""} (${error.code})` };
  }
  if (error instanceof RpcError) {
    const text = error.message + rpcDetail(error);
    // Sign-in tokens name the URL's host:port; a node accepts only its own (or its --domain ones).
    const hint = error.code === -32001 && /domain/i.test(text) ? "; use the host:port the node was started with in NEUTRAL_URL, or start the node with --domain" : "";
    return { code: EXIT_FAILURE, line: `the node refused: ${oneLine(text)}${hint} (${error.code})` };
  }
  if (error instanceof RpcTransportError) {
    const unreachable = error.status === undefined && /network error|timed out/.test(error.message);
    const where = context.url ?? "the node";
    return {
      code: EXIT_FAILURE,
      line: unreachable
        ? `cannot reach the node at ${where} (${oneLine(networkReason(error))}); is a relay running there? Start one with \`neutral serve\`, or point NEUTRAL_URL / --url at one`
        : `the node at ${where} did not answer JSON-RPC: ${oneLine(error.message)}`,
    };
  }
  if (error instanceof Error) return { code: EXIT_FAILURE, line: oneLine(error.message) || error.name };
  return { code: EXIT_FAILURE, line: oneLine(String(error)) };
}

/** The stack and the chain of causes, for NEUTRAL_DEBUG=1. */
export function debugDetails(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    parts.push(current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : String(current));
    current = current instanceof Error ? current.cause : undefined;
    if (current !== undefined) parts.push("caused by:");
  }
  return parts.join("\n");
}

/** Every occurrence of a secret (case-insensitive, with or without 0x) replaced, in any text about to be printed. */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const needles = secrets
    .map((secret) => secret.replace(/^0x/i, "").toLowerCase())
    .filter((needle) => needle.length >= 16)
    .map((needle) => needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (needles.length === 0) return (text) => text;
  const pattern = new RegExp(`(?:0x)?(?:${needles.join("|")})`, "gi");
  return (text) => text.replace(pattern, "[redacted]");
}
