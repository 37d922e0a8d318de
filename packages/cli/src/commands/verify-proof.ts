// `neutral verify-proof <file>`: a proof of a node's misbehaviour (the verifiable mailbox: two heads
// it signed for one account that contradict each other, a rollback or a fork; or a receipt binding
// a message to a position and a head holding another there, a broken promise) checked offline, with
// no node and no key. Exit 0 only when it proves what it says.
import { verifyProof } from "@neutral/client";
import { defineCommand } from "../command.js";
import { CliError, EXIT_FAILURE } from "../errors.js";
import { escapeControls, jsonLine, UNVERIFIED, VERIFIED } from "../format.js";
import { linesOf } from "../input.js";
import { jsonOption } from "../options.js";

export const verifyProofCommand = defineCommand({
  name: "verify-proof",
  summary: "check a proof that a node rolled back, forked or broke a promise about a mailbox, offline",
  options: jsonOption('{"valid":true,"kind","node","account","message"} or {"valid":false,"reason"}'),
  help: {
    usage: "neutral verify-proof <file> [--json]",
    details: [
      "<file> (`-` reads standard input) holds a proof as `inbox --json` and `chat --json` give it, in",
      "`mailboxProblems[].proof`, or as `audit --proof` writes it (a problem with its proof is read",
      "too): two heads a node signed for one account's mailbox that cannot both be true, or a receipt",
      "binding a message to a position and a head whose log holds another there. Needs no node and no",
      "key: every signature is recovered to the node named in the proof. Exit 0 when it proves the",
      "rollback, fork or broken promise it names, 1 otherwise, with the reason.",
    ],
  },
  positionals: ["file"],
  account: false,
  async run({ values, positionals, io }) {
    const file = positionals[0]!;
    const lines = await linesOf(file);
    let text = "";
    try {
      for await (const line of lines) text += `${line}\n`;
    } finally {
      lines.close();
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new CliError(`${escapeControls(file)} is not JSON`);
    }
    // A problem from `mailboxProblems`, carrying its proof, is read as that proof.
    const proof = typeof value === "object" && value !== null && !("version" in value) && "proof" in value ? (value as { proof: unknown }).proof : value;
    const verdict = verifyProof(proof);
    if (values.json === true) io.out(jsonLine(verdict));
    else io.out(verdict.valid ? `${VERIFIED} ${escapeControls(verdict.message)}` : `${UNVERIFIED} not a proof: ${escapeControls(verdict.reason)}`);
    return verdict.valid ? 0 : EXIT_FAILURE;
  },
});
