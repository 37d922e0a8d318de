import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { docsDir } from "@neutral/docs";
import { openrpcDocument } from "@neutral/server/neutral-service";
import { answerScrape, type Scrape } from "../metrics/endpoint.js";
import { SOFTWARE } from "../version.js";
import type { Readiness } from "./readiness.js";

interface StaticFile {
  body: Buffer;
  /** The body gzipped once at start, for clients that take it (the docs page is ~190 KB of HTML, ~35 KB gzipped). */
  gzipped: Buffer;
  type: string;
}

/** Whether a request's `Accept-Encoding` takes gzip (not refused with `q=0`). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? "").split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    return (coding === "gzip" || coding === "*") && !params.some((param) => /^\s*q=0(?:\.0*)?\s*$/.test(param));
  });
}

/**
 * The docs site's script and stylesheet come from this origin, and its "Try it" calls this origin;
 * nothing inline, nothing from elsewhere, no framing.
 */
const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
};

/**
 * The built docs site, every file of it read once at start and keyed by its name relative to
 * `docsDir` (`index.html`, `try-it.js`, …). A request path is looked up here, never joined onto a
 * directory, so `../` or an encoded variant can only miss.
 */
function loadDocs(): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  let entries;
  try {
    entries = readdirSync(docsDir, { recursive: true, withFileTypes: true });
  } catch {
    // The docs package is not built: /docs answers 503 saying so rather than failing the node.
    return files;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const name = path.relative(docsDir, file).split(path.sep).join("/");
    try {
      const body = readFileSync(file);
      files.set(name, { body, gzipped: gzipSync(body, { level: 9 }), type: CONTENT_TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream" });
    } catch {
      // Gone since the listing (the docs being rebuilt): left out rather than failing the node.
    }
  }
  return files;
}

/** The spec's version, as the served document gives it. */
const specVersion = (openrpcDocument as { info?: { version?: unknown } }).info?.version;

/** What GET / says the node is and where things are: for `Accept: application/json`. */
export const ABOUT = {
  service: "neutralService",
  description: "an encrypted-message relay with per-user inboxes, spoken as JSON-RPC 2.0 over HTTP",
  software: SOFTWARE,
  ...(typeof specVersion === "string" && { specVersion }),
  jsonRpc: { method: "POST", path: "/", contentType: "application/json" },
  docs: "/docs/",
  openrpc: "/openrpc.json",
  health: "/health",
  ready: "/ready",
} as const;

/** What GET / says for any other client (curl): the same, as text; `url` is where the client reached the node. */
export const aboutText = (url = "<this URL>") => [
  `neutralService node: ${SOFTWARE.name} ${SOFTWARE.version}${typeof specVersion === "string" ? ` (spec ${specVersion})` : ""}`,
  `${ABOUT.description[0]!.toUpperCase()}${ABOUT.description.slice(1)}.`,
  "",
  "JSON-RPC   POST /  with Content-Type: application/json, e.g.",
  `           curl -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"neutralService_nodeInfo","params":[]}' ${url}`,
  "docs       /docs/",
  "spec       /openrpc.json  (OpenRPC; also the rpc.discover method)",
  "health     /health  (alive), /ready  (the database answers: 200, else 503)",
  "",
].join("\n");

/** Whether `accept` asks for JSON rather than text (a browser's HTML asks go to the docs first). */
const wantsJson = (accept: string) => /\bapplication\/(json|[\w.+-]*\+json)\b/i.test(accept) && !/\btext\/plain\b/i.test(accept);

export interface FallbackOptions {
  /** GET /ready's check; absent: /ready answers as /health does. */
  ready?: () => Promise<Readiness>;
  /** GET /metrics on this port, for requests `authorized` says carry the metrics token; absent: 404 as any unknown path. */
  metrics?: { authorized: (authorization: string | undefined) => boolean; scrape: Scrape };
}

/**
 * Everything but JSON-RPC (seeds/README.md §4): GET /health (alive), GET /ready (can serve: the
 * database answers), GET /openrpc.json, the docs at /docs/, GET / saying what the node is (a
 * browser's sent to the docs), and GET /metrics when a metrics token is set. Other paths 404, other verbs 405.
 */
export function createFallbackRoutes(options: FallbackOptions = {}): (request: IncomingMessage, response: ServerResponse) => void {
  const { ready, metrics } = options;
  const docs = loadDocs();
  const openrpc = Buffer.from(JSON.stringify(openrpcDocument));
  const about = Buffer.from(`${JSON.stringify(ABOUT)}\n`);

  const sendBody = (request: IncomingMessage, response: ServerResponse, status: number, type: string, body: Buffer | string) => {
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    response.writeHead(status, { "content-type": type, "content-length": String(bytes.length), ...SECURITY_HEADERS });
    response.end(request.method === "HEAD" ? undefined : bytes);
  };

  return (request, response) => {
    const pathname = (request.url ?? "/").split("?", 1)[0]!;
    if (pathname === "/metrics" && metrics) {
      if (!metrics.authorized(request.headers.authorization)) {
        response.writeHead(401, { "www-authenticate": 'Bearer realm="metrics"', "content-type": "text/plain; charset=utf-8" }).end("Unauthorized: the metrics need their bearer token\n");
        return;
      }
      answerScrape(request, response, metrics.scrape).catch(() => response.destroy());
      return;
    }
    const known = pathname === "/" || pathname === "/health" || pathname === "/ready" || pathname === "/openrpc.json" || pathname === "/docs" || pathname.startsWith("/docs/");
    if (!known) return sendBody(request, response, 404, "text/plain; charset=utf-8", "Not Found\n");
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: pathname === "/" ? "GET, HEAD, POST" : "GET, HEAD", "content-type": "text/plain; charset=utf-8" });
      response.end("Method Not Allowed\n");
      return;
    }
    switch (pathname) {
      case "/health":
        return sendBody(request, response, 200, "application/json", '{"status":"ok"}');
      case "/ready":
        if (!ready) return sendBody(request, response, 200, "application/json", '{"status":"ready"}');
        ready().then(
          (verdict) =>
            verdict.ready
              ? sendBody(request, response, 200, "application/json", '{"status":"ready"}')
              : sendBody(request, response, 503, "application/json", JSON.stringify({ status: "unavailable", reason: verdict.reason })),
          () => sendBody(request, response, 503, "application/json", '{"status":"unavailable","reason":"the readiness check failed"}'),
        );
        return;
      case "/openrpc.json":
        return sendBody(request, response, 200, "application/json", openrpc);
      case "/": {
        // Any client learns what this is: a browser gets the docs, JSON to whoever asks for it, else text.
        const accept = request.headers.accept ?? "";
        if (accept.includes("text/html")) {
          response.writeHead(302, { location: "/docs/", vary: "accept" }).end();
          return;
        }
        response.setHeader("vary", "accept");
        if (wantsJson(accept)) return sendBody(request, response, 200, "application/json", about);
        // The Host the client used, when it is a plain host[:port], makes the example copy-pasteable.
        const host = request.headers.host;
        return sendBody(request, response, 200, "text/plain; charset=utf-8", aboutText(host && /^[\w.-]+(:\d+)?$|^\[[\da-f:.]+\](:\d+)?$/i.test(host) ? `http://${host}/` : undefined));
      }
      case "/docs":
        response.writeHead(301, { location: "/docs/" }).end();
        return;
    }
    const name = pathname === "/docs/" ? "index.html" : pathname.slice("/docs/".length);
    const file = docs.get(name);
    if (file && acceptsGzip(request.headers["accept-encoding"])) {
      response.writeHead(200, { "content-type": file.type, "content-encoding": "gzip", vary: "accept-encoding", "content-length": String(file.gzipped.length), ...SECURITY_HEADERS });
      response.end(request.method === "HEAD" ? undefined : file.gzipped);
      return;
    }
    if (file) return sendBody(request, response, 200, file.type, file.body);
    if (docs.size === 0) return sendBody(request, response, 503, "text/plain; charset=utf-8", "The docs are not built: pnpm build\n");
    return sendBody(request, response, 404, "text/plain; charset=utf-8", "Not Found\n");
  };
}
