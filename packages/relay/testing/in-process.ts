// `startNode`: a whole node in this process (createNode, the one composition root), listening on
// loopback over a real SQLite file, for protocol tests: no process to spawn (`startRelay` costs
// 1–4 s a relay on a loaded 2-core machine), the same HTTP. Only process behaviour (signals,
// kill -9, workers, the command line) needs `startRelay`.
import { rmSync } from "node:fs";
import type { RelayNode } from "@neutral/relay";
import { tempDir } from "./temp.js";

export interface InProcessNode {
  /** Base URL, e.g. `http://127.0.0.1:40123`: POST JSON-RPC here. */
  url: string;
  /** host:port, the default SIWE domain (unless `--domain` was given). */
  domain: string;
  /** The node's address (the key that signs receipts). */
  address: string;
  /** The data dir (database and node key). */
  dataDir: string;
  /** Every log line so far, as the relay's JSON lines parsed. */
  logs: Record<string, unknown>[];
  node: RelayNode;
  /** Stops it (in-flight requests finish) and removes a data dir it created. */
  stop(): Promise<void>;
}

export interface InProcessOptions {
  /** Where the database and the node key live. Default: a new temp dir, removed again by `stop()`. Give one to restart a node on the same data. */
  dataDir?: string;
  /** Flags, after the defaults (`--host 127.0.0.1 --port 0 --workers 1 --rate-limit 0`), so they win. */
  args?: string[];
  /** The environment the settings are read from (default: none, so that the machine's NEUTRAL_* variables cannot leak in). */
  env?: Record<string, string>;
}

/** Nodes started here and not stopped yet (see `stopRunningNodes`). */
const running = new Set<InProcessNode>();

/** Stops every node this process started that is still running: call it in an `afterAll`. */
export async function stopRunningNodes(): Promise<void> {
  await Promise.all([...running].map((node) => node.stop()));
}

export async function startNode(options: InProcessOptions = {}): Promise<InProcessNode> {
  // Loaded at the first node: a test file that only spawns relays never loads the relay itself.
  const { createLogger, createNode, parseConfig } = await import("@neutral/relay");
  const dataDir = options.dataDir ?? tempDir();
  const created = options.dataDir === undefined;
  const parsed = parseConfig(["--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--workers", "1", "--rate-limit", "0", ...(options.args ?? [])], options.env ?? {});
  if (parsed.help) throw new Error("startNode: --help is not a node");
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger(parsed.config.logLevel, {}, { write: (line) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  let node: RelayNode;
  let url: string;
  try {
    node = await createNode(parsed.config, { logger });
    url = await node.listen(); // closes the storage if it fails
  } catch (error) {
    if (created) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | undefined;
  const started: InProcessNode = {
    url,
    domain: new URL(url).host,
    address: node.nodeKey.address,
    dataDir,
    logs,
    node,
    stop() {
      stopped ??= (async () => {
        running.delete(started);
        await node.close(2_000);
        if (created) rmSync(dataDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
  running.add(started);
  return started;
}
