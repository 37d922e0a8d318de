// `neutral-openrpc test`: a live server checked against its document. A server that keeps the
// document passes every check; each way of breaking it fails the check that names it; the work is
// bounded (a result nested 100,000 deep, a server that never answers); the reporters and the command.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDispatcher, createHttpHandler, rawJson, RpcError } from "@neutral/server";
import { afterAll, describe, expect, it } from "vitest";
import { cliPath, petstorePath } from "../test/scaffold-support.js";
import { formatReport, mockService, runConformance, startMock, type ConformanceReport } from "./index.mjs";

const TEST_TIMEOUT_MS = 30_000;

const tree = { $ref: "#/components/schemas/Tree" };
/** A notes API: a recursive result, a documented error, an example that expects an error, a notification. */
const notes = {
  openrpc: "1.3.2",
  info: { title: "notes", version: "1.0.0" },
  methods: [
    {
      name: "notes_get",
      params: [{ name: "id", required: true, schema: { type: "integer", minimum: 1 } }],
      result: { name: "note", schema: { $ref: "#/components/schemas/Note" } },
      errors: [{ code: -32010, message: "No such note" }],
      examples: [
        { name: "Note 1", params: [{ name: "id", value: 1 }], result: { name: "note", value: { id: 1, text: "hi" } } },
        { name: "No note 999", params: [{ name: "id", value: 999 }], "x-error": { code: -32010, message: "No such note" } },
      ],
    },
    {
      name: "notes_tree",
      paramStructure: "by-name",
      params: [],
      result: { name: "tree", schema: tree },
      examples: [{ name: "A small tree", params: [], result: { name: "tree", value: { value: 1, children: [{ value: 2 }] } } }],
    },
    { name: "notes_log", paramStructure: "by-position", params: [{ name: "line", required: true, schema: { type: "string" } }], examples: [{ name: "A line", params: [{ name: "line", value: "hello" }] }] },
  ],
  components: {
    schemas: {
      Note: { type: "object", required: ["id", "text"], additionalProperties: false, properties: { id: { type: "integer" }, text: { type: "string" } } },
      Tree: { type: "object", required: ["value"], additionalProperties: false, properties: { value: { type: "integer" }, children: { type: "array", items: tree } } },
    },
  },
};

const servers: Server[] = [];
const folders: string[] = [];
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

type Behaviour = Partial<{ noteResult: unknown; noteError: number; treeResult: unknown; lenient: boolean; hang: boolean }>;

/** The notes server on @neutral/server's runtime, answering as `behaviour` says (by default: as the document says). */
async function notesServer(behaviour: Behaviour = {}, seen?: IncomingMessage["headers"][]): Promise<string> {
  const { service } = await mockService(notes);
  const handlers = {
    notes_get: ({ id }: { id: number }) => {
      if (behaviour.noteError !== undefined) throw new RpcError(behaviour.noteError, "broken");
      if (id !== 1) throw new RpcError(-32010, "No such note");
      return behaviour.noteResult ?? { id: 1, text: "hi" };
    },
    notes_tree: () => behaviour.treeResult ?? { value: 1 },
    notes_log: () => undefined,
  };
  const dispatcher = createDispatcher({ service, handlers, validateResults: false });
  const http = createHttpHandler({ dispatcher });
  return listen(
    createServer((request, response) => {
      seen?.push(request.headers);
      if (behaviour.hang) return; // never answers
      if (behaviour.lenient) {
        // Answers every call with a result, whatever its params: no validation at all.
        let body = "";
        request.on("data", (chunk) => (body += chunk));
        request.on("end", () => {
          let id: unknown = null;
          try {
            id = (JSON.parse(body) as { id?: unknown }).id ?? null;
          } catch {}
          response.setHeader("content-type", "application/json");
          response.end(JSON.stringify({ jsonrpc: "2.0", id, result: { id: 1, text: "hi" } }));
        });
        return;
      }
      void http(request, response);
    }),
  );
}

const failures = (report: ConformanceReport) => report.cases.filter((c) => c.outcome === "fail").map((c) => `${c.method}: ${c.name} (${c.call}): ${c.detail}`);

