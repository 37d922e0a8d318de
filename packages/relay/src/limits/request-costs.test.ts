import type { Dispatcher, DispatchResult, JsonRpcResponse } from "@neutral/server";
import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../http/rate-limit.js";
import type { RelayContext } from "../service.js";
import { chargeEntries, entryCost, withClient } from "./request-costs.js";

/** A dispatcher that answers every entry with an id `"ran"`, and remembers which entries it ran. */
function fakeDispatcher() {
  const ran: unknown[] = [];
  const answer = (entry: unknown): JsonRpcResponse | undefined => {
    ran.push(entry);
    const { id } = entry as { id?: number };
    return id === undefined ? undefined : { jsonrpc: "2.0", id, result: "ran" };
  };
  const dispatcher: Dispatcher<RelayContext> = {
    async dispatch(body): Promise<DispatchResult> {
      if (!Array.isArray(body)) return answer(body);
      if (body.length === 0 || body.length > 100) return { jsonrpc: "2.0", id: null, error: { code: -32005, message: "batch" } };
      const responses = body.map(answer).filter((response): response is JsonRpcResponse => response !== undefined);
      return responses.length > 0 ? responses : undefined;
    },
    async dispatchText(text, context) {
      return this.dispatch(JSON.parse(text), context);
    },
    needsAuth: () => false,
  };
  return { dispatcher, ran };
}

/** A limiter on a frozen clock: only what the test spends moves it. */
function setup(perSecond = 10, burst = 20) {
  const limiter = createRateLimiter({ perSecond, burst, now: () => 0 });
  const fake = fakeDispatcher();
  const charged = chargeEntries(fake.dispatcher, limiter, 100);
  // What relay.ts does: one unit for the HTTP request before its body is read.
  const request = async (body: unknown) => {
    if (!limiter.take("ip").ok) return "429";
    return charged.dispatch(body, withClient({}, "ip"));
  };
  return { limiter, request, ran: fake.ran };
}

const entry = (id: number | undefined, method = "neutralService_getKey") => ({ jsonrpc: "2.0", ...(id !== undefined && { id }), method, params: [] });

describe("entryCost", () => {
  it("is 1 per entry, 2 for the methods that recover a signature", () => {
    expect(entryCost(entry(1))).toBe(1);
    expect(entryCost(entry(1, "neutralService_getInbox"))).toBe(1);
    expect(entryCost(entry(1, "neutralService_sendMessage"))).toBe(2);
    expect(entryCost(entry(1, "neutralService_publishKey"))).toBe(2);
    expect(entryCost("junk")).toBe(1);
    expect(entryCost(null)).toBe(1);
  });
});

describe("chargeEntries", () => {
  it("runs the entries of a batch while the client's bucket pays for them, answers -32029 for the rest in order", async () => {
    const { request, ran, limiter } = setup();
    const batch = Array.from({ length: 30 }, (_, i) => entry(i));
    const answers = (await request(batch)) as JsonRpcResponse[];
    expect(ran).toHaveLength(20); // the request's unit paid the first entry
    expect(answers).toHaveLength(30);
    expect(answers.slice(0, 20).every((answer) => "result" in answer)).toBe(true);
    expect(answers.slice(20)).toEqual(
      Array.from({ length: 10 }, (_, i) => ({ jsonrpc: "2.0", id: 20 + i, error: expect.objectContaining({ code: -32029, data: { retryAfter: 1 } }) })),
    );
    expect(limiter.take("ip").ok).toBe(false); // nothing left
    expect(await request([entry(99)])).toBe("429"); // the next request is refused whole
  });

  it("charges a signature check as a second unit, stops at the first entry that does not fit", async () => {
    const { request, ran } = setup(10, 6);
    const batch = [entry(1, "neutralService_sendMessage"), entry(2, "neutralService_sendMessage"), entry(3, "neutralService_sendMessage"), entry(4)];
    const answers = (await request(batch)) as JsonRpcResponse[];
    // 6 units: the request 1 + the first send's second unit 1, then 2 + 2 for the next sends; 0 left for the getKey.
    expect(ran.map((e) => (e as { id: number }).id)).toEqual([1, 2, 3]);
    expect(answers.map((answer) => ("error" in answer ? answer.error.code : "ok"))).toEqual(["ok", "ok", "ok", -32029]);
  });

  it("always serves an admitted single request, even into one unit of debt", async () => {
    const { request, ran, limiter } = setup(10, 1);
    expect(await request(entry(1, "neutralService_sendMessage"))).toMatchObject({ id: 1, result: "ran" });
    expect(ran).toHaveLength(1);
    expect(limiter.take("ip")).toEqual({ ok: false, retryAfterSeconds: 1 }); // -1: two units short
  });

  it("answers nothing for a refused notification, and -32029 with a null id for a refused entry that is not a request", async () => {
    const { request } = setup(10, 2);
    const answers = await request([entry(1), entry(2), entry(undefined), "junk", { ...entry(3), id: { bad: true } }]);
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: 1, result: "ran" },
      { jsonrpc: "2.0", id: 2, result: "ran" },
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32029 }) }),
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32029 }) }),
    ]);
  });

  it("leaves a batch the dispatcher refuses whole (empty, too long) to it, for the request's one unit", async () => {
    const { request, ran, limiter } = setup(10, 20);
    expect(await request([])).toMatchObject({ error: { code: -32005 } });
    expect(await request(Array.from({ length: 101 }, (_, i) => entry(i)))).toMatchObject({ error: { code: -32005 } });
    expect(ran).toHaveLength(0);
    let left = 0;
    while (limiter.take("ip").ok) left++;
    expect(left).toBe(18);
  });

  it("passes a context without a client through uncharged", async () => {
    const limiter = createRateLimiter({ perSecond: 1, burst: 1, now: () => 0 });
    const fake = fakeDispatcher();
    const answers = await chargeEntries(fake.dispatcher, limiter, 100).dispatch(
      Array.from({ length: 5 }, (_, i) => entry(i)),
      {},
    );
    expect(answers).toHaveLength(5);
    expect(limiter.take("ip").ok).toBe(true);
  });
});
