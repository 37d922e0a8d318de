// A node that lies about what it serves (the verifiable mailbox's tests): a real node behind a
// proxy that rewrites its answers, each lie named by the position it concerns, and, for what a
// proxy cannot do, the same node (its key) on a backup of its data: a rollback, and another history
// grown from there. Clients talk to the proxy (`url`); the node takes tokens for the proxy's host.
// A log page it rewrites it signs again with the node's key (`LogPage.signature`): the liar is the
// node, and what it says is its word.
// Answers are read whole before they are rewritten: live streams (`subscribe`) are not for it.
import { cpSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { logEntryHash, logPositionStatement, logStatementDigest, mailboxHeadDigest, type LogRemovalFields, type MailboxRole } from "@neutral/protocol";
import { signDigest } from "@neutral/protocol/testing";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startNode, type InProcessNode } from "./in-process.js";
import { tempDir } from "./temp.js";

/**
 * What the node says about the position `seq` of the log of whoever asks:
 * - `drop`: its message is left out of reads and proofs, and out of the log (no message, no reason);
 * - `unsigned-deletion`: left out the same way, and the log says the account deleted it, with a
 *   request the account never signed;
 * - `swap`: the log serves positions `seq` and `with` in each other's place;
 * - `alter-body`: its message is served with another ciphertext (reads and the log);
 * - `alter-receipt`: its message is served with another receipt in place of the receiver's;
 * - `retention`: left out the same way, and the log says the node's retention removed it, stating
 *   `retentionSeconds` (default 90 days), however recent the position.
 */
export type MailboxLie =
  | { kind: "drop"; seq: number }
  | { kind: "unsigned-deletion"; seq: number }
  | { kind: "retention"; seq: number; retentionSeconds?: number }
  | { kind: "swap"; seq: number; with: number }
  | { kind: "alter-body"; seq: number }
  | { kind: "alter-receipt"; seq: number };

export interface LyingNode {
  /** Where clients talk to the node: the proxy. The node takes tokens for its host. */
  readonly url: string;
  /** The node's address: its key signs every head, on every copy of its data. */
  readonly address: string;
  /** The real node behind the proxy now. */
  readonly node: InProcessNode;
  /** What the node says from now on; undefined: the truth. */
  lie(lie: MailboxLie | undefined): void;
  /** A copy of the node's data as it is now (the node stops and starts again around it): a backup. */
  backup(): Promise<string>;
  /** The node serves from a backup from now on, with the same key: what it signed since is gone. */
  restore(backup: string): Promise<void>;
  /** Stops the node and the proxy; removes every copy of the data. */
  stop(): Promise<void>;
}

export interface LyingNodeOptions {
  /** The node's flags besides its data dir and domain (e.g. `["--retention", "0"]`). */
  args?: string[];
}

interface WireMessage {
  id: string;
  message: string;
  sender_receipt: string;
  receiver_receipt?: string;
  [key: string]: unknown;
}
interface WirePosition {
  seq: number;
  id: string;
  leafHash: string;
  message?: WireMessage;
  removed?: unknown;
  [key: string]: unknown;
}

