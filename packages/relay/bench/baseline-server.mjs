// The getInbox baseline: a bare node:http server that does the least a JSON-RPC server must (read
// the body, JSON.parse it, look at method/params/auth header) and answers a fixed 20-message
// payload with JSON.stringify. No auth check, no storage. `--workers N` forks N processes (cluster).
// Usage: node baseline-server.mjs PORT PAYLOAD_FILE WORKERS
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [port, payloadFile, workers = "1"] = process.argv.slice(2);

if (cluster.isPrimary && Number(workers) > 1) {
  for (let i = 0; i < Number(workers); i++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    process.exit(0);
  });
} else {
  const payload = JSON.parse(readFileSync(payloadFile, "utf8"));
  const server = createServer((request, response) => {
    if (request.method !== "POST") {
      response.writeHead(request.url === "/health" ? 200 : 405).end();
      return;
    }
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        response.writeHead(400).end();
        return;
      }
      const ok = body.jsonrpc === "2.0" && body.method === "neutralService_getInbox" && Array.isArray(body.params) && typeof request.headers.authorization === "string";
      const text = JSON.stringify(
        ok ? { jsonrpc: "2.0", id: body.id, result: [payload] } : { jsonrpc: "2.0", id: body.id ?? null, error: { code: -32600, message: "Invalid Request" } },
      );
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(port), "127.0.0.1");
  process.on("SIGTERM", () => process.exit(0));
}
