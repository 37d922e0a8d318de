// A normalized view of an OpenRPC document, as written ($refs kept), that every component renders
// from: the names each method, param, schema and notification gets in the generated code, and the
// document's extensions read and checked.
"use strict";

const { DocumentError } = require("./errors.cjs");

const { camelCase, pascalCase, identifier, typeName, createNamespace, sharedPrefix, RESERVED_TYPE_NAMES } = require("./names.cjs");
const { follow, resolvePointer, componentSchemaKey, inlineRefs } = require("./refs.cjs");

/**
 * Names the generated client declares, imports or binds itself; a method's function never takes one of
 * them: the runtime's imports, `methodNames`, the `rpc` member of the client object (and the
 * `rpc`/`params`/`options` bindings its methods call through), and `errors`, which the client's
 * index exports beside the functions.
 */
const CLIENT_MODULE_NAMES = ["createRpcClient", "positionalParams", "namedParams", "methodNames", "rpc", "params", "options", "errors", "CallOptions", "RpcClient", "RpcClientOptions", "RpcRequest", "StreamEvent", "StreamOptions", "T"];

/**
 * Root extension `x-unwrap-single-item-results: true`: a method whose result schema is an array of
 * exactly one item (`minItems` = `maxItems` = 1, one `items` schema) carries one payload in that
 * array. Clients unwrap it and stubs wrap it, so both sides deal in the payload.
 */
function unwrapsSingleItemResults(doc) {
  const value = doc["x-unwrap-single-item-results"];
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  throw new DocumentError(`x-unwrap-single-item-results is ${JSON.stringify(value)}; use true or false`);
}

/** The payload of a one-item result array (see `unwrapsSingleItemResults`), or undefined. */
function payloadOf(schema, doc) {
  const resolved = follow(doc, schema);
  if (resolved && resolved.type === "array" && resolved.minItems === 1 && resolved.maxItems === 1 && resolved.items && !Array.isArray(resolved.items)) {
    return resolved.items;
  }
  return undefined;
}

/**
 * How a method is authenticated, from its `x-requires-auth` extension: `true` a bearer token,
 * `"node"` a peer node's signature (node-to-node methods, which the generated client leaves out),
 * absent or `false` nothing.
 */
function authOf(method) {
  const value = method["x-requires-auth"];
  if (value === undefined || value === false) return "none";
  if (value === true) return "bearer";
  if (value === "node") return "node";
  throw new DocumentError(`${method.name}: x-requires-auth is ${JSON.stringify(value)}; use true, false or "node"`);
}

/** A content descriptor (param, result, notification param) with its `$ref` followed. */
function contentDescriptor(doc, value, where) {
  const cd = follow(doc, value);
  if (!cd || typeof cd !== "object" || typeof cd.name !== "string") throw new DocumentError(`${where}: not a content descriptor (needs a \`name\`)`);
  const schema = cd.schema === undefined ? {} : cd.schema;
  // A default sits beside the `$ref` or on the component it refers to (`{"$ref": "#/components/schemas/Limit"}`).
  const ownDefault = schema !== null && typeof schema === "object" && Object.prototype.hasOwnProperty.call(schema, "default");
  const withDefault = ownDefault ? schema : follow(doc, schema);
  return {
    name: cd.name,
    summary: cd.summary || "",
    description: cd.description || "",
    required: cd.required === true,
    deprecated: cd.deprecated === true,
    hasDefault: withDefault !== null && typeof withDefault === "object" && Object.prototype.hasOwnProperty.call(withDefault, "default"),
    default: withDefault && withDefault.default,
    schema,
  };
}

/** A method's (or notification's) params, each named once: they become the members of one object type. */
function paramsOf(doc, params, where) {
  const seen = new Set();
  return (params || []).map((p, i) => {
    const cd = contentDescriptor(doc, p, `${where}: params[${i}]`);
    if (seen.has(cd.name)) throw new DocumentError(`${where}: the param ${cd.name} is listed twice`);
    seen.add(cd.name);
    return cd;
  });
}

