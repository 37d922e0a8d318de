// A form's JSON-RPC request: its fields' values, by position or by name as the method takes them,
// and the headers it is sent with.
import { $$, el, OFFLINE, served } from "./dom.js";
import { output } from "./render.js";
import { currentSession } from "./session.js";

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The value a field stands for: undefined when empty (the param is absent). Throws a readable error. */
function valueOf(field: Field): unknown {
  const text = field.value.trim();
  if (text === "") return undefined;
  switch (field.dataset.kind) {
    case "number": {
      const number = Number(text);
      if (!Number.isFinite(number)) throw new Error(`${field.name}: not a number`);
      return number;
    }
    case "boolean":
      return text === "true";
    case "json":
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new Error(`${field.name}: not valid JSON`);
      }
    default:
      return text;
  }
}

/**
 * The JSON-RPC request of a form. By position (as the examples are written): trailing absent params
 * dropped, absent ones before a given one sent as null. By name when the method takes only names.
 */
export function buildRequest(form: HTMLFormElement): { jsonrpc: "2.0"; id: number; method: string; params: unknown[] | Record<string, unknown> } {
  const fields = $$<Field>("[data-kind]", form);
  const values = fields.map((field) => [field.name, valueOf(field)] as const);
  const method = form.dataset.method!;
  if (form.dataset.structure === "by-name") {
    return { jsonrpc: "2.0", id: 1, method, params: Object.fromEntries(values.filter(([, v]) => v !== undefined)) };
  }
  const params = values.map(([, v]) => v);
  while (params.length > 0 && params[params.length - 1] === undefined) params.pop();
  return { jsonrpc: "2.0", id: 1, method, params: params.map((v) => (v === undefined ? null : v)) };
}

export function fill(form: HTMLFormElement, params: Record<string, unknown>): void {
  for (const field of $$<Field>("[data-kind]", form)) {
    const value = params[field.name];
    field.value = value === undefined ? "" : field.dataset.kind === "json" ? JSON.stringify(value, null, 2) : String(value);
  }
}

/**
 * The form's request and its headers (the session's token when the method needs one), or undefined
 * once the form shows why it cannot be sent (the page is not served by a relay, a param is bad).
 */
export function prepare(form: HTMLFormElement, accept?: string): { request: ReturnType<typeof buildRequest>; headers: Record<string, string>; needsToken: boolean } | undefined {
  if (!served) {
    output(form, el("p", { className: "try-error", text: OFFLINE }));
    return undefined;
  }
  let request;
  try {
    request = buildRequest(form);
  } catch (error) {
    output(form, el("p", { className: "try-error", text: (error as Error).message }));
    return undefined;
  }
  const needsToken = form.dataset.auth === "true";
  const headers: Record<string, string> = { "content-type": "application/json", ...(accept && { accept }) };
  const session = currentSession();
  if (needsToken && session) headers.authorization = `Bearer ${session.token}`;
  return { request, headers, needsToken };
}
