// The launcher on its own: the browser it starts renders text, and closing it leaves nothing in the
// temp dir (its extracted build, fontconfig's cache and playwright's profile folder all go); nor
// does a process interrupted with a browser open, and its browser does not outlive it.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

// A temp dir of this file's own, set before playwright-core is loaded (it reads os.tmpdir() then).
const root = mkdtempSync(path.join(tmpdir(), "neutral-test-browser-"));
process.env.TMPDIR = root;
const { launchAgainOnCrash, launchChromium } = await import("./browser.js");

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("launchAgainOnCrash", () => {
  // What playwright threw when Chromium died of SIGSEGV right after it started (a clean-clone CI run).
  const crash = () => new Error("browserType.launch: Target page, context or browser has been closed\nBrowser logs: … <process did exit: exitCode=null, signal=SIGSEGV>");

  it("launches again when the browser crashed while starting, up to three attempts", async () => {
    let attempts = 0;
    const browser = { launched: true };
    const launched = await launchAgainOnCrash(async () => {
      attempts++;
      if (attempts < 3) throw crash();
      return browser as never;
    });
    expect(launched).toBe(browser);
    expect(attempts).toBe(3);
    attempts = 0;
    await expect(
      launchAgainOnCrash(async () => {
        attempts++;
        throw crash();
      }),
    ).rejects.toThrow(/has been closed/);
    expect(attempts).toBe(3);
  });

  it("throws any other failure at once", async () => {
    let attempts = 0;
    await expect(
      launchAgainOnCrash(async () => {
        attempts++;
        throw new Error("Failed to launch: no such file");
      }),
    ).rejects.toThrow(/no such file/);
    expect(attempts).toBe(1);
  });
});

describe("launchChromium", () => {
  it("starts a Chromium that renders text, and closing it removes every folder it made", async () => {
    const browser = await launchChromium();
    expect(readdirSync(root).length).toBeGreaterThan(0);
    // Chromium's own temp folders (.org.chromium.Chromium.*, removed by it as it exits, possibly
    // after close() resolves: seen left in a CI run) are made inside the launcher's folder.
    const [launcherDir] = readdirSync(root).filter((name) => name.startsWith("neutral-chromium-"));
    const browsers = browsersUsing(path.join(root, launcherDir!));
    // The browser process (its helpers, started by a zygote, get a cleared environment): the one whose
    // parent is not one of them. (By its command line alone, a helper just forked and not yet exec'd
    // looked like a second browser once.)
    const main = browsers.filter((pid) => !browsers.includes(parentOf(pid)));
    expect(main).toHaveLength(1);
    expect(environmentOf(main[0]!).TMPDIR).toBe(path.join(root, launcherDir!, "tmp"));
    const page = await browser.newPage();
    await page.setContent(`<p style="font: 20px sans-serif"><span id="t">Hello, Bob!</span></p>`);
    // A font was found (the extracted one, where the system has none): the text has a width and
    // the canvas draws glyph pixels.
    const width = await page.$eval("#t", (el) => el.getBoundingClientRect().width);
    expect(width).toBeGreaterThan(50);
    const inked = await page.evaluate(() => {
      const canvas = document.createElement("canvas");
      canvas.width = 200;
      canvas.height = 40;
      const ctx = canvas.getContext("2d")!;
      ctx.font = "20px sans-serif";
      ctx.fillText("Hello", 5, 25);
      return ctx.getImageData(0, 0, 200, 40).data.filter((v, i) => i % 4 === 3 && v > 0).length;
    });
    expect(inked).toBeGreaterThan(50);
    await browser.close();
    expect(readdirSync(root)).toEqual([]);
  });

  // Each run unpacks Chromium afresh into its own temp dir: on a loaded 2-core machine (a CI run,
  // every package's tests at once) that alone took over a minute once.
  it.each(["SIGINT", "SIGTERM"] as const)("on %s, a process with a browser open dies of it and leaves no browser and nothing in the temp dir", { timeout: 180_000 }, async (signal) => {
    const dir = mkdtempSync(path.join(root, "interrupted-"));
    // The built module, as the suites that use it get it (turbo builds this package before its tests).
    const script = `import { launchChromium } from "@neutral/test-support/browser";
      await launchChromium(); console.log("ready"); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: packageDir, env: { ...process.env, TMPDIR: dir }, stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, how) => resolve(how)));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
      child.on("exit", (code) => reject(new Error(`exited with ${code} before the browser was up`)));
    });
    expect(browsersUsing(dir).length).toBeGreaterThan(0);
    child.kill(signal);
    expect(await exited).toBe(signal);
    // The browser is killed as the process exits (playwright's exit handler); its helpers (renderer,
    // GPU, zygote) notice on their own and exit a moment later: a CI run found three of them still
    // there right after the exit. Gone within seconds is the property; one that stays is a leak.
    const until = Date.now() + 10_000;
    while (browsersUsing(dir).length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(browsersUsing(dir)).toEqual([]);
    // Nothing left in the temp dir, also once the last helper is gone (one still running could make a folder again).
    expect(readdirSync(dir)).toEqual([]);
  });
});

/** Processes whose command line names `dir` (the browser's executable or profile is in it). */
function browsersUsing(dir: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(dir);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A process's parent, from /proc (the field after the command name, which may hold spaces). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** A process's environment, from /proc. */
function environmentOf(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]));
}
