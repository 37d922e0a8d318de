import { readFileSync } from "node:fs";
import os from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  arrivalWindowMs,
  commentLines,
  ConfigError,
  DEFAULT_KEPT_PROOFS_MIB,
  DEFAULT_SQLITE_MMAP_MIB,
  helpText,
  parseConfig,
  reportedLimits,
  reservedConnections,
  sampleConfigFile,
  settingsTable,
  streamsPerProcess,
  type RelayConfig,
} from "./config.js";
import { everySetting } from "./node/settings.js";
import { MAX_PAGE_LIMIT } from "@neutral/protocol";
import { TEST_KEYS } from "@neutral/protocol/testing";

/** Every flag with its environment variable (seeds/README.md §8 limits included). */
const FLAGS = [
  ["host", "NEUTRAL_HOST"],
  ["port", "NEUTRAL_PORT"],
  ["data-dir", "NEUTRAL_DATA_DIR"],
  ["domain", "NEUTRAL_DOMAIN"],
  ["node-key", "NEUTRAL_NODE_KEY"],
  ["database-url", "NEUTRAL_DATABASE_URL"],
  ["database-pool-size", "NEUTRAL_DATABASE_POOL_SIZE"],
  ["database-read-statements", "NEUTRAL_DATABASE_READ_STATEMENTS"],
  ["sqlite-mmap-mib", "NEUTRAL_SQLITE_MMAP_MIB"],
  ["kept-proofs-mib", "NEUTRAL_KEPT_PROOFS_MIB"],
  ["log-level", "NEUTRAL_LOG_LEVEL"],
  ["log-format", "NEUTRAL_LOG_FORMAT"],
  ["workers", "NEUTRAL_WORKERS"],
  ["rate-limit", "NEUTRAL_RATE_LIMIT"],
  ["peer-rate-limit", "NEUTRAL_PEER_RATE_LIMIT"],
  ["replicas", "NEUTRAL_REPLICAS"],
  ["quota-period", "NEUTRAL_QUOTA_PERIOD"],
  ["sender-quota-messages", "NEUTRAL_SENDER_QUOTA_MESSAGES"],
  ["sender-quota-bytes", "NEUTRAL_SENDER_QUOTA_BYTES"],
  ["recipient-quota-messages", "NEUTRAL_RECIPIENT_QUOTA_MESSAGES"],
  ["recipient-quota-bytes", "NEUTRAL_RECIPIENT_QUOTA_BYTES"],
  ["request-quota-messages", "NEUTRAL_REQUEST_QUOTA_MESSAGES"],
  ["max-body-bytes", "NEUTRAL_MAX_BODY_BYTES"],
  ["max-batch", "NEUTRAL_MAX_BATCH"],
  ["max-message-bytes", "NEUTRAL_MAX_MESSAGE_BYTES"],
  ["max-response-bytes", "NEUTRAL_MAX_RESPONSE_BYTES"],
  ["max-page-scan", "NEUTRAL_MAX_PAGE_SCAN"],
  ["retention", "NEUTRAL_RETENTION"],
  ["clock-skew-ms", "NEUTRAL_CLOCK_SKEW_MS"],
  ["max-subscriptions", "NEUTRAL_MAX_SUBSCRIPTIONS"],
  ["max-subscriptions-per-account", "NEUTRAL_MAX_SUBSCRIPTIONS_PER_ACCOUNT"],
  ["subscription-buffer-bytes", "NEUTRAL_SUBSCRIPTION_BUFFER_BYTES"],
  ["subscription-stall-ms", "NEUTRAL_SUBSCRIPTION_STALL_MS"],
  ["keep-alive-ms", "NEUTRAL_KEEP_ALIVE_MS"],
  ["public-url", "NEUTRAL_PUBLIC_URL"],
  ["peer", "NEUTRAL_PEERS"],
  ["delivery-wait-ms", "NEUTRAL_DELIVERY_WAIT_MS"],
  ["retry-period", "NEUTRAL_RETRY_PERIOD"],
  ["retry-backoff-ms", "NEUTRAL_RETRY_BACKOFF_MS"],
  ["retry-backoff-max-ms", "NEUTRAL_RETRY_BACKOFF_MAX_MS"],
  ["directory-ttl-ms", "NEUTRAL_DIRECTORY_TTL_MS"],
  ["peer-timeout-ms", "NEUTRAL_PEER_TIMEOUT_MS"],
  ["max-connections", "NEUTRAL_MAX_CONNECTIONS"],
  ["max-connections-per-ip", "NEUTRAL_MAX_CONNECTIONS_PER_IP"],
  ["trust-proxy", "NEUTRAL_TRUST_PROXY"],
  ["reserved-connections", "NEUTRAL_RESERVED_CONNECTIONS"],
  ["headers-timeout-ms", "NEUTRAL_HEADERS_TIMEOUT_MS"],
  ["request-timeout-ms", "NEUTRAL_REQUEST_TIMEOUT_MS"],
  ["keep-alive-timeout-ms", "NEUTRAL_KEEP_ALIVE_TIMEOUT_MS"],
  ["write-timeout-ms", "NEUTRAL_WRITE_TIMEOUT_MS"],
  ["max-buffered-bytes", "NEUTRAL_MAX_BUFFERED_BYTES"],
  ["max-buffered-bytes-per-ip", "NEUTRAL_MAX_BUFFERED_BYTES_PER_IP"],
  ["metrics-port", "NEUTRAL_METRICS_PORT"],
  ["metrics-host", "NEUTRAL_METRICS_HOST"],
  ["metrics-token", "NEUTRAL_METRICS_TOKEN"],
] as const;

