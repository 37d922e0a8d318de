// `neutral send <to> <text>`: encrypts, signs and sends; says where the message is (✓, pending, failed).
import type { DecryptedMessage, Neutral } from "@neutral/client";
import { defineCommand, type Io } from "../command.js";
import { EXIT_FAILURE, UsageError } from "../errors.js";
import { escapeControls, failedText, jsonLine, messageJson, otherProblems, PENDING_TEXT, UNVERIFIED, VERIFIED } from "../format.js";
import { readStdin } from "../input.js";
import { address, duration, integer, jsonOption } from "../options.js";
import { untilSignal } from "../signals.js";

export const send = defineCommand({
  name: "send",
  summary: "encrypt, sign and send a message",
  options: {
    expires: {
      type: "string",
      label: "--expires D",
      help: ["give the message an end, D after now (30s, 10m, 2h, 7d; at most 365d):", "signed with it, so no node serves it after, and each deletes it"],
    },
    wait: {
      type: "string",
      label: "--wait S",
      help: ["if the message is pending, wait up to S seconds for it to be delivered", "(default 0: answer at once; Ctrl-C stops waiting, the message stays sent)"],
    },
    ...jsonOption("the stored message as JSON (see the README for the shape)"),
  },
  help: {
    usage: "neutral send <to> <text> [--expires DURATION] [--wait SECONDS] [--json]",
    details: [
      "<to> is the recipient's address (0x + 40 hex digits); they must have used neutral",
      "(any command) once, on this node or on a node it federates with, so that their messaging",
      "key is published.",
      "<text> is the message; quote it. `-` reads it from standard input. A text that starts",
      "with - goes after --:  neutral send 0x… -- '-5 degrees outside'",
      "Prints the id the node stored the message under, and ✓ once delivered and verified. To",
      "someone homed on another node whose node does not answer yet, the message is pending:",
      "your node keeps trying, and `neutral inbox --direction sent` shows when it is delivered",
      "or that it failed, and why. Exit code 0 when the message is delivered or pending (it is",
      "stored, and your node delivers it), 1 when it was refused or failed (with --wait, a",
      "pending message that fails meanwhile).",
    ],
  },
  positionals: ["to", "text"],
  tooManyHint: "quote a text with spaces",
  account: true,
  async run({ values, positionals, io, helpHint, signIn }) {
    const session = signIn();
    const waitMs = (integer(values.wait, "--wait", 0, 24 * 3600, helpHint) ?? 0) * 1000;
    const expiresIn = duration(values.expires, "--expires", helpHint);
    const to = address(positionals[0]!, "<to>", helpHint);
    const text = positionals[1] === "-" ? await readStdin() : positionals[1]!;
    if (text === "") throw new UsageError("<text> is empty", helpHint);
    const neutral = session.connect();
    const options = { json: values.json === true, waitMs, expiresIn };
    const sent = waitMs === 0 ? await sendMessage(neutral, to, text, options, io) : await untilSignal((signal) => sendMessage(neutral, to, text, { ...options, signal }, io));
    // Refused, the send threw (exit 1); failed: the recipient's node refused it, or the sender's gave up.
    return sent.status === "failed" ? EXIT_FAILURE : 0;
  },
});

interface SendOptions {
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

async function sendMessage(neutral: Neutral, to: string, text: string, options: SendOptions, io: Io): Promise<DecryptedMessage> {
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
  io.out(options.json ? jsonLine(messageJson(message)) : sentLine(message));
  return message;
}
