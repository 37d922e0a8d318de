// The pure parts: escaping, the table's cells, the JSON line, the redaction, the error lines.
import { NeutralError, RpcError, RpcTransportError, type DecryptedMessage } from "@neutral/client";
import { describe, expect, it } from "vitest";
import { describeError, redactor, UsageError } from "./errors.js";
import { sentLine } from "./commands/send.js";
import { escapeControls, jsonLine, localTime, messageJson, messageRows, shortAddress, textLines } from "./format.js";

const message = (overrides: Partial<DecryptedMessage> = {}): DecryptedMessage => ({
  id: "42",
  from: "0x1111111111111111111111111111111111111111",
  to: "0x2222222222222222222222222222222222222222",
  direction: "received",
  timestamp: new Date(2026, 0, 2, 3, 4, 5).getTime(),
  text: "hello",
  status: "delivered",
  checks: { decrypted: true, signature: true, senderReceipt: true, receiverReceipt: true },
  verified: true,
  problems: [],
  raw: {} as DecryptedMessage["raw"],
  ...overrides,
});

describe("escapeControls", () => {
  it("makes every control character visible", () => {
    expect(escapeControls("a\u001b[31mb")).toBe("a\\x1b[31mb");
    expect(escapeControls("\u0000\u0007\u007f\u009b\r\n\t")).toBe("\\x00\\x07\\x7f\\x9b\\r\\n\\t");
    expect(escapeControls("\u202eevil\u2066\u2028")).toBe("\\u202eevil\\u2066\\u2028");
  });

  it("leaves printable text alone, emoji and other scripts included", () => {
    const text = "héllo, мир, 你好, 👨‍👩‍👧, عربى";
    expect(escapeControls(text)).toBe(text);
  });
});

describe("textLines", () => {
  it("keeps line breaks as lines, tabs as spaces, and escapes the rest", () => {
    expect(textLines("one\r\ntwo\n\tthree\rfour")).toEqual(["one", "two", "    three\\rfour"]);
  });
});

describe("cells", () => {
  it("shortens an address to 0x1234…abcd", () => {
    expect(shortAddress("0x1234567890abcdef1234567890abcdef1234abcd")).toBe("0x1234…abcd");
  });

  it("prints local time as YYYY-MM-DD HH:MM:SS", () => {
    expect(localTime(new Date(2026, 10, 21, 9, 8, 7).getTime())).toBe("2026-11-21 09:08:07");
    expect(localTime(Number.MAX_SAFE_INTEGER)).toBe("????-??-?? ??:??:??");
  });
});