const KEY = TEST_KEYS.node;

/** Files a test's config reads: `--config NAME` finds `files[NAME]`. */
let files: Record<string, string> = {};
const readFile = (file: string) => {
  if (!(file in files)) throw Object.assign(new Error(`ENOENT: ${file}`), { code: "ENOENT" });
  return files[file]!;
};
afterEach(() => {
  files = {};
});

function config(argv: string[], env: NodeJS.ProcessEnv = {}): RelayConfig {
  const parsed = parseConfig(argv, env, { readFile });
  if (parsed.help) throw new Error("unexpected help");
  return parsed.config;
}

function configError(argv: string[], env: NodeJS.ProcessEnv = {}): ConfigError {
  let thrown: unknown;
  try {
    parseConfig(argv, env, { readFile });
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected ConfigError for ${JSON.stringify(argv)} ${JSON.stringify(env)}`).toBeInstanceOf(ConfigError);
  return thrown as ConfigError;
}

describe("parseConfig: federation", () => {
  const peer = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
  it("takes peers from repeated flags or a comma list, pinned with #address (lowercased), URLs without a trailing slash", () => {
    expect(config(["--peer", "http://127.0.0.1:8646/", "--peer", `https://b.example.org/relay#${peer}`]).federation.peers).toEqual([
      { url: "http://127.0.0.1:8646" },
      { url: "https://b.example.org/relay", address: peer.toLowerCase() },
    ]);
    expect(config([], { NEUTRAL_PEERS: ` http://a:1, http://b:2#${peer} ,` }).federation.peers).toEqual([{ url: "http://a:1" }, { url: "http://b:2", address: peer.toLowerCase() }]);
    // A flag wins over the variable.
    expect(config(["--peer", "http://c:3"], { NEUTRAL_PEERS: "http://a:1" }).federation.peers).toEqual([{ url: "http://c:3" }]);
    expect(config(["--public-url", "https://a.example.org/"]).federation.publicUrl).toBe("https://a.example.org");
  });

  it("takes a retention with a unit, at the ten-year bound and off at 0", () => {
    expect(config(["--retention", "3650d"]).limits.retentionSeconds).toBe(3650 * 86_400);
    expect(config(["--retention", "90"]).limits.retentionSeconds).toBe(90);
    expect(config(["--retention", "45m"]).limits.retentionSeconds).toBe(45 * 60);
    expect(config(["--retention", "0"]).limits.retentionSeconds).toBe(0);
  });

  it.each([
    [["--peer", "ftp://a:1"], /--peer must be an http/],
    [["--peer", "http://user:pw@a:1"], /without credentials/],
    [["--peer", "http://a:1#0x12"], /pinned node address/],
    [["--peer", "not a url"], /--peer must be an http/],
    [["--peer", "http://a:1", "--peer", "http://a:1/"], /listed twice/],
    [["--public-url", "http://a:1/?x=1"], /--public-url must be/],
    [["--retry-backoff-ms", "5000", "--retry-backoff-max-ms", "4000"], /at least --retry-backoff-ms/],
    [["--delivery-wait-ms", "60001"], /--delivery-wait-ms must be an integer in 0..60000/],
    [["--retry-period", "0"], /--retry-period must be an integer in 1\.\./],
    [["--keep-alive-ms", "15001"], /--keep-alive-ms must be an integer in 100\.\.15000/],
    [["--max-subscriptions", "0"], /--max-subscriptions must be an integer in 1\.\./],
    [["--database-read-statements", "0"], /--database-read-statements must be an integer in 1\.\.1000/],
    [["--max-subscriptions-per-account", "0"], /--max-subscriptions-per-account must be an integer in 1\.\./],
    [["--subscription-buffer-bytes", "1023"], /--subscription-buffer-bytes must be an integer in 1024\.\./],
    [["--retention", "3651d"], /--retention must be a duration of at most 3650d/],
    [["--retention", "1.5d"], /--retention must be a duration/],
    [["--retention", "2w"], /--retention must be a duration/],
  ])("refuses %j", (args, message) => {
    expect(() => config(args)).toThrow(message);
  });

  it("takes live delivery's limits at their bounds", () => {
    const live = config(["--keep-alive-ms", "15000", "--max-subscriptions", "1", "--max-subscriptions-per-account", "1", "--subscription-buffer-bytes", "1024", "--subscription-stall-ms", "100"]).live;
    expect(live).toEqual({ keepAliveMs: 15_000, maxSubscriptions: 1, maxSubscriptionsPerAccount: 1, subscriptionBufferBytes: 1024, subscriptionStallMs: 100 });
  });
});

