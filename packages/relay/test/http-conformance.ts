// The HTTP conformance suite: the relay as a real process on loopback, spoken to over HTTP
// (seeds/README.md §4, §5, §6, §7), run once per storage backend (`relay.test.ts` for SQLite,
// `relay.postgres.test.ts` for PostgreSQL). Backend-agnostic: it only speaks HTTP, and asks the
// backend where the node key is kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { call, post, type RunningRelay } from "../testing/index.js";
import { TEST_KEYS, wallet, xOnlyKeyOf } from "./wallets.js";
import { MAX_PAGE_LIMIT } from "@neutral/protocol";

export interface StartedBackend {
  relay: RunningRelay;
  /** The node's private key as 0x hex, read from wherever this backend keeps it. */
  nodeKey(): Promise<string>;
  /** Called after the relay has stopped. */
  cleanup?(): Promise<void>;
}

export function describeHttpConformance(backend: string, start: () => Promise<StartedBackend>): void {
  describe(`HTTP conformance: ${backend}`, () => {
    const alice = wallet(TEST_KEYS.alice);
    const bob = wallet(TEST_KEYS.bob);
    const carol = wallet(TEST_KEYS.carol);
    let started: StartedBackend;
    let relay: RunningRelay;
    let tokens: { alice: string; bob: string; carol: string };

    beforeAll(async () => {
      started = await start();
      relay = started.relay;
      tokens = {
        alice: await alice.token({ domain: relay.domain }),
        bob: await bob.token({ domain: relay.domain }),
        carol: await carol.token({ domain: relay.domain }),
      };
    });
    afterAll(async () => {
      await relay?.stop();
      await started?.cleanup?.();
    });

    const send = async (from: typeof alice, token: string, to: string, message: string) => {
      const answer = await call(relay.url, "neutralService_sendMessage", [await from.sign({ to, message })], token);
      expect(answer.body.error).toBeUndefined();
      return answer.body.result[0] as { id: string; from: string; to: string };
    };

    describe("HTTP surface", () => {
      it("GET /health answers without a token", async () => {
        const response = await fetch(`${relay.url}/health`);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ status: "ok" });
      });

      it("GET /openrpc.json and rpc.discover serve the project's openrpc.json", async () => {
        const spec = JSON.parse(readFileSync(new URL("../../../openrpc.json", import.meta.url), "utf8")) as unknown;
        const response = await fetch(`${relay.url}/openrpc.json`);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("application/json");
        expect(await response.json()).toEqual(spec);
        const discovered = await call(relay.url, "rpc.discover", []);
        expect(discovered.body.result).toEqual(spec);
      });

      it("serves the docs at /docs/ and sends a browser's GET / there", async () => {
        const page = await fetch(`${relay.url}/docs/`);
        expect(page.status).toBe(200);
        expect(page.headers.get("content-type")).toContain("text/html");
        expect(await page.text()).toContain("neutralService_getInbox");
        expect((await fetch(`${relay.url}/docs/style.css`)).status).toBe(200);
        const bare = await fetch(`${relay.url}/docs`, { redirect: "manual" });
        expect(bare.status).toBe(301);
        expect(bare.headers.get("location")).toBe("/docs/");
        const root = await fetch(`${relay.url}/`, { redirect: "manual", headers: { accept: "text/html,application/xhtml+xml" } });
        expect(root.status).toBe(302);
        expect(root.headers.get("location")).toBe("/docs/");
        expect((await fetch(`${relay.url}/docs/../node.key`)).status).toBe(404);
      });

      it("answers 404 for unknown paths and 405 for wrong verbs", async () => {
        expect((await fetch(`${relay.url}/nope`)).status).toBe(404);
        expect((await fetch(`${relay.url}/health`, { method: "POST" })).status).toBe(405);
        expect((await fetch(`${relay.url}/`)).status).toBe(200); // GET / says what the node is (src/http/answers.test.ts)
        const putRoot = await fetch(`${relay.url}/`, { method: "PUT", body: "{}" });
        expect(putRoot.status).toBe(405);
        expect(putRoot.headers.get("allow")).toBe("GET, HEAD, POST");
      });

      it("refuses a body that is not JSON with 415 / -32600", async () => {
        const answer = await post(relay.url, "{}", undefined, { "content-type": "text/plain" });
        expect(answer.status).toBe(415);
        expect(answer.body.error.code).toBe(-32600);
      });

      it("refuses a body over 1 MiB with 413 / -32005", async () => {
        const answer = await post(relay.url, `{"jsonrpc":"2.0","id":1,"method":"x","params":["${"a".repeat(1024 * 1024)}"]}`);
        expect(answer.status).toBe(413);
        expect(answer.body.error.code).toBe(-32005);
      });

      it("answers a parse error with 200 / -32700 and a batch of 101 with -32005", async () => {
        const parse = await post(relay.url, "{not json");
        expect([parse.status, parse.body.error.code, parse.body.id]).toEqual([200, -32700, null]);
        const batch = Array.from({ length: 101 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "neutralService_nodeInfo" }));
        const tooMany = await post(relay.url, batch);
        expect(tooMany.body.error.code).toBe(-32005);
      });

      it("neutralService_nodeInfo needs no token and names the node and its limits", async () => {
        const answer = await call(relay.url, "neutralService_nodeInfo", undefined);
        expect(answer.status).toBe(200);
        expect(answer.body.result).toEqual([
          {
            address: relay.address,
            software: "neutral-relay",
            version: expect.stringMatching(/^\d+\.\d+\.\d+/),
            // Listening on 127.0.0.1: the machine's other loopback names too.
            domains: [relay.domain, relay.domain.replace("127.0.0.1", "localhost"), relay.domain.replace("127.0.0.1", "[::1]")],
            limits: {
              maxLimit: MAX_PAGE_LIMIT,
              maxBatch: 100,
              maxBodyBytes: 1048576,
              maxMessageBytes: 65536,
              clockSkewMs: 300000,
              maxResponseBytes: 4194304,
              maxPageScan: 256,
              retentionSeconds: 7776000,
              // The default storage quotas (no rateLimit: startRelay turns it off).
              quotaPeriodSeconds: 3600,
              senderQuotaMessages: 10000,
              senderQuotaBytes: 104857600,
              recipientQuotaMessages: 20000,
              recipientQuotaBytes: 209715200,
              requestQuotaMessages: 5,
              // What a peer's calls may ask of the node.
              peerRateLimit: 10000,
              // Federation: how long a send to another node waits, how long it is retried.
              deliveryWaitMs: 2000,
              retryPeriodSeconds: 259200,
              // Live delivery's limits: a node of one process at the default connections (10,000, a tenth kept for other requests).
              maxSubscriptions: 9000,
              maxSubscriptionsPerAccount: 8,
              subscriptionBufferBytes: 65536,
              subscriptionStallMs: 30000,
              keepAliveMs: 15000,
            },
            url: relay.url,
            peers: [],
          },
        ]);
      });

      it("notifications get no answer; a batch of only notifications is 204", async () => {
        const answer = await post(relay.url, [{ jsonrpc: "2.0", method: "neutralService_nodeInfo" }]);
        expect(answer.status).toBe(204);
        expect(answer.text).toBe("");
      });
    });

    describe("authentication (§8)", () => {
      it("401 with WWW-Authenticate and data.reason when the token is missing or bad", async () => {
        const missing = await call(relay.url, "neutralService_getInbox", []);
        expect(missing.status).toBe(401);
        expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(missing.body.error).toEqual({ code: -32001, message: "Unauthorized: missing token", data: { reason: "missing token" } });

        const otherDomain = await alice.token({ domain: "evil.example:443" });
        const wrong = await call(relay.url, "neutralService_getInbox", [], otherDomain);
        expect(wrong.status).toBe(401);
        expect(wrong.body.error.data.reason).toMatch(/domain/);

        const expired = await alice.token({ domain: relay.domain, issuedAt: new Date(Date.now() - 7_200_000), expirationTime: new Date(Date.now() - 1000) });
        expect((await call(relay.url, "neutralService_getInbox", [], expired)).body.error.data.reason).toMatch(/expired/);

        const forged = await alice.token({ domain: relay.domain, signWith: bob.account });
        expect((await call(relay.url, "neutralService_getInbox", [], forged)).body.error.data.reason).toMatch(/signature/);
      });

      it("a batch needs a token only if some entry does", async () => {
        const open = [
          { jsonrpc: "2.0", id: 1, method: "neutralService_nodeInfo" },
          { jsonrpc: "2.0", id: 2, method: "rpc.discover" },
        ];
        const fine = await post(relay.url, open);
        expect(fine.status).toBe(200);
        expect(fine.body).toHaveLength(2);
        const mixed = await post(relay.url, [...open, { jsonrpc: "2.0", id: 3, method: "neutralService_getInbox", params: [] }]);
        expect(mixed.status).toBe(401);
        expect(mixed.body.error.code).toBe(-32001);
        const withToken = await post(relay.url, [...open, { jsonrpc: "2.0", id: 3, method: "neutralService_getInbox", params: [] }], tokens.carol);
        expect(withToken.status).toBe(200);
        expect(withToken.body.map((entry: { id: number }) => entry.id)).toEqual([1, 2, 3]);
      });
    });

    describe("mailboxes", () => {
      it("a user reads only their own mailbox, whatever they ask for", async () => {
        await send(alice, tokens.alice, bob.address, "0a0b");
        await send(bob, tokens.bob, alice.address, "0c0d");
        const carolInbox = await call(relay.url, "neutralService_getInbox", [{ direction: "all" }, 100], tokens.carol);
        expect(carolInbox.body.result[0]).toEqual({ address: carol.address, data: [], end: true });
        const carolFromAlice = await call(relay.url, "neutralService_getInbox", [{ from: alice.address, direction: "all" }], tokens.carol);
        expect(carolFromAlice.body.result[0].data).toEqual([]);
        const carolChat = await call(relay.url, "neutralService_getChat", [{ chat: alice.address }], tokens.carol);
        expect(carolChat.body.result[0]).toEqual({ id: alice.address, data: [], end: true });
        const sneaky = await call(relay.url, "neutralService_getInbox", { inboxFilter: { owner: alice.address } }, tokens.carol);
        expect(sneaky.body.error.code).toBe(-32602);
        const byName = await call(relay.url, "neutralService_getInbox", { address: alice.address }, tokens.carol);
        expect(byName.body.error.code).toBe(-32602);
        // Bob's own reads do see the messages.
        const bobAll = await call(relay.url, "neutralService_getInbox", [{ direction: "all" }], tokens.bob);
        expect(bobAll.body.result[0].data.length).toBeGreaterThanOrEqual(2);
      });

      it("sending as someone else is -32002", async () => {
        const signedByAlice = await alice.sign({ to: carol.address, message: "ff" });
        const answer = await call(relay.url, "neutralService_sendMessage", [signedByAlice], tokens.bob);
        expect(answer.body.error.code).toBe(-32002);
      });

      it("addresses come back lowercase whatever case they were sent in; resending returns the original", async () => {
        const signed = await carol.sign({ to: bob.account.address, message: "ABCDEF" });
        const mixed = { ...signed, from: carol.account.address, to: bob.account.address };
        const first = await call(relay.url, "neutralService_sendMessage", [mixed], tokens.carol);
        const stored = first.body.result[0];
        expect(stored).toMatchObject({ from: carol.address, to: bob.address, message: "abcdef" });
        expect(stored.signature).toBe(signed.signature.toLowerCase());
        const again = await call(relay.url, "neutralService_sendMessage", { message: mixed }, tokens.carol);
        expect(again.body.result[0]).toEqual(stored);
        const bobFromCarol = await call(relay.url, "neutralService_getInbox", [{ from: carol.account.address.toUpperCase().replace("0X", "0x") }, 100], tokens.bob);
        expect(bobFromCarol.body.result[0].data.filter((m: { id: string }) => m.id === stored.id)).toHaveLength(1);
      });

      it("walking a chat with the returned cursors visits every message once, both ways (§5)", async () => {
        const dave = wallet(TEST_KEYS.mallory);
        const erin = wallet("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");
        const daveToken = await dave.token({ domain: relay.domain });
        const erinToken = await erin.token({ domain: relay.domain });
        const ids: string[] = [];
        for (let i = 0; i < 23; i++) {
          const [from, token, to] = i % 3 === 0 ? [erin, erinToken, dave.address] as const : [dave, daveToken, erin.address] as const;
          ids.push((await send(from, token, to, i.toString(16).padStart(2, "0"))).id);
        }
        const walk = async (forwards: boolean) => {
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let pages = 0; pages < 10; pages++) {
            const params = forwards ? [{ chat: erin.address }, 7, cursor ?? "0"] : [{ chat: erin.address }, 7, null, cursor ?? null];
            const page = (await call(relay.url, "neutralService_getChat", params, daveToken)).body.result[0];
            seen.push(...page.data.map((m: { id: string }) => m.id));
            if (page.end) return { seen, pages: pages + 1 };
            cursor = page.data[page.data.length - 1].id;
          }
          throw new Error("walk did not end");
        };
        const backwards = await walk(false);
        expect(backwards.seen).toEqual([...ids].reverse());
        expect(backwards.pages).toBe(4);
        const forwards = await walk(true);
        expect(forwards.seen).toEqual(ids);
        // Both cursors: forwards from after, never reaching before.
        const between = await call(relay.url, "neutralService_getChat", [{ chat: erin.address }, 100, ids[4], ids[9]], daveToken);
        expect(between.body.result[0].data.map((m: { id: string }) => m.id)).toEqual(ids.slice(5, 9));
        expect(between.body.result[0].end).toBe(true);
        // getChat without a chat reads the most recently active one.
        const latest = await call(relay.url, "neutralService_getChat", [], erinToken);
        expect(latest.body.result[0].id).toBe(dave.address);
        // Ids of up to 19 digits are valid positions even beyond any stored id.
        const huge = await call(relay.url, "neutralService_getChat", [{ chat: erin.address }, 1, null, "9999999999999999999"], daveToken);
        expect(huge.body.result[0].data[0].id).toBe(ids[22]);
      });
    });

    describe("key bundles", () => {
      const key = xOnlyKeyOf("0x0000000000000000000000000000000000000000000000000000000000000003");

      it("publish with a token; getKey without one; an unknown account is [null]", async () => {
        const bundle = await carol.signKeyBundle({ key, timestamp: Date.now() });
        const published = await call(relay.url, "neutralService_publishKey", [bundle], tokens.carol);
        expect(published.status).toBe(200);
        const expected = { account: carol.address, key, timestamp: bundle.timestamp, signature: bundle.signature.toLowerCase() };
        expect(published.body.result).toEqual([expected]);
        const fetched = await call(relay.url, "neutralService_getKey", [carol.account.address]);
        expect([fetched.status, fetched.body.result]).toEqual([200, [expected]]);
        const unknown = await call(relay.url, "neutralService_getKey", { account: "0x00000000000000000000000000000000000da7e0" });
        expect([unknown.status, unknown.text]).toEqual([200, `{"jsonrpc":"2.0","id":${unknown.body.id},"result":[null]}`]);
        // An older bundle changes nothing and is not an error.
        const older = await carol.signKeyBundle({ key: xOnlyKeyOf("0x0000000000000000000000000000000000000000000000000000000000000002"), timestamp: bundle.timestamp - 1 });
        expect((await call(relay.url, "neutralService_publishKey", { bundle: older }, tokens.carol)).body.result).toEqual([expected]);
        // getKey needs no token, also in a batch.
        const batch = await post(relay.url, [
          { jsonrpc: "2.0", id: 1, method: "neutralService_getKey", params: [carol.address] },
          { jsonrpc: "2.0", id: 2, method: "neutralService_nodeInfo" },
        ]);
        expect(batch.status).toBe(200);
        expect(batch.body[0].result).toEqual([expected]);
      });

      it("publishing needs a token (401), the caller's own account (-32002) and the account's signature (-32003)", async () => {
        const bundle = await alice.signKeyBundle({ key, timestamp: Date.now() });
        const anonymous = await call(relay.url, "neutralService_publishKey", [bundle]);
        expect([anonymous.status, anonymous.body.error.code]).toEqual([401, -32001]);
        const asBob = await call(relay.url, "neutralService_publishKey", [bundle], tokens.bob);
        expect([asBob.status, asBob.body.error.code, asBob.body.error.data.field]).toEqual([200, -32002, "bundle.account"]);
        const forged = await bob.signKeyBundle({ account: alice.account.address, key, timestamp: Date.now() });
        const bad = await call(relay.url, "neutralService_publishKey", [forged], tokens.alice);
        expect([bad.status, bad.body.error.code, bad.body.error.data.field]).toEqual([200, -32003, "bundle.signature"]);
        const future = await alice.signKeyBundle({ key, timestamp: Date.now() + 3_600_000 });
        expect((await call(relay.url, "neutralService_publishKey", [future], tokens.alice)).body.error.code).toBe(-32004);
        expect((await call(relay.url, "neutralService_getKey", [alice.address])).body.result).toEqual([null]);
      });
    });

    describe("access log", () => {
      it("logs request id, method, caller, latency and outcome, and never a token or the node key", async () => {
        const answer = await call(relay.url, "neutralService_getInbox", [{}, 1], tokens.bob);
        const requestId = answer.headers.get("x-request-id");
        expect(requestId).toBeTruthy();
        await new Promise((resolve) => setTimeout(resolve, 200));
        const entry = relay.logs.find((log) => log.reqId === requestId);
        expect(entry).toMatchObject({ msg: "rpc", method: "neutralService_getInbox", caller: bob.address, status: 200, outcome: "ok" });
        expect(typeof entry?.ms).toBe("number");
        const failed = relay.logs.find((log) => log.msg === "rpc" && log.status === 401);
        expect(failed).toMatchObject({ outcome: "error", errors: [-32001] });
        const nodeKey = await started.nodeKey();
        // Nor a published messaging key or bundle signature (the key bundle tests above published one).
        const bundle = (await call(relay.url, "neutralService_getKey", [carol.address])).body.result[0] as { key: string; signature: string } | null;
        expect(bundle).not.toBeNull();
        for (const secret of [...Object.values(tokens), nodeKey, nodeKey.slice(2), tokens.bob.split(".")[1]!, bundle!.key, bundle!.key.slice(2), bundle!.signature.slice(2)]) {
          expect(relay.stdout()).not.toContain(secret);
          expect(relay.stderr()).not.toContain(secret);
        }
      });
    });
  });
}
