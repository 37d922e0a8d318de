// `neutral consent`: who reaches the inbox: the policy (set with --mode) and the peers allowed or blocked.
import type { Neutral } from "@neutral/client";
import { defineCommand } from "../command.js";
import { UsageError } from "../errors.js";
import { jsonLine } from "../format.js";
import { jsonOption } from "../options.js";

export const consent = defineCommand({
  name: "consent",
  summary: "who reaches your inbox: your policy and the peers you allowed or blocked",
  options: {
    mode: {
      type: "string",
      label: "--mode M",
      help: [
        "open (everyone you have not blocked) or allowed-only (everyone else's first",
        "messages land in `neutral inbox --requests`); signed and kept by your home node",
      ],
    },
    ...jsonOption('{"account","policy":{"mode",…}|null,"records":[{"peer","state",…}],"end"}'),
  },
  help: {
    usage: "neutral consent [--mode open|allowed-only] [--json]",
    details: ["Without --mode, prints what your home node keeps. Senders you have written to count as allowed."],
  },
  positionals: [],
  account: true,
  async run({ values, io, helpHint, signIn }) {
    const session = signIn();
    const mode = values.mode;
    if (mode !== undefined && mode !== "open" && mode !== "allowed-only") throw new UsageError("--mode must be open or allowed-only", helpHint);
    const neutral = session.connect();
    if (mode !== undefined) await neutral.setConsentPolicy(mode);
    const state = await neutral.consent();
    io.out(values.json === true ? jsonLine(state) : consentLines(state));
    return 0;
  },
});

type ConsentState = Awaited<ReturnType<Neutral["consent"]>>;

function consentLines(state: ConsentState): string {
  const mode = state.policy?.mode ?? "open";
  const lines = [`policy  ${mode}${mode === "open" ? " (everyone you have not blocked reaches your inbox)" : " (others land in `neutral inbox --requests`)"}`];
  for (const record of state.records) lines.push(`${record.state.padEnd(7)} ${record.peer}`);
  return lines.join("\n");
}
