// Property tests at the relay's edges: whatever a client sends, the dispatcher over the real
// handlers and SQLite store answers well-formed JSON-RPC 2.0 with a known error code (never an
// internal error, a stack or SQL), and the store keeps working; whatever Authorization header
// arrives, the authenticator answers a verified caller or RpcError -32001, nothing else.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDispatcher, RpcError, stringifyDispatchResult, type DispatchResult } from "@neutral/server";
import { service } from "@neutral/server/neutral-service";
import fc from "fast-check";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthenticator } from "./auth/authenticator.js";
import { loadSecp256k1 } from "./crypto/secp256k1.js";
import { loadNodeKey } from "./node-key.js";
import { createHandlers, type Limits, type RelayContext } from "./rpc/index.js";
import { openSqliteStore } from "./storage/sqlite.js";
import { TEST_KEYS, wallet, xOnlyKeyOf } from "../test/wallets.js";
import { SOFTWARE } from "./version.js";
import { DEFAULT_LIMITS } from "@neutral/protocol";

const curve = loadSecp256k1();
const NOW = Date.parse("2026-01-01T12:00:00.000Z");
const DOMAIN = "relay.example:8645";
const MAX_BATCH = 10;
const LIMITS: Limits = { ...DEFAULT_LIMITS, maxBatch: MAX_BATCH };
const KNOWN_CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32001, -32002, -32003, -32004, -32005, -32029]);
/** NEUTRAL_FUZZ_SCALE=10 runs every property ten times as long (for a soak; the default keeps CI fast). */
const SCALE = Number(process.env.NEUTRAL_FUZZ_SCALE ?? 1) || 1;
const runs = (n: number) => Math.round(n * SCALE);
const METHODS = [
  "neutralService_getInbox",
  "neutralService_getChat",
  "neutralService_sendMessage",
  "neutralService_publishKey",
  "neutralService_getKey",
  "neutralService_nodeInfo",
  "rpc.discover",
];

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);
const carol = wallet(TEST_KEYS.carol);

const root = mkdtempSync(path.join(os.tmpdir(), "neutral-fuzz-"));
mkdirSync(path.join(root, "node"));
const store = openSqliteStore({ file: path.join(root, "node", "neutral.sqlite"), synchronous: "normal" });
const internalErrors: unknown[] = [];
const dispatcher = createDispatcher<RelayContext>({
  service,
  handlers: createHandlers({
    store,
    curve,
    nodeKey: loadNodeKey(path.join(root, "node"), curve, TEST_KEYS.node).privateKey,
    limits: LIMITS,
    domains: () => [DOMAIN],
    software: SOFTWARE,
    delivery: { deliveryWaitMs: 2000, retryPeriodSeconds: 259_200 },
    publicUrl: () => `http://${DOMAIN}`,
    now: () => NOW,
  }),
  maxBatch: MAX_BATCH,
  onInternalError: (error) => internalErrors.push(error),
});
afterAll(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

// ---- what a well-formed answer is -------------------------------------------------------------

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown) => value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

/** The id the answer to `entry` must carry, or "none" for a notification (no answer). */
function expectedId(entry: unknown): unknown {
  if (!isObject(entry)) return null;
  if ("id" in entry) return isId(entry.id) ? entry.id : null;
  const wellFormed = entry.jsonrpc === "2.0" && typeof entry.method === "string" && (entry.params === undefined || (typeof entry.params === "object" && entry.params !== null));
  return wellFormed ? "none" : null;
}

function checkEntry(entry: unknown, response: unknown): void {
  if (!isObject(response)) throw new Error(`not an object: ${String(response)}`);
  const id = expectedId(entry);
  expect(response.jsonrpc).toBe("2.0");
  expect("id" in response).toBe(true);
  expect(response.id).toBe(JSON.parse(JSON.stringify(id)) as unknown); // as on the wire: an id of -0 is echoed as 0
  expect("result" in response !== "error" in response, "exactly one of result/error").toBe(true);
  expect(Object.keys(response).every((key) => ["jsonrpc", "id", "result", "error"].includes(key))).toBe(true);
  if ("error" in response) {
    const error = response.error as { code: unknown; message: unknown; data?: unknown };
    expect(Number.isInteger(error.code)).toBe(true);
    expect(KNOWN_CODES.has(error.code as number), `known code ${String(error.code)}`).toBe(true);
    expect(error.code, "a client mistake is never an internal error").not.toBe(-32603);
    expect(typeof error.message).toBe("string");
    const text = JSON.stringify(error);
    expect(text).not.toContain("    at ");
    expect(text).not.toMatch(/SQLITE|node_modules|\.ts:\d/i);
    if (!isObject(entry) || entry.jsonrpc !== "2.0" || typeof entry.method !== "string") expect(error.code).toBe(-32600);
  } else if (isObject(entry) && typeof entry.method === "string" && entry.method.startsWith("neutralService_")) {
    expect(Array.isArray(response.result) && response.result.length === 1, "one-element result array").toBe(true);
  }
}

