import { describe, expect, it } from "vitest";
import type { RequestContext } from "./context.js";
import { createDispatcher } from "./dispatcher.js";
import type { JsonRpcResponse } from "./errors.js";
import { petDocument, petService, sumTree, type Tree } from "../test/pet-service.js";

/** A dispatcher for the pets service whose handlers answer what they were given (trees_sum: the sum). */
function setup() {
  const handlers = {
    pets_add: (args: { pet: unknown }) => args.pet,
    trees_sum: (args: { tree: Tree }) => sumTree(args.tree),
    pets_find: (args: { filter: unknown }) => args.filter,
    pets_log: (args: { line: string }) => void logged.push(args.line),
  };
  const logged: string[] = [];
  // The handlers echo their params to show what validation gave them: results are checked in result-validation.test.ts.
  const dispatcher = createDispatcher({ service: petService, handlers, validateResults: false });
  const call = async (method: string, params: unknown): Promise<JsonRpcResponse> =>
    (await dispatcher.dispatch({ jsonrpc: "2.0", id: 1, method, params }, {})) as JsonRpcResponse;
  return { dispatcher, call, logged };
}

const result = (response: JsonRpcResponse) => {
  if (!("result" in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response.result;
};
const error = (response: JsonRpcResponse) => {
  if (!("error" in response)) throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  return response.error;
};

/** A complete tree of `depth` levels below the root, each node with two children. */
const tree = (depth: number, value = 1): Tree => (depth === 0 ? { value } : { value, children: [tree(depth - 1, value), tree(depth - 1, value)] });

describe("a method without a result (a notification)", () => {
  it("runs its handler and answers nothing when sent as a notification", async () => {
    const { dispatcher, logged } = setup();
    expect(await dispatcher.dispatch({ jsonrpc: "2.0", method: "pets_log", params: ["one"] }, {})).toBeUndefined();
    expect(logged).toEqual(["one"]);
  });

  it("answers result null when called with an id (a response must carry a result)", async () => {
    const { call, logged } = setup();
    const response = await call("pets_log", { line: "two" });
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: null });
    expect(JSON.parse(JSON.stringify(response))).toHaveProperty("result", null);
    expect(logged).toEqual(["two"]);
  });
});

