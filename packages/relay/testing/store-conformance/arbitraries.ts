// fast-check arbitraries for the model-based properties: worlds of messages (resends, federation routes, group commits) and the page queries and walks over them.
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { ID_CEILING, type MailboxRange, type PageQuery, type Side } from "@neutral/relay";
import { BASE_TIMESTAMP, hex, randomAddress, resendOf } from "./data.js";
import { chatRanges, inboxRanges, modelMatches, type ModelMessage } from "./model.js";
import type { TestMessage } from "./data.js";

/** `arbitrary`'s value with probability `p`, else null. */
export const sometimes = <T>(arbitrary: fc.Arbitrary<T>, p: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: Math.round((1 - p) * 12), arbitrary: fc.constant(null) }, { weight: Math.round(p * 12), arbitrary });
const bytes = (length: number) => fc.uint8Array({ minLength: length, maxLength: length });
const addressArb = bytes(20).map((b) => `0x${hex(b)}`);
const signatureArb = bytes(65).map((b) => `0x${hex(b)}`);
/** Timestamps in a narrow window, so that filters cut through the world and collide with messages. */
const TS_SPAN = 40;
const timestampArb = fc.integer({ min: 0, max: TS_SPAN }).map((t) => BASE_TIMESTAMP + t);
/** A since/until bound: mostly at or next to a stored message's timestamp, so the edges get hit. */
type BoundSpec = { kind: "near"; index: number; delta: -1 | 0 | 1 } | { kind: "any"; t: number };
export const boundArb: fc.Arbitrary<BoundSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("near" as const), index: fc.noBias(fc.nat()), delta: fc.constantFrom(-1 as const, 0 as const, 1 as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("any" as const), t: fc.integer({ min: -1, max: TS_SPAN + 1 }) }) },
);
export function boundOf(stored: readonly { message: TestMessage }[], spec: BoundSpec | null): number | undefined {
  if (spec === null) return undefined;
  if (spec.kind === "any" || stored.length === 0) return BASE_TIMESTAMP + (spec.kind === "any" ? spec.t : 0);
  return stored[spec.index % stored.length]!.message.timestamp + spec.delta;
}

interface EntrySpec {
  from: number;
  to: number;
  timestamp: number;
  body: Uint8Array;
  digest: Uint8Array;
  signatures: [string, string, string];
  /** Resend an earlier message (index into the world's distinct messages, modulo). */
  resend: number | null;
  /** Wait for the earlier appends before this one (a new event-loop turn, a new group commit). */
  awaitBefore: boolean;
  /** Federation: 0 local, 1 outbound (to another node), 2 inbound (from another node). */
  route: 0 | 1 | 2;
}

const entryArb: fc.Arbitrary<EntrySpec> = fc.record({
  from: fc.noBias(fc.nat(3)),
  to: fc.noBias(fc.nat(3)),
  timestamp: timestampArb,
  // Opaque bytes don't shrink: shrinking every byte of them would drown out the world's structure.
  body: fc.noShrink(fc.uint8Array({ minLength: 1, maxLength: 24 })),
  digest: fc.noShrink(bytes(32)),
  signatures: fc.noShrink(fc.tuple(signatureArb, signatureArb, signatureArb)),
  resend: sometimes(fc.noBias(fc.nat()), 1 / 6),
  awaitBefore: fc.nat(3).map((n) => n === 0), // ~1 in 4
  route: fc.oneof({ weight: 4, arbitrary: fc.constant(0 as const) }, { weight: 1, arbitrary: fc.constant(1 as const) }, { weight: 1, arbitrary: fc.constant(2 as const) }),
});

/** The node outbound messages of the property tests are for. */
const OTHER_NODE = "0x0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d";

export interface World {
  addresses: string[];
  messages: TestMessage[];
  breaks: boolean[];
}

