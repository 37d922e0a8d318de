import type { DispatchResult } from "./dispatcher.js";
import type { JsonRpcResponse } from "./errors.js";

/**
 * A handler result that is already serialized JSON. A server that keeps its records in wire form
 * (e.g. a message store) returns `rawJson(text)` and the text is spliced into the response as is,
 * instead of being parsed and stringified again. `T` records what the text encodes, so a handler
 * still type-checks against the spec. `toJSON` keeps plain `JSON.stringify` correct, only slower.
 */
export class RawJson<T = unknown> {
  declare readonly encodes?: T;
  constructor(readonly json: string) {}
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

export const rawJson = <T>(json: string): RawJson<T> => new RawJson<T>(json);

/** What a handler may return for a result of type `T`. */
export type Reply<T> = T | RawJson<T> | Promise<T | RawJson<T>>;

function stringifyOne(response: JsonRpcResponse): string {
  if ("result" in response && response.result instanceof RawJson) {
    return `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":${response.result.json}}`;
  }
  return JSON.stringify(response);
}

/** The response text for a dispatch result (which must not be `undefined`), splicing in `RawJson` results. */
export function stringifyDispatchResult(result: Exclude<DispatchResult, undefined>): string {
  return Array.isArray(result) ? `[${result.map(stringifyOne).join(",")}]` : stringifyOne(result);
}
