// `neutral delete <id>…`: deletes the account's copies of messages; prints the node's signed receipt.
import { defineCommand } from "../command.js";
import { escapeControls, jsonLine, VERIFIED } from "../format.js";
import { jsonOption, messageIds } from "../options.js";

export const deleteCommand = defineCommand({
  name: "delete",
  summary: "delete messages from your mailbox by id (the other party keeps its copy)",
  options: jsonOption('the node\'s receipt: {"node","account","ids","request","signature"}'),
  help: {
    usage: "neutral delete <id>… [--json]",
    details: [
      "<id> is a message id as inbox, chat and watch show it; up to 100 at once. Deletes your copy",
      "on your home node: a message you received from your inbox, one you sent from your sent",
      "messages. The other party's copy stays. The request is signed with your key and names the",
      "positions of your copies in your mailbox log (proven by the node first), and the node answers",
      "a receipt it signs; ✓ when the receipt is the node's. A message still pending (on its way to",
      "another node) cannot be deleted until it is delivered or failed.",
    ],
  },
  positionals: ["id"],
  repeatLast: true,
  account: true,
  async run({ values, positionals, io, helpHint, signIn }) {
    const session = signIn();
    const ids = messageIds(positionals, helpHint);
    const receipt = await session.connect().deleteMessages(ids);
    if (values.json === true) {
      io.out(jsonLine(receipt));
      return 0;
    }
    io.out(`deleted ${ids.length === 1 ? "message" : `${ids.length} messages`} ${ids.map(escapeControls).join(", ")} from your mailbox ${VERIFIED} receipt signed by ${receipt.node}`);
    return 0;
  },
});
