// `neutral chat <peer>`: both directions with one peer, newest first.
import { defineCommand } from "../command.js";
import { list } from "../list.js";
import { address, jsonOption, PAGE_OPTIONS, paging } from "../options.js";

export const chat = defineCommand({
  name: "chat",
  summary: "the conversation with one peer, both directions, newest first",
  options: { ...PAGE_OPTIONS, ...jsonOption('{"messages":[…],"end":true|false}') },
  help: {
    usage: "neutral chat <peer> [--limit N] [--all] [--json]",
    details: ["← marks a message from the peer, → one you sent; … a sent one still pending, ✗ failed: one that could not be delivered."],
  },
  positionals: ["peer"],
  account: true,
  async run({ values, positionals, io, helpHint, signIn }) {
    const session = signIn();
    const { all, ...pages } = paging(values, helpHint);
    const peer = address(positionals[0]!, "<peer>", helpHint);
    const neutral = session.connect();
    await list(neutral.chat(peer, pages), { json: values.json === true, all }, io);
    return 0;
  },
});
