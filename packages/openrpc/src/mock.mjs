// `neutral-openrpc mock`: a JSON-RPC server for any OpenRPC document, to build a client against
// before the real server exists. Each method answers the result of its first example whose params
// the call matches (as @open-rpc/mock-server does), else a value generated from its result schema
// (json-schema-faker, seeded: the same call gets the same answer). Params are validated against the
// document's schemas, and `rpc.discover` serves the document, by @neutral/server's dispatcher: the
// runtime a scaffolded server runs on, so the mock refuses what the real server will refuse.
// Event streams (`x-subscription`) are not mocked: they answer -32601. Methods that require a token
// (`x-requires-auth`) answer without one.
import { createServer } from "node:http";
import { isDeepStrictEqual } from "node:util";
import { argsOf, createDispatcher, createHttpHandler, ErrorCode, RpcError } from "@neutral/server";
import { generateSync } from "json-schema-faker";
import { paramsAs, serviceDefinitionOf } from "./service-definition.mjs";

/** The seed of generated answers: a mock answers a call the same way every time. */
const SEED = 1;

/** A value of `schema`, whose `$ref`s point into `document`'s components. */
function generated(schema, document) {
  if (typeof schema === "boolean") return schema ? null : undefined;
  return generateSync({ ...schema, components: document.components ?? {} }, { seed: SEED });
}

/**
 * The args (by name) a call with `example`'s params arrives with, as the dispatcher hands them to
 * the handler (`argsOf`: defaults filled in, nested ones too). An example whose params break their
 * schema is never matched by a call the dispatcher lets through: its args as given.
 */
function exampleArgs(service, method, example) {
  const given = new Map(example.params.map((param) => [param.name, param.value]));
  try {
    const params = paramsAs(method, [...given], method.paramStructure === "by-position" ? "by-position" : "by-name");
    return argsOf(service, method.name, structuredClone(params));
  } catch {
    return Object.fromEntries(method.params.map((param) => [param.name, given.get(param.name)]));
  }
}

/** A param given as `null` is absent: how examples by position leave out a param before a given one. */
const absentIfNull = (value) => (value === null ? undefined : value);

/** Whether a call's args equal an example's, param by param (so an example that leaves a param out matches only calls that leave it out too). */
const matches = (method, expected, args) => method.params.every((param) => isDeepStrictEqual(absentIfNull(args[param.name]), absentIfNull(expected[param.name])));

/**
 * The service and handlers that answer `document`'s methods from their examples or their result
 * schemas (see above). `document` must be a valid OpenRPC document with local references only.
 * @param {Record<string, unknown>} document
 */
export function mockService(document) {
  const { model, service, streams } = serviceDefinitionOf(document);
  const handlers = {};
  for (const method of model.methods) {
    if (method.subscription) continue;
    let examples;
    handlers[method.name] = (args) => {
      if (method.notification) return undefined;
      examples ??= method.examples.filter((example) => example.result !== undefined).map((example) => ({ example, args: exampleArgs(service, method, example) }));
      const example = examples.find((candidate) => matches(method, candidate.args, args))?.example;
      if (example !== undefined) {
        const value = example.result.value;
        // An example shows the result as the wire carries it; the dispatcher wraps a payload itself.
        return method.result.wrapped && Array.isArray(value) && value.length === 1 ? value[0] : value;
      }
      try {
        return generated(method.result.payload, document);
      } catch (error) {
        throw new RpcError(ErrorCode.InternalError, `the mock could not make a value of ${method.name}'s result schema: ${error instanceof Error ? error.message : error}`);
      }
    };
  }
  return { service, handlers, streams };
}

/**
 * Serves the mock of `document` on `host:port` (0: a free port). Resolves with its URL and a
 * `close()`.
 * @param {Record<string, unknown>} document
 * @param {{ port?: number, host?: string }} [options]
 */
export async function startMock(document, { port = 0, host = "127.0.0.1" } = {}) {
  const { service, handlers, streams } = mockService(document);
  // A document's own examples are answered as written, even one its result schema would refuse.
  const dispatcher = createDispatcher({ service, handlers, validateResults: false });
  const server = createServer(createHttpHandler({ dispatcher }));
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const hostname = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostname}:${address.port}/`,
    streams,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
