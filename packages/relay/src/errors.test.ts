import { describe, expect, it } from "vitest";
import { errorFromWire, errorToWire, isRelayError, PrimaryGoneError, RelayError, SchemaTooNewError, StoreClosedError, WriterStoppedError, type RelayErrorCode } from "./errors.js";

describe("the relay's infrastructure errors", () => {
  it("each has its class, name and stable code, and is a RelayError", () => {
    const cases: [RelayError, string, RelayErrorCode][] = [
      [new StoreClosedError(), "StoreClosedError", "STORE_CLOSED"],
      [new WriterStoppedError(), "WriterStoppedError", "WRITER_STOPPED"],
      [new PrimaryGoneError(), "PrimaryGoneError", "PRIMARY_GONE"],
      [new SchemaTooNewError("relay.db", 9, 5), "SchemaTooNewError", "SCHEMA_TOO_NEW"],
    ];
    for (const [error, name, code] of cases) {
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(RelayError);
      expect(error.name).toBe(name);
      expect(error.code).toBe(code);
      expect(isRelayError(error)).toBe(true);
      expect(String(error)).toMatch(new RegExp(`^${name}: `));
    }
    expect(new SchemaTooNewError("relay.db", 9, 5)).toMatchObject({ where: "relay.db", version: 9, supported: 5, message: "relay.db has schema version 9, newer than this relay's 5; upgrade the relay" });
  });

  it("isRelayError narrows by code and refuses look-alikes", () => {
    const error: unknown = new StoreClosedError();
    if (!isRelayError(error)) throw new Error("not narrowed");
    switch (error.code) {
      case "STORE_CLOSED":
        break;
      default:
        throw new Error(`unexpected ${error.code}`);
    }
    expect(isRelayError(Object.assign(new Error("store is closed"), { code: "STORE_CLOSED" }))).toBe(false);
    expect(isRelayError(new Error("store is closed"))).toBe(false);
    expect(isRelayError(undefined)).toBe(false);
  });

  it("cross a thread or process boundary as message and code, and come back as their class", () => {
    for (const error of [new StoreClosedError(), new WriterStoppedError("stopping"), new PrimaryGoneError("could not hand the appends over")]) {
      const wire = errorToWire(error);
      expect(wire).toEqual({ message: error.message, code: error.code });
      const back = errorFromWire(structuredClone(wire));
      expect(back).toBeInstanceOf(error.constructor);
      expect(back.message).toBe(error.message);
    }
    // A driver error keeps its own code (SQLite's), as a plain Error.
    const busy = errorFromWire(errorToWire(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" })));
    expect(busy).not.toBeInstanceOf(RelayError);
    expect(busy).toMatchObject({ message: "database is locked", code: "SQLITE_BUSY" });
    expect(errorToWire("a string")).toEqual({ message: "a string" });
  });
});
