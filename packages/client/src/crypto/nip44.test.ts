// NIP-44 v2 against the official vectors (copied under test/vectors, sha256-pinned) plus properties.
import { readFileSync } from "node:fs";
import { chacha20 } from "@noble/ciphers/chacha.js";
import { schnorr } from "@noble/curves/secp256k1.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, randomBytes } from "@noble/hashes/utils.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  base64Decode,
  base64Encode,
  calcPaddedLength,
  decrypt,
  decryptHex,
  decryptPayload,
  encrypt,
  encryptHex,
  encryptPayload,
  getConversationKey,
  getMessageKeys,
  MAX_PAYLOAD_BYTES,
  MAX_PLAINTEXT_BYTES,
  MIN_PAYLOAD_BYTES,
  Nip44Error,
  NIP44_VERSION,
  payloadLength,
  plaintextByteLength,
} from "./nip44.js";

const VECTORS_SHA256 = "269ed0f69e4c192512cc779e78c555090cebc7c785b609e338a62afc3ce25040";

interface Vectors {
  v2: {
    valid: {
      get_conversation_key: { sec1: string; pub2: string; conversation_key: string }[];
      get_message_keys: {
        conversation_key: string;
        keys: { nonce: string; chacha_key: string; chacha_nonce: string; hmac_key: string }[];
      };
      calc_padded_len: [number, number][];
      encrypt_decrypt: { sec1: string; sec2: string; conversation_key: string; nonce: string; plaintext: string; payload: string }[];
      encrypt_decrypt_long_msg: {
        conversation_key: string;
        nonce: string;
        pattern: string;
        repeat: number;
        plaintext_sha256: string;
        payload_sha256: string;
      }[];
    };
    invalid: {
      encrypt_msg_lengths: number[];
      get_conversation_key: { sec1: string; pub2: string; note: string }[];
      decrypt: { conversation_key: string; nonce: string; plaintext: string; payload: string; note: string }[];
    };
  };
}

function loadVectors(): Vectors {
  const raw = readFileSync(new URL("../../test/vectors/nip44.vectors.json", import.meta.url));
  const digest = bytesToHex(sha256(new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength)));
  if (digest !== VECTORS_SHA256) throw new Error(`nip44.vectors.json sha256 mismatch: ${digest}`);
  const parsed: unknown = JSON.parse(raw.toString("utf8"));
  return parsed as Vectors;
}

const vectors = loadVectors();
const valid = vectors.v2.valid;
const invalid = vectors.v2.invalid;
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Runs `fn` and returns the Nip44Error it throws; fails the test if it returns or throws something else. */
function nip44Error(fn: () => unknown): Nip44Error {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(Nip44Error);
    return e as Nip44Error;
  }
  throw new Error("expected a Nip44Error, nothing was thrown");
}

describe("vector file", () => {
  it("is the pinned copy and has every group populated", () => {
    // sha256 is checked in loadVectors(); these counts are of that exact file.
    expect(valid.get_conversation_key).toHaveLength(35);
    expect(valid.get_message_keys.keys).toHaveLength(32);
    expect(valid.calc_padded_len).toHaveLength(24);
    expect(valid.encrypt_decrypt).toHaveLength(10);
    expect(valid.encrypt_decrypt_long_msg).toHaveLength(3);
    expect(invalid.encrypt_msg_lengths).toHaveLength(4);
    expect(invalid.get_conversation_key).toHaveLength(8);
    expect(invalid.decrypt).toHaveLength(12);
  });
});

