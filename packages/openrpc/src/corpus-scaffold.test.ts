// The toolkit end to end on documents heavy on composition and recursion: our shop API (a recursive
// oneOf filter, an allOf order, payments told apart by a kind, nested defaults), MetaMask's API
// (@metamask/api-specs: 116 schemas, oneOf/allOf throughout) and neutralService's own. For each:
// generate (client, stub, docs), create the server project, build it with tsc (strict), start it
// with handlers that answer the document's examples (the mock's: `mockService`), and run the
// conformance runner against it. The docs page must show every method and schema. Ends with the
// corpus table: document → generate / create / build / test / docs.
//
// The project is built against the workspace's packages, linked (not installed: the release test
// installs a scaffold from a registry), and started in this process (its `startServer`).
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRun, ensureServerBuilt, run, workspaceDir } from "../test/scaffold-support.js";
import { create, generate, runConformance, type ConformanceReport } from "./index.mjs";

const require = createRequire(import.meta.url);
const TIMEOUT_MS = 240_000;

/**
 * The documents, and the checks known to fail on each because the document contradicts itself (an
 * example whose result breaks its own result schema, or whose params break their own schemas: see
 * FINDINGS in corpus.test.ts): method → why.
 */
const DOCUMENTS: { id: string; spec: string; knownFailures: Record<string, string> }[] = [
  { id: "shop", spec: fileURLToPath(new URL("../test/documents/shop-openrpc.json", import.meta.url)), knownFailures: {} },
  {
    id: "metamask",
    spec: require.resolve("@metamask/api-specs/dist/build/openrpc.json"),
    knownFailures: {
      wallet_addEthereumChain: 'example result "null" (a string); the schema is {"type": "null"}',
      wallet_switchEthereumChain: 'example result "null" (a string); the schema is {"type": "null"}',
      wallet_revokePermissions: 'example result "null" (a string); the schema is {"type": "null"}',
      wallet_getPermissions: "example result an object; PermissionsList is an array",
      wallet_requestPermissions: "example result an object; PermissionsList is an array",
      eth_decrypt: "the result schema is PermissionsList, the example a string",
      eth_feeHistory: "the example spells oldestBlock `oldestblock`",
      eth_getBlockByHash: "the example block has totalDifficulty, which Block does not declare",
      eth_getBlockByNumber: "the example block has totalDifficulty, which Block does not declare",
      eth_getTransactionByHash: "the example transaction has no `type`",
      eth_getTransactionByBlockHashAndIndex: "the example transaction has no `type`",
      eth_getTransactionByBlockNumberAndIndex: "the example transaction has no `type`",
      eth_newFilter: 'the example filter id "0x01" has a leading zero, which uint forbids',
      eth_newBlockFilter: 'the example filter id "0x01" has a leading zero, which uint forbids',
      eth_newPendingTransactionFilter: 'the example filter id "0x01" has a leading zero, which uint forbids',
      eth_sendRawTransaction: "the example transaction hash has 63 hex digits",
      eth_getFilterChanges: 'example params: the filter id "0x01" has a leading zero (refused -32602, which the method does not document)',
      eth_getFilterLogs: 'example params: the filter id "0x01" has a leading zero (refused -32602, which the method does not document)',
      eth_uninstallFilter: 'example params: the filter id "0x01" has a leading zero (refused -32602, which the method does not document)',
      eth_getProof: 'example params: the second storage key is not hex (refused -32602, which the method does not document)',
    },
  },
  { id: "neutralService", spec: path.join(workspaceDir, "openrpc.json"), knownFailures: {} },
];

interface Row {
  id: string;
  generate?: boolean;
  create?: boolean;
  build?: boolean;
  report?: ConformanceReport;
  docs?: boolean;
}
const rows: Row[] = DOCUMENTS.map(({ id }) => ({ id }));
let tmp: string;

beforeAll(async () => {
  await ensureServerBuilt();
  tmp = await mkdtemp(path.join(os.tmpdir(), "neutral-corpus-scaffold-"));
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
  const mark = (ok: boolean | undefined) => (ok === undefined ? "?" : ok ? "✓" : "✗");
  const lines = [
    "| document | generate | create | build | test (passed / failed / skipped) | docs |",
    "| --- | :---: | :---: | :---: | --- | :---: |",
    ...rows.map((r) => `| ${r.id} | ${mark(r.generate)} | ${mark(r.create)} | ${mark(r.build)} | ${r.report ? `${r.report.passed} / ${r.report.failed} / ${r.report.skipped}` : "?"} | ${mark(r.docs)} |`),
  ];
  console.log(`\nCorpus: scaffolded and tested\n\n${lines.join("\n")}\n`);
});

