// Property tests: whatever arrives, the dispatcher answers well-formed JSON-RPC and never throws.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDispatcher } from "./dispatcher.js";
import { service, methodDescriptors } from "./neutral-service.js";
import { alice, createTestHandlers, type TestContext } from "../test/handlers.js";

const { handlers } = createTestHandlers();
let internalErrors = 0;
const dispatcher = createDispatcher<TestContext>({ service, handlers, onInternalError: () => void internalErrors++ });
const methodNames = [...Object.keys(methodDescriptors), "rpc.discover", "nope", "__proto__", "constructor"];

function assertWellFormed(response: unknown): void {
  const entries = Array.isArray(response) ? response : [response];
  for (const entry of entries) {
    expect(entry).toHaveProperty("jsonrpc", "2.0");
    expect(entry).toHaveProperty("id");
    const e = entry as { result?: unknown; error?: { code: unknown; message: unknown } };
    expect("result" in e !== "error" in e).toBe(true);
    if (e.error) {
      expect(Number.isInteger(e.error.code)).toBe(true);
      expect(typeof e.error.message).toBe("string");
      expect(JSON.stringify(e.error)).not.toMatch(/\n\s+at |node_modules|\.ts:\d/);
    }
  }
  expect(() => JSON.stringify(response)).not.toThrow();
}

const hostile = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, 1e308, -0, "0x", "0xZZ", "9".repeat(400), "\u0000", "__proto__"),
  fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEFx"), maxLength: 200 }),
  fc.letrec((tie) => ({ deep: fc.oneof({ depthSize: "small" }, fc.constant(0), fc.array(tie("deep"), { maxLength: 2 })) })).deep,
);

const params = fc.oneof(
  fc.constant(undefined),
  fc.array(hostile, { maxLength: 6 }),
  fc.dictionary(fc.constantFrom("inboxFilter", "limit", "after", "before", "message", "from", "x"), hostile),
  fc.record({ inboxFilter: fc.dictionary(fc.constantFrom("from", "direction", "since", "until", "chat", "form"), hostile) }),
  hostile,
);

const request = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), hostile),
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), hostile),
    method: fc.oneof(fc.constantFrom(...methodNames), hostile),
    params,
  },
  { requiredKeys: [] },
);

const context = fc.constantFrom<TestContext>({}, { auth: { address: alice } });

describe("dispatcher under hostile input", () => {
  it("answers every request well-formed", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(request, fc.array(request, { maxLength: 5 }), hostile), context, async (body, ctx) => {
        const response = await dispatcher.dispatch(body, ctx);
        if (response !== undefined) assertWellFormed(response);
      }),
      { numRuns: 3000 },
    );
    expect(internalErrors).toBe(0);
  });

  it("answers any text well-formed", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json()), context, async (text, ctx) => {
        const response = await dispatcher.dispatchText(text, ctx);
        if (response !== undefined) assertWellFormed(response);
      }),
      { numRuns: 2000 },
    );
  });

  it("survives nesting far deeper than any schema", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    assertWellFormed(await dispatcher.dispatchText(deep, {}));
    let nested: unknown = {};
    for (let i = 0; i < 10_000; i++) nested = { from: nested };
    assertWellFormed(await dispatcher.dispatch({ jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [nested] }, { auth: { address: alice } }));
  });
});
