import { Worker } from "node:worker_threads";
import { createThreadControl, stopAtExit } from "./thread-guard.js";

/**
 * How often the checkpointer copies the WAL back into the database, ms. Each pass writes every page
 * committed since the last one once (a page dirtied by many commits costs one write) and syncs the
 * file once.
 */
export const CHECKPOINT_INTERVAL_MS = 200;

export interface WalCheckpointer {
  /** Stops the thread after its current pass; resolves once its connection is closed. */
  stop(): Promise<void>;
}

export interface WalCheckpointerOptions {
  intervalMs?: number;
  /** Told when a pass fails for a reason other than another checkpoint running (once per run of failures). */
  onError?: (error: Error) => void;
}

/**
 * Starts a thread with its own connection that checkpoints `file`'s WAL every
 * {@link CHECKPOINT_INTERVAL_MS} ms in PASSIVE mode: it never blocks a writer or a reader.
 * Without it a writer checkpoints right after a commit, and the sends waiting for its next commit
 * wait for the copy and the database sync too (tens to hundreds of ms on a large store).
 * One per database is enough (the relay's primary runs it for all workers); the thread never keeps
 * the process alive.
 */
export function startWalCheckpointer(file: string, options: WalCheckpointerOptions = {}): WalCheckpointer {
  // The thread never keeps the process alive, and its exit never cuts a checkpoint short (thread-guard.js).
  const control = createThreadControl();
  const worker = new Worker(new URL("./sqlite-checkpointer.js", import.meta.url), {
    workerData: { file, intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS, control },
  });
  const release = stopAtExit(control, worker);
  worker.unref();
  worker.on("message", (message: { error?: { message: string; code?: string } }) => {
    if (message.error) options.onError?.(Object.assign(new Error(message.error.message), { code: message.error.code }));
  });
  const exited = new Promise<void>((resolve) =>
    worker.once("exit", () => {
      release();
      resolve();
    }),
  );
  worker.on("error", (error) => options.onError?.(error));
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        worker.ref();
        worker.postMessage("close");
        await exited;
      })();
      return stopping;
    },
  };
}
