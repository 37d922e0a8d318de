// The events a committed writer entry makes: what wakes live streams.
import { describe, expect, it } from "vitest";
import { commitEventsOf } from "./commits.js";

const alice = "0x" + "a1".repeat(20);
const bob = "0x" + "b0".repeat(20);
const append = { digest: "00".repeat(32), from: alice, to: bob, timestamp: 1 };

describe("commitEventsOf", () => {
  it("wakes both mailboxes of a new local message, whether the writer answered its id or, having signed its receipts, its JSON", () => {
    const event = { kind: "message", accounts: [alice, bob] };
    expect(commitEventsOf({ ...append, tail: "}" }, 7)).toEqual([event]);
    expect(commitEventsOf({ ...append, fields: { message: "00", from: alice, to: bob, signature: "0x", timestamp: 1 } }, { id: 7, json: "{}", created: true })).toEqual([event]);
  });

  it("wakes nobody for a resend: the original is already stored", () => {
    expect(commitEventsOf({ ...append, tail: "}" }, { id: 7, json: "{}" })).toEqual([]);
    expect(commitEventsOf({ ...append, tail: "}" }, { id: 7, json: "{}", created: false })).toEqual([]);
  });

  it("wakes only the sender's mailbox for a message to another node, only the recipient's for a delivery", () => {
    expect(commitEventsOf({ ...append, route: "out", destination: bob, tail: "}" }, 7)).toEqual([{ kind: "message", accounts: [alice] }]);
    expect(commitEventsOf({ ...append, route: "in", tail: "}" }, { id: 7, json: "{}", created: true })).toEqual([{ kind: "message", accounts: [bob] }]);
  });
});
