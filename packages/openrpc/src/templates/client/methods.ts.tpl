// <%= header %>
//
// One typed function per method of <%= model.title %> that a client calls (node-to-node methods,
// `"x-requires-auth": "node"`, are left out). Each `xRequest` builds a request descriptor (for
// `batch`); each `x` sends it through an `RpcClient`.
<% var clientMethods = model.methods.filter(function (m) { return !m.nodeToNode; });
   var usesStreams = clientMethods.some(function (m) { return m.subscription; });
   var usesPositional = clientMethods.some(function (m) { return m.params.length > 0 && m.paramStructure !== "by-name"; });
   var usesNamed = clientMethods.some(function (m) { return m.params.length > 0 && m.paramStructure === "by-name"; });
   var values = ["createRpcClient"].concat(usesPositional ? ["positionalParams"] : [], usesNamed ? ["namedParams"] : []);
   var usesCalls = clientMethods.some(function (m) { return !m.subscription; });
   var typesUsed = (usesCalls ? ["CallOptions"] : []).concat(["RpcClient", "RpcClientOptions"], clientMethods.length ? ["RpcRequest"] : [], usesStreams ? ["StreamEvent", "StreamOptions"] : []);
%>import { <%= values.join(", ") %> } from <%= json(target.runtime) %>;
import type { <%= typesUsed.join(", ") %> } from <%= json(target.runtime) %>;
import type * as T from "./types.js";
<% clientMethods.forEach(function (m) {
  var P = "T." + m.typeBase + "Params", R = "T." + m.typeBase + "Result";
  var hasParams = m.params.length > 0;
  var optional = m.params.every(function (p) { return !p.required; });
  var paramArg = hasParams ? "params: " + P + (optional ? " = {}" : "") : "";
  var names = list(m.params.map(function (p) { return p.name; }));
  var wire = !hasParams ? (m.paramStructure === "by-name" ? "{}" : "[]") : m.paramStructure === "by-name" ? "namedParams(params, " + names + ")" : "positionalParams(params, " + names + ")";
  var doc = [m.summary, m.description, m.requiresAuth ? "Needs a bearer token (`auth` option)." : model.usesAuth ? "Needs no token." : "", m.notification ? "A notification: sent without an id, nothing is answered." : "", m.deprecated ? "@deprecated" : ""].filter(Boolean).join("\n\n");
%>
/** Request descriptor for `<%= m.name %>`. */
export function <%= m.fn %>Request(<%= paramArg %>): RpcRequest<<%= R %>> {
  return {
    method: <%= json(m.name) %>,
    params: <%= wire %>,
    unwrap: <%= m.result && m.result.wrapped ? "true" : "false" %>,
  };
}

<% if (m.subscription) { var N = "T." + m.typeBase + "Notification"; %><%= ts.docComment(doc + "\n\nAnswered as an event stream (`x-subscription`): iterate it; `break` or `options.signal` closes it.") %>export function <%= m.fn %>(client: RpcClient, <%= hasParams ? paramArg + ", " : "" %>options?: StreamOptions): AsyncIterable<StreamEvent<<%= N %>>> {
  return client.stream<<%= N %>>(<%= m.fn %>Request(<%= hasParams ? "params" : "" %>), options);
}<% } else if (m.notification) { %><%= ts.docComment(doc) %>export function <%= m.fn %>(client: RpcClient, <%= hasParams ? paramArg + ", " : "" %>options?: CallOptions): Promise<void> {
  return client.notify(<%= m.fn %>Request(<%= hasParams ? "params" : "" %>), options);
}<% } else { %><%= ts.docComment(doc) %>export function <%= m.fn %>(client: RpcClient, <%= hasParams ? paramArg + ", " : "" %>options?: CallOptions): Promise<<%= R %>> {
  return client.request(<%= m.fn %>Request(<%= hasParams ? "params" : "" %>), options);
}<% } %>
<% }); %>
/** A client bound to one node: every method of <%= model.title %>, plus the underlying `rpc` for batches. */
export interface <%= className %>Client {
  readonly rpc: RpcClient;
<% clientMethods.forEach(function (m) {
  var hasParams = m.params.length > 0;
  var optional = m.params.every(function (p) { return !p.required; });
  var returns = m.subscription ? "options?: StreamOptions): AsyncIterable<StreamEvent<T." + m.typeBase + "Notification>>" : m.notification ? "options?: CallOptions): Promise<void>" : "options?: CallOptions): Promise<T." + m.typeBase + "Result>";
%><%= ts.docComment(m.summary, "  ") %>  <%= ts.propertyKey(m.fn) %>(<%= hasParams ? "params" + (optional ? "?" : "") + ": T." + m.typeBase + "Params, " : "" %><%= returns %>;
<% }); %>}

export function create<%= className %>Client(options: RpcClientOptions | RpcClient): <%= className %>Client {
  const rpc = "request" in options ? options : createRpcClient(options);
  return {
    rpc,
<% clientMethods.forEach(function (m) {
  var hasParams = m.params.length > 0;
%>    <%= ts.propertyKey(m.fn) %>: (<%= hasParams ? "params, " : "" %>options) => <%= m.fn %>(rpc, <%= hasParams ? "params, " : "" %>options),
<% }); %>  };
}

/** Every method name a client calls, in spec order. */
export const methodNames = <%= list(clientMethods.map(function (m) { return m.name; })) %> as const;
