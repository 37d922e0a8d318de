import { randomFillSync } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { RequestContext, RequestHook } from "@neutral/server";

// A request id names one request in the logs and in the `x-request-id` header, and must say nothing
// else: not which process served it, nor how many requests came before (issue 19, finding 11).
// 96 random bits from the CSPRNG, drawn 4 KiB at a time so that an id costs one slice.

const ID_BYTES = 12;
const pool = Buffer.alloc(ID_BYTES * 341);
let offset = pool.length;

/** A new opaque request id: 16 base64url characters. */
export function newRequestId(): string {
  if (offset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString("base64url", offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
}

/** What the request-id hook notes of a request: its id, and when it arrived (`performance.now()`). */
export interface RequestMark {
  id: string;
  start: number;
}

const marks = new WeakMap<IncomingMessage, RequestMark>();

/**
 * The HTTP stub's `onRequest` hook naming every request (JSON-RPC or not): a new id in the
 * `x-request-id` response header, noted with the arrival time for the access log ({@link requestMark}).
 */
export function requestIdHook<Ctx extends RequestContext>(): RequestHook<Ctx> {
  return ({ request, response }) => {
    const id = newRequestId();
    marks.set(request, { id, start: performance.now() });
    response.setHeader("x-request-id", id);
  };
}

/** The id and arrival time {@link requestIdHook} gave a request, if it saw it. */
export const requestMark = (request: IncomingMessage): RequestMark | undefined => marks.get(request);
