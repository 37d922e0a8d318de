// Reading a node's configuration: flags, then environment variables, then a `--config` file (TOML,
// or JSON), then the defaults, for every setting of the table in node/settings.ts; plus `--help`
// and the README's table, made from that same table, and what the node works out from the settings.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { MAX_PAGE_LIMIT } from "@neutral/protocol";
import { parse as parseToml } from "smol-toml";
import { ConfigError, type Setting } from "./node/setting-kinds.js";
import { checkSettings, everySetting, type RelayConfig } from "./node/settings.js";

export { ConfigError } from "./node/setting-kinds.js";
export { DEFAULT_KEPT_PROOFS_MIB, DEFAULT_SQLITE_MMAP_MIB, LOG_FORMATS, LOG_LEVELS, SETTINGS, type LogFormat, type LogLevel, type PeerConfig, type RelayConfig } from "./node/settings.js";

export type FederationConfig = RelayConfig["federation"];
export type LiveConfig = RelayConfig["live"];
export type ConnectionConfig = RelayConfig["connections"];
export type MetricsConfig = RelayConfig["metrics"];
export type QuotaConfig = RelayConfig["quotas"];

/** The limits a node enforces and nodeInfo reports (`limits`): the spec's, as the operator set them. */
export interface Limits {
  maxLimit: number;
  maxBatch: number;
  maxBodyBytes: number;
  maxMessageBytes: number;
  clockSkewMs: number;
  /** The answer budget of one HTTP request, bytes of message JSON (openrpc.json `maxResponseBytes`). */
  maxResponseBytes: number;
  /** With since/until, the most mailbox entries one page examines per range (`maxPageScan`). */
  maxPageScan: number;
  /** How long a message is kept after this node stored it, seconds; 0: until its owner deletes it (`retentionSeconds`). */
  retentionSeconds: number;
  /** Per client IP, per node: cost units per second (limits/request-costs.ts); absent: off. */
  rateLimit?: number;
  /** Per peer node, per node: cost units per second of node-to-node calls (limits/request-costs.ts); absent: off. */
  peerRateLimit?: number;
  /** The storage quotas' period, present when one is on; each quota is per node, absent when off. */
  quotaPeriodSeconds?: number;
  senderQuotaMessages?: number;
  senderQuotaBytes?: number;
  recipientQuotaMessages?: number;
  recipientQuotaBytes?: number;
  /** Messages one sender may leave in one recipient's requests folder per period (consent); absent when off. */
  requestQuotaMessages?: number;
}

/** What nodeInfo reports of a node's limits: the protocol's, the rate limits and quotas that are on. */
export function reportedLimits(config: Pick<RelayConfig, "limits" | "quotas" | "rateLimit" | "peerRateLimit">): Limits {
  const { quotas } = config;
  const on = (figure: number) => (figure > 0 ? figure : undefined);
  const figures = {
    senderQuotaMessages: on(quotas.senderMessages),
    senderQuotaBytes: on(quotas.senderBytes),
    recipientQuotaMessages: on(quotas.recipientMessages),
    recipientQuotaBytes: on(quotas.recipientBytes),
    requestQuotaMessages: on(quotas.requestMessages),
  };
  const quotasOn = Object.values(figures).some((figure) => figure !== undefined);
  const { limits } = config;
  // In this order: nodeInfo's answer is compared byte for byte with seeds/exchanges/07_nodeInfo.json.
  return {
    maxLimit: MAX_PAGE_LIMIT, // fixed by the spec's Limit schema
    maxBatch: limits.maxBatch,
    maxBodyBytes: limits.maxBodyBytes,
    maxMessageBytes: limits.maxMessageBytes,
    clockSkewMs: limits.clockSkewMs,
    maxResponseBytes: limits.maxResponseBytes,
    maxPageScan: limits.maxPageScan,
    retentionSeconds: limits.retentionSeconds,
    ...(quotasOn && { quotaPeriodSeconds: quotas.periodSeconds }),
    ...Object.fromEntries(Object.entries(figures).filter(([, figure]) => figure !== undefined)),
    ...(config.rateLimit > 0 && { rateLimit: config.rateLimit }),
    ...(config.peerRateLimit > 0 && { peerRateLimit: config.peerRateLimit }),
  };
}

/** `--reserved-connections`, or its default: a tenth of `--max-connections`. */
export const reservedConnections = (connections: Pick<ConnectionConfig, "maxConnections" | "reservedConnections">): number =>
  connections.reservedConnections ?? Math.floor(connections.maxConnections / 10);

/**
 * How long after its timestamp a message may still arrive at this node (openrpc.json "Retention and
 * deletion"): a resend within the clock skew, a peer's delivery within the retry period and the
 * clock skew. A delivery older than that is refused for good, and a message swept sooner keeps its
 * digest that long, so that it is never stored twice.
 */
export const arrivalWindowMs = (config: { federation: Pick<FederationConfig, "retryPeriodSeconds">; limits: Pick<RelayConfig["limits"], "clockSkewMs"> }): number =>
  config.federation.retryPeriodSeconds * 1000 + config.limits.clockSkewMs;

