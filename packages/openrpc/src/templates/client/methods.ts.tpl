// <%= header %>
//
// One typed function per method of <%= model.title %> that a client calls (node-to-node methods,
// `"x-requires-auth": "node"`, are left out). Each `xRequest` builds a request descriptor (for
// `batch`); each `x` sends it through an `RpcClient`.
<% var view = views.clientView(model); %>import { <%= view.valueImports.join(", ") %> } from <%= json(target.runtime) %>;
import type { <%= view.typeImports.join(", ") %> } from <%= json(target.runtime) %>;
import type * as T from "./types.js";
<% view.methods.forEach(function (c) { var m = c.method; %>
/** Request descriptor for `<%= m.name %>`. */
export function <%= m.fn %>Request(<%= c.paramArg %>): RpcRequest<T.<%= m.typeBase %>Result> {
  return {
    method: <%= json(m.name) %>,
    params: <%= c.wire %>,
    unwrap: <%= m.result && m.result.wrapped ? "true" : "false" %>,
  };
}

<%= ts.docComment(c.doc) %>export function <%= m.fn %>(client: RpcClient, <%= c.hasParams ? c.paramArg + ", " : "" %>options?: <%= c.optionsType %>): <%= c.returns %> {
  return <%= c.call %>(<%= m.fn %>Request(<%= c.hasParams ? "params" : "" %>), options);
}
<% }); %>
/** A client bound to one node: every method of <%= model.title %>, plus the underlying `rpc` for batches. */
export interface <%= className %>Client {
  readonly rpc: RpcClient;
<% view.methods.forEach(function (c) { %><%= ts.docComment(c.method.summary, "  ") %>  <%= c.key %>(<%= c.hasParams ? c.memberParam + ", " : "" %>options?: <%= c.optionsType %>): <%= c.returns %>;
<% }); %>}

export function create<%= className %>Client(options: RpcClientOptions | RpcClient): <%= className %>Client {
  const rpc = "request" in options ? options : createRpcClient(options);
  return {
    rpc,
<% view.methods.forEach(function (c) { %>    <%= c.key %>: (<%= c.hasParams ? "params, " : "" %>options) => <%= c.method.fn %>(rpc, <%= c.hasParams ? "params, " : "" %>options),
<% }); %>  };
}

/** Every method name a client calls, in spec order. */
export const methodNames = <%= list(view.methods.map(function (c) { return c.method.name; })) %> as const;