describe("parseConfig", () => {
  it("streams keep --reserved-connections free (a tenth of --max-connections by default), split between the workers", () => {
    expect(config([]).connections.reservedConnections).toBeUndefined();
    expect(reservedConnections(config([]).connections)).toBe(1000);
    expect(reservedConnections(config(["--max-connections", "500"]).connections)).toBe(50);
    expect(reservedConnections(config(["--reserved-connections", "7"]).connections)).toBe(7);
    expect(streamsPerProcess(config(["--workers", "2"]))).toBe(4500);
    expect(streamsPerProcess(config(["--workers", "1", "--max-connections", "20000", "--reserved-connections", "0"]))).toBe(10_000); // --max-subscriptions
    expect(streamsPerProcess(config(["--workers", "4", "--max-connections", "1000", "--reserved-connections", "999"]))).toBe(1);
    expect(configError(["--max-connections", "1000", "--reserved-connections", "1000"]).message).toMatch(/--reserved-connections must be an integer in 0\.\.999/);
    expect(configError(["--reserved-connections", "-1"]).message).toMatch(/--reserved-connections/);
  });

  it("a delivery may arrive, and a swept message's digest is kept, for the retry period and the clock skew", () => {
    expect(arrivalWindowMs(config([]))).toBe(72 * 3_600_000 + 300_000);
    expect(arrivalWindowMs(config(["--retry-period", "60", "--clock-skew-ms", "1000"]))).toBe(61_000);
  });

  it("has the documented defaults", () => {
    expect(config([])).toEqual({
      host: "127.0.0.1",
      port: 8645,
      dataDir: "./data",
      domains: [],
      databasePoolSize: 10,
      databaseReadStatements: 2,
      sqliteMmapMib: DEFAULT_SQLITE_MMAP_MIB,
      keptProofsMib: DEFAULT_KEPT_PROOFS_MIB,
      logLevel: "info",
      logFormat: "auto",
      workers: os.availableParallelism(),
      rateLimit: 100,
      peerRateLimit: 10_000,
      replicas: 1,
      federation: {
        peers: [],
        deliveryWaitMs: 2000,
        retryPeriodSeconds: 72 * 3600,
        retryBackoffMs: 1000,
        retryBackoffMaxMs: 30 * 60_000,
        directoryTtlMs: 5 * 60_000,
        peerTimeoutMs: 10_000,
      },
      connections: {
        maxConnections: 10_000,
        maxConnectionsPerIp: 256,
        trustProxy: [],
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 65_000,
        writeTimeoutMs: 30_000,
        maxBufferedBytes: 32 * 1024 * 1024,
        maxBufferedBytesPerIp: 8 * 1024 * 1024,
      },
      live: {
        maxSubscriptions: 10_000,
        maxSubscriptionsPerAccount: 8,
        subscriptionBufferBytes: 64 * 1024,
        subscriptionStallMs: 30_000,
        keepAliveMs: 15_000,
      },
      metrics: { host: "127.0.0.1" },
      limits: {
        maxBatch: 100,
        maxBodyBytes: 1024 * 1024,
        maxMessageBytes: 64 * 1024,
        clockSkewMs: 5 * 60 * 1000,
        maxResponseBytes: 4 * 1024 * 1024,
        maxPageScan: 256,
        retentionSeconds: 90 * 86_400,
      },
      quotas: {
        periodSeconds: 3600,
        senderMessages: 10_000,
        senderBytes: 100 * 1024 * 1024,
        recipientMessages: 20_000,
        recipientBytes: 200 * 1024 * 1024,
        requestMessages: 5,
      },
    });
    expect("nodeKey" in config([])).toBe(false);
    expect("databaseUrl" in config([])).toBe(false);
  });

  it("reads the process environment when none is passed", () => {
    vi.stubEnv("NEUTRAL_PORT", "9123");
    try {
      const parsed = parseConfig([]);
      expect(parsed.help === false && parsed.config.port).toBe(9123);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  // [flag, flag value, env value, what the config holds for the flag value, ... for the env value, read it]
  const cases: [string, string, string, unknown, unknown, (c: RelayConfig) => unknown][] = [
    ["host", "0.0.0.0", "::1", "0.0.0.0", "::1", (c) => c.host],
    ["port", "1234", "4321", 1234, 4321, (c) => c.port],
    ["data-dir", "/var/flag", "/var/env", "/var/flag", "/var/env", (c) => c.dataDir],
    ["domain", "flag.example", "env.example", ["flag.example"], ["env.example"], (c) => c.domains],
    ["node-key", KEY, KEY.toUpperCase().replace("0X", "0x"), KEY, KEY.toUpperCase().replace("0X", "0x"), (c) => c.nodeKey],
    ["database-url", "postgres://relay@db.example/neutral", "postgresql://a:b@[::1]:5433/n?sslmode=require", "postgres://relay@db.example/neutral", "postgresql://a:b@[::1]:5433/n?sslmode=require", (c) => c.databaseUrl],
    ["database-pool-size", "4", "20", 4, 20, (c) => c.databasePoolSize],
    ["database-read-statements", "1", "8", 1, 8, (c) => c.databaseReadStatements],
    ["sqlite-mmap-mib", "0", "2047", 0, 2047, (c) => c.sqliteMmapMib],
    ["kept-proofs-mib", "0", "4096", 0, 4096, (c) => c.keptProofsMib],
    ["log-level", "debug", "warn", "debug", "warn", (c) => c.logLevel],
    ["log-format", "pretty", "json", "pretty", "json", (c) => c.logFormat],
    ["workers", "3", "5", 3, 5, (c) => c.workers],
    ["rate-limit", "0", "7", 0, 7, (c) => c.rateLimit],
    ["peer-rate-limit", "0", "7", 0, 7, (c) => c.peerRateLimit],
    ["replicas", "2", "3", 2, 3, (c) => c.replicas],
    ["quota-period", "60", "86400", 60, 86400, (c) => c.quotas.periodSeconds],
    ["sender-quota-messages", "0", "5", 0, 5, (c) => c.quotas.senderMessages],
    ["sender-quota-bytes", "0", "1000000", 0, 1_000_000, (c) => c.quotas.senderBytes],
    ["recipient-quota-messages", "0", "7", 0, 7, (c) => c.quotas.recipientMessages],
    ["recipient-quota-bytes", "0", "2000000", 0, 2_000_000, (c) => c.quotas.recipientBytes],
    ["request-quota-messages", "0", "3", 0, 3, (c) => c.quotas.requestMessages],
    ["max-body-bytes", "2048", "4096", 2048, 4096, (c) => c.limits.maxBodyBytes],
    ["max-batch", "10", "20", 10, 20, (c) => c.limits.maxBatch],
    ["max-message-bytes", "16", "32", 16, 32, (c) => c.limits.maxMessageBytes],
    ["max-response-bytes", "65536", "131072", 65536, 131072, (c) => c.limits.maxResponseBytes],
    ["max-page-scan", "101", "1000", 101, 1000, (c) => c.limits.maxPageScan],
    ["retention", "0", "12h", 0, 12 * 3600, (c) => c.limits.retentionSeconds],
    ["clock-skew-ms", "0", "1000", 0, 1000, (c) => c.limits.clockSkewMs],
    ["public-url", "https://a.example.org", "https://b.example.org/", "https://a.example.org", "https://b.example.org", (c) => c.federation.publicUrl],
    ["peer", "http://127.0.0.1:8646", "http://127.0.0.1:8647", [{ url: "http://127.0.0.1:8646" }], [{ url: "http://127.0.0.1:8647" }], (c) => c.federation.peers],
    ["delivery-wait-ms", "0", "500", 0, 500, (c) => c.federation.deliveryWaitMs],
    ["retry-period", "60", "3600", 60, 3600, (c) => c.federation.retryPeriodSeconds],
    ["retry-backoff-ms", "10", "20", 10, 20, (c) => c.federation.retryBackoffMs],
    ["retry-backoff-max-ms", "5000", "6000", 5000, 6000, (c) => c.federation.retryBackoffMaxMs],
    ["directory-ttl-ms", "0", "1000", 0, 1000, (c) => c.federation.directoryTtlMs],
    ["peer-timeout-ms", "500", "600", 500, 600, (c) => c.federation.peerTimeoutMs],
    ["max-connections", "500", "600", 500, 600, (c) => c.connections.maxConnections],
    ["max-connections-per-ip", "0", "7", 0, 7, (c) => c.connections.maxConnectionsPerIp],
    ["trust-proxy", "10.0.0.0/8", "127.0.0.1", ["10.0.0.0/8"], ["127.0.0.1"], (c) => c.connections.trustProxy],
    ["reserved-connections", "0", "7", 0, 7, (c) => c.connections.reservedConnections],
    ["headers-timeout-ms", "2000", "3000", 2000, 3000, (c) => c.connections.headersTimeoutMs],
    ["request-timeout-ms", "20000", "40000", 20000, 40000, (c) => c.connections.requestTimeoutMs],
    ["keep-alive-timeout-ms", "5000", "6000", 5000, 6000, (c) => c.connections.keepAliveTimeoutMs],
    ["write-timeout-ms", "1000", "2000", 1000, 2000, (c) => c.connections.writeTimeoutMs],
    ["max-buffered-bytes", "2097152", "4194304", 2097152, 4194304, (c) => c.connections.maxBufferedBytes],
    ["max-buffered-bytes-per-ip", "0", "2097152", 0, 2097152, (c) => c.connections.maxBufferedBytesPerIp],
    ["max-subscriptions", "5", "6", 5, 6, (c) => c.live.maxSubscriptions],
    ["max-subscriptions-per-account", "2", "3", 2, 3, (c) => c.live.maxSubscriptionsPerAccount],
    ["subscription-buffer-bytes", "4096", "8192", 4096, 8192, (c) => c.live.subscriptionBufferBytes],
    ["subscription-stall-ms", "1000", "2000", 1000, 2000, (c) => c.live.subscriptionStallMs],
    ["keep-alive-ms", "1000", "2000", 1000, 2000, (c) => c.live.keepAliveMs],
    ["metrics-port", "0", "9464", 0, 9464, (c) => c.metrics.port],
    ["metrics-host", "0.0.0.0", "::1", "0.0.0.0", "::1", (c) => c.metrics.host],
    ["metrics-token", "f".repeat(16), "e".repeat(32), "f".repeat(16), "e".repeat(32), (c) => c.metrics.token],
  ];

  it("covers every flag, and the settings table has exactly these flags and variables", () => {
    expect(cases.map(([flag]) => flag).sort()).toEqual(FLAGS.map(([flag]) => flag).sort());
    const byFlag = (pairs: readonly (readonly [string, string])[]) => [...pairs].sort(([a], [b]) => a.localeCompare(b));
    expect(byFlag(everySetting().map(({ setting }) => [setting.flag, setting.env] as const))).toEqual(byFlag(FLAGS));
  });

  it.each(cases)("--%s: the flag beats the variable, which beats the config file, which beats the default", (flag, flagValue, envValue, fromFlag, fromEnv, read) => {
    const envName = FLAGS.find(([name]) => name === flag)![1];
    const env = { [envName]: envValue };
    // The file gives the variable's value (a TOML string, or a number where the value is one).
    const tomlValue = /^\d+$/.test(envValue) ? envValue : JSON.stringify(envValue);
    files = { "n.toml": `${flag} = ${tomlValue}\n`, "n.json": JSON.stringify({ [flag]: /^\d+$/.test(envValue) ? Number(envValue) : envValue }) };
    expect(read(config([`--${flag}`, flagValue], env))).toEqual(fromFlag);
    expect(read(config([`--${flag}=${flagValue}`], env))).toEqual(fromFlag);
    expect(read(config(["--config", "n.toml", `--${flag}`, flagValue], env))).toEqual(fromFlag);
    expect(read(config([], env))).toEqual(fromEnv);
    expect(read(config(["--config", "n.toml"], { ...env, [envName]: flagValue }))).toEqual(fromFlag);
    expect(read(config(["--config", "n.toml"]))).toEqual(fromEnv);
    expect(read(config(["--config", "n.json"]))).toEqual(fromEnv);
    expect(read(config([], { NEUTRAL_CONFIG: "n.toml" }))).toEqual(fromEnv);
    expect(read(config([], env))).not.toEqual(read(config([])));
  });

  it("--max-page-scan is at least a full page plus one (101): at it accepted, below it refused", () => {
    expect(config(["--max-page-scan", "101"]).limits.maxPageScan).toBe(101);
    expect(configError(["--max-page-scan", "100"]).message).toMatch(/--max-page-scan/);
    expect(config(["--max-response-bytes", "1024"]).limits.maxResponseBytes).toBe(1024);
    expect(configError(["--max-response-bytes", "1023"]).message).toMatch(/--max-response-bytes/);
  });

  it("reports the protocol's limits, the quotas and the rate limits that are on, in the order of the interface's nodeInfo exchange; no quota period when every quota is off", () => {
    expect(Object.keys(reportedLimits(config([])))).toEqual([
      ...["maxLimit", "maxBatch", "maxBodyBytes", "maxMessageBytes", "clockSkewMs", "maxResponseBytes", "maxPageScan", "retentionSeconds"],
      ...["quotaPeriodSeconds", "senderQuotaMessages", "senderQuotaBytes", "recipientQuotaMessages", "recipientQuotaBytes", "requestQuotaMessages", "rateLimit", "peerRateLimit"],
    ]);
    expect(reportedLimits(config([]))).toEqual({
      maxLimit: MAX_PAGE_LIMIT,
      maxBatch: 100,
      maxBodyBytes: 1024 * 1024,
      maxMessageBytes: 64 * 1024,
      clockSkewMs: 5 * 60 * 1000,
      maxResponseBytes: 4 * 1024 * 1024,
      maxPageScan: 256,
      retentionSeconds: 90 * 86_400,
      rateLimit: 100,
      peerRateLimit: 10_000,
      quotaPeriodSeconds: 3600,
      senderQuotaMessages: 10_000,
      senderQuotaBytes: 100 * 1024 * 1024,
      recipientQuotaMessages: 20_000,
      recipientQuotaBytes: 200 * 1024 * 1024,
      requestQuotaMessages: 5,
    });
    const off = ["--sender-quota-messages", "0", "--sender-quota-bytes", "0", "--recipient-quota-messages", "0", "--recipient-quota-bytes", "0", "--request-quota-messages", "0"];
    const quotaKeys = ["quotaPeriodSeconds", "senderQuotaMessages", "senderQuotaBytes", "recipientQuotaMessages", "recipientQuotaBytes", "requestQuotaMessages"];
    const reported = reportedLimits(config([...off, "--rate-limit", "0", "--peer-rate-limit", "0"]));
    expect(Object.keys(reported).filter((key) => quotaKeys.includes(key) || key.endsWith("RateLimit"))).toEqual([]);
    expect(reportedLimits(config([...off, "--sender-quota-bytes", "65536"]))).toMatchObject({ quotaPeriodSeconds: 3600, senderQuotaBytes: 65536 });
  });

  it("--domain is repeatable and takes comma lists", () => {
    expect(config(["--domain", "a.example", "--domain", "b.example:8645, c.example", "--domain=d.example,"]).domains).toEqual([
      "a.example",
      "b.example:8645",
      "c.example",
      "d.example",
    ]);
  });

  it("NEUTRAL_DOMAIN takes a comma list; --domain replaces it", () => {
    const env = { NEUTRAL_DOMAIN: "a.example, b.example:8645,,c.example" };
    expect(config([], env).domains).toEqual(["a.example", "b.example:8645", "c.example"]);
    expect(config(["--domain", "z.example"], env).domains).toEqual(["z.example"]);
  });

  it.each([
    [["--port", "65536"], "--port"],
    [["--port", "abc"], "--port"],
    [["--port", "80.5"], "--port"],
    [["--port="], "--port"],
    [["--port", "-1"], "--port"],
    [["--workers", "0"], "--workers"],
    [["--workers", "65"], "--workers"],
    [["--workers", "two"], "--workers"],
    [["--log-level", "verbose"], "--log-level"],
    [["--rate-limit", "-5"], "--rate-limit"],
    [["--replicas", "0"], "--replicas"],
    [["--quota-period", "0"], "--quota-period"],
    [["--sender-quota-messages", "-1"], "--sender-quota-messages"],
    [["--sender-quota-bytes", "65535"], "--sender-quota-bytes"], // smaller than one largest message
    [["--recipient-quota-bytes", String(64 * 1024 * 3), "--replicas", "4"], "--recipient-quota-bytes"], // each replica's share is
    [["--recipient-quota-messages", "1.5"], "--recipient-quota-messages"],
    [["--max-body-bytes", "10"], "--max-body-bytes"],
    [["--max-batch", "0"], "--max-batch"],
    [["--max-message-bytes", "0"], "--max-message-bytes"],
    [["--clock-skew-ms", "1e3"], "--clock-skew-ms"],
    [["--database-pool-size", "0"], "--database-pool-size"],
    [["--database-read-statements", "1001"], "--database-read-statements"],
    [["--sqlite-mmap-mib", "2048"], "--sqlite-mmap-mib"], // past SQLite's largest map
    [["--sqlite-mmap-mib", "-1"], "--sqlite-mmap-mib"],
    [["--kept-proofs-mib", "4097"], "--kept-proofs-mib"],
    [["--kept-proofs-mib", "-1"], "--kept-proofs-mib"],
    [["--max-connections", "0"], "--max-connections"],
    [["--headers-timeout-ms", "999"], "--headers-timeout-ms"],
    [["--headers-timeout-ms", "20000", "--request-timeout-ms", "10000"], "--headers-timeout-ms"], // headers come with the request
    [["--max-buffered-bytes", String(512 * 1024)], "--max-buffered-bytes"], // below the largest body
    [["--max-buffered-bytes-per-ip", "1024"], "--max-buffered-bytes-per-ip"],
    [["--prot", "80"], "--prot"],
    [["--verbose"], "--verbose"],
    [["--port"], "--port"],
  ])("%j → ConfigError naming %s", (argv, flag) => {
    expect(configError(argv).message).toContain(flag);
  });

  it.each([
    ["NEUTRAL_PORT", "99999", "--port"],
    ["NEUTRAL_WORKERS", "0", "--workers"],
    ["NEUTRAL_LOG_LEVEL", "loud", "--log-level"],
    ["NEUTRAL_MAX_BATCH", "many", "--max-batch"],
  ])("a bad %s=%s → ConfigError naming %s", (name, value, flag) => {
    expect(configError([], { [name]: value }).message).toContain(flag);
  });

  it("refuses a positional argument", () => {
    configError(["serve"]);
  });

  it.each([
    "0xdeadbeefcafe5ecre7",
    `0x${"ab".repeat(31)}`, // 31 bytes
    `0x${"ab".repeat(33)}`, // 33 bytes
    "ab".repeat(32), // no 0x
    `0x${"zq".repeat(32)}`,
  ])("an invalid --node-key is refused without echoing it: %s", (key) => {
    const secret = key.replace(/^0x/, "");
    for (const error of [configError(["--node-key", key]), configError([`--node-key=${key}`]), configError([], { NEUTRAL_NODE_KEY: key })]) {
      expect(error.message).toContain("--node-key");
      expect(error.message).not.toContain(secret);
      expect(error.message).not.toContain(secret.slice(0, 16));
    }
  });

  it.each(["mysql://root:hunter2@db/neutral", "hunter2", "postgres://root:hunter2@db/neutral with space", "file:///hunter2.sqlite"])(
    "a --database-url that is not postgres:// is refused without echoing it: %s",
    (url) => {
      for (const error of [configError(["--database-url", url]), configError([], { NEUTRAL_DATABASE_URL: url })]) {
        expect(error.message).toContain("--database-url");
        expect(error.message).not.toContain("hunter2");
      }
    },
  );

  it.each(["short-secret", "has a space in it ok", "é".repeat(20), "x".repeat(257)])("a bad --metrics-token is refused without echoing it: %s", (token) => {
    for (const error of [configError(["--metrics-token", token]), configError([], { NEUTRAL_METRICS_TOKEN: token })]) {
      expect(error.message).toContain("--metrics-token");
      expect(error.message).not.toContain(token.slice(0, 10));
    }
  });

  it("--metrics-port is a port", () => {
    expect(configError(["--metrics-port", "65536"]).message).toContain("--metrics-port");
    expect(configError(["--metrics-port", "-1"]).message).toContain("--metrics-port");
  });

  it("an error about another flag does not echo the node key either", () => {
    for (const argv of [
      ["--node-key", KEY, "--port", "abc"],
      ["--node-key", KEY, "--bogus"],
      ["--node-key", KEY, "extra"],
    ]) {
      expect(configError(argv).message).not.toContain(KEY.slice(2, 18));
    }
  });

  it("--help and -h answer {help: true}", () => {
    expect(parseConfig(["--help"], {})).toEqual({ help: true });
    expect(parseConfig(["-h"], {})).toEqual({ help: true });
    expect(parseConfig(["--port", "1", "--help"], {})).toEqual({ help: true });
    expect(parseConfig(["--help"], { NEUTRAL_PORT: "not a port" })).toEqual({ help: true });
  });

  it("the defaults parse on a machine with more cores than --workers allows", async () => {
    // FLAGS reads os.availableParallelism() when config.ts loads: load a fresh copy on a big machine.
    const spy = vi.spyOn(os, "availableParallelism").mockReturnValue(128);
    vi.resetModules();
    const fresh = await import("./config.js");
    spy.mockRestore();
    const parsed = fresh.parseConfig([], {});
    expect(parsed.help).toBe(false);
    if (!parsed.help) {
      expect(parsed.config.workers).toBeGreaterThanOrEqual(1);
      expect(parsed.config.workers).toBeLessThanOrEqual(64);
    }
  });
});

describe("helpText", () => {
  afterEach(() => vi.unstubAllEnvs());

  it.each(FLAGS)("lists --%s and %s", (flag, env) => {
    const text = helpText();
    const line = text.split("\n").find((candidate) => candidate.trimStart().startsWith(`--${flag} `));
    expect(line, `--${flag}`).toBeDefined();
    expect(line).toContain(env);
    expect(line!.trim().length).toBeGreaterThan(`--${flag} ${env}`.length + 5); // with a description
  });

  it("lists --help and --config, and every flag it lists is one parseConfig knows", () => {
    const text = helpText();
    expect(text).toMatch(/--config FILE +NEUTRAL_CONFIG +read settings from FILE/);
    expect(text).toMatch(/--help\b/);
    const listed = [...text.matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]!).filter((flag) => flag !== "help" && flag !== "config");
    expect(new Set(listed)).toEqual(new Set(FLAGS.map(([flag]) => flag)));
    for (const flag of listed) {
      let message = "";
      try {
        parseConfig([`--${flag}`, "1"], {});
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).not.toMatch(/Unknown option/i);
    }
  });

  it("shows the defaults", () => {
    const text = helpText();
    for (const fallback of ["127.0.0.1", "8645", "./data", "info", "100", String(1024 * 1024), String(64 * 1024), String(5 * 60 * 1000)]) {
      expect(text).toContain(fallback);
    }
  });
});

describe("the --config file", () => {
  it("reads TOML (and JSON for a .json file) whose keys are the flags' names; lists as arrays or comma lists", () => {
    files = {
      "neutral.toml": ['# a node of two', 'port = 9000', 'host = "0.0.0.0"', 'peer = ["http://a:1", "http://b:2#0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"]', 'domain = "a.example, b.example"', 'retention = "30d"'].join("\n"),
      "neutral.json": JSON.stringify({ port: 9001, peer: "http://a:1,http://b:2", "max-batch": 7 }),
    };
    const fromToml = config(["--config", "neutral.toml"]);
    expect(fromToml).toMatchObject({ port: 9000, host: "0.0.0.0", domains: ["a.example", "b.example"], limits: { retentionSeconds: 30 * 86_400 } });
    expect(fromToml.federation.peers).toEqual([{ url: "http://a:1" }, { url: "http://b:2", address: "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc" }]);
    const fromJson = config(["--config=neutral.json"]);
    expect(fromJson).toMatchObject({ port: 9001, limits: { maxBatch: 7 } });
    expect(fromJson.federation.peers).toEqual([{ url: "http://a:1" }, { url: "http://b:2" }]);
    // Flags replace the file's list, they do not add to it.
    expect(config(["--config", "neutral.toml", "--peer", "http://c:3"]).federation.peers).toEqual([{ url: "http://c:3" }]);
  });

  it.each([
    ["an unknown key", "prot = 80\n", /n\.toml: unknown key "prot"/],
    ["a key written as a section", "[limits]\nmax-batch = 5\n", /n\.toml: unknown key "limits"/],
    ["a value out of range", "port = 70000\n", /n\.toml: port must be an integer in 0\.\.65535, got "70000"/],
    ["a value at the limit plus one", "max-subscriptions-per-account = 10001\n", /n\.toml: max-subscriptions-per-account must be an integer in 1\.\.10000/],
    ["a fraction", "max-batch = 1.5\n", /n\.toml: max-batch must be an integer/],
    ["a boolean", "port = true\n", /n\.toml: port must be a string or a number/],
    ["an array for a single value", 'host = ["a", "b"]\n', /n\.toml: host must be a string or a number/],
    ["a bad choice", 'log-level = "loud"\n', /n\.toml: log-level must be one of/],
    ["settings that disagree", "headers-timeout-ms = 20000\nrequest-timeout-ms = 10000\n", /--headers-timeout-ms must not exceed --request-timeout-ms/],
    ["TOML that does not parse, with where", "port = = 1\n", /n\.toml is not valid TOML: .*line 1/i],
  ])("refuses %s, naming the file and the key", (_what, text, message) => {
    files = { "n.toml": text };
    expect(configError(["--config", "n.toml"]).message).toMatch(message);
  });

  it("refuses a file that cannot be read, or that is not a table", () => {
    expect(configError(["--config", "missing.toml"]).message).toMatch(/cannot read the config file missing\.toml: ENOENT/);
    files = { "list.json": "[1, 2]", "bad.json": "{ port: 1 }" };
    expect(configError(["--config", "list.json"]).message).toMatch(/list\.json must hold a table of settings/);
    expect(configError(["--config", "bad.json"]).message).toMatch(/bad\.json is not valid JSON/);
  });

  it("never echoes a secret it refuses, nor a line of a file that does not parse", () => {
    files = {
      "key.toml": 'node-key = "0xhunter2hunter2hunter2"\n',
      "url.toml": 'database-url = "mysql://root:hunter2@db/neutral"\n',
      "token.toml": 'metrics-token = "hunter2"\n',
      "broken.toml": 'node-key = "0xhunter2hunter2hunter2\n',
      "broken.json": "xhunter2",
      "broken2.json": '{"node-key": "0xhunter2" x',
    };
    const cases = [["key.toml", "node-key"], ["url.toml", "database-url"], ["token.toml", "metrics-token"], ["broken.toml", ""], ["broken.json", ""], ["broken2.json", ""]] as const;
    for (const [file, key] of cases) {
      const { message } = configError(["--config", file]);
      expect(message).toContain(file);
      expect(message).toContain(key);
      expect(message).not.toContain("hunter2");
    }
  });

  it("the README's example file is a valid config", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const example = /<!-- example-config -->\s*```toml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example, "a ```toml block after <!-- example-config --> in the README").toBeDefined();
    files = { "neutral.toml": example! };
    const parsed = config(["--config", "neutral.toml"]);
    expect(parsed).not.toEqual(config([])); // it says something
  });
});

describe("the settings table", () => {
  const integers = everySetting().filter(({ setting }) => setting.range !== undefined);

  it.each(integers.map(({ setting }) => [setting.flag, setting] as const))("--%s: accepted at each end of its range, refused just past it", (flag, setting) => {
    const { min, max } = setting.range!;
    expect(setting.parse([String(min)], `--${flag}`)).toBe(min);
    expect(setting.parse([String(max)], `--${flag}`)).toBe(max);
    expect(() => setting.parse([String(max + 1)], `--${flag}`)).toThrow(new RegExp(`--${flag} must be an integer in ${min}\\.\\.${max}`));
    if (min > 0) expect(() => setting.parse([String(min - 1)], `--${flag}`)).toThrow(ConfigError);
    expect(() => setting.parse(["-1"], `--${flag}`)).toThrow(ConfigError);
  });

  it("every default parses as its setting's own value", () => {
    for (const { setting } of everySetting()) {
      if (setting.default !== undefined) expect(() => setting.parse([setting.default!], `--${setting.flag}`), setting.flag).not.toThrow();
    }
  });

  it("is the README's table of settings, row for row (regenerate it: pnpm --filter @neutral/relay settings:readme)", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const table = /<!-- settings:start -->\n([\s\S]*?)\n<!-- settings:end -->/.exec(readme)?.[1];
    expect(table).toBe(settingsTable());
  });

  describe("the sample config file (deploy/neutral.toml)", () => {
    it("folds a setting's help so that no line of it reads as a setting commented out (`# word = …`)", () => {
      // Folded at 20, "0 = off" would begin the second line.
      expect(commentLines("kept per account; 0 = off. More.", 20)).toEqual(["# kept per", "# account; 0 = off.", "# More."]);
      for (const width of [10, 14, 17, 20, 24, 30]) {
        const lines = commentLines("MiB kept (~4 KB a page of 20); 0 = off. Variable: X.", width);
        expect(lines.slice(1).filter((line) => /^# \S+ = /.test(line)), String(width)).toEqual([]);
        expect(lines.map((line) => line.slice(2)).join(" ")).toBe("MiB kept (~4 KB a page of 20); 0 = off. Variable: X.");
      }
    });

    const sample = readFileSync(new URL("../../../deploy/neutral.toml", import.meta.url), "utf8");
    const read = (text: string) => parseConfig(["--config", "neutral.toml"], {}, { readFile: () => text });

    it("is the settings table's, every setting once (regenerate it: pnpm --filter @neutral/relay settings:readme)", () => {
      expect(sample).toBe(sampleConfigFile());
      const keys = [...sample.matchAll(/^# ([a-z0-9-]+) = /gm)].map((match) => match[1]);
      expect(keys).toEqual(everySetting().map(({ setting }) => setting.flag));
    });

    it("is the defaults as it is, and still the defaults with every setting that has one uncommented", () => {
      const defaults = parseConfig([], {});
      expect(read(sample)).toEqual(defaults);
      const uncommented = sample.replace(/^# ([a-z0-9-]+ = (?!…).*)$/gm, "$1");
      expect(uncommented.match(/^[a-z0-9-]+ = /gm)!.length).toBe(everySetting().filter(({ setting }) => setting.default !== undefined).length);
      expect(read(uncommented)).toEqual(defaults);
    });
  });
});
