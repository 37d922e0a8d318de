// `neutral export`: the whole mailbox, sent and received, as the node serves it (encrypted, signed),
// as JSON Lines (the SDK's neutral-mailbox format), to stdout or a new file.
import { once } from "node:events";
import { link, open, rm, stat } from "node:fs/promises";
import type { Neutral } from "@neutral/client";
import { exportMailbox } from "@neutral/client/export";
import { defineCommand, type Io } from "../command.js";
import { CliError, UsageError } from "../errors.js";
import { escapeControls, jsonLine } from "../format.js";
import { jsonOption } from "../options.js";

export const exportCommand = defineCommand({
  name: "export",
  summary: "write your whole mailbox, sent and received, as a file you can verify offline",
  options: {
    out: { type: "string", label: "--out FILE", help: ["write to FILE (default: standard output); FILE must not exist yet"] },
    ...jsonOption('with --out, print {"out","account","positions","messages"} when done'),
  },
  help: {
    usage: "neutral export [--out FILE] [--json]",
    details: [
      "JSON Lines (format neutral-mailbox, version 2): a header (your account, your home node, its",
      "signed head of your mailbox log, your home record and key bundle, your correspondents' home",
      "records), then every position of your log up to that head: its message as the node serves it,",
      "encrypted and signed, or why it is gone. `neutral verify-export FILE` checks it without a node",
      "or a key. The file holds ciphertext only: never your key nor a plaintext.",
    ],
  },
  positionals: [],
  account: true,
  async run({ values, io, stdout, helpHint, signIn }) {
    const session = signIn();
    if (values.out === "") throw new UsageError("--out needs a file name", helpHint);
    await exportTo(session.connect(), { json: values.json === true, out: values.out, stdout }, io);
    return 0;
  },
});

interface ExportOptions {
  json: boolean;
  /** The file to write; undefined: stdout. */
  out: string | undefined;
  stdout: NodeJS.WritableStream;
}

/** Writes `text`, waiting for the stream to drain when it asks to (a big mailbox to a slow pipe). */
async function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain");
}

/**
 * The mailbox to stdout, or to `out`: written to a temporary file beside it and renamed once
 * complete, so that a failed export never leaves a truncated file under the name asked for.
 */
async function exportTo(neutral: Neutral, options: ExportOptions, io: Io): Promise<void> {
  const counted = { positions: -1, messages: 0 }; // the header is not a position
  /** Counts a line: a position of the log, with its message while the node serves it. */
  const count = (line: string) => {
    if (counted.positions++ >= 0 && (JSON.parse(line) as { message?: unknown }).message !== undefined) counted.messages++;
  };
  const summary = () => `${counted.positions} positions (${counted.messages} messages)`;
  if (options.out === undefined) {
    for await (const line of exportMailbox(neutral)) {
      await write(options.stdout, `${line}\n`);
      count(line);
    }
    io.note(`exported ${summary()}`);
    return;
  }
  const out = options.out;
  const refuse = (error: NodeJS.ErrnoException) => new CliError(`cannot write ${escapeControls(out)}: ${error.code === "EEXIST" ? "the file exists (EEXIST)" : (error.code ?? error.message)}`);
  if (await stat(out).then(() => true, () => false)) throw refuse(Object.assign(new Error("exists"), { code: "EEXIST" }));
  const partial = `${out}.partial-${process.pid}`;
  const file = await open(partial, "wx").catch((error: NodeJS.ErrnoException) => {
    throw refuse(error);
  });
  try {
    const stream = file.createWriteStream();
    try {
      for await (const line of exportMailbox(neutral)) {
        await write(stream, `${line}\n`);
        count(line);
      }
    } finally {
      stream.end();
      await once(stream, "close");
    }
    // link, not rename: a file that appeared under that name meanwhile is not overwritten either.
    await link(partial, out).catch((error: NodeJS.ErrnoException) => {
      throw refuse(error);
    });
  } finally {
    await rm(partial, { force: true });
  }
  const account = await neutral.getAddress();
  if (options.json) io.out(jsonLine({ out, account, positions: counted.positions, messages: counted.messages }));
  else io.out(`exported ${summary()} of ${account} to ${escapeControls(out)}`);
}
