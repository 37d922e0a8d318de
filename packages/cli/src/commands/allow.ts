// `neutral allow <address>`: the address reaches the inbox, even under the allowed-only policy.
import { choiceCommand } from "../choice.js";

export const allow = choiceCommand({
  name: "allow",
  choice: "allowed",
  summary: "let an address reach your inbox, even under the allowed-only policy",
  details: ["Signed with your key and kept by your home node. Messages already in the requests folder stay there."],
});
