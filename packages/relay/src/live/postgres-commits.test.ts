import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestSchema, type TestSchema } from "../../test/postgres.js";
import type { CommitEvent, CommitFeed } from "./commits.js";
import { commitChannelOf, eventsOfNotice, messageNotices, postgresCommitFeed, statusNotices } from "./postgres-commits.js";

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

describe("commit notices", () => {
  it("name the mailboxes a batch went into (local: both; outbound: the sender's; inbound: the recipient's), each once", () => {
    const [a, b, c, d] = [1, 2, 3, 4].map(address) as [string, string, string, string];
    const notices = messageNotices([
      { from: a, to: b },
      { from: a, to: c, route: { kind: "outbound", destination: d } },
      { from: d, to: b, route: { kind: "inbound" } },
    ]);
    expect(notices).toEqual([`m:${a},${b}`]);
    expect(eventsOfNotice(notices[0])).toEqual([{ kind: "message", accounts: [a, b] }]);
    expect(statusNotices([{ sender: a, id: 7 }, { sender: b, id: 9 }])).toEqual([`s:${a}:7;${b}:9`]);
    expect(eventsOfNotice(`s:${a}:7;${b}:9`)).toEqual([
      { kind: "status", account: a, id: 7 },
      { kind: "status", account: b, id: 9 },
    ]);
  });

  it("stay within PostgreSQL's payload bound: 7,000 characters fit one notice, one more account starts the next", () => {
    // 162 addresses of 42 characters and 161 commas are 6,965 characters; a 163rd would make 7,008.
    const fits = Array.from({ length: 162 }, (_, i) => ({ from: address(i), to: address(i), route: { kind: "outbound" as const, destination: address(0) } }));
    const one = messageNotices(fits);
    expect(one).toHaveLength(1);
    expect(one[0]!.length).toBeLessThanOrEqual(7_000 + 2);
    const two = messageNotices([...fits, { from: address(999), to: address(999), route: { kind: "outbound" as const, destination: address(0) } }]);
    expect(two).toHaveLength(2);
    expect(two.flatMap((notice) => (eventsOfNotice(notice)[0] as unknown as { accounts: string[] }).accounts)).toHaveLength(163);
    for (const notice of two) expect(notice.length).toBeLessThan(8_000);
  });

  it("are read as a resync when malformed (a wake-up too many costs a read; one too few would cost a message)", () => {
    for (const payload of [undefined, "", "x:1", "m:0x12", `s:${address(1)}:x`, `s:${address(1)}`]) expect(eventsOfNotice(payload)).toEqual([{ kind: "resync" }]);
  });
});

describe("the PostgreSQL commit feed", () => {
  let schema: TestSchema;
  let feed: CommitFeed | undefined;
  beforeEach(async () => {
    schema = await createTestSchema();
  });
  afterEach(async () => {
    await feed?.close();
    feed = undefined;
    await schema.drop();
  });

  it("hears notices committed by other connections, and after losing its connection reconnects and says resync (what was sent meanwhile is lost)", { timeout: 30_000 }, async () => {
    const events: CommitEvent[] = [];
    let lost = 0;
    feed = await postgresCommitFeed({ url: schema.url, onLost: () => lost++ });
    feed.subscribe((batch) => events.push(...batch));
    const channel = commitChannelOf(schema.name);
    const notify = (payload: string) => schema.query("SELECT pg_notify($1, $2)", [channel, payload]);
    const until = async (condition: () => boolean) => {
      for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(condition()).toBe(true);
    };
    await notify(`m:${address(1)}`);
    await until(() => events.length === 1);
    expect(events[0]).toEqual({ kind: "message", accounts: [address(1)] });

    await schema.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [`neutral-relay:live:${process.pid}`]);
    await notify(`m:${address(2)}`); // nobody listens now
    await until(() => events.some((event) => event.kind === "resync"));
    expect(lost).toBeGreaterThan(0);
    expect(events.some((event) => event.kind === "message" && event.accounts.includes(address(2)))).toBe(false);
    await notify(`m:${address(3)}`);
    await until(() => events.some((event) => event.kind === "message" && event.accounts.includes(address(3))));
  });
});