/** A real node (in this process) behind a proxy that tells the lies it is given. */
export async function startLyingNode(options: LyingNodeOptions = {}): Promise<LyingNode> {
  const dirs: string[] = [tempDir()];
  let current: InProcessNode | undefined;
  let told: MailboxLie | undefined;
  let domain = "";
  /** The node's key, read from its data once: every copy of the data (a backup) has the same. */
  let nodeKey: `0x${string}` | undefined;
  const start = async (dataDir: string) => {
    current = await startNode({ dataDir, args: ["--domain", domain, ...(options.args ?? [])] });
  };

  /** The id of the asker's position `seq`, asked of the node itself. */
  async function idAt(seq: number, authorization: string | undefined): Promise<string | undefined> {
    const answer = await forward("POST", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_getLog", params: { from: seq, limit: 1 } }), authorization);
    const page = (JSON.parse(answer.text) as { result?: [{ entries: WirePosition[] }] }).result?.[0];
    return page?.entries[0]?.seq === seq ? page.entries[0].id : undefined;
  }

  async function forward(method: string, body: string, authorization: string | undefined, url = "/"): Promise<{ status: number; type: string; text: string }> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (authorization) headers.authorization = authorization;
    const upstream = await fetch(new URL(url, current!.url), { method, headers, ...(method === "POST" && { body }) });
    return { status: upstream.status, type: upstream.headers.get("content-type") ?? "application/json", text: await upstream.text() };
  }

  /** A message as the lie serves it (or as it is). */
  function altered(message: WireMessage): WireMessage {
    if (told?.kind === "alter-body") {
      const body = message.message;
      return { ...message, message: `${body.slice(0, -1)}${body.endsWith("0") ? "1" : "0"}` };
    }
    if (told?.kind === "alter-receipt") return { ...message, receiver_receipt: message.sender_receipt };
    return message;
  }

  /**
   * The node's signature (its own key: the node is the liar) of what a log page from `from` says,
   * rewritten (openrpc.json `LogPage.signature`).
   */
  function signPage(page: { head: { account: string; size: number; root: string; timestamp: number }; timestamp: number }, from: number, entries: readonly WirePosition[], messages: boolean): string {
    nodeKey ??= readFileSync(path.join(current!.dataDir, "node.key"), "utf8").trim() as `0x${string}`;
    const { account, size, root, timestamp } = page.head;
    const headDigest = mailboxHeadDigest({ account: account as `0x${string}`, size, root: root as `0x${string}`, timestamp });
    const statements = entries.map((entry) => logEntryHash(logPositionStatement(entry as WirePosition & { role: MailboxRole; removed?: LogRemovalFields }, messages)));
    return signDigest(logStatementDigest(headDigest, from, statements, page.timestamp), nodeKey);
  }

  /** `result` of `method` (asked with `params`) as the lie tells it, for the position of message `id` (undefined: none of the asker's). */
  function rewrite(method: string, result: unknown, id: string | undefined, params: unknown): unknown {
    if (told === undefined) return result;
    const lie = told;
    const hidden = lie.kind === "drop" || lie.kind === "unsigned-deletion" || lie.kind === "retention";
    if (method === "neutralService_getLog") {
      const [page] = result as [{ entries: WirePosition[]; head: { account: string; size: number; root: string; timestamp: number }; timestamp: number }];
      const entries = page.entries.map((entry): WirePosition => {
        if (entry.seq !== lie.seq) return entry;
        if (hidden) {
          const { message: _message, removed: _removed, ...rest } = entry;
          if (lie.kind === "drop") return rest;
          if (lie.kind === "retention") return { ...rest, removed: { reason: "retention", retentionSeconds: lie.retentionSeconds ?? 7_776_000 } };
          const request = { account: page.head.account, ids: [entry.id], leaves: [entry.leafHash], timestamp: Date.now(), signature: `0x${"1b".repeat(65)}` };
          return { ...rest, removed: { reason: "deleted", request } };
        }
        return entry.message === undefined ? entry : { ...entry, message: altered(entry.message) };
      });
      if (lie.kind === "swap") {
        const [a, b] = [entries.findIndex((entry) => entry.seq === lie.seq), entries.findIndex((entry) => entry.seq === lie.with)];
        if (a >= 0 && b >= 0) [entries[a], entries[b]] = [entries[b]!, entries[a]!];
      }
      // getLog's params by name or by position: from (default 1), limit, messages.
      const named = (Array.isArray(params) ? { from: params[0], messages: params[2] } : (params ?? {})) as { from?: number; messages?: boolean };
      return [{ ...page, entries, signature: signPage(page, named.from ?? 1, entries, named.messages === true) }];
    }
    if (id === undefined) return result;
    if (method === "neutralService_getInbox" || method === "neutralService_getChat") {
      const [page] = result as [{ data: WireMessage[]; proof?: { positions: { id: string }[] } }];
      const data = hidden ? page.data.filter((message) => message.id !== id) : page.data.map((message) => (message.id === id ? altered(message) : message));
      const proof = page.proof && hidden ? { ...page.proof, positions: page.proof.positions.filter((position) => position.id !== id) } : page.proof;
      return [{ ...page, data, ...(proof && { proof }) }];
    }
    if (method === "neutralService_getProof" && hidden) {
      const [proof] = result as [{ positions: { id: string }[] }];
      return [{ ...proof, positions: proof.positions.filter((position) => position.id !== id) }];
    }
    return result;
  }

  const server: Server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString("utf8");
      const authorization = request.headers.authorization;
      const upstream = await forward(request.method ?? "GET", body, authorization, request.url ?? "/");
      let text = upstream.text;
      if (told !== undefined && request.method === "POST" && upstream.type.startsWith("application/json") && text !== "") {
        const call = JSON.parse(body) as { method?: unknown; params?: unknown };
        const answer = JSON.parse(text) as { result?: unknown };
        if (!Array.isArray(answer) && "result" in answer && typeof call.method === "string") {
          const id = told.kind === "swap" ? undefined : await idAt(told.seq, authorization);
          answer.result = rewrite(call.method, answer.result, id, call.params);
          text = JSON.stringify(answer);
        }
      }
      response.writeHead(upstream.status, { "content-type": upstream.type }).end(text);
    })().catch((error: Error) => response.writeHead(502).end(error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  domain = new URL(url).host;
  try {
    await start(dirs[0]!);
  } catch (error) {
    server.close();
    rmSync(dirs[0]!, { recursive: true, force: true });
    throw error;
  }
  const address = current!.address;

  return {
    url,
    address,
    get node() {
      return current!;
    },
    lie(lie) {
      told = lie;
    },
    async backup() {
      const dataDir = current!.dataDir;
      await current!.stop();
      const copy = tempDir();
      dirs.push(copy);
      cpSync(dataDir, copy, { recursive: true });
      await start(dataDir);
      return copy;
    },
    async restore(backup) {
      await current!.stop();
      await start(backup);
    },
    async stop() {
      await current?.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
