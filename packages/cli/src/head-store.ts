// The device's verified mailbox heads and audits (the verifiable mailbox): one JSON file per node and
// account in the state folder, so that a node that rolls a mailbox back or shows another history
// between two runs is caught, and an audit goes on from where the last one stopped. Two state folders
// are two devices.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AuditState, AuditStore, HeadStore, VerifiedHead } from "@neutral/client";
import { CliError } from "./errors.js";

/**
 * The state folder: `--state`, else `NEUTRAL_STATE`, else `$XDG_STATE_HOME/neutral`, else
 * `~/.local/state/neutral`; undefined when the environment names no home (heads then last one run).
 */
export function stateDir(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (flag !== undefined && flag !== "") return path.resolve(flag);
  if (env.NEUTRAL_STATE) return path.resolve(env.NEUTRAL_STATE);
  if (env.XDG_STATE_HOME) return path.join(path.resolve(env.XDG_STATE_HOME), "neutral");
  if (env.HOME) return path.join(env.HOME, ".local", "state", "neutral");
  return undefined;
}

const ADDRESS = /^0x[0-9a-f]{40}$/;
const HASH = /^0x[0-9a-f]{64}$/;
const SIGNATURE = /^0x[0-9a-f]{130}$/;

function isHead(value: unknown): value is VerifiedHead {
  const head = value as Partial<Record<keyof VerifiedHead, unknown>> | null;
  return (
    typeof head === "object" &&
    head !== null &&
    typeof head.account === "string" &&
    ADDRESS.test(head.account.toLowerCase()) &&
    Number.isSafeInteger(head.size) &&
    (head.size as number) >= 0 &&
    typeof head.root === "string" &&
    HASH.test(head.root.toLowerCase()) &&
    Number.isSafeInteger(head.timestamp) &&
    typeof head.signature === "string" &&
    SIGNATURE.test(head.signature.toLowerCase())
  );
}

/** An audit's state: a frontier of one subtree root per bit of its size, and a head. */
function isAuditState(value: unknown): value is AuditState {
  const state = value as Partial<Record<keyof AuditState, unknown>> | null;
  return (
    typeof state === "object" &&
    state !== null &&
    Number.isSafeInteger(state.size) &&
    (state.size as number) >= 0 &&
    Array.isArray(state.roots) &&
    state.roots.length === (state.size as number).toString(2).replaceAll("0", "").length &&
    state.roots.every((root) => typeof root === "string" && HASH.test(root.toLowerCase())) &&
    isHead(state.head)
  );
}

/**
 * Values of type T as files `<dir>/<folder>/<node>/<account>.json`, written whole (a temp file
 * renamed over the old one). `what` names them in errors, with what removing a bad one loses.
 */
function fileStore<T>(dir: string, folder: string, isValue: (value: unknown) => value is T, what: { name: string; removing: string }) {
  const fileOf = (account: string, node: string) => {
    // Both come from the SDK as lowercase addresses; anything else never becomes a path.
    if (!ADDRESS.test(account) || !ADDRESS.test(node)) throw new CliError(`the node's address is not an address (0x and 40 hex digits): no ${what.name} is kept for it`);
    return path.join(dir, folder, node, `${account}.json`);
  };
  return {
    get(account: string, node: string): T | undefined {
      const file = fileOf(account, node);
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw new CliError(`cannot read the ${what.name} ${file}: ${(error as Error).message}`);
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      if (!isValue(value)) throw new CliError(`${file} is not a ${what.name}: remove it to ${what.removing}`);
      return value;
    },
    set(account: string, node: string, value: T): void {
      const file = fileOf(account, node);
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify(value)}\n`, { mode: 0o600 });
      renameSync(temp, file);
    },
  };
}

/** Heads as files `<dir>/heads/<node>/<account>.json`. */
export const fileHeadStore = (dir: string): HeadStore =>
  fileStore(dir, "heads", isHead, { name: "mailbox head", removing: "trust the node's next head (the check against the last one is lost)" });

/** Audits as files `<dir>/audits/<node>/<account>.json`. */
export const fileAuditStore = (dir: string): AuditStore =>
  fileStore(dir, "audits", isAuditState, { name: "mailbox audit", removing: "audit the whole log again" });