export const worldArb: fc.Arbitrary<World> = fc
  .record({
    addresses: fc.noShrink(fc.uniqueArray(addressArb, { minLength: 3, maxLength: 4, selector: (a) => a })),
    entries: fc.array(entryArb, { maxLength: 60, size: "max" }), // "max": lengths up to 60, not fast-check's small default
  })
  .map(({ addresses, entries }) => {
    const distinct: TestMessage[] = [];
    const messages = entries.map((entry, i): TestMessage => {
      if (entry.resend !== null && distinct.length > 0) return resendOf(distinct[entry.resend % distinct.length]!);
      // Distinct messages get distinct digests by construction (first two bytes: the index).
      const digest = new Uint8Array(entry.digest);
      digest[0] = i >> 8;
      digest[1] = i & 0xff;
      const message: TestMessage = {
        from: addresses[entry.from % addresses.length]!,
        to: addresses[entry.to % addresses.length]!,
        message: hex(entry.body),
        timestamp: entry.timestamp,
        signature: entry.signatures[0],
        senderReceipt: entry.signatures[1],
        // An outbound message is stored pending, without the receipt of the recipient's node.
        ...(entry.route === 1 ? { status: "pending" as const, route: { kind: "outbound" as const, destination: OTHER_NODE } } : { receiverReceipt: entry.signatures[2] }),
        ...(entry.route === 2 && { route: { kind: "inbound" as const } }),
        digest,
      };
      distinct.push(message);
      return message;
    });
    return { addresses, messages, breaks: entries.map((e) => e.awaitBefore) };
  });

/**
 * `world` with fresh addresses and digests (one random salt for the world, so that a resend still
 * has its original's digest): worlds appended to one store never share an owner or a digest.
 */
export function freshWorld(world: World): World {
  const renamed = new Map(world.addresses.map((address) => [address, randomAddress()]));
  const salt = randomBytes(30);
  const salted = (digest: Uint8Array) => {
    const copy = new Uint8Array(digest);
    for (let i = 2; i < copy.length; i++) copy[i]! ^= salt[i - 2]!;
    return copy;
  };
  return {
    addresses: world.addresses.map((address) => renamed.get(address)!),
    messages: world.messages.map((message) => ({ ...message, from: renamed.get(message.from)!, to: renamed.get(message.to)!, digest: salted(message.digest) })),
    breaks: world.breaks,
  };
}

/** An address by index into the world's (modulo), or -1: a stranger who has no messages. */
type Who = number;
export const STRANGER = "0x5757575757575757575757575757575757575757";
export const who = (world: World, index: Who) => (index < 0 ? STRANGER : world.addresses[index % world.addresses.length]!);
export const whoArb: fc.Arbitrary<Who> = fc.oneof({ weight: 12, arbitrary: fc.noBias(fc.nat(3)) }, { weight: 1, arbitrary: fc.constant(-1) });

type RangesSpec =
  | { kind: "inbox"; direction: "received" | "sent" | "all"; from: Who | null }
  | { kind: "chat"; peer: Who }
  | { kind: "ranges"; ranges: { side: Side; peer: Who | null }[] };

export const rangesSpecArb: fc.Arbitrary<RangesSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("inbox" as const), direction: fc.constantFrom("received" as const, "sent" as const, "all" as const), from: sometimes(whoArb, 1 / 2) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("chat" as const), peer: whoArb }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("ranges" as const),
      ranges: fc.array(fc.record({ side: fc.constantFrom("received" as const, "sent" as const), peer: sometimes(whoArb, 1 / 2) }), { minLength: 1, maxLength: 3 }),
    }),
  },
);

export function rangesOf(world: World, owner: string, spec: RangesSpec): MailboxRange[] {
  switch (spec.kind) {
    case "inbox":
      return inboxRanges(owner, spec.direction, spec.from === null ? undefined : who(world, spec.from));
    case "chat":
      return chatRanges(who(world, spec.peer));
    case "ranges":
      return spec.ranges.map(({ side, peer }) => (peer === null ? { side } : { side, peer: who(world, peer) }));
  }
}

