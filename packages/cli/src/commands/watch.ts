// `neutral watch`: prints each new message as it arrives. Pushed by the node (the SDK's live stream,
// which resumes by itself after a dropped connection or a restart of the node), or, from a node
// without live delivery, found by polling the inbox every `intervalMs`.
import { RpcError, RpcTransportError, type DecryptedMessage, type InboxOptions, type LiveInterruption, type MailboxProblem, type Neutral } from "@neutral/client";
import { JSON_RPC_ERRORS, MAX_PAGE_LIMIT } from "@neutral/protocol";
import { defineCommand, type Io } from "../command.js";
import { escapeControls, jsonLine, messageJson, messageRows, shortAddress, UNVERIFIED, widthsOf } from "../format.js";
import { FILTER_OPTIONS, filter, integer, jsonOption } from "../options.js";
import { untilSignal } from "../signals.js";

export const watch = defineCommand({
  name: "watch",
  summary: "print new messages as they arrive, until Ctrl-C",
  options: {
    interval: { type: "string", label: "--interval MS", help: ["how often to poll a node without live delivery, in ms (default 2000, at least 50)"] },
    ...FILTER_OPTIONS,
    ...jsonOption("one message object per line"),
  },
  help: {
    usage: "neutral watch [--from ADDR] [--direction received|sent|all] [--interval MS] [--json]",
    details: [
      "Prints only what arrives after it started, each message the moment the node stores it (live",
      "delivery: the node pushes it). A node without live delivery is polled every --interval instead;",
      "stderr says which. If the connection drops or the node restarts, watch says so once, reconnects",
      "and goes on where it left off. Stops on SIGINT (Ctrl-C) or SIGTERM and exits 0.",
      "Each message is proven against the node's signed head before it is printed (the verifiable",
      "mailbox, as for inbox): one the node does not prove is marked ✗ with a `not proven` line",
      "(`\"proven\": false` with --json), and a problem of the head itself is said on stderr.",
    ],
  },
  positionals: [],
  account: true,
  async run({ values, io, helpHint, signIn }) {
    const session = signIn();
    const which = filter(values, helpHint);
    const intervalMs = integer(values.interval, "--interval", 50, 24 * 3600 * 1000, helpHint) ?? 2000;
    const neutral = session.connect();
    await untilSignal((signal) => watchMessages(neutral, { json: values.json === true, intervalMs, filter: which, signal }, io));
    return 0;
  },
});

interface WatchOptions {
  json: boolean;
  /** How often to poll a node without live delivery, ms. */
  intervalMs: number;
  filter: Pick<InboxOptions, "from" | "direction">;
  /** Aborted on SIGINT/SIGTERM: the watch then returns normally. */
  signal: AbortSignal;
}

/** The node does not stream: no such method (-32601), or it refuses `Accept: text/event-stream` (406). */
function noLiveDelivery(error: unknown): boolean {
  if (error instanceof RpcError) return error.code === JSON_RPC_ERRORS.MethodNotFound.code || error.status === 406;
  return error instanceof RpcTransportError && error.status === 406;
}

/** The watch was stopped (SIGINT/SIGTERM) and `error` is only the request it cut short. */
const stoppedBy = (signal: AbortSignal, error: unknown) =>
  signal.aborted && (error instanceof RpcTransportError || (error instanceof Error && error.name === "AbortError"));

