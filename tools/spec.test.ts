// Checks openrpc.json itself, the seeds/exchanges fixtures against it, and the generator:
// deterministic, current, and able to carry a new method through client, server and docs.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { parseOpenRPCDocument, validateOpenRPCDocument } from "@open-rpc/schema-utils-js";
import type { OpenrpcDocument } from "@open-rpc/schema-utils-js/build/types.js";
import { Ajv } from "ajv";
import { EIP712_DOMAIN, EIP712_TYPES } from "@neutral/protocol";
import { recoverTypedDataAddress, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const toolsDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(toolsDir, "..");
const specPath = path.join(repoRoot, "openrpc.json");
const exchangesDir = path.join(repoRoot, "seeds/exchanges");

interface Generator {
  generate(options?: { specPath?: string; outRoot?: string }): Promise<void>;
  findStaleFiles(): Promise<string[]>;
  generatedDirs(): Promise<string[]>;
}
const generation = (await import(pathToFileURL(path.join(toolsDir, "generate.mjs")).href)) as Generator;
const { generate, findStaleFiles } = generation;
const generatedDirs = await generation.generatedDirs();

// The parts of an OpenRPC document these tests read (the library's own types are unions with $refs).
interface Schema {
  title?: string;
  type?: string;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  additionalProperties?: unknown;
  [keyword: string]: unknown;
}
interface Param {
  name: string;
  required?: boolean;
  schema: Schema;
}
interface Example {
  name: string;
  params: { name: string; value: unknown }[];
  result?: { name: string; value: unknown };
}
interface Method {
  name: string;
  summary?: string;
  description?: string;
  params: Param[];
  result: { name: string; schema: Schema };
  errors?: unknown[];
  examples?: Example[];
  [key: string]: unknown;
}
interface Doc {
  methods: Method[];
  components: { schemas: Record<string, Schema>; errors: Record<string, { code: number; message: string }> };
}

const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, "utf8")) as T;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const raw = await readJson<Doc>(specPath);
/** The dereferenced document: every schema inline, no $ref left. */
const deref = (await parseOpenRPCDocument((await readJson(specPath)) as OpenrpcDocument)) as unknown as Doc;
const methods = new Map(deref.methods.map((m) => [m.name, m]));

const ajv = new Ajv({ strict: false, allErrors: true });
/** Problems of `value` against `schema`, as one string each; empty when valid. */
function validate(schema: Schema, value: unknown, where: string): string[] {
  const check = ajv.compile(schema);
  return check(value) ? [] : [`${where}: ${ajv.errorsText(check.errors)}`];
}

