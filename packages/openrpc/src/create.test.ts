// `create`: the scaffold of a server project, in-process (fast). The full loop, with npm and the
// published packages, is create.e2e.test.ts.
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathToFileURL } from "node:url";
import { create, DocumentError, findStaleFiles, readConfig } from "./index.mjs";
import { describeRun, ensureServerBuilt, packageDir, petstorePath, run, satisfiesCaret, workspaceDir } from "../test/scaffold-support.js";

const require = createRequire(import.meta.url);
interface Method {
  name: string;
  fn: string;
  typeBase: string;
}
const { buildModel } = require("./lib/model.cjs") as { buildModel: (document: unknown) => { methods: Method[] } };
// create.mjs's helpers beyond `create` (untyped: index.d.mts declares the package's API only).
const { handlerFiles, npmName, scaffoldVersions } = (await import(pathToFileURL(path.join(packageDir, "src/create.mjs")).href)) as {
  handlerFiles: (model: unknown) => { method: Method; constName: string; file: string }[];
  npmName: (raw: string) => string;
  scaffoldVersions: () => Promise<Record<string, string>>;
};

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "neutral-scaffold-"));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const HAND_WRITTEN = [
  ".gitignore",
  "README.md",
  "neutral-openrpc.json",
  "openrpc.json",
  "package.json",
  "src/examples.test.ts",
  "src/not-implemented.ts",
  "src/server.ts",
  "tsconfig.json",
];
const GENERATED = ["errors.ts", "examples.ts", "handlers.ts", "index.ts", "methods.ts", "openrpc.ts", "types.ts", "validators.ts"].map((f) => `src/generated/${f}`);

async function listTree(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)).split(path.sep).join("/"))
    .sort();
}

describe("create from petstore-openrpc.json", () => {
  let dir: string;
  let files: string[];
  let petstore: unknown;

  beforeAll(async () => {
    petstore = JSON.parse(await readFile(petstorePath, "utf8"));
    dir = path.join(tmp, "Pet Store!");
    ({ files } = await create(dir, { spec: petstorePath }));
  });

  it("writes the project's files, one handler per method, and says which (sorted, relative)", async () => {
    const handlers = ["create-pet.ts", "get-pet.ts", "index.ts", "list-pets.ts"].map((f) => `src/handlers/${f}`);
    const expected = [...HAND_WRITTEN, ...GENERATED, ...handlers].sort();
    expect(files).toEqual(expected);
    expect(await listTree(dir)).toEqual(expected);
  });

  it("gives every method a handler file, typed from the stub, and lists them all in handlers/index.ts", async () => {
    const model = buildModel(petstore);
    const index = await readFile(path.join(dir, "src/handlers/index.ts"), "utf8");
    expect(model.methods.length).toBe(3);
    for (const { method, constName, file } of handlerFiles(model)) {
      const source = await readFile(path.join(dir, "src/handlers", file), "utf8");
      expect(file).toBe(`${method.fn.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts`);
      expect(source).toContain(`export const ${constName}: Handlers[${JSON.stringify(method.name)}] = async (args, context): Promise<${method.typeBase}Result> => {`);
      expect(source).toContain(`import type { Handlers, ${method.typeBase}Result } from "../generated/index.js";`);
      expect(source).toContain(`throw notImplemented(${JSON.stringify(method.name)});`);
      expect(index).toContain(`import { ${constName} } from "./${file.replace(/\.ts$/, ".js")}";`);
      expect(index).toContain(`  ${JSON.stringify(method.name)}: ${constName},`);
    }
    expect(index).toContain("export const handlers: Handlers = {");
  });

  it("copies the spec as is, and generates src/generated/ exactly as `npm run generate` would", async () => {
    expect(await readFile(path.join(dir, "openrpc.json"))).toEqual(await readFile(petstorePath));
    expect(JSON.parse(await readFile(path.join(dir, "neutral-openrpc.json"), "utf8"))).toEqual({ spec: "openrpc.json", targets: { server: { out: "src/generated" } } });
    const config = await readConfig(path.join(dir, "neutral-openrpc.json"));
    expect(await findStaleFiles(config)).toEqual([]);
    expect(await readFile(path.join(dir, "src/generated/handlers.ts"), "utf8")).toMatch(/^\/\/ generated — do not edit\. Source: openrpc\.json/);
  });

  it("writes package.json: a valid name from DIR, the scripts, this release of the toolkit and versions from scaffold/versions.json", async () => {
    const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"));
    const versions = await scaffoldVersions();
    expect(pkg).toMatchObject({
      name: "pet-store",
      private: true,
      type: "module",
      scripts: {
        generate: "neutral-openrpc generate --config neutral-openrpc.json",
        build: "tsc -p tsconfig.json",
        start: "node dist/server.js",
        test: "npm run build && node --test",
      },
      dependencies: { "@neutral/server": versions["@neutral/server"] },
      devDependencies: { "@neutral/openrpc": versions["@neutral/openrpc"], typescript: versions.typescript, "@types/node": versions["@types/node"] },
    });
    expect(Object.keys(pkg.dependencies)).toEqual(["@neutral/server"]);
  });

  it("writes a strict nodenext tsconfig.json and a .gitignore", async () => {
    const { compilerOptions, include } = JSON.parse(await readFile(path.join(dir, "tsconfig.json"), "utf8"));
    expect(compilerOptions).toMatchObject({ strict: true, module: "nodenext", moduleResolution: "nodenext", target: "ES2022", outDir: "dist", rootDir: "src", declaration: false, skipLibCheck: true });
    expect(include).toEqual(["src"]);
    expect((await readFile(path.join(dir, ".gitignore"), "utf8")).split("\n")).toEqual(expect.arrayContaining(["node_modules", "dist"]));
  });

  it("leaves no template placeholder behind", async () => {
    for (const file of files) expect(await readFile(path.join(dir, file), "utf8"), file).not.toMatch(/\{\{\w+\}\}/);
  });
});

