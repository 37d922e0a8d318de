// A normalized view of the dereferenced OpenRPC document that every component renders from.
"use strict";

/** `neutralService_getInbox` → `getInbox`; `rpc.discover` → `discover`. */
function shortName(methodName) {
  const local = methodName.split(/[._]/).pop();
  return local.charAt(0).toLowerCase() + local.slice(1);
}

const pascal = (name) => name.charAt(0).toUpperCase() + name.slice(1);

/** A result schema that is an array of exactly one item carries one payload (seeds/README.md §3). */
function payloadOf(schema) {
  if (schema && schema.type === "array" && schema.minItems === 1 && schema.maxItems === 1 && schema.items && !Array.isArray(schema.items)) {
    return schema.items;
  }
  return undefined;
}

/**
 * How a method is authenticated, from its `x-requires-auth` extension: `true` a user's bearer token,
 * `"node"` a peer node's signature (node-to-node methods, which app clients never call), absent or
 * `false` nothing.
 */
function authOf(method) {
  const value = method["x-requires-auth"];
  if (value === undefined || value === false) return "none";
  if (value === true) return "bearer";
  if (value === "node") return "node";
  throw new Error(`${method.name}: x-requires-auth is ${JSON.stringify(value)}; use true, false or "node"`);
}

/**
 * A method answered as an event stream, from its `x-subscription` extension:
 * `{description?, notifications: [{name, summary?, eventId?, params: [ContentDescriptor]}]}`. Each
 * notification is a JSON-RPC notification (`method`, by-name `params`); `eventId` is a JSON pointer
 * into its params naming the SSE event id (the resume cursor), e.g. "/message/id".
 */
function subscriptionOf(method) {
  const extension = method["x-subscription"];
  if (extension === undefined) return undefined;
  const fail = (what) => {
    throw new Error(`${method.name}: x-subscription ${what}`);
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
    const params = (n.params || []).map((p) => ({
      name: p.name,
      summary: p.summary || "",
      description: p.description || "",
      required: p.required === true,
      hasDefault: false,
      schema: p.schema || {},
    }));
    return { name: n.name, summary: n.summary || "", description: n.description || "", eventId: n.eventId, params, typeBase: pascal(shortName(n.name)) + "Notification" };
  });
  return { description: extension.description || "", notifications };
}

function buildModel(doc) {
  const schemaNames = new Map(); // title → component name
  const schemas = Object.entries((doc.components && doc.components.schemas) || {}).map(([name, schema]) => {
    if (schema.title && schema.title !== name) {
      throw new Error(`components.schemas.${name} has title "${schema.title}"; give it the title "${name}" so generated names match`);
    }
    schemaNames.set(name, name);
    return { name, schema };
  });

  const seen = new Map();
  const methods = doc.methods.map((method) => {
    const short = shortName(method.name);
    if (seen.has(short)) throw new Error(`methods ${seen.get(short)} and ${method.name} both map to the function name ${short}`);
    seen.set(short, method.name);
    const wrappedPayload = method.result ? payloadOf(method.result.schema) : undefined;
    return {
      name: method.name,
      short,
      typeBase: pascal(short),
      summary: method.summary || "",
      description: method.description || "",
      auth: authOf(method),
      requiresAuth: authOf(method) !== "none",
      nodeToNode: authOf(method) === "node",
      deprecated: method.deprecated === true,
      paramStructure: method.paramStructure || "either",
      params: method.params.map((p) => ({
        name: p.name,
        summary: p.summary || "",
        description: p.description || "",
        required: p.required === true,
        hasDefault: p.schema !== undefined && Object.prototype.hasOwnProperty.call(p.schema, "default"),
        default: p.schema && p.schema.default,
        schema: p.schema || {},
      })),
      result: method.result && {
        name: method.result.name,
        description: method.result.description || "",
        schema: method.result.schema,
        wrapped: wrappedPayload !== undefined,
        payload: wrappedPayload || method.result.schema,
      },
      subscription: subscriptionOf(method),
      errors: method.errors || [],
      examples: method.examples || [],
      tags: (method.tags || []).map((t) => t.name),
    };
  });
  return { title: doc.info.title, version: doc.info.version, description: doc.info.description || "", schemas, schemaNames, methods };
}

module.exports = { buildModel, shortName, payloadOf, authOf, subscriptionOf };
