// Replays the examples of openrpc.json against a real relay with a third-party tool,
// @open-rpc/test-coverage 2.2.4 (its programmatic API), so that "the spec's examples are what the
// node answers" is checked by an OpenRPC tool and not only by our own replay (spec-examples.test.ts,
// which shares the node set-up: test/spec-examples.ts).
//
// The "openrpc" version. openrpc.json declares 1.3.2. The tool's programmatic API (build/index.js,
// build/coverage.js) never validates the document: it only imports @open-rpc/meta-schema for its
// TypeScript types. Only its CLI (bin/cli.js) does, through @open-rpc/schema-utils-js 1.16.2's
// parseOpenRPCDocument, whose @open-rpc/meta-schema is 1.14.2: "openrpc" must be one of
// 1.0.0-rc0 … 1.2.6, so the CLI refuses openrpc.json (one error, `.openrpc` "should be equal to one
// of the allowed values") and exits 1. (The meta-schema the tool itself depends on, 1.14.9, the same
// as @open-rpc/spec's 1_3 schema, already knows 1.3.0–1.3.2, but nothing validates with it.)
// What 1.3 adds over 1.2.6, comparing those two meta-schemas: the versions 1.3.0–1.3.2, an optional
// top-level "$schema", and "result" no longer required on a method (notifications) nor on an
// example pairing; nothing else (JSON Schema is referenced instead of inlined, the same schema).
// openrpc.json uses none of them (every method and every example has a result; no "$schema"), so
// the tool gets a copy marked "1.2.6", the newest version it accepts, and goes the CLI's way with
// it: parseOpenRPCDocument validates it against the tool's meta-schema and dereferences it. The
// first test pins this: if openrpc.json starts using something of 1.3, the 1.2.6 copy fails that
// validation and this decision must be revisited.
//
// Left out of the copies the tool gets (spec-examples.test.ts replays them):
// - node-to-node methods ("x-requires-auth": "node", deliver and lookup): their authorization is a
//   peer node's signature over each request's exact body, not a header a generic tool can be given;
// - the stream, neutralService_subscribe ("x-subscription"): it answers with Server-Sent Events, not
//   one JSON-RPC response, and its example's events are in "x-events", which the tool knows nothing of;
// - the methods that answer a signed mailbox head (getProof, getLog: SIGNS_HEADS): its timestamp and
//   signature say when the node signed it, and the tool compares whole results.
//
// The tool's gotchas, worked around here:
// - its HTTP transport sends only Content-Type: there is no option for headers. A transport is any
//   `(url, method, params) => Promise<JSON-RPC response>`, so this test gives its own: plain
//   fetch, plus `Authorization: Bearer …` for the methods with "x-requires-auth": true. The token
//   is the caller's, picked as spec-examples.test.ts does (the signer of the message or bundle the
//   params carry, else the reader, bob), so each run of the tool covers every caller, in the
//   spec's order (two runs: one per node start, as in spec-examples.test.ts).
// - its ExamplesRule, when the result differs from the example's, falls back to validating the
//   result against the method's result schema and then counts the call as passing: an example
//   whose result is wrong but well-formed passes. ExactExamplesRule keeps its calls (params by
//   position, as for "paramStructure": "either") and only requires the result to equal the example's.
// - with no reporter it uses the console one, which calls process.exit(); so does "console-rule",
//   "json" prints every call, "html" writes a report file: this test gives a silent reporter and
//   reads the calls the tool returns.
// - it is CommonJS with `exports.default`: loaded with require(), as vitest's and Node's ESM
//   interop disagree on what its default import is.
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { isDeepStrictEqual } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type testCoverageModule from "@open-rpc/test-coverage";
import type examplesRuleModule from "@open-rpc/test-coverage/build/rules/examples-rule.js";
import type { Call } from "@open-rpc/test-coverage/build/coverage.js";
import { startNode, tempDir, type InProcessNode } from "../testing/index.js";
import {
  DOMAIN,
  SIGNED_LONG_AGO,
  SIGNS_HEADS,
  callerOfParams,
  examples,
  nodeArgs,
  peerArgs,
  spec,
  storeMessagesBefore,
  wideClockArgs,
  type Method,
} from "../test/spec-examples.js";

const require = createRequire(import.meta.url);
const { default: testCoverage } = require("@open-rpc/test-coverage") as typeof testCoverageModule;
const { default: ExamplesRule } = require("@open-rpc/test-coverage/build/rules/examples-rule.js") as typeof examplesRuleModule;
type Options = Parameters<typeof testCoverage>[0];
type OpenrpcDocument = Options["openrpcDocument"];
type Transport = Exclude<Options["transport"], string>;
type Reporter = Exclude<Options["reporters"][number], string>;
// What the tool's CLI validates and dereferences the document with: its own dependency.
const { parseOpenRPCDocument } = createRequire(require.resolve("@open-rpc/test-coverage"))("@open-rpc/schema-utils-js") as {
  parseOpenRPCDocument(document: object): Promise<OpenrpcDocument>;
};

const TEST_TIMEOUT_MS = 60_000;
/** The newest "openrpc" version the tool's meta-schema accepts (see the top). */
const TOOL_OPENRPC_VERSION = "1.2.6";

