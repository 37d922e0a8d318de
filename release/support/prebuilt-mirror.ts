// better-sqlite3's native addon for the relay a consumer installs, from a mirror on loopback.
// Installing better-sqlite3 downloads a prebuilt addon (prebuild-install, from GitHub) or compiles
// SQLite (~1 min here, and node-gyp downloads Node's headers). Operators without that network point
// `npm_config_better_sqlite3_binary_host` at a mirror of the release assets; so does this test, at
// one serving the addon this workspace built, packed the way the release assets are.
import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { runOk } from "./programs.js";

export interface PrebuiltMirror {
  /** What `npm_config_better_sqlite3_binary_host` is set to. */
  readonly url: string;
  /** Paths asked for, in order. */
  readonly requests: string[];
  stop(): Promise<void>;
}

/**
 * Packs the addon of the better-sqlite3 installed at `moduleDir` as its release asset
 * (`better-sqlite3-vVERSION-node-vABI-PLATFORM-ARCH.tar.gz` holding `build/Release/better_sqlite3.node`)
 * and serves it where prebuild-install looks: `{host}/v{version}/{asset}`.
 */
export async function startPrebuiltMirror(moduleDir: string, work: string): Promise<PrebuiltMirror> {
  const { version } = JSON.parse(readFileSync(path.join(moduleDir, "package.json"), "utf8")) as { version: string };
  const asset = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const file = path.join(work, asset);
  await runOk("tar", ["-czf", file, "-C", moduleDir, "build/Release/better_sqlite3.node"], { cwd: work, env: process.env, timeoutMs: 60_000 });
  const body = readFileSync(file);
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? "");
    if (request.method === "GET" && request.url === `/v${version}/${asset}`) {
      response.writeHead(200, { "content-type": "application/gzip", "content-length": body.length }).end(body);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
