// The node and the account a command talks to: the URL (--url, else NEUTRAL_URL, else the default)
// and the private key (--key, else NEUTRAL_KEY), checked before anything is sent, and the SDK client
// made from them.
import { createNeutral, type Neutral } from "@neutral/client";
import { createNeutralContext, type NeutralContext, type NeutralOptions } from "@neutral/client/actions";
import { CliError, UsageError, type ErrorContext } from "./errors.js";
import { fileAuditStore, fileHeadStore, stateDir } from "./head-store.js";

export const DEFAULT_URL = "http://127.0.0.1:8645";

const PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

/** A node URL and a key that passed their checks; the client is made on `connect()`. */
export interface Session {
  /** The node's URL as shown in messages (no credentials). */
  readonly url: string;
  /** The SDK client for the account on the node. */
  connect(): Neutral;
  /** The SDK's context for the account on the node, for the standalone actions (`@neutral/client/actions`). */
  context(): NeutralContext;
}

export interface SignInOptions {
  /** The --url, --key and --state flags, when given. */
  flags: { url?: string | undefined; key?: string | undefined; state?: string | undefined };
  env: NodeJS.ProcessEnv;
  /** Where a usage error points: `neutral inbox --help`. */
  helpHint: string;
  /** Learns the node's URL, for the error line of a node that cannot be reached. */
  context: ErrorContext;
  /** Told the key as soon as it is known, so that nothing printed from then on shows it. */
  addSecret(key: string): void;
}

/** What shows in messages: no credentials of the URL. */
function displayUrl(url: URL): string {
  const shown = new URL(url);
  shown.username = "";
  shown.password = "";
  const text = shown.toString();
  return url.pathname === "/" && !url.search && !url.hash ? text.replace(/\/$/, "") : text;
}

/** Checks the node's URL, then the key (in that order); throws a UsageError for either. */
export function signIn({ flags, env, helpHint: help, context, addSecret }: SignInOptions): Session {
  const urlText = flags.url ?? (env.NEUTRAL_URL || DEFAULT_URL);
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    throw new UsageError(`${flags.url !== undefined ? "--url" : "NEUTRAL_URL"} is not a URL`, help);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError("the node URL must start with http:// or https://", help);
  const shownUrl = displayUrl(url);
  context.url = shownUrl;

  const keySource = flags.key !== undefined ? "--key" : "NEUTRAL_KEY";
  const rawKey = (flags.key ?? env.NEUTRAL_KEY ?? "").trim();
  if (rawKey === "") {
    throw new UsageError("no account key: set NEUTRAL_KEY to your private key (export NEUTRAL_KEY=0x…; `neutral keygen` makes one)");
  }
  addSecret(rawKey);
  if (!PRIVATE_KEY.test(rawKey)) throw new UsageError(`${keySource} is not a private key: expected 0x followed by 64 hex digits`, help);
  const key = (rawKey.startsWith("0x") || rawKey.startsWith("0X") ? `0x${rawKey.slice(2)}` : `0x${rawKey}`) as `0x${string}`;
  const state = stateDir(flags.state, env);

  const options: NeutralOptions = { url: url.toString().replace(/\/$/, ""), account: key, ...(state !== undefined && { heads: fileHeadStore(state), audits: fileAuditStore(state) }) };
  /** `make(options)`, an account the SDK refuses said in the CLI's words. */
  const made = <T>(make: (options: NeutralOptions) => T): T => {
    try {
      return make(options);
    } catch (error) {
      if (error instanceof Error && "code" in error && error.code === "INVALID_ACCOUNT") {
        throw new CliError(`${keySource} is not a usable private key (0x followed by 64 hex digits, a valid secp256k1 key)`);
      }
      throw error;
    }
  };
  return {
    url: shownUrl,
    connect: () => made(createNeutral),
    context: () => made(createNeutralContext),
  };
}
