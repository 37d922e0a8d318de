// generate(): validation before anything is written, a failed run that leaves every target's folder
// as it was, and a project's own component seeing its target's options (a config file's paths
// resolved relative to it).
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { generate, readConfig } from "./index.mjs";

const testDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "test");
const doc = {
  openrpc: "1.3.2",
  info: { title: "pets", version: "1.0.0" },
  methods: [{ name: "get_pet", params: [{ name: "id", required: true, schema: { type: "integer" } }], result: { name: "pet", schema: { type: "string" } } }],
};

const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});
async function project(document: unknown = doc): Promise<{ dir: string; spec: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "neutral-openrpc-generate-test-"));
  temps.push(dir);
  const spec = path.join(dir, "openrpc.json");
  await writeFile(spec, JSON.stringify(document));
  return { dir, spec };
}

describe("generate", () => {
  it("refuses an invalid document before writing anything, naming the violation", { timeout: 30_000 }, async () => {
    const { dir, spec } = await project({ openrpc: "1.3.2", info: { title: "x" }, methods: [] });
    const out = path.join(dir, "out");
    await expect(generate({ spec, targets: { server: { out } } })).rejects.toThrow(/is not a valid OpenRPC document:\n.*\/info.*version/);
    await expect(readdir(out)).rejects.toThrow(/ENOENT/);
  });

  it("leaves every target's folder as it was when a template fails half-way", { timeout: 30_000 }, async () => {
    const { dir, spec } = await project();
    const server = path.join(dir, "server");
    await mkdir(server);
    await writeFile(path.join(server, "before.ts"), "// from the last run\n");
    await expect(
      generate({ spec, targets: { server: { out: server }, failing: { out: path.join(dir, "failing"), component: path.join(testDir, "failing-component.cjs") } } }),
    ).rejects.toThrow(/template failed on purpose/);
    expect(await readdir(server)).toEqual(["before.ts"]);
  });

  it("clears a target's folder: a file the last run wrote and this one does not is gone", { timeout: 30_000 }, async () => {
    const { dir, spec } = await project();
    const server = path.join(dir, "server");
    await mkdir(server);
    await writeFile(path.join(server, "removed-method.ts"), "// stale\n");
    await generate({ spec, targets: { server: { out: server } } });
    expect((await readdir(server)).sort()).toEqual(["errors.ts", "examples.ts", "handlers.ts", "index.ts", "methods.ts", "openrpc.ts", "types.ts", "validators.ts"]);
  });

  it("generates a recursive schema (the engine never sees schemas: dereferencing one would not end)", { timeout: 30_000 }, async () => {
    const tree = { type: "object", properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } } };
    const { dir, spec } = await project({
      ...doc,
      methods: [{ name: "sum", params: [{ name: "tree", required: true, schema: { $ref: "#/components/schemas/Tree" } }], result: { name: "n", schema: { type: "integer" } } }],
      components: { schemas: { Tree: tree } },
    });
    await generate({ spec, targets: { client: { out: path.join(dir, "client") }, docs: { out: path.join(dir, "docs") } } });
    expect(await readFile(path.join(dir, "client/types.ts"), "utf8")).toMatch(/export interface Tree \{[\s\S]*children\?: Tree\[\];/);
    expect(await readFile(path.join(dir, "docs/index.html"), "utf8")).toContain('id="schema-Tree"');
  });

  it("runs a project's own component from a config file, with its target's options", { timeout: 30_000 }, async () => {
    const { dir } = await project();
    await writeFile(
      path.join(dir, "gen.json"),
      JSON.stringify({ spec: "openrpc.json", targets: { echo: { out: "out/echo", component: path.relative(dir, path.join(testDir, "echo-component.cjs")), flavour: "plain" } } }),
    );
    const config = await readConfig(path.join(dir, "gen.json"));
    expect(config.spec).toBe(path.join(dir, "openrpc.json"));
    await generate(config);
    const echoed = JSON.parse(await readFile(path.join(dir, "out/echo/echo.json"), "utf8")) as { target: Record<string, unknown>; methods: string[]; header: string };
    expect(echoed.target).toMatchObject({ name: "echo", flavour: "plain" });
    expect(echoed.methods).toEqual(["getPet"]);
    expect(echoed.header).toBe("generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).");
  });
});
