// inbox and chat: a page of messages (or every page), newest first, as a table or as JSON.
import type { DecryptedMessage, MessagePages } from "@neutral/client";
import type { Io } from "./command.js";
import { jsonLine, messageJson, messageTable } from "./format.js";

export interface ListOptions {
  json: boolean;
  /** Every page, not only the first. */
  all: boolean;
}

/** The first page (or every page with `all`), newest first, as a table or as `{"messages":[…],"end":…}`. */
export async function list(pages: MessagePages, options: ListOptions, io: Io): Promise<void> {
  const messages: DecryptedMessage[] = [];
  let end = true;
  for await (const page of pages) {
    messages.push(...page.messages);
    end = page.end;
    if (!options.all) break;
  }
  if (options.json) {
    io.out(jsonLine({ messages: messages.map(messageJson), end }));
    return;
  }
  if (messages.length === 0) {
    io.out("(no messages)");
    return;
  }
  io.out(messageTable(messages).join("\n"));
  if (!end) io.note(`(older messages not shown: --all reads every page)`);
}
