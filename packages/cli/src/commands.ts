// The commands, over the SDK. Each writes through `Io` (which redacts the key) and throws on failure;
// cli.ts turns what they throw into one line on stderr.
import { addressOfKey, generatePrivateKey, NeutralError, type DecryptedMessage, type MessagePages, type Neutral } from "@neutral/client";
import {
  escapeControls,
  failedText,
  jsonLine,
  messageJson,
  messageRows,
  messageTable,
  otherProblems,
  PENDING_TEXT,
  UNVERIFIED,
  VERIFIED,
} from "./format.js";

export interface Io {
  /** One line (or several, joined by newlines) to stdout. */
  out(text: string): void;
  /** One line to stderr: notes for a person, never data. */
  note(text: string): void;
}

// ---------------------------------------------------------------------------------------------
// keygen

export interface KeygenOptions {
  json: boolean;
}

/** The only command that prints a private key: creating one is its job. */
export function keygen(options: KeygenOptions, write: (text: string) => void): void {
  const privateKey = generatePrivateKey();
  const address = addressOfKey(privateKey);
  if (options.json) {
    write(jsonLine({ address, privateKey }));
    return;
  }
  write(
    [
      `address      ${address}`,
      `private key  ${privateKey}`,
      "",
      "Keep the private key secret: whoever has it can read your messages and send as you,",
      "and nobody can recover it if you lose it. Store it in a password manager, then give it",
      "to neutral through the environment (not --key, which shows up in `ps` and shell history):",
      "",
      `  export NEUTRAL_KEY=${privateKey}`,
      "  neutral whoami        # signs in and publishes your messaging key so others can write to you",
    ].join("\n"),
  );
}

// ---------------------------------------------------------------------------------------------
// whoami

export interface WhoamiOptions {
  json: boolean;
  /** The URL as shown (no credentials). */
  url: string;
}

export async function whoami(neutral: Neutral, options: WhoamiOptions, io: Io): Promise<void> {
  const address = await neutral.getAddress();
  const info = await neutral.nodeInfo();
  const before = await neutral.keyOf(address).catch((error: unknown) => {
    if (error instanceof NeutralError && error.code === "INVALID_KEY_BUNDLE") return undefined; // ready() replaces it
    throw error;
  });
  await neutral.ready();
  const after = await neutral.keyOf(address);
  const published = after !== undefined;
  const publishedNow = published && (before === undefined || before.key.toLowerCase() !== after.key.toLowerCase());
  const home = (await neutral.homeOf(address))?.node.toLowerCase() ?? null;
  const nodeAddress = info.address.toLowerCase();
  if (options.json) {
    io.out(
      jsonLine({
        address,
        url: options.url,
        node: { address: nodeAddress, software: info.software, version: info.version },
        keyPublished: published,
        publishedNow,
        home,
      }),
    );
    return;
  }
  const homeLine =
    home === null
      ? "none: this node does not federate"
      : home === nodeAddress
        ? `${VERIFIED} this node: messages to you from other nodes arrive here`
        : `${UNVERIFIED} another node, ${escapeControls(home)}: use that one`;
  io.out(
    [
      `account        ${address}`,
      `node           ${escapeControls(options.url)}`,
      `node address   ${escapeControls(nodeAddress)} (${escapeControls(`${info.software} ${info.version}`)})`,
      `messaging key  ${published ? `${VERIFIED} published${publishedNow ? " (just now)" : ""}: others can send to you` : `${UNVERIFIED} not published`}`,
      `home node      ${homeLine}`,
    ].join("\n"),
  );
}

// ---------------------------------------------------------------------------------------------
// send

export interface SendOptions {
  json: boolean;
  /** Wait up to this long (ms) for a message that is pending to be delivered (or fail); 0: do not wait. */
  waitMs: number;
  /** Aborted on SIGINT/SIGTERM: the wait then ends with the message as it is. */
  signal?: AbortSignal;
  /** Give the message an end this many ms after now. */
  expiresIn?: number | undefined;
}