describe("a server that keeps its document", () => {
  it("passes every check: examples both ways, the expected error, invalid params, the server-wide errors", { timeout: TEST_TIMEOUT_MS }, async () => {
    const report = await runConformance(notes, { url: await notesServer() });
    expect(failures(report)).toEqual([]);
    expect(report.cases.map((c) => `${c.method}: ${c.name} (${c.call}) ${c.outcome}`)).toEqual([
      "notes_get: Note 1 (by-position) pass",
      "notes_get: Note 1 (by-name) pass",
      "notes_get: No note 999 (error -32010) (by-position) pass",
      "notes_get: No note 999 (error -32010) (by-name) pass",
      "notes_get: invalid params (id) (by-name) pass",
      "notes_tree: A small tree (by-name) pass",
      "notes_log: A line (by-position) pass",
      "notes_log: invalid params (line) (by-position) pass",
      "(server): a method that does not exist (raw) pass",
      "(server): a body that is not JSON (raw) pass",
      "(server): a request without a method (raw) pass",
    ]);
    expect(report).toMatchObject({ passed: 11, failed: 0, skipped: 0 });
  });

  it("passes against the mock of the petstore of @open-rpc/examples", { timeout: TEST_TIMEOUT_MS }, async () => {
    const petstore = JSON.parse(readFileSync(petstorePath, "utf8")) as object;
    const mock = await startMock(petstore);
    try {
      const report = await runConformance(petstore, { url: mock.url });
      expect(failures(report)).toEqual([]);
      expect(report.passed).toBeGreaterThanOrEqual(8);
    } finally {
      await mock.close();
    }
  });
});

describe("a method without examples", () => {
  it("is called without params, as its paramStructure says (an object for by-name), and its answer checked", { timeout: TEST_TIMEOUT_MS }, async () => {
    const document = {
      openrpc: "1.3.2",
      info: { title: "clock", version: "1" },
      methods: [
        { name: "clock_now", paramStructure: "by-name", params: [], result: { name: "now", schema: { type: "integer", minimum: 0 } } },
        { name: "clock_zone", paramStructure: "by-position", params: [{ name: "city", schema: { type: "string" } }], result: { name: "zone", schema: { type: "string" } } },
      ],
    };
    const mock = await startMock(document);
    try {
      const report = await runConformance(document, { url: mock.url });
      expect(report.cases.filter((c) => c.name === "without params (no example)").map((c) => [c.method, c.call, c.outcome])).toEqual([
        ["clock_now", "by-name", "pass"],
        ["clock_zone", "by-position", "pass"],
      ]);
      expect(failures(report)).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});

describe("a server that breaks its document fails the check that names it", () => {
  it("a result off its schema", { timeout: TEST_TIMEOUT_MS }, async () => {
    const report = await runConformance(notes, { url: await notesServer({ noteResult: { id: "1", text: "hi" } }) });
    expect(failures(report)).toEqual([
      "notes_get: Note 1 (by-position): the result does not match its schema: result.id must be integer",
      "notes_get: Note 1 (by-name): the result does not match its schema: result.id must be integer",
    ]);
  });

  it("an error the method does not document, and the wrong error for an example that expects one", { timeout: TEST_TIMEOUT_MS }, async () => {
    const report = await runConformance(notes, { url: await notesServer({ noteError: -32011 }) });
    expect(failures(report)).toEqual([
      "notes_get: Note 1 (by-position): answered error -32011: broken, which the method does not document",
      "notes_get: Note 1 (by-name): answered error -32011: broken, which the method does not document",
      expect.stringMatching(/^notes_get: No note 999 \(error -32010\) \(by-position\): expected error -32010, got .*-32011/),
      expect.stringMatching(/^notes_get: No note 999 \(error -32010\) \(by-name\): expected error -32010, got .*-32011/),
    ]);
  });

  it("params its schemas refuse, accepted; every standard error missing", { timeout: TEST_TIMEOUT_MS }, async () => {
    const report = await runConformance(notes, { url: await notesServer({ lenient: true }) });
    const failed = failures(report);
    expect(failed).toContainEqual(expect.stringMatching(/^notes_get: invalid params \(id\) \(by-name\): params the schema refuses \(id must be integer\) were answered .*, not -32602$/));
    expect(failed).toContainEqual(expect.stringMatching(/^\(server\): a method that does not exist \(raw\): expected error -32601/));
    expect(failed).toContainEqual(expect.stringMatching(/^\(server\): a body that is not JSON \(raw\): expected error -32700/));
    expect(failed).toContainEqual(expect.stringMatching(/^notes_log: A line \(by-position\): a notification was answered/));
    expect(failed).toContainEqual(expect.stringMatching(/^notes_tree: A small tree \(by-name\): the result does not match its schema: result.value is required/));
  });
});

describe("a server that wants a token the run does not give", () => {
  it("passes an example answered with the documented refusal, and skips the invalid-params check (its params were never looked at)", { timeout: TEST_TIMEOUT_MS }, async () => {
    const guarded = structuredClone(notes) as typeof notes & { methods: { errors?: { code: number; message: string }[] }[] };
    guarded.methods[0]!.errors = [{ code: -32010, message: "No such note" }, { code: -32001, message: "Unauthorized" }];
    const url = await listen(
      createServer((request, response) => {
        request.resume();
        request.on("end", () => {
          response.statusCode = 401;
          response.setHeader("content-type", "application/json");
          response.end(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32001, message: "Unauthorized: missing token" } }));
        });
      }),
    );
    const report = await runConformance(guarded, { url });
    const get = report.cases.filter((c) => c.method === "notes_get");
    expect(get.find((c) => c.name === "Note 1")).toMatchObject({ outcome: "pass", detail: "answered an error the method documents (-32001: Unauthorized: missing token)" });
    expect(get.find((c) => c.name.startsWith("invalid params"))).toMatchObject({ outcome: "skip", detail: expect.stringContaining("before its params could be checked") });
    // A method that does not document it fails on it.
    expect(report.cases.find((c) => c.method === "notes_tree")).toMatchObject({ outcome: "fail", detail: expect.stringContaining("which the method does not document") });
  });
});

