import { randomFillSync } from "node:crypto";

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