/**
 * The streams one serving process keeps open at most: `--max-subscriptions`, and its share of the
 * connections streams may take (`--max-connections` less `--reserved-connections`, split between
 * the workers), so that streams never take the room ordinary requests need (issue 33, finding 4).
 */
export const streamsPerProcess = (config: Pick<RelayConfig, "workers" | "live" | "connections">): number =>
  Math.max(1, Math.min(config.live.maxSubscriptions, Math.floor((config.connections.maxConnections - reservedConnections(config.connections)) / config.workers)));

/** Whether the operator asked for metrics at all (a port or a token): otherwise nothing is counted. */
export const metricsWanted = (config: MetricsConfig): boolean => config.port !== undefined || config.token !== undefined;


/** The flag that names a config file (`NEUTRAL_CONFIG`): not a setting, where the settings come from. */
const CONFIG_FLAG = "config";
const CONFIG_VARIABLE = "NEUTRAL_CONFIG";

const SETTINGS_LIST = everySetting();

export function helpText(): string {
  const lines = [
    "neutral-relay: a neutralService node (JSON-RPC 2.0 over HTTP; SQLite, or PostgreSQL for replicas)",
    "",
    "Usage: neutral-relay [--config FILE] [flags]      (or: node packages/relay/dist/main.js …)",
    "",
    "Each setting is a flag, an environment variable and a key of the --config file (TOML, or JSON if",
    "FILE ends in .json; its keys are the flags' names: port = 8645); a flag wins over its variable,",
    "which wins over the file. Secrets (marked *) belong in a variable or the file: flags show in ps.",
    "",
  ];
  const line = (flag: string, env: string, help: string) => `  --${flag.padEnd(30)} ${env.padEnd(38)} ${help}`;
  lines.push(line(`${CONFIG_FLAG} FILE`, CONFIG_VARIABLE, "read settings from FILE (TOML, or JSON)"));
  for (const { setting } of SETTINGS_LIST) {
    const fallback = setting.defaultNote ?? setting.default;
    lines.push(line(`${setting.flag}${setting.secret ? " *" : ""}`, setting.env, `${setting.help}${fallback === undefined ? "" : ` (default ${fallback})`}`));
  }
  lines.push(line("help", "", "this text"), "");
  lines.push("Serves JSON-RPC on POST /, plus GET / (what this node is, where the rest is), /health, /ready, /openrpc.json and /docs/.");
  return lines.join("\n");
}

const cell = (text: string) => text.replace(/\|/g, "\\|");

/** The README's table of settings (between its `settings` markers): one row per setting, from the table. */
export function settingsTable(): string {
  const rows = ["| flag / file key | variable | default | what |", "|---|---|---|---|"];
  for (const { setting } of SETTINGS_LIST) {
    const fallback = setting.defaultNote ?? (setting.default === undefined ? "none" : `\`${setting.default}\``);
    const more = setting.docs === undefined ? "" : ` ([more](${setting.docs}))`;
    rows.push(`| \`--${setting.flag}\`${setting.secret ? " (secret)" : ""} | \`${setting.env}\` | ${cell(fallback)} | ${cell(setting.help)}${more} |`);
  }
  return rows.join("\n");
}

/** A TOML value as an operator would write the default `text` of `setting`. */
function tomlValue(setting: { multiple: boolean; range: unknown }, text: string): string {
  if (setting.multiple) return `[${text.split(",").map((item) => JSON.stringify(item.trim())).join(", ")}]`;
  return setting.range !== undefined && /^-?\d+$/.test(text) ? text : JSON.stringify(text);
}

/** Folds `text` into `# `-comment lines of at most `width` characters. */
export function commentLines(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  let length = 1; // "#"
  const words = text.split(/\s+/);
  words.forEach((word, i) => {
    if (length + 1 + word.length > width && line.length > 0) {
      // A line that would begin `word = …` reads as a setting commented out (and uncommenting every
      // setting would take it for one): it begins a word earlier.
      const carried = words[i + 1] === "=" && line.length > 1 ? line.splice(-1) : [];
      lines.push(`# ${line.join(" ")}`);
      line = carried;
      length = 1 + carried.reduce((sum, one) => sum + 1 + one.length, 0);
    }
    line.push(word);
    length += 1 + word.length;
  });
  lines.push(`# ${line.join(" ")}`);
  return lines;
}

/**
 * A config file with every setting, each commented out at its default (or, without one, with what
 * the node does instead), with its help and variable: deploy/neutral.toml
 * (`pnpm --filter @neutral/relay settings:readme` writes it).
 */
export function sampleConfigFile(): string {
  const lines = [
    "# neutral.toml: every setting of neutral-relay, each commented out at its default.",
    "# Uncomment what you change: neutral-relay --config neutral.toml (or NEUTRAL_CONFIG=neutral.toml).",
    "# A flag wins over its variable, which wins over this file. Secrets (node-key, database-url,",
    "# metrics-token) may be kept here only in a file no one else can read (mode 0600); better in",
    "# their variables. Generated from the relay's settings (packages/relay/src/node/settings.ts).",
  ];
  for (const { setting } of SETTINGS_LIST) {
    lines.push("", ...commentLines(`${setting.help}.${setting.secret ? " A secret." : ""} Variable: ${setting.env}.`));
    if (setting.default !== undefined) lines.push(`# ${setting.flag} = ${tomlValue(setting, setting.default)}`);
    else lines.push(...commentLines(`${setting.flag} = … (default: ${setting.defaultNote ?? "none"})`));
  }
  return `${lines.join("\n")}\n`;
}