/**
 * A method answered as an event stream, from its `x-subscription` extension:
 * `{description?, notifications: [{name, summary?, eventId?, params: [ContentDescriptor]}]}`. Each
 * notification is a JSON-RPC notification (`method`, by-name `params`); `eventId` is a JSON pointer
 * into its params naming the SSE event id (the resume cursor), e.g. "/message/id". `typeBase` is
 * filled in by `buildModel` (collision-free); read alone, it is the notification's own name.
 */
function subscriptionOf(method, doc = {}, prefix) {
  const extension = method["x-subscription"];
  if (extension === undefined) return undefined;
  const fail = (what) => {
    throw new DocumentError(`${method.name}: x-subscription ${what}`);
  };
  if (typeof extension !== "object" || extension === null || !Array.isArray(extension.notifications) || extension.notifications.length === 0) {
    fail("must be an object with a non-empty `notifications` array");
  }
  const names = new Set();
  const notifications = extension.notifications.map((n, i) => {
    if (typeof n !== "object" || n === null || typeof n.name !== "string" || n.name === "") fail(`notifications[${i}] needs a \`name\``);
    if (names.has(n.name)) fail(`names the notification ${n.name} twice`);
    names.add(n.name);
    if (n.eventId !== undefined && (typeof n.eventId !== "string" || !n.eventId.startsWith("/"))) fail(`${n.name}: eventId must be a JSON pointer ("/member/...")`);
    const params = paramsOf(doc, n.params, `${method.name}: x-subscription ${n.name}`).map((p) => ({ ...p, hasDefault: false }));
    const local = prefix && n.name.startsWith(`${prefix}_`) ? n.name.slice(prefix.length + 1) : n.name.split(/[._]/).pop();
    return { name: n.name, summary: n.summary || "", description: n.description || "", eventId: n.eventId, params, typeBase: typeName(`${pascalCase(local) || "Event"}Notification`) };
  });
  return { description: extension.description || "", notifications };
}

/**
 * `[{name, value}]` example pairings with every `$ref` (pairing, param example, result example)
 * followed. OpenRPC pairs example params with the method's params by position; when every one is
 * named after a param (a common convention, which allows gaps), by name. Each gets its param's name.
 */
function examplesOf(doc, method) {
  const names = (method.params || []).map((param) => follow(doc, param).name);
  return (method.examples || []).map((pairing) => {
    const p = follow(doc, pairing);
    const params = (p.params || []).map((param) => follow(doc, param));
    const byName = params.every((param) => names.includes(param.name));
    return {
      ...p,
      params: byName ? params : params.map((param, i) => (i < names.length ? { ...param, name: names[i] } : param)),
      ...(p.result !== undefined && { result: follow(doc, p.result) }),
    };
  });
}

/**
 * @param doc the OpenRPC document as written (parsed JSON, not dereferenced)
 */
