// `neutral-openrpc mock`: every example of a document answered as written, any other call with a
// value of the result schema (the same each time), bad params refused as the real server refuses
// them, rpc.discover, and the command itself.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliPath, petstorePath } from "../test/scaffold-support.js";
import { startMock } from "./index.mjs";

const workspaceSpec = fileURLToPath(new URL("../../../openrpc.json", import.meta.url));

interface Example {
  name: string;
  params: { name: string; value: unknown }[];
  result?: { value: unknown };
}
interface Method {
  name: string;
  params: { name: string }[];
  result?: { schema: unknown };
  examples?: Example[];
  "x-subscription"?: unknown;
}
interface Document {
  info: { title: string };
  methods: Method[];
  components?: Record<string, unknown>;
}

type Mock = Awaited<ReturnType<typeof startMock>>;
const running: Mock[] = [];
afterAll(async () => {
  await Promise.all(running.map((mock) => mock.close()));
});

async function call(url: string, method: string, params: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

describe("the mock of neutralService's own openrpc.json (examples by position)", () => {
  const document = JSON.parse(readFileSync(workspaceSpec, "utf8")) as Document;
  let mock: Mock;
  beforeAll(async () => {
    mock = await startMock(document);
    running.push(mock);
  });

  it("answers every example of every method that is not an event stream exactly as written", async () => {
    const replayed: string[] = [];
    for (const method of document.methods.filter((m) => m["x-subscription"] === undefined)) {
      for (const example of method.examples ?? []) {
        if (example.result === undefined) continue;
        const answer = await call(mock.url, method.name, example.params.map((param) => param.value));
        expect({ example: `${method.name} ${example.name}`, answer }).toEqual({ example: `${method.name} ${example.name}`, answer: { jsonrpc: "2.0", id: 1, result: example.result.value } });
        replayed.push(method.name);
      }
    }
    expect(new Set(replayed).size).toBeGreaterThan(15);
  });

  it("says which methods are event streams, and answers them -32601", async () => {
    expect(mock.streams).toEqual(["neutralService_subscribe"]);
    expect((await call(mock.url, "neutralService_subscribe", {})).error?.code).toBe(-32601);
  });

  it("serves the document on rpc.discover", async () => {
    expect((await call(mock.url, "rpc.discover", [])).result).toEqual(document);
  });
});

describe("the mock of a third-party document (@open-rpc/examples' petstore)", () => {
  const document = JSON.parse(readFileSync(petstorePath, "utf8")) as Document;
  const ajv = new Ajv({ strict: false });
  let mock: Mock;
  beforeAll(async () => {
    mock = await startMock(document);
    running.push(mock);
  });

  it("answers a call no example matches with a value of the result schema, the same every time", async () => {
    const listPets = document.methods.find((m) => m.name === "list_pets")!;
    const first = await call(mock.url, "list_pets", [5]);
    expect(first.error).toBeUndefined();
    const validate = ajv.compile({ ...(listPets.result!.schema as object), components: document.components });
    expect(validate(first.result), JSON.stringify(validate.errors)).toBe(true);
    expect(first.result).not.toEqual(listPets.examples![0]!.result!.value);
    expect(await call(mock.url, "list_pets", [5])).toEqual(first);
    const created = await call(mock.url, "create_pet", { newPetName: "rex" });
    expect(typeof created.result).toBe("number");
  });

  it("refuses params the document's schemas refuse, naming the param", async () => {
    const answer = await call(mock.url, "list_pets", ["five"]);
    expect(answer.error).toMatchObject({ code: -32602 });
    expect(answer.error!.message).toContain("limit");
    expect((await call(mock.url, "no_such_method", [])).error?.code).toBe(-32601);
  });
});

describe("what generation loads", () => {
  it("never @neutral/server: the modules the CLI and the API load up front import it nowhere (it generates that runtime's own stub, before it is built)", () => {
    const seen = new Set<string>();
    const imports: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, "utf8");
      // Static imports and requires only: `await import(…)` loads at the call.
      for (const [, specifier] of source.matchAll(/^\s*(?:import\s[^;]*?from\s+|import\s+|(?:const|let)\s[^=]*=\s*require\()["']([^"']+)["']/gm)) {
        imports.push(`${path.basename(file)} → ${specifier}`);
        if (specifier!.startsWith(".")) visit(path.resolve(path.dirname(file), specifier!));
      }
    };
    for (const entry of ["cli.mjs", "index.mjs"]) visit(fileURLToPath(new URL(entry, import.meta.url)));
    expect(imports.filter((line) => /@neutral\/server|mock\.mjs|conformance\.mjs/.test(line))).toEqual([]);
    expect(imports.length).toBeGreaterThan(10); // the walk found the graph
  });
});

describe("neutral-openrpc mock", () => {
  it("prints where it listens, serves until SIGTERM, then exits 0", { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, [cliPath, "mock", "--spec", petstorePath, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      let out = "";
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /^Mock of Petstore listening on (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
      });
      expect((await call(url, "get_pet", [7])).result).toEqual({ name: "fluffy", tag: "poodle", id: 7 });
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("refuses a missing --spec and a bad --port (exit 2)", async () => {
    for (const args of [["mock"], ["mock", "--spec", petstorePath, "--port", "70000"]]) {
      const child = spawn(process.execPath, [cliPath, ...args], { stdio: ["ignore", "pipe", "pipe"] });
      expect(await new Promise<number | null>((resolve) => child.once("exit", resolve))).toBe(2);
    }
  });
});
