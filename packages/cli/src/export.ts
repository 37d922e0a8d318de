// `neutral export`, `neutral verify-export` and `neutral import`: a mailbox written as JSON Lines
// (the SDK's neutral-mailbox format), such a file verified offline (no node, no key), and imported
// into the account's mailbox at its new home node.
import { createReadStream } from "node:fs";
import { once } from "node:events";
import { link, open, rm, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Neutral } from "@neutral/client";
import { exportMailbox, importMailbox, verifyMailboxExport, type MailboxVerification } from "@neutral/client/export";
import type { Io } from "./commands.js";
import { CliError } from "./errors.js";
import { escapeControls, jsonLine, localTime, UNVERIFIED, VERIFIED } from "./format.js";

export interface ExportOptions {
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
export async function exportCommand(neutral: Neutral, options: ExportOptions, io: Io): Promise<void> {
  let messages = -1; // the header is not a message
  if (options.out === undefined) {
    for await (const line of exportMailbox(neutral)) {
      await write(options.stdout, `${line}\n`);
      messages++;
    }
    io.note(`exported ${messages} messages`);
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
        messages++;
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
  if (options.json) io.out(jsonLine({ out, account, messages }));
  else io.out(`exported ${messages} messages of ${account} to ${escapeControls(out)}`);
}

export interface VerifyExportOptions {
  json: boolean;
  /** A path, or `-` for standard input. */
  file: string;
}

/** True when every message verified and nothing else is wrong: the exit code is 0 then, 1 otherwise. */
/** The lines of `file` (`-`: standard input), or a clear error when it cannot be read. */
async function linesOf(file: string) {
  let input: NodeJS.ReadableStream;
  if (file === "-") {
    input = process.stdin;
  } else {
    const stats = await stat(file).catch((error: NodeJS.ErrnoException) => {
      throw new CliError(`cannot read ${escapeControls(file)}: ${error.code === "ENOENT" ? "no such file" : (error.code ?? error.message)}`);
    });
    if (!stats.isFile()) throw new CliError(`cannot read ${escapeControls(file)}: not a file`);
    input = createReadStream(file, { encoding: "utf8" });
  }
  return createInterface({ input, crlfDelay: Infinity });
}

export async function verifyExportCommand(options: VerifyExportOptions, io: Io): Promise<boolean> {
  const lines = await linesOf(options.file);
  let summary: MailboxVerification;
  try {
    summary = await verifyMailboxExport(lines);
  } finally {
    lines.close();
  }
  const ok = summary.problems.length === 0 && summary.verified === summary.messages;
  if (options.json) {
    io.out(jsonLine({ ok, ...summary }));
    return ok;
  }
  const report = summary.problems.map(({ line, id, problem }) => `${UNVERIFIED} line ${line}${id === null ? "" : ` (message ${escapeControls(id)})`}: ${escapeControls(problem)}`);
  const what = `${summary.verified} of ${summary.messages} messages verified (${summary.account}, exported from node ${summary.node} at ${localTime(summary.exportedAt)})`;
  report.push(ok ? `${VERIFIED} ${what}` : `${UNVERIFIED} ${what}; ${summary.problems.length} problem${summary.problems.length === 1 ? "" : "s"}`);
  io.out(report.join("\n"));
  return ok;
}

export interface ImportOptions {
  json: boolean;
  file: string;
}

/** An export of this account's mailbox (from its former home node) into its mailbox at this node. */
export async function importCommand(neutral: Neutral, options: ImportOptions, io: Io): Promise<void> {
  const lines = await linesOf(options.file);
  let result: Awaited<ReturnType<typeof importMailbox>>;
  try {
    result = await importMailbox(neutral, lines);
  } finally {
    lines.close();
  }
  const account = await neutral.getAddress();
  if (options.json) {
    io.out(jsonLine({ account, imported: result.imported, skipped: result.skipped }));
    return;
  }
  const report = result.skipped.map(({ line, id, problem }) => `skipped line ${line}${id === null ? "" : ` (message ${escapeControls(id)})`}: ${escapeControls(problem)}`);
  report.push(`${VERIFIED} imported ${result.imported} messages of ${account}${result.skipped.length > 0 ? `; ${result.skipped.length} skipped` : ""}`);
  io.out(report.join("\n"));
}
