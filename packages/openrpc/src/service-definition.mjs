// What @neutral/server needs to check calls and answers of any document, built at run time (the mock,
// the conformance runner): each method's descriptor, as a generated stub's `service` holds it.
import { createRequire } from "node:module";

const { buildModel } = createRequire(import.meta.url)("./lib/model.cjs");

/**
 * The `ServiceDefinition` of `document` (valid, local references only) and its model. Event-stream
 * methods (`x-subscription`) are left out of `service.methods`; `streams` names them.
 * @param {Record<string, unknown>} document
 */
export function serviceDefinitionOf(document) {
  /** @type {import("./lib/model.cjs").Model} */
  const model = buildModel(document);
  /** @type {Record<string, import("@neutral/server").MethodDescriptor>} */
  const methods = {};
  for (const method of model.methods) {
    if (method.subscription) continue;
    methods[method.name] = {
      paramStructure: method.paramStructure,
      requiresAuth: false,
      wrapResult: method.result ? method.result.wrapped : false,
      ...(method.notification && { notification: true }),
      params: method.params.map((param) => ({ name: param.name, required: param.required, ...(param.hasDefault && { default: param.default }), schema: /** @type {object} */ (param.schema) })),
    };
  }
  return { model, service: { methods, document }, streams: model.methods.filter((method) => method.subscription).map((method) => method.name) };
}

/**
 * An example's params (`[name, value]` pairs) as a call of `method` sends them: by name, or by
 * position in the method's order (a param left out as null, none after the last given).
 * @param {{ params: { name: string }[] }} method
 * @param {[string, unknown][]} values
 * @param {"by-name" | "by-position"} structure
 */
export function paramsAs(method, values, structure) {
  if (structure === "by-name") return Object.fromEntries(values);
  const given = new Map(values);
  const list = method.params.map((param) => (given.has(param.name) ? given.get(param.name) : null));
  while (list.length > 0 && list[list.length - 1] === null && !given.has(method.params[list.length - 1]?.name ?? "")) list.pop();
  return list;
}
