import { pino, type Logger } from "pino";
import type { LogLevel } from "./config.js";

/**
 * JSON lines on stdout (pino). Nothing here ever receives a token, a key or a message body: the
 * access log names the caller by address only.
 */
export function createLogger(level: LogLevel, bindings: Record<string, unknown> = {}): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid, ...bindings },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}

export type { Logger };
