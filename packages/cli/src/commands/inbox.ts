// `neutral inbox`: the mailbox (or its requests folder), newest first, each message verified.
import { defineCommand } from "../command.js";
import { UsageError } from "../errors.js";
import { list } from "../list.js";
import { FILTER_OPTIONS, jsonOption, PAGE_OPTIONS, paging, filter } from "../options.js";

export const inbox = defineCommand({
  name: "inbox",
  summary: "read your mailbox, newest first",
  options: {
    ...PAGE_OPTIONS,
    ...FILTER_OPTIONS,
    requests: {
      type: "boolean",
      label: "--requests",
      help: [
        "the requests folder: first messages from senders you have not allowed, under",
        "`neutral consent --mode allowed-only` (see `neutral allow`)",
      ],
    },
    ...jsonOption('{"messages":[…],"end":true|false} (end: no older message)'),
  },
  help: {
    usage: "neutral inbox [--limit N] [--all] [--from ADDR] [--direction received|sent|all] [--requests] [--json]",
    details: [
      "Each message is decrypted and verified: ✓ when the signature and both receipts check out, ✗ and why otherwise.",
      "A message you sent to someone homed on another node is … pending until their node has it,",
      "or ✗ failed (with the reason) when your node gave up.",
    ],
  },
  positionals: [],
  account: true,
  async run({ values, io, helpHint, signIn }) {
    const session = signIn();
    const { all, ...pages } = paging(values, helpHint);
    const which = filter(values, helpHint);
    const requests = values.requests === true;
    if (requests && which.direction !== undefined && which.direction !== "received") throw new UsageError("--requests reads received messages: leave out --direction", helpHint);
    const neutral = session.connect();
    await list(neutral.inbox({ ...pages, ...which, ...(requests && { folder: "requests" as const }) }), { json: values.json === true, all }, io);
    return 0;
  },
});
