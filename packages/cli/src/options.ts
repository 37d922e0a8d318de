// Options more than one command has, and the checks of option and argument values. Every check
// throws a UsageError (exit 2) naming the flag, never echoing the value (it could be a key).
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, MESSAGE_ID_PATTERN } from "@neutral/protocol";
import type { OptionSpecs } from "./command.js";
import { UsageError } from "./errors.js";
import { DEFAULT_URL } from "./session.js";

/** Where the node is and who the account is: every command that talks to a node takes these. */
export const ACCOUNT_OPTIONS = {
  url: { type: "string", label: "--url URL", help: [`the node (default: $NEUTRAL_URL, else ${DEFAULT_URL})`] },
  key: {
    type: "string",
    label: "--key KEY",
    help: ["the account's private key (default: $NEUTRAL_KEY). Prefer the variable:", "a flag shows up in `ps` and in your shell history"],
  },
  state: {
    type: "string",
    label: "--state DIR",
    help: ["this device's state: the last mailbox head it verified per account and node", "(default: $NEUTRAL_STATE, else ~/.local/state/neutral); two folders are two devices"],
  },
} as const satisfies OptionSpecs;

export const HELP_OPTION = { help: { type: "boolean", short: "h", label: "-h, --help", help: ["this help"] } } as const satisfies OptionSpecs;

export const VERSION_OPTION = { version: { type: "boolean", label: "--version", help: ["the CLI's version"] } } as const satisfies OptionSpecs;

/** Accepted before and after any command name (a command's own options come on top). */
export const GLOBAL_OPTIONS = { ...ACCOUNT_OPTIONS, ...HELP_OPTION, ...VERSION_OPTION } as const satisfies OptionSpecs;

/** `--json`, with what it prints for this command. */
export function jsonOption(help: string) {
  return { json: { type: "boolean", label: "--json", help: [help] } } as const satisfies OptionSpecs;
}

/** inbox, chat: how many messages per page, and whether to walk them all. */
export const PAGE_OPTIONS = {
  limit: { type: "string", label: "--limit N", help: [`messages per page, 1..${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT})`] },
  all: { type: "boolean", label: "--all", help: [`every page, not only the newest one (${MAX_PAGE_LIMIT} per page unless --limit)`] },
} as const satisfies OptionSpecs;

/** inbox, watch: which messages. */
export const FILTER_OPTIONS = {
  from: { type: "string", label: "--from ADDR", help: ["only messages from this sender"] },
  direction: { type: "string", label: "--direction D", help: ["received (default), sent, or all"] },
} as const satisfies OptionSpecs;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** An account address (0x + 40 hex digits), lowercased. */
export function address(value: string, what: string, help: string): string {
  if (!ADDRESS.test(value)) throw new UsageError(`${what} is not an address: expected 0x followed by 40 hex digits`, help);
  return value.toLowerCase();
}

/** `<id>…` arguments: message ids as inbox shows them, 1 to MAX_PAGE_LIMIT of them. */
export function messageIds(ids: readonly string[], help: string): string[] {
  for (const id of ids) if (!MESSAGE_ID_PATTERN.test(id)) throw new UsageError(`<id> ${JSON.stringify(id)} is not a message id (decimal digits, as inbox shows them)`, help);
  if (ids.length > MAX_PAGE_LIMIT) throw new UsageError(`at most ${MAX_PAGE_LIMIT} ids at once`, help);
  return [...ids];
}

export function integer(value: string | undefined, flag: string, min: number, max: number, help: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${flag} must be an integer in ${min}..${max}`, help);
  return Number(value);
}

const DURATION_UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const MAX_EXPIRY_MS = 365 * 86_400_000;

/** A duration like 30s, 10m, 2h or 7d, in ms (1 s .. 365 d). */
export function duration(value: string | undefined, flag: string, help: string): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)([smhd])$/.exec(value);
  const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2]!]! : Number.NaN;
  if (!(ms >= 1000 && ms <= MAX_EXPIRY_MS)) throw new UsageError(`${flag} must be a duration like 30s, 10m, 2h or 7d (1s to 365d)`, help);
  return ms;
}

export function direction(value: string | undefined, help: string): "received" | "sent" | "all" | undefined {
  if (value === undefined) return undefined;
  if (value !== "received" && value !== "sent" && value !== "all") throw new UsageError("--direction must be received, sent or all", help);
  return value;
}

/** --from and --direction, checked in that order. */
export function filter(values: { readonly from?: string; readonly direction?: string }, help: string) {
  const from = values.from === undefined ? undefined : address(values.from, "--from", help);
  const dir = direction(values.direction, help);
  return { ...(from && { from }), ...(dir && { direction: dir }) };
}

/** --limit and --all: the page size to ask for (--all walks every page: the largest pages take the fewest requests). */
export function paging(values: { readonly limit?: string; readonly all?: boolean }, help: string): { all: boolean; limit?: number } {
  const limit = integer(values.limit, "--limit", 1, MAX_PAGE_LIMIT, help);
  const all = values.all === true;
  const pageSize = limit ?? (all ? MAX_PAGE_LIMIT : undefined);
  return { all, ...(pageSize !== undefined && { limit: pageSize }) };
}
