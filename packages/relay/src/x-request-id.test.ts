// `x-request-id` names a request and nothing else (issue 19, finding 11): not the worker's pid,
// nor how many requests it served.
import { describe, expect, it } from "vitest";
import { childPids } from "../test/clients.js";
import { post, startRelay } from "../testing/index.js";

describe("x-request-id", () => {
  it("is opaque: random, unique, the same in the access log, and free of pids and counts", { timeout: 60_000 }, async () => {
    const relay = await startRelay({ workers: 2 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const answer = await post(relay.url, { jsonrpc: "2.0", id: i, method: "neutralService_nodeInfo", params: [] }, undefined, { connection: "close" });
        ids.push(answer.headers.get("x-request-id") ?? "");
      }
      for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(new Set(ids).size).toBe(ids.length);
      const pids = [relay.process.pid!, ...(await childPids(relay.process.pid!))].map((pid) => pid.toString(36));
      for (const id of ids) for (const pid of pids) expect(id.startsWith(pid)).toBe(false);
      for (let i = 0; i < 50 && relay.logs.filter((log) => log.msg === "rpc").length < ids.length; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(new Set(relay.logs.filter((log) => log.msg === "rpc").map((log) => log.reqId))).toEqual(new Set(ids));
    } finally {
      await relay.stop();
    }
  });
});
