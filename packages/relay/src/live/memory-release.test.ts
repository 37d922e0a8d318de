import { afterEach, describe, expect, it, vi } from "vitest";
import { createMemoryRelease } from "./memory-release.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("the memory release after many streams end", () => {
  it("collects once, a second after the 32nd stream ended; then not again for 10 s, however many end", () => {
    vi.useFakeTimers();
    const gc = vi.fn();
    const release = createMemoryRelease(gc);
    for (let i = 0; i < 31; i++) release.streamEnded();
    vi.advanceTimersByTime(5_000);
    expect(gc).not.toHaveBeenCalled(); // 31: not worth a collection
    release.streamEnded();
    vi.advanceTimersByTime(999);
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(gc).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 100; i++) release.streamEnded();
    vi.advanceTimersByTime(9_999);
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(gc).toHaveBeenCalledTimes(2);
    release.stop();
  });

  it("does nothing where no collection can be had, and nothing after stop", () => {
    vi.useFakeTimers();
    const none = createMemoryRelease(undefined);
    for (let i = 0; i < 100; i++) none.streamEnded();
    const gc = vi.fn();
    const stopped = createMemoryRelease(gc);
    for (let i = 0; i < 32; i++) stopped.streamEnded();
    stopped.stop();
    vi.advanceTimersByTime(60_000);
    expect(gc).not.toHaveBeenCalled();
  });

  it("gets V8's collection at run time in this process", () => {
    // The default: the --expose-gc flag set at run time. A collection is a function call that returns.
    const release = createMemoryRelease();
    expect(() => {
      for (let i = 0; i < 32; i++) release.streamEnded();
    }).not.toThrow();
    release.stop();
  });
});