/** `response` is what JSON-RPC 2.0 requires for `body` (object or array, ids echoed, …). */
function checkAnswer(body: unknown, raw: DispatchResult): void {
  const response = raw === undefined ? undefined : (JSON.parse(stringifyDispatchResult(raw)) as unknown);
  if (raw !== undefined) expect(JSON.parse(JSON.stringify(raw))).toEqual(response); // RawJson splices the same JSON
  if (Array.isArray(body)) {
    if (body.length === 0 || body.length > MAX_BATCH) {
      expect(isObject(response)).toBe(true);
      const { id, error } = response as { id: unknown; error: { code: number } };
      expect(id).toBe(null);
      expect(error.code).toBe(body.length === 0 ? -32600 : -32005);
      return;
    }
    const answered = body.filter((entry) => expectedId(entry) !== "none");
    if (answered.length === 0) return expect(response).toBeUndefined();
    expect(Array.isArray(response)).toBe(true);
    const responses = response as unknown[];
    expect(responses).toHaveLength(answered.length);
    answered.forEach((entry, i) => checkEntry(entry, responses[i]));
    return;
  }
  if (expectedId(body) === "none") return expect(response).toBeUndefined();
  checkEntry(body, response);
}

// ---- hostile input ----------------------------------------------------------------------------

function nested(depth: number, wrap: (inner: unknown) => unknown, core: unknown = {}): unknown {
  let value = core;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

const HEX = [..."0123456789abcdefABCDEF"];
const hexString = (maxLength: number) => fc.string({ unit: fc.constantFrom(...HEX), maxLength });
const signatureShaped = hexString(130).map((hex) => `0x${hex.padEnd(130, "0")}`);
const addressShaped = fc.oneof(
  fc.constantFrom(alice.address, bob.address, carol.address, getAddress(alice.address), alice.address.toUpperCase().replace("0X", "0x")),
  hexString(40).map((hex) => `0x${hex.padEnd(40, "a")}`),
  hexString(45).map((hex) => `0x${hex}`),
);
const idShaped = fc.oneof(
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.constantFrom("0", "1", "01", "-1", "9".repeat(19), "9".repeat(20), "1".repeat(19), "9007199254740993", "1".repeat(30), "1e3", " 1"),
);
const hostile = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    1e308,
    -1e308,
    Number.MAX_VALUE,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 64,
    -(2 ** 63),
    1e21,
    -0,
    0,
    -1,
    0.5,
    NOW,
    NOW + 0.5,
    "",
    "0x",
    "0xZZ",
    "zz",
    "__proto__",
    "\u0000",
    "\ud800",
    "a".repeat(10_000),
    "ab".repeat(70_000), // 70 KB of ciphertext: too large
    "'; DROP TABLE mailbox; --",
    nested(50, (inner) => ({ from: inner })),
    nested(50, (inner) => [inner]),
    nested(50, (inner) => ({ inboxFilter: [inner, 1] }), 0),
  ),
  fc.string({ maxLength: 300 }),
  hexString(300),
  signatureShaped,
  addressShaped,
  idShaped,
  fc.integer(),
  fc.double({ noNaN: true }),
);

const filterKeys = fc.constantFrom("from", "direction", "since", "until", "chat", "form", "__proto__", "constructor", "toString");
const filterValue = fc.oneof(addressShaped, fc.constantFrom("received", "sent", "all", "both", "RECEIVED"), fc.integer({ min: -10, max: NOW * 2 }), hostile);
const filter = fc.oneof(fc.dictionary(filterKeys, filterValue, { maxKeys: 4 }), hostile);

