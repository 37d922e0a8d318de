import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSseParser, readSse, type SseEvent } from "./sse.js";

/** Every event of `pieces`, fed in that order to one parser; the comments it saw. */
function parse(...pieces: string[]): { events: SseEvent[]; comments: string[] } {
  const comments: string[] = [];
  const parser = createSseParser({ onComment: (text) => comments.push(text) });
  return { events: pieces.flatMap((piece) => parser.push(piece)), comments };
}

/** `text` cut at `cuts` (positions, any order, duplicates allowed). */
const cut = (text: string, cuts: readonly number[]) => {
  const at = [0, ...[...cuts].sort((a, b) => a - b), text.length];
  return at.slice(1).map((end, i) => text.slice(at[i], end));
};

const STREAM =
  ": keep-alive\r\n" +
  "id: 7\r\n" +
  'data: {"method":"neutralService_message"}\r\n' +
  "\r\n" +
  "event: status\n" +
  "data: first line\n" +
  "data:second line\n" +
  "data\n" +
  "\n" +
  "id\r" +
  "data:  two spaces\r" +
  "\r" +
  ":\n" +
  "retry: 1000\n" +
  "unknown: field\n" +
  "data: last\n" +
  "\n";

const EXPECTED: SseEvent[] = [
  { id: "7", data: '{"method":"neutralService_message"}' },
  { event: "status", data: "first line\nsecond line\n" },
  { id: "", data: " two spaces" },
  { data: "last" },
];

describe("createSseParser", () => {
  it("reads a stream with every kind of line end, fields, comments and multi-line data", () => {
    expect(parse(STREAM)).toEqual({ events: EXPECTED, comments: [" keep-alive", ""] });
  });

  it("gives the same events wherever the text is cut, inside a CRLF included", () => {
    // Every single cut, then random sets of cuts.
    for (let i = 0; i <= STREAM.length; i++) expect(parse(STREAM.slice(0, i), STREAM.slice(i)).events, `cut at ${i}`).toEqual(EXPECTED);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: STREAM.length }), { maxLength: 40 }), (cuts) => {
        expect(parse(...cut(STREAM, cuts)).events).toEqual(EXPECTED);
      }),
    );
  });

  it("reads a CRLF split across two pieces as one line end, not as an empty line", () => {
    expect(parse("data: a\r", "\ndata: b\r\n", "\r\n").events).toEqual([{ data: "a\nb" }]);
    // A CR alone then a blank line: the event is dispatched at once, without waiting for the next piece.
    expect(parse("data: a\r\r").events).toEqual([{ data: "a" }]);
    expect(parse("data: a\r", "\r", "\ndata: b\n\n").events).toEqual([{ data: "a" }, { data: "b" }]);
  });

  it("dispatches nothing for an event the stream ends before its blank line", () => {
    expect(parse("data: done\n\ndata: cut off\n").events).toEqual([{ data: "done" }]);
    expect(parse("data: no line end at all").events).toEqual([]);
  });

  it("dispatches no event without data, and does not carry a field into the next event", () => {
    expect(parse("id: 1\nevent: ping\n\ndata: x\n\n").events).toEqual([{ data: "x" }]);
    expect(parse(": only a comment\n\n").events).toEqual([]);
  });

  it("keeps an empty data line, and ignores an id with NUL", () => {
    expect(parse("data:\n\n").events).toEqual([{ data: "" }]);
    expect(parse("data\ndata\n\n").events).toEqual([{ data: "\n" }]);
    expect(parse("id: a\0b\ndata: x\n\n").events).toEqual([{ data: "x" }]);
  });

  it("drops a byte order mark at the start only", () => {
    expect(parse("\uFEFFdata: a\n\n", "\uFEFFdata: b\n\n").events).toEqual([{ data: "a" }]);
  });

  it("keeps colons after the first in the value", () => {
    expect(parse("data: a: b:c\n\n").events).toEqual([{ data: "a: b:c" }]);
  });
});

describe("readSse", () => {
  const body = (chunks: readonly Uint8Array[], onCancel?: () => void) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
      cancel: onCancel,
    });

  it("decodes UTF-8 cut inside a character and yields each event", async () => {
    const bytes = new TextEncoder().encode("data: é→😀\r\n\r\nid: 2\ndata: b\n\n");
    const chunks = Array.from(bytes, (byte) => Uint8Array.of(byte)); // one byte at a time
    let seen = 0;
    const events: SseEvent[] = [];
    for await (const event of readSse(body(chunks), { onChunk: () => seen++ })) events.push(event);
    expect(events).toEqual([{ data: "é→😀" }, { id: "2", data: "b" }]);
    expect(seen).toBe(bytes.length);
  });

  it("cancels the body when the iteration stops early", async () => {
    let cancelled = false;
    const open = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode("data: 1\n\n")),
      cancel: () => {
        cancelled = true;
      },
    });
    for await (const event of readSse(open)) {
      expect(event).toEqual({ data: "1" });
      break;
    }
    expect(cancelled).toBe(true);
  });
});
