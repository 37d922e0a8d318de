import { Ajv, type ErrorObject, type Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import type { ParamDescriptor, PrecompiledValidator } from "./descriptor.js";
import { RpcError } from "./errors.js";
import { createSchemaContext, DOCUMENT_ID, intoDocument, isObject, type Schema, type SchemaContext } from "./schema-context.js";
import { compileDefaults } from "./schema-defaults.js";
import { explain, problemOf, type SchemaProblem } from "./schema-errors.js";

export { DOCUMENT_ID } from "./schema-context.js";

/** The JSON Schema dialects a document's schemas are checked by. */
export type SchemaDialect = "draft-07" | "2020-12";

const DIALECT_URIS: Record<string, SchemaDialect> = {
  "http://json-schema.org/draft-07/schema": "draft-07",
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
};

/**
 * The dialect a document declares: a `$schema` of 2020-12 on its component schemas (or, as
 * OpenAPI 3.1 says it, `jsonSchemaDialect` / `x-json-schema-dialect` at its root) makes it 2020-12;
 * anything else is draft-07, OpenRPC's own (OpenRPC 1.3 names "JSON Schema draft 7").
 */
export function dialectOf(document: object): SchemaDialect {
  const root = document as Record<string, unknown>;
  const declared = [root.jsonSchemaDialect, root["x-json-schema-dialect"]];
  const schemas = isObject(root.components) && isObject(root.components.schemas) ? Object.values(root.components.schemas) : [];
  for (const schema of schemas) if (isObject(schema)) declared.push(schema.$schema);
  for (const uri of declared) {
    if (typeof uri === "string" && DIALECT_URIS[uri.replace(/#$/, "")] === "2020-12") return "2020-12";
  }
  return "draft-07";
}

// ajv-formats is CommonJS: its plugin is the module itself (Node) or its `default` (its types).
const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as unknown as (ajv: Ajv) => Ajv;

/**
 * An Ajv instance for one service: its document's components registered under {@link DOCUMENT_ID},
 * where the `#/…` refs of its param schemas resolve (refs between component schemas, recursive
 * ones included, resolve there as written), for the dialect the document declares (`dialectOf`).
 *
 * Schemas of any OpenRPC document compile: keywords Ajv does not know (`x-…` extensions,
 * `example`, `discriminator`, …) are ignored. The formats of ajv-formats (`date-time`, `email`,
 * `uri`, `uuid`, …) are checked; a format it does not know is not.
 */
/**
 * The Ajv options every service's schemas are compiled with (at run time here, and at generation
 * time by @neutral/openrpc, whose standalone validators must behave the same).
 */
export const AJV_OPTIONS = {
  // allErrors off: the first failure is reported, and validation stops early on hostile input.
  allErrors: false,
  // The schema lints of strict mode (unknown keywords and formats, tuples, required members
  // without properties) would refuse valid third-party documents; strictNumbers is validation.
  strict: false,
  strictNumbers: true,
  allowUnionTypes: true,
  // Unknown formats and keywords are ignored without a word on the console.
  logger: false,
} as const satisfies Options;

export function createAjv(document: object = {}): Ajv {
  const options: Options = { ...AJV_OPTIONS };
  const ajv = dialectOf(document) === "2020-12" ? (new Ajv2020(options) as unknown as Ajv) : new Ajv(options);
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: schemaComponents(document) });
  return ajv;
}

/**
 * The members of `components` that hold schemas. Examples and errors hold data, which is no
 * target of a schema's `$ref` and is kept away from Ajv.
 */
function schemaComponents(document: object): Record<string, unknown> {
  const components = (document as { components?: unknown }).components;
  if (!isObject(components)) return {};
  const kept: Record<string, unknown> = {};
  for (const key of ["schemas", "contentDescriptors"]) if (isObject(components[key])) kept[key] = components[key];
  return kept;
}

/** What checks a service's values: its Ajv instance (made when first needed) and the walkers' shared context. */
export interface ServiceSchemas {
  readonly ajv: Ajv;
  readonly context: SchemaContext;
}

export function createServiceSchemas(document: object): ServiceSchemas {
  // Made at the first compile: a stub whose params are all precompiled needs none to start (~15 ms
  // of a cold start: the formats, the document's components checked against the meta-schema).
  let ajv: Ajv | undefined;
  const ajvOf = () => (ajv ??= createAjv(document));
  return {
    get ajv() {
      return ajvOf();
    },
    context: createSchemaContext(ajvOf, document),
  };
}

/** The first problem of an invalid value: explained through unions when the schema has any, else Ajv's own first error. */
function problemFor(schemas: ServiceSchemas, schema: Schema, value: unknown, errors: ErrorObject[] | null | undefined, unions: boolean): SchemaProblem {
  const explained = unions ? explain(schemas.context, schema, value) : undefined;
  if (explained !== undefined) return explained;
  const first = errors?.[0];
  return first ? problemOf(first) : { path: "", reason: "is invalid" };
}

/** Whether a schema has a oneOf/anyOf anywhere below it (through refs). */
function reachesUnion(context: SchemaContext, schema: Schema): boolean {
  const seen = new Set<object>();
  const visit = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(visit);
    if (!isObject(node) || seen.has(node)) return false;
    seen.add(node);
    if (Array.isArray(node.oneOf) || Array.isArray(node.anyOf)) return true;
    if (typeof node.$ref === "string" && visit(context.resolve(node.$ref))) return true;
    return Object.entries(node).some(([key, value]) => key !== "enum" && key !== "const" && key !== "default" && key !== "examples" && typeof value === "object" && visit(value));
  };
  return visit(schema);
}

/** A compiled check of values against one schema: throws the value's first problem (`onProblem`), fills defaults when it passes. */
function compileCheck(
  schemas: ServiceSchemas,
  schema: Schema,
  onProblem: (problem: SchemaProblem) => Error,
  options: { defaults: boolean; precompiled?: PrecompiledValidator | undefined },
): (value: unknown) => void {
  const validate = (options.precompiled ?? schemas.ajv.compile(intoDocument(schema) as object)) as PrecompiledValidator & { errors?: ErrorObject[] | null };
  const unions = reachesUnion(schemas.context, schema);
  const fillDefaults = options.defaults ? compileDefaults(schemas.context, schema) : undefined;
  if (fillDefaults === undefined) {
    return (value) => {
      if (!validate(value)) throw onProblem(problemFor(schemas, schema, value, validate.errors, unions));
    };
  }
  return (value) => {
    if (!validate(value)) throw onProblem(problemFor(schemas, schema, value, validate.errors, unions));
    fillDefaults(value);
  };
}

/**
 * Compiles a param's schema once: a failing value becomes -32602 naming the field (`data`: `field`,
 * `reason`, `param`, `path`, and `alternative` when the problem is inside one alternative of a
 * oneOf/anyOf); a valid one gets the defaults of its missing members, at any depth.
 */
export function compileParamValidator(param: ParamDescriptor, schemas: ServiceSchemas, precompiled?: PrecompiledValidator): (value: unknown) => void {
  return compileCheck(schemas, param.schema as Schema, (problem) => invalidParams(param.name, problem), { defaults: true, precompiled });
}

/** Compiles a method's result schema once: a failing result throws {@link ResultMismatch}. */
export function compileResultValidator(schema: Schema, schemas: ServiceSchemas): (value: unknown) => void {
  return compileCheck(schemas, schema, (problem) => new ResultMismatch(problem), { defaults: false });
}

/** A handler's result that does not match its method's result schema (results are checked in development and tests). */
export class ResultMismatch extends Error {
  /** Where, as `result.member[0]`. */
  readonly field: string;
  constructor(readonly problem: SchemaProblem) {
    const field = fieldName("result", problem.path);
    super(`the result does not match the method's result schema: ${field} ${problem.reason}`);
    this.name = "ResultMismatch";
    this.field = field;
  }
}

/** `/from` under param `inboxFilter` → `inboxFilter.from`; array indexes as `[i]`. */
function fieldName(param: string, pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((field, part) => (/^\d+$/.test(part) ? `${field}[${part}]` : `${field}.${part}`), param);
}

function invalidParams(param: string, problem: SchemaProblem): RpcError {
  return RpcError.invalidParams(fieldName(param, problem.path), problem.reason, {
    param,
    path: problem.path,
    ...(problem.alternative !== undefined && { alternative: problem.alternative }),
  });
}
