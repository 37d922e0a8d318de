import { describe, expect, it } from "vitest";
import { createReadiness } from "./readiness.js";

describe("createReadiness", () => {
  it("is ready when the schema is current", async () => {
    expect(await createReadiness({ migrated: async () => true }).check()).toEqual({ ready: true });
  });

  it("is not ready with migrations pending, an unreachable database (without its error's words) or one too slow", async () => {
    expect(await createReadiness({ migrated: async () => false }).check()).toEqual({ ready: false, reason: "database migrations are pending" });
    const unreachable = await createReadiness({ migrated: () => Promise.reject(new Error("connect ECONNREFUSED db.internal:5432 user=admin")) }).check();
    expect(unreachable).toEqual({ ready: false, reason: "the database is unreachable" });
    const slow = await createReadiness({ migrated: () => new Promise<boolean>(() => {}) }, { timeoutMs: 20 }).check();
    expect(slow).toEqual({ ready: false, reason: "the database did not answer within 20 ms" });
  });

  it("asks the database once per cacheMs, and says stopping once the node stops", async () => {
    let asked = 0;
    const readiness = createReadiness({ migrated: async () => (asked++, true) }, { cacheMs: 60_000 });
    await Promise.all([readiness.check(), readiness.check()]);
    await readiness.check();
    expect(asked).toBe(1);
    readiness.stopping();
    expect(await readiness.check()).toEqual({ ready: false, reason: "the node is stopping" });
  });
});
