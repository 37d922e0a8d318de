// `neutral prove <id>…`: asks whether messages you sent are in their recipients' mailbox logs (the
// verifiable mailbox): the recipient's home node signs the position of the recipient's copy, and the
// SDK checks the promise. Exit 0 only when every message is proven.
import { proveDelivery } from "@neutral/client/actions";
import type { Message } from "@neutral/client";
import { defineCommand } from "../command.js";
import { EXIT_FAILURE } from "../errors.js";
import { escapeControls, jsonLine, UNVERIFIED, VERIFIED } from "../format.js";
import { jsonOption, messageIds } from "../options.js";

export const prove = defineCommand({
  name: "prove",
  summary: "prove that messages you sent are in their recipients' mailbox logs",
  options: jsonOption('{"proven":[{"id","seq","receipt","node"}],"problems":[{"id","message"}]}'),
  help: {
    usage: "neutral prove <id>… [--json]",
    details: [
      "<id> is the id of a message you sent, as send, inbox --direction sent and chat show it; up to",
      "100 at once. The recipient's home node (asked through yours when it is another) signs the",
      "position of the recipient's copy in the recipient's mailbox log, EIP-712 `LogReceipt`: its",
      "promise, which holds against every head it signs of that log. ✓ when the promise is that",
      "node's; ✗ with why when the node refused, did not answer, holds no copy (never stored, or",
      "deleted since), or the message is still pending or failed. Exit 0 only when every message is",
      "proven.",
    ],
  },
  positionals: ["id"],
  repeatLast: true,
  account: true,
  async run({ values, positionals, io, helpHint, signIn }) {
    const session = signIn();
    const ids = messageIds(positionals, helpHint);
    const wanted = new Set(ids);
    // The messages as the node served them: newest first, down to the oldest id asked for.
    const oldest = ids.reduce((low, id) => (BigInt(id) < low ? BigInt(id) : low), BigInt(ids[0]!));
    const found = new Map<string, Message>();
    for await (const message of session.connect().inbox({ direction: "sent" }).messages()) {
      if (wanted.has(message.id)) found.set(message.id, message.raw);
      if (found.size === wanted.size || BigInt(message.id) <= oldest) break;
    }
    const missing = ids.filter((id) => !found.has(id));
    const asked = [...new Set(ids)].filter((id) => found.has(id)).map((id) => found.get(id)!);
    const result = asked.length === 0 ? { proven: [], problems: [] } : await proveDelivery(session.context(), asked);
    const problems = [...result.problems, ...missing.map((id) => ({ id, message: "not a message you sent (none of your sent messages has this id)" }))];
    if (values.json === true) io.out(jsonLine({ proven: result.proven, problems }));
    else {
      for (const { id, seq, node } of result.proven) io.out(`${VERIFIED} message ${id} is at position ${seq} of its recipient's log, signed by ${node}`);
      for (const { id, message } of problems) io.out(`${UNVERIFIED} message ${escapeControls(id)}: ${escapeControls(message)}`);
    }
    return problems.length === 0 ? 0 : EXIT_FAILURE;
  },
});
