// The names buildModel gives a document's methods (functions and type bases), component schemas
// (type names) and notifications: deterministic, collision-free, legal TypeScript; and how it reads
// what the names come with ($ref'd content descriptors, errors, examples; defaults; notifications;
// x-unwrap-single-item-results).
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { type Model, buildModel, documentOf } from "../../test/emitter.js";

const result = { name: "result", schema: {} };
const method = (name: string, extra: Record<string, unknown> = {}) => ({ name, params: [], result, ...extra });
const modelOf = (methodNames: string[], schemas: Record<string, unknown> = {}) => buildModel(documentOf(schemas, methodNames.map((n) => method(n))));
const fns = (model: Model) => model.methods.map((m) => m.fn);
const typeBases = (model: Model) => model.methods.map((m) => m.typeBase);
const typeNames = (schemas: Record<string, unknown>) => buildModel(documentOf(schemas)).schemas.map((s) => s.typeName);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

describe("method function names", () => {
  it.each([
    ["a shared prefix_ is the namespace, left out", ["neutralService_getInbox", "neutralService_sendMessage"], ["getInbox", "sendMessage"]],
    ["no shared prefix: the whole name", ["create_pet", "list_pets"], ["createPet", "listPets"]],
    ["mixed prefixes: the whole name", ["eth_getBalance", "net_version", "web3_clientVersion"], ["ethGetBalance", "netVersion", "web3ClientVersion"]],
    ["a single method keeps its prefix", ["eth_getBalance"], ["ethGetBalance"]],
    ["snake_case names sharing a verb keep it", ["get_pet", "get_owner"], ["getPet", "getOwner"]],
    ["dotted", ["rpc.discover", "pets.list"], ["rpcDiscover", "petsList"]],
    ["kebab", ["get-pet", "list-pets"], ["getPet", "listPets"]],
    ["a leading acronym is lowercased", ["HTTPGet", "URLParse"], ["httpGet", "urlParse"]],
    ["reserved words get a trailing _", ["delete", "new", "class"], ["delete_", "new_", "class_"]],
    ["reserved words after the prefix is left out", ["petStore_delete", "petStore_new"], ["delete_", "new_"]],
    ["names starting with digits get a leading _", ["2fa_verify", "3d_render"], ["_2faVerify", "_3dRender"]],
    ["symbol-only names fall back to method", ["***", "$$$"], ["method", "method2"]],
    ["two names mapping to one: the later gets a suffix", ["get_pet", "getPet"], ["getPet", "getPet2"]],
    ["three names mapping to one", ["get_pet", "getPet", "get-pet"], ["getPet", "getPet2", "getPet3"]],
    ["a name equal to another's xRequest builder", ["get_pet", "get_pet_request"], ["getPet", "getPetRequest2"]],
    ["the builder's name taken first: the later method moves", ["get_pet_request", "get_pet"], ["getPetRequest", "getPet2"]],
    ["the client module's own identifiers", ["create_rpc_client", "method_names", "positional_params", "named_params"], ["createRpcClient2", "methodNames2", "positionalParams2", "namedParams2"]],
    ["the client object's rpc member and its bindings", ["rpc", "params", "options", "errors"], ["rpc2", "params2", "options2", "errors2"]],
    ["the client factory's name", ["create_test_client", "x"], ["createTestClient2", "x"]],
  ] as const)("%s", (_, methodNames, want) => {
    const model = modelOf([...methodNames]);
    expect(fns(model)).toEqual(want);
    for (const fn of fns(model)) expect(fn).toMatch(IDENTIFIER);
  });

  it("a method listed twice is refused", () => {
    expect(() => modelOf(["get_pet", "get_pet"])).toThrow(/the method get_pet is listed twice/);
  });

  it("reads a method given as a $ref", () => {
    const model = buildModel({ ...documentOf({}, [{ $ref: "#/x-methods/getPet" }]), "x-methods": { getPet: method("get_pet") } });
    expect(fns(model)).toEqual(["getPet"]);
  });
});

