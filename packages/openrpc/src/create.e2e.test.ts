// The scaffold's whole loop, as a user outside this workspace lives it, with plain npm: our packages
// installed from the tarballs `pnpm pack` makes (what npm would publish), a project created from a
// corpus document, built, its examples test failing on the not-implemented error, one handler
// written and its example passing, then a method added to the spec: `npm run generate`, and tsc
// names the handler now owed, while every hand-written file stays byte for byte as it was.
//
// Minutes, not seconds (npm install; tsc and node --test several times), on a 2-core machine: each
// step has its own timeout, and prints what it took.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliPath, describeRun, ensureServerBuilt, petstorePath, plainEnv, run, workspaceDir, type RunResult } from "../test/scaffold-support.js";

let tmp: string;
let project: string;
const tarballs: Record<string, string> = {};
const timings: [string, number][] = [];
/** The project as `create` wrote it (before package.json points at the tarballs). */
let asCreated: Map<string, Buffer>;

/** Runs a step in the project (or `cwd`), records its time. */
async function step(name: string, command: string, args: readonly string[], timeoutMs: number, cwd = project): Promise<RunResult> {
  const result = await run(command, args, {
    cwd,
    timeoutMs,
    // Plain npm, as a user has it: no update check, nothing of the pnpm that runs these tests.
    env: plainEnv({ npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" }),
  });
  timings.push([name, result.ms]);
  console.log(`[scaffold e2e] ${name}: ${(result.ms / 1000).toFixed(1)} s (exit ${result.code})`);
  return result;
}

/** `ok`/`not ok` of each top-level test in node --test's TAP output, by name. */
function tapResults(tap: string): Map<string, boolean> {
  const results = new Map<string, boolean>();
  for (const match of tap.matchAll(/^(not )?ok \d+ - (.+?)(?: # (?:SKIP|TODO).*)?$/gm)) results.set(match[2]!, !match[1]);
  return results;
}

/** The files of a project (`/`-separated relative path → bytes), but node_modules/ and dist/. */
async function tree(root: string, skip = (_file: string) => false): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)).split(path.sep).join("/");
    if (/^(node_modules|dist)\//.test(file) || skip(file)) continue;
    files.set(file, await readFile(path.join(root, file)));
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Every file of the project but the generated stub, the spec, and what npm and tsc make. */
const handWritten = () => tree(project, (file) => file.startsWith("src/generated/") || file === "openrpc.json" || file === "package-lock.json");

function expectSameFiles(actual: Map<string, Buffer>, expected: Map<string, Buffer>): void {
  expect([...actual.keys()]).toEqual([...expected.keys()]);
  for (const [file, bytes] of expected) expect(actual.get(file)?.equals(bytes), `${file} differs`).toBe(true);
}

beforeAll(async () => {
  // The run's temp dir (TMPDIR, from the global setup): outside the workspace, so that nothing
  // resolves from its node_modules, and removed even when the run is interrupted.
  tmp = await mkdtemp(path.join(os.tmpdir(), "neutral-scaffold-e2e-"));
  expect(path.relative(workspaceDir, tmp).startsWith("..")).toBe(true);
  project = path.join(tmp, "petstore-server");
}, 10_000);

afterAll(async () => {
  const total = timings.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`[scaffold e2e] timings:\n${timings.map(([name, ms]) => `  ${name.padEnd(44)} ${(ms / 1000).toFixed(1).padStart(6)} s`).join("\n")}\n  ${"total".padEnd(44)} ${(total / 1000).toFixed(1).padStart(6)} s`);
  if (tmp) await rm(tmp, { recursive: true, force: true, maxRetries: 3 });
}, 60_000);

describe.sequential("a project scaffolded by `neutral-openrpc create`, with npm", () => {
  it("packs @neutral/server (built) and @neutral/openrpc", async () => {
    const built = await ensureServerBuilt();
    timings.push(["build @neutral/server (if stale)", built]);
    console.log(`[scaffold e2e] build @neutral/server (if stale): ${(built / 1000).toFixed(1)} s`);
    for (const name of ["server", "openrpc"]) {
      const pack = await step(`pnpm pack @neutral/${name}`, "pnpm", ["pack", "--pack-destination", tmp], 120_000, path.join(workspaceDir, "packages", name));
      expect(pack.code, describeRun(`pnpm pack @neutral/${name}`, pack)).toBe(0);
    }
    for (const file of await readdir(tmp)) {
      const match = /^neutral-(server|openrpc)-.*\.tgz$/.exec(file);
      if (match) tarballs[`@neutral/${match[1]}`] = path.join(tmp, file);
    }
    expect(Object.keys(tarballs).sort()).toEqual(["@neutral/openrpc", "@neutral/server"]);
  }, 300_000);

  it("creates the project, and installs it with npm from the tarballs", async () => {
    const created = await step("neutral-openrpc create", process.execPath, [cliPath, "create", project, "--spec", petstorePath], 60_000, tmp);
    expect(created.code, describeRun("create", created)).toBe(0);
    expect(created.stdout).toContain("npm install");
    asCreated = await tree(project);
    const pkgPath = path.join(project, "package.json");
    const pkg = JSON.parse(await readFile(pkgPath, "utf8"));
    for (const deps of [pkg.dependencies, pkg.devDependencies]) {
      for (const name of Object.keys(deps)) if (tarballs[name]) deps[name] = `file:${tarballs[name]}`;
    }
    expect(pkg.dependencies["@neutral/server"]).toMatch(/^file:/);
    expect(pkg.devDependencies["@neutral/openrpc"]).toMatch(/^file:/);
    await writeFile(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
    const install = await step("npm install", "npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], 480_000);
    expect(install.code, describeRun("npm install", install)).toBe(0);
  }, 600_000);

  it("scaffolds the same project with the installed package's own neutral-openrpc (the tarball ships the scaffold)", async () => {
    const again = path.join(tmp, "from-tarball");
    const created = await step("installed neutral-openrpc create", path.join(project, "node_modules/.bin/neutral-openrpc"), ["create", again, "--spec", petstorePath, "--name", "petstore-server"], 60_000);
    expect(created.code, describeRun("create", created)).toBe(0);
    expectSameFiles(await tree(again), asCreated);
    await rm(again, { recursive: true, force: true });
  }, 90_000);

  it("builds", async () => {
    const build = await step("npm run build", "npm", ["run", "build"], 120_000);
    expect(build.code, describeRun("npm run build", build)).toBe(0);
  }, 150_000);

  it("fails its examples test, every example on the not-implemented error", async () => {
    const test = await step("npm test (no handler written)", "npm", ["test", "--", "--test-reporter=tap"], 180_000);
    expect(test.code, describeRun("npm test", test)).not.toBe(0);
    const results = tapResults(test.stdout);
    expect([...results.entries()]).toEqual([
      ["list_pets — listPetExample", false],
      ["create_pet — createPetExample", false],
      ["get_pet — getPetExample", false],
    ]);
    for (const method of ["list_pets", "create_pet", "get_pet"]) {
      expect(test.stdout).toContain(`${method} answered error -32601: Method not implemented: ${method}`);
    }
  }, 200_000);

  it("passes the example of the one handler written, and still fails the others", async () => {
    await writeFile(
      path.join(project, "src/handlers/list-pets.ts"),
      [
        `import type { Handlers } from "../generated/index.js";`,
        ``,
        `export const listPets: Handlers["list_pets"] = async ({ limit }) => [{ id: 7, name: "fluffy", tag: "poodle" }].slice(0, limit ?? 100);`,
        ``,
      ].join("\n"),
    );
    const test = await step("npm test (list_pets written)", "npm", ["test", "--", "--test-reporter=tap"], 180_000);
    expect(test.code, describeRun("npm test", test)).not.toBe(0);
    expect([...tapResults(test.stdout).entries()]).toEqual([
      ["list_pets — listPetExample", true],
      ["create_pet — createPetExample", false],
      ["get_pet — getPetExample", false],
    ]);
  }, 200_000);

  it("after a method is added to openrpc.json and `npm run generate`, tsc names it, and no hand-written file changed", async () => {
    const before = await handWritten();
    expect([...before.keys()]).toEqual(expect.arrayContaining(["README.md", "src/server.ts", "src/not-implemented.ts", "src/examples.test.ts", "src/handlers/index.ts", "src/handlers/list-pets.ts"]));
    const specPath = path.join(project, "openrpc.json");
    const spec = JSON.parse(await readFile(specPath, "utf8"));
    spec.methods.push({
      name: "count_pets",
      summary: "How many pets there are",
      params: [],
      result: { name: "count", schema: { type: "integer", minimum: 0 } },
      examples: [{ name: "countPetsExample", params: [], result: { name: "count", value: 1 } }],
    });
    await writeFile(specPath, `${JSON.stringify(spec, null, 2)}\n`);

    const generate = await step("npm run generate", "npm", ["run", "generate"], 90_000);
    expect(generate.code, describeRun("npm run generate", generate)).toBe(0);
    expect(await readFile(path.join(project, "src/generated/handlers.ts"), "utf8")).toContain("count_pets(args: T.CountPetsArgs");
    const check = await step("npm run generate -- --check", "npm", ["run", "generate", "--", "--check"], 90_000);
    expect(check.code, describeRun("npm run generate -- --check", check)).toBe(0);

    const tsc = await step("npx tsc --noEmit", "npx", ["tsc", "--noEmit", "-p", "tsconfig.json"], 120_000);
    expect(tsc.code, describeRun("tsc", tsc)).not.toBe(0);
    expect(tsc.stdout).toMatch(/src\/handlers\/index\.ts\(\d+,\d+\): error TS2741: Property 'count_pets' is missing in type/);
    // The only error: what is owed is the new handler, nothing else.
    expect(tsc.stdout.match(/error TS\d+/g)).toHaveLength(1);

    expectSameFiles(await handWritten(), before);
  }, 400_000);
});
