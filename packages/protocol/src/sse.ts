// Server-Sent Events (the WHATWG `text/event-stream` format, HTML §9.2.6), read incrementally: the
// one parser of the client side (the typed client's streams, which @neutral/client re-exports, and
// the docs site's Try it).
// The `retry` field is ignored: reconnecting is the caller's business.

/** One dispatched event. */
export interface SseEvent {
  /** The `event` field, when the event had a non-empty one (EventSource would call it "message" otherwise). */
  event?: string;
  /** The `data` lines, joined with "\n". */
  data: string;
  /** The `id` field, when this event had one (an `id` containing NUL is ignored, as the standard says). */
  id?: string;
}

export interface SseParserOptions {
  /** Called with each comment line's text after the `:` (a node's keep-alives are comments). */
  onComment?: (text: string) => void;
}

export interface SseParser {
  /**
   * Feeds the next piece of the decoded text, cut anywhere (inside a line, between CR and LF), and
   * returns the events it completed. An event is dispatched by the blank line after it: one the
   * stream ends before is never returned.
   */
  push(text: string): SseEvent[];
}

const LINE_END = /\r\n|\r|\n/g;

export function createSseParser(options: SseParserOptions = {}): SseParser {
  /** The line read so far, without its end. */
  let line = "";
  /** The last piece ended in CR: a LF starting the next one ends the same line. */
  let afterCr = false;
  let started = false;
  let data: string[] = [];
  let event = "";
  let id: string | undefined;

  const take = (text: string, events: SseEvent[]) => {
    if (text === "") {
      if (data.length > 0) events.push({ ...(event && { event }), data: data.join("\n"), ...(id !== undefined && { id }) });
      data = [];
      event = "";
      id = undefined;
      return;
    }
    if (text[0] === ":") return options.onComment?.(text.slice(1));
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? "" : text.slice(colon + (text[colon + 1] === " " ? 2 : 1));
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
  };

  return {
    push(text) {
      const events: SseEvent[] = [];
      if (text === "") return events;
      if (!started) {
        started = true;
        if (text[0] === "\uFEFF") text = text.slice(1); // a byte order mark the decoder left
      }
      if (afterCr && text[0] === "\n") text = text.slice(1);
      let at = 0;
      for (const end of text.matchAll(LINE_END)) {
        take(line + text.slice(at, end.index), events);
        line = "";
        at = end.index + end[0].length;
      }
      line += text.slice(at);
      afterCr = text.endsWith("\r");
      return events;
    },
  };
}

export interface ReadSseOptions extends SseParserOptions {
  /** Called for every chunk of the body as it arrives, before it is parsed (e.g. to reset an idle timer). */
  onChunk?: () => void;
}

/**
 * The events of a `text/event-stream` body, as they arrive, UTF-8 decoded. Ends with the body;
 * stopping the iteration (break, return, throw) cancels the body.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, options: ReadSseOptions = {}): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser(options);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      options.onChunk?.();
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
