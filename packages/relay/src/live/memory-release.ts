import v8 from "node:v8";
import vm from "node:vm";

// When many streams end at once (their clients went away: a flood of slow streams, a proxy
// restarting), what they held is garbage that V8 collects only under allocation pressure: an idle
// node kept ~70-140 MB more than before for as long as it stayed idle (bench/bounds.mjs, bound 5;
// issue 33, finding 1). One full collection a second after such a drop gives it back (measured:
// back to the idle RSS within a few seconds). At most one per RELEASE_EVERY_MS, so a node whose
// streams come and go all the time pays nothing for it.

/** Streams that must have ended since the last collection for the next to be worth it. */
const ENDED_STREAMS = 32;
const RELEASE_DELAY_MS = 1_000;
const RELEASE_EVERY_MS = 10_000;

/** V8's full collection, exposed at run time; undefined where the flag cannot be set (then nothing is done). */
function exposedGc(): (() => void) | undefined {
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc: unknown = vm.runInNewContext("gc");
    return typeof gc === "function" ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/** Counts ended streams, and collects garbage once after enough have ended. `streamEnded()` is called once per stream. */
export function createMemoryRelease(gc = exposedGc()): { streamEnded(): void; stop(): void } {
  let ended = 0;
  let lastRelease = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  return {
    streamEnded() {
      if (!gc || ++ended < ENDED_STREAMS || timer) return;
      const wait = Math.max(RELEASE_DELAY_MS, lastRelease + RELEASE_EVERY_MS - Date.now());
      timer = setTimeout(() => {
        timer = undefined;
        ended = 0;
        lastRelease = Date.now();
        gc();
      }, wait);
      timer.unref();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
