// What a command reads besides its arguments: standard input (`send <to> -`), and a file or
// standard input line by line (`verify-export`, `import`).
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface, type Interface } from "node:readline";
import { CliError } from "./errors.js";
import { escapeControls } from "./format.js";

/** All of standard input, one trailing newline dropped. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

/** The lines of `file` (`-`: standard input), or a clear error when it cannot be read. */
export async function linesOf(file: string): Promise<Interface> {
  let input: NodeJS.ReadableStream;
  if (file === "-") {
    input = process.stdin;
  } else {
    const stats = await stat(file).catch((error: NodeJS.ErrnoException) => {
      throw new CliError(`cannot read ${escapeControls(file)}: ${error.code === "ENOENT" ? "no such file" : (error.code ?? error.message)}`);
    });
    if (!stats.isFile()) throw new CliError(`cannot read ${escapeControls(file)}: not a file`);
    input = createReadStream(file, { encoding: "utf8" });
  }
  return createInterface({ input, crlfDelay: Infinity });
}
