// The events a committed writer entry makes: what wakes live streams, and what a caught-up one sends.
import { describe, expect, it } from "vitest";
import { commitEventsOf } from "./commits.js";

const alice = "0x" + "a1".repeat(20);
const bob = "0x" + "b0".repeat(20);
const append = { digest: "00".repeat(32), from: alice, to: bob, timestamp: 1 };
const committed = (json: string, extra: object = {}) => ({ id: 7, json, from: alice, to: bob, timestamp: 1, ...extra });

describe("commitEventsOf", () => {
  it("wakes both mailboxes of a new local message, carrying it as stored, whether the writer answered its id or, having signed its receipts, its JSON", () => {
    expect(commitEventsOf({ ...append, tail: ',"x":1}' }, 7)).toEqual([{ kind: "message", accounts: [alice, bob], message: committed('{"id":"7","x":1}') }]);
    expect(commitEventsOf({ ...append, fields: { message: "00", from: alice, to: bob, signature: "0x", timestamp: 1 } }, { id: 7, json: '{"id":"7"}', created: true })).toEqual([
      { kind: "message", accounts: [alice, bob], message: committed('{"id":"7"}') },
    ]);
  });

  it("wakes nobody for a resend: the original is already stored", () => {
    expect(commitEventsOf({ ...append, tail: "}" }, { id: 7, json: "{}" })).toEqual([]);
    expect(commitEventsOf({ ...append, tail: "}" }, { id: 7, json: "{}", created: false })).toEqual([]);
  });

  it("wakes only the sender's mailbox for a message to another node, only the recipient's for a delivery, and says which copies the message has", () => {
    expect(commitEventsOf({ ...append, route: "out", destination: bob, tail: "}" }, 7)).toEqual([{ kind: "message", accounts: [alice], message: committed('{"id":"7"}', { route: "out" }) }]);
    expect(commitEventsOf({ ...append, route: "in", tail: "}" }, { id: 7, json: "{}", created: true })).toEqual([{ kind: "message", accounts: [bob], message: committed("{}", { route: "in" }) }]);
    expect(commitEventsOf({ ...append, folder: "requests", tail: "}" }, 7)).toEqual([{ kind: "message", accounts: [alice, bob], message: committed('{"id":"7"}', { folder: "requests" }) }]);
  });

  it("carries no message where there is none to carry: an import wakes its owner's streams to read", () => {
    expect(commitEventsOf({ import: { owner: bob, entries: [{ ...append, tail: "}" }] } }, { imported: [{ id: 7, json: "{}", created: true }] })).toEqual([{ kind: "message", accounts: [bob] }]);
  });
});
