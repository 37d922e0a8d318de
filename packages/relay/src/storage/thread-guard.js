// Keeps a process's exit from cutting one of the store's SQLite threads (the writer, the WAL
// checkpointer) off in the middle of a call into SQLite. Plain JavaScript, like sqlite-writer.js:
// both the threads and their parent (sqlite-append-writer.ts, wal-checkpointer.ts) import it.
//
// Node terminates a process's worker threads when it exits (process.exit(), or the end of the
// event loop for a thread that is unref'd). If better-sqlite3 is inside SQLite at that moment and
// the call fails, it builds its SqliteError in an isolate that is being torn down, and the whole
// process dies: `FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal` (Database::ThrowSqliteError).
// A writer waiting out another connection's write lock fails such a call every 0.2 ms, so a
// process that exits while one of its writers is mid-batch crashed now and then (reproduced: 3
// of 150 exits with one waiting writer, 1 in 5 with eight).
//
// So each thread shares a control array with its parent: the thread marks every call into SQLite
// (BUSY) and makes none once asked to stop (STOP); the parent, on its way out ("exit", which Node
// emits before it terminates the threads), asks every live thread to stop and waits until none is
// inside SQLite. Store-then-load on both sides (sequentially consistent): either the thread sees
// STOP before it calls SQLite, or the parent sees BUSY and waits for the call to return.

const STOP = 0;
const BUSY = 1;

/** The most the exiting process waits for its threads' calls into SQLite to return, ms. */
export const EXIT_WAIT_MS = 5000;

/** A control array to hand to one thread (in its workerData). */
export function createThreadControl() {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

/** Thrown in a thread asked to stop, instead of calling into SQLite. */
export class ThreadStopping extends Error {
  constructor() {
    super("the SQLite thread is stopping: its process is exiting");
    this.name = "ThreadStopping";
    this.code = "WRITER_STOPPED";
  }
}

/**
 * In a thread: runs `call` (a call into SQLite), unless the thread was asked to stop; then throws
 * ThreadStopping and calls nothing. Without a control array it just runs `call`.
 *
 * @template T
 * @param {Int32Array | undefined} control
 * @param {() => T} call
 * @returns {T}
 */
export function guarded(control, call) {
  if (control === undefined) return call();
  Atomics.store(control, BUSY, 1);
  try {
    if (Atomics.load(control, STOP) !== 0) throw new ThreadStopping();
    return call();
  } finally {
    Atomics.store(control, BUSY, 0);
    Atomics.notify(control, BUSY);
  }
}

/**
 * In a thread: sleeps `ms`, or less if the thread is asked to stop meanwhile.
 *
 * @param {Int32Array} control
 * @param {number} ms
 */
export function pause(control, ms) {
  Atomics.wait(control, STOP, 0, ms);
}

/** @type {Set<Int32Array>} */
const live = new Set();
let hooked = false;

/** @type {WeakMap<import("node:worker_threads").Worker, Int32Array>} */
const controls = new WeakMap();

/** Asks threads to stop, then waits (at most EXIT_WAIT_MS, blocking) until none of them is inside SQLite. */
function stop(/** @type {Iterable<Int32Array>} */ threads) {
  for (const control of threads) {
    Atomics.store(control, STOP, 1);
    Atomics.notify(control, STOP);
  }
  const deadline = Date.now() + EXIT_WAIT_MS;
  for (const control of threads) {
    while (Atomics.load(control, BUSY) !== 0) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      Atomics.wait(control, BUSY, 1, left);
    }
  }
}

const stopAll = () => stop(live);

/**
 * In the parent: from now until the returned function is called (once the thread has exited),
 * this process's exit waits for the thread to leave SQLite, and stops it from entering again.
 *
 * @param {Int32Array} control
 * @param {import("node:worker_threads").Worker} worker the thread, for {@link terminateThread}
 * @returns {() => void}
 */
export function stopAtExit(control, worker) {
  controls.set(worker, control);
  live.add(control);
  if (!hooked) {
    hooked = true;
    process.on("exit", stopAll);
  }
  return () => {
    live.delete(control);
  };
}

/**
 * Terminates a thread watched by {@link stopAtExit} the safe way: asks it to stop, waits until it
 * is out of SQLite (what it was running fails with code WRITER_STOPPED), then terminates it.
 * (`worker.terminate()` alone may cut a failing call short: the crash above.)
 *
 * @param {import("node:worker_threads").Worker} worker
 * @returns {Promise<number>} its exit code
 */
export function terminateThread(worker) {
  const control = controls.get(worker);
  if (control) stop([control]);
  return worker.terminate();
}
