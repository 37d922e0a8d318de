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
      // Ids made of a pid and a count would all start with their process's pid (base 36). A random
      // id starts with a given 2 characters once in 4,096 ids, with a longer pid less often (Linux
      // hands out pids of 300 and up after wrapping: 2 or more characters), so at most 2 of 20 may.
      for (const pid of pids) expect(ids.filter((id) => id.startsWith(pid)).length).toBeLessThanOrEqual(2);
      for (let i = 0; i < 50 && relay.logs.filter((log) => log.msg === "rpc").length < ids.length; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(new Set(relay.logs.filter((log) => log.msg === "rpc").map((log) => log.reqId))).toEqual(new Set(ids));
    } finally {
      await relay.stop();
    }
  });
});