describe("bounded work", () => {
  it("checks a result nested 100,000 deep without hanging or throwing", { timeout: TEST_TIMEOUT_MS }, async () => {
    // Written as text: JSON.stringify itself cannot go that deep.
    const deep = rawJson('{"value":1,"children":['.repeat(100_000) + '{"value":0}' + "]}".repeat(100_000));
    // The test's own time limit is the bound on the run: it must end, not hang.
    const report = await runConformance(notes, { url: await notesServer({ treeResult: deep }) });
    const treeCase = report.cases.find((c) => c.method === "notes_tree")!;
    // Too deep to walk: reported as a failure of that check, the run goes on.
    expect(treeCase).toMatchObject({ outcome: "fail", detail: expect.stringMatching(/nested too deep|does not match/) });
    expect(report.cases.at(-1)!.outcome).toBe("pass");
  });

  it("gives each call its time limit: a server that never answers fails each check, and the run ends", { timeout: TEST_TIMEOUT_MS }, async () => {
    const report = await runConformance(notes, { url: await notesServer({ hang: true }), timeoutMs: 200 });
    expect(report.failed).toBe(report.cases.length);
    expect(new Set(report.cases.map((c) => c.detail))).toEqual(new Set(["no answer within 200 ms"]));
  });
});

describe("reporters", () => {
  const report: ConformanceReport = {
    title: "notes & <co>",
    url: "http://127.0.0.1:1/",
    cases: [
      { method: "a", name: "one", call: "by-name", outcome: "pass", detail: "ok", ms: 2 },
      { method: "a", name: "two", call: "by-position", outcome: "fail", detail: 'result.x must be "<y>"', ms: 3 },
      { method: "b", name: "event stream", call: "raw", outcome: "skip", detail: "not run", ms: 0 },
    ],
    passed: 1,
    failed: 1,
    skipped: 1,
  };

  it("TAP 14: a plan, one line per check, the failure's message in YAML, skips marked", async () => {
    expect(await formatReport(report, "tap")).toBe(
      [
        "TAP version 14",
        "1..3",
        "ok 1 - a: one (by-name)",
        "not ok 2 - a: two (by-position)",
        "  ---",
        '  message: "result.x must be \\"<y>\\""',
        "  duration_ms: 3",
        "  ...",
        "ok 3 - b: event stream (raw) # SKIP not run",
        "# pass 1",
        "# fail 1",
        "# skip 1",
        "",
      ].join("\n"),
    );
  });

  it("JUnit: counts, one testcase per check, failures and skips, text escaped", async () => {
    const xml = await formatReport(report, "junit");
    expect(xml).toContain('<testsuites name="neutral-openrpc test" tests="3" failures="1" skipped="1" time="0.005">');
    expect(xml).toContain('<testsuite name="notes &amp; &lt;co&gt;" tests="3" failures="1" skipped="1" time="0.005">');
    expect(xml).toContain('<testcase classname="a" name="two (by-position)" time="0.003"><failure message="result.x must be &quot;&lt;y&gt;&quot;"/></testcase>');
    expect(xml).toContain('<testcase classname="b" name="event stream (raw)" time="0.000"><skipped message="not run"/></testcase>');
    expect(xml.match(/<testcase /g)).toHaveLength(3);
  });

  it("the table: one line per check and the totals", async () => {
    const table = await formatReport(report);
    expect(table.split("\n")[0]).toBe("notes & <co> at http://127.0.0.1:1/: 3 checks");
    expect(table).toContain("✗ a: two (by-position)");
    expect(table.trim().split("\n").at(-1)).toBe("1 passed, 1 failed, 1 skipped");
  });
});