/** Links what the project needs from the workspace: the runtime, the toolkit (the mock's handlers), TypeScript, Node's types. */
async function linkModules(dir: string): Promise<void> {
  const modules = path.join(dir, "node_modules");
  await mkdir(path.join(modules, "@neutral"), { recursive: true });
  await mkdir(path.join(modules, "@types"), { recursive: true });
  await symlink(path.join(workspaceDir, "packages/server"), path.join(modules, "@neutral/server"));
  await symlink(path.join(workspaceDir, "packages/openrpc"), path.join(modules, "@neutral/openrpc"));
  await symlink(path.dirname(require.resolve("typescript/package.json")), path.join(modules, "typescript"));
  await symlink(path.dirname(require.resolve("@types/node/package.json")), path.join(modules, "@types/node"));
}

/** Every handler answers as the mock does: the result of the example its params match, else a value of its result schema. */
async function writeHandlers(dir: string): Promise<string[]> {
  const handlersDir = path.join(dir, "src/handlers");
  await writeFile(
    path.join(handlersDir, "answers.ts"),
    [
      `import { readFileSync } from "node:fs";`,
      `import { mockService } from "@neutral/openrpc";`,
      ``,
      `const document = JSON.parse(readFileSync(new URL("../../openrpc.json", import.meta.url), "utf8")) as object;`,
      `const { handlers } = await mockService(document);`,
      ``,
      `/** The mock's answer to a call of \`method\`. */`,
      `export const answer = (method: string, args: Record<string, unknown>): unknown => handlers[method]!(args);`,
      ``,
    ].join("\n"),
  );
  const written: string[] = [];
  for (const file of await readdir(handlersDir)) {
    const source = await readFile(path.join(handlersDir, file), "utf8");
    const declaration = /export const (\w+): Handlers\["([^"]+)"\]/.exec(source);
    if (!declaration) continue;
    const [, constName, method] = declaration;
    await writeFile(
      path.join(handlersDir, file),
      [
        `import type { Handlers } from "../generated/index.js";`,
        `import { answer } from "./answers.js";`,
        ``,
        `export const ${constName} = (async (args: Record<string, unknown>) => answer(${JSON.stringify(method)}, args)) as unknown as Handlers[${JSON.stringify(method)}];`,
        ``,
      ].join("\n"),
    );
    written.push(method!);
  }
  return written;
}

describe.sequential("the corpus, scaffolded and tested", () => {
  for (const [index, { id, spec, knownFailures }] of DOCUMENTS.entries()) {
    it(`${id}: generate, create, build, start, neutral-openrpc test, docs`, { timeout: TIMEOUT_MS }, async () => {
      const row = rows[index]!;
      const document = JSON.parse(await readFile(spec, "utf8")) as { methods: { name: string }[]; components?: { schemas?: Record<string, unknown> } };

      const generated = path.join(tmp, `${id}-generated`);
      await generate({ spec, targets: { client: { out: path.join(generated, "client") }, server: { out: path.join(generated, "server") }, docs: { out: path.join(generated, "docs") } } });
      row.generate = true;

      const dir = path.join(tmp, id);
      await create(dir, { spec });
      await linkModules(dir);
      const handled = await writeHandlers(dir);
      // One per method (an event stream's too, which the mock does not answer and the runner does not call).
      expect(handled.sort()).toEqual(document.methods.map((method) => method.name).sort());
      row.create = true;

      const tsc = await run(process.execPath, [path.join(dir, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: dir, timeoutMs: 180_000 });
      expect(tsc.code, describeRun("tsc", tsc)).toBe(0);
      row.build = true;

      const { startServer } = (await import(pathToFileURL(path.join(dir, "dist/server.js")).href)) as {
        startServer(options: { port: number; host: string }): Promise<{ url: string; close(): Promise<void> }>;
      };
      // The project's server logs what its handlers get wrong (its onInternalError): kept, not printed.
      const logged: string[] = [];
      const consoleError = console.error;
      console.error = (...args: unknown[]) => void logged.push(args.map(String).join(" "));
      const server = await startServer({ port: 0, host: "127.0.0.1" });
      try {
        const report = await runConformance(document, { url: server.url });
        row.report = report;
        const failed = report.cases.filter((c) => c.outcome === "fail");
        // Exactly the checks the document's own contradictions fail, and every one of them.
        expect(new Set(failed.map((c) => c.method)), failed.map((c) => `${c.method}: ${c.name} (${c.call}): ${c.detail}`).join("\n")).toEqual(new Set(Object.keys(knownFailures)));
        expect(report.passed).toBeGreaterThan(document.methods.length);
        // What the server logged: results off their schema (checked in tests), of those methods only.
        expect(new Set(logged.map((line) => line.split(" ")[0]))).toEqual(new Set(failed.filter((c) => c.detail.includes("-32603")).map((c) => c.method)));
      } finally {
        console.error = consoleError;
        await server.close();
      }

      const page = await readFile(path.join(generated, "docs/index.html"), "utf8");
      for (const method of document.methods) expect(page, method.name).toContain(`id="method-${method.name}"`);
      for (const name of Object.keys(document.components?.schemas ?? {})) expect(page, name).toContain(`id="schema-${name}"`);
      expect(page).not.toContain("undefined");
      row.docs = true;
    });
  }
});
