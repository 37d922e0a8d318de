import { createDispatcher, type JsonRpcResponse } from "@neutral/server";
import { methodDescriptors, service, type Handlers } from "@neutral/server/neutral-service";
import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../http/rate-limit.js";
import type { RelayContext } from "../rpc/index.js";
import { chargeEntry, entryCost, peerEntryCost } from "./request-costs.js";

/** Handlers that answer every call "ran" (the charge comes first; the dispatcher checks params after it). */
const METHODS = Object.keys(methodDescriptors);
const handlers = Object.fromEntries(METHODS.map((method) => [method, () => "ran"])) as unknown as Handlers<RelayContext>;

/** A limiter on a frozen clock (only what the test spends moves it), and a dispatcher charging it per entry. */
function setup(perSecond = 10, burst = 20) {
  const limiter = createRateLimiter({ perSecond, burst, now: () => 0 });
  // The entries that got past the charge: the hook after it sees only those.
  const ran: unknown[] = [];
  const dispatcher = createDispatcher<RelayContext>({
    service,
    handlers,
    onEntry: [chargeEntry(limiter), (entry) => void ran.push(entry.raw)],
    // "ran" is no method's result: only the charges are under test.
    validateResults: false,
  });
  // What the HTTP stub's onRequest hook (admitRequest) does: one unit for the request before its body is read, the client in the context.
  const request = async (body: unknown) => {
    if (!limiter.take("ip").ok) return "429";
    return dispatcher.dispatch(body, { client: "ip" });
  };
  return { limiter, request, ran, dispatcher };
}

const outcome = (answer: JsonRpcResponse) => ("error" in answer && answer.error.code === -32029 ? -32029 : "ok");

const entry = (id: number | undefined, method = "neutralService_nodeInfo") => ({ jsonrpc: "2.0", ...(id !== undefined && { id }), method, params: [] });

describe("entryCost", () => {
  it("is 1 per entry, 2 for the methods that recover a signature", () => {
    expect(entryCost(entry(1))).toBe(1);
    expect(entryCost(entry(1, "neutralService_getInbox"))).toBe(1);
    expect(entryCost(entry(1, "neutralService_sendMessage"))).toBe(2);
    expect(entryCost(entry(1, "neutralService_publishKey"))).toBe(2);
    expect(entryCost(entry(1, "neutralService_publishHome"))).toBe(2);
    expect(entryCost(entry(1, "neutralService_deliver"))).toBe(1);
    expect(entryCost("junk")).toBe(1);
    expect(entryCost(null)).toBe(1);
  });

  it("is 2 for a read of the mailbox log (a head may be signed), getProof 1 more per 10 ids it proves, counting at most 100, getLog with messages 1 more per 100 positions asked for, counting at most 1,000", () => {
    const proving = (params: unknown) => ({ jsonrpc: "2.0", id: 1, method: "neutralService_getProof", params });
    expect(entryCost(proving([]))).toBe(2);
    expect(entryCost(proving([["1"]]))).toBe(3);
    expect(entryCost(proving({ ids: Array.from({ length: 100 }, () => "1") }))).toBe(12);
    expect(entryCost(proving({ ids: Array.from({ length: 1000 }, () => "1") }))).toBe(12);
    expect(entryCost(entry(1, "neutralService_getLog"))).toBe(2);
    const logging = (params: unknown) => ({ jsonrpc: "2.0", id: 1, method: "neutralService_getLog", params });
    expect(entryCost(logging({ limit: 1000 }))).toBe(2);
    expect(entryCost(logging({ messages: true }))).toBe(3);
    expect(entryCost(logging({ limit: 500, messages: true }))).toBe(7);
    expect(entryCost(logging([1, 1000, true]))).toBe(12);
    expect(entryCost(logging([1, 5000, true]))).toBe(12);
    expect(entryCost(logging([1, 101, true]))).toBe(4);
    expect(entryCost(logging({ limit: "x", messages: "yes" }))).toBe(2);
  });

  it("is 1 + one per message for an import (by position or by name), counting at most the 100 it takes", () => {
    const importing = (params: unknown) => ({ jsonrpc: "2.0", id: 1, method: "neutralService_importMessages", params });
    expect(entryCost(importing([[{}, {}, {}]]))).toBe(4);
    expect(entryCost(importing({ messages: Array.from({ length: 100 }, () => ({})) }))).toBe(101);
    expect(entryCost(importing({ messages: Array.from({ length: 101 }, () => ({})) }))).toBe(101);
    expect(entryCost(importing([]))).toBe(1);
    expect(entryCost(importing({ messages: "junk" }))).toBe(1);
    expect(entryCost(importing(null))).toBe(1);
    // A former home's head: its signature is recovered too.
    expect(entryCost(importing([[{}, {}], { size: 1 }]))).toBe(4);
    expect(entryCost(importing({ messages: [{}], head: { size: 1 } }))).toBe(3);
  });

  it("is 2 + one per ten messages for a proof of delivery, as for getProof", () => {
    const proving = (params: unknown) => ({ jsonrpc: "2.0", id: 1, method: "neutralService_proveDelivery", params });
    expect(entryCost(proving([["1"]]))).toBe(3);
    expect(entryCost(proving({ ids: Array.from({ length: 100 }, (_, i) => String(i)) }))).toBe(12);
    expect(entryCost(proving({ ids: Array.from({ length: 101 }, (_, i) => String(i)) }))).toBe(12);
  });

  it("costs a peer 1 + one per message for a proof of positions (a signature each), counting at most 100", () => {
    const asking = (messages: unknown[]) => ({ jsonrpc: "2.0", id: 1, method: "neutralService_provePositions", params: { messages } });
    expect(peerEntryCost(asking([{}, {}]))).toBe(3);
    expect(peerEntryCost(asking(Array.from({ length: 150 }, () => ({}))))).toBe(101);
  });

  it("is 2 for a deletion: the account's request is a signature", () => {
    expect(entryCost({ jsonrpc: "2.0", id: 1, method: "neutralService_deleteMessages", params: [{ ids: ["1"] }] })).toBe(2);
  });
});

