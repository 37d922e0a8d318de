// What one read may cost the node (issue: read amplification, filter scans), against a real relay:
// a request's answers stay within --max-response-bytes, and a page with since/until examines at
// most --max-page-scan messages per mailbox part, however sparse the filter.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, post, startRelay, type RunningRelay } from "../testing/index.js";
import { TEST_KEYS, wallet } from "../test/wallets.js";

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);
const KIB64 = 64 * 1024;
const RESPONSE_BUDGET = 1024 * 1024;
const PAGE_SCAN = 120;

/** Signs `count` messages from `from` to `to`, `bytes` of ciphertext each, and sends them in batches. */
async function sendMany(relay: RunningRelay, from: typeof alice, to: string, count: number, bytes: number, token: string): Promise<void> {
  const signed = await Promise.all(
    // Distinct bodies (the index in every 4 bytes): equal body and timestamp would be one message (same digest).
    Array.from({ length: count }, (_, i) => from.sign({ to, message: i.toString(16).padStart(8, "0").repeat(bytes / 4), timestamp: Date.now() - i })),
  );
  // Batches under the 1 MiB body limit: 64 KiB of ciphertext is 128 KiB of hex.
  const perBatch = Math.min(100, Math.max(1, Math.floor((900 * 1024) / (bytes * 2 + 400))));
  for (let i = 0; i < signed.length; i += perBatch) {
    const batch = signed.slice(i, i + perBatch).map((message, j) => ({ jsonrpc: "2.0", id: i + j, method: "neutralService_sendMessage", params: [message] }));
    const answer = await post(relay.url, batch, token);
    expect(answer.status).toBe(200);
    for (const entry of answer.body) expect(entry.error, JSON.stringify(entry.error)).toBeUndefined();
  }
}