/** A cursor position: near a stored id, an edge, or any number around the stored ids. */
type CursorSpec = { kind: "near"; index: number; delta: -1 | 0 | 1 } | { kind: "edge"; value: number } | { kind: "any"; fraction: number };

export const cursorArb: fc.Arbitrary<CursorSpec> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("near" as const), index: fc.noBias(fc.nat()), delta: fc.constantFrom(-1 as const, 0 as const, 1 as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("edge" as const), value: fc.constantFrom(0, ID_CEILING) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("any" as const), fraction: fc.noBias(fc.integer({ min: 0, max: 120 })).map((n) => n / 100) }) },
);

export function cursorOf(stored: readonly ModelMessage[], spec: CursorSpec): number {
  switch (spec.kind) {
    case "near": {
      const at = stored[spec.index % Math.max(stored.length, 1)];
      return Math.max(0, (at?.id ?? 0) + spec.delta);
    }
    case "edge":
      return spec.value;
    case "any":
      return Math.floor((stored[stored.length - 1]?.id ?? 10) * spec.fraction);
  }
}

interface QuerySpec {
  owner: Who;
  ranges: RangesSpec;
  since: BoundSpec | null;
  until: BoundSpec | null;
  after: CursorSpec | null;
  before: CursorSpec | null;
  limit: number;
  /** Keep `after` ≥ `before` when both are given (else they are put in order): an empty window. */
  crossed: boolean;
}

const limitArb = fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 5 }) }, { weight: 1, arbitrary: fc.constant(100) });

export const querySpecArb: fc.Arbitrary<QuerySpec> = fc.record({
  owner: whoArb,
  ranges: rangesSpecArb,
  since: sometimes(boundArb, 1 / 4),
  until: sometimes(boundArb, 1 / 4),
  after: sometimes(cursorArb, 1 / 2),
  before: sometimes(cursorArb, 1 / 2),
  limit: limitArb,
  crossed: fc.nat(5).map((n) => n === 0),
});

/**
 * The messages to place cursors and time bounds at: those the ranges (and cursors) already select,
 * so that the edges (a cursor at a match, `until` at a match's timestamp) are hit often.
 */
export function candidates(stored: readonly ModelMessage[], owner: string, ranges: readonly MailboxRange[], window: Pick<PageQuery, "after" | "before"> = {}): readonly ModelMessage[] {
  const selected = modelMatches(stored, { owner, ranges, ...window, order: "asc", limit: 1 });
  return selected.length > 0 ? selected : stored;
}

/** The page query as the service would send it: walk order from the cursors (seeds/README.md §5). */
export function queryOf(world: World, stored: readonly ModelMessage[], spec: QuerySpec): PageQuery {
  const owner = who(world, spec.owner);
  const ranges = rangesOf(world, owner, spec.ranges);
  const inRanges = candidates(stored, owner, ranges);
  let after = spec.after === null ? undefined : cursorOf(inRanges, spec.after);
  let before = spec.before === null ? undefined : cursorOf(inRanges, spec.before);
  if (after !== undefined && before !== undefined && after > before && !spec.crossed) [after, before] = [before, after];
  const inWindow = candidates(stored, owner, ranges, { after, before });
  return {
    owner,
    ranges,
    // Absent filters are sometimes explicit `undefined` members, as the service passes them.
    ...(spec.since !== null ? { since: boundOf(inWindow, spec.since) } : spec.limit % 2 === 0 && { since: undefined }),
    ...(spec.until !== null ? { until: boundOf(inWindow, spec.until) } : spec.limit % 2 === 0 && { until: undefined }),
    ...(after !== undefined && { after }),
    ...(before !== undefined && { before }),
    order: after !== undefined ? "asc" : "desc",
    limit: spec.limit,
  };
}
