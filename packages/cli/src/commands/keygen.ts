// `neutral keygen`: a new random account, made locally. The only command that prints a private key.
import { addressOfKey, generatePrivateKey } from "@neutral/client";
import { defineCommand } from "../command.js";
import { jsonLine } from "../format.js";
import { jsonOption } from "../options.js";

export const keygen = defineCommand({
  name: "keygen",
  summary: "create a new account: a random private key and its address",
  options: jsonOption('print exactly {"address":"0x…","privateKey":"0x…"} on one line'),
  help: {
    usage: "neutral keygen [--json]",
    details: [
      "The only command that prints a private key. Keep it secret and pass it to the other",
      "commands through the environment:  export NEUTRAL_KEY=0x…",
      "Nothing is sent anywhere: the key is made locally.",
    ],
  },
  positionals: [],
  account: false,
  async run({ values, stdout }) {
    // Straight to stdout, not through Io and its redaction: printing a key is this command's job.
    newAccount(values.json === true, (text) => void stdout.write(`${text}\n`));
    return 0;
  },
});

function newAccount(json: boolean, write: (text: string) => void): void {
  const privateKey = generatePrivateKey();
  const address = addressOfKey(privateKey);
  if (json) {
    write(jsonLine({ address, privateKey }));
    return;
  }
  write(
    [
      `address      ${address}`,
      `private key  ${privateKey}`,
      "",
      "Keep the private key secret: whoever has it can read your messages and send as you,",
      "and nobody can recover it if you lose it. Store it in a password manager, then give it",
      "to neutral through the environment (not --key, which shows up in `ps` and shell history):",
      "",
      `  export NEUTRAL_KEY=${privateKey}`,
      "  neutral whoami        # signs in and publishes your messaging key so others can write to you",
    ].join("\n"),
  );
}
