// `neutral verify-export <file>`: an export checked offline, with no node and no key: every message's
// signature and receipts, id order, no duplicates. Exit 0 only when every message verifies.
import type { HeadStore } from "@neutral/client";
import { verifyMailboxExport, type MailboxVerification } from "@neutral/client/export";
import { defineCommand, type Io } from "../command.js";
import { EXIT_FAILURE } from "../errors.js";
import { escapeControls, jsonLine, localTime, UNVERIFIED, VERIFIED } from "../format.js";
import { linesOf } from "../input.js";
import { jsonOption } from "../options.js";

export const verifyExport = defineCommand({
  name: "verify-export",
  summary: "verify an export offline: every signature and receipt, id order, no duplicates",
  options: jsonOption(
    '{"ok","account","node","exportedAt","version","messages","verified","head","positions","accounted","complete","problems":[{"line","id","problem","seq","kind"}]}',
  ),
  help: {
    usage: "neutral verify-export <file> [--json]",
    details: [
      "<file> is what `neutral export` wrote (`-` reads standard input). Needs no node and no key:",
      "the node's signed head of your mailbox log, and every position up to it accounted for (its",
      "message, or why it is gone), as `neutral audit` checks them; the positions must give the",
      "head, and extend the head this device verified at that node (--state). Each message's sender",
      "signature, and its receipts against the home nodes the header's home records name, as",
      "`inbox` checks them. Prints each problem (line, position, message id, what) and a summary.",
      "Exit 0 when everything verifies, 1 otherwise (also for a message still pending). An export",
      "of version 1 (messages only, before spec 2.10.0) is checked message by message.",
    ],
  },
  positionals: ["file"],
  account: false,
  async run({ values, positionals, io, deviceHeads }) {
    return (await verify({ json: values.json === true, file: positionals[0]!, heads: deviceHeads() }, io)) ? 0 : EXIT_FAILURE;
  },
});

interface VerifyExportOptions {
  json: boolean;
  /** A path, or `-` for standard input. */
  file: string;
  /** This device's verified heads, when it has a state folder. */
  heads: HeadStore | undefined;
}

/** True when every message verified and nothing else is wrong: the exit code is 0 then, 1 otherwise. */
async function verify(options: VerifyExportOptions, io: Io): Promise<boolean> {
  const lines = await linesOf(options.file);
  let summary: MailboxVerification;
  try {
    summary = await verifyMailboxExport(lines, { ...(options.heads && { heads: options.heads }) });
  } finally {
    lines.close();
  }
  const ok = summary.problems.length === 0 && summary.verified === summary.messages && summary.complete !== false;
  if (options.json) {
    io.out(jsonLine({ ok, ...summary }));
    return ok;
  }
  const report = summary.problems.map(({ line, id, problem, seq }) => {
    const where = [seq === undefined ? undefined : `position ${seq}`, id === null ? undefined : `message ${escapeControls(id)}`].filter(Boolean).join(", ");
    return `${UNVERIFIED} line ${line}${where === "" ? "" : ` (${where})`}: ${escapeControls(problem)}`;
  });

  const what = `${summary.verified} of ${summary.messages} messages verified (${summary.account}, exported from node ${summary.node} at ${localTime(summary.exportedAt)})`;
  report.push(ok ? `${VERIFIED} ${what}` : `${UNVERIFIED} ${what}; ${summary.problems.length} problem${summary.problems.length === 1 ? "" : "s"}`);
  if (summary.head !== undefined) {
    const { message, deleted, expired, retention } = summary.accounted!;
    const signed = `the head of ${summary.head.size} positions ${summary.node} signed at ${localTime(summary.head.timestamp)}`;
    report.push(
      summary.complete
        ? `${VERIFIED} every position of ${signed} accounted for (${message} messages, ${deleted} deleted, ${expired} expired, ${retention} removed by the retention)`
        : `${UNVERIFIED} the log does not add up to ${signed}: ${summary.positions} positions read`,
    );
  }
  io.out(report.join("\n"));
  return ok;
}
