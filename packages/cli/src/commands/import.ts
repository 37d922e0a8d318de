// `neutral import <file>`: after moving home, an export of the account's mailbox (from its former
// home node) stored in its mailbox at this node, with the original signatures and receipts.
import type { HeadStore, Neutral } from "@neutral/client";
import { importMailbox } from "@neutral/client/export";
import { defineCommand, type Io } from "../command.js";
import { EXIT_FAILURE } from "../errors.js";
import { escapeControls, jsonLine, UNVERIFIED, VERIFIED } from "../format.js";
import { linesOf } from "../input.js";
import { jsonOption } from "../options.js";

export const importCommand = defineCommand({
  name: "import",
  summary: "import an export of your mailbox at your new home node, receipts and all",
  options: jsonOption('{"account","imported","skipped":[{"line","id","problem"}],"head","problems":[{"line","id","problem","seq","kind"}]}'),
  help: {
    usage: "neutral import <file> [--json]",
    details: [
      "After moving home (any command at the new node publishes your home record there): <file> is",
      "what `neutral export` wrote at your former home (`-` reads standard input). Every delivered",
      "message is stored in your mailbox here with its original signatures and receipts; pending",
      "and failed ones are skipped and listed. The export's log is checked on the way, as",
      "`neutral verify-export` checks it (against the head this device verified at the former home,",
      "--state): when it gives the former home's signed head, the head goes to this node with the",
      "messages, and every device of yours can check it there (`neutral audit`). Exit 1 when it does",
      "not (the messages are stored all the same; the problems are listed). Run it again safely:",
      "nothing is stored twice.",
    ],
  },
  positionals: ["file"],
  account: true,
  async run({ values, positionals, io, signIn, deviceHeads }) {
    const neutral = signIn().connect();
    const heads = deviceHeads();
    return (await importFrom(neutral, { json: values.json === true, file: positionals[0]!, ...(heads && { heads }) }, io)) ? 0 : EXIT_FAILURE;
  },
});

interface ImportOptions {
  json: boolean;
  /** A path, or `-` for standard input. */
  file: string;
  /** This device's verified heads, when it has a state folder. */
  heads?: HeadStore;
}

/** True when the export's log (if it carries one) gave the former home's head, which went along: the exit code is 0 then. */
async function importFrom(neutral: Neutral, options: ImportOptions, io: Io): Promise<boolean> {
  const lines = await linesOf(options.file);
  let result: Awaited<ReturnType<typeof importMailbox>>;
  try {
    result = await importMailbox(neutral, lines, { ...(options.heads && { heads: options.heads }) });
  } finally {
    lines.close();
  }
  const account = await neutral.getAddress();
  const ok = result.problems.length === 0;
  if (options.json) {
    io.out(jsonLine({ account, imported: result.imported, skipped: result.skipped, head: result.head, problems: result.problems }));
    return ok;
  }
  const report = result.skipped.map(({ line, id, problem }) => `skipped line ${line}${id === null ? "" : ` (message ${escapeControls(id)})`}: ${escapeControls(problem)}`);
  report.push(...result.problems.map(({ line, seq, problem }) => `${UNVERIFIED} line ${line}${seq === undefined ? "" : ` (position ${seq})`}: ${escapeControls(problem)}`));
  report.push(`${VERIFIED} imported ${result.imported} messages of ${account}${result.skipped.length > 0 ? `; ${result.skipped.length} skipped` : ""}`);
  if (result.head !== null) report.push(`${VERIFIED} the former home's head of ${result.head.size} positions, which the export gives, went along`);
  else if (!ok) report.push(`${UNVERIFIED} the former home's head did not go along: the export's log does not give it`);
  io.out(report.join("\n"));
  return ok;
}