describe("method type names", () => {
  it("are the function's name in PascalCase", () => {
    expect(typeBases(modelOf(["neutralService_getInbox", "neutralService_send"]))).toEqual(["GetInbox", "Send"]);
  });

  it("of a reserved-word or digit-first method are legal", () => {
    const model = modelOf(["delete", "2fa_verify", "***"]);
    expect(typeBases(model)).toEqual(["Delete", "T2faVerify", "Method"]);
    for (const base of typeBases(model)) expect(`${base}Params`).toMatch(IDENTIFIER);
  });

  it("move aside for a component schema named like a method's types (GetPetParams + get_pet)", () => {
    const model = modelOf(["get_pet", "list_pets"], { GetPetParams: { type: "object" }, ListPetsResult: { type: "array" } });
    expect(model.schemas.map((s) => s.typeName)).toEqual(["GetPetParams", "ListPetsResult"]);
    expect(typeBases(model)).toEqual(["GetPet2", "ListPets2"]);
    expect(fns(model)).toEqual(["getPet", "listPets"]);
  });

  it("move aside for another method's (get_pet and getPet)", () => {
    expect(typeBases(modelOf(["get_pet", "getPet"]))).toEqual(["GetPet", "GetPet2"]);
  });

  it("never take a reserved type name (a method named error, array, handlers)", () => {
    expect(typeBases(modelOf(["error", "handlers", "t"]))).toEqual(["Error", "Handlers", "T"]);
    // Error itself is reserved, but the method's types are ErrorParams/ErrorArgs/ErrorResult: all free.
    expect(typeBases(modelOf(["method_name", "error_name"]))).toEqual(["MethodName", "ErrorName"]);
  });

  it("a base whose derived names collide with the generated ones moves aside", () => {
    const model = modelOf(["x"], { XResult: { type: "string" } });
    expect(typeBases(model)).toEqual(["X2"]);
  });
});

describe("component schema type names", () => {
  it.each([
    ["a key as written", { Pet: {} }, ["Pet"]],
    ["from the KEY, not the title (metamask's address / Address)", { address: { title: "Address" }, addresses: { title: "hex encoded address" } }, ["Address", "Addresses"]],
    ["a title never becomes a name", { Pet: { title: "Animal" }, Animal: { title: "Pet" } }, ["Pet", "Animal"]],
    ["keys differing only in case", { address: {}, Address: {} }, ["Address", "Address2"]],
    ["snake, kebab and spaced keys", { pet_record: {}, "owner-info": {}, "my pet": {} }, ["PetRecord", "OwnerInfo", "MyPet"]],
    ["keys with symbols", { "a/b": {}, "$id": {}, "x.y": {} }, ["AB", "Id", "XY"]],
    ["keys starting with digits", { "2fa": {}, "3d": {} }, ["T2fa", "T3d"]],
    // JavaScript (and JSON.parse) list integer-like keys first, whatever the document's order.
    ["integer-like keys", { b: {}, "10": {}, "1": {} }, ["T1", "T10", "B"]],
    ["keys without letters or digits", { "***": {}, "€": {} }, ["Schema", "Schema2"]],
    ["keys colliding with reserved type names", { Array: {}, Record: {}, Error: {}, Handlers: {}, Promise: {}, string: {}, T: {} }, ["Array2", "Record2", "Error2", "Handlers2", "Promise2", "String2", "T2"]],
    ["a key colliding with the client interface", { TestClient: {} }, ["TestClient2"]],
    ["a reserved name taken twice", { error: {}, Error: {} }, ["Error2", "Error3"]],
    ["keys in capitals keep their words apart", { BLOCK_ID: {}, BLOCK_HASH: {}, BLOCKID: {} }, ["BLOCK_ID", "BLOCK_HASH", "BLOCKID"]],
  ] as const)("%s", (_, schemas, want) => {
    const got = typeNames(schemas);
    expect(got).toEqual(want);
    for (const name of got) expect(name).toMatch(IDENTIFIER);
  });

  it("maps each key to its type name (model.types.typeNameOf)", () => {
    const model = buildModel(documentOf({ address: {}, Address: {} }));
    expect([...model.schemaTypeNames]).toEqual([["address", "Address"], ["Address", "Address2"]]);
    expect(model.types.typeNameOf("#/components/schemas/Address")).toBe("Address2");
    expect(model.types.typeNameOf("#/components/schemas/address")).toBe("Address");
    expect(model.types.typeNameOf("#/components/schemas/Address/properties/x")).toBeUndefined();
    expect(model.types.typeNameOf("#/components/schemas/Nope")).toBeUndefined();
  });
});

