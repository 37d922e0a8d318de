// The corpus suite: every document of @open-rpc/examples and @metamask/api-specs, and this
// repository's own openrpc.json (test/corpus-documents.ts), through the whole generator:
//   1. a client, a server stub and the docs page generated into the run's temp dir;
//   2. all outputs type-checked together, as one strict program (noUnusedLocals too), against the
//      workspace's runtimes (@neutral/client/rpc and @neutral/server, their built .d.ts);
//   3. a round trip over real HTTP on 127.0.0.1 per document: a server from the generated stub
//      (@neutral/server's dispatcher) whose handlers answer each method's example result, called by
//      the generated client with the example's params (a method without an example: params and
//      result sampled from its schemas, test/corpus-sample.ts); the client must get the result back,
//      deep-equal, and it must validate against the method's result schema (ajv);
//   4. the docs page lists every method and component schema; petstore's renders in Chromium
//      without console errors.
// It ends with a table (document, methods, generate, tsc, round trip). Third-party examples that
// contradict their own schemas are listed in FINDINGS with a reason each: any other failure fails.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { createDispatcher, createHttpHandler, type ServiceDefinition } from "@neutral/server";
import { launchChromium } from "@neutral/test-support/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORPUS, packageRoot, repoRoot, type CorpusDocument } from "../test/corpus-documents.js";
import { sampleFromSchema } from "../test/corpus-sample.js";
import { documentValidator, type DocumentValidator } from "../test/corpus-validate.js";

const require = createRequire(import.meta.url);
type Page = Awaited<ReturnType<Awaited<ReturnType<typeof launchChromium>>["newPage"]>>;

interface ModelParam {
  name: string;
  required: boolean;
  schema: unknown;
}
interface ModelMethod {
  name: string;
  fn: string;
  paramStructure: "by-position" | "by-name" | "either";
  params: ModelParam[];
  result?: { schema: unknown; payload: unknown; wrapped: boolean };
  notification: boolean;
  subscription?: unknown;
  nodeToNode: boolean;
  examples: { name?: string; params: { name: string; value: unknown }[]; result?: { value?: unknown } }[];
}
interface Model {
  className: string;
  methods: ModelMethod[];
  schemas: { name: string }[];
}
const { buildModel } = require("./lib/model.cjs") as { buildModel: (document: unknown) => Model };
const { generate } = (await import(pathToFileURL(path.join(packageRoot, "src/generate.mjs")).href)) as {
  generate: (options: { spec: string; targets: Record<string, { out: string }> }) => Promise<unknown>;
};

/**
 * What the third-party documents get wrong, found by this suite, as `document method` → why. A
 * `result` finding is an example whose result breaks the method's own result schema: its round trip
 * fails (the result must validate). A `params` finding is an example whose params break their own
 * schemas: the dispatcher refuses it (-32602), rightly, and the method counts as passed. The suite
 * expects exactly these: a new failure, or a listed one that no longer happens, fails it.
 */
