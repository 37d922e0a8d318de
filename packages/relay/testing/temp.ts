import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** A new, empty temp dir. */
export const tempDir = (prefix = "neutral-relay-") => mkdtempSync(path.join(os.tmpdir(), prefix));
