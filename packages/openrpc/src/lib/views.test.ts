// What the client and server templates print (views.cjs): imports, how params go on the wire, the
// signatures of each kind of method (call, notification, stream) and their doc comments.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
interface ClientMethod {
  kind: string;
  key: string;
  paramArg: string;
  memberParam: string;
  optionsType: string;
  call: string;
  wire: string;
  returns: string;
  doc: string;
}
const { buildModel } = require("./model.cjs") as { buildModel: (doc: unknown) => unknown };
const { clientView, handlersView } = require("./views.cjs") as {
  clientView: (model: unknown) => { methods: ClientMethod[]; valueImports: string[]; typeImports: string[] };
  handlersView: (model: unknown) => { methods: { key: string; signature: string; doc: string }[]; typeImports: string[]; streams: boolean };
};

const param = (name: string, required = false) => ({ name, required, schema: { type: "string" } });
const result = { name: "r", schema: { type: "string" } };
const model = (methods: unknown[]) => buildModel({ openrpc: "1.3.2", info: { title: "t", version: "1" }, methods });

describe("clientView", () => {
  it("sends by-position and either params as an array, by-name ones as an object, no params as [] or {}", () => {
    const view = clientView(
      model([
        { name: "a_pos", paramStructure: "by-position", params: [param("x", true), param("y")], result },
        { name: "b_either", params: [param("x")], result },
        { name: "c_named", paramStructure: "by-name", params: [param("x", true)], result },
        { name: "d_none", params: [], result },
        { name: "e_named_none", paramStructure: "by-name", params: [], result },
      ]),
    );
    expect(view.methods.map((m) => m.wire)).toEqual(['positionalParams(params, ["x", "y"])', 'positionalParams(params, ["x"])', 'namedParams(params, ["x"])', "[]", "{}"]);
    expect(view.methods.map((m) => m.paramArg)).toEqual(["params: T.APosParams", "params: T.BEitherParams = {}", "params: T.CNamedParams", "", ""]);
    expect(view.methods.map((m) => m.memberParam)).toEqual(["params: T.APosParams", "params?: T.BEitherParams", "params: T.CNamedParams", "", ""]);
    expect(view.valueImports).toEqual(["createRpcClient", "positionalParams", "namedParams"]);
  });

  it("imports only what the module uses", () => {
    const view = clientView(model([{ name: "only", params: [], result }]));
    expect(view.valueImports).toEqual(["createRpcClient"]);
    expect(view.typeImports).toEqual(["CallOptions", "RpcClient", "RpcClientOptions", "RpcRequest"]);
    expect(clientView(model([])).typeImports).toEqual(["RpcClient", "RpcClientOptions"]);
  });

  it("answers each kind of method its own way: a result, nothing (notify), or an event stream", () => {
    const view = clientView(
      model([
        { name: "get", params: [], result },
        { name: "log", params: [param("line", true)] },
        { name: "watch", params: [], result: { name: "none", schema: { type: "null" } }, "x-subscription": { notifications: [{ name: "tick" }] } },
      ]),
    );
    expect(view.methods.map((m) => [m.kind, m.call, m.optionsType, m.returns])).toEqual([
      ["call", "client.request", "CallOptions", "Promise<T.GetResult>"],
      ["notification", "client.notify", "CallOptions", "Promise<void>"],
      ["stream", "client.stream<T.WatchNotification>", "StreamOptions", "AsyncIterable<StreamEvent<T.WatchNotification>>"],
    ]);
    expect(view.methods[1]!.doc).toContain("A notification: sent without an id");
    expect(view.methods[2]!.doc).toContain("Answered as an event stream");
    expect(view.typeImports).toEqual(["CallOptions", "RpcClient", "RpcClientOptions", "RpcRequest", "StreamEvent", "StreamOptions"]);
  });

  it("leaves node-to-node methods out, and says which need a token only when the document uses x-requires-auth", () => {
    const withAuth = clientView(
      model([
        { name: "p_open", params: [], result },
        { name: "p_mine", params: [], result, "x-requires-auth": true },
        { name: "p_peer", params: [], result, "x-requires-auth": "node" },
      ]),
    );
    expect(withAuth.methods.map((m) => m.key)).toEqual(["pOpen", "pMine"]);
    expect(withAuth.methods.map((m) => m.doc)).toEqual(["Needs no token.", "Needs a bearer token (`auth` option)."]);
    expect(clientView(model([{ name: "plain", params: [], result, deprecated: true }])).methods[0]!.doc).toBe("@deprecated");
  });
});

describe("handlersView", () => {
  it("types each handler by its kind and auth, keyed by the method name (quoted when it is not an identifier)", () => {
    const view = handlersView(
      model([
        { name: "pets.get", params: [], result, "x-requires-auth": true },
        { name: "log", params: [param("line", true)] },
        { name: "watch", params: [], result: { name: "none", schema: { type: "null" } }, "x-subscription": { notifications: [{ name: "tick" }] } },
      ]),
    );
    expect(view.methods.map((h) => [h.key, h.signature])).toEqual([
      ['"pets.get"', "(args: T.PetsGetArgs, context: Authenticated<Ctx>): Reply<T.PetsGetResult>"],
      ["log", "(args: T.LogArgs, context: Ctx): Reply<T.LogResult>"],
      ["watch", "(args: T.WatchArgs, context: StreamContext<Ctx>): EventStream<T.WatchNotification> | Promise<EventStream<T.WatchNotification>>"],
    ]);
    expect(view.methods.map((h) => h.doc)).toEqual(["Called only with an authenticated context.", "A notification: whatever it returns is not sent.", ""]);
    expect(view.typeImports).toEqual(["Authenticated", "RequestContext", "EventStream", "StreamContext", "Reply"]);
    expect(view.streams).toBe(true);
  });

  it("imports neither Authenticated nor the stream types when nothing needs them", () => {
    expect(handlersView(model([{ name: "get", params: [], result }])).typeImports).toEqual(["RequestContext", "Reply"]);
  });
});
