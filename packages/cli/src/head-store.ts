// The device's verified mailbox heads (the verifiable mailbox): one JSON file per node and account
// in the state folder, so that a node that rolls a mailbox back or shows another history between two
// runs is caught. Two state folders are two devices.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { HeadStore, VerifiedHead } from "@neutral/client";
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

/** Heads as files `<dir>/heads/<node>/<account>.json`, written whole (a temp file renamed over the old one). */
export function fileHeadStore(dir: string): HeadStore {
  const fileOf = (account: string, node: string) => {
    // Both come from the SDK as lowercase addresses; anything else never becomes a path.
    if (!ADDRESS.test(account) || !ADDRESS.test(node)) throw new CliError("the node's address is not an address (0x and 40 hex digits): no mailbox head is kept for it");
    return path.join(dir, "heads", node, `${account}.json`);
  };
  return {
    get(account, node) {
      const file = fileOf(account, node);
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw new CliError(`cannot read the verified mailbox head ${file}: ${(error as Error).message}`);
      }
      let head: unknown;
      try {
        head = JSON.parse(text);
      } catch {
        head = undefined;
      }
      if (!isHead(head)) throw new CliError(`${file} is not a mailbox head: remove it to trust the node's next head (the check against the last one is lost)`);
      return head;
    },
    set(account, node, head) {
      const file = fileOf(account, node);
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify(head)}\n`, { mode: 0o600 });
      renameSync(temp, file);
    },
  };
}