function buildModel(doc) {
  const unwrap = unwrapsSingleItemResults(doc);
  const componentSchemas = (doc.components && doc.components.schemas) || {};

  const className = typeName(pascalCase(doc.info && doc.info.title), "Service");
  // Type names: component schemas first (by key, in document order), so a new method never renames one.
  const types = createNamespace([...RESERVED_TYPE_NAMES, `${className}Client`]);
  const schemaTypeNames = new Map();
  const schemas = Object.entries(componentSchemas).map(([key, schema]) => {
    const name = types.take(typeName(pascalCase(key), "Schema"));
    schemaTypeNames.set(key, name);
    return { name: key, typeName: name, schema };
  });

  const rawMethods = (doc.methods || []).map((m) => follow(doc, m));
  const prefix = sharedPrefix(rawMethods.map((m) => m.name));
  const functions = createNamespace([...CLIENT_MODULE_NAMES, `create${className}Client`]);
  const methodNames = new Set();

  const methods = rawMethods.map((method) => {
    if (methodNames.has(method.name)) throw new DocumentError(`the method ${method.name} is listed twice`);
    methodNames.add(method.name);
    const local = prefix ? method.name.slice(prefix.length + 1) : method.name;
    const fn = functions.take(identifier(camelCase(local), "method"), (name) => [name, `${name}Request`]);
    const subscription = subscriptionOf(method, doc, prefix);
    const notificationTypes = subscription ? subscription.notifications.map((n) => n.typeBase) : [];
    // From the method's name, not `fn`: a function suffixed to stay clear of another (`getPet2`) would
    // otherwise give `GetPet22` when `GetPet2` is taken.
    const typeBase = types.take(typeName(pascalCase(camelCase(local)), "Method"), (base) => [`${base}Params`, `${base}Args`, `${base}Result`, ...(subscription ? [`${base}Notification`] : [])]);
    if (subscription) {
      for (const n of subscription.notifications) n.typeBase = types.take(n.typeBase);
    }
    const result = method.result === undefined ? undefined : contentDescriptor(doc, method.result, `${method.name}: result`);
    const payload = result && unwrap ? payloadOf(result.schema, doc) : undefined;
    const auth = authOf(method);
    return {
      name: method.name,
      short: fn,
      fn,
      typeBase,
      summary: method.summary || "",
      description: method.description || "",
      auth,
      requiresAuth: auth !== "none",
      nodeToNode: auth === "node",
      deprecated: method.deprecated === true,
      paramStructure: method.paramStructure || "either",
      params: paramsOf(doc, method.params, method.name),
      result: result && { ...result, wrapped: payload !== undefined, payload: payload || result.schema },
      /** A method without a `result` is a notification: the client sends it without an id and gets no answer. */
      notification: result === undefined,
      subscription,
      notificationTypes,
      errors: (method.errors || []).map((e) => follow(doc, e)),
      examples: examplesOf(doc, method),
      tags: (method.tags || []).map((t) => follow(doc, t).name),
    };
  });

  return {
    /** Some method declares `x-requires-auth`: method docs then say which need no token. */
    usesAuth: rawMethods.some((m) => m["x-requires-auth"] !== undefined),
    title: (doc.info && doc.info.title) || "",
    version: (doc.info && doc.info.version) || "",
    description: (doc.info && doc.info.description) || "",
    className,
    prefix,
    unwrapSingleItemResults: unwrap,
    schemas,
    /** Component key → generated type name. */
    schemaTypeNames,
    /** Component key by the title the docs document gives each component schema (its key; see `docsDocument`). */
    schemaNames: new Map(schemas.map((s) => [s.name, s.name])),
    /** What the TypeScript emitter needs to turn a `$ref` into a type: see typescript.cjs. */
    types: {
      typeNameOf: (ref) => {
        const key = componentSchemaKey(ref);
        return key === undefined ? undefined : schemaTypeNames.get(key);
      },
      /** The value at `ref`, one step: a `$ref` found there is left to the emitter, which names it if it is a component. */
      resolve: (ref) => resolvePointer(doc, ref),
    },
    methods,
    errors: Object.entries((doc.components && doc.components.errors) || {}).map(([key, e]) => ({ key, ...follow(doc, e) })),
  };
}

/**
 * The document for the docs page: every `$ref` inlined (a recursive one left as a titled stub), each
 * component schema carrying its key as `title`, so the page links a schema to its component by title.
 */
function docsDocument(doc) {
  const components = (doc.components && doc.components.schemas) || {};
  const titled = { ...doc, components: { ...doc.components, schemas: Object.fromEntries(Object.entries(components).map(([k, s]) => [k, s && typeof s === "object" ? { ...s, title: k } : s])) } };
  return inlineRefs(titled, titled);
}

module.exports = { buildModel, docsDocument, payloadOf, authOf, subscriptionOf, unwrapsSingleItemResults };
