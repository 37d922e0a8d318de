// Sending a form's request (a method answered once, not as a stream) and showing the answer.
import { $, el } from "./dom.js";
import { answerBody, noTokenNote, output, responseBlock, statusLine } from "./render.js";
import { prepare } from "./request.js";
import { currentSession } from "./session.js";

export async function send(form: HTMLFormElement): Promise<void> {
  const prepared = prepare(form);
  if (!prepared) return;
  const { request, headers, needsToken } = prepared;
  const button = $<HTMLButtonElement>("button[type=submit]", form);
  if (button) button.disabled = true;
  output(form, el("p", { className: "note", text: "Sending…" }));
  const started = performance.now();
  try {
    const response = await fetch(new URL("/", location.origin), { method: "POST", headers, body: JSON.stringify(request) });
    const text = await response.text();
    const ms = Math.round(performance.now() - started);
    const { shown, json } = answerBody(text);
    const nodes: Node[] = [statusLine(response, ` · ${ms} ms`)];
    if (needsToken && !currentSession()) nodes.push(noTokenNote());
    if (json === undefined) nodes.push(el("p", { className: "try-error", text: "The answer is not JSON: is this page served by a neutralService relay?" }));
    nodes.push(responseBlock(shown));
    output(form, ...nodes);
  } catch (error) {
    output(form, el("p", { className: "try-error", text: `Could not reach the relay: ${(error as Error).message}` }));
  } finally {
    if (button) button.disabled = false;
  }
}