describe("create refuses", () => {
  it("a DIR that is not empty, and touches nothing in it", async () => {
    const dir = path.join(tmp, "taken");
    await mkdir(dir);
    await writeFile(path.join(dir, "notes.txt"), "mine");
    const refusal = create(dir, { spec: petstorePath });
    await expect(refusal).rejects.toBeInstanceOf(DocumentError);
    await expect(refusal).rejects.toThrow(/is not empty/);
    expect(await readdir(dir)).toEqual(["notes.txt"]);
  });

  it("a DIR that is a file", async () => {
    const file = path.join(tmp, "a-file");
    await writeFile(file, "");
    await expect(create(file, { spec: petstorePath })).rejects.toThrow(DocumentError);
  });

  it("an invalid document, before writing anything (an empty DIR stays empty, a new one is not made)", async () => {
    const spec = path.join(tmp, "invalid.json");
    await writeFile(spec, JSON.stringify({ openrpc: "1.2.6", info: { title: "No version" }, methods: [] }));
    await expect(create(path.join(tmp, "never"), { spec })).rejects.toThrow(/not a valid OpenRPC document[\s\S]*version/);
    await expect(readdir(path.join(tmp, "never"))).rejects.toMatchObject({ code: "ENOENT" });
    const empty = path.join(tmp, "stays-empty");
    await mkdir(empty);
    await expect(create(empty, { spec: path.join(tmp, "missing.json") })).rejects.toThrow(/cannot read .*missing\.json: no such file/);
    expect(await readdir(empty)).toEqual([]);
  });

  it("accepts an existing empty DIR", async () => {
    const dir = path.join(tmp, "empty");
    await mkdir(dir);
    const { files } = await create(dir, { spec: petstorePath, name: "@Acme/Pets" });
    expect(files).toContain("src/handlers/list-pets.ts");
    expect(JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")).name).toBe("@acme/pets");
  });
});

describe("npmName", () => {
  it.each([
    ["my-server", "my-server"],
    ["Pet Store!", "pet-store"],
    ["_private.thing", "private.thing"],
    ["@Scope/My Server", "@scope/my-server"],
    ["My Wallet/API", "my-wallet-api"],
    ["!!!", "openrpc-server"],
  ])("%j → %j", (raw, name) => {
    expect(npmName(raw)).toBe(name);
  });

  it("cuts a long name to npm's 214 characters", () => {
    expect(npmName("x".repeat(300))).toBe("x".repeat(214));
  });
});

describe("the scaffold's versions", () => {
  it("ask for this release of the toolkit (one version for every package) and ranges the workspace's TypeScript and Node types satisfy", async () => {
    const versions = await scaffoldVersions();
    const current: Record<string, string> = {
      "@neutral/server": JSON.parse(await readFile(path.join(workspaceDir, "packages/server/package.json"), "utf8")).version,
      "@neutral/openrpc": JSON.parse(await readFile(path.join(packageDir, "package.json"), "utf8")).version,
      typescript: require("typescript/package.json").version,
      "@types/node": require("@types/node/package.json").version,
    };
    expect(Object.keys(versions).sort()).toEqual(Object.keys(current).sort());
    expect(versions["@neutral/server"]).toBe(`^${current["@neutral/openrpc"]}`);
    expect(current["@neutral/server"], "@neutral/server and @neutral/openrpc are released together (.changeset/config.json fixed)").toBe(current["@neutral/openrpc"]);
    for (const [name, range] of Object.entries(versions)) {
      expect(satisfiesCaret(current[name]!, range), `${name}@${current[name]} does not satisfy ${range} (scaffold/versions.json)`).toBe(true);
    }
  });

  it.each([
    ["0.1.0", "^0.1.0", true],
    ["0.1.7", "^0.1.0", true],
    ["0.2.0", "^0.1.0", false],
    ["0.0.9", "^0.1.0", false],
    ["5.9.3", "^5.9.3", true],
    ["5.10.0", "^5.9.3", true],
    ["5.9.2", "^5.9.3", false],
    ["6.0.0", "^5.9.3", false],
    ["0.0.3", "^0.0.3", true],
    ["0.0.4", "^0.0.3", false],
  ])("satisfiesCaret(%s, %s) is %s", (version, range, expected) => {
    expect(satisfiesCaret(version, range)).toBe(expected);
  });
});

describe("a scaffold for awkward method names, a by-name method, a notification and an event stream", () => {
  const odd = {
    openrpc: "1.3.2",
    info: { title: "Odd names", version: "1.0.0" },
    methods: [
      ...["handlers", "not_implemented", "getHTTP", "get_http", "index"].map((name) => ({ name, params: [], result: { name: "ok", schema: { type: "boolean" } } })),
      {
        name: "rpc.ping",
        paramStructure: "by-name",
        params: [{ name: "text", required: true, schema: { type: "string" } }],
        result: { name: "echo", schema: { type: "string" } },
        examples: [{ name: "ping", params: [{ name: "text", value: "hi" }], result: { name: "echo", value: "hi" } }],
      },
      { name: "log", params: [{ name: "line", schema: { type: "string" } }], examples: [{ name: "a line", params: [{ name: "line", value: "x" }] }] },
      // Literal results: a const and an enum.
      { name: "pong", params: [], result: { name: "pong", schema: { const: "pong" } }, examples: [{ name: "pong", params: [], result: { name: "pong", value: "pong" } }] },
      { name: "state", params: [], result: { name: "state", schema: { type: "string", enum: ["up", "down"] } }, examples: [{ name: "up", params: [], result: { name: "state", value: "up" } }] },
      {
        name: "watch",
        params: [],
        result: { name: "events", schema: {} },
        "x-subscription": { notifications: [{ name: "tick", params: [{ name: "n", schema: { type: "integer" } }] }] },
        examples: [{ name: "ticks", params: [], result: { name: "events", value: null } }],
      },
    ],
  };
  let dir: string;

  beforeAll(async () => {
    const spec = path.join(tmp, "odd.json");
    await writeFile(spec, JSON.stringify(odd, null, 2));
    dir = path.join(tmp, "odd");
    await create(dir, { spec });
  });

  it("names each handler's file and const uniquely, clear of the names the handler files use", async () => {
    expect(await readdir(path.join(dir, "src/handlers"))).toEqual(
      ["get-http.ts", "get-http2.ts", "handlers.ts", "index.ts", "index2.ts", "log.ts", "not-implemented.ts", "pong.ts", "rpc-ping.ts", "state.ts", "watch.ts"],
    );
    const index = await readFile(path.join(dir, "src/handlers/index.ts"), "utf8");
    expect(index).toContain(`  "handlers": handlers2,`);
    expect(index).toContain(`  "not_implemented": notImplemented2,`);
    expect(index).toContain(`  "index": index,`);
    expect(index).toContain(`import { getHttp } from "./get-http2.js";`);
    expect(await readFile(path.join(dir, "src/handlers/rpc-ping.ts"), "utf8")).toContain(`export const rpcPing: Handlers["rpc.ping"] =`);
  });

  // With the workspace's @neutral/server (linked, not installed: that is the e2e test's job).
  it("compiles, and its examples test replays by name, expects nothing of a notification, skips the stream", async () => {
    await ensureServerBuilt();
    const modules = path.join(dir, "node_modules");
    await mkdir(path.join(modules, "@neutral"), { recursive: true });
    await mkdir(path.join(modules, "@types"), { recursive: true });
    await symlink(path.join(workspaceDir, "packages/server"), path.join(modules, "@neutral/server"));
    await symlink(path.dirname(require.resolve("typescript/package.json")), path.join(modules, "typescript"));
    await symlink(path.dirname(require.resolve("@types/node/package.json")), path.join(modules, "@types/node"));
    await writeFile(path.join(dir, "src/handlers/rpc-ping.ts"), [
      `import type { Handlers } from "../generated/index.js";`,
      `export const rpcPing: Handlers["rpc.ping"] = async ({ text }) => text;`,
      ``,
    ].join("\n"));
    // A literal result returned from the async handler as written, no `as const`: its return type is spelled out.
    for (const [file, value] of [["pong.ts", '"pong"'], ["state.ts", 'Math.random() < 2 ? "up" : "down"']] as const) {
      const source = await readFile(path.join(dir, "src/handlers", file), "utf8");
      await writeFile(path.join(dir, "src/handlers", file), source.replace(/throw notImplemented\([^)]*\);/, `return ${value};`));
    }
    const tsc = await run(process.execPath, [path.join(modules, "typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: dir, timeoutMs: 90_000 });
    expect(tsc.code, describeRun("tsc", tsc)).toBe(0);
    const test = await run(process.execPath, ["--test", "--test-reporter=tap"], { cwd: dir, timeoutMs: 60_000 });
    expect(test.stdout).toMatch(/^ok \d+ - rpc\.ping — ping$/m);
    expect(test.stdout).toMatch(/^ok \d+ - log — a line$/m);
    expect(test.stdout).toMatch(/^ok \d+ - pong — pong$/m);
    expect(test.stdout).toMatch(/^ok \d+ - state — up$/m);
    expect(test.stdout).not.toMatch(/watch/);
    expect(test.code, describeRun("node --test", test)).toBe(0);
  }, 180_000);
});
