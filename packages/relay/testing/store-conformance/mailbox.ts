// Appending a world of messages (each result checked against the spec) and reading mailboxes back through the store's own cursors.
import { expect } from "vitest";
import { messageJson, type AppendResult, type MessageStore, type Page } from "@neutral/relay";
import { hex } from "./data.js";
import { inboxRanges, type ModelMessage } from "./model.js";
import type { TestMessage } from "./data.js";

/** Appends `messages` in order, `breaks[i]` true meaning "wait for the earlier appends first"; checks each result. */
export async function appendWorld(
  store: MessageStore,
  messages: readonly TestMessage[],
  breaks: readonly boolean[] = [],
): Promise<ModelMessage[]> {
  const results: Promise<AppendResult>[] = [];
  for (let i = 0; i < messages.length; i++) {
    if (breaks[i]) await Promise.all(results);
    results.push(store.append(messages[i]!));
  }
  const settled = await Promise.all(results);

  const stored: ModelMessage[] = [];
  const byDigest = new Map<string, ModelMessage>();
  settled.forEach((result, i) => {
    const message = messages[i]!;
    const original = byDigest.get(hex(message.digest));
    if (original) {
      expect(result, `append #${i} resends #${stored.indexOf(original)}'s digest`).toEqual({ stored: { id: original.id, json: original.json }, created: false });
      return;
    }
    expect(result.created, `append #${i} is new`).toBe(true);
    const last = stored[stored.length - 1];
    if (last) expect(result.stored.id, `append #${i}'s id is greater than the previous one`).toBeGreaterThan(last.id);
    expect(Number.isSafeInteger(result.stored.id) && result.stored.id > 0, `id ${result.stored.id} is a positive safe integer`).toBe(true);
    expect(result.stored.json).toBe(messageJson(result.stored.id, message));
    const entry = { id: result.stored.id, json: result.stored.json, message };
    stored.push(entry);
    byDigest.set(hex(message.digest), entry);
  });
  return stored;
}

/** The ids of a page's messages, in their order. */
export const ids = (page: Page) => page.messages.map((m) => m.id);

/** The ids of stored messages, in their order. */
export const idsOf = (messages: readonly { id: number }[]): number[] => messages.map((message) => message.id);

/** Every message of `owner`'s mailbox (both sides, once each), oldest first, walked with the store's own cursors. */
export async function wholeMailbox(store: MessageStore, owner: string): Promise<Page["messages"]> {
  const all: Page["messages"] = [];
  let after = 0;
  for (;;) {
    const page = await store.page({ owner, ranges: inboxRanges(owner, "all"), after, order: "asc", limit: 100 });
    all.push(...page.messages);
    if (page.end) return all;
    after = page.messages[page.messages.length - 1]!.id;
  }
}
