// inbox and chat: a page of messages (or every page), newest first, as a table or as JSON.
import type { DecryptedMessage, MailboxProblem, MessagePages } from "@neutral/client";
import type { Io } from "./command.js";
import { escapeControls, jsonLine, messageJson, messageTable, UNVERIFIED } from "./format.js";

export interface ListOptions {
  json: boolean;
  /** Every page, not only the first. */
  all: boolean;
}

/**
 * The first page (or every page with `all`), newest first, as a table or as
 * `{"messages":[…],"end":…,"mailboxProblems":[…]}`. What the pages' proofs did not show (the
 * verifiable mailbox) marks its messages, and a problem of the node's head is said once, on stderr.
 */
export async function list(pages: MessagePages, options: ListOptions, io: Io): Promise<void> {
  const messages: DecryptedMessage[] = [];
  const problems: MailboxProblem[] = [];
  let end = true;
  for await (const page of pages) {
    messages.push(...page.messages);
    problems.push(...page.mailboxProblems);
    end = page.end;
    if (!options.all) break;
  }
  if (options.json) {
    io.out(jsonLine({ messages: messages.map(messageJson), end, mailboxProblems: problems }));
    return;
  }
  for (const problem of problems) {
    if (problem.id === undefined) io.note(`${UNVERIFIED} the node did not prove this mailbox: ${escapeControls(problem.message)}`);
  }
  if (messages.length === 0) {
    io.out("(no messages)");
    return;
  }
  io.out(messageTable(messages, problems).join("\n"));
  if (!end) io.note(`(older messages not shown: --all reads every page)`);
}
