// The release path, tried as people who never saw this repository meet it. Every public package is
// published with the project's own release path (`changeset version --snapshot`, `changeset publish`)
// to a private npm registry on loopback (Verdaccio, no uplink: it serves what was published and the
// third-party packages those need, packed from this workspace's installed copies). Then, in fresh
// folders outside the repository, with plain npm pointed at that registry:
//   - an app installs @neutral/client and a strict TypeScript program (nodenext) sends and reads;
//   - a team scaffolds a server from a third-party document (`npx @neutral/openrpc create`), installs,
//     tests, builds and runs it;
//   - an operator installs the relay and the CLI globally, runs `neutral-relay --config neutral.toml`
//     and sends and reads through it with `neutral`.
// Each published package also declares what users need (dependencies, files, exports, types,
// engines, license, repository, a README that says what it is for) and passes publint and
// arethetypeswrong.
//
// Minutes on a 2-core machine (packing ~170 packages, npm installs, tsc): each step has its own
// timeout and prints what it took.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TEST_KEYS } from "@neutral/protocol/testing";
import { freePorts, startRelay, type RunningRelay } from "@neutral/relay/testing";
import { publint } from "publint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dependencyClosure, locate, storePackages } from "./support/offline-packages.js";
import { startPrebuiltMirror, type PrebuiltMirror } from "./support/prebuilt-mirror.js";
import { plainEnv, run, runOk, startDaemon, type Daemon } from "./support/programs.js";
import { startRegistry, type Registry } from "./support/registry.js";
import { copyWorkspace, productPackages, publishSnapshot, repositoryRoot } from "./support/release.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const attw = path.join(here, "node_modules", ".bin", "attw");
/** A third-party document the scaffold is made from (@open-rpc/examples, as @neutral/openrpc's tests use it). */
const petstore = require.resolve("@open-rpc/examples/build/service-descriptions/petstore-openrpc.json");

/** Every package this release publishes; the workspace's other packages stay private. */
const PUBLISHED = ["@neutral/cli", "@neutral/client", "@neutral/docs", "@neutral/openrpc", "@neutral/protocol", "@neutral/relay", "@neutral/server"];

let work: string;
let registry: Registry;
let mirror: PrebuiltMirror;
let versions: Map<string, string>;
/** Each published package's tarball, as the registry serves it. */
const tarballs = new Map<string, string>();
const timings: [string, number][] = [];
const cleanups: (() => Promise<void>)[] = [];

async function timed<T>(name: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await step();
  } finally {
    const ms = performance.now() - started;
    timings.push([name, ms]);
    console.log(`[release] ${name}: ${(ms / 1000).toFixed(1)} s`);
  }
}

/** Plain npm, as a user has it, pointed at the private registry, with a cache, global prefix and home of its own. */
function npmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return plainEnv({
    HOME: path.join(work, "home"),
    PATH: `${path.join(work, "global", "bin")}${path.delimiter}${process.env.PATH}`,
    npm_config_registry: registry.url,
    npm_config_cache: path.join(work, "npm-cache"),
    npm_config_userconfig: path.join(work, "home", ".npmrc"),
    npm_config_prefix: path.join(work, "global"),
    npm_config_better_sqlite3_binary_host: mirror.url,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    npm_config_loglevel: "error",
    NO_COLOR: "1",
    ...extra,
  });
}

/** A fresh, empty folder outside the repository. */
function freshFolder(name: string): string {
  const dir = path.join(work, name);
  mkdirSync(dir);
  return dir;
}

/** Bytes of the files under `dir`, `node_modules` (what a package pulls in) counted or not. */
function folderBytes(dir: string, withNodeModules: boolean): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (withNodeModules || entry.name !== "node_modules") bytes += folderBytes(path.join(dir, entry.name), withNodeModules);
    } else if (entry.isFile()) bytes += statSync(path.join(dir, entry.name)).size;
  }
  return bytes;
}
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

