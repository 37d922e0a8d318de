// `neutral unblock <address>`: neither allowed nor blocked.
import { choiceCommand } from "../choice.js";

export const unblock = choiceCommand({
  name: "unblock",
  choice: "none",
  summary: "neither allowed nor blocked any more",
  details: ["Undoes `neutral allow` or `neutral block` (a newer signed record saying neither)."],
});
