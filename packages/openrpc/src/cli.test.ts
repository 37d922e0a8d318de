// The `neutral-openrpc` command as a user runs it: a child process, its exit code and what it prints.
// 0 done, 1 failed (a bad document, stale files), 2 bad usage; mistakes in the input are one
// readable message, never a stack trace.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRun, petstorePath, runCli } from "../test/scaffold-support.js";

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "neutral-openrpc-cli-"));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** A stack frame, as Node prints one. */
const STACK = /^\s+at .+:\d+:\d+\)?$/m;

describe("usage", () => {
  it("--help: exit 0, and names both commands", async () => {
    const result = await runCli(["--help"], tmp);
    expect(result.code, describeRun("--help", result)).toBe(0);
    expect(result.stdout).toMatch(/neutral-openrpc generate --spec FILE/);
    expect(result.stdout).toMatch(/neutral-openrpc create DIR --spec FILE/);
  });

  it("no arguments: the usage, exit 2", async () => {
    const result = await runCli([], tmp);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/Usage:/);
  });

  it("an unknown command: exit 2, naming it", async () => {
    const result = await runCli(["frobnicate"], tmp);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command "frobnicate"');
  });

  it("generate without --spec: exit 2 with a clear message", async () => {
    const result = await runCli(["generate", "--out", path.join(tmp, "never")], tmp);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^neutral-openrpc: generate needs --spec FILE/);
    expect(result.stderr).not.toMatch(STACK);
  });

  it("an unknown option: exit 2", async () => {
    const result = await runCli(["generate", "--spec", petstorePath, "--out", path.join(tmp, "never"), "--frob"], tmp);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--frob");
    expect(result.stderr).not.toMatch(STACK);
  });

  it("create without --spec: exit 2", async () => {
    const result = await runCli(["create", path.join(tmp, "never")], tmp);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("create needs --spec FILE");
  });
});

describe("mistakes in the input: exit 1, one readable message, no stack trace", () => {
  it("a spec that does not exist", async () => {
    const missing = path.join(tmp, "missing.json");
    const result = await runCli(["generate", "--spec", missing, "--out", path.join(tmp, "never")], tmp);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`neutral-openrpc: cannot read ${missing}: no such file\n`);
    expect(result.stdout).toBe("");
  });

  it("an invalid OpenRPC document: the violation listed", async () => {
    const spec = path.join(tmp, "invalid.json");
    await writeFile(spec, JSON.stringify({ openrpc: "1.2.6", info: { title: "No version" }, methods: [] }));
    const result = await runCli(["generate", "--spec", spec, "--out", path.join(tmp, "never")], tmp);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${spec} is not a valid OpenRPC document:`);
    expect(result.stderr).toMatch(/^  \/info: (?:must|should) have required property 'version'$/m);
    expect(result.stderr).not.toMatch(STACK);
    await expect(readdir(path.join(tmp, "never"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("create into a directory that is not empty", async () => {
    const dir = path.join(tmp, "taken");
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir);
    await writeFile(path.join(dir, "keep.txt"), "mine");
    const result = await runCli(["create", dir, "--spec", petstorePath], tmp);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^neutral-openrpc: .*taken is not empty/);
    expect(result.stderr).not.toMatch(STACK);
    expect(await readdir(dir)).toEqual(["keep.txt"]);
  });
});

describe("generate", () => {
  it("--server writes DIR/server only", async () => {
    const out = path.join(tmp, "server-only");
    const result = await runCli(["generate", "--spec", petstorePath, "--out", out, "--server"], tmp);
    expect(result.code, describeRun("generate --server", result)).toBe(0);
    expect(await readdir(out)).toEqual(["server"]);
    expect((await readdir(path.join(out, "server"))).sort()).toEqual(["errors.ts", "examples.ts", "handlers.ts", "index.ts", "methods.ts", "openrpc.ts", "types.ts", "validators.ts"]);
  });

  it("--config F --check: exit 0 when up to date, exit 1 naming the stale file once a generated file is edited", async () => {
    const project = path.join(tmp, "config-project");
    await mkdir(project);
    await writeFile(path.join(project, "openrpc.json"), await readFile(petstorePath));
    const config = path.join(project, "neutral-openrpc.json");
    await writeFile(config, JSON.stringify({ spec: "openrpc.json", targets: { server: { out: "src/generated" } } }));

    const generated = await runCli(["generate", "--config", config], project);
    expect(generated.code, describeRun("generate --config", generated)).toBe(0);
    expect(generated.stdout).toBe("Generated server from openrpc.json.\n");

    const fresh = await runCli(["generate", "--config", config, "--check"], project);
    expect(fresh.code, describeRun("--check", fresh)).toBe(0);
    expect(fresh.stdout).toContain("up to date");

    const types = path.join(project, "src/generated/types.ts");
    await writeFile(types, `${await readFile(types, "utf8")}\nexport type Edited = true;\n`);
    const stale = await runCli(["generate", "--config", config, "--check"], project);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("out of date");
    expect(stale.stderr).toMatch(/^ {2}src\/generated\/types\.ts$/m);
    expect(stale.stderr.match(/^ {2}\S/gm)).toHaveLength(1);
  });
});

describe("names that collide", () => {
  it("generate still succeeds, with one note per name given a suffix, saying what took the name", async () => {
    const spec = path.join(tmp, "collisions.json");
    await writeFile(
      spec,
      JSON.stringify({
        openrpc: "1.3.2",
        info: { title: "Collisions", version: "1" },
        methods: [{ name: "get_pet", params: [], result: { name: "pet", schema: { $ref: "#/components/schemas/Pet" } } }],
        components: { schemas: { pet: { type: "string" }, Pet: { type: "integer" }, BLOCK_ID: { type: "string" } } },
      }),
    );
    const out = path.join(tmp, "collisions");
    const result = await runCli(["generate", "--spec", spec, "--out", out, "--server"], tmp);
    expect(result.code, describeRun("generate", result)).toBe(0);
    expect(result.stderr).toBe('neutral-openrpc: note: schema "Pet" is generated as Pet2: Pet is taken by schema "pet"\n');
    const types = await readFile(path.join(out, "server", "types.ts"), "utf8");
    expect(types).toMatch(/export type Pet2 = number;/);
    expect(types).toMatch(/export type BLOCK_ID = string;/);
  });
});

describe("create", () => {
  it("scaffolds DIR and says what to do next", async () => {
    const dir = path.join(tmp, "my-server");
    const result = await runCli(["create", dir, "--spec", petstorePath, "--name", "@acme/pets"], tmp);
    expect(result.code, describeRun("create", result)).toBe(0);
    expect(result.stdout).toMatch(/^Created my-server \(21 files\)\. Next:/);
    expect(result.stdout).toContain("npm install");
    expect(JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")).name).toBe("@acme/pets");
  });
});