/** Signed messages the fuzzer may send (valid for alice's context at the node's fixed clock), built in beforeAll. */
const signed: { from: string; to: string; message: string; timestamp: number; signature: string }[] = [];
beforeAll(async () => {
  for (const [i, [from, to]] of ([
    [alice, bob],
    [alice, carol],
    [alice, alice],
    [bob, alice],
    [carol, bob],
  ] as const).entries()) {
    signed.push(await from.sign({ to: to.address, message: `c0ffee0${i}`, timestamp: NOW }));
    signed.push(await from.sign({ to: getAddress(to.address), message: `C0FFEE1${i}`, timestamp: NOW + i }));
  }
});
/** Key bundles the fuzzer may publish (valid for their signer's context), built in beforeAll. */
const bundles: { account: string; key: string; timestamp: number; signature: string }[] = [];
beforeAll(async () => {
  for (const [i, who] of [alice, bob, carol].entries()) {
    bundles.push(await who.signKeyBundle({ key: xOnlyKeyOf(`0x${(i + 2).toString(16).padStart(64, "0")}`), timestamp: NOW - i }));
    bundles.push(await who.signKeyBundle({ key: xOnlyKeyOf(`0x${(i + 20).toString(16).padStart(64, "0")}`), timestamp: NOW + 1000 * i }));
  }
});
const keyBundle = fc.oneof(
  fc.nat().map((i) => bundles[i % bundles.length]!),
  fc.tuple(fc.nat(), fc.constantFrom("account", "key", "timestamp", "signature", "extra"), hostile).map(([i, key, value]) => ({ ...bundles[i % bundles.length]!, [key]: value })),
  fc.record({ account: fc.oneof(addressShaped, hostile), key: fc.oneof(hexString(64).map((hex) => `0x${hex.padEnd(64, "0")}`), hostile), timestamp: fc.oneof(fc.constant(NOW), hostile), signature: fc.oneof(signatureShaped, hostile) }, { requiredKeys: [] }),
);

const signedMessage = fc.oneof(
  fc.nat().map((i) => signed[i % signed.length]!),
  fc.tuple(fc.nat(), fc.constantFrom("from", "to", "message", "timestamp", "signature", "extra"), hostile).map(([i, key, value]) => ({ ...signed[i % signed.length]!, [key]: value })),
  fc.record(
    { from: fc.oneof(addressShaped, hostile), to: fc.oneof(addressShaped, hostile), message: fc.oneof(hexString(40), hostile), timestamp: fc.oneof(fc.constant(NOW), hostile), signature: fc.oneof(signatureShaped, hostile) },
    { requiredKeys: [] },
  ),
);

const limitValue = fc.oneof(fc.integer({ min: -5, max: 200 }), hostile);
const positional = fc.tuple(fc.oneof(filter, signedMessage, keyBundle, addressShaped), limitValue, fc.oneof(idShaped, hostile), fc.oneof(idShaped, hostile)).chain((list) =>
  fc.nat({ max: 5 }).map((length) => list.slice(0, length)),
);
const byName = fc.dictionary(
  fc.constantFrom("inboxFilter", "limit", "after", "before", "message", "chat", "params", "bundle", "account"),
  fc.oneof(filter, signedMessage, keyBundle, addressShaped, limitValue, idShaped, hostile),
  { maxKeys: 5 },
);
const params = fc.oneof(
  fc.constant(undefined),
  positional,
  byName,
  fc.record({ message: signedMessage }),
  fc.tuple(signedMessage),
  fc.record({ bundle: keyBundle }),
  fc.tuple(keyBundle),
  fc.tuple(addressShaped),
  hostile,
);

const request = fc.oneof(
  { weight: 5, arbitrary: fc.record({ jsonrpc: fc.constant("2.0"), id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 })), method: fc.constantFrom(...METHODS), params }) },
  { weight: 1, arbitrary: fc.record({ jsonrpc: fc.constant("2.0"), method: fc.constantFrom(...METHODS), params }) }, // notifications
  {
    weight: 2,
    arbitrary: fc.record(
      {
        jsonrpc: fc.oneof(fc.constant("2.0"), hostile),
        id: fc.oneof(fc.integer(), fc.constant(null), hostile),
        method: fc.oneof(fc.constantFrom(...METHODS, "neutralService_nope", "rpc.discover ", "__proto__", "constructor", "toString"), hostile),
        params,
      },
      { requiredKeys: [] },
    ),
  },
);
const body = fc.oneof({ weight: 4, arbitrary: request }, { weight: 2, arbitrary: fc.array(request, { maxLength: MAX_BATCH + 2 }) }, { weight: 1, arbitrary: fc.jsonValue() }, { weight: 1, arbitrary: hostile });
const context = fc.constantFrom<RelayContext>({}, { auth: { address: alice.address } }, { auth: { address: bob.address } });