/** After `send`: ✓, or the message's status (pending, failed: reason), and what else did not verify. */
export function sentLine(message: DecryptedMessage): string {
  const head = `sent message ${escapeControls(message.id)} to ${escapeControls(message.to)}`;
  if (message.verified) return `${head} ${VERIFIED}`;
  const parts: string[] = [];
  if (message.status === "pending") parts.push(PENDING_TEXT);
  if (message.status === "failed") parts.push(failedText(message));
  const problems = otherProblems(message);
  if (message.status === "delivered" || problems.length > 0) parts.push(`${UNVERIFIED} not verified: ${problems.map(escapeControls).join("; ") || "unknown reason"}`);
  return `${head} ${parts.join("; ")}`;
}

export async function send(neutral: Neutral, to: string, text: string, options: SendOptions, io: Io): Promise<void> {
  let message = await neutral.send(to, text, options.expiresIn === undefined ? {} : { expiresIn: options.expiresIn });
  if (message.status === "pending" && options.waitMs > 0) {
    if (!options.json) io.note(`message ${escapeControls(message.id)} is pending: waiting up to ${Math.ceil(options.waitMs / 1000)} s for the recipient's node`);
    try {
      message = await neutral.waitForDelivery(message, { timeoutMs: options.waitMs, ...(options.signal && { signal: options.signal }) });
    } catch (error) {
      // Interrupted: say where the message is rather than fail (it is stored and will be delivered).
      if (!options.signal?.aborted) throw error;
    }
  }
  if (options.json) {
    io.out(jsonLine(messageJson(message)));
    return;
  }
  io.out(sentLine(message));
}

// ---------------------------------------------------------------------------------------------
// consent

type ConsentState = Awaited<ReturnType<Neutral["consent"]>>;

function consentLines(state: ConsentState): string {
  const mode = state.policy?.mode ?? "open";
  const lines = [`policy  ${mode}${mode === "open" ? " (everyone you have not blocked reaches your inbox)" : " (others land in `neutral inbox --requests`)"}`];
  for (const record of state.records) lines.push(`${record.state.padEnd(7)} ${record.peer}`);
  return lines.join("\n");
}

/** Prints the account's consent; with `mode`, sets the policy first. */
export async function consent(neutral: Neutral, options: { json: boolean; mode?: "open" | "allowed-only" }, io: Io): Promise<void> {
  if (options.mode !== undefined) await neutral.setConsentPolicy(options.mode);
  const state = await neutral.consent();
  io.out(options.json ? jsonLine(state) : consentLines(state));
}

/** allow, block, unblock: one signed record about `peer`. */
export async function choose(neutral: Neutral, peer: string, choice: "allowed" | "blocked" | "none", options: { json: boolean }, io: Io): Promise<void> {
  const state = await neutral.setConsent(peer, choice);
  if (options.json) {
    io.out(jsonLine(state));
    return;
  }
  io.out(choice === "none" ? `${peer} is neither allowed nor blocked` : `${peer} is ${choice} ${VERIFIED}`);
}

// ---------------------------------------------------------------------------------------------
// delete

/** Deletes the account's copies of messages; prints the node's checked receipt. */
export async function remove(neutral: Neutral, ids: readonly string[], options: { json: boolean }, io: Io): Promise<void> {
  const receipt = await neutral.deleteMessages(ids);
  if (options.json) {
    io.out(jsonLine(receipt));
    return;
  }
  io.out(`deleted ${ids.length === 1 ? "message" : `${ids.length} messages`} ${ids.map(escapeControls).join(", ")} from your mailbox ${VERIFIED} receipt signed by ${receipt.node}`);
}

// ---------------------------------------------------------------------------------------------
// inbox, chat

export interface ListOptions {
  json: boolean;
  /** Every page, not only the first. */
  all: boolean;
}

/** The first page (or every page with `all`), newest first, as a table or as `{"messages":[…],"end":…}`. */
export async function list(pages: MessagePages, options: ListOptions, io: Io): Promise<void> {
  const messages: DecryptedMessage[] = [];
  let end = true;
  for await (const page of pages) {
    messages.push(...page.messages);
    end = page.end;
    if (!options.all) break;
  }
  if (options.json) {
    io.out(jsonLine({ messages: messages.map(messageJson), end }));
    return;
  }
  if (messages.length === 0) {
    io.out("(no messages)");
    return;
  }
  io.out(messageTable(messages).join("\n"));
  if (!end) io.note(`(older messages not shown: --all reads every page)`);
}

// ---------------------------------------------------------------------------------------------
// watch: live delivery, or polling for a node without it (watch.ts)

export { watch, type WatchOptions } from "./watch.js";