describe("openrpc.json", () => {
  it("is a valid OpenRPC document and dereferences", async () => {
    expect(validateOpenRPCDocument((await readJson(specPath)) as OpenrpcDocument)).toBe(true);
    // The engine dereferences what OpenRPC defines; extensions (x-subscription) keep their refs.
    const withoutExtensions = { ...deref, methods: deref.methods.map((m) => Object.fromEntries(Object.entries(m).filter(([key]) => !key.startsWith("x-")))) };
    expect(JSON.stringify(withoutExtensions)).not.toContain('"$ref"');
  });

  it("describes each stream (x-subscription): notifications with params whose $refs name component schemas, and the SSE id of messages", () => {
    const streams = raw.methods.filter((m) => (m as Record<string, unknown>)["x-subscription"] !== undefined);
    expect(streams.map((m) => m.name)).toEqual(["neutralService_subscribe"]);
    const extension = (streams[0] as unknown as { "x-subscription": { notifications: { name: string; eventId?: string; params: { schema: unknown }[] }[] } })["x-subscription"];
    expect(extension.notifications.map((n) => n.name)).toEqual(["neutralService_message", "neutralService_caughtUp", "neutralService_status", "neutralService_end"]);
    expect(extension.notifications[0]!.eventId).toBe("/message/id");
    const refs = JSON.stringify(extension).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const name = /#\/components\/schemas\/([^"]+)"/.exec(ref)?.[1];
      expect(name !== undefined && name in raw.components.schemas, ref).toBe(true);
    }
  });

  it("documents every method: summary, description, examples, errors", () => {
    for (const m of raw.methods) {
      expect(m.summary, m.name).toBeTruthy();
      expect(m.description, m.name).toBeTruthy();
      expect(m.examples?.length, m.name).toBeGreaterThanOrEqual(1);
      expect(m.errors?.length, m.name).toBeGreaterThanOrEqual(1);
    }
  });

  it("titles every component schema with its own key", () => {
    for (const [key, schema] of Object.entries(raw.components.schemas)) expect(schema.title, key).toBe(key);
  });

  it("closes the filters, the signed message and the key bundle to unknown members", () => {
    for (const key of ["InboxFilter", "ChatFilter", "SignedMessage", "KeyBundle"]) {
      expect(raw.components.schemas[key]?.additionalProperties, key).toBe(false);
    }
  });

  it("wraps every neutralService_* result in an array of exactly one payload", () => {
    // A stream (x-subscription) is answered as events, not as a result.
    for (const m of raw.methods.filter((m) => m.name.startsWith("neutralService_") && (m as Record<string, unknown>)["x-subscription"] === undefined)) {
      expect(m.result.schema, m.name).toMatchObject({ type: "array", minItems: 1, maxItems: 1 });
      expect(m.result.schema.items, m.name).toBeDefined();
    }
  });

  it("gives getInbox and getChat the params inboxFilter, limit, after, before (the interface's, in its order), then proof (the verifiable mailbox); limit 1..100 default 20", () => {
    for (const name of ["neutralService_getInbox", "neutralService_getChat"]) {
      const m = methods.get(name)!;
      expect(m.params.map((p) => p.name), name).toEqual(["inboxFilter", "limit", "after", "before", "proof"]);
      expect(m.params[1]!.schema, name).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
      expect(m.params[4]!, name).toMatchObject({ required: false, schema: { type: "object", additionalProperties: false, properties: { since: { type: "integer", minimum: 0 } } } });
    }
  });

  it("declares every error code of seeds/README.md §7 in components.errors", () => {
    const codes = Object.values(raw.components.errors).map((e) => e.code);
    expect(codes).toEqual(expect.arrayContaining([-32001, -32002, -32003, -32004, -32005, -32029, -32602]));
  });

  it("has examples that validate against their own params and result schemas", () => {
    const problems: string[] = [];
    for (const m of deref.methods) {
      for (const example of m.examples ?? []) {
        const where = `${m.name} example "${example.name}"`;
        for (const { name, value } of example.params) {
          const param = m.params.find((p) => p.name === name);
          if (!param) problems.push(`${where}: no param ${name}`);
          else if (value === null && !param.required) continue; // null is absent (prose "Transport", the dispatcher)
          else problems.push(...validate(param.schema, value, `${where} param ${name}`));
        }
        if (example.result) problems.push(...validate(m.result.schema, example.result.value, `${where} result`));
      }
    }
    expect(problems).toEqual([]);
  });
});

// ---- examples: the same call by position and by name ------------------------------------------

