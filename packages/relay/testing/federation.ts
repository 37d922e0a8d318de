// `startFederation`: real relays on loopback that are peers of each other, for tests of apps and
// of the project's own packages. Each node has a fixed port, key and data dir, so it can be stopped,
// crashed and started again as the same peer; every node lists every other one, pinned to its
// address (`--peer URL#0xADDRESS`) unless told otherwise.
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { startRelay, tempDir, type RunningRelay, type StartOptions } from "./index.js";
import { startNode } from "./in-process.js";

/** Free loopback ports, all asked at once (so they differ), released before they are used. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.once("error", reject);
          server.listen(0, "127.0.0.1", () => {
            const address = server.address();
            resolve(typeof address === "object" && address ? address.port : 0);
          });
        }),
    ),
  );
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  return ports;
}

/** The lowercase address of a node key. */
export function nodeAddressOf(key: `0x${string}`): string {
  const publicKey = secp256k1.getPublicKey(Buffer.from(key.slice(2), "hex"), false);
  return `0x${Buffer.from(keccak_256(publicKey.subarray(1))).subarray(12).toString("hex")}`;
}

export interface FederatedNode {
  /** "A", "B", "C", … in the order of the keys. */
  readonly name: string;
  /** The key it starts with; a test may change it before `start()` to play a peer whose key changed. */
  key: `0x${string}`;
  /** Lowercase address of the key it was listed with (what its peers pinned). */
  readonly address: string;
  readonly port: number;
  readonly url: string;
  /** host:port: the SIWE domain its tokens name. */
  readonly domain: string;
  readonly dataDir: string;
  /** The running relay (a process, or a node in this process with `inProcess`); undefined while stopped. */
  relay: FederatedRelay | undefined;
  /** Starts (or starts again) the relay on the same port, key and data dir. */
  start(): Promise<FederatedRelay>;
  /** SIGTERM, and waits for it to exit (in process: closes it, in-flight requests finished). */
  stop(): Promise<void>;
  /** SIGKILL to its whole process group; refused for a node in this process (start it as a process). */
  crash(): Promise<void>;
}

/** What a test sees of a federated node's relay, whichever way it runs. */
export type FederatedRelay = Pick<RunningRelay, "url" | "domain" | "address" | "dataDir" | "logs">;

export interface Federation {
  nodes: FederatedNode[];
  /** Stops every node and removes the data dirs. */
  close(): Promise<void>;
}

export interface FederationOptions {
  /** One node per key (public test keys, e.g. `TEST_KEYS.node`, `TEST_KEYS.peer`). */
  keys: readonly `0x${string}`[];
  /** Flags every node gets, after the federation's own (`--port`, `--node-key`, `--peer`). */
  args?: readonly string[];
  /** Flags of node `index` only, after those. */
  argsOf?: (index: number) => readonly string[];
  /** The URL node `from` lists for peer `to`, e.g. a proxy in front of it; undefined: the peer's own. */
  peerUrl?: (from: number, to: number) => string | undefined;
  /** Whether node `from` lists peer `to` pinned to its address (default: yes). */
  pinned?: (from: number, to: number) => boolean;
  env?: StartOptions["env"];
  workers?: number;
  /**
   * Each node built in this process (`startNode`: real HTTP on loopback, a real SQLite file) rather
   * than spawned: no process start-up, but no `crash()` and no `workers` either. Default false.
   */
  inProcess?: boolean;
  /** Start every node now (default true); false leaves them to `node.start()`. */
  start?: boolean;
  /** The ports to try first, one per key (default: free ones); taken, the federation moves to free ones. */
  ports?: readonly number[];
}

/** Starts on a port another process took between `freePorts` and the node's listen: worth new ports. */
const PORT_TAKEN = /EADDRINUSE|is in use/;
/** Federations built on fresh ports at most, when a port was taken before a node listened on it. */
const PORT_ATTEMPTS = 3;

export async function startFederation(options: FederationOptions): Promise<Federation> {
  if (options.inProcess && options.workers !== undefined && options.workers !== 1) throw new Error("startFederation: nodes in this process have no workers");
  // Every node lists the others' ports before any listens, so a port can be taken meanwhile (by a
  // listener elsewhere, or as the local port of an outgoing connection: both come from the ephemeral
  // range). Then the whole federation is built again on new ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await buildFederation(options, attempt === 1 ? options.ports : undefined);
    } catch (error) {
      if (attempt === PORT_ATTEMPTS || !PORT_TAKEN.test(error instanceof Error ? error.message : String(error))) throw error;
    }
  }
}

async function buildFederation(options: FederationOptions, given: readonly number[] | undefined): Promise<Federation> {
  const ports = given ?? (await freePorts(options.keys.length));
  const addresses = options.keys.map((key) => nodeAddressOf(key));
  const nodes = options.keys.map((initialKey, i): FederatedNode => {
    const dataDir = tempDir(`neutral-federation-${i}-`);
    let stopRelay: () => Promise<void> = async () => {};
    let crashRelay: () => Promise<void> = async () => {};
    const peers = ports.flatMap((port, j) => {
      if (j === i) return [];
      const url = options.peerUrl?.(i, j) ?? `http://127.0.0.1:${port}`;
      return ["--peer", options.pinned?.(i, j) === false ? url : `${url}#${addresses[j]}`];
    });
    const node: FederatedNode = {
      name: String.fromCharCode(65 + i),
      key: initialKey,
      address: addresses[i]!,
      port: ports[i]!,
      url: `http://127.0.0.1:${ports[i]}`,
      domain: `127.0.0.1:${ports[i]}`,
      dataDir,
      relay: undefined,
      async start() {
        if (node.relay) return node.relay;
        const args = ["--port", String(node.port), "--node-key", node.key, ...peers, ...(options.args ?? []), ...(options.argsOf?.(i) ?? [])];
        if (options.inProcess) {
          const started = await startNode({ dataDir, args, ...(options.env && { env: options.env }) });
          stopRelay = () => started.stop();
          node.relay = started;
        } else {
          const started = await startRelay({ dataDir, args, ...(options.env && { env: options.env }), ...(options.workers !== undefined && { workers: options.workers }) });
          stopRelay = () => started.stop().then(() => undefined);
          crashRelay = () => started.crash();
          node.relay = started;
        }
        return node.relay;
      },
      async stop() {
        const stopping = node.relay && stopRelay;
        node.relay = undefined;
        await stopping?.();
      },
      async crash() {
        if (options.inProcess) throw new Error("crash(): a node in this process cannot be killed; start the federation without inProcess");
        const crashing = node.relay && crashRelay;
        node.relay = undefined;
        await crashing?.();
      },
    };
    return node;
  });
  const close = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    for (const node of nodes) rmSync(node.dataDir, { recursive: true, force: true });
  };
  if (options.start !== false) {
    try {
      await Promise.all(nodes.map((node) => node.start()));
    } catch (error) {
      await close();
      throw error;
    }
  }
  return { nodes, close };
}
