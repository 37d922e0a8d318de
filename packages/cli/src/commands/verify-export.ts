// `neutral verify-export <file>`: an export checked offline, with no node and no key: every message's
// signature and receipts, id order, no duplicates. Exit 0 only when every message verifies.
import { verifyMailboxExport, type MailboxVerification } from "@neutral/client/export";
import { defineCommand, type Io } from "../command.js";
import { EXIT_FAILURE } from "../errors.js";
import { escapeControls, jsonLine, localTime, UNVERIFIED, VERIFIED } from "../format.js";
import { linesOf } from "../input.js";
import { jsonOption } from "../options.js";

export const verifyExport = defineCommand({
  name: "verify-export",
  summary: "verify an export offline: every signature and receipt, id order, no duplicates",
  options: jsonOption('{"ok","account","node","exportedAt","messages","verified","problems":[{"line","id","problem"}]}'),
  help: {
    usage: "neutral verify-export <file> [--json]",
    details: [
      "<file> is what `neutral export` wrote (`-` reads standard input). Needs no node and no key:",
      "each message's sender signature, and its receipts against the home nodes the header's home",
      "records name, as `inbox` checks them. Prints each problem (line, message id, what) and a",
      "summary. Exit 0 when every message verifies, 1 otherwise (also for a message still pending).",
    ],
  },
  positionals: ["file"],
  account: false,
  async run({ values, positionals, io }) {
    return (await verify({ json: values.json === true, file: positionals[0]! }, io)) ? 0 : EXIT_FAILURE;
  },
});

interface VerifyExportOptions {
  json: boolean;
  /** A path, or `-` for standard input. */
  file: string;
}

/** True when every message verified and nothing else is wrong: the exit code is 0 then, 1 otherwise. */
async function verify(options: VerifyExportOptions, io: Io): Promise<boolean> {
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
