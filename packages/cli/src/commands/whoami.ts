// `neutral whoami`: the account, the node, whether the messaging key is published, the home node.
import { NeutralError, type Neutral } from "@neutral/client";
import { defineCommand, type Io } from "../command.js";
import { escapeControls, jsonLine, UNVERIFIED, VERIFIED } from "../format.js";
import { jsonOption } from "../options.js";

export const whoami = defineCommand({
  name: "whoami",
  summary: "your address, the node, and whether your messaging key is published",
  options: jsonOption('{"address","url","node":{"address","software","version"},"keyPublished","publishedNow","home"}'),
  help: {
    usage: "neutral whoami [--json]",
    details: [
      "Signs in to the node, makes it your home node and publishes your messaging key if the node",
      "does not have them yet (every command that talks to the node does this): until then nobody",
      "can send to you. Your home node keeps your mailbox; messages from other nodes arrive there.",
    ],
  },
  positionals: [],
  account: true,
  async run({ values, io, signIn }) {
    const session = signIn();
    await describeAccount(session.connect(), { json: values.json === true, url: session.url }, io);
    return 0;
  },
});

interface WhoamiOptions {
  json: boolean;
  /** The URL as shown (no credentials). */
  url: string;
}

async function describeAccount(neutral: Neutral, options: WhoamiOptions, io: Io): Promise<void> {
  const address = await neutral.getAddress();
  const info = await neutral.nodeInfo();
  const before = await neutral.keyOf(address).catch((error: unknown) => {
    if (error instanceof NeutralError && error.code === "INVALID_KEY_BUNDLE") return undefined; // ready() replaces it
    throw error;
  });
  await neutral.ready();
  const after = await neutral.keyOf(address);
  const published = after !== undefined;
  const publishedNow = published && (before === undefined || before.key.toLowerCase() !== after.key.toLowerCase());
  const home = (await neutral.homeOf(address))?.node.toLowerCase() ?? null;
  const nodeAddress = info.address.toLowerCase();
  if (options.json) {
    io.out(
      jsonLine({
        address,
        url: options.url,
        node: { address: nodeAddress, software: info.software, version: info.version },
        keyPublished: published,
        publishedNow,
        home,
      }),
    );
    return;
  }
  const homeLine =
    home === null
      ? "none: this node does not federate"
      : home === nodeAddress
        ? `${VERIFIED} this node: messages to you from other nodes arrive here`
        : `${UNVERIFIED} another node, ${escapeControls(home)}: use that one`;
  io.out(
    [
      `account        ${address}`,
      `node           ${escapeControls(options.url)}`,
      `node address   ${escapeControls(nodeAddress)} (${escapeControls(`${info.software} ${info.version}`)})`,
      `messaging key  ${published ? `${VERIFIED} published${publishedNow ? " (just now)" : ""}: others can send to you` : `${UNVERIFIED} not published`}`,
      `home node      ${homeLine}`,
    ].join("\n"),
  );
}
