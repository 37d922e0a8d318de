// Replays every example of openrpc.json against the server: one test per example pairing, which
// sends its params and expects its result. They fail ("Method not implemented") until the handlers
// are written, and then keep the handlers honest to the spec. Run with `npm test`.
//
// Hand-written from here on: the examples themselves come from ./generated/ (`examples`), so an
// example added to openrpc.json is tested after `npm run generate`.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { examples, type ExamplePairing } from "./generated/index.js";
import { startServer, type RunningServer } from "./server.js";

let server: RunningServer | undefined;

before(async () => {
  // Results are checked against their schemas too: a handler that answers off the spec fails here.
  server = await startServer({ port: 0, host: "127.0.0.1", validateResults: true });
});

after(async () => {
  await server?.close();
});

/** The JSON-RPC request of an example: params by name when the method takes them so, else positional (in the order listed). */
function requestOf(example: ExamplePairing, id: number): object {
  const params =
    example.paramStructure === "by-name"
      ? Object.fromEntries(example.params.map((param) => [param.name, param.value]))
      : example.params.map((param) => param.value);
  return { jsonrpc: "2.0", method: example.method, params, ...(example.notification ? {} : { id }) };
}

async function post(body: object): Promise<Response> {
  if (!server) throw new Error("the server did not start");
  return fetch(server.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

const replayed = examples.filter((example) => !example.stream);

if (replayed.length === 0) {
  test("examples", { skip: "openrpc.json has no examples to replay (event-stream methods are not replayed here)" }, () => {});
}

replayed.forEach((example, index) => {
  test(`${example.method} — ${example.name}`, async () => {
    const response = await post(requestOf(example, index + 1));
    if (example.notification) {
      // A notification is answered with nothing: HTTP 204, no body.
      assert.equal(response.status, 204, `a notification is answered 204, got ${response.status}: ${await response.text()}`);
      return;
    }
    const text = await response.text();
    let answer: { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    try {
      answer = JSON.parse(text);
    } catch {
      assert.fail(`HTTP ${response.status}, not JSON: ${text}`);
    }
    if (answer.error) {
      const { code, message, data } = answer.error;
      assert.fail(`${example.method} answered error ${code}: ${message}${data === undefined ? "" : ` ${JSON.stringify(data)}`}`);
    }
    assert.ok("result" in answer, `no result in ${text}`);
    if (example.result) assert.deepStrictEqual(answer.result, example.result.value);
  });
});
