import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

/** What `neutralService_nodeInfo` reports as the software. */
export const SOFTWARE = { name: "neutral-relay", version: manifest.version } as const;