describe("neutral-openrpc test", () => {
  async function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [cliPath, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    return { code, stdout, stderr };
  }

  async function notesFile(): Promise<string> {
    const folder = await mkdtemp(path.join(tmpdir(), "neutral-openrpc-test-"));
    folders.push(folder);
    const file = path.join(folder, "notes.json");
    await writeFile(file, JSON.stringify(notes));
    return file;
  }

  it("exits 0 when every check passes, sends each --header, and prints the chosen reporter", { timeout: TEST_TIMEOUT_MS }, async () => {
    const seen: IncomingMessage["headers"][] = [];
    const url = await notesServer({}, seen);
    const result = await cli(["test", url, "--spec", await notesFile(), "--header", "Authorization: Bearer t0k3n", "--header", "X-Run: 7", "--reporter", "tap"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^TAP version 14\n1\.\.11\n/);
    expect(seen.length).toBeGreaterThanOrEqual(11);
    expect(seen.every((headers) => headers.authorization === "Bearer t0k3n" && headers["x-run"] === "7")).toBe(true);
  });

  it("exits 1 when a check fails", { timeout: TEST_TIMEOUT_MS }, async () => {
    const result = await cli(["test", await notesServer({ noteResult: { id: 1 } }), "--spec", await notesFile()]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("✗ notes_get: Note 1 (by-position)");
    expect(result.stdout).toContain("the result does not match its schema: result.text is required");
  });

  it("refuses bad usage with exit 2, never echoing a header", { timeout: TEST_TIMEOUT_MS }, async () => {
    const spec = await notesFile();
    for (const [args, message] of [
      [["test", "--spec", spec], "test needs exactly one URL"],
      [["test", "ftp://x/", "--spec", spec], "test needs an http(s) URL"],
      [["test", "http://127.0.0.1:1/"], "test needs --spec FILE"],
      [["test", "http://127.0.0.1:1/", "--spec", spec, "--reporter", "xml"], "--reporter must be table, tap or junit"],
      [["test", "http://127.0.0.1:1/", "--spec", spec, "--timeout-ms", "0"], "--timeout-ms must be a positive integer"],
      [["test", "http://127.0.0.1:1/", "--spec", spec, "--header", "Bearer s3cr3t-token"], '--header must be "Name: value" (header 1 has no name before a colon)'],
    ] as const) {
      const result = await cli([...args]);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain("s3cr3t");
    }
  });
});
