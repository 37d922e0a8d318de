// @ts-check
// A normalized view of an OpenRPC document, as written ($refs kept), that every component renders
// from: the names each method, param, schema and notification gets in the generated code, and the
// document's extensions read and checked.
"use strict";

const { DocumentError } = require("./errors.cjs");

const { camelCase, pascalCase, identifier, typeName, createNamespace, sharedPrefix, RESERVED_TYPE_NAMES } = require("./names.cjs");
const { follow, resolvePointer, componentSchemaKey, inlineRefs } = require("./refs.cjs");
const { isObject, isArray } = require("./document.cjs");

/**
 * @typedef {import("./document.cjs").OpenrpcDocument} OpenrpcDocument
 * @typedef {import("./document.cjs").MethodObject} MethodObject
 * @typedef {import("./document.cjs").ExamplePairingObject} ExamplePairingObject
 * @typedef {import("./document.cjs").ExampleObject} ExampleObject
 * @typedef {import("./document.cjs").ErrorObject} ErrorObject
 * @typedef {import("./document.cjs").Extensions} Extensions
 * @typedef {import("./document.cjs").Schema} Schema
 * @typedef {import("./typescript.cjs").Types} Types
 */

/**
 * A content descriptor (a param, a result, a notification's param) with its `$ref` followed.
 * @typedef {object} ParamModel
 * @property {string} name
 * @property {string} summary
 * @property {string} description
 * @property {boolean} required
 * @property {boolean} deprecated
 * @property {boolean} hasDefault whether its schema (or the component schema it refers to) gives a `default`
 * @property {unknown} default that default, when `hasDefault`
 * @property {Schema} schema as written (`$ref`s kept)
 */

/**
 * A method's result: its content descriptor, and the payload a one-item result array carries
 * (`x-unwrap-single-item-results`).
 * @typedef {ParamModel & { wrapped: boolean, payload: Schema }} ResultModel
 */

/**
 * One notification of an `x-subscription`: a JSON-RPC notification sent as one event of the stream.
 * @typedef {object} NotificationModel
 * @property {string} name the JSON-RPC method it is sent as
 * @property {string} summary
 * @property {string} description
 * @property {string | undefined} eventId a JSON pointer into its params naming the SSE event id
 * @property {ParamModel[]} params by name; none has a default
 * @property {string} typeBase its type's name
 */

/**
 * @typedef {object} SubscriptionModel
 * @property {string} description
 * @property {NotificationModel[]} notifications at least one
 */

/**
 * An example pairing with every `$ref` followed, each example param carrying its param's name.
 * @typedef {Omit<ExamplePairingObject, "params" | "result"> & { params: ExampleObject[], result?: ExampleObject }} ExampleModel
 */

/**
 * @typedef {object} MethodModel
 * @property {string} name the JSON-RPC method, as the document names it
 * @property {string} fn its function's name in the generated code (collision-free)
 * @property {string} short the same as `fn`
 * @property {string} typeBase its types' names start with it: `XParams`, `XArgs`, `XResult`, `XNotification`
 * @property {string} summary
 * @property {string} description
 * @property {"none" | "bearer" | "node"} auth from `x-requires-auth` (see `authOf`)
 * @property {boolean} requiresAuth
 * @property {boolean} nodeToNode
 * @property {boolean} deprecated
 * @property {"by-name" | "by-position" | "either"} paramStructure
 * @property {ParamModel[]} params
 * @property {ResultModel | undefined} result
 * @property {boolean} notification
 * @property {SubscriptionModel | undefined} subscription from `x-subscription` (see `subscriptionOf`)
 * @property {string[]} notificationTypes the type names of its subscription's notifications
 * @property {ErrorObject[]} errors
 * @property {ExampleModel[]} examples
 * @property {string[]} tags the tags' names
 */

/**
 * What every component renders from.
 * @typedef {object} Model
 * @property {boolean} usesAuth
 * @property {string} title
 * @property {string} version
 * @property {string} description
 * @property {string} className
 * @property {string | undefined} prefix the `prefix_` every method name shares, left out of function names
 * @property {boolean} unwrapSingleItemResults
 * @property {{ name: string, typeName: string, schema: Schema }[]} schemas the component schemas: key, type name, schema
 * @property {Map<string, string>} schemaTypeNames
 * @property {Map<string, string>} schemaNames
 * @property {Types} types
 * @property {MethodModel[]} methods
 * @property {({ key: string } & ErrorObject)[]} errors the component errors, by key
 * @property {{ what: string, wanted: string, name: string, takenBy: string | undefined }[]} renamed the names
 *   given a numeric suffix, in document order: `wanted` was taken first by `takenBy` (undefined: the generated code uses it)
 */

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
 * @param {Extensions} doc
 */