const manifestIn = async (tarball: string) => JSON.parse(await runOk("tar", ["-xzOf", tarball, "package/package.json"], { cwd: work, env: process.env, timeoutMs: 30_000 })) as Manifest;

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  repository?: { url?: string };
  engines?: { node?: string };
  files?: string[];
  types?: string;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), "neutral-release-"));
  expect(path.relative(repositoryRoot, work).startsWith("..")).toBe(true);
  mkdirSync(path.join(work, "home"));
  writeFileSync(path.join(work, "home", ".npmrc"), "");
  const published = productPackages().filter((pkg) => !pkg.private);
  expect(published.map((pkg) => pkg.name).sort()).toEqual(PUBLISHED);
  const names = new Set(published.map((pkg) => pkg.name));
  // What a consumer project installs besides our packages: TypeScript and Node's types.
  const tools = ["typescript", "@types/node"].map((name) => locate(here, name)!);
  const thirdParty = dependencyClosure(
    published.map((pkg) => pkg.dir),
    tools,
    (name) => names.has(name),
  );
  console.log(`[release] third-party packages stored in the registry: ${thirdParty.length}`);
  registry = await timed("pack the third-party packages, start the registry", () => startRegistry(path.join(work, "registry"), (storage) => storePackages(thirdParty, storage, path.join(work, "packing"))));
  cleanups.push(() => registry.stop());
  const copy = path.join(work, "workspace");
  copyWorkspace(copy, published);
  versions = await timed("changeset version --snapshot, changeset publish", () => publishSnapshot(copy, registry, "registry"));
  mirror = await startPrebuiltMirror(path.dirname(require.resolve("better-sqlite3/package.json", { paths: [path.join(repositoryRoot, "packages/relay")] })), work);
  cleanups.push(() => mirror.stop());
  mkdirSync(path.join(work, "tarballs"));
  for (const name of PUBLISHED) {
    const document = (await (await fetch(new URL(name.replace("/", "%2f"), registry.url))).json()) as { versions: Record<string, { dist: { tarball: string } }> };
    const url = document.versions[versions.get(name)!]!.dist.tarball;
    const file = path.join(work, "tarballs", path.basename(url));
    writeFileSync(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
    tarballs.set(name, file);
  }
  console.log(`[release] packed: ${PUBLISHED.map((name) => `${name} ${kB(statSync(tarballs.get(name)!).size)}`).join(", ")}`);
}, 600_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  const total = timings.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`[release] timings:\n${timings.map(([name, ms]) => `  ${name.padEnd(60)} ${(ms / 1000).toFixed(1).padStart(6)} s`).join("\n")}\n  ${"total".padEnd(60)} ${(total / 1000).toFixed(1).padStart(6)} s`);
  if (work) rmSync(work, { recursive: true, force: true, maxRetries: 3 });
}, 60_000);

describe("the published packages", () => {
  it("are every public package, at the one version of the release (.changeset/config.json `fixed`)", () => {
    expect([...versions.keys()].sort()).toEqual(PUBLISHED);
    const released = new Set(versions.values());
    expect(released.size).toBe(1);
    expect([...released][0]).toMatch(/^0\.0\.0-registry-\d{14}$/);
  });

  it.each(PUBLISHED)("%s declares what users need, and nothing of the workspace", async (name) => {
    const manifest = await manifestIn(tarballs.get(name)!);
    const text = JSON.stringify(manifest);
    expect(text).not.toContain("workspace:");
    expect(manifest.private).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    const runtime = { ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies };
    for (const [dependency, range] of Object.entries(runtime)) {
      // Our own packages at this release's version, never a private one (test support, the tools).
      if (dependency.startsWith("@neutral/")) expect({ dependency, published: PUBLISHED.includes(dependency), range }).toEqual({ dependency, published: true, range: versions.get(dependency) });
    }
    expect(manifest.license).toBe("MIT");
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\//);
    expect(manifest.engines?.node).toBe(">=20");
    expect(manifest.files?.length).toBeGreaterThan(0);
    expect(manifest.exports !== undefined || manifest.bin !== undefined).toBe(true);
    if (manifest.exports !== undefined) expect(manifest.types ?? JSON.stringify(manifest.exports)).toMatch(/\.d\.m?ts/);
    // A README that starts with what the package is for: its name, then a paragraph.
    const readme = await runOk("tar", ["-xzOf", tarballs.get(name)!, "package/README.md"], { cwd: work, env: process.env, timeoutMs: 30_000 });
    const [title, blank, first] = readme.split("\n");
    expect({ title, blank }).toEqual({ title: `# ${name}`, blank: "" });
    expect(first!.length).toBeGreaterThan(20);
  });

  it.each(PUBLISHED)("%s passes publint", async (name) => {
    // The tarball's files sit under "package/".
    const bytes = readFileSync(tarballs.get(name)!);
    const { messages } = await publint({ pkgDir: "package", level: "suggestion", pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) } });
    expect(messages).toEqual([]);
  });

  // The libraries: the CLI has only a command, and no types to check.
  it.each(PUBLISHED.filter((name) => name !== "@neutral/cli"))("%s passes arethetypeswrong (ESM-only profile)", async (name) => {
    // esm-only: CommonJS `require` resolutions are out of scope (the packages are ESM-only, Node ≥ 20).
    const result = await run(attw, [tarballs.get(name)!, "--profile", "esm-only", "--format", "ascii"], { cwd: work, env: process.env, timeoutMs: 120_000 });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/node16 \(from ESM\): 🟢/);
  });
});