describe("the client's class name", () => {
  it.each([
    ["Pet Store", "PetStore"],
    ["neutralService", "NeutralService"],
    ["3box api", "T3boxApi"],
    ["", "Service"],
    ["***", "Service"],
  ])("%j → %s", (title, want) => {
    expect(buildModel({ ...documentOf(), info: { title, version: "1" } }).className).toBe(want);
  });

  it("reserves its Client interface and create…Client factory", () => {
    const model = buildModel({ ...documentOf({ PetStoreClient: {} }, [method("create_pet_store_client")]), info: { title: "Pet Store", version: "1" } });
    expect(model.schemas[0]!.typeName).toBe("PetStoreClient2");
    expect(fns(model)).toEqual(["createPetStoreClient2"]);
  });
});

describe("notification type names (x-subscription)", () => {
  const subscribing = (name: string, notifications: string[]) => method(name, { "x-subscription": { notifications: notifications.map((n) => ({ name: n })) } });

  it("come from the notification's name, the shared prefix left out", () => {
    const model = buildModel(documentOf({}, [subscribing("svc_subscribe", ["svc_message", "svc_end"]), method("svc_get")]));
    expect(model.methods[0]!.subscription!.notifications.map((n) => n.typeBase)).toEqual(["MessageNotification", "EndNotification"]);
    expect(model.methods[0]!.notificationTypes).toEqual(["MessageNotification", "EndNotification"]);
  });

  it("without a shared prefix, from the last part of the name", () => {
    const model = buildModel(documentOf({}, [subscribing("watch", ["pets.added", "pets_removed"]), method("other")]));
    expect(model.methods[0]!.subscription!.notifications.map((n) => n.typeBase)).toEqual(["AddedNotification", "RemovedNotification"]);
  });

  it("move aside for a schema, for the method's own union type, and for each other", () => {
    const model = buildModel(
      documentOf({ MessageNotification: {} }, [subscribing("svc_message", ["svc_message"]), subscribing("svc_watchPets", ["svc_message", "other.message"])]),
    );
    // svc_message's own union type would be MessageNotification, a schema: its types take the base Message2.
    expect(model.methods.map((m) => m.typeBase)).toEqual(["Message2", "WatchPets"]);
    expect(model.methods.flatMap((m) => m.subscription!.notifications.map((n) => n.typeBase))).toEqual(["MessageNotification2", "MessageNotification3", "MessageNotification4"]);
  });

  it("are legal for a digit-first notification name", () => {
    const model = buildModel(documentOf({}, [subscribing("watch", ["1st"]), method("other")]));
    expect(model.methods[0]!.subscription!.notifications[0]!.typeBase).toBe("T1stNotification");
  });
});