const FINDINGS: Record<string, { kind: "result" | "params"; why: string }> = {
  "metamask wallet_addEthereumChain": { kind: "result", why: 'the example result is the string "null"; the schema is {"type": "null"}' },
  "metamask wallet_switchEthereumChain": { kind: "result", why: 'the example result is the string "null"; the schema is {"type": "null"}' },
  "metamask wallet_revokePermissions": { kind: "result", why: 'the example result is the string "null"; the schema is {"type": "null"}' },
  "metamask wallet_getPermissions": { kind: "result", why: "the example result is an object ({eth_accounts: {}}); PermissionsList is an array" },
  "metamask wallet_requestPermissions": { kind: "result", why: "the example result is an object ({eth_accounts: {}}); PermissionsList is an array" },
  "metamask eth_decrypt": { kind: "result", why: "the result schema is PermissionsList (an array), the example a string: the schema is a copy-paste slip" },
  "metamask eth_feeHistory": { kind: "result", why: "the example result spells oldestBlock `oldestblock`: required member missing, unknown member (additionalProperties: false)" },
  "metamask eth_getBlockByHash": { kind: "result", why: "the example block has totalDifficulty, which Block does not declare (additionalProperties: false)" },
  "metamask eth_getBlockByNumber": { kind: "result", why: "the example block has totalDifficulty, which Block does not declare (additionalProperties: false)" },
  "metamask eth_getTransactionByHash": { kind: "result", why: "the example transaction has no `type`, which every TransactionSigned variant requires" },
  "metamask eth_getTransactionByBlockHashAndIndex": { kind: "result", why: "the example transaction has no `type`, which every TransactionSigned variant requires" },
  "metamask eth_getTransactionByBlockNumberAndIndex": { kind: "result", why: "the example transaction has no `type`, which every TransactionSigned variant requires" },
  "metamask eth_newFilter": { kind: "result", why: 'the example filter id "0x01" has a leading zero, which uint (^0x([1-9a-f]+[0-9a-f]*|0)$) forbids' },
  "metamask eth_newBlockFilter": { kind: "result", why: 'the example filter id "0x01" has a leading zero, which uint (^0x([1-9a-f]+[0-9a-f]*|0)$) forbids' },
  "metamask eth_newPendingTransactionFilter": { kind: "result", why: 'the example filter id "0x01" has a leading zero, which uint (^0x([1-9a-f]+[0-9a-f]*|0)$) forbids' },
  "metamask eth_sendRawTransaction": { kind: "result", why: "the example transaction hash has 63 hex digits; hash32 takes 64" },
  "metamask eth_getFilterChanges": { kind: "params", why: 'the example filter id "0x01" has a leading zero, which uint forbids' },
  "metamask eth_getFilterLogs": { kind: "params", why: 'the example filter id "0x01" has a leading zero, which uint forbids' },
  "metamask eth_uninstallFilter": { kind: "params", why: 'the example filter id "0x01" has a leading zero, which uint forbids' },
  "metamask eth_getProof": { kind: "params", why: 'the second example storage key ("0x283s34…") is not hex' },
};

/** Per document: what each step found. */
interface Row {
  doc: CorpusDocument;
  document?: Record<string, unknown>;
  model?: Model;
  out: string;
  generateError?: string;
  tscErrors: string[];
  /** Methods called (a JSON result, a notification or an event stream). */
  callable: number;
  passed: number;
  streams: number;
  failures: Map<string, string>;
  /** Methods with an example the dispatcher rightly refused (its params break their own schemas) → what it answered. */
  rejected: Map<string, string>;
}

let root: string;
const rows: Row[] = CORPUS.map((doc) => ({ doc, out: "", tscErrors: [], callable: 0, passed: 0, streams: 0, failures: new Map(), rejected: new Map() }));
const row = (id: string) => rows.find((r) => r.doc.id === id)!;

beforeAll(async () => {
  // The generated code is checked and run against the runtimes as published: their built dist.
  for (const [name, file] of [["client", "dist/rpc.d.ts"], ["server", "dist/index.d.ts"]] as const) {
    if (!existsSync(path.join(repoRoot, "packages", name, file))) throw new Error(`@neutral/${name} is not built: pnpm --filter @neutral/${name} build`);
  }
  // In the run's temp dir (the global setup points TMPDIR into it).
  root = await mkdtemp(path.join(tmpdir(), "neutral-corpus-"));
  // ESM, and the runtimes the generated code imports, as the workspace's packages (built).
  await writeFile(path.join(root, "package.json"), JSON.stringify({ type: "module", private: true }));
  await mkdir(path.join(root, "node_modules/@neutral"), { recursive: true });
  for (const name of ["client", "server"]) await symlink(path.join(repoRoot, "packages", name), path.join(root, "node_modules/@neutral", name), "dir");
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  const mark = (ok: boolean) => (ok ? "✓" : "✗");
  const lines = [
    "| document | methods | generate | tsc | round trip |",
    "| --- | ---: | :---: | :---: | --- |",
    ...rows.map((r) => {
      const methods = r.model ? r.model.methods.length : "?";
      const trip = `${r.passed}/${r.callable}${r.streams ? ` (${r.streams} of them event stream${r.streams > 1 ? "s" : ""})` : ""}`;
      return `| ${r.doc.id} | ${methods} | ${mark(!r.generateError)} | ${mark(!r.generateError && r.tscErrors.length === 0)} | ${trip} |`;
    }),
  ];
  const notes = rows.flatMap((r) => [
    ...[...r.failures].map(([method, why]) => `- ✗ ${r.doc.id} ${method}: ${FINDINGS[`${r.doc.id} ${method}`]?.why ?? `NEW: ${why}`}`),
    ...[...r.rejected].map(([method, what]) => `- refused as it should be: ${r.doc.id} ${method}: ${FINDINGS[`${r.doc.id} ${method}`]?.why ?? `NEW: ${what}`}`),
  ]);
  console.log(`\nCorpus\n\n${lines.join("\n")}\n${notes.length ? `\n${notes.join("\n")}\n` : ""}`);
});

