// Commands that wait (watch, send --wait) stop on Ctrl-C or SIGTERM as if they were done.

/** Runs `work` with a signal that SIGINT/SIGTERM abort; a second signal exits at once (130). */
export async function untilSignal<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let signals = 0;
  const stop = () => {
    signals++;
    if (signals > 1) process.exit(130); // a second Ctrl-C: do not wait for a request in flight
    controller.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    return await work(controller.signal);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