describe.sequential("an app developer: npm i @neutral/client", () => {
  let consumer: string;
  let relay: RunningRelay;

  beforeAll(async () => {
    relay = await startRelay();
    cleanups.push(async () => void (await relay.stop()));
  }, 120_000);

  it("installs the client, TypeScript and Node's types into an empty project", async () => {
    consumer = freshFolder("app");
    writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    await timed("npm i @neutral/client typescript @types/node", () => runOk("npm", ["install", "@neutral/client", "typescript", "@types/node@20"], { cwd: consumer, env: npmEnv(), timeoutMs: 300_000 }));
    const installed = JSON.parse(readFileSync(path.join(consumer, "node_modules/@neutral/client/package.json"), "utf8")) as Manifest;
    expect(installed.version).toBe(versions.get("@neutral/client"));
    expect(readdirSync(path.join(consumer, "node_modules/@neutral")).sort()).toEqual(["client", "protocol"]);
    const own = ["client", "protocol"].map((name) => `@neutral/${name} ${kB(folderBytes(path.join(consumer, "node_modules/@neutral", name), false))}`);
    console.log(`[release] installed: ${own.join(", ")}; with their dependencies (no TypeScript): ${kB(folderBytes(path.join(consumer, "node_modules"), true) - folderBytes(path.join(consumer, "node_modules/typescript"), true) - folderBytes(path.join(consumer, "node_modules/@types"), true) - folderBytes(path.join(consumer, "node_modules/undici-types"), true))}`);
  }, 320_000);

  it("type-checks a program under strict + nodenext, which then signs in, sends and reads against a relay", async () => {
    writeFileSync(
      path.join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022", "dom"], types: ["node"], skipLibCheck: false, outDir: "out", noEmitOnError: true },
        files: ["conversation.ts"],
      }),
    );
    writeFileSync(
      path.join(consumer, "conversation.ts"),
      `import { createNeutral, NeutralError, type DecryptedMessage, type Neutral, type NodeInfo } from "@neutral/client";
import { createNeutralContext, keyOf, type KeyOfReturnType } from "@neutral/client/actions";
import { exportMailbox, verifyMailboxExport, type MailboxVerification } from "@neutral/client/export";

const [url, aliceKey, bobKey] = process.argv.slice(2) as [string, \`0x\${string}\`, \`0x\${string}\`];
const alice: Neutral = createNeutral({ url, account: aliceKey });
const bob = createNeutral({ url, account: bobKey });
const info: NodeInfo = await bob.nodeInfo();
await bob.ready();
const sent: DecryptedMessage = await alice.send(await bob.getAddress(), "hello from a fresh project");
const read: string[] = [];
for await (const page of bob.inbox({ limit: 10 })) for (const message of page.messages) read.push(\`\${message.text}:\${message.verified}\`);
let code: number | string = "none";
try {
  await bob.send("0x0", "x");
} catch (error) {
  if (error instanceof NeutralError) code = error.code;
}
const lines: string[] = [];
for await (const line of exportMailbox(bob)) lines.push(line);
const summary: MailboxVerification = await verifyMailboxExport(lines);
const bundle: KeyOfReturnType = await keyOf(createNeutralContext({ url, account: aliceKey }), await bob.getAddress());
console.log(JSON.stringify({ node: info.address, sent: sent.id, read, code, exported: [summary.messages, summary.verified, summary.problems.length], bobKey: bundle?.key === undefined ? "none" : "published" }));
`,
    );
    const compiled = await timed("tsc (strict, nodenext)", () => run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "."], { cwd: consumer, env: npmEnv(), timeoutMs: 120_000 }));
    expect(compiled.stdout + compiled.stderr).toBe("");
    expect(compiled.status).toBe(0);
    const conversation = await run(process.execPath, ["out/conversation.js", relay.url, TEST_KEYS.alice, TEST_KEYS.bob], { cwd: consumer, env: npmEnv(), timeoutMs: 60_000 });
    expect(conversation.stderr).toBe("");
    expect(JSON.parse(conversation.stdout)).toEqual({ node: relay.address, sent: expect.stringMatching(/^\d+$/), read: ["hello from a fresh project:true"], code: "INVALID_ARGUMENT", exported: [1, 1, 0], bobKey: "published" });
  }, 200_000);

  it("fails to type-check a misuse (the check above can fail)", async () => {
    writeFileSync(path.join(consumer, "misuse.ts"), `import { createNeutral } from "@neutral/client";\ncreateNeutral({ url: "http://x", account: 42 });\n`);
    writeFileSync(path.join(consumer, "tsconfig.misuse.json"), JSON.stringify({ extends: "./tsconfig.json", files: ["misuse.ts"], compilerOptions: { noEmit: true } }));
    const compiled = await run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.misuse.json"], { cwd: consumer, env: npmEnv(), timeoutMs: 120_000 });
    expect(compiled.status).not.toBe(0);
    expect(compiled.stdout).toContain("misuse.ts");
  }, 150_000);
});