type FileValue = { texts: string[] };

/** The settings a config file gives, by flag name: its keys must be settings, its values what they take. */
function readConfigFile(file: string, readFile: (file: string) => string): Map<string, FileValue> {
  let source: string;
  try {
    source = readFile(file);
  } catch (error) {
    throw new ConfigError(`cannot read the config file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = file.endsWith(".json") ? JSON.parse(source) : parseToml(source);
  } catch (error) {
    // The parsers' messages say where (line, column); never the file's text, which may hold a secret.
    // (V8's JSON messages may quote the text, so only its position is kept.)
    if (file.endsWith(".json")) {
      const position = /at position (\d+)/.exec((error as Error).message)?.[1];
      throw new ConfigError(`${file} is not valid JSON${position === undefined ? "" : ` (at character ${position})`}`);
    }
    const { line, column } = error as { line?: unknown; column?: unknown };
    const where = typeof line === "number" && typeof column === "number" ? ` (line ${line}, column ${column})` : "";
    throw new ConfigError(`${file} is not valid TOML: ${(error as Error).message.split("\n")[0]!}${where}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new ConfigError(`${file} must hold a table of settings (key = value)`);
  const byFlag = new Map(SETTINGS_LIST.map(({ setting }) => [setting.flag, setting]));
  const values = new Map<string, FileValue>();
  for (const [key, value] of Object.entries(parsed)) {
    const setting = byFlag.get(key);
    if (setting === undefined) throw new ConfigError(`${file}: unknown key ${JSON.stringify(key.slice(0, 100))} (the keys are the flags' names, without --; see --help)`);
    const scalar = (item: unknown): string => {
      if (typeof item === "string") return item;
      if (typeof item === "number" && Number.isFinite(item)) return String(item);
      throw new ConfigError(`${file}: ${key} must be ${setting.multiple ? "a string or an array of strings" : "a string or a number"}`);
    };
    values.set(key, { texts: Array.isArray(value) && setting.multiple ? value.map(scalar) : [scalar(value)] });
  }
  return values;
}

export type ParsedCommandLine = { help: true } | { help: false; config: RelayConfig };

export interface ParseOptions {
  /** Reads the `--config` file (default: `readFileSync(file, "utf8")`). */
  readFile?: (file: string) => string;
}

/**
 * Flags, then environment variables, then the `--config` file (flag, or NEUTRAL_CONFIG), then
 * defaults. Throws ConfigError naming the setting where it was written, never echoing a secret.
 */
export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, options: ParseOptions = {}): ParsedCommandLine {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        ...Object.fromEntries(SETTINGS_LIST.map(({ setting }) => [setting.flag, { type: "string", multiple: setting.multiple }])),
        [CONFIG_FLAG]: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}\nRun with --help for the flags.`);
  }
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  if (values.help) return { help: true };

  const configFile = (values[CONFIG_FLAG] as string | undefined) ?? env[CONFIG_VARIABLE];
  const fromFile = configFile === undefined || configFile === "" ? new Map<string, FileValue>() : readConfigFile(configFile, options.readFile ?? ((file) => readFileSync(file, "utf8")));

  /** The texts given for a setting, and the name of the place they were written, by precedence. */
  const given = (setting: Setting<unknown>): { texts: string[]; name: string } | undefined => {
    const flag = values[setting.flag];
    if (typeof flag === "string") return { texts: [flag], name: `--${setting.flag}` };
    if (Array.isArray(flag) && flag.length > 0) return { texts: flag, name: `--${setting.flag}` };
    const variable = env[setting.env];
    if (variable !== undefined) return { texts: [variable], name: `${setting.env} (--${setting.flag})` };
    const inFile = fromFile.get(setting.flag);
    if (inFile !== undefined) return { texts: inFile.texts, name: `${configFile}: ${setting.flag}` };
    return undefined;
  };

  const config: Record<string, unknown> = {};
  for (const { path, setting } of SETTINGS_LIST) {
    // Its section exists even when none of its settings has a value (e.g. metrics without a port).
    let section = config;
    for (const key of path.slice(0, -1)) section = (section[key] ??= {}) as Record<string, unknown>;
    const source = given(setting);
    if (source !== undefined) section[path[path.length - 1]!] = setting.parse(source.texts, source.name);
    else if (setting.default !== undefined) section[path[path.length - 1]!] = setting.parse([setting.default], `the default of --${setting.flag}`);
    else if (setting.multiple) section[path[path.length - 1]!] = setting.parse([], `--${setting.flag}`);
    // else: no value, absent
  }
  const relayConfig = config as RelayConfig;
  checkSettings(relayConfig);
  return { help: false, config: relayConfig };
}