function unwrapsSingleItemResults(doc) {
  const value = doc["x-unwrap-single-item-results"];
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  throw new DocumentError(`x-unwrap-single-item-results is ${JSON.stringify(value)}; use true or false`);
}

/**
 * The payload of a one-item result array (see `unwrapsSingleItemResults`), or undefined.
 * @param {Schema} schema
 * @param {unknown} doc
 * @returns {Schema | undefined}
 */
function payloadOf(schema, doc) {
  const resolved = follow(doc, schema);
  if (isObject(resolved) && resolved.type === "array" && resolved.minItems === 1 && resolved.maxItems === 1 && resolved.items && !Array.isArray(resolved.items)) {
    return resolved.items;
  }
  return undefined;
}

/**
 * How a method is authenticated, from its `x-requires-auth` extension: `true` a bearer token,
 * `"node"` a peer node's signature (node-to-node methods, which the generated client leaves out),
 * absent or `false` nothing.
 * @param {{ name: string } & Extensions} method
 * @returns {"none" | "bearer" | "node"}
 */
function authOf(method) {
  const value = method["x-requires-auth"];
  if (value === undefined || value === false) return "none";
  if (value === true) return "bearer";
  if (value === "node") return "node";
  throw new DocumentError(`${method.name}: x-requires-auth is ${JSON.stringify(value)}; use true, false or "node"`);
}

/**
 * An optional text member (`summary`, `description`) of an object: "" when absent. The meta-schema
 * checks a method's; an extension's (`x-subscription`) are checked here.
 * @param {Record<string, unknown>} object
 * @param {string} member
 * @param {string} where names the object
 */
function textOf(object, member, where) {
  const value = object[member];
  if (value === undefined) return "";
  if (typeof value !== "string") throw new DocumentError(`${where}: ${member} must be a string`);
  return value;
}

/**
 * A content descriptor (param, result, notification param) with its `$ref` followed. `value` is
 * `unknown`: an extension's params (`x-subscription`) are checked only here.
 * @param {unknown} doc
 * @param {unknown} value
 * @param {string} where names it
 * @returns {ParamModel}
 */
function contentDescriptor(doc, value, where) {
  const cd = follow(doc, value);
  if (!isObject(cd) || typeof cd.name !== "string") throw new DocumentError(`${where}: not a content descriptor (needs a \`name\`)`);
  const schema = cd.schema === undefined ? {} : cd.schema;
  // The meta-schema checks a method's; an extension's that is no schema at all is refused (an object is taken to be one).
  if (typeof schema !== "boolean" && !(isObject(schema) && !Array.isArray(schema))) throw new DocumentError(`${where}: its schema must be a JSON Schema (an object or a boolean)`);
  // A default sits beside the `$ref` or on the component it refers to (`{"$ref": "#/components/schemas/Limit"}`).
  const ownDefault = isObject(schema) && Object.prototype.hasOwnProperty.call(schema, "default");
  const withDefault = ownDefault ? schema : follow(doc, schema);
  const hasDefault = isObject(withDefault) && Object.prototype.hasOwnProperty.call(withDefault, "default");
  return {
    name: cd.name,
    summary: textOf(cd, "summary", where),
    description: textOf(cd, "description", where),
    required: cd.required === true,
    deprecated: cd.deprecated === true,
    hasDefault,
    default: hasDefault ? withDefault.default : undefined,
    schema,
  };
}

/**
 * A method's (or notification's) params, each named once: they become the members of one object type.
 * @param {unknown} doc
 * @param {unknown} params a method's (checked by the meta-schema) or an extension's
 * @param {string} where names their method or notification
 * @returns {ParamModel[]}
 */