describe.sequential("a team scaffolding a server: npx @neutral/openrpc create", () => {
  let project: string;

  it("creates a project from a third-party document with npx, and installs it", async () => {
    const parent = freshFolder("scaffolds");
    const created = await timed("npx @neutral/openrpc create my-api --spec petstore", () =>
      runOk("npx", ["--yes", "@neutral/openrpc", "create", "my-api", "--spec", petstore], { cwd: parent, env: npmEnv(), timeoutMs: 300_000 }),
    );
    expect(created).toContain("npm install");
    project = path.join(parent, "my-api");
    const manifest = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")) as Manifest;
    // The scaffold asks for the release that made it.
    expect(manifest.dependencies).toEqual({ "@neutral/server": `^${versions.get("@neutral/openrpc")}` });
    await timed("npm install (scaffold)", () => runOk("npm", ["install"], { cwd: project, env: npmEnv(), timeoutMs: 300_000 }));
  }, 620_000);

  it("passes npm test once its handlers are written, and npm run build", async () => {
    // The examples test replays the document's examples: it fails on "Method not implemented" until
    // the handlers answer. Each handler file keeps its export; only its body is written.
    const results: Record<string, string> = {
      list_pets: `async ({ limit }) => [{ id: 7, name: "fluffy", tag: "poodle" }].slice(0, limit ?? 100)`,
      create_pet: `async () => 7`,
      get_pet: `async () => ({ id: 7, name: "fluffy", tag: "poodle" })`,
    };
    const handlersDir = path.join(project, "src/handlers");
    const written: string[] = [];
    for (const file of readdirSync(handlersDir).filter((name) => name !== "index.ts")) {
      const source = readFileSync(path.join(handlersDir, file), "utf8");
      const declaration = /export const (\w+): Handlers\["(\w+)"\]/.exec(source);
      if (!declaration) continue;
      const [, constName, method] = declaration;
      writeFileSync(path.join(handlersDir, file), `import type { Handlers } from "../generated/index.js";\n\nexport const ${constName}: Handlers["${method}"] = ${results[method!]};\n`);
      written.push(method!);
    }
    expect(written.sort()).toEqual(["create_pet", "get_pet", "list_pets"]);
    const test = await timed("npm test (scaffold)", () => run("npm", ["test"], { cwd: project, env: npmEnv(), timeoutMs: 300_000 }));
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/# pass 3\b/);
    const build = await timed("npm run build (scaffold)", () => run("npm", ["run", "build"], { cwd: project, env: npmEnv(), timeoutMs: 300_000 }));
    expect(build.status, build.stdout + build.stderr).toBe(0);
  }, 620_000);

  it("serves rpc.discover and a method, and passes neutral-openrpc test", async () => {
    const [port] = await freePorts(1);
    const server: Daemon = startDaemon("npm", ["start"], { cwd: project, env: npmEnv({ PORT: String(port) }) });
    cleanups.push(() => server.stop());
    try {
      await server.waitFor(/listening on http:\/\//, 60_000);
      const call = async (method: string, params: unknown) =>
        (await (await fetch(`http://127.0.0.1:${port}/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json()) as {
          result?: unknown;
          error?: unknown;
        };
      const discovered = (await call("rpc.discover", [])).result as { info: { title: string }; methods: { name: string }[] };
      expect(discovered.info.title).toBe("Petstore");
      expect(discovered.methods.map((method) => method.name)).toEqual(["list_pets", "create_pet", "get_pet"]);
      expect(await call("list_pets", [1])).toEqual({ jsonrpc: "2.0", id: 1, result: [{ id: 7, name: "fluffy", tag: "poodle" }] });
      // The conformance runner the scaffold installed checks the running server against its document.
      const conformance = await timed("neutral-openrpc test (scaffold)", () =>
        run(path.join(project, "node_modules/.bin/neutral-openrpc"), ["test", `http://127.0.0.1:${port}/`, "--spec", "openrpc.json", "--reporter", "junit"], { cwd: project, env: npmEnv(), timeoutMs: 60_000 }),
      );
      expect(conformance.status, conformance.stdout + conformance.stderr).toBe(0);
      expect(conformance.stdout).toMatch(/<testsuites name="neutral-openrpc test" tests="\d+" failures="0" skipped="0"/);
      expect(conformance.stdout.match(/<testcase /g)?.length).toBeGreaterThanOrEqual(8);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe.sequential("an operator: npm i -g @neutral/relay @neutral/cli", () => {
  let relayUrl: string;
  let relay: Daemon;
  const cli = (args: string[], key: string, device: string) =>
    run("neutral", args, { cwd: work, env: npmEnv({ NEUTRAL_URL: relayUrl, NEUTRAL_KEY: key, NEUTRAL_STATE: path.join(work, device) }), timeoutMs: 60_000 });

  it("installs both commands from the registry, better-sqlite3's addon from the mirror", async () => {
    const started = performance.now();
    await timed("npm i -g @neutral/relay @neutral/cli", () => runOk("npm", ["install", "--global", "@neutral/relay", "@neutral/cli"], { cwd: work, env: npmEnv(), timeoutMs: 400_000 }));
    const global = path.join(work, "global", "lib", "node_modules", "@neutral");
    console.log(`[release] installed globally: ${readdirSync(global).map((name) => `@neutral/${name} ${kB(folderBytes(path.join(global, name), false))} (${kB(folderBytes(path.join(global, name), true))} with its dependencies)`).join(", ")}`);
    // The addon came from the mirror: nothing compiled SQLite.
    expect(mirror.requests).toEqual([expect.stringMatching(/^\/v[\d.]+\/better-sqlite3-v[\d.]+-node-v\d+-linux-x64\.tar\.gz$/)]);
    const config = path.join(freshFolder("operator"), "neutral.toml");
    const [port] = await freePorts(1);
    writeFileSync(config, [`host = "127.0.0.1"`, `port = ${port}`, `data-dir = ${JSON.stringify(path.join(work, "operator", "data"))}`, `log-level = "info"`, ""].join("\n"));
    relay = startDaemon("neutral-relay", ["--config", config], { cwd: path.dirname(config), env: npmEnv() });
    cleanups.push(() => relay.stop());
    const [, url] = await relay.waitFor(/"url":"(http:\/\/[^"]+)"[^\n]*"msg":"listening"/, 60_000);
    relayUrl = url!;
    const ms = performance.now() - started;
    timings.push(["from an empty folder to a running relay (npm i -g, start)", ms]);
    console.log(`[release] from an empty folder to a running relay: ${(ms / 1000).toFixed(1)} s`);
  }, 480_000);

  it("serves /health and /docs", async () => {
    const health = await fetch(new URL("/health", relayUrl));
    expect(health.status).toBe(200);
    const docs = await fetch(new URL("/docs", relayUrl));
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toMatch(/text\/html/);
    expect(await docs.text()).toContain("neutralService");
  });

  it("answers the container's health check (deploy/Dockerfile's HEALTHCHECK, run as written), which fails once nothing serves", async () => {
    const dockerfile = readFileSync(path.join(repositoryRoot, "deploy", "Dockerfile"), "utf8");
    const command = JSON.parse(/^HEALTHCHECK [^\n]*\\\n\s*CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(command[0]).toBe("node");
    const port = new URL(relayUrl).port;
    const healthy = await run(process.execPath, command.slice(1), { cwd: work, env: npmEnv({ NEUTRAL_PORT: port }), timeoutMs: 30_000 });
    expect(healthy.status, healthy.stderr).toBe(0);
    const nothing = await run(process.execPath, command.slice(1), { cwd: work, env: npmEnv({ NEUTRAL_PORT: String((await freePorts(1))[0]) }), timeoutMs: 30_000 });
    expect(nothing.status).toBe(1);
  });

  it("runs under deploy/neutral-relay.service: systemd-analyze verifies the unit with the installed command, and rates its exposure OK", async () => {
    const unit = readFileSync(path.join(repositoryRoot, "deploy", "neutral-relay.service"), "utf8");
    expect(unit).toContain("ExecStart=/usr/local/bin/neutral-relay --config /etc/neutral/neutral.toml");
    const installed = path.join(work, "unit", "neutral-relay.service");
    mkdirSync(path.dirname(installed));
    writeFileSync(installed, unit.replace("/usr/local/bin/neutral-relay", path.join(work, "global", "bin", "neutral-relay")));
    const verified = await run("systemd-analyze", ["verify", installed], { cwd: work, env: process.env, timeoutMs: 60_000 });
    // A directive systemd cannot parse is only a warning: none may be printed.
    expect({ status: verified.status, output: verified.stdout + verified.stderr }).toEqual({ status: 0, output: "" });
    const security = await run("systemd-analyze", ["security", "--offline=yes", installed], { cwd: work, env: { ...process.env, SYSTEMD_COLORS: "0" }, timeoutMs: 60_000 });
    const exposure = /Overall exposure level for neutral-relay\.service: ([\d.]+) (\w+)/.exec(security.stdout);
    expect(exposure, security.stdout + security.stderr).not.toBeNull();
    expect(Number(exposure![1])).toBeLessThanOrEqual(2);
  }, 120_000);

  it("round-trips a message with neutral send and neutral inbox", async () => {
    const bob = await cli(["whoami", "--json"], TEST_KEYS.bob, "bob");
    expect(bob.status, bob.stderr).toBe(0);
    const bobAddress = (JSON.parse(bob.stdout) as { address: string }).address;
    const sent = await cli(["send", bobAddress, "hello through the registry"], TEST_KEYS.alice, "alice");
    expect(sent.status, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(new RegExp(`^sent message \\d+ to ${bobAddress} ✓`));
    const inbox = await cli(["inbox", "--json"], TEST_KEYS.bob, "bob");
    expect(inbox.status, inbox.stderr).toBe(0);
    expect(inbox.stdout).toContain("hello through the registry");
  }, 120_000);
});
