import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Secp256k1 } from "./crypto/secp256k1.js";

export const NODE_KEY_FILE = "node.key";

export interface NodeKey {
  privateKey: Uint8Array;
  address: string;
  /** Where the key came from, for the start-up log (never the key itself). */
  source: "configured" | "generated" | "key file" | "database";
}

const KEY = /^0x[0-9a-fA-F]{64}$/;

/**
 * The node's signing key: the configured one, else DATA_DIR/node.key, else a new random key
 * written there (mode 0600, created exclusively so two starting processes cannot both write one).
 */
export function loadNodeKey(dataDir: string, curve: Secp256k1, configured?: string): NodeKey {
  const withAddress = (hex: string, source: NodeKey["source"]): NodeKey => {
    const privateKey = Buffer.from(hex.slice(2), "hex");
    try {
      return { privateKey, address: curve.addressOf(privateKey), source };
    } catch {
      throw new Error(`the ${source === "configured" ? "configured node key" : `key in ${path.join(dataDir, NODE_KEY_FILE)}`} is not a valid secp256k1 private key`);
    }
  };
  if (configured !== undefined) return withAddress(configured, "configured");

  const file = path.join(dataDir, NODE_KEY_FILE);
  mkdirSync(dataDir, { recursive: true });
  for (;;) {
    try {
      const text = readFileSync(file, "utf8").trim();
      if (!KEY.test(text)) throw new Error(`${file} does not hold a 0x + 64 hex private key`);
      return withAddress(text, "key file");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const hex = `0x${Buffer.from(generateNodeKey(curve)).toString("hex")}`;
    try {
      writeFileSync(file, `${hex}\n`, { mode: 0o600, flag: "wx" });
      return withAddress(hex, "generated");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // Another process created it first: read theirs.
    }
  }
}

/** A new random private key that is valid on the curve. */
export function generateNodeKey(curve: Secp256k1): Uint8Array {
  for (;;) {
    const key = randomBytes(32);
    try {
      curve.addressOf(key);
      return new Uint8Array(key);
    } catch {
      // out of range (probability ~2^-128): draw again
    }
  }
}
