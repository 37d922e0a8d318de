// allow, block and unblock: three commands of one shape, each signing one consent record about an address.
import { defineCommand } from "./command.js";
import { VERIFIED, jsonLine } from "./format.js";
import { address, jsonOption } from "./options.js";

export interface ChoiceCommand {
  name: string;
  /** What the record says about the address. */
  choice: "allowed" | "blocked" | "none";
  summary: string;
  details: readonly string[];
}

/** `neutral <name> <address> [--json]`: sets `choice` for the address, prints the consent the node now keeps. */
export function choiceCommand({ name, choice, summary, details }: ChoiceCommand) {
  return defineCommand({
    name,
    summary,
    options: jsonOption("your consent as your node now keeps it"),
    help: { usage: `neutral ${name} <address> [--json]`, details },
    positionals: ["address"],
    account: true,
    async run({ values, positionals, io, helpHint, signIn }) {
      const session = signIn();
      const peer = address(positionals[0]!, "<address>", helpHint);
      const state = await session.connect().setConsent(peer, choice);
      if (values.json === true) io.out(jsonLine(state));
      else io.out(choice === "none" ? `${peer} is neither allowed nor blocked` : `${peer} is ${choice} ${VERIFIED}`);
      return 0;
    },
  });
}