describe("NIP-44 v2 valid vectors", () => {
  it("get_conversation_key", () => {
    let ran = 0;
    for (const v of valid.get_conversation_key) {
      expect(bytesToHex(getConversationKey(hexToBytes(v.sec1), hexToBytes(v.pub2)))).toBe(v.conversation_key);
      ran++;
    }
    expect(ran).toBe(valid.get_conversation_key.length);
  });

  it("get_message_keys", () => {
    const ck = hexToBytes(valid.get_message_keys.conversation_key);
    let ran = 0;
    for (const v of valid.get_message_keys.keys) {
      const keys = getMessageKeys(ck, hexToBytes(v.nonce));
      expect(keys.chachaKey).toHaveLength(32);
      expect(keys.chachaNonce).toHaveLength(12);
      expect(keys.hmacKey).toHaveLength(32);
      expect(bytesToHex(keys.chachaKey)).toBe(v.chacha_key);
      expect(bytesToHex(keys.chachaNonce)).toBe(v.chacha_nonce);
      expect(bytesToHex(keys.hmacKey)).toBe(v.hmac_key);
      ran++;
    }
    expect(ran).toBe(valid.get_message_keys.keys.length);
  });

  it("calc_padded_len", () => {
    let ran = 0;
    for (const [len, padded] of valid.calc_padded_len) {
      expect(calcPaddedLength(len), `len ${len}`).toBe(padded);
      ran++;
    }
    expect(ran).toBe(valid.calc_padded_len.length);
  });

  it("encrypt_decrypt: both-sided conversation key, exact payload, plaintext back (base64, bytes, hex)", () => {
    let ran = 0;
    for (const v of valid.encrypt_decrypt) {
      const sec1 = hexToBytes(v.sec1);
      const sec2 = hexToBytes(v.sec2);
      const ck12 = getConversationKey(sec1, schnorr.getPublicKey(sec2));
      const ck21 = getConversationKey(sec2, schnorr.getPublicKey(sec1));
      expect(bytesToHex(ck12)).toBe(v.conversation_key);
      expect(bytesToHex(ck21)).toBe(v.conversation_key);

      const nonce = hexToBytes(v.nonce);
      const payload = encrypt(v.plaintext, ck12, nonce);
      expect(payload).toBe(v.payload);
      expect(decrypt(payload, ck21)).toBe(v.plaintext);

      const raw = encryptPayload(v.plaintext, ck12, nonce);
      expect(base64Encode(raw)).toBe(v.payload);
      expect(raw).toHaveLength(payloadLength(plaintextByteLength(v.plaintext)));
      expect(decryptPayload(raw, ck21)).toBe(v.plaintext);

      const hex = encryptHex(v.plaintext, ck12, nonce);
      expect(hex).toBe(bytesToHex(base64Decode(v.payload)));
      expect(decryptHex(hex, ck21)).toBe(v.plaintext);
      ran++;
    }
    expect(ran).toBe(valid.encrypt_decrypt.length);
  });

  it("encrypt_decrypt_long_msg (sha256 of plaintext and of the base64 payload)", () => {
    let ran = 0;
    for (const v of valid.encrypt_decrypt_long_msg) {
      const ck = hexToBytes(v.conversation_key);
      const nonce = hexToBytes(v.nonce);
      const plaintext = v.pattern.repeat(v.repeat);
      expect(bytesToHex(sha256(utf8(plaintext)))).toBe(v.plaintext_sha256);
      const payload = encrypt(plaintext, ck, nonce);
      expect(bytesToHex(sha256(utf8(payload)))).toBe(v.payload_sha256);
      expect(decrypt(payload, ck)).toBe(plaintext);
      const hex = encryptHex(plaintext, ck, nonce);
      expect(hex).toBe(bytesToHex(base64Decode(payload)));
      expect(decryptHex(hex, ck)).toBe(plaintext);
      ran++;
    }
    expect(ran).toBe(valid.encrypt_decrypt_long_msg.length);
  });
});

describe("NIP-44 v2 invalid vectors", () => {
  it("encrypt_msg_lengths are rejected", () => {
    const ck = randomBytes(32);
    let ran = 0;
    for (const len of invalid.encrypt_msg_lengths) {
      const err = nip44Error(() => encrypt("a".repeat(len), ck));
      expect(err.message).toMatch(/invalid plaintext length/);
      expect(() => encryptPayload("a".repeat(len), ck)).toThrow(Nip44Error);
      ran++;
    }
    expect(ran).toBe(invalid.encrypt_msg_lengths.length);
  });

  it("get_conversation_key rejects invalid secret and public keys", () => {
    let ran = 0;
    for (const v of invalid.get_conversation_key) {
      const err = nip44Error(() => getConversationKey(hexToBytes(v.sec1), hexToBytes(v.pub2)));
      // Notes say which side is bad: "sec1 ..." or "pub2 ...".
      expect(err.message, v.note).toMatch(v.note.startsWith("sec1") ? /private key/ : /public key/);
      expect(err.message).not.toContain(v.sec1);
      ran++;
    }
    expect(ran).toBe(invalid.get_conversation_key.length);
  });

  it("decrypt rejects each invalid payload with the vector's reason", () => {
    let ran = 0;
    for (const v of invalid.decrypt) {
      const err = nip44Error(() => decrypt(v.payload, hexToBytes(v.conversation_key)));
      expect(err.message, v.note).toMatch(new RegExp(escapeRegExp(v.note)));
      expect(err.message).not.toContain(v.conversation_key);
      ran++;
    }
    expect(ran).toBe(invalid.decrypt.length);
  });
});