describe("messageRows", () => {
  it("one row for a verified message", () => {
    expect(messageRows(message(), { id: 3 })).toEqual(["2026-01-02 03:04:05   42  ←  0x1111…1111  ✓  hello"]);
    expect(messageRows(message({ direction: "sent" }), { id: 2 })[0]).toContain("42  →  0x2222…2222  ✓  hello");
  });

  it("✗ and the problems under the text otherwise", () => {
    const rows = messageRows(message({ verified: false, text: undefined, problems: ["a \u001b[2J problem", "another"] }), { id: 2 });
    expect(rows[0]).toMatch(/✗ {2}\(could not decrypt\)$/);
    expect(rows[1]).toMatch(/^ {44}✗ not verified: a \\x1b\[2J problem; another$/);
  });
});

const PENDING_PROBLEM = "not delivered yet: the recipient's home node 0x3333333333333333333333333333333333333333 has not stored it (no receiver receipt so far)";
const pending = (overrides: Partial<DecryptedMessage> = {}) =>
  message({
    direction: "sent",
    status: "pending",
    verified: false,
    checks: { decrypted: true, signature: true, senderReceipt: true, receiverReceipt: false },
    problems: [PENDING_PROBLEM],
    ...overrides,
  });
const failed = (overrides: Partial<DecryptedMessage> = {}) =>
  pending({ status: "failed", reason: "refused by the recipient's node: \u001b[2J no", problems: ["delivery failed: refused by the recipient's node: \u001b[2J no"], ...overrides });

describe("the status of a message sent to another node", () => {
  it("pending: … and the word pending under the text, no ✗ for the missing receipt", () => {
    const rows = messageRows(pending(), { id: 2 });
    expect(rows[0]).toContain("42  →  0x2222…2222  …  hello");
    expect(rows.slice(1)).toEqual([`${" ".repeat(44)}… pending: not delivered to the recipient's node yet`]);
  });

  it("failed: ✗ and the reason, escaped", () => {
    const rows = messageRows(failed(), { id: 2 });
    expect(rows[0]).toContain("→  0x2222…2222  ✗  hello");
    expect(rows.slice(1)).toEqual([`${" ".repeat(44)}✗ failed: refused by the recipient's node: \\x1b[2J no`]);
  });

  it("a pending message that also fails a check says both", () => {
    const rows = messageRows(pending({ checks: { decrypted: true, signature: false, senderReceipt: true, receiverReceipt: false }, problems: ["the sender's signature does not match the message", PENDING_PROBLEM] }), { id: 2 });
    expect(rows[0]).toContain("  ✗  hello");
    expect(rows.slice(1).map((row) => row.trim())).toEqual(["… pending: not delivered to the recipient's node yet", "✗ not verified: the sender's signature does not match the message"]);
  });

  it("after send: ✓, pending, or failed: reason", () => {
    expect(sentLine(message({ direction: "sent" }))).toBe("sent message 42 to 0x2222222222222222222222222222222222222222 ✓");
    expect(sentLine(pending())).toBe("sent message 42 to 0x2222222222222222222222222222222222222222 pending: not delivered to the recipient's node yet");
    expect(sentLine(failed())).toBe("sent message 42 to 0x2222222222222222222222222222222222222222 failed: refused by the recipient's node: \\x1b[2J no");
    expect(sentLine(message({ verified: false, problems: ["bad"] }))).toBe("sent message 42 to 0x2222222222222222222222222222222222222222 ✗ not verified: bad");
  });

  it("--json: status always, reason only when failed", () => {
    expect(messageJson(message())).toMatchObject({ status: "delivered" });
    expect(messageJson(message())).not.toHaveProperty("reason");
    expect(messageJson(pending())).toMatchObject({ status: "pending", verified: false, problems: [PENDING_PROBLEM] });
    expect(messageJson(pending())).not.toHaveProperty("reason");
    expect(messageJson(failed())).toMatchObject({ status: "failed", reason: "refused by the recipient's node: \u001b[2J no" });
  });
});

describe("jsonLine and messageJson", () => {
  it("the stable shape, text null when it did not decrypt, no raw", () => {
    const json = JSON.parse(jsonLine(messageJson(message({ text: undefined }))));
    expect(Object.keys(json)).toEqual(["id", "from", "to", "direction", "timestamp", "text", "verified", "checks", "problems", "status"]);
    expect(json.text).toBeNull();
  });

  it("escapes what JSON.stringify leaves raw but a terminal acts on; parses back to the same text", () => {
    const text = "\u001b[31m \u009b \u202e \u2028 ok";
    const line = jsonLine({ text });
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u202e]/);
    expect(JSON.parse(line)).toEqual({ text });
  });
});

describe("redactor", () => {
  const key = "0xAbCd000000000000000000000000000000000000000000000000000000001234";
  it("blanks a key with or without 0x, in any case", () => {
    const redact = redactor([key]);
    const bare = key.slice(2);
    expect(redact(`a ${key} b ${bare.toLowerCase()} c ${bare.toUpperCase()}`)).toBe("a [redacted] b [redacted] c [redacted]");
  });

  it("ignores empty or short secrets", () => {
    expect(redactor(["", "0x"])("0x1234")).toBe("0x1234");
  });
});

describe("describeError", () => {
  it("usage errors exit 2 and point at --help", () => {
    expect(describeError(new UsageError("bad", "neutral send --help"))).toEqual({ code: 2, line: "bad (see neutral send --help)" });
  });

  it("SDK errors carry their code, node errors the JSON-RPC code and reason", () => {
    expect(describeError(new NeutralError("MESSAGE_TOO_LARGE", "too big")).line).toBe("too big (MESSAGE_TOO_LARGE)");
    expect(describeError(new RpcError(-32602, "Invalid params: limit must be <= 100", { field: "limit" }, 400)).line).toBe(
      "the node refused: Invalid params: limit must be <= 100 (-32602)",
    );
    expect(describeError(new RpcError(-32001, "Unauthorized", { reason: "token expired" }, 401)).line).toBe("the node refused: Unauthorized: token expired (-32001)");
    expect(describeError(new RpcError(-32001, "Unauthorized", { reason: "domain not accepted" }, 401)).line).toBe(
      "the node refused: Unauthorized: domain not accepted; use the host:port the node was started with in NEUTRAL_URL, or start the node with --domain (-32001)",
    );
  });

  it("one line, escaped, whatever the node sent", () => {
    const { line } = describeError(new RpcError(-32000, "multi\nline \u001b[2J"));
    expect(line).toBe("the node refused: multi line \\x1b[2J (-32000)");
  });

  it("a node that does not answer JSON-RPC", () => {
    expect(describeError(new RpcTransportError("Expected a JSON-RPC response from http://x, got HTTP 502", 502), { url: "http://x" }).line).toBe(
      "the node at http://x did not answer JSON-RPC: Expected a JSON-RPC response from http://x, got HTTP 502",
    );
  });
});
