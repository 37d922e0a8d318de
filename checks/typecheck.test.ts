// `pnpm typecheck` (scripts/typecheck.mjs) checks every workspace package's tsconfig.json in one
// TypeScript program: it must find every package, fail on an error in any of them, check the
// JavaScript only of packages that ask for it (checkJs), and refuse options it cannot merge.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it, vi } from "vitest";

interface TypecheckScript {
  workspaceFolders: (dir?: string) => string[];
  typecheck: (folders?: string[]) => number;
}

const root = fileURLToPath(new URL("..", import.meta.url));
const turbo = createRequire(path.join(root, "package.json")).resolve("turbo/bin/turbo");
const script = async () => (await import(path.join(root, "scripts", "typecheck.mjs"))) as TypecheckScript;

const scratch = mkdtempSync(path.join(os.tmpdir(), "typecheck-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A package folder with a tsconfig.json of `options` and `files` (name → text). */
function fakePackage(name: string, options: Record<string, unknown>, files: Record<string, string>): string {
  const folder = path.join(scratch, name);
  mkdirSync(folder, { recursive: true });
  const compilerOptions = { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", types: [], ...options };
  writeFileSync(path.join(folder, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*"] }));
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(folder, file), text);
  return folder;
}

/** The script's diagnostics' count for `folders`, with what it would print swallowed. */
async function errorsIn(folders: string[]): Promise<number> {
  const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  try {
    return (await script()).typecheck(folders);
  } finally {
    write.mockRestore();
  }
}

describe("scripts/typecheck.mjs", () => {
  it("finds every workspace package (pnpm-workspace.yaml's globs, as turbo lists them)", { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [turbo, "ls", "--output=json"], {
      cwd: root,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
    });
    const listed = (JSON.parse(stdout) as { packages: { items: { path: string }[] } }).packages.items.map((item) => path.join(root, item.path));
    expect((await script()).workspaceFolders().sort()).toEqual(listed.sort());
  });

  it("passes clean packages, and counts an error in any of them", { timeout: 60_000 }, async () => {
    const clean = fakePackage("clean", {}, { "a.ts": "export const a: number = 1;\n" });
    const other = fakePackage("other", {}, { "b.ts": "export const b: string = 'b';\n" });
    expect(await errorsIn([clean, other])).toBe(0);
    const broken = fakePackage("broken", {}, { "c.ts": "export const c: number = 'c';\n" });
    expect(await errorsIn([clean, broken, other])).toBe(1);
  });

  it("checks JavaScript only in the packages whose tsconfig sets checkJs", { timeout: 60_000 }, async () => {
    const wrongJs = "/** @type {number} */\nexport const n = 'n';\n";
    const allowed = fakePackage("allows-js", { allowJs: true }, { "d.js": wrongJs, "e.ts": "export const e = 1;\n" });
    expect(await errorsIn([allowed])).toBe(0);
    const checked = fakePackage("checks-js", { allowJs: true, checkJs: true }, { "f.js": wrongJs });
    expect(await errorsIn([allowed, checked])).toBe(1);
  });

  it("refuses to merge an option that would change what a check means, naming the package", async () => {
    const strict = fakePackage("strict", {}, { "g.ts": "export const g = 1;\n" });
    const loose = fakePackage("loose", { strict: false }, { "h.ts": "export const h = 1;\n" });
    await expect(errorsIn([strict, loose])).rejects.toThrow(/loose\/tsconfig\.json sets strict unlike the other packages/);
  });
});