describe("API details", () => {
  const ck = hexToBytes("c41c775356fd92eadc63ff5a0dc1da211b268cbea22316767095b2871ea1412d");

  it("conversation key is symmetric for random key pairs", () => {
    const a = schnorr.utils.randomSecretKey();
    const b = schnorr.utils.randomSecretKey();
    expect(getConversationKey(a, schnorr.getPublicKey(b))).toEqual(getConversationKey(b, schnorr.getPublicKey(a)));
  });

  it("rejects wrongly sized keys and nonces", () => {
    expect(() => getConversationKey(new Uint8Array(31), new Uint8Array(32))).toThrow(Nip44Error);
    expect(() => getConversationKey(new Uint8Array(32).fill(1), new Uint8Array(33))).toThrow(Nip44Error);
    expect(() => encrypt("hi", new Uint8Array(16))).toThrow(/conversation key must be 32 bytes/);
    expect(() => encrypt("hi", ck, new Uint8Array(12))).toThrow(/nonce must be 32 bytes/);
    expect(() => decryptPayload(encryptPayload("hi", ck), new Uint8Array(31))).toThrow(Nip44Error);
  });

  it("payloadLength matches real payloads and bounds", () => {
    expect(payloadLength(1)).toBe(MIN_PAYLOAD_BYTES);
    expect(payloadLength(MAX_PLAINTEXT_BYTES)).toBe(MAX_PAYLOAD_BYTES);
    for (const n of [1, 31, 32, 33, 255, 256, 257, 320, 1000, 4097, 65535]) {
      expect(encryptPayload("z".repeat(n), ck)).toHaveLength(payloadLength(n));
    }
    for (const bad of [0, -1, 1.5, 65536, Number.NaN]) expect(() => payloadLength(bad)).toThrow(Nip44Error);
    expect(() => calcPaddedLength(0)).toThrow(Nip44Error);
  });

  it("random default nonce differs between calls and starts with the version byte", () => {
    const p1 = encryptPayload("same", ck);
    const p2 = encryptPayload("same", ck);
    expect(p1[0]).toBe(NIP44_VERSION);
    expect(bytesToHex(p1.subarray(1, 33))).not.toBe(bytesToHex(p2.subarray(1, 33)));
    expect(decryptPayload(p1, ck)).toBe("same");
  });

  it("hex path round-trips and is strict", () => {
    const hex = encryptHex("hello relay", ck);
    expect(hex).toMatch(/^[0-9a-f]+$/);
    expect(hex).toHaveLength(2 * payloadLength(11));
    expect(decryptHex(hex, ck)).toBe("hello relay");
    expect(decryptPayload(hexToBytes(hex), ck)).toBe("hello relay");
    expect(decrypt(base64Encode(hexToBytes(hex)), ck)).toBe("hello relay");
    expect(() => decryptHex(hex.toUpperCase(), ck)).toThrow(/lowercase/);
    expect(() => decryptHex(hex.slice(0, -1), ck)).toThrow(/invalid payload length/);
    expect(() => decryptHex(`${hex.slice(0, -2)}zz`, ck)).toThrow(Nip44Error);
    expect(() => decryptHex("", ck)).toThrow(/invalid payload length/);
  });

  it("raw payload path: version first, then length", () => {
    const raw = encryptPayload("x", ck);
    expect(() => decryptPayload(new Uint8Array(0), ck)).toThrow(/invalid payload length: 0/);
    const v1 = raw.slice();
    v1[0] = 1;
    expect(() => decryptPayload(v1, ck)).toThrow(/unknown encryption version 1/);
    expect(() => decryptPayload(raw.subarray(0, 98), ck)).toThrow(/invalid payload length: 98/);
    expect(() => decryptPayload(new Uint8Array(MAX_PAYLOAD_BYTES + 1).fill(2), ck)).toThrow(/invalid payload length/);
    const longer = encryptPayload("x".repeat(40), ck);
    expect(() => decryptPayload(longer.subarray(0, longer.length - 1), ck)).toThrow(/invalid MAC/);
  });

  it("authentic payloads with bad padding or invalid UTF-8 are rejected after the MAC check", () => {
    // Hand-build correctly MACed payloads around a chosen padded plaintext.
    const seal = (padded: Uint8Array): Uint8Array => {
      const nonce = randomBytes(32);
      const { chachaKey, chachaNonce, hmacKey } = getMessageKeys(ck, nonce);
      const ciphertext = chacha20(chachaKey, chachaNonce, padded);
      const mac = hmac(sha256, hmacKey, new Uint8Array([...nonce, ...ciphertext]));
      return new Uint8Array([NIP44_VERSION, ...nonce, ...ciphertext, ...mac]);
    };
    const padded = (prefix: number, body: number[], total: number): Uint8Array => {
      const out = new Uint8Array(total);
      out[0] = prefix >>> 8;
      out[1] = prefix & 0xff;
      out.set(body, 2);
      return out;
    };
    expect(decryptPayload(seal(padded(2, [0x68, 0x69], 34)), ck)).toBe("hi");
    expect(() => decryptPayload(seal(padded(0, [], 34)), ck)).toThrow(/invalid padding/);
    expect(() => decryptPayload(seal(padded(2, [0x68, 0x69], 66)), ck)).toThrow(/invalid padding/);
    expect(() => decryptPayload(seal(padded(33, [], 34)), ck)).toThrow(/invalid padding/);
    expect(() => decryptPayload(seal(padded(2, [0xc3, 0x28], 34)), ck)).toThrow(/not valid UTF-8/);
    expect(() => decryptPayload(seal(padded(1, [0xed, 0xa0], 34)), ck)).toThrow(/not valid UTF-8/);
  });

  it("keeps a leading BOM, NUL and astral characters; rejects unpaired surrogates", () => {
    for (const s of ["\uFEFFbom", "\u0000", "a\u0000b", "\u{10FFFF}", "\uFEFF"]) expect(decrypt(encrypt(s, ck), ck)).toBe(s);
    expect(() => encrypt("a\uD800b", ck)).toThrow(/unpaired UTF-16 surrogate/);
    expect(() => encrypt("\uDC00", ck)).toThrow(Nip44Error);
    expect(() => encrypt("", ck)).toThrow(/invalid plaintext length: 0/);
    expect(() => plaintextByteLength("\uD83D")).toThrow(Nip44Error);
    expect(plaintextByteLength("\u{1F984}")).toBe(4);
  });

  it("strict base64", () => {
    const good = encrypt("strict", ck);
    expect(base64Decode(good)).toEqual(hexToBytes(encryptHex("strict", ck, base64Decode(good).subarray(1, 33))));
    expect(base64Decode("")).toHaveLength(0);
    expect(base64Decode("AQ==")).toEqual(new Uint8Array([1]));
    expect(base64Decode("AQI=")).toEqual(new Uint8Array([1, 2]));
    for (const bad of ["AQ", "AQ=", "AR==", "AQJ=", "A===", "====", "AQ==AQ==", "A Q==", "AQ\n==", "-_==", "AQ=A", "\u0410Q=="]) {
      expect(() => base64Decode(bad), JSON.stringify(bad)).toThrow(/invalid base64/);
    }
    // whitespace / url-safe / missing padding inside an otherwise valid payload
    expect(() => decrypt(`${good.slice(0, 60)} ${good.slice(61)}`, ck)).toThrow(/invalid base64/);
    expect(() => decrypt(good.replace(/\+/g, "-").replace(/\//g, "_").replace(/[A-Za-z0-9]$/, "-"), ck)).toThrow(Nip44Error);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = base64Encode(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64"));
        expect(base64Decode(text)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it("every single-byte flip of a payload is rejected (exhaustive over positions, several masks)", () => {
    const raw = encryptPayload("flip me", ck);
    let ran = 0;
    for (let i = 0; i < raw.length; i++) {
      for (const mask of [0x01, 0x80, 0xff]) {
        const bad = raw.slice();
        bad[i] = (bad[i] ?? 0) ^ mask;
        expect(() => decryptPayload(bad, ck), `byte ${i} mask ${mask}`).toThrow(Nip44Error);
        expect(() => decrypt(base64Encode(bad), ck)).toThrow(Nip44Error);
        ran++;
      }
    }
    expect(ran).toBe(raw.length * 3);
    expect(decryptPayload(raw, ck)).toBe("flip me");
  });
});

describe("properties", () => {
  const key = fc.uint8Array({ minLength: 32, maxLength: 32 });
  // 'binary' = any code point except lone surrogates (includes NUL, U+FEFF, astral planes)
  const plaintext = fc.string({ unit: "binary", minLength: 1, maxLength: 400 });

  it("random plaintexts round-trip through all three encodings", () => {
    fc.assert(
      fc.property(plaintext, key, key, (text, ck, nonce) => {
        const raw = encryptPayload(text, ck, nonce);
        expect(raw).toHaveLength(payloadLength(utf8(text).length));
        expect(decryptPayload(raw, ck)).toBe(text);
        expect(decrypt(encrypt(text, ck, nonce), ck)).toBe(text);
        expect(decryptHex(encryptHex(text, ck, nonce), ck)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("flipping any single byte of a payload makes decryption throw Nip44Error", () => {
    fc.assert(
      fc.property(plaintext, key, fc.nat(), fc.integer({ min: 1, max: 255 }), (text, ck, pos, mask) => {
        const raw = encryptPayload(text, ck);
        const i = pos % raw.length;
        raw[i] = (raw[i] ?? 0) ^ mask;
        expect(() => decryptPayload(raw, ck)).toThrow(Nip44Error);
      }),
      { numRuns: 500 },
    );
  });

  it("a different conversation key never decrypts", () => {
    fc.assert(
      fc.property(plaintext, key, key, (text, ck, other) => {
        fc.pre(bytesToHex(ck) !== bytesToHex(other));
        expect(() => decryptPayload(encryptPayload(text, ck), other)).toThrow(/invalid MAC/);
      }),
      { numRuns: 200 },
    );
  });
});
