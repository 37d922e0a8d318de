// A log page's signed statement (openrpc.json `LogPage.signature`): each position's 74-byte statement
// as the spec spells it (built here byte by byte, independently), and the page's digest as viem
// hashes EIP-712 `LogStatement`; every field of the statement changes it.
import { createHash } from "node:crypto";
import { concat, hashTypedData as viemHashTypedData, numberToHex } from "viem";
import { describe, expect, it } from "vitest";
import { EIP712_DOMAIN, EIP712_TYPES } from "./eip712.js";
import { toHex } from "./hex.js";
import { deletionRequestDigest, logEntriesHash, logEntryHash, logPositionStatement, logStatementDigest } from "./log-statement.js";
import { expiredMessageDigest } from "./mailbox-log.js";

const leafHash = `0x${"5a".repeat(32)}`;
const request = { account: `0x${"aa".repeat(20)}`, ids: ["3", "7"], leaves: [leafHash], timestamp: 1_767_225_600_000, signature: `0x${"cd".repeat(65)}` };
const expired = { from: `0x${"aa".repeat(20)}`, to: `0x${"bb".repeat(20)}`, messageHash: `0x${"ee".repeat(32)}`, timestamp: 1_767_225_600_000, expires: 1_767_225_660_000 };

/** SHA-256, as node:crypto computes it. */
const sha = (data: Buffer | string) => createHash("sha256").update(data).digest();

/** The spec's statement, spelled out with viem: SHA-256 of seq (8) ‖ role (1) ‖ leaf hash (32) ‖ state (1) ‖ detail (32). */
const spelled = (seq: number, role: number, state: number, detail: `0x${string}`) =>
  toHex(sha(Buffer.from(concat([numberToHex(seq, { size: 8 }), numberToHex(role, { size: 1 }), leafHash as `0x${string}`, numberToHex(state, { size: 1 }), detail]).slice(2), "hex")));
const zeros = `0x${"00".repeat(32)}` as const;

