import { pino, type DestinationStream, type Logger } from "pino";
import { prettyFactory } from "pino-pretty";
import type { LogFormat, LogLevel } from "./config.js";

// Logs go to stdout, and stdout must never hold the node (issue 19, finding 10). pino's own
// destination writes with fs.write on a libuv thread: when the reader of a pipe stops reading, that
// write blocks its thread, and the process can then not exit at all (libuv joins its threads at
// exit); when the reader then dies, the synchronous flush pino runs at exit retries EPIPE forever.
// process.stdout instead writes a pipe or socket without blocking (queueing what the pipe does not
// take), so this sink bounds that queue, drops lines past it (and says so once stdout takes lines
// again), stops writing for good on EPIPE, and lets exit wait for stdout only a bounded time.

/** Most bytes of log lines queued for stdout; past it new lines are dropped and counted. */
export const MAX_QUEUED_LOG_BYTES = 8 * 1024 * 1024;

interface StdoutSink extends DestinationStream {
  flush(callback?: (error?: Error) => void): void;
}

/** A sink over `out` (process.stdout): lines of one event-loop turn are written together. */
export function createStdoutSink(out: NodeJS.WritableStream & { writableLength: number }, maxQueued = MAX_QUEUED_LOG_BYTES): StdoutSink {
  let batch: string[] = [];
  let batchBytes = 0;
  let dropped = 0;
  let broken = false;
  let scheduled = false;

  const writeOut = (text: string) => {
    try {
      out.write(text);
    } catch {
      // A synchronous sink (stdout redirected to a file) that failed, e.g. a full disk: the line is lost.
      dropped++;
    }
  };
  const flushBatch = () => {
    scheduled = false;
    if (broken || batch.length === 0) return;
    const text = batch.join("");
    batch = [];
    batchBytes = 0;
    if (dropped > 0 && out.writableLength === 0) {
      writeOut(`${JSON.stringify({ level: "warn", time: new Date().toISOString(), pid: process.pid, dropped, msg: "log lines dropped: stdout was not taking them" })}\n`);
      dropped = 0;
    }
    writeOut(text);
  };
  out.on("error", (error: NodeJS.ErrnoException) => {
    // The reader is gone (EPIPE) or the stream was destroyed: nothing written later can arrive.
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED" || error.code === "ECONNRESET") {
      broken = true;
      batch = [];
      batchBytes = 0;
    }
  });

  // A process on its way out (an uncaught exception too) writes what is queued, if stdout takes it now.
  process.on("exit", flushBatch);

  return {
    write(line: string) {
      if (broken) return;
      if (out.writableLength + batchBytes + line.length > maxQueued) {
        dropped++;
        return;
      }
      batch.push(line);
      batchBytes += line.length;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flushBatch);
      }
    },
    flush(callback) {
      flushBatch();
      if (!callback) return;
      if (broken || out.writableLength === 0) return callback();
      out.once("drain", () => callback());
    },
  };
}

let sink: StdoutSink | undefined;

/** The format `--log-format` names for this process: `auto` is pretty on a terminal, JSON otherwise. */
export const logFormatFor = (format: LogFormat, stdout: { isTTY?: boolean } = process.stdout): "json" | "pretty" =>
  format === "auto" ? (stdout.isTTY === true ? "pretty" : "json") : format;

/**
 * Each JSON line as a line a person reads (pino-pretty): time, level, message, then the fields on
 * the same line; coloured on a terminal unless NO_COLOR is set.
 */
export function prettyLines(colorize: boolean): (line: string) => string {
  return prettyFactory({ colorize, singleLine: true, translateTime: "SYS:yyyy-mm-dd HH:MM:ss.l o", ignore: "pid" });
}

/**
 * JSON lines on stdout (pino), or to `destination` (a node in a test's process keeps them);
 * `format` "pretty" writes them for a person instead. Nothing here ever receives a token, a key or a
 * message body: the access log names the caller by address only.
 */
export function createLogger(level: LogLevel, bindings: Record<string, unknown> = {}, destination?: { write(line: string): void }, format: "json" | "pretty" = "json"): Logger {
  if (!destination && !sink) {
    sink = createStdoutSink(process.stdout);
    // A warning Node prints to a stderr whose reader is gone must not crash the node either.
    process.stderr.on("error", () => {});
  }
  const target = destination ?? sink!;
  if (format === "pretty") {
    const prettify = prettyLines(process.stdout.isTTY === true && process.env.NO_COLOR === undefined && destination === undefined);
    return pino(
      { level, base: { pid: process.pid, ...bindings }, timestamp: pino.stdTimeFunctions.isoTime },
      { write: (line: string) => target.write(prettify(line)) },
    );
  }
  return pino(
    {
      level,
      base: { pid: process.pid, ...bindings },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    target,
  );
}

/**
 * Writes the queued log lines and waits until stdout has taken them, at most `timeoutMs`: a reader
 * that stopped reading, or died, delays an exit by that much and no more.
 */
export function flushLogs(timeoutMs = 1000): Promise<void> {
  return new Promise((resolve) => {
    if (!sink) return resolve();
    const timer = setTimeout(resolve, timeoutMs);
    sink.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export type { Logger };