async function storeStillAnswers(): Promise<void> {
  const raw = await dispatcher.dispatch({ jsonrpc: "2.0", id: "after", method: "neutralService_getInbox", params: [{ direction: "all" }, 100] }, { auth: { address: alice.address } });
  const answer = JSON.parse(stringifyDispatchResult(raw!)) as { id: unknown; result?: [{ address: string; data: unknown[]; end: boolean }] };
  expect(answer.id).toBe("after");
  expect(answer.result?.[0]).toMatchObject({ address: alice.address, end: true });
}

describe("the relay's dispatcher under hostile input", () => {
  it("answers every body with well-formed JSON-RPC 2.0 and a known, non-internal error code", async () => {
    await fc.assert(
      fc.asyncProperty(body, context, async (input, ctx) => {
        checkAnswer(input, await dispatcher.dispatch(input, ctx));
      }),
      { numRuns: runs(1500) },
    );
    expect(internalErrors).toEqual([]);
    await storeStillAnswers();
  }, 120_000); // ~2 s alone; 22 s seen on this 2-core machine with the whole suite running beside it

  it("answers any text: random strings and JSON", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json(), body.map((value) => JSON.stringify(value) ?? "")), context, async (text, ctx) => {
        const raw = await dispatcher.dispatchText(text, ctx);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          expect(raw).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
          return;
        }
        checkAnswer(parsed, raw);
      }),
      { numRuns: runs(500) },
    );
    expect(internalErrors).toEqual([]);
  }, 120_000);

  it("stored only what was validly signed by the caller, and still answers", { timeout: 120_000 }, async () => {
    await storeStillAnswers();
    // Make sure something valid was sent (whether or not the fuzzer hit it): alice's and bob's own messages.
    for (const who of [alice, bob]) {
      const own = signed.filter((message) => message.from.toLowerCase() === who.address).map((message, i) => ({ jsonrpc: "2.0", id: i, method: "neutralService_sendMessage", params: [message] }));
      checkAnswer(own, await dispatcher.dispatch(own, { auth: { address: who.address } }));
    }
    const raw = await dispatcher.dispatch({ jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [{ direction: "all" }, 100] }, { auth: { address: alice.address } });
    const page = (JSON.parse(stringifyDispatchResult(raw!)) as { result: [{ data: { from: string; signature: string }[] }] }).result[0];
    expect(page.data.length).toBeGreaterThan(0);
    for (const message of page.data) {
      // Each stored message is one of the validly signed ones, sent by its own signer (alice or bob).
      const original = signed.find((candidate) => candidate.signature.toLowerCase() === message.signature);
      expect(original).toBeDefined();
      expect(message.from).toBe(original!.from.toLowerCase());
      expect([alice.address, bob.address]).toContain(message.from);
    }
    // Every stored key bundle is one of the validly signed ones, of its own signer.
    for (const who of [alice, bob, carol]) {
      const answer = await dispatcher.dispatch({ jsonrpc: "2.0", id: 3, method: "neutralService_getKey", params: [who.address] }, {});
      const current = (JSON.parse(stringifyDispatchResult(answer!)) as { result: [{ account: string; signature: string } | null] }).result[0];
      if (who === carol) expect(current).toBeNull(); // never the caller
      if (current !== null) {
        expect(current.account).toBe(who.address);
        expect(bundles.map((bundle) => bundle.signature.toLowerCase())).toContain(current.signature);
      }
    }
    // carol was never the caller: nothing of hers is stored.
    const carols = await dispatcher.dispatch({ jsonrpc: "2.0", id: 2, method: "neutralService_getInbox", params: [{ direction: "sent" }, 100] }, { auth: { address: carol.address } });
    expect(JSON.parse(stringifyDispatchResult(carols!))).toMatchObject({ result: [{ data: [] }] });
  });
});

// ---- tokens -----------------------------------------------------------------------------------