/** What interrupted the live stream, for a person. */
function interruption(cause: LiveInterruption): string {
  if (cause.kind === "ended") return `the node ended the live stream (${cause.reason})`;
  if (cause.kind === "cut") return "the live stream was cut off";
  return `lost the live stream (${cause.error.message})`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

/**
 * Prints each message newer than the newest one at start, oldest first, until `signal` is aborted:
 * pushed by the node, or polled from a node without live delivery. A node that stops answering is
 * reported once (and again when it is back); any other failure ends the watch.
 */
async function watchMessages(neutral: Neutral, options: WatchOptions, io: Io): Promise<void> {
  const { signal } = options;
  const stopped = (error: unknown) => stoppedBy(signal, error);
  /** What the proof of the messages being printed did not show (the verifiable mailbox). */
  let unproven: readonly MailboxProblem[] = [];
  const print = (message: DecryptedMessage) => {
    if (options.json) io.out(jsonLine(messageJson(message)));
    else io.out(messageRows(message, { id: Math.max(2, widthsOf([message]).id) }, unproven).join("\n"));
  };
  let address: string;
  try {
    await neutral.ready();
    address = await neutral.getAddress();
  } catch (error) {
    if (stopped(error)) return;
    throw error;
  }
  const where = `${shortAddress(address)} on ${escapeControls(neutral.url)}`;

  let last: string | undefined;
  let watching = false;
  let lost = false;
  try {
    const live = neutral.live({
      ...options.filter,
      signal,
      onMailboxProblems(problems) {
        unproven = problems;
        for (const problem of problems) {
          if (problem.id === undefined) io.note(`${UNVERIFIED} the node did not prove this mailbox: ${escapeControls(problem.message)}`);
        }
      },
      onState(state) {
        if (state.state === "live") {
          if (!watching) io.note(`watching ${where}: new messages appear below as the node pushes them (live delivery; Ctrl-C stops)`);
          else if (lost) io.note("live again");
          watching = true;
          lost = false;
        } else if (state.state === "reconnecting" && !lost && !(state.cause.kind === "ended" && state.cause.reason === "token-expired")) {
          // Reported once per outage; a token renewed on time is routine.
          io.note(`${escapeControls(interruption(state.cause))}; reconnecting`);
          lost = true;
        }
      },
    });
    for await (const message of live) {
      print(message);
      last = message.id;
    }
    return;
  } catch (error) {
    if (stopped(error)) return;
    if (!noLiveDelivery(error)) throw error;
  }
  io.note(`the node has no live delivery (neutralService_subscribe): polling it every ${options.intervalMs} ms instead`);
  await poll(neutral, options, io, print, last, where);
}

/** Polls `inbox({ after: last })` every `intervalMs`; `last` undefined: notes the newest message first. */
async function poll(neutral: Neutral, options: WatchOptions, io: Io, print: (message: DecryptedMessage) => void, last: string | undefined, where: string): Promise<void> {
  const { signal } = options;
  const stopped = (error: unknown) => stoppedBy(signal, error);
  if (last === undefined) {
    try {
      for await (const page of neutral.inbox({ ...options.filter, limit: 1, signal })) {
        last = page.messages[0]?.id;
        break;
      }
    } catch (error) {
      if (stopped(error)) return;
      throw error;
    }
  }
  io.note(`watching ${where}: new messages appear below (polling every ${options.intervalMs} ms; Ctrl-C stops)`);

  let unreachable = false;
  while (!signal.aborted) {
    await sleep(options.intervalMs, signal);
    if (signal.aborted) break;
    try {
      if (last === undefined) {
        // The mailbox was empty: whatever is there now is new. The default walk is newest first.
        const fresh: DecryptedMessage[] = [];
        for await (const message of neutral.inbox({ ...options.filter, limit: MAX_PAGE_LIMIT, signal }).messages()) fresh.push(message);
        for (const message of fresh.reverse()) {
          print(message);
          last = message.id;
        }
      } else {
        for await (const message of neutral.inbox({ ...options.filter, after: last, limit: MAX_PAGE_LIMIT, signal }).messages()) {
          print(message);
          last = message.id;
        }
      }
      if (unreachable) io.note("the node answers again");
      unreachable = false;
    } catch (error) {
      if (stopped(error)) break;
      if (!(error instanceof RpcTransportError)) throw error;
      if (!unreachable) io.note(`the node does not answer (${escapeControls(error.message)}); still trying`);
      unreachable = true;
    }
  }
}
