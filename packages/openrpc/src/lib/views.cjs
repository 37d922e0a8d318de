// @ts-check
// What the client and server templates print, decided here (tested in views.test.ts) rather than in
// the lodash templates: which runtime names a file imports, how a method's params go on the wire,
// its signatures and its doc comment.
"use strict";

const { propertyKey } = require("./typescript.cjs");

/**
 * @typedef {import("./model.cjs").Model} Model
 * @typedef {import("./model.cjs").MethodModel} MethodModel
 * @typedef {"stream" | "notification" | "call"} MethodKind
 */

/**
 * One client method, as the client's templates print it.
 * @typedef {object} ClientMethodView
 * @property {MethodModel} method
 * @property {MethodKind} kind
 * @property {string} key its member key in the bound client
 * @property {boolean} hasParams
 * @property {string} paramArg the function's params parameter (`params: T.XParams = {}`), or "" for a method without params
 * @property {string} memberParam the same in the bound client's interface (`params?: T.XParams`)
 * @property {"StreamOptions" | "CallOptions"} optionsType
 * @property {string} call the runtime call that sends the request
 * @property {string} wire the expression that puts params on the wire
 * @property {string} returns the function's return type
 * @property {string} doc its doc comment's text
 */

/** @param {string[]} items */
const list = (items) => `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;

/**
 * How a method is answered: an event stream, nothing (a notification), or one result.
 * @param {Pick<MethodModel, "subscription" | "notification">} m
 * @returns {MethodKind}
 */
const kindOf = (m) => (m.subscription ? "stream" : m.notification ? "notification" : "call");

/**
 * One client method: its function's parameter, the expression that puts params on the wire, what it returns, its doc.
 * @param {MethodModel} m
 * @param {Pick<Model, "usesAuth">} model
 * @returns {ClientMethodView}
 */
function clientMethod(m, model) {
  const hasParams = m.params.length > 0;
  const optional = m.params.every((p) => !p.required);
  const kind = kindOf(m);
  const names = list(m.params.map((p) => p.name));
  // By-name methods send an object (`{}` when they take no params): a by-name server refuses an array.
  const wire = !hasParams ? (m.paramStructure === "by-name" ? "{}" : "[]") : m.paramStructure === "by-name" ? `namedParams(params, ${names})` : `positionalParams(params, ${names})`;
  const doc = [
    m.summary,
    m.description,
    m.requiresAuth ? "Needs a bearer token (`auth` option)." : model.usesAuth ? "Needs no token." : "",
    kind === "notification" ? "A notification: sent without an id, nothing is answered." : "",
    m.deprecated ? "@deprecated" : "",
    kind === "stream" ? "Answered as an event stream (`x-subscription`): iterate it; `break` or `options.signal` closes it." : "",
  ]
    .filter(Boolean)
    .join("\n\n");
  const returns =
    kind === "stream"
      ? `AsyncIterable<StreamEvent<T.${m.typeBase}Notification>>`
      : kind === "notification"
        ? "Promise<void>"
        : `Promise<T.${m.typeBase}Result>`;
  return {
    method: m,
    kind,
    key: propertyKey(m.fn),
    hasParams,
    /** The function's params parameter (`params: T.XParams = {}`), or "" for a method without params. */
    paramArg: hasParams ? `params: T.${m.typeBase}Params${optional ? " = {}" : ""}` : "",
    /** The same in the bound client's interface (`params?: T.XParams`). */
    memberParam: hasParams ? `params${optional ? "?" : ""}: T.${m.typeBase}Params` : "",
    optionsType: kind === "stream" ? "StreamOptions" : "CallOptions",
    call: kind === "stream" ? `client.stream<T.${m.typeBase}Notification>` : kind === "notification" ? "client.notify" : "client.request",
    wire,
    returns,
    doc,
  };
}

/**
 * The client module: the methods a client calls (node-to-node ones left out) and the runtime names it imports.
 * @param {Model} model
 */
function clientView(model) {
  const methods = model.methods.filter((m) => !m.nodeToNode).map((m) => clientMethod(m, model));
  /** @param {(method: ClientMethodView) => boolean} test */
  const some = (test) => methods.some(test);
  return {
    methods,
    valueImports: ["createRpcClient", ...(some((c) => c.hasParams && c.method.paramStructure !== "by-name") ? ["positionalParams"] : []), ...(some((c) => c.hasParams && c.method.paramStructure === "by-name") ? ["namedParams"] : [])],
    typeImports: [
      ...(some((c) => c.kind !== "stream") ? ["CallOptions"] : []),
      "RpcClient",
      "RpcClientOptions",
      ...(methods.length > 0 ? ["RpcRequest"] : []),
      ...(some((c) => c.kind === "stream") ? ["StreamEvent", "StreamOptions"] : []),
    ],
  };
}

/**
 * The server stub's `Handlers`: each member's signature and doc, and the runtime types it imports.
 * @param {Model} model
 */
function handlersView(model) {
  const methods = model.methods.map((m) => {
    const ctx = m.requiresAuth ? "Authenticated<Ctx>" : "Ctx";
    const signature =
      kindOf(m) === "stream"
        ? `(args: T.${m.typeBase}Args, context: StreamContext<${ctx}>): EventStream<T.${m.typeBase}Notification> | Promise<EventStream<T.${m.typeBase}Notification>>`
        : `(args: T.${m.typeBase}Args, context: ${ctx}): Reply<T.${m.typeBase}Result>`;
    const doc = [m.summary, m.requiresAuth ? "Called only with an authenticated context." : "", m.notification ? "A notification: whatever it returns is not sent." : "", m.deprecated ? "@deprecated" : ""]
      .filter(Boolean)
      .join("\n\n");
    return { method: m, key: propertyKey(m.name), signature, doc };
  });
  const streams = model.methods.some((m) => m.subscription);
  return {
    methods,
    streams,
    typeImports: [
      ...(model.methods.some((m) => m.requiresAuth) ? ["Authenticated"] : []),
      "RequestContext",
      ...(streams ? ["EventStream", "StreamContext"] : []),
      ...(model.methods.some((m) => !m.subscription) ? ["Reply"] : []),
    ],
  };
}

module.exports = { clientView, clientMethod, handlersView, kindOf };
