// <%= header %>
//
// One typed function per method of <%= model.title %> that a client calls (node-to-node methods,
// `"x-requires-auth": "node"`, are left out). Each `xRequest` builds a request descriptor (for
// `batch`); each `x` sends it through an `RpcClient`.
import { createRpcClient, positionalParams } from "../rpc.js";
import type { CallOptions, RpcClient, RpcClientOptions, RpcRequest<%= model.methods.some(function (m) { return m.subscription && !m.nodeToNode; }) ? ", StreamEvent, StreamOptions" : "" %> } from "../rpc.js";
import type * as T from "./types.js";
<% var clientMethods = model.methods.filter(function (m) { return !m.nodeToNode; }); %><% clientMethods.forEach(function (m) {
  var P = "T." + m.typeBase + "Params", R = "T." + m.typeBase + "Result";
  var hasParams = m.params.length > 0;
  var optional = m.params.every(function (p) { return !p.required; });
  var paramArg = hasParams ? "params: " + P + (optional ? " = {}" : "") : "";
  var doc = [m.summary, m.description, m.requiresAuth ? "Needs a bearer token (`auth` option)." : "Needs no token."].filter(Boolean).join("\n\n");
%>
/** Request descriptor for `<%= m.name %>`. */
export function <%= m.short %>Request(<%= paramArg %>): RpcRequest<<%= R %>> {
  return {
    method: <%= json(m.name) %>,
    params: <%= hasParams ? "positionalParams(params, " + list(m.params.map(function (p) { return p.name; })) + ")" : "[]" %>,
    unwrap: <%= m.result && m.result.wrapped ? "true" : "false" %>,
  };
}

<% if (m.subscription) { var N = "T." + m.typeBase + "Notification"; %><%= ts.docComment(doc + "\n\nAnswered as an event stream (`x-subscription`): iterate it; `break` or `options.signal` closes it.") %>export function <%= m.short %>(client: RpcClient, <%= hasParams ? paramArg + ", " : "" %>options?: StreamOptions): AsyncIterable<StreamEvent<<%= N %>>> {
  return client.stream<<%= N %>>(<%= m.short %>Request(<%= hasParams ? "params" : "" %>), options);
}<% } else { %><%= ts.docComment(doc) %>export function <%= m.short %>(client: RpcClient, <%= hasParams ? paramArg + ", " : "" %>options?: CallOptions): Promise<<%= R %>> {
  return client.request(<%= m.short %>Request(<%= hasParams ? "params" : "" %>), options);
}<% } %>
<% }); %>
/** A client bound to one node: every method of <%= model.title %>, plus the underlying `rpc` for batches. */
export interface <%= className %>Client {
  readonly rpc: RpcClient;
<% clientMethods.forEach(function (m) {
  var hasParams = m.params.length > 0;
  var optional = m.params.every(function (p) { return !p.required; });
%><%= ts.docComment(m.summary, "  ") %>  <%= m.short %>(<%= hasParams ? "params" + (optional ? "?" : "") + ": T." + m.typeBase + "Params, " : "" %><%= m.subscription ? "options?: StreamOptions): AsyncIterable<StreamEvent<T." + m.typeBase + "Notification>>" : "options?: CallOptions): Promise<T." + m.typeBase + "Result>" %>;
<% }); %>}

export function create<%= className %>Client(options: RpcClientOptions | RpcClient): <%= className %>Client {
  const rpc = "request" in options ? options : createRpcClient(options);
  return {
    rpc,
<% clientMethods.forEach(function (m) {
  var hasParams = m.params.length > 0;
%>    <%= m.short %>: (<%= hasParams ? "params, " : "" %>options) => <%= m.short %>(rpc, <%= hasParams ? "params, " : "" %>options),
<% }); %>  };
}

/** Every method name a client calls, in spec order. */
export const methodNames = <%= list(clientMethods.map(function (m) { return m.name; })) %> as const;
