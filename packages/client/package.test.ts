// The package as users get it: `pnpm pack`, installed with plain npm into a fresh project that
// type-checks under `strict` + `nodenext` and then sends and reads a message against a real relay.
// publint and arethetypeswrong check the exports.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startRelay, type RunningRelay } from "@neutral/relay/testing";
import { runAsync } from "@neutral/test-support/exec";
import { publint } from "publint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_KEYS } from "./test/wallet.js";

const packageDir = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const tsc = require.resolve("typescript/bin/tsc");
const attw = path.join(packageDir, "node_modules", ".bin", "attw");
/** Runs a program to its end (without blocking the event loop: see @neutral/test-support/exec); throws when it fails. */
async function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  const ran = await runAsync(command, args, { cwd: options.cwd ?? packageDir, env: options.env ?? process.env, timeoutMs: 180_000 });
  if (ran.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${ran.status ?? ran.signal}): ${ran.stderr}${ran.stdout}`);
  return ran.stdout;
}
const spawnAsync = (command: string, args: string[], cwd = packageDir) => runAsync(command, args, { cwd, env: process.env, timeoutMs: 180_000 });
const quietNpmEnv = { ...process.env, npm_config_loglevel: "error", npm_config_fund: "false", npm_config_audit: "false", npm_config_update_notifier: "false" };

let work: string;
let tarball: string;
let protocolTarball: string;
let consumer: string;
let relay: RunningRelay;

beforeAll(async () => {
  if (!existsSync(path.join(packageDir, "dist", "index.js"))) throw new Error("build the package first (pnpm build); turbo's test task does");
  work = mkdtempSync(path.join(os.tmpdir(), "neutral-client-pack-"));
  await run("pnpm", ["pack", "--pack-destination", work]);
  tarball = path.join(work, readdirSync(work).find((name) => name.endsWith(".tgz"))!);
  // Its one workspace dependency, packed the same way (as the registry would serve it).
  const protocolDir = path.join(work, "protocol");
  mkdirSync(protocolDir);
  await run("pnpm", ["pack", "--pack-destination", protocolDir], { cwd: path.join(packageDir, "../protocol") });
  protocolTarball = path.join(protocolDir, readdirSync(protocolDir).find((name) => name.endsWith(".tgz"))!);

  consumer = path.join(work, "consumer");
  mkdirSync(consumer);
  writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  await run("npm", ["install", "--no-package-lock", "--prefer-offline", protocolTarball, tarball], { cwd: consumer, env: quietNpmEnv });
  relay = await startRelay();
}, 240_000);

afterAll(async () => {
  await relay?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("ships the built code and types, and none of the tests or test vectors", async () => {
    const listing = (await run("tar", ["-tzf", tarball])).split("\n");
    expect(listing).toContain("package/dist/index.js");
    expect(listing).toContain("package/dist/index.d.ts");
    expect(listing).toContain("package/dist/neutral.d.ts");
    expect(listing).toContain("package/dist/actions/index.js");
    expect(listing).toContain("package/dist/actions/index.d.ts");
    expect(listing.filter((file) => /\.test\.|test-|vectors\//.test(file))).toEqual([]);
  });

  it("has no workspace-only dependencies", async () => {
    const manifest = JSON.parse(await run("tar", ["-xzOf", tarball, "package/package.json"])) as Record<string, Record<string, string>>;
    const runtime = { ...manifest.dependencies, ...manifest.peerDependencies };
    expect(Object.keys(runtime).sort()).toEqual(["@neutral/protocol", "@noble/ciphers", "@noble/curves", "@noble/hashes"]);
    expect(JSON.stringify(manifest)).not.toContain("workspace:");
  });

  // tsc takes ~3 s alone and far longer beside the other suites on a 2-core machine: these get 2 minutes.
  it("type-checks in a fresh project under strict + nodenext, then sends and reads a message in Node", { timeout: 120_000 }, async () => {
    writeFileSync(
      path.join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022", "dom"], types: [], skipLibCheck: false, outDir: "out", noEmitOnError: true },
        files: ["conversation.ts"],
      }),
    );
    writeFileSync(
      path.join(consumer, "conversation.ts"),
      `import { createNeutral, NeutralError, RpcError, type DecryptedMessage, type Neutral, type NodeInfo } from "@neutral/client";
import { createNeutralContext, keyOf, type KeyOfReturnType } from "@neutral/client/actions";
import { exportMailbox, verifyMailboxExport, type MailboxVerification } from "@neutral/client/export";

export async function conversation(url: string, aliceKey: \`0x\${string}\`, bobKey: \`0x\${string}\`): Promise<string> {
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
    else if (error instanceof RpcError) code = error.code;
  }
  const lines: string[] = [];
  for await (const line of exportMailbox(bob)) lines.push(line);
  const summary: MailboxVerification = await verifyMailboxExport(lines);
  const bundle: KeyOfReturnType = await keyOf(createNeutralContext({ url, account: aliceKey }), await bob.getAddress());
  return JSON.stringify({ node: info.address, sent: sent.id, read, code, exported: [summary.messages, summary.verified, summary.problems.length], bobKey: bundle?.key === undefined ? "none" : "published" });
}
`,
    );
    writeFileSync(
      path.join(consumer, "run.mjs"),
      `import { conversation } from "./out/conversation.js";\nconsole.log(await conversation(process.argv[2], process.argv[3], process.argv[4]));\n`,
    );
    const compiled = await spawnAsync(process.execPath, [tsc, "-p", consumer]);
    expect(compiled.stdout + compiled.stderr).toBe("");
    expect(compiled.status).toBe(0);

    const conversation = await spawnAsync(process.execPath, ["run.mjs", relay.url, TEST_KEYS.alice, TEST_KEYS.bob], consumer);
    expect(conversation.stderr).toBe("");
    expect(JSON.parse(conversation.stdout)).toEqual({ node: relay.address, sent: expect.stringMatching(/^\d+$/), read: ["hello from a fresh project:true"], code: "INVALID_ARGUMENT", exported: [1, 1, 0], bobKey: "published" });
  });

  it("fails to type-check a misuse (the check above can fail)", { timeout: 120_000 }, async () => {
    writeFileSync(path.join(consumer, "misuse.ts"), `import { createNeutral } from "@neutral/client";\ncreateNeutral({ url: "http://x", account: 42 });\n`);
    writeFileSync(path.join(consumer, "tsconfig.misuse.json"), JSON.stringify({ extends: "./tsconfig.json", files: ["misuse.ts"], compilerOptions: { noEmit: true } }));
    const compiled = await spawnAsync(process.execPath, [tsc, "-p", path.join(consumer, "tsconfig.misuse.json")]);
    expect(compiled.status).not.toBe(0);
    expect(compiled.stdout).toContain("misuse.ts");
  });

  it("passes publint", async () => {
    // The tarball's files sit under "package/".
    const bytes = readFileSync(tarball);
    const { messages } = await publint({ pkgDir: "package", level: "suggestion", pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) } });
    expect(messages).toEqual([]);
  });

  it("passes arethetypeswrong (ESM-only profile)", { timeout: 120_000 }, async () => {
    // esm-only: CommonJS `require` resolutions are out of scope (the package is ESM-only, Node ≥ 20).
    const result = await spawnAsync(attw, [tarball, "--profile", "esm-only", "--format", "ascii"]);
    expect(result.stdout).toMatch(/node16 \(from ESM\): 🟢 \(ESM\)/);
    expect(result.stdout).toMatch(/bundler: 🟢/);
    expect(result.status, result.stdout).toBe(0);
  });
});
