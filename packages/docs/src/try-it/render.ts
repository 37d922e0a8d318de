// What a form shows of an answer: its status line, the note about a missing token, the body.
import { $, el } from "./dom.js";

/** Replaces what the form shows under it. */
export function output(form: HTMLFormElement, ...nodes: Node[]): void {
  $(".try-output", form)?.replaceChildren(...nodes);
}

/** "HTTP 200 OK" and `detail`, marked ok or failed. */
export const statusLine = (response: Response, detail: string) =>
  el("p", { className: `try-status ${response.ok ? "ok" : "failed"}`, text: `HTTP ${response.status} ${response.statusText}${detail}` });

export const noTokenNote = () => el("p", { className: "note", text: "No token was sent: sign in under Try it first." });

/** An answer's body: pretty-printed when it is JSON (`json` then holds it), else as it came. */
export function answerBody(text: string): { shown: string; json?: unknown } {
  try {
    const json = JSON.parse(text) as unknown;
    return { shown: JSON.stringify(json, null, 2), json };
  } catch {
    return { shown: text };
  }
}

export const responseBlock = (shown: string) => el("pre", {}, el("code", { className: "try-response", text: shown }));
