import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { loadSecp256k1 } from "./crypto/secp256k1.js";
import { loadNodeKey, NODE_KEY_FILE } from "./node-key.js";
import { TEST_KEYS } from "../test/wallets.js";

const curve = loadSecp256k1();
const root = mkdtempSync(path.join(os.tmpdir(), "neutral-node-key-"));
let dirs = 0;
const freshDir = () => path.join(root, `d${++dirs}`, "nested");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const hexOf = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}` as const;

function errorOf(fn: () => unknown): Error {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "expected an error").toBeInstanceOf(Error);
  return thrown as Error;
}

describe("loadNodeKey", () => {
  it("generates a key on first call: a key file of mode 0600 in a (new) data dir, with a valid address", () => {
    const dir = freshDir();
    const key = loadNodeKey(dir, curve);
    expect(key.source).toBe("generated");
    expect(key.privateKey).toHaveLength(32);
    expect(key.address).toMatch(/^0x[0-9a-f]{40}$/);
    // viem, independently, derives the same address from the key.
    expect(privateKeyToAccount(hexOf(key.privateKey)).address.toLowerCase()).toBe(key.address);
    const file = path.join(dir, NODE_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").trim()).toBe(hexOf(key.privateKey));
  });

  it("returns the same key on the next call, from the key file", () => {
    const dir = freshDir();
    const first = loadNodeKey(dir, curve);
    const second = loadNodeKey(dir, curve);
    expect(second.source).toBe("key file");
    expect(second.address).toBe(first.address);
    expect(hexOf(second.privateKey)).toBe(hexOf(first.privateKey));
    expect(statSync(path.join(dir, NODE_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it("generates a different key in another data dir", () => {
    expect(loadNodeKey(freshDir(), curve).address).not.toBe(loadNodeKey(freshDir(), curve).address);
  });

  it("uses a configured key and writes nothing", () => {
    const dir = freshDir();
    const key = loadNodeKey(dir, curve, TEST_KEYS.node);
    expect(key.source).toBe("configured");
    expect(key.address).toBe(privateKeyToAccount(TEST_KEYS.node).address.toLowerCase());
    expect(key.address).toBe("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
    expect(hexOf(key.privateKey)).toBe(TEST_KEYS.node);
    expect(existsSync(path.join(dir, NODE_KEY_FILE))).toBe(false);
  });

  it("a configured key wins over the key file, which is left alone", () => {
    const dir = freshDir();
    const generated = loadNodeKey(dir, curve);
    const file = path.join(dir, NODE_KEY_FILE);
    const before = readFileSync(file, "utf8");
    const configured = loadNodeKey(dir, curve, TEST_KEYS.alice);
    expect(configured.source).toBe("configured");
    expect(configured.address).not.toBe(generated.address);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("accepts a key file with upper-case hex and surrounding whitespace", () => {
    const dir = freshDir();
    loadNodeKey(dir, curve); // creates the dir
    writeFileSync(path.join(dir, NODE_KEY_FILE), `  0x${TEST_KEYS.bob.slice(2).toUpperCase()}\n\n`, { mode: 0o600 });
    const key = loadNodeKey(dir, curve);
    expect(key.source).toBe("key file");
    expect(key.address).toBe(privateKeyToAccount(TEST_KEYS.bob).address.toLowerCase());
  });

  const SECRET = "c0ffee5ecret1234";
  it.each([
    ["not hex at all", `this is not a key ${SECRET}`],
    ["too short", `0x${SECRET}`],
    ["too long", `0x${SECRET.repeat(4)}00`],
    ["no 0x", `${SECRET.repeat(4)}`],
    ["zero: not a secp256k1 key", `0x${"0".repeat(48)}${SECRET}`.replace(SECRET, "0".repeat(16))],
    ["above the curve order", `0x${"f".repeat(48)}${SECRET.replace(/[^0-9a-f]/g, "f")}`],
    ["empty", ""],
  ])("a corrupt key file (%s) is a clear error that does not show the file's content", (_name, content) => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, NODE_KEY_FILE);
    writeFileSync(file, content, { mode: 0o600 });
    const error = errorOf(() => loadNodeKey(dir, curve));
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/key/);
    const body = content.replace(/^0x/, "");
    if (body.length >= 8) {
      for (let i = 0; i + 8 <= body.length; i += 4) expect(error.message).not.toContain(body.slice(i, i + 8));
    }
    expect(readFileSync(file, "utf8")).toBe(content); // never overwritten
  });

  it("an invalid configured key is a clear error that does not show the key", () => {
    const zero = `0x${"0".repeat(64)}`;
    const order = "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
    for (const key of [zero, order]) {
      const error = errorOf(() => loadNodeKey(freshDir(), curve, key));
      expect(error.message).toMatch(/configured node key/);
      expect(error.message).not.toContain(key.slice(2, 18));
      expect(error.message).not.toContain(key.slice(-16));
    }
  });
});