describe("the corpus", () => {
  it("generates a client, a server stub and docs for every document", { timeout: 30_000 }, async () => {
    for (const r of rows) {
      r.out = path.join(root, r.doc.id);
      try {
        r.document = JSON.parse(await readFile(r.doc.spec, "utf8")) as Record<string, unknown>;
        r.model = buildModel(r.document);
        await generate({
          spec: r.doc.spec,
          targets: { client: { out: path.join(r.out, "client") }, server: { out: path.join(r.out, "server") }, docs: { out: path.join(r.out, "docs") } },
        });
      } catch (error) {
        r.generateError = error instanceof Error ? error.message : String(error);
      }
    }
    expect(Object.fromEntries(rows.filter((r) => r.generateError).map((r) => [r.doc.id, r.generateError]))).toEqual({});
  });

  it("type-checks every output in one strict program", { timeout: 90_000 }, async () => {
    const { default: ts } = await import("typescript");
    const config = {
      compilerOptions: {
        strict: true,
        target: "es2022",
        lib: ["es2022", "dom"],
        module: "nodenext",
        moduleResolution: "nodenext",
        noEmit: true,
        skipLibCheck: true,
        noUnusedLocals: true,
        noImplicitOverride: true,
        types: [],
      },
      include: rows.filter((r) => !r.generateError).map((r) => `${r.doc.id}/**/*.ts`),
    };
    await writeFile(path.join(root, "tsconfig.json"), JSON.stringify(config, null, 2));
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
    expect(parsed.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
    const diagnostics = ts.getPreEmitDiagnostics(program);
    const elsewhere: string[] = [];
    for (const d of diagnostics) {
      const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
      const file = d.file ? path.relative(root, d.file.fileName) : "";
      const where = d.file && d.start !== undefined ? `${file}(${d.file.getLineAndCharacterOfPosition(d.start).line + 1})` : file || "(no file)";
      const owner = rows.find((r) => file.startsWith(`${r.doc.id}/`));
      (owner ? owner.tscErrors : elsewhere).push(`${where}: ${message}`);
    }
    expect(elsewhere).toEqual([]);
    expect(Object.fromEntries(rows.filter((r) => r.tscErrors.length).map((r) => [r.doc.id, r.tscErrors.slice(0, 10)]))).toEqual({});
    expect(parsed.fileNames.length).toBe(rows.length * 12);
  });

  // A few seconds alone; 26 s in a CI run beside the relay's tests (20 s was too close).
  it("samples a valid value of every component schema, param and result (test/corpus-sample.ts)", { timeout: 120_000 }, () => {
    const invalid: string[] = [];
    for (const r of rows.filter((r) => r.model)) {
      const validator = documentValidator(r.document as { components?: Record<string, unknown> });
      const check = (schema: unknown, value: unknown) => validator.valid(schema, value);
      const schemas: [string, unknown][] = [
        ...r.model!.schemas.map((s): [string, unknown] => [`schema ${s.name}`, { $ref: `#/components/schemas/${s.name.replace(/~/g, "~0").replace(/\//g, "~1")}` }]),
        ...r.model!.methods.flatMap((m) => [...m.params.map((p): [string, unknown] => [`${m.name} ${p.name}`, p.schema]), ...(m.result ? [[`${m.name} result`, m.result.schema] as [string, unknown]] : [])]),
      ];
      for (const [what, schema] of schemas) {
        try {
          const value = sampleFromSchema(schema, r.document, { check });
          if (!validator.valid(schema, value)) invalid.push(`${r.doc.id} ${what}: ${validator.errors(schema, value)}`);
        } catch (error) {
          invalid.push(`${r.doc.id} ${what}: ${(error as Error).message}`);
        }
      }
    }
    expect(invalid).toEqual([]);
  });

  describe("round trip over HTTP: the generated client against a server from the generated stub", () => {
    it.for(CORPUS.map((doc) => doc.id))("%s", { timeout: 30_000 }, async (id) => {
      const r = row(id);
      expect(r.generateError, "generated").toBeUndefined();
      await roundTrip(r);
      const findings = (kind: string) => Object.keys(FINDINGS).filter((key) => key.startsWith(`${id} `) && FINDINGS[key]!.kind === kind).sort();
      const failing = [...r.failures.keys()].map((method) => `${id} ${method}`).sort();
      expect(failing, [...r.failures].map(([m, why]) => `${m}: ${why}`).join("\n")).toEqual(findings("result"));
      expect([...r.rejected.keys()].map((method) => `${id} ${method}`).sort(), [...r.rejected.values()].join("\n")).toEqual(findings("params"));
      expect(r.passed + r.failures.size).toBe(r.callable);
    });
  });

  describe("docs", () => {
    it.for(CORPUS.map((doc) => doc.id))("%s: the page has every method and component schema", { timeout: 10_000 }, async (id) => {
      const r = row(id);
      expect(r.generateError, "generated").toBeUndefined();
      const page = await readFile(path.join(r.out, "docs/index.html"), "utf8");
      const ids = new Set([...page.matchAll(/\sid="([^"]*)"/g)].map((m) => unescapeHtml(m[1]!)));
      const missing = [
        ...r.model!.methods.filter((m) => !ids.has(`method-${m.name}`)).map((m) => `method ${m.name}`),
        ...r.model!.schemas.filter((s) => !ids.has(`schema-${s.name}`)).map((s) => `schema ${s.name}`),
      ];
      expect(missing).toEqual([]);
      // Every in-page link lands.
      const broken = [...new Set([...page.matchAll(/\shref="#([^"]*)"/g)].map((m) => unescapeHtml(m[1]!)))].filter((target) => !ids.has(target));
      expect(broken).toEqual([]);
      // Standalone (no docs site around it): nothing to load, no script, no Try it forms (they need one).
      expect(page.match(/<script\b|\s(src|href)="(?!#)[^"]*"|<form\b/g)).toBeNull();
      expect(page).toContain("<style>");
      // Token badges only where the document says which methods need a token (x-requires-auth).
      const usesAuth = r.model!.methods.some((m) => (r.document!.methods as Record<string, unknown>[]).some((raw) => raw.name === m.name && raw["x-requires-auth"] !== undefined));
      if (!usesAuth) expect(page).not.toMatch(/class="badge (open|auth)"/);
      // Each example's request as the method takes it: by name for a by-name method, no id for a notification.
      for (const m of r.model!.methods) {
        const article = page.slice(page.indexOf(`id="method-${m.name}"`), page.indexOf("</article>", page.indexOf(`id="method-${m.name}"`)));
        const requests = [...article.matchAll(/<pre><code class="json">([\s\S]*?)<\/code><\/pre>/g)]
          .map((match) => JSON.parse(unescapeHtml(match[1]!)) as Record<string, unknown>)
          .filter((block) => "method" in block);
        expect(requests, `${m.name}: an example request each`).toHaveLength(m.examples.length);
        for (const request of requests) {
          expect(Array.isArray(request.params), `${m.name}: params by ${m.paramStructure}`).toBe(m.paramStructure !== "by-name");
          expect("id" in request, `${m.name}: an id`).toBe(!m.notification);
        }
      }
    });

    it("petstore: the page renders in Chromium, every method and schema shown, no console errors", { timeout: 180_000 }, async () => {
      const r = row("petstore");
      expect(r.generateError, "generated").toBeUndefined();
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
        const problems: string[] = [];
        page.on("console", (message) => message.type() === "error" && problems.push(`console: ${message.text()}`));
        page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
        page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()}`));
        await page.goto(pathToFileURL(path.join(r.out, "docs/index.html")).href, { waitUntil: "load" });
        const shown = await page.evaluate(() =>
          Array.from(document.querySelectorAll("article[id]"))
            .filter((element) => element.getBoundingClientRect().height > 0 && (element as HTMLElement).innerText.trim() !== "")
            .map((element) => element.id),
        );
        expect(shown.sort()).toEqual([...r.model!.methods.map((m) => `method-${m.name}`), ...r.model!.schemas.map((s) => `schema-${s.name}`)].sort());
        // Each is listed in the contents, and its heading shows its name.
        for (const m of r.model!.methods) await expectVisibleText(page, `#method-${m.name} h3`, m.name);
        for (const s of r.model!.schemas) await expectVisibleText(page, `#schema-${s.name} h3`, s.name);
        // The inline stylesheet applies: badges are pills.
        expect(await page.evaluate(() => getComputedStyle(document.querySelector(".badge")!).borderTopLeftRadius)).not.toBe("0px");
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  });
});

async function expectVisibleText(page: Page, selector: string, text: string): Promise<void> {
  const locator = page.locator(selector);
  expect(await locator.isVisible(), selector).toBe(true);
  expect((await locator.innerText()).trim()).toBe(text);
}

/**
 * Whether the handler got `sent`: the same value, where objects may carry members the call left
 * out (the schema's defaults, which the dispatcher fills in at any depth: tested in @neutral/server).
 */
function delivered(got: unknown, sent: unknown): boolean {
  if (typeof sent !== "object" || sent === null || typeof got !== "object" || got === null) return isDeepStrictEqual(got, sent);
  if (Array.isArray(sent)) return Array.isArray(got) && got.length === sent.length && sent.every((item, i) => delivered(got[i], item));
  if (Array.isArray(got)) return false;
  return Object.entries(sent).every(([key, value]) => delivered((got as Record<string, unknown>)[key], value));
}

const unescapeHtml = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

interface Call {
  /** What the table calls the call: the method, and the example's name. */
  label: string;
  params: Record<string, unknown>;
  /** The result the handler answers (on the wire: a wrapped method's one-element array). */
  wire?: unknown;
  /** Whether the params are valid against the method's param schemas, as the document declares them. */
  paramsProblem?: string;
  resultProblem?: string;
}

/** The calls to make of a method: one per example, or one from its schemas when it has none. */
function callsOf(method: ModelMethod, document: unknown, validator: DocumentValidator): Call[] {
  const check = (schema: unknown, value: unknown) => validator.valid(schema, value);
  const sampledResult = () => (method.result ? sampleFromSchema(method.result.schema, document, { check }) : undefined);
  const calls: Call[] =
    method.examples.length > 0
      ? method.examples.map((example, i) => ({
          label: `example ${JSON.stringify(example.name ?? String(i + 1))}`,
          params: Object.fromEntries(example.params.filter((p) => p.value !== null && p.value !== undefined).map((p) => [p.name, p.value])),
          wire: example.result && "value" in example.result ? example.result.value : sampledResult(),
        }))
      : [
          {
            label: "sampled",
            params: Object.fromEntries(method.params.map((p) => [p.name, sampleFromSchema(p.schema, document, { check })])),
            wire: sampledResult(),
          },
        ];
  for (const call of calls) {
    const problems: string[] = [];
    for (const name of Object.keys(call.params)) if (!method.params.some((p) => p.name === name)) problems.push(`${name} is not a param`);
    for (const p of method.params) {
      if (!(p.name in call.params)) {
        if (p.required) problems.push(`${p.name} is required but absent`);
      } else if (!validator.valid(p.schema, call.params[p.name])) {
        problems.push(`${p.name} ${validator.errors(p.schema, call.params[p.name])}`);
      }
    }
    if (problems.length) call.paramsProblem = problems.join("; ");
    if (method.result && !validator.valid(method.result.schema, call.wire)) call.resultProblem = validator.errors(method.result.schema, call.wire);
  }
  return calls;
}

type StreamEvents = readonly { id?: string; method: string; params: unknown }[];

/**
 * An event stream's examples (`x-events`): the handler streams the example's events, the generated
 * client's method (answered as Server-Sent Events) must yield exactly them, in order, and the handler
 * must get the example's params.
 */
async function streamTrip(
  method: ModelMethod,
  examples: readonly { method: string; name: string; params: readonly { name: string; value: unknown }[]; events?: StreamEvents }[],
  client: Record<string, unknown>,
  answerWith: (reply: unknown) => void,
  received: { method: string; args: Record<string, unknown> }[],
): Promise<string[]> {
  const problems: string[] = [];
  const withEvents = examples.filter((e) => e.method === method.name && e.events);
  if (withEvents.length === 0) return [`no example lists the events its stream opens with (x-events)`];
  for (const example of withEvents) {
    const events = example.events!;
    answerWith(
      (async function* () {
        yield* events;
      })(),
    );
    received.length = 0;
    const params = Object.fromEntries(example.params.filter((p) => p.value !== null && p.value !== undefined).map((p) => [p.name, p.value]));
    const got: unknown[] = [];
    const stream = (client[method.fn] as (params: unknown, options: unknown) => AsyncIterable<unknown>)(params, { timeoutMs: 10_000, idleTimeoutMs: 10_000 });
    try {
      for await (const event of stream) got.push(event);
    } catch (error) {
      problems.push(`${example.name}: ${String(error)}`);
      continue;
    }
    if (!isDeepStrictEqual(got, events)) problems.push(`${example.name}: streamed ${JSON.stringify(got).slice(0, 300)}, not ${JSON.stringify(events).slice(0, 300)}`);
    if (received.length !== 1) problems.push(`${example.name}: the handler was called ${received.length} times`);
    else for (const [name, value] of Object.entries(params)) if (!delivered(received[0]!.args[name], value)) problems.push(`${example.name}: the handler got ${name} = ${JSON.stringify(received[0]!.args[name])}`);
  }
  return problems;
}

async function roundTrip(r: Row): Promise<void> {
  const model = r.model!;
  const document = r.document!;
  const validator = documentValidator(document as { components?: Record<string, unknown> });
  const stub = (await import(pathToFileURL(path.join(r.out, "server/index.ts")).href)) as {
    service: ServiceDefinition;
    examples: readonly { method: string; name: string; params: readonly { name: string; value: unknown }[]; events?: StreamEvents }[];
  };
  const clientModule = (await import(pathToFileURL(path.join(r.out, "client/index.ts")).href)) as Record<string, unknown>;
  expect(Object.keys(stub.service.methods).sort()).toEqual(model.methods.map((m) => m.name).sort());
  // The stub's resolved example pairings: each example param under the name of the param it is for.
  expect(stub.examples.map((e) => [e.method, e.params.map((p) => p.name)])).toEqual(
    model.methods.flatMap((m) => m.examples.map((ex) => [m.name, ex.params.map((p) => p.name)])),
  );
  for (const e of stub.examples) {
    const method = model.methods.find((m) => m.name === e.method)!;
    for (const p of e.params) expect(method.params.map((q) => q.name), `${e.method}: example param ${p.name}`).toContain(p.name);
  }

  // Handlers: record the args they get, answer what the current call expects.
  let current: { method: string; reply: unknown } | undefined;
  const received: { method: string; args: Record<string, unknown> }[] = [];
  const handlers: Record<string, (args: Record<string, unknown>) => unknown> = {};
  for (const name of Object.keys(stub.service.methods)) {
    handlers[name] = (args) => {
      received.push({ method: name, args });
      if (current?.method !== name) throw new Error(`unexpected call of ${name}`);
      return current.reply;
    };
  }
  const internalErrors: string[] = [];
  const dispatcher = createDispatcher({ service: stub.service, handlers, onInternalError: (error, method) => internalErrors.push(`${method}: ${String(error)}`) });
  const server: Server = createServer(
    createHttpHandler({ dispatcher, authenticate: () => ({ auth: "corpus" }), onInternalError: (error) => internalErrors.push(String(error)) }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const factory = clientModule[`create${model.className}Client`] as (options: { url: string; auth: string; timeoutMs: number }) => Record<string, unknown>;
    expect(typeof factory, `create${model.className}Client`).toBe("function");
    const client = factory({ url, auth: "corpus-token", timeoutMs: 10_000 });
    const rpc = client.rpc as { request(request: { method: string; params: unknown[]; unwrap: boolean }): Promise<unknown> };

    for (const method of model.methods) {
      r.callable++;
      if (method.subscription) {
        r.streams++;
        const problems = await streamTrip(method, stub.examples, client, (reply) => (current = { method: method.name, reply }), received);
        if (problems.length) r.failures.set(method.name, problems.join(" | "));
        else r.passed++;
        continue;
      }
      const problems: string[] = [];
      for (const call of callsOf(method, document, validator)) {
        const fail = (what: string) => problems.push(`${call.label}: ${what}`);
        const payload = method.result?.wrapped ? (Array.isArray(call.wire) && call.wire.length === 1 ? call.wire[0] : undefined) : call.wire;
        if (method.result?.wrapped && payload === undefined) {
          fail("the example result is not the one-element array the method's result schema declares");
          continue;
        }
        current = { method: method.name, reply: payload };
        received.length = 0;
        internalErrors.length = 0;
        let answer: unknown;
        try {
          if (method.nodeToNode) {
            // Left out of the generated client: sent by position through its `rpc`.
            const params = method.params.map((p) => call.params[p.name] ?? null);
            while (params.length > 0 && params[params.length - 1] === null) params.pop();
            answer = await rpc.request({ method: method.name, params, unwrap: method.result?.wrapped ?? false });
          } else {
            const fn = client[method.fn] as (...args: unknown[]) => Promise<unknown>;
            answer = method.params.length > 0 ? await fn(call.params) : await fn();
          }
        } catch (error) {
          const e = error as { code?: number; message?: string };
          if (e.code === -32602 && call.paramsProblem) {
            r.rejected.set(method.name, `${call.label}: params break their schema (${call.paramsProblem}); answered -32602 ${e.message}`);
            continue;
          }
          fail(`${e.code ?? ""} ${e.message ?? String(error)}${call.paramsProblem ? ` (the example's params: ${call.paramsProblem})` : ""}${internalErrors.length ? ` [${internalErrors.join("; ")}]` : ""}`);
          continue;
        }
        if (call.paramsProblem && method.notification && received.length === 0) {
          // A notification is not answered: the refusal shows as a handler never called.
          r.rejected.set(method.name, `${call.label}: params break their schema (${call.paramsProblem}); not delivered to the handler`);
          continue;
        }
        if (call.paramsProblem) fail(`accepted params that break their schema: ${call.paramsProblem}`);
        // The handler saw the params the call gave, by name.
        if (received.length !== 1) fail(`the handler was called ${received.length} times`);
        else for (const [name, value] of Object.entries(call.params)) if (!delivered(received[0]!.args[name], value)) fail(`the handler got ${name} = ${JSON.stringify(received[0]!.args[name])}, not ${JSON.stringify(value)}`);
        if (method.notification) {
          if (answer !== undefined) fail(`a notification resolved to ${JSON.stringify(answer)}`);
          continue;
        }
        if (!isDeepStrictEqual(answer, payload)) fail(`got ${JSON.stringify(answer)?.slice(0, 200)}, not ${JSON.stringify(payload)?.slice(0, 200)}`);
        const wire = method.result?.wrapped ? [answer] : answer;
        if (method.result && !validator.valid(method.result.schema, wire)) fail(`the result does not match the result schema: ${validator.errors(method.result.schema, wire)}`);
      }
      if (problems.length) r.failures.set(method.name, problems.join(" | "));
      else r.passed++;
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
