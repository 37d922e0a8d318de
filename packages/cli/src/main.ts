#!/usr/bin/env node
// `neutral`: the command line of neutralService. See `neutral --help` and README.md.
import { main } from "./cli.js";

// `neutral inbox | head` closes the pipe early: that is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

const code = await main(process.argv.slice(2));
// Let what was written reach the pipe or the terminal, then exit (idle keep-alive sockets would
// otherwise hold the process open for a few seconds).
process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