describe("read bounds", () => {
  let relay: RunningRelay;
  let aliceToken: string;
  let bobToken: string;

  beforeAll(async () => {
    relay = await startRelay({ args: ["--max-response-bytes", String(RESPONSE_BUDGET), "--max-page-scan", String(PAGE_SCAN)] });
    aliceToken = await alice.token({ domain: relay.domain });
    bobToken = await bob.token({ domain: relay.domain });
  }, 60_000);

  afterAll(async () => {
    await relay?.stop();
  }, 30_000);

  describe("a request's answers stay within the response budget (--max-response-bytes)", () => {
    beforeAll(async () => {
      await sendMany(relay, alice, alice.address, 30, KIB64, aliceToken);
    }, 120_000);

    it("a single page of 64 KiB messages stops before the budget, not at `limit`, and says it is not the end", async () => {
      const answer = await call(relay.url, "neutralService_getInbox", [{}, 100], aliceToken);
      const page = answer.body.result[0];
      expect(page.end).toBe(false);
      expect(page.data.length).toBeGreaterThan(1);
      expect(page.data.length).toBeLessThan(30);
      expect(answer.text.length).toBeLessThanOrEqual(RESPONSE_BUDGET + 4096);
      // Adding the next message would have passed the budget.
      const size = JSON.stringify(page.data[0]).length + 1;
      expect(page.data.length * size).toBeGreaterThan(RESPONSE_BUDGET - size);
    }, 30_000);

    it("a batch of 10 × getInbox(limit 100): answers within the budget, the entries past it -32005 (not run), and a walk still reads every message once", async () => {
      const batch = Array.from({ length: 10 }, (_, id) => ({ jsonrpc: "2.0", id, method: "neutralService_getInbox", params: [{}, 100] }));
      const answer = await post(relay.url, batch, aliceToken);
      expect(answer.status).toBe(200);
      // Today's main answered ~39 MB here (10 pages of 30 × 128 KiB of hex).
      expect(answer.text.length).toBeLessThanOrEqual(RESPONSE_BUDGET + 132 * 1024 + 4096);
      const refused = answer.body.filter((entry: { error?: { code: number } }) => entry.error !== undefined);
      expect(refused.length).toBeGreaterThan(0);
      for (const entry of refused) {
        expect(entry.error.code).toBe(-32005);
        expect(entry.error.data).toEqual({ reason: "response budget", limit: RESPONSE_BUDGET });
      }
      // The budget is per request: the next request is served afresh, and walking pages reads all 30 once.
      const ids: string[] = [];
      let before: string | undefined;
      for (let pages = 0; pages < 40; pages++) {
        const page = (await call(relay.url, "neutralService_getInbox", { limit: 100, ...(before !== undefined && { before }) }, aliceToken)).body.result[0];
        ids.push(...page.data.map((message: { id: string }) => message.id));
        if (page.end) break;
        before = page.cursor ?? page.data.at(-1).id;
      }
      expect(ids.length).toBe(30);
      expect(new Set(ids).size).toBe(30);
    }, 60_000);

    it("the node keeps serving after the batch (it was bounded, nothing crashed)", async () => {
      const info = await call(relay.url, "neutralService_nodeInfo", []);
      expect(info.body.result[0].limits).toMatchObject({ maxResponseBytes: RESPONSE_BUDGET, maxPageScan: PAGE_SCAN });
    }, 30_000);
  });

  describe("a time filter examines at most --max-page-scan messages per page", () => {
    const MESSAGES = 500;
    beforeAll(async () => {
      await sendMany(relay, bob, alice.address, MESSAGES, 8, bobToken);
    }, 120_000);

    it("getChat {chat, until: 1} over 500 messages: each page stops at the bound with a cursor; walking on reaches the end", async () => {
      const pages: { data: unknown[]; end: boolean; cursor?: string }[] = [];
      let before: string | undefined;
      for (let i = 0; i < 20; i++) {
        const page = (await call(relay.url, "neutralService_getChat", { inboxFilter: { chat: bob.address, until: 1 }, limit: 20, ...(before !== undefined && { before }) }, aliceToken)).body.result[0];
        pages.push(page);
        if (page.end) break;
        expect(page.cursor, "a page that stopped at the bound says where it stopped").toMatch(/^\d+$/);
        before = page.cursor;
      }
      expect(pages.every((page) => page.data.length === 0)).toBe(true);
      // 500 received + 0 sent entries, 120 examined per page: 5 pages (the last finds the end).
      expect(pages.length).toBe(Math.ceil(MESSAGES / PAGE_SCAN));
      expect(pages.at(-1)!.end).toBe(true);
    }, 60_000);

    it("a filter that matches some of them returns each exactly once across the early-stopping pages", async () => {
      const everything: { id: string; timestamp: number }[] = [];
      let before: string | undefined;
      for (;;) {
        const page = (await call(relay.url, "neutralService_getChat", { inboxFilter: { chat: bob.address }, limit: 100, ...(before !== undefined && { before }) }, aliceToken)).body.result[0];
        everything.push(...page.data);
        if (page.end) break;
        before = page.data.at(-1).id;
      }
      expect(everything.length).toBe(MESSAGES);
      const sorted = everything.map((message) => message.timestamp).sort((a, b) => a - b);
      const [since, until] = [sorted[100]!, sorted[130]!];
      const wanted = everything.filter((message) => message.timestamp >= since && message.timestamp < until).map((message) => message.id);
      const seen: string[] = [];
      let after = "0";
      for (let i = 0; i < 20; i++) {
        const page = (await call(relay.url, "neutralService_getChat", { inboxFilter: { chat: bob.address, since, until }, limit: 7, after }, aliceToken)).body.result[0];
        seen.push(...page.data.map((message: { id: string }) => message.id));
        if (page.end) break;
        after = page.cursor ?? page.data.at(-1).id;
      }
      expect(seen).toEqual([...wanted].sort((a, b) => Number(a) - Number(b)));
    }, 60_000);
  });
});
