// The protocol package against openrpc.json: the generated typed-data types against the prose that
// spells them out, and the hand-written constants against the text that states them. A spec edit
// that changes one without the other fails here.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EIP712_DOMAIN, EIP712_TYPES, encodeType } from "./eip712.js";
import { DERIVATION_NOTICE, DERIVATION_SALT, derivationInfo } from "./messaging-key.js";
import { DEFAULT_LIMITS, MAX_PAGE_LIMIT, SPEC_VERSION } from "./limits.js";
import { errors, ERROR_CODES } from "./errors.js";
import { MAX_TOKEN_LIFETIME_MS } from "./bearer-token.js";

interface Doc {
  info: { version: string; description: string };
  components: { schemas: Record<string, { maximum?: number }>; errors: Record<string, { code: number; message: string }> };
  "x-eip712": { domain: Record<string, string>; types: Record<string, { fields: { name: string; type: string }[] }> };
}
const specText = readFileSync(fileURLToPath(new URL("../../../openrpc.json", import.meta.url)), "utf8");
const spec = JSON.parse(specText) as Doc;

/** Every description string of the document, with the extension itself left out. */
function prose(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) prose(item, out);
  else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) if (key !== "x-eip712") prose(item, out);
  return out;
}
const text = prose(spec).join("\n");
const description = spec.info.description;

describe("openrpc.json's x-eip712 extension and its prose agree", () => {
  const typeNames = Object.keys(EIP712_TYPES);

  it("every type the extension defines is spelled out in the prose, field for field", () => {
    for (const [name, fields] of Object.entries(EIP712_TYPES)) expect(description).toContain(encodeType(name, fields));
  });

  it("every type the prose spells out is the extension's, field for field", () => {
    const spelled = [...text.matchAll(/\b([A-Z][A-Za-z0-9]*)\(((?:[a-z0-9]+(?:\[\])? [a-zA-Z0-9]+,?)+)\)/g)].map((m) => ({ name: m[1]!, text: m[0] }));
    expect(spelled.length).toBeGreaterThanOrEqual(typeNames.length);
    for (const { name, text: written } of spelled) {
      expect(typeNames, `${written} is not in x-eip712`).toContain(name);
      expect(written).toBe(encodeType(name, EIP712_TYPES[name as keyof typeof EIP712_TYPES]));
    }
  });

  it("the domain in the prose is the extension's", () => {
    const domains = [...text.matchAll(/domain `\{([^}]*)\}`/g)].map((m) => m[1]);
    expect(domains.length).toBeGreaterThan(0);
    for (const domain of domains) expect(domain).toBe(`name: ${JSON.stringify(EIP712_DOMAIN.name)}, version: ${JSON.stringify(EIP712_DOMAIN.version)}`);
  });

  it("the generated module is the extension (run pnpm generate after editing it)", () => {
    expect(EIP712_DOMAIN).toEqual(spec["x-eip712"].domain);
    expect(Object.fromEntries(Object.entries(EIP712_TYPES).map(([k, v]) => [k, v.map(({ name, type }) => ({ name, type }))]))).toEqual(
      Object.fromEntries(Object.entries(spec["x-eip712"].types).map(([k, v]) => [k, v.fields.map(({ name, type }) => ({ name, type }))])),
    );
  });
});

describe("constants stated in openrpc.json's text", () => {
  it("the messaging-key derivation", () => {
    expect(description).toContain(`\`notice\` ${JSON.stringify(DERIVATION_NOTICE)}`);
    expect(description).toContain(`salt ${JSON.stringify(DERIVATION_SALT)}`);
    expect(description).toContain(`info ${JSON.stringify(derivationInfo(0))} (${JSON.stringify(derivationInfo(1))}`);
  });

  it("the token lifetime", () => {
    expect(description).toContain(`at most ${MAX_TOKEN_LIFETIME_MS / 3_600_000} h after \`issued-at\``);
  });

  it("the default limits and the spec version", () => {
    const limits = description.slice(description.indexOf("## Limits"));
    expect(limits).toContain(`\`limit\` ≤ ${DEFAULT_LIMITS.maxLimit} · batch ≤ ${DEFAULT_LIMITS.maxBatch} entries · body ≤ ${DEFAULT_LIMITS.maxBodyBytes / 1024 / 1024} MiB`);
    expect(limits).toContain(`message ≤ ${DEFAULT_LIMITS.maxMessageBytes / 1024} KiB of bytes · clock skew ±${DEFAULT_LIMITS.clockSkewMs / 60_000} min`);
    expect(limits).toContain(`≤ ${DEFAULT_LIMITS.maxResponseBytes / 1024 / 1024} MiB of message JSON (\`maxResponseBytes\`)`);
    expect(limits).toContain(`examines ≤ ${DEFAULT_LIMITS.maxPageScan} messages per mailbox part`);
    expect(limits).toContain(`kept ${DEFAULT_LIMITS.retentionSeconds / 86_400} days after the node stored it (\`retentionSeconds\``);
    expect(MAX_PAGE_LIMIT).toBe(spec.components.schemas.Limit!.maximum);
    expect(SPEC_VERSION).toBe(spec.info.version);
  });

  it("the error codes: components.errors and the error table", () => {
    expect(errors).toEqual(Object.fromEntries(Object.entries(spec.components.errors).map(([name, e]) => [name, { code: e.code, message: e.message }])));
    const table = [...description.matchAll(/^\| (-32\d{3}) \|/gm)].map((m) => Number(m[1]));
    expect([...new Set(Object.values(ERROR_CODES))].sort()).toEqual([...new Set(table)].sort());
  });
});
