// The product ships no test code. For every product package under packages/ (published, or
// installed as a program through its `bin`), `pnpm pack --dry-run --json` lists exactly the files
// the tarball would hold; none may be a test, test support, a fixture, test vectors or a vitest
// config. Test code lives in each package's private `test/` folder (and tests beside the code in
// `src/**/*.test.ts`, kept out of the build and of `files`); what other packages may reuse is
// published on purpose through a `testing` entry (`dist/testing/`), which is not test code here.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

interface Manifest {
  name: string;
  private?: boolean;
  bin?: string | Record<string, string>;
  scripts?: Record<string, string>;
}

interface Product {
  dir: string;
  manifest: Manifest;
}

/** Packages under packages/ that reach users: publishable ones, and private ones that install a program. */
function products(): { products: Product[]; skipped: string[] } {
  const found: Product[] = [];
  const skipped: string[] = [];
  for (const name of readdirSync(path.join(root, "packages")).sort()) {
    const dir = path.join(root, "packages", name);
    const file = path.join(dir, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
    if (manifest.private === true && manifest.bin === undefined) skipped.push(manifest.name);
    else found.push({ dir, manifest });
  }
  return { products: found, skipped };
}

/** Why `file` (a path inside the tarball) is test code, or undefined when it is not. */
function testCodeReason(file: string): string | undefined {
  const segments = file.split("/");
  const base = segments[segments.length - 1]!;
  if (/\.(test|spec)\.[cm]?[jt]sx?(\.map)?$/.test(base) || /\.(test|spec)\.d\.[cm]?ts(\.map)?$/.test(base)) return "a test";
  if (/\.fixtures?\./.test(base)) return "a fixture";
  if (/^vitest\.(config|workspace|setup)\./.test(base) || /^vitest-setup\./.test(base)) return "vitest configuration";
  for (const segment of segments) {
    if (/^(test|tests|__tests__|__mocks__)$/.test(segment)) return "in a test folder";
    if (/^(fixtures?|__fixtures__)$/.test(segment)) return "in a fixtures folder";
    if (/^(vectors|test-vectors)$/.test(segment)) return "test vectors";
    if (/^test-/.test(segment)) return "test support (test-*)";
  }
  return undefined;
}

async function packedFiles(dir: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)("pnpm", ["pack", "--dry-run", "--json"], {
    cwd: dir,
    timeout: 60_000,
    maxBuffer: 16 << 20,
    env: { ...process.env, npm_config_loglevel: "error", npm_config_update_notifier: "false" },
  });
  const listing = JSON.parse(stdout.slice(stdout.indexOf("{"))) as { files: { path: string }[] };
  return listing.files.map((entry) => entry.path).sort();
}

const { products: found, skipped } = products();
// Private packages without a program (test support such as @neutral/test-support) never reach users.
if (skipped.length > 0) process.stdout.write(`[pack check] not products (private, no bin): ${skipped.join(", ")}\n`);

describe("what the packages ship", () => {
  it("recognises test code by its name, and leaves the product and its testing entry alone", () => {
    const flagged = [
      "src/relay.test.ts",
      "dist/relay.test.js",
      "dist/relay.test.d.ts",
      "src/test-wallets.ts",
      "dist/http/test-clients.js",
      "test/wallets.ts",
      "tests/helpers.js",
      "src/crypto/vectors/nip44.vectors.json",
      "src/storage/shared-writer.fixture.mjs",
      "fixtures/exchange.json",
      "vitest.config.ts",
      "test-output/docs-site.png",
    ];
    const shipped = ["dist/index.js", "dist/testing/index.js", "dist/testing/store-conformance.d.ts", "src/attest.ts", "dist/contest.js", "README.md", "package.json"];
    expect(flagged.filter((file) => testCodeReason(file) === undefined)).toEqual([]);
    expect(shipped.filter((file) => testCodeReason(file) !== undefined)).toEqual([]);
  });

  it("finds the product packages, and builds each of them before this check runs (turbo.json)", () => {
    expect(found.map((product) => product.manifest.name)).toEqual(expect.arrayContaining(["@neutral/client", "@neutral/server", "@neutral/relay", "@neutral/cli"]));
    const turbo = JSON.parse(readFileSync(path.join(root, "turbo.json"), "utf8")) as { tasks: Record<string, { dependsOn?: string[] }> };
    const before = turbo.tasks["@neutral/checks#test"]?.dependsOn ?? [];
    const unbuilt = found.filter((product) => product.manifest.scripts?.build !== undefined).map((product) => `${product.manifest.name}#build`).filter((task) => !before.includes(task));
    // A package missing here would be packed from whatever its dist/ holds (or without one).
    expect(unbuilt, 'add these to "@neutral/checks#test".dependsOn in turbo.json').toEqual([]);
  });

  it.each(found.map((product) => [product.manifest.name, product] as const))("%s ships no test code", async (_name, product) => {
    const files = await packedFiles(product.dir);
    expect(files).toContain("package.json");
    const testCode = files.flatMap((file) => {
      const reason = testCodeReason(file);
      return reason === undefined ? [] : [`${file} (${reason})`];
    });
    expect(testCode).toEqual([]);
  });

});
