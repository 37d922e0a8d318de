// neutralService's relay checked against openrpc.json by this package's conformance runner, as any team would
// check theirs (`neutral-openrpc test URL --spec openrpc.json --header "Authorization: Bearer …"`):
// every example both ways, results against their schemas, the params the schemas refuse, the
// server-wide errors. One reader's token for every call, so an example another account signed
// (alice's send, with bob's token) is answered an error the method documents: conformant, counted
// as a pass; anything else fails. (spec-examples.test.ts replays each example as its own signer and
// compares whole answers.) Here rather than in the relay's package: the relay's tests cannot depend
// on this package, whose own tests use the client, whose tests use the relay.
import { readFileSync, rmSync } from "node:fs";
import { createBearerToken, toSigner } from "@neutral/client";
import { TEST_KEYS } from "@neutral/protocol/testing";
import { startNode, tempDir } from "@neutral/relay/testing";
import { afterAll, describe, expect, it } from "vitest";
import { formatReport, runConformance } from "./index.mjs";

interface Method {
  name: string;
  params: unknown[];
  examples?: unknown[];
  "x-subscription"?: unknown;
}
const spec = JSON.parse(readFileSync(new URL("../../../openrpc.json", import.meta.url), "utf8")) as { methods: Method[] };
// The node the examples were made with (tools/scripts/sign-examples.mjs): its key, its SIWE domain,
// and a clock window wide enough for examples signed on 2026-01-01 (ten years).
const DOMAIN = "127.0.0.1:8645";
const nodeArgs = ["--node-key", TEST_KEYS.node, "--domain", DOMAIN, "--public-url", `http://${DOMAIN}`, "--clock-skew-ms", String(10 * 365 * 86_400_000)];

const TEST_TIMEOUT_MS = 90_000;
const dataDir = tempDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("neutral-openrpc's conformance runner against the relay", () => {
  it(
    "passes every check with a reader's token: every result matches its schema, every error is one the method documents",
    async () => {
      const relay = await startNode({ dataDir, args: nodeArgs });
      try {
        // Bob's: the reader of the examples.
        const { token } = await createBearerToken(toSigner(TEST_KEYS.bob as `0x${string}`), { domain: DOMAIN, uri: `http://${DOMAIN}` });
        const report = await runConformance(spec, { url: relay.url, headers: { authorization: `Bearer ${token}` } });
        const failed = report.cases.filter((c) => c.outcome === "fail");
        expect(failed, await formatReport(report)).toEqual([]);
        const methods = spec.methods.filter((method) => !("x-subscription" in method));
        // Both ways for every example (paramStructure "either"), and an invalid-params check per method that takes params.
        const examples = methods.reduce((sum, method) => sum + (method.examples?.length ?? 0), 0);
        const withParams = methods.filter((method) => method.params.length > 0).length;
        expect(report.cases.filter((c) => c.call !== "raw")).toHaveLength(2 * examples + withParams);
        expect(report.cases.filter((c) => c.outcome === "skip").map((c) => `${c.method}: ${c.detail}`)).toEqual(["neutralService_subscribe: event streams (x-subscription) are not run"]);
        // Reads of the reader's own mailbox answer results, checked against their schemas.
        const answered = (method: string) => report.cases.filter((c) => c.method === method && c.detail === "the result matches its schema").length;
        expect(answered("neutralService_getInbox")).toBe(4);
        expect(answered("neutralService_nodeInfo")).toBe(2);
        // Alice's signed send, under bob's token: refused as the method documents (-32002 Forbidden).
        expect(report.cases.find((c) => c.method === "neutralService_sendMessage")?.detail).toMatch(/^answered an error the method documents \(-32002: Forbidden: /);
        // Params the schemas refuse are refused -32602 by every method.
        expect(report.cases.filter((c) => c.name.startsWith("invalid params")).every((c) => c.outcome === "pass")).toBe(true);
      } finally {
        await relay.stop();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