describe("a log page's statement", () => {
  it("states each position as the spec spells it: the message given (its JSON's SHA-256), held, none, and each reason with its content bound", () => {
    const at = { seq: 7, role: "received" as const, leafHash };
    const served = { id: "7", message: "ab", from: `0x${"aa".repeat(20)}`, timestamp: 1 };
    const text = JSON.stringify(served);
    const given = toHex(sha(text)) as `0x${string}`;
    expect(toHex(logEntryHash(logPositionStatement({ ...at, message: served }, true)))).toBe(spelled(7, 1, 0x01, given));
    expect(toHex(logEntryHash(logPositionStatement({ ...at, message: text }, true)))).toBe(spelled(7, 1, 0x01, given));
    expect(toHex(logEntryHash(logPositionStatement({ ...at, message: { ...served, message: "ac" } }, true)))).not.toBe(spelled(7, 1, 0x01, given));
    expect(toHex(logEntryHash(logPositionStatement(at, false)))).toBe(spelled(7, 1, 0x02, zeros));
    expect(toHex(logEntryHash(logPositionStatement(at, true)))).toBe(spelled(7, 1, 0x00, zeros));
    expect(toHex(logEntryHash(logPositionStatement({ ...at, role: "sent", removed: { reason: "retention" } }, true)))).toBe(spelled(7, 2, 0x05, zeros));
    // From spec 3.2.0 the retention applied, as a uint256.
    expect(toHex(logEntryHash(logPositionStatement({ ...at, role: "sent", removed: { reason: "retention", retentionSeconds: 7_776_000 } }, true)))).toBe(
      spelled(7, 2, 0x05, numberToHex(7_776_000, { size: 32 })),
    );
    expect(toHex(logEntryHash(logPositionStatement({ ...at, role: "sent", removed: { reason: "retention", retentionSeconds: 0 } }, true)))).toBe(spelled(7, 2, 0x05, zeros));
    expect(() => logPositionStatement({ ...at, removed: { reason: "retention", retentionSeconds: -1 } }, true)).toThrow(RangeError);
    const deletion = toHex(sha(Buffer.concat([deletionRequestDigest(request), Buffer.from("cd".repeat(65), "hex")])));
    expect(toHex(logEntryHash(logPositionStatement({ ...at, removed: { reason: "deleted", request } }, true)))).toBe(spelled(7, 1, 0x03, deletion as `0x${string}`));
    expect(toHex(logEntryHash(logPositionStatement({ ...at, removed: { reason: "expired", message: expired } }, false)))).toBe(spelled(7, 1, 0x04, toHex(expiredMessageDigest(expired)) as `0x${string}`));
  });

  it("binds the request it cites: another id, leaf, time or signature is another statement; a request without leaves is a `Deletion`", () => {
    const of = (cited: typeof request | Omit<typeof request, "leaves">) => toHex(logEntryHash(logPositionStatement({ seq: 1, role: "received", leafHash, removed: { reason: "deleted", request: cited } }, true)));
    const base = of(request);
    const { leaves: _leaves, ...bare } = request;
    for (const other of [{ ...request, ids: ["3"] }, { ...request, leaves: [`0x${"5b".repeat(32)}`] }, { ...request, timestamp: request.timestamp + 1 }, { ...request, signature: `0x${"ce".repeat(65)}` }, bare]) {
      expect(of(other)).not.toBe(base);
    }
    expect(toHex(deletionRequestDigest(bare))).toBe(
      viemHashTypedData({ domain: EIP712_DOMAIN, types: { Deletion: [...EIP712_TYPES.Deletion] }, primaryType: "Deletion", message: { account: bare.account as `0x${string}`, ids: [3n, 7n], timestamp: BigInt(bare.timestamp) } }),
    );
  });

  it("digests as EIP-712 LogStatement(bytes32 head,uint64 from,bytes32 entries,uint64 timestamp), the entries the SHA-256 of their statements in order, with any SHA-256 given", () => {
    const head = new Uint8Array(32).fill(0x21);
    const entries = [1, 2, 3].map((seq) => logEntryHash({ seq, role: "received", leafHash, state: "message" }));
    const joined = toHex(sha(Buffer.concat(entries.map((entry) => Buffer.from(entry)))));
    expect(toHex(logEntriesHash(entries))).toBe(joined);
    const viem = viemHashTypedData({
      domain: EIP712_DOMAIN,
      types: { LogStatement: [...EIP712_TYPES.LogStatement] },
      primaryType: "LogStatement",
      message: { head: toHex(head) as `0x${string}`, from: 4n, entries: joined as `0x${string}`, timestamp: 1_795_902_017_153n },
    });
    const at = 1_795_902_017_153;
    expect(toHex(logStatementDigest(head, 4, entries, at))).toBe(viem);
    expect(toHex(logStatementDigest(head, 4, entries, at, (data) => sha(typeof data === "string" ? data : Buffer.from(data))))).toBe(viem);
    expect(toHex(logStatementDigest(head, 5, entries, at))).not.toBe(viem);
    expect(toHex(logStatementDigest(head, 4, [entries[1]!, entries[0]!, entries[2]!], at))).not.toBe(viem);
    expect(toHex(logStatementDigest(new Uint8Array(32), 4, entries, at))).not.toBe(viem);
    expect(toHex(logStatementDigest(head, 4, entries, at + 1))).not.toBe(viem);
  });

  it("refuses what no page can say: a position 0, another role or state, hashes of the wrong length", () => {
    expect(() => logEntryHash({ seq: 0, role: "received", leafHash, state: "none" })).toThrow(RangeError);
    expect(() => logEntryHash({ seq: 1, role: "both" as never, leafHash, state: "none" })).toThrow(RangeError);
    expect(() => logEntryHash({ seq: 1, role: "sent", leafHash, state: "lost" as never })).toThrow(RangeError);
    expect(() => logEntryHash({ seq: 1, role: "sent", leafHash: "0x1234", state: "none" })).toThrow(RangeError);
    expect(() => logPositionStatement({ seq: 1, role: "sent", leafHash, removed: { reason: "gone" } as never }, true)).toThrow(RangeError);
  });
});