describe("the authenticator under hostile tokens", () => {
  const authenticate = createAuthenticator({ acceptsDomain: (domain) => domain === DOMAIN, curve, now: () => NOW, cacheSize: 4 });
  const valid: string[] = [];
  beforeAll(async () => {
    for (const who of [alice, bob, carol]) valid.push(await who.token({ domain: DOMAIN, issuedAt: new Date(NOW - 60_000) }));
  });

  /** Runs `header` through the authenticator: a refusal must be exactly RpcError -32001 with a reason. */
  function outcome(header: string | undefined): { refused: true; reason: string } | { refused: false; address: string } {
    try {
      return { refused: false, address: authenticate(header).address };
    } catch (error) {
      if (!(error instanceof RpcError)) throw new Error(`not an RpcError: ${String(error)}`);
      expect(error.code).toBe(-32001);
      const reason = (error.data as { reason?: unknown } | undefined)?.reason;
      expect(typeof reason).toBe("string");
      return { refused: true, reason: reason as string };
    }
  }

  const base64url = fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"), minLength: 1, maxLength: 400 });
  const rfc3339 = fc.integer({ min: NOW - 3 * 86_400_000, max: NOW + 3 * 86_400_000 }).map((ms) => new Date(ms).toISOString());
  const siweShaped = fc
    .record({
      domain: fc.oneof(fc.constant(DOMAIN), fc.domain()),
      address: addressShaped,
      version: fc.constantFrom("1", "2", "01", ""),
      nonce: fc.oneof(fc.string({ maxLength: 20 }), fc.constant("abcdef1234567890")),
      issuedAt: fc.oneof(rfc3339, fc.string({ maxLength: 30 })),
      expirationTime: fc.option(fc.oneof(rfc3339, fc.string({ maxLength: 30 }))),
      notBefore: fc.option(rfc3339),
    })
    .map(
      (f) =>
        `${f.domain} wants you to sign in with your Ethereum account:\n${f.address}\n\n\nURI: http://${f.domain}/\nVersion: ${f.version}\nChain ID: 1\nNonce: ${f.nonce}\nIssued At: ${f.issuedAt}` +
        `${f.expirationTime === null ? "" : `\nExpiration Time: ${f.expirationTime}`}${f.notBefore === null ? "" : `\nNot Before: ${f.notBefore}`}`,
    );

  // ~4 s on an idle machine (2,000 headers, a signature recovery for the token-shaped ones); over
  // 30 s in a CI run beside the other packages' tests.
  it("refuses random headers and random token-shaped junk with -32001, nothing else", { timeout: 120_000 }, () => {
    const header = fc.oneof(
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.string().map((text) => `Bearer ${text}`),
      fc.tuple(base64url, signatureShaped).map(([message, signature]) => `Bearer ${message}.${signature}`),
      fc.tuple(fc.uint8Array({ maxLength: 300 }), signatureShaped).map(([bytes, signature]) => `Bearer ${Buffer.from(bytes).toString("base64url")}.${signature}`),
      fc.tuple(siweShaped, signatureShaped).map(([text, signature]) => `Bearer ${Buffer.from(text).toString("base64url")}.${signature}`),
    );
    fc.assert(
      fc.property(header, (value) => {
        expect(outcome(value).refused).toBe(true);
      }),
      { numRuns: runs(2000) },
    );
  });

  it("refuses every truncation of a valid token", () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 }), fc.nat(), fc.boolean(), (which, cut, fromEnd) => {
        const token = valid[which]!;
        const k = 1 + (cut % (token.length - 1));
        const truncated = fromEnd ? token.slice(0, token.length - k) : token.slice(k);
        expect(outcome(`Bearer ${truncated}`).refused).toBe(true);
      }),
      { numRuns: runs(1000) },
    );
  });

  it("refuses a valid token with a character changed, unless the change leaves the signed text and signature the same", () => {
    const chars = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.x="];
    fc.assert(
      fc.property(fc.nat({ max: 2 }), fc.nat(), fc.constantFrom(...chars), (which, at, char) => {
        const token = valid[which]!;
        const i = at % token.length;
        const mutated = token.slice(0, i) + char + token.slice(i + 1);
        const result = outcome(`Bearer ${mutated}`);
        if (!result.refused) {
          // Only a spelling of the same signed content may pass (base64 padding bits, hex case).
          const split = (t: string) => [Buffer.from(t.slice(0, t.lastIndexOf(".")), "base64url").toString("utf8"), t.slice(t.lastIndexOf(".") + 1).toLowerCase()];
          expect(split(mutated)).toEqual(split(token));
          expect(result.address).toBe([alice, bob, carol][which]!.address);
        }
      }),
      { numRuns: runs(1000) },
    );
  });

  it("still accepts the valid tokens afterwards", () => {
    for (const [i, token] of valid.entries()) expect(outcome(`Bearer ${token}`)).toEqual({ refused: false, address: [alice, bob, carol][i]!.address });
  });
});