function paramsOf(doc, params, where) {
  const seen = new Set();
  const list = params || [];
  if (!isArray(list)) throw new DocumentError(`${where}: params must be an array`);
  return list.map((p, i) => {
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
 * @param {{ name: string } & Extensions} method
 * @param {unknown} [doc] the document its `$ref`s point into
 * @param {string} [prefix] the document's shared method prefix (`buildModel`'s `prefix`), left out of type names
 * @returns {SubscriptionModel | undefined}
 */
function subscriptionOf(method, doc = {}, prefix) {
  const extension = method["x-subscription"];
  if (extension === undefined) return undefined;
  const where = `${method.name}: x-subscription`;
  /** @type {(what: string) => never} */
  const fail = (what) => {
    throw new DocumentError(`${where} ${what}`);
  };
  if (!isObject(extension) || !isArray(extension.notifications) || extension.notifications.length === 0) {
    fail("must be an object with a non-empty `notifications` array");
  }
  const names = new Set();
  const notifications = extension.notifications.map((n, i) => {
    if (!isObject(n) || typeof n.name !== "string" || n.name === "") fail(`notifications[${i}] needs a \`name\``);
    const name = n.name;
    if (names.has(name)) fail(`names the notification ${name} twice`);
    names.add(name);
    const eventId = n.eventId;
    if (eventId !== undefined && (typeof eventId !== "string" || !eventId.startsWith("/"))) fail(`${name}: eventId must be a JSON pointer ("/member/...")`);
    const params = paramsOf(doc, n.params, `${where} ${name}`).map((p) => ({ ...p, hasDefault: false }));
    const local = prefix && name.startsWith(`${prefix}_`) ? name.slice(prefix.length + 1) : name.split(/[._]/).pop() ?? "";
    return { name, summary: textOf(n, "summary", `${where} ${name}`), description: textOf(n, "description", `${where} ${name}`), eventId, params, typeBase: typeName(`${pascalCase(local) || "Event"}Notification`) };
  });
  return { description: textOf(extension, "description", where), notifications };
}

/**
 * `[{name, value}]` example pairings with every `$ref` (pairing, param example, result example)
 * followed. OpenRPC pairs example params with the method's params by position; when every one is
 * named after a param (a common convention, which allows gaps), by name. Each gets its param's name.
 * @param {unknown} doc
 * @param {MethodObject} method
 * @returns {ExampleModel[]}
 */
function examplesOf(doc, method) {
  const names = (method.params || []).map((param) => follow(doc, param).name);
  return (method.examples || []).map((pairing) => {
    const p = follow(doc, pairing);
    const params = (p.params || []).map((param) => follow(doc, param));
    const byName = params.every((param) => names.includes(param.name));
    // A `result` is followed in place (a cast: TypeScript cannot tell the last spread replaces `p.result`).
    return /** @type {ExampleModel} */ ({
      ...p,
      params: byName ? params : params.map((param, i) => {
        const name = names[i];
        return name === undefined ? param : { ...param, name };
      }),
      ...(p.result !== undefined && { result: follow(doc, p.result) }),
    });
  });
}

/**
 * @param {OpenrpcDocument} doc the OpenRPC document as written (parsed JSON, not dereferenced), valid
 * @returns {Model}
 */
function buildModel(doc) {
  const unwrap = unwrapsSingleItemResults(doc);
  const componentSchemas = (doc.components && doc.components.schemas) || {};

  const className = typeName(pascalCase(doc.info && doc.info.title), "Service");
  // Type names: component schemas first (by key, in document order), so a new method never renames one.
  const types = createNamespace([...RESERVED_TYPE_NAMES, `${className}Client`]);
  /** @type {Map<string, string>} */
  const schemaTypeNames = new Map();
  const schemas = Object.entries(componentSchemas).map(([key, schema]) => {
    const name = types.take(typeName(pascalCase(key), "Schema"), undefined, `schema ${JSON.stringify(key)}`);
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
    const fn = functions.take(identifier(camelCase(local), "method"), (name) => [name, `${name}Request`], `method ${JSON.stringify(method.name)}`);
    const subscription = subscriptionOf(method, doc, prefix);
    const notificationTypes = subscription ? subscription.notifications.map((n) => n.typeBase) : [];
    // From the method's name, not `fn`: a function suffixed to stay clear of another (`getPet2`) would
    // otherwise give `GetPet22` when `GetPet2` is taken.
    const typeBase = types.take(
      typeName(pascalCase(camelCase(local)), "Method"),
      (base) => [`${base}Params`, `${base}Args`, `${base}Result`, ...(subscription ? [`${base}Notification`] : [])],
      `the types of method ${JSON.stringify(method.name)}`,
    );
    if (subscription) {
      for (const n of subscription.notifications) n.typeBase = types.take(n.typeBase, undefined, `a notification of method ${JSON.stringify(method.name)}`);
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
    renamed: [...types.renamed(), ...functions.renamed()],
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
 * @param {OpenrpcDocument} doc
 * @returns {OpenrpcDocument}
 */
function docsDocument(doc) {
  const components = (doc.components && doc.components.schemas) || {};
  // Each component titled by its key, and marked with it (html.cjs `componentKey`): a `title` beside a `$ref` replaces the title, not the mark.
  const titled = {
    ...doc,
    components: { ...doc.components, schemas: Object.fromEntries(Object.entries(components).map(([k, s]) => [k, s && typeof s === "object" ? { ...s, title: k, "x-neutral-schema": k } : s])) },
  };
  // Each `$ref` replaced by what it points at, which is what its place calls for: still a document.
  return /** @type {OpenrpcDocument} */ (inlineRefs(titled, titled));
}

module.exports = { buildModel, docsDocument, payloadOf, authOf, subscriptionOf, unwrapsSingleItemResults };
