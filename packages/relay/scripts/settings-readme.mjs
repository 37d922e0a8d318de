// Rewrites the README's table of settings (between its `settings` markers) and the sample config
// file deploy/neutral.toml from the settings table (src/node/settings.ts), as built in dist/:
// `pnpm --filter @neutral/relay settings:readme`.
import { readFileSync, writeFileSync } from "node:fs";
import { sampleConfigFile, settingsTable } from "../dist/config.js";

const readme = new URL("../README.md", import.meta.url);
const text = readFileSync(readme, "utf8");
const markers = /(<!-- settings:start -->\n)[\s\S]*?(\n<!-- settings:end -->)/;
if (!markers.test(text)) throw new Error("README.md has no <!-- settings:start --> … <!-- settings:end --> block");
writeFileSync(readme, text.replace(markers, (_match, start, end) => `${start}${settingsTable()}${end}`));

// The sample config file operators start from, every setting commented out at its default.
writeFileSync(new URL("../../../deploy/neutral.toml", import.meta.url), sampleConfigFile());
