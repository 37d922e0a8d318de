// `neutral import <file>`: after moving home, an export of the account's mailbox (from its former
// home node) stored in its mailbox at this node, with the original signatures and receipts.
import type { Neutral } from "@neutral/client";
import { importMailbox } from "@neutral/client/export";
import { defineCommand, type Io } from "../command.js";
import { escapeControls, jsonLine, VERIFIED } from "../format.js";
import { linesOf } from "../input.js";
import { jsonOption } from "../options.js";

export const importCommand = defineCommand({
  name: "import",
  summary: "import an export of your mailbox at your new home node, receipts and all",
  options: jsonOption('{"account","imported","skipped":[{"line","id","problem"}]}'),
  help: {
    usage: "neutral import <file> [--json]",
    details: [
      "After moving home (any command at the new node publishes your home record there): <file> is",
      "what `neutral export` wrote at your former home (`-` reads standard input). Every delivered",
      "message is stored in your mailbox here with its original signatures and receipts; pending",
      "and failed ones are skipped and listed. Run it again safely: nothing is stored twice.",
      "Check the file first with `neutral verify-export`.",
    ],
  },
  positionals: ["file"],
  account: true,
  async run({ values, positionals, io, signIn }) {
    const neutral = signIn().connect();
    await importFrom(neutral, { json: values.json === true, file: positionals[0]! }, io);
    return 0;
  },
});

interface ImportOptions {
  json: boolean;
  /** A path, or `-` for standard input. */
  file: string;
}

async function importFrom(neutral: Neutral, options: ImportOptions, io: Io): Promise<void> {
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