describe("param schemas with $refs into the service's document", () => {
  it("resolves a param schema's ref to a component schema", async () => {
    const { call } = setup();
    const pet = { name: "rex", kind: "dog" };
    expect(result(await call("pets_add", { pet }))).toEqual(pet);
    expect(error(await call("pets_add", [{ name: "Rex", kind: "dog" }]))).toEqual({
      code: -32602,
      message: "Invalid params: pet.name must match ^[a-z]+$",
      data: { field: "pet.name", reason: "must match ^[a-z]+$", param: "pet", path: "/name" },
    });
    expect(error(await call("pets_add", [{ name: "rex", kind: "cow" }])).message).toBe('Invalid params: pet.kind must be one of "dog", "cat"');
    expect(error(await call("pets_add", [{ name: "rex", kind: "dog", owner: "me" }])).message).toBe("Invalid params: pet.owner is not a known member");
    expect(error(await call("pets_add", [{ name: "rex" }])).message).toBe("Invalid params: pet.kind is required");
    expect(error(await call("pets_add", ["rex"])).message).toBe("Invalid params: pet must be object");
  });

  it("resolves refs between component schemas (Pet → Tag → Name), and in anyOf", async () => {
    const { call } = setup();
    const pet = { name: "rex", kind: "dog", tag: { label: "good", color: "brown" } };
    expect(result(await call("pets_add", [pet]))).toEqual(pet);
    expect(error(await call("pets_add", [{ ...pet, tag: { label: "Good" } }])).message).toBe("Invalid params: pet.tag.label must match ^[a-z]+$");
    expect(error(await call("pets_add", [{ ...pet, tag: {} }])).message).toBe("Invalid params: pet.tag.label is required");
    expect(result(await call("pets_find", { filter: { either: { label: "good" } } }))).toEqual({ either: { label: "good" } });
    expect(result(await call("pets_find", { filter: { either: 3 } }))).toEqual({ either: 3 });
    expect(error(await call("pets_find", { filter: { either: -1 } })).code).toBe(-32602);
    expect(result(await call("pets_find", {}))).toEqual({});
  });

  it("validates a recursive schema: a Tree whose children are Trees, to any depth", async () => {
    const { call } = setup();
    expect(result(await call("trees_sum", [tree(3)]))).toBe(15);
    expect(result(await call("trees_sum", [tree(8)]))).toBe(511);
    const bad = tree(3);
    bad.children![1]!.children![0]!.children![1]!.value = 1.5;
    expect(error(await call("trees_sum", [bad]))).toMatchObject({
      code: -32602,
      message: "Invalid params: tree.children[1].children[0].children[1].value must be integer",
      data: { field: "tree.children[1].children[0].children[1].value", path: "/children/1/children/0/children/1/value" },
    });
    const extra = tree(3);
    (extra.children![0]!.children![1]!.children![0] as unknown as Record<string, unknown>).leaf = true;
    expect(error(await call("trees_sum", [extra])).message).toBe("Invalid params: tree.children[0].children[1].children[0].leaf is not a known member");
  });

  it("tolerates keywords Ajv does not know, checks the formats of ajv-formats and ignores unknown ones", async () => {
    const { call } = setup();
    // x-… extensions, example, deprecated, readOnly, discriminator, nullable, a format no library knows (css-color).
    const pet = { id: "7d3f0c8e-2b1a-4c5d-9e6f-0a1b2c3d4e5f", name: "rex", kind: "cat", born: "2020-01-01T00:00:00Z", nickname: null, tag: { label: "ok", color: "nope" } };
    expect(result(await call("pets_add", [pet]))).toEqual(pet);
    expect(error(await call("pets_add", [{ ...pet, id: "not-a-uuid" }]))).toEqual({
      code: -32602,
      message: "Invalid params: pet.id must be a valid uuid",
      data: { field: "pet.id", reason: "must be a valid uuid", param: "pet", path: "/id" },
    });
    expect(error(await call("pets_add", [{ ...pet, born: "yesterday" }])).message).toBe("Invalid params: pet.born must be a valid date-time");
  });

  it("keeps data that looks like a ref as data, and resolves the schema of a member named $ref", async () => {
    const { call } = setup();
    const marker = { $ref: "#/components/schemas/Name" };
    expect(result(await call("pets_find", { filter: { marker } }))).toEqual({ marker });
    expect(error(await call("pets_find", { filter: { marker: "rex" } })).message).toMatch(/^Invalid params: filter\.marker must be one of /);
    expect(result(await call("pets_find", { filter: { $ref: "rex" } }))).toEqual({ $ref: "rex" });
    expect(error(await call("pets_find", { filter: { $ref: "Rex" } })).message).toBe("Invalid params: filter.$ref must match ^[a-z]+$");
  });

  it("changes neither the descriptors nor the document", () => {
    const before = structuredClone(petService);
    setup();
    setup();
    expect(petService).toEqual(before);
  });

  it("answers rpc.discover with the service's document, as written", async () => {
    const { call } = setup();
    expect(result(await call("rpc.discover", []))).toBe(petDocument);
  });

  it("needs a handler for every method", () => {
    const handlers = { pets_add: () => null, trees_sum: () => 0 };
    // @ts-expect-error -- pets_find has no handler
    expect(() => createDispatcher({ service: petService, handlers })).toThrow("No handler for pets_find");
    // A service typed only as a ServiceDefinition: checked when the dispatcher is made.
    expect(() => createDispatcher<RequestContext>({ service: petService, handlers })).toThrow("No handler for pets_find");
  });

  it("serves a document without components", async () => {
    const service = {
      methods: { echo: { paramStructure: "by-position", requiresAuth: false, wrapResult: true, params: [{ name: "text", required: true, schema: { type: "string", "x-note": 1 } }] } },
      document: { openrpc: "1.3.2", info: { title: "echo", version: "1" }, methods: [] },
    } as const;
    const dispatcher = createDispatcher({ service, handlers: { echo: ({ text }: { text: string }) => text } });
    expect(await dispatcher.dispatch({ jsonrpc: "2.0", id: 1, method: "echo", params: ["hi"] }, {})).toEqual({ jsonrpc: "2.0", id: 1, result: ["hi"] });
    expect(await dispatcher.dispatch({ jsonrpc: "2.0", id: 1, method: "echo", params: [1] }, {})).toMatchObject({ error: { message: "Invalid params: text must be string" } });
  });
});