describe("determinism", () => {
  const doc = () =>
    documentOf({ address: { title: "Address" }, Address: {}, GetPetParams: {} }, ["get_pet", "getPet", "get_pet_request", "delete", "rpc.discover"].map((n) => method(n)));

  it("the same document gives the same names, run after run", () => {
    const names = (model: Model) => ({ fns: fns(model), bases: typeBases(model), schemas: model.schemas.map((s) => s.typeName), className: model.className });
    const first = names(buildModel(doc()));
    for (let i = 0; i < 3; i++) expect(names(buildModel(doc()))).toEqual(first);
    expect(first).toEqual({ fns: ["getPet", "getPet2", "getPetRequest2", "delete_", "rpcDiscover"], bases: ["GetPet2", "GetPet3", "GetPetRequest", "Delete", "RpcDiscover"], schemas: ["Address", "Address2", "GetPetParams"], className: "Test" });
  });

  it("adding a method at the end never renames the earlier ones", () => {
    const before = modelOf(["get_pet", "getPet", "get_pet_request"]);
    const after = modelOf(["get_pet", "getPet", "get_pet_request", "getPet", "get_pet2"].filter((n, i, all) => all.indexOf(n) === i));
    expect(fns(after).slice(0, 3)).toEqual(fns(before));
    expect(typeBases(after).slice(0, 3)).toEqual(typeBases(before));
  });

  it("…as long as the shared prefix stays (a method outside it makes every name whole)", () => {
    const before = modelOf(["svc_getPet", "svc_listPets"]);
    expect(fns(modelOf(["svc_getPet", "svc_listPets", "svc_addPet"])).slice(0, 2)).toEqual(fns(before));
    expect(fns(modelOf(["svc_getPet", "svc_listPets", "rpc.discover"]))).toEqual(["svcGetPet", "svcListPets", "rpcDiscover"]);
  });

  it("lists every name given a suffix, with what took the name first (the CLI prints them)", () => {
    const model = buildModel(documentOf({ pet: {}, Pet: {}, Handlers: {} }, [method("get_pet"), method("getPet")])) as Model & { renamed: unknown[] };
    expect(model.renamed).toEqual([
      { what: 'schema "Pet"', wanted: "Pet", name: "Pet2", takenBy: 'schema "pet"' },
      { what: 'schema "Handlers"', wanted: "Handlers", name: "Handlers2", takenBy: undefined },
      { what: 'the types of method "getPet"', wanted: "GetPet", name: "GetPet2", takenBy: 'the types of method "get_pet"' },
      { what: 'method "getPet"', wanted: "getPet", name: "getPet2", takenBy: 'method "get_pet"' },
    ]);
    expect((buildModel(documentOf({ Pet: {} }, [method("get_pet")])) as Model & { renamed: unknown[] }).renamed).toEqual([]);
  });

  it("adding a schema at the end never renames earlier schemas", () => {
    expect(typeNames({ address: {}, Address: {}, ADDRESS: {} }).slice(0, 2)).toEqual(typeNames({ address: {}, Address: {} }));
  });
});

