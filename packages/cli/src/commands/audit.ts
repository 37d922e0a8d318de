// `neutral audit`: every position of your mailbox log accounted for (the verifiable mailbox), from
// where the last audit of this state folder stopped to the node's head. Exit 0 only when nothing is
// wrong; each problem names its position, and a rollback or fork shown by two heads the node signed,
// or a receipt bound to a position that holds another message, carries a proof that
// `neutral verify-proof` checks offline.
import { writeFileSync } from "node:fs";
import { defineCommand } from "../command.js";
import { CliError, EXIT_FAILURE } from "../errors.js";
import { escapeControls, jsonLine, UNVERIFIED, VERIFIED } from "../format.js";
import { jsonOption } from "../options.js";

export const audit = defineCommand({
  name: "audit",
  summary: "account for every position of your mailbox log, since the last audit",
  options: {
    full: { type: "boolean", label: "--full", help: ["audit the whole log again, from position 1"] },
    proof: {
      type: "string",
      label: "--proof FILE",
      help: ["when the node rolled back or forked your mailbox, or broke a receipt's promise, write the proof there (for `neutral verify-proof`)"],
    },
    ...jsonOption('{"head","from","to","accounted":{"message","deleted","expired","retention"},"problems":[{"kind","seq","id","message","proof"}]}'),
  },
  help: {
    usage: "neutral audit [--full] [--proof FILE] [--json]",
    details: [
      "Reads your mailbox log from the node, from the position after the last audit (kept in the",
      "state folder, see --state) to the node's signed head, and accounts for every position: its",
      "message (the message gives the position's leaf and carries its sender's signature), or why it",
      "is gone (your signed deletion, the sender's signed end, the node's retention) and the reason",
      "holds. The positions must give the head, and the head must extend the heads verified before.",
      "Exit 0 when every position is accounted for, 1 when something is wrong: each problem names its",
      "position and kind (missing, altered, reordered, unproven-removal, unproven, fork, rollback).",
    ],
  },
  positionals: [],
  account: true,
  async run({ values, io, signIn }) {
    const session = signIn();
    const neutral = session.connect();
    const result = await neutral.audit({ ...(values.full === true && { full: true }) });
    const proof = result.problems.find((problem) => problem.proof !== undefined)?.proof;
    if (values.proof !== undefined && proof !== undefined) {
      try {
        writeFileSync(values.proof, `${JSON.stringify(proof, null, 2)}\n`);
      } catch (error) {
        throw new CliError(`cannot write the proof to ${escapeControls(values.proof)}: ${(error as Error).message}`);
      }
    }
    if (values.json === true) {
      io.out(jsonLine(result));
      return result.problems.length === 0 ? 0 : EXIT_FAILURE;
    }
    const { head, from, to, accounted } = result;
    const read = from > to ? "no position since the last audit" : `positions ${from}–${to}`;
    const counts = `${accounted.message} messages, ${accounted.deleted} deleted, ${accounted.expired} expired, ${accounted.retention} removed by the retention`;
    if (result.problems.length === 0) {
      io.out(`${VERIFIED} ${read} of ${head.size} accounted for (${counts})`);
      return 0;
    }
    io.out(`${UNVERIFIED} ${result.problems.length} problem(s) in ${read} of ${head.size} (${counts}):`);
    for (const problem of result.problems) {
      const where = problem.seq === undefined ? "" : `position ${problem.seq}: `;
      io.out(`  ${problem.kind}: ${where}${escapeControls(problem.message)}`);
    }
    if (proof !== undefined) io.out(values.proof !== undefined ? `the proof is in ${escapeControls(values.proof)}` : "a proof of it: run again with --proof FILE to keep it");
    return EXIT_FAILURE;
  },
});