describe("chargeEntry (the dispatcher's onEntry hook)", () => {
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
    // 6 units: the request 1 + the first send's second unit 1, then 2 + 2 for the next sends; 0 left for the nodeInfo.
    expect(ran.map((e) => (e as { id: number }).id)).toEqual([1, 2, 3]);
    expect(answers.map(outcome)).toEqual(["ok", "ok", "ok", -32029]);
  });

  it("always serves an admitted single request, even into one unit of debt", async () => {
    const { request, ran, limiter } = setup(10, 1);
    expect(outcome((await request(entry(1, "neutralService_sendMessage"))) as JsonRpcResponse)).toBe("ok");
    expect(ran).toHaveLength(1);
    expect(limiter.take("ip")).toEqual({ ok: false, retryAfterSeconds: 1 }); // -1: two units short
  });

  it("answers nothing for a refused notification; a refused entry that is not a request is answered as malformed", async () => {
    const { request } = setup(10, 2);
    const answers = await request([entry(1), entry(2), entry(undefined), "junk", { ...entry(3), id: { bad: true } }, entry(4)]);
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: 1, result: ["ran"] }, // nodeInfo's result is wrapped
      { jsonrpc: "2.0", id: 2, result: ["ran"] },
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: 4, error: expect.objectContaining({ code: -32029 }) }),
    ]);
  });

  it("leaves a batch the dispatcher refuses whole (empty, too long) to it, for the request's one unit", async () => {
    const { request, ran, limiter } = setup(10, 20);
    expect(await request([])).toMatchObject({ error: { code: -32600 } });
    expect(await request(Array.from({ length: 101 }, (_, i) => entry(i)))).toMatchObject({ error: { code: -32005 } });
    expect(ran).toHaveLength(0);
    let left = 0;
    while (limiter.take("ip").ok) left++;
    expect(left).toBe(18);
  });

  it("refusals end with their request: the next one, with the same or another context, starts afresh", async () => {
    const { limiter, dispatcher } = setup(10, 3);
    const context: RelayContext = { client: "ip" };
    limiter.take("ip");
    const first = (await dispatcher.dispatch([entry(1), entry(2), entry(3), entry(4)], context)) as JsonRpcResponse[];
    expect(first.map(outcome)).toEqual(["ok", "ok", "ok", -32029]);
    limiter.charge("ip", -2); // two units back
    limiter.take("ip");
    const again = (await dispatcher.dispatch([entry(1), entry(2)], context)) as JsonRpcResponse[];
    expect(again.map(outcome)).toEqual(["ok", "ok"]);
  });

  it("passes a context without a client through uncharged", async () => {
    const { limiter, dispatcher } = setup(1, 1);
    const answers = await dispatcher.dispatch(
      Array.from({ length: 5 }, (_, i) => entry(i)),
      {},
    );
    expect(answers).toHaveLength(5);
    expect(limiter.take("ip").ok).toBe(true);
  });
});