describe("what names come with", () => {
  const components = {
    schemas: { Limit: { type: "integer", default: 20 }, Pet: { type: "object" } },
    contentDescriptors: { PetId: { name: "petId", required: true, schema: { type: "string" } }, PetResult: { name: "pet", schema: { $ref: "#/components/schemas/Pet" } } },
    errors: { NotFound: { code: 404, message: "not found" } },
    examples: { PetIdExample: { name: "petId", value: "p1" }, PetExample: { name: "pet", value: { name: "Rex" } } },
    examplePairingObjects: { GetPet: { name: "get a pet", params: [{ $ref: "#/components/examples/PetIdExample" }], result: { $ref: "#/components/examples/PetExample" } } },
    tags: { Pets: { name: "pets" } },
  };
  const docWith = (m: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ openrpc: "1.3.2", info: { title: "Test", version: "1" }, methods: [m], components, ...extra });

  it("resolves content descriptors, errors, examples and tags given as $refs", () => {
    const model = buildModel(
      docWith({
        name: "get_pet",
        params: [{ $ref: "#/components/contentDescriptors/PetId" }],
        result: { $ref: "#/components/contentDescriptors/PetResult" },
        errors: [{ $ref: "#/components/errors/NotFound" }],
        examples: [{ $ref: "#/components/examplePairingObjects/GetPet" }],
        tags: [{ $ref: "#/components/tags/Pets" }],
      }),
    );
    const m = model.methods[0]!;
    expect(m.params).toMatchObject([{ name: "petId", required: true, schema: { type: "string" } }]);
    expect(m.result).toMatchObject({ name: "pet", schema: { $ref: "#/components/schemas/Pet" }, wrapped: false });
    expect(m.errors).toEqual([{ code: 404, message: "not found" }]);
    expect(m.examples).toEqual([{ name: "get a pet", params: [{ name: "petId", value: "p1" }], result: { name: "pet", value: { name: "Rex" } } }]);
    expect(m.tags).toEqual(["pets"]);
    expect(model.errors).toEqual([{ key: "NotFound", code: 404, message: "not found" }]);
  });

  it("a $ref that does not resolve is a clear error", () => {
    expect(() => buildModel(docWith({ name: "x", params: [{ $ref: "#/components/contentDescriptors/Nope" }], result }))).toThrow(/\$ref #\/components\/contentDescriptors\/Nope does not resolve: no "Nope"/);
    expect(() => buildModel(docWith({ name: "x", params: [{ schema: {} }], result }))).toThrow(/x: params\[0\]: not a content descriptor \(needs a `name`\)/);
  });

  it("a param listed twice is refused (it would be one member twice)", () => {
    expect(() => buildModel(docWith({ name: "x", params: [{ name: "a" }, { $ref: "#/components/contentDescriptors/PetId" }, { name: "a" }], result }))).toThrow(/x: the param a is listed twice/);
  });

  it.each([
    ["a default beside the $ref", { $ref: "#/components/schemas/Limit", default: 5 }, true, 5],
    ["a default on the referenced component", { $ref: "#/components/schemas/Limit" }, true, 20],
    ["a default in the schema", { type: "integer", default: 0 }, true, 0],
    ["a null default", { type: ["integer", "null"], default: null }, true, null],
    ["no default", { $ref: "#/components/schemas/Pet" }, false, undefined],
    ["no schema", undefined, false, undefined],
  ])("hasDefault: %s", (_, schema, hasDefault, value) => {
    const model = buildModel(docWith({ name: "x", params: [{ name: "limit", ...(schema === undefined ? {} : { schema }) }], result }));
    expect(model.methods[0]!.params[0]).toMatchObject({ hasDefault, default: value });
  });

  it("a method without result is a notification", () => {
    const model = buildModel(docWith({ name: "ping", params: [] }));
    expect(model.methods[0]).toMatchObject({ notification: true, result: undefined });
    expect(buildModel(docWith({ name: "ping", params: [], result })).methods[0]!.notification).toBe(false);
  });

  describe("x-unwrap-single-item-results", () => {
    const one = { name: "r", schema: { type: "array", items: { $ref: "#/components/schemas/Pet" }, minItems: 1, maxItems: 1 } };

    it.each([
      ["true: a one-item result array is unwrapped to its item", true, true],
      ["false: left alone", false, false],
      ["absent: left alone", undefined, false],
    ])("%s", (_, value, wrapped) => {
      const model = buildModel(docWith({ name: "x", params: [], result: one }, value === undefined ? {} : { "x-unwrap-single-item-results": value }));
      expect(model.unwrapSingleItemResults).toBe(value === true);
      expect(model.methods[0]!.result).toMatchObject({ wrapped, payload: wrapped ? { $ref: "#/components/schemas/Pet" } : one.schema });
    });

    it("only a one-item array is unwrapped", () => {
      const model = buildModel(docWith({ name: "x", params: [], result: { name: "r", schema: { type: "array", items: { type: "string" }, maxItems: 2 } } }, { "x-unwrap-single-item-results": true }));
      expect(model.methods[0]!.result!.wrapped).toBe(false);
    });

    it.each([["yes"], [1], [null], [{}]])("%j is refused with a clear error", (value) => {
      expect(() => buildModel(docWith({ name: "x", params: [], result: one }, { "x-unwrap-single-item-results": value }))).toThrow(
        new RegExp(`^x-unwrap-single-item-results is ${JSON.stringify(JSON.stringify(value)).slice(1, -1).replace(/[{}]/g, "\\$&")}; use true or false$`),
      );
    });

    it("throws a DocumentError", () => {
      const { DocumentError } = createRequire(import.meta.url)("./errors.cjs") as { DocumentError: new () => Error };
      expect(() => buildModel(docWith({ name: "x", params: [], result: one }, { "x-unwrap-single-item-results": "yes" }))).toThrow(DocumentError);
    });
  });
});
