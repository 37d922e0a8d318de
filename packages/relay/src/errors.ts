// The relay's infrastructure errors: what its storage and plumbing throw, as opposed to the
// JSON-RPC errors a client is answered (`RpcError`, from @neutral/server). Each has a stable `code`
// (and its own class): branch on those, never on the wording of the message, which may change.

/** The `code` of every {@link RelayError}. */
export type RelayErrorCode = RelayInfrastructureError["code"];

/** The base of the relay's infrastructure errors (viem's `BaseError` pattern): a `name` and a stable `code`. */
export abstract class RelayError extends Error {
  abstract override readonly name: string;
  abstract readonly code: string;
}

/** The store was closed: it takes no more appends, reads or key bundles. */
export class StoreClosedError extends RelayError {
  override readonly name = "StoreClosedError";
  readonly code = "STORE_CLOSED";
  constructor(message = "store is closed") {
    super(message);
  }
}

/**
 * The SQLite writer (a thread of the store's own) stopped before it answered: the appends it had
 * been handed were not acknowledged (and may or may not be stored: a resend finds out).
 */
export class WriterStoppedError extends RelayError {
  override readonly name = "WriterStoppedError";
  readonly code = "WRITER_STOPPED";
  constructor(message = "the SQLite writer thread stopped") {
    super(message);
  }
}

/**
 * A cluster worker's appends could not reach the primary process that commits them (it is gone, or
 * the IPC channel failed): not acknowledged.
 */
export class PrimaryGoneError extends RelayError {
  override readonly name = "PrimaryGoneError";
  readonly code = "PRIMARY_GONE";
  constructor(message = "the primary process is gone") {
    super(message);
  }
}

/** The database was written by a newer relay (a higher schema version than this one knows): upgrade the relay. */
export class SchemaTooNewError extends RelayError {
  override readonly name = "SchemaTooNewError";
  readonly code = "SCHEMA_TOO_NEW";
  constructor(
    /** What holds it: a file name, or "the database". */
    readonly where: string,
    readonly version: number,
    readonly supported: number,
  ) {
    super(`${where} has schema version ${version}, newer than this relay's ${supported}; upgrade the relay`);
  }
}

/** Every infrastructure error the relay throws, discriminated by `code`. */
export type RelayInfrastructureError = StoreClosedError | WriterStoppedError | PrimaryGoneError | SchemaTooNewError;

const CODES: ReadonlySet<string> = new Set(["STORE_CLOSED", "WRITER_STOPPED", "PRIMARY_GONE", "SCHEMA_TOO_NEW"] satisfies RelayErrorCode[]);

/** Whether `error` is one of the relay's infrastructure errors (narrowed by `code` from there). */
export function isRelayError(error: unknown): error is RelayInfrastructureError {
  return error instanceof RelayError && CODES.has(error.code);
}

/** An error as it crosses a thread or process boundary (structured clone keeps no class). */
export interface WireErrorInfo {
  message: string;
  code?: string;
}

/** What to send across: the message and, when it has a string one, the code (a relay code, or SQLite's `SQLITE_…`). */
export function errorToWire(error: unknown): WireErrorInfo {
  const code = (error as { code?: unknown } | null)?.code;
  return { message: error instanceof Error ? error.message : String(error), ...(typeof code === "string" && { code }) };
}

/** The error again on this side: the relay's own class for its codes, else an `Error` with the `code`. */
export function errorFromWire(wire: WireErrorInfo): Error {
  switch (wire.code) {
    case "STORE_CLOSED":
      return new StoreClosedError(wire.message);
    case "WRITER_STOPPED":
      return new WriterStoppedError(wire.message);
    case "PRIMARY_GONE":
      return new PrimaryGoneError(wire.message);
    default:
      return Object.assign(new Error(wire.message), wire.code === undefined ? {} : { code: wire.code });
  }
}
