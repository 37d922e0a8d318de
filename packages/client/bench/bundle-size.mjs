// Measures what code costs a browser: an esbuild bundle, minified, then gzipped.
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** The typed client's budget (runtime + generated methods): 5 KB min+gzip. */
export const RUNTIME_BUDGET_BYTES = 5 * 1024;

/**
 * The whole SDK's budget (createNeutral: sign-in, NIP-44, EIP-712, secp256k1): 39 KB min+gzip.
 * Most of it is @noble/curves and @noble/ciphers; measured 27 KB when the budget was set at 32 KB,
 * raised to 33 KB with spec 2.4.0 (32.1 KB: every method and signed type of the spec is in the
 * typed client and the typed-data table the SDK carries), to 36 KB with spec 2.6.0 (35.4 KB: the
 * verifiable mailbox's checks), to 38 KB with spec 2.9.0 (37.5 KB: `audit()`), to 39 KB with spec
 * 2.10.0 (38.2 KB: deletions that name their positions; 38.7 KB with the audit's receipt checks), to
 * 41 KB with spec 3.0.0 (40.5 KB: receipts bound to positions), to 42 KB with spec 3.1.0 (41.1 KB:
 * compact proofs), to 43 KB with signed log pages (42.92 KB: portable proofs of missing positions,
 * altered messages and unproven removals), to 44 KB with spec 3.2.0 (43.27 KB: portable proofs of
 * retention removals; README, "Size").
 */
export const SDK_BUDGET_BYTES = 44 * 1024;

/**
 * Bundles `code` (an ES module that imports what to measure) for the browser.
 * @param {string} code
 * @param {string} resolveDir where imports in `code` resolve from
 * @returns {Promise<{ minified: number; gzipped: number }>}
 */
export async function bundleSize(code, resolveDir) {
  const result = await build({
    stdin: { contents: code, resolveDir, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const bytes = result.outputFiles[0].contents;
  return { minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
}
