// The {{title}} server: the generated stub's `service` (./generated/, never edited) served with
// the handlers of ./handlers/ by @neutral/server, over node:http.
//
//   npm start                       listens on http://127.0.0.1:8545/ (PORT and HOST change it)
//   startServer({ port: 0 })        from a test: any free port; returns its URL and close()
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDispatcher, createHttpHandler } from "@neutral/server";
import { service } from "./generated/index.js";
import { handlers } from "./handlers/index.js";

export interface RunningServer {
  /** Where JSON-RPC is served (POST). */
  readonly url: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

export interface ServerOptions {
  port?: number;
  host?: string;
  /**
   * Check every result against its method's result schema in openrpc.json: a mismatch is answered
   * -32603 and logged. Default: when NODE_ENV is "development" or "test" (the example tests turn it on).
   */
  validateResults?: boolean;
}

export async function startServer({ port = 8545, host = "127.0.0.1", validateResults }: ServerOptions = {}): Promise<RunningServer> {
  const dispatcher = createDispatcher({
    service,
    handlers,
    ...(validateResults !== undefined && { validateResults }),
    // Anything a handler throws that is not an RpcError is answered -32603 "Internal error", without
    // details; this is where they can be seen.
    onInternalError: (error, method) => console.error(`${method} failed:`, error),
  });
  // Methods marked "x-requires-auth" in openrpc.json are refused (HTTP 401) until an `authenticate`
  // option here establishes the caller from the Authorization header (see @neutral/server's
  // createHttpHandler).
  const server = createServer(createHttpHandler({ dispatcher }));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostname = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostname}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// Run directly (`npm start`, `node dist/server.js`), not imported.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 8545);
  const host = process.env.HOST ?? "127.0.0.1";
  const server = await startServer({ port, host });
  console.log(`${service.document.info.title} listening on ${server.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}
