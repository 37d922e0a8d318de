// The identifier rules of names.cjs: how an OpenRPC name (snake_case, camelCase, dotted, kebab,
// with digits or symbols) becomes a legal, deterministic TypeScript name, and how a namespace hands
// out collision-free ones.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const names = require("./names.cjs") as {
  words(name: string): string[];
  camelCase(name: string): string;
  pascalCase(name: string): string;
  identifier(candidate: string, fallback: string): string;
  typeName(candidate: string, fallback?: string): string;
  createNamespace(taken?: string[]): {
    has(name: string): boolean;
    take(base: string, derive?: (name: string) => string[], what?: string): string;
    renamed(): { what: string; wanted: string; name: string; takenBy: string | undefined }[];
  };
  sharedPrefix(methodNames: string[]): string | undefined;
  RESERVED_WORDS: Set<string>;
  RESERVED_TYPE_NAMES: Set<string>;
};

describe("words", () => {
  it.each([
    ["get_pet_by_id", ["get", "pet", "by", "id"]],
    ["eth_signTypedData_v4", ["eth", "sign", "Typed", "Data", "v4"]],
    ["HTTPServer", ["HTTP", "Server"]],
    ["rpc.discover", ["rpc", "discover"]],
    ["get-pet", ["get", "pet"]],
    ["  spaced  out ", ["spaced", "out"]],
    ["$ref", ["ref"]],
    ["2fa_code", ["2fa", "code"]],
    ["", []],
    ["***", []],
  ] as const)("%s → %j", (name, want) => expect(names.words(name)).toEqual(want));
});

describe("camelCase", () => {
  it.each([
    ["get_pet_by_id", "getPetById"],
    ["create_pet", "createPet"],
    ["getPet", "getPet"],
    ["GetPet", "getPet"],
    ["eth_getBalance", "ethGetBalance"],
    ["eth_signTypedData_v4", "ethSignTypedDataV4"],
    ["rpc.discover", "rpcDiscover"],
    ["get-pet-by-id", "getPetById"],
    ["get pet", "getPet"],
    ["HTTPServer_start", "httpServerStart"],
    ["URL", "url"],
    ["getURL", "getURL"],
    ["ID", "id"],
    ["2fa_verify", "2faVerify"],
    ["wallet_scanQRCode", "walletScanQRCode"],
    ["$$", ""],
  ])("%s → %s", (name, want) => expect(names.camelCase(name)).toBe(want));
});

describe("pascalCase", () => {
  it.each([
    ["address", "Address"],
    ["Address", "Address"],
    ["pet_record", "PetRecord"],
    ["my pet", "MyPet"],
    ["a/b~c", "ABC"],
    ["bytes32", "Bytes32"],
    ["HTTPServer", "HTTPServer"],
    // Words in capitals stay apart: BLOCK_ID is not BLOCKID (a readable name, and another than BLOCKID's).
    ["BLOCK_ID", "BLOCK_ID"],
    ["BLOCK-ID", "BLOCK_ID"],
    ["HTTP2_SERVER_V4", "HTTP2_SERVER_V4"],
    ["BLOCKID", "BLOCKID"],
    ["block_id", "BlockId"],
    ["getHTTP_status", "GetHTTPStatus"],
    ["ETH_getBlock", "ETHGetBlock"],
    ["V1_0", "V10"],
    ["2fa", "2fa"],
    ["€", ""],
  ])("%s → %s", (name, want) => expect(names.pascalCase(name)).toBe(want));
});

describe("identifier", () => {
  it.each([
    ["getPet", "getPet"],
    ["delete", "delete_"],
    ["new", "new_"],
    ["class", "class_"],
    ["await", "await_"],
    ["arguments", "arguments_"],
    ["undefined", "undefined_"],
    ["2faVerify", "_2faVerify"],
    ["", "method"],
  ])("%s → %s", (candidate, want) => expect(names.identifier(candidate, "method")).toBe(want));

  it("leaves words that are only contextual keywords in TypeScript (type, of, as) alone", () => {
    expect(["type", "of", "as", "get", "set"].map((w) => names.identifier(w, "x"))).toEqual(["type", "of", "as", "get", "set"]);
  });
});

