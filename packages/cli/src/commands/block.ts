// `neutral block <address>`: the address's messages are refused ("not accepted"), also from other nodes.
import { choiceCommand } from "../choice.js";

export const block = choiceCommand({
  name: "block",
  choice: "blocked",
  summary: "refuse an address's messages from now on (they are told no more than 'not accepted')",
  details: ["Signed with your key and kept by your home node, which refuses the address's messages, also from other nodes."],
});
