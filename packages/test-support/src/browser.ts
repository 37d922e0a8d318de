// Chromium for the browser tests, on any machine with Node and npm: the headless build that
// @sparticuz/chromium ships inside its npm package (with the NSS libraries and a font it needs), or
// a system Chromium named by NEUTRAL_CHROMIUM. Driven by playwright-core.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import path from "node:path";
import sparticuz from "@sparticuz/chromium";
import { chromium, type Browser, type LaunchOptions } from "playwright-core";

/** The flags every launch gets: root in a container has no sandbox, and tests need no GPU or background traffic. */
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"];

// No WebGL, so the SwiftShader libraries are not extracted.
sparticuz.setGraphicsMode = false;

/**
 * Extracts @sparticuz/chromium into `dir`: the binary, the NSS/NSPR/expat libraries built for it
 * (so the system needs none of its own) and its font (so text renders without system fonts).
 */
async function extract(dir: string): Promise<{ executable: string; env: Record<string, string> }> {
  // executablePath() inflates into os.tmpdir() (which reads TMPDIR on every call), and the
  // libraries only where it detects Amazon Linux 2023 (AWS_EXECUTION_ENV). Both are read in the
  // synchronous part of the call, so they are set for just that part: no other code sees them.
  const saved = { TMPDIR: process.env.TMPDIR, AWS_EXECUTION_ENV: process.env.AWS_EXECUTION_ENV };
  process.env.TMPDIR = dir;
  process.env.AWS_EXECUTION_ENV = "AWS_Lambda_nodejs20.x";
  let extracting: Promise<string>;
  try {
    extracting = sparticuz.executablePath();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  const executable = await extracting;
  if (!executable.startsWith(dir + path.sep)) throw new Error(`@sparticuz/chromium extracted to ${executable}, not into ${dir}`);
  // The package's fonts.conf names /tmp/fonts and a cache in /tmp: this one names the extracted
  // font and the system's fonts, and keeps fontconfig's cache inside `dir`.
  const fontsConf = path.join(dir, "fonts.conf");
  writeFileSync(
    fontsConf,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
      `  <dir>${path.join(dir, "fonts", "fonts")}</dir>\n  <dir>/usr/share/fonts</dir>\n  <dir>/usr/local/share/fonts</dir>\n` +
      `  <cachedir>${path.join(dir, "fontconfig-cache")}</cachedir>\n</fontconfig>\n`,
  );
  const libraries = path.join(dir, "al2023", "lib");
  return {
    executable,
    env: {
      LD_LIBRARY_PATH: [libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(":"),
      FONTCONFIG_FILE: fontsConf,
    },
  };
}

/** Folders extracted by this process: removed when their browser closes, and (again) at exit whatever happens. */
const extracted = new Set<string>();
function removeExtracted(): void {
  for (const dir of extracted) remove(dir);
}
process.on("exit", removeExtracted);
/**
 * Moves the removal at exit after playwright's exit listener, which it adds at a launch and which
 * kills the browser: removed while the browser still ran, the folder was made again by Chromium
 * (its temp dir is inside it), and stayed (seen twice in CI, on SIGTERM).
 */
function removeAfterBrowserIsKilled(): void {
  process.removeListener("exit", removeExtracted);
  process.on("exit", removeExtracted);
}
/**
 * Removes `dir`. It stays listed for the removal at exit: a Chromium helper still shutting down after
 * close() was seen to make a folder in it again (an empty `locales/`, left in /tmp by a script that
 * exited right after close()).
 */
function remove(dir: string): void {
  // Retries: a Chromium process may still be removing its own files in there (after close(), or
  // when the SIGKILL of playwright's exit listener has not landed yet).
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}

// On SIGINT/SIGTERM/SIGHUP (an interrupted `pnpm test`), the process dies of the signal, but first
// does synchronously what exiting would: the "exit" listeners run, playwright's killing the browser's
// process group (it runs detached) and removing its profile folder, ours removing the extracted
// build. playwright's own signal handlers are off: they close the browser asynchronously and then
// call process.exit(), which vitest's workers turn into an exception; such a worker was seen
// running on at full CPU after its parent had gone, with the browser's folders left behind.
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let handling = false;
function onSignal(signal: NodeJS.Signals): void {
  const code = 128 + (constants.signals[signal] ?? 0);
  for (const listener of process.listeners("exit")) {
    try {
      listener.call(process, code);
    } catch {
      // best effort: the others still run
    }
  }
  for (const name of SIGNALS) process.removeAllListeners(name);
  process.kill(process.pid, signal);
}
function handleSignals(): void {
  if (handling) return;
  handling = true;
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

/** Launches of a browser that crashed while starting, before one is given up. */
const LAUNCH_ATTEMPTS = 3;

/**
 * `launch()`, again when the browser crashed while starting: a clean-clone CI run saw Chromium die
 * of SIGSEGV right after its launch once ("Target page, context or browser has been closed"), on a
 * machine where every other launch of the same build worked. Any other failure is thrown at once.
 */
export async function launchAgainOnCrash(launch: () => Promise<Browser>): Promise<Browser> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch();
    } catch (error) {
      const crashed = error instanceof Error && /has been closed|signal=SIG/.test(error.message);
      if (!crashed || attempt >= LAUNCH_ATTEMPTS) throw error;
    }
  }
}

/**
 * Launches a headless Chromium. `NEUTRAL_CHROMIUM=/path/to/chromium` uses that binary; otherwise
 * @sparticuz/chromium's build is extracted into a fresh folder under the system temp dir, which is
 * removed when the browser closes (or, failing that, when this process exits or is interrupted).
 * playwright removes its own profile folder on close.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  handleSignals();
  const launch = (more: LaunchOptions) =>
    chromium.launch({ ...options, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false, args: [...ARGS, ...(options.args ?? [])], ...more });
  const configured = process.env.NEUTRAL_CHROMIUM;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`NEUTRAL_CHROMIUM=${configured}: no such file (unset it to use @sparticuz/chromium)`);
    return launchAgainOnCrash(() => launch({ executablePath: configured }));
  }
  const dir = mkdtempSync(path.join(tmpdir(), "neutral-chromium-"));
  extracted.add(dir);
  try {
    const { executable, env } = await extract(dir);
    // Chromium's own temp folders (.org.chromium.Chromium.*) go inside `dir` too: it removes them
    // as it exits, which can be after playwright's close() has resolved (seen on a loaded CI run).
    const browserTmp = path.join(dir, "tmp");
    mkdirSync(browserTmp);
    const browser = await launchAgainOnCrash(() => launch({ executablePath: executable, env: { ...process.env, ...options.env, ...env, TMPDIR: browserTmp } }));
    removeAfterBrowserIsKilled();
    browser.on("disconnected", () => remove(dir));
    return browser;
  } catch (error) {
    remove(dir);
    throw error;
  }
}
