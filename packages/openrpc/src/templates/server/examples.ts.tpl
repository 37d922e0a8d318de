// <%= header %>
//
// The document's example pairings, `$ref`s followed: for tests that replay them against a server
// (the scaffold's examples test), and for handlers that answer examples while being written.

export interface ExamplePairing {
  /** The method the example calls. */
  readonly method: string;
  readonly name: string;
  /** How the method takes params: "by-position", "by-name" or "either". */
  readonly paramStructure: "by-position" | "by-name" | "either";
  /** In the method's declared order, as the example lists them. */
  readonly params: readonly { readonly name: string; readonly value: unknown }[];
  /** The result the example expects; absent for a notification (no answer) or an example without one. */
  readonly result?: { readonly value: unknown };
  /** The method answers an event stream (`x-subscription`), not one JSON result. */
  readonly stream: boolean;
  /** The method is a notification (no `result`): it is sent without an id and answered with nothing. */
  readonly notification: boolean;
  /** A stream's example: the events it opens with (`x-events`), in order, each with its SSE `id` when it has one. */
  readonly events?: readonly { readonly id?: string; readonly method: string; readonly params: unknown }[];
}

export const examples: readonly ExamplePairing[] = <%= JSON.stringify(model.methods.flatMap(function (m) {
  return m.examples.map(function (ex, i) {
    var pairing = { method: m.name, name: ex.name || ("example " + (i + 1)), paramStructure: m.paramStructure, params: (ex.params || []).map(function (p) { return { name: p.name, value: p.value }; }) };
    if (ex.result && Object.prototype.hasOwnProperty.call(ex.result, "value")) pairing.result = { value: ex.result.value };
    pairing.stream = Boolean(m.subscription);
    pairing.notification = m.notification;
    if (Array.isArray(ex["x-events"])) pairing.events = ex["x-events"];
    return pairing;
  });
}), null, 2) %>;