/** Whether a generic tool can call a method: plain JSON-RPC over HTTP, at most a bearer token. */
const replayable = (method: Method) => method["x-requires-auth"] !== "node" && method["x-subscription"] === undefined && !SIGNS_HEADS.has(method.name);
const byName = new Map(spec.methods.map((method) => [method.name, method]));

/** The examples' results, exactly: no fallback to the result schema. */
class ExactExamplesRule extends ExamplesRule {
  override validateCall(call: Call): Call {
    call.valid = call.error === undefined && call.result !== undefined && isDeepStrictEqual(call.result, call.expectedResult);
    if (!call.valid) call.reason = call.error !== undefined ? `got the error ${JSON.stringify(call.error)}` : `got ${JSON.stringify(call.result)}`;
    return call;
  }
}

const quiet: Reporter = { onBegin() {}, onTestBegin() {}, onTestEnd() {}, onEnd() {} };

/** JSON-RPC over HTTP, with the caller's bearer token where the method requires one. */
function transport(): Transport {
  const tokens = new Map<string, Promise<string>>();
  let id = 0;
  return async (url, method, params) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (byName.get(method)?.["x-requires-auth"] === true) {
      const caller = callerOfParams(params as unknown[]);
      if (!tokens.has(caller.address)) tokens.set(caller.address, caller.token({ domain: DOMAIN }));
      headers.authorization = `Bearer ${await tokens.get(caller.address)}`;
    }
    const response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
      signal: AbortSignal.timeout(10_000),
    });
    return response.json();
  };
}

/** A copy of openrpc.json for the tool: marked 1.2.6, served by `url`, with only `methods`. */
function copyOfSpec(url: string, methods: (method: Method) => boolean): Record<string, unknown> {
  const copy = structuredClone(spec) as { methods: Method[] } & Record<string, unknown>;
  return { ...copy, openrpc: TOOL_OPENRPC_VERSION, servers: [{ name: "This test's relay", url }], methods: copy.methods.filter(methods) };
}

/** Runs the tool with the examples of `methods` against `relay`; answers its calls. */
async function runTool(relay: InProcessNode, methods: (method: Method) => boolean): Promise<Call[]> {
  const openrpcDocument = await parseOpenRPCDocument(copyOfSpec(relay.url, methods));
  return testCoverage({ openrpcDocument, transport: transport(), reporters: [quiet], rules: [new ExactExamplesRule()] });
}

/** The failed calls, readably. */
const failures = (calls: Call[]) =>
  calls
    .filter((call) => call.valid !== true)
    .map((call) => {
      const got = call.requestError !== undefined ? `request failed: ${String(call.requestError)}` : call.reason;
      return `${call.methodName} "${call.title}" ${JSON.stringify(call.params)}\n  expected ${JSON.stringify(call.expectedResult)}\n  ${got}`;
    });

const dataDir = tempDir();
let relay: InProcessNode | undefined;
afterAll(async () => {
  await relay?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The examples the tool can replay; what it ran, over both tests. */
const replayed = examples.filter(({ method }) => replayable(method));
const calls: Call[] = [];

describe("@open-rpc/test-coverage replays the examples of openrpc.json on a real node", () => {
  it(
    "openrpc.json is refused by the tool's meta-schema as 1.3.2 only for its version: marked 1.2.6, it passes",
    async () => {
      const copy = () => structuredClone(spec) as unknown as Record<string, unknown>;
      expect(copy().openrpc).toBe("1.3.2");
      const refusal = await parseOpenRPCDocument(copy()).then(
        () => "accepted",
        (error: Error) => error.message,
      );
      expect(refusal).toContain('"dataPath": ".openrpc"');
      expect(refusal.match(/"keyword":/g), refusal).toHaveLength(1);
      await expect(parseOpenRPCDocument({ ...copy(), openrpc: TOOL_OPENRPC_VERSION })).resolves.toBeTruthy();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "sendMessage's (signed long ago), into a node holding the messages before them",
    async () => {
      relay = await startNode({ dataDir, args: [...nodeArgs, ...wideClockArgs] });
      try {
        await storeMessagesBefore(
          relay.url,
          examples.filter(({ method }) => SIGNED_LONG_AGO.has(method.name)),
        );
        const run = await runTool(relay, (method) => SIGNED_LONG_AGO.has(method.name));
        calls.push(...run);
        expect(failures(run).length, failures(run).join("\n")).toBe(0);
      } finally {
        // Also when it failed: the next test restarts the node on the same data dir.
        await relay.stop();
        relay = undefined;
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "every other method's it can call, after a restart with the default clock window",
    async () => {
      relay = await startNode({ dataDir, args: [...nodeArgs, ...peerArgs] });
      const run = await runTool(relay, (method) => replayable(method) && !SIGNED_LONG_AGO.has(method.name));
      calls.push(...run);
      expect(failures(run).length, failures(run).join("\n")).toBe(0);

      // Every example of the methods it can call, once each, and nothing else; none failed.
      const title = new ExactExamplesRule().getTitle();
      expect(replayed.length).toBeGreaterThan(0);
      expect(calls).toHaveLength(replayed.length);
      expect(calls.map((call) => `${call.methodName}: ${call.title}`).sort()).toEqual(
        replayed.map(({ method, example }) => `${method.name}: ${title} ${example.name}`).sort(),
      );
      expect(failures(calls).length, failures(calls).join("\n")).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