describe("typeName", () => {
  it.each([
    ["Pet", "Pet"],
    ["2faCode", "T2faCode"],
    ["1", "T1"],
    ["", "Schema"],
  ])("%s → %s", (candidate, want) => expect(names.typeName(candidate, "Schema")).toBe(want));
});

describe("createNamespace", () => {
  it("hands out the base, then base2, base3, … in the order asked", () => {
    const ns = names.createNamespace();
    expect(["getPet", "getPet", "getPet", "other"].map((n) => ns.take(n))).toEqual(["getPet", "getPet2", "getPet3", "other"]);
  });

  it("never hands out a name taken up front", () => {
    const ns = names.createNamespace(["Array", "Record"]);
    expect(ns.take("Array")).toBe("Array2");
    expect(ns.has("Record")).toBe(true);
  });

  it("takes every derived name together: a candidate whose derived names collide is skipped", () => {
    const ns = names.createNamespace();
    const both = (n: string) => [n, `${n}Request`];
    expect(ns.take("getPet", both)).toBe("getPet");
    expect(ns.take("getPetRequest", both)).toBe("getPetRequest2");
    expect(ns.has("getPetRequest2Request")).toBe(true);
    // `getPet2`'s names are still free.
    expect(ns.take("getPet", both)).toBe("getPet2");
  });

  it("skips a suffix whose name already exists (base2 taken up front)", () => {
    const ns = names.createNamespace(["Pet", "Pet2"]);
    expect(ns.take("Pet")).toBe("Pet3");
  });

  it("records each name handed out with a suffix: what it is for, the name it wanted, and what took that first", () => {
    const ns = names.createNamespace(["Array"]);
    const both = (n: string) => [n, `${n}Request`];
    ns.take("Pet", undefined, 'schema "pet"');
    ns.take("Pet", undefined, 'schema "Pet"');
    ns.take("Array", undefined, 'schema "array"');
    ns.take("Owner", undefined, 'schema "owner"');
    ns.take("getPet", both, 'method "get_pet"');
    ns.take("getPetRequest", both, 'method "getPetRequest"');
    expect(ns.renamed()).toEqual([
      { what: 'schema "Pet"', wanted: "Pet", name: "Pet2", takenBy: 'schema "pet"' },
      { what: 'schema "array"', wanted: "Array", name: "Array2", takenBy: undefined },
      { what: 'method "getPetRequest"', wanted: "getPetRequest", name: "getPetRequest2", takenBy: 'method "get_pet"' },
    ]);
  });
});

describe("sharedPrefix", () => {
  it.each([
    [["neutralService_getInbox", "neutralService_send"], "neutralService"],
    [["eth_getBalance", "eth_call"], "eth"],
    [["eth_getBalance", "net_version"], undefined],
    [["eth_getBalance", "rpc.discover"], undefined],
    [["neutralService_getInbox"], undefined],
    [["create_pet", "list_pets"], undefined],
    // Plain snake_case throughout: the shared word is a verb, not a namespace.
    [["get_pet", "get_owner"], undefined],
    [["get_pet", "get_pet_request"], undefined],
    [["Pets_create", "Pets_list"], "Pets"],
    [["getPet", "getOwner"], undefined],
    [["svc_1st", "svc_get"], undefined],
    [[], undefined],
  ] as const)("%j → %s", (methodNames, want) => expect(names.sharedPrefix([...methodNames])).toBe(want));
});

describe("reserved names", () => {
  it("lists every JavaScript reserved word a function or binding cannot be named", () => {
    for (const word of ["break", "delete", "function", "enum", "let", "yield", "await", "implements", "interface", "static"]) expect(names.RESERVED_WORDS.has(word)).toBe(true);
  });

  it("lists the global and generated type names a schema must not shadow", () => {
    for (const name of ["Array", "Record", "Error", "Promise", "Partial", "Handlers", "MethodName", "ErrorName", "ExamplePairing", "T"]) expect(names.RESERVED_TYPE_NAMES.has(name)).toBe(true);
  });
});
