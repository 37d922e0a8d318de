// A private npm registry on loopback: Verdaccio, from the npm registry (this package's
// devDependencies), with no uplink, so that nothing it serves comes from anywhere but this machine:
// the packages `changeset publish` sends it, and the third-party packages they need, stored before it
// starts (offline-packages.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { freePorts } from "@neutral/relay/testing";
import { startDaemon, type Daemon } from "./programs.js";

const verdaccioBin = path.join(path.dirname(createRequire(import.meta.url).resolve("verdaccio/package.json")), "bin", "verdaccio");

export interface Registry {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  /** Where Verdaccio keeps packages: one folder per package (package.json and tarballs). */
  readonly storage: string;
  /** An npm user config (`npm_config_userconfig`) with a token that may publish. */
  readonly publisherConfig: string;
  stop(): Promise<void>;
}

/** Verdaccio's configuration: anyone reads, a signed-in user publishes, no uplink, quiet logs. */
function config(storage: string, htpasswd: string): string {
  return [
    `storage: ${JSON.stringify(storage)}`,
    "auth:",
    "  htpasswd:",
    `    file: ${JSON.stringify(htpasswd)}`,
    "    max_users: 10",
    "uplinks: {}",
    "packages:",
    "  '**':",
    "    access: $all",
    "    publish: $authenticated",
    "    unpublish: $authenticated",
    "max_body_size: 64mb",
    "log: { type: stdout, format: json, level: warn }",
    "",
  ].join("\n");
}

/**
 * Starts Verdaccio in `dir` on a free loopback port, after `seed(storage)` has stored what it
 * should serve from the start. Its own port choice is read from its start-up line.
 */
export async function startRegistry(dir: string, seed: (storage: string) => Promise<void>): Promise<Registry> {
  const storage = path.join(dir, "storage");
  mkdirSync(storage, { recursive: true });
  await seed(storage);
  const configFile = path.join(dir, "config.yaml");
  writeFileSync(configFile, config(storage, path.join(dir, "htpasswd")));
  let daemon: Daemon | undefined;
  // Verdaccio takes the port it is given; a port another process took between choosing and
  // listening makes it exit, and it is started again on another.
  for (let attempt = 1; ; attempt++) {
    const [port] = await freePorts(1);
    daemon = startDaemon(process.execPath, [verdaccioBin, "--config", configFile, "--listen", `127.0.0.1:${port}`], { cwd: dir, env: { ...process.env, NODE_ENV: "production" } });
    try {
      await daemon.waitFor(/"http address - http:\/\/127\.0\.0\.1:\d+\/ -/, 60_000);
      const url = `http://127.0.0.1:${port}/`;
      const publisherConfig = path.join(dir, "publisher.npmrc");
      writeFileSync(publisherConfig, `//127.0.0.1:${port}/:_authToken=${await addUser(url)}\n`);
      return { url, storage, publisherConfig, stop: () => daemon!.stop() };
    } catch (error) {
      await daemon.stop();
      if (attempt === 3 || !/EADDRINUSE/.test(daemon.output())) throw error;
    }
  }
}

/** Makes a user (npm's legacy `adduser` call) and answers its token. */
async function addUser(url: string): Promise<string> {
  const name = "release-test";
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: `pw-${process.pid}-${Date.now()}` }),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || !body.token) throw new Error(`the registry refused to make a user: ${response.status} ${JSON.stringify(body)}`);
  return body.token;
}