describe("examples, for tools that send them by position", () => {
  it("list their params in the method's order without gaps (an absent one before a given one is listed as null)", () => {
    // A tool that sends an example positionally takes its params in the order listed: a gap would
    // move every later value into the place of the param left out. The relay tests replay every
    // example both ways (packages/relay/src/fixtures.test.ts).
    const problems: string[] = [];
    for (const m of raw.methods) {
      for (const example of m.examples ?? []) {
        const listed = example.params.map((p) => p.name);
        const expected = m.params.slice(0, listed.length).map((p) => p.name);
        if (listed.join() !== expected.join()) problems.push(`${m.name} example "${example.name}": params ${listed.join(", ")}; by position they must be ${expected.join(", ")}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

// ---- key bundles: the examples carry real signatures and real keys ---------------------------

interface KeyBundle {
  account: Hex;
  key: Hex;
  timestamp: number;
  signature: Hex;
}
const isKeyBundle = (value: unknown): value is KeyBundle => isObject(value) && "account" in value && "key" in value && "signature" in value;
/** Whether `x` is the x coordinate of a point of secp256k1: x³ + 7 is a square mod p (Euler's criterion). */
function onCurve(x: bigint): boolean {
  const p = 2n ** 256n - 2n ** 32n - 977n;
  const pow = (base: bigint, exponent: bigint) => {
    let result = 1n;
    for (base %= p; exponent > 0n; exponent >>= 1n, base = (base * base) % p) if (exponent & 1n) result = (result * base) % p;
    return result;
  };
  return x < p && pow((x * x * x + 7n) % p, (p - 1n) / 2n) === 1n;
}

describe("key bundle examples", () => {
  const bundles = raw.methods
    .filter((m) => m.name === "neutralService_publishKey" || m.name === "neutralService_getKey")
    .flatMap((m) => (m.examples ?? []).flatMap((example) => [...example.params.map((p) => p.value), ...[example.result?.value ?? []].flat()]))
    .filter(isKeyBundle);

  it("exist, lowercase", () => {
    expect(bundles.length).toBeGreaterThanOrEqual(3);
    for (const bundle of bundles) expect(JSON.stringify(bundle)).toBe(JSON.stringify(bundle).toLowerCase());
  });

  it("are signed by their account (EIP-712 KeyBundle, domain neutralService 1), with keys on the curve", async () => {
    for (const bundle of bundles) {
      const signer = await recoverTypedDataAddress({
        domain: EIP712_DOMAIN,
        types: EIP712_TYPES,
        primaryType: "KeyBundle",
        message: { account: bundle.account, key: bundle.key, timestamp: BigInt(bundle.timestamp) },
        signature: bundle.signature,
      });
      expect(signer.toLowerCase(), JSON.stringify(bundle)).toBe(bundle.account);
      expect(onCurve(BigInt(bundle.key)), bundle.key).toBe(true);
    }
    expect(onCurve(5n), "the curve check can fail").toBe(false); // 5³ + 7 = 132 is not a square mod p
  });
});

// ---- seeds/exchanges: wire fixtures checked against the spec -------------------------------

interface Exchange {
  description: string;
  request?: unknown;
  rawRequest?: string;
  response: unknown;
  httpStatus: number;
}

const STANDARD_CODES = [-32700, -32600, -32601, -32602, -32603];
const knownCodes = new Set([...STANDARD_CODES, ...Object.values(raw.components.errors).map((e) => e.code)]);
const entries = (body: unknown): unknown[] => (body === null || body === undefined ? [] : Array.isArray(body) ? body : [body]);

/** Problems of positional or by-name `params` against the method's params (absent and null mean "not given"). */
function checkParams(m: Method, params: unknown, where: string): string[] {
  const given = new Map<string, unknown>();
  if (Array.isArray(params)) {
    if (params.length > m.params.length) return [`${where}: ${params.length} positional params, at most ${m.params.length}`];
    params.forEach((value, i) => given.set(m.params[i]!.name, value));
  } else if (isObject(params)) {
    for (const [name, value] of Object.entries(params)) {
      if (!m.params.some((p) => p.name === name)) return [`${where}: unknown param ${name}`];
      given.set(name, value);
    }
  } else if (params !== undefined) {
    return [`${where}: params must be an array or an object`];
  }
  return m.params.flatMap((p) => {
    const value = given.get(p.name);
    if (value === undefined || value === null) return p.required ? [`${where}: ${p.name} is required`] : [];
    return validate(p.schema, value, `${where} param ${p.name}`);
  });
}

/** Everything wrong with one fixture; empty when it matches the spec. */
function checkExchange(ex: Exchange, file: string): string[] {
  const problems: string[] = [];
  const requests = entries(ex.request).filter(isObject);
  const responses = entries(ex.response).filter(isObject);
  if ((ex.response === null) !== (ex.httpStatus === 204)) problems.push(`${file}: no body exactly when HTTP 204`);
  const requestLevelError = isObject(ex.response) && ex.response.id === null && "error" in ex.response;

  for (const res of responses) {
    if (res.jsonrpc !== "2.0") problems.push(`${file}: response jsonrpc must be "2.0"`);
    if (("result" in res) === ("error" in res)) problems.push(`${file}: response needs exactly one of result and error`);
    if ("error" in res) {
      const error = res.error as { code?: unknown; message?: unknown };
      if (!Number.isInteger(error.code) || !knownCodes.has(error.code as number)) problems.push(`${file}: unknown error code ${String(error.code)}`);
      if (typeof error.message !== "string") problems.push(`${file}: error message must be a string`);
      if (error.code === -32001 && ex.httpStatus !== 401) problems.push(`${file}: -32001 travels with HTTP 401`);
    }
    // Ids echo: a response answers a request with that id, or is a request-level error with id null.
    if (!requests.some((req) => "id" in req && req.id === res.id) && !(res.id === null && "error" in res)) {
      problems.push(`${file}: response id ${JSON.stringify(res.id)} echoes no request`);
    }
  }

  for (const req of requests) {
    const where = `${file} ${String(req.method)}`;
    if (req.jsonrpc !== "2.0") problems.push(`${where}: request jsonrpc must be "2.0"`);
    if (!("id" in req)) continue; // a notification gets no response
    const res = responses.find((r) => r.id === req.id);
    if (!res) {
      // One error with id null (e.g. a batch failing 401) answers the whole request.
      if (!(requestLevelError && Array.isArray(ex.request))) problems.push(`${where}: no response with id ${JSON.stringify(req.id)}`);
      continue;
    }
    const m = methods.get(String(req.method));
    const code = isObject(res.error) ? res.error.code : undefined;
    if (!m) {
      if (code !== -32601) problems.push(`${where}: unknown method must be answered -32601`);
      continue;
    }
    // A -32602 answer must be deserved: its request's params must fail the spec.
    const paramProblems = checkParams(m, req.params, where);
    if (code === -32602 && paramProblems.length === 0) problems.push(`${where}: answered -32602 but the params are valid`);
    if (code !== -32602) problems.push(...paramProblems);
    if ("result" in res) problems.push(...validate(m.result.schema, res.result, `${where} result`));
  }
  return problems;
}

const fixtureFiles = (await readdir(exchangesDir)).filter((f) => f.endsWith(".json")).sort();

describe("seeds/exchanges", () => {
  const files = fixtureFiles;
  const load = (file: string) => readJson<Exchange>(path.join(exchangesDir, file));

  it("has fixtures", () => expect(files.length).toBeGreaterThanOrEqual(10));

  it.each(files)("%s matches the spec", async (file) => {
    const ex = await load(file);
    expect(typeof ex.description).toBe("string");
    expect(ex.request !== undefined || typeof ex.rawRequest === "string").toBe(true);
    expect(checkExchange(ex, file)).toEqual([]);
  });

  it("catches a corrupted fixture (the check can fail)", async () => {
    const ex = await load("01_getInbox_params_empty.json");
    const noEnd = structuredClone(ex) as { response: { result: Record<string, unknown>[] } };
    delete noEnd.response.result[0]!.end;
    expect(checkExchange(noEnd as unknown as Exchange, "no end")).toEqual([expect.stringContaining("must have required property 'end'")]);

    const typo = structuredClone(ex) as { request: { params: unknown } };
    typo.request.params = [{ form: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" }];
    expect(checkExchange(typo as unknown as Exchange, "typo")).toEqual([expect.stringContaining("must NOT have additional properties")]);

    const wrongId = structuredClone(ex) as { response: { id: unknown } };
    wrongId.response.id = 2;
    expect(checkExchange(wrongId as unknown as Exchange, "wrong id").length).toBeGreaterThan(0);
  });
});

// ---- the generator ---------------------------------------------------------------------------

/** Every file under `root`, relative path → sha256 of its bytes (a readable diff when trees differ). */
async function readTree(root: string): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  for (const rel of (await readdir(root, { recursive: true })).sort()) {
    const file = path.join(root, rel);
    if ((await stat(file)).isFile()) tree.set(rel, createHash("sha256").update(await readFile(file)).digest("hex"));
  }
  return tree;
}
const readGenerated = async (root: string) => new Map(await Promise.all(generatedDirs.map(async (dir) => [dir, await readTree(path.join(root, dir))] as const)));

describe("generation", () => {
  const temps: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "neutral-spec-test-"));
    temps.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  it("is deterministic: two runs give byte-identical trees", { timeout: 60_000 }, async () => {
    const [a, b] = [await tempDir(), await tempDir()];
    await generate({ outRoot: a });
    await generate({ outRoot: b });
    for (const [dir, files] of await readGenerated(a)) expect(files.size, dir).toBeGreaterThan(0);
    expect(await readTree(a)).toEqual(await readTree(b));
  });

  it("matches the committed generated files", { timeout: 60_000 }, async () => {
    expect(await findStaleFiles()).toEqual([]);
  });

  describe("a new method flows through client, server and docs", () => {
    let out: string;
    let repoBefore: Awaited<ReturnType<typeof readGenerated>>;
    const read = (rel: string) => readFile(path.join(out, rel), "utf8");

    beforeAll(async () => {
      repoBefore = await readGenerated(repoRoot);
      out = await tempDir();
      const doc = await readJson<Doc>(specPath);
      doc.methods.push({
        name: "neutralService_ping",
        summary: "Check the node answers",
        description: "Answers `pong: true`; `note` is ignored.",
        "x-requires-auth": false,
        paramStructure: "either",
        params: [{ name: "note", required: false, schema: { type: "string" } }],
        result: {
          name: "payload",
          schema: { type: "array", minItems: 1, maxItems: 1, items: { type: "object", additionalProperties: false, required: ["pong"], properties: { pong: { type: "boolean" } } } },
        },
        errors: [],
        examples: [{ name: "Ping", params: [{ name: "note", value: "x" }], result: { name: "payload", value: [{ pong: true }] } }],
      });
      expect(validateOpenRPCDocument(doc as unknown as OpenrpcDocument)).toBe(true);
      const tempSpec = path.join(out, "openrpc.json");
      await writeFile(tempSpec, JSON.stringify(doc, null, 2));
      await generate({ specPath: tempSpec, outRoot: out });
    }, 60_000);

    it("client exports ping and pingRequest", async () => {
      const client = await read("packages/client/src/generated/methods.ts");
      expect(client).toMatch(/export function ping\(/);
      expect(client).toMatch(/export function pingRequest\(/);
    });

    it("server has the handler and the descriptor", async () => {
      expect(await read("packages/server/src/generated/handlers.ts")).toContain("neutralService_ping(args: T.PingArgs");
      expect(await read("packages/server/src/generated/methods.ts")).toContain('"neutralService_ping": {');
    });

    it("docs mention it", async () => {
      expect(await read("packages/docs/src/generated/index.html")).toContain("neutralService_ping");
    });

    it("leaves the repository's generated files alone", async () => {
      expect(await readGenerated(repoRoot)).toEqual(repoBefore);
    });

    it("type-checks a call of the new client method", { timeout: 60_000 }, async () => {
      const client = path.join(out, "packages/client");
      await cp(path.join(repoRoot, "packages/client/src/rpc.ts"), path.join(client, "src/rpc.ts"));
      await writeFile(path.join(client, "package.json"), JSON.stringify({ type: "module" }));
      // The runtime's own dependency (its event-stream parser), as an installed client has it.
      await mkdir(path.join(client, "node_modules/@neutral"), { recursive: true });
      await symlink(path.join(repoRoot, "packages/protocol"), path.join(client, "node_modules/@neutral/protocol"), "dir");
      await writeFile(
        path.join(client, "tsconfig.json"),
        JSON.stringify({
          extends: path.join(repoRoot, "tsconfig.base.json"),
          compilerOptions: { rootDir: "src", noEmit: true, types: [] },
          include: ["src"],
        }),
      );
      await writeFile(
        path.join(client, "src/use-ping.ts"),
        [
          'import { createRpcClient } from "./rpc.js";',
          'import { ping, pingRequest } from "./generated/methods.js";',
          'const client = createRpcClient({ url: "http://127.0.0.1:8645" });',
          'export const pong: Promise<{ pong: boolean }> = ping(client, { note: "x" });',
          "export const request = pingRequest({});",
          "// @ts-expect-error note is a string",
          "export const wrong = ping(client, { note: 1 });",
          "",
        ].join("\n"),
      );
      const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
      const run = promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", path.join(client, "tsconfig.json")]);
      await expect(run.catch((e: { stdout?: string }) => Promise.reject(new Error(`tsc failed:\n${e.stdout}`)))).resolves.toBeDefined();
    });
  });
});
