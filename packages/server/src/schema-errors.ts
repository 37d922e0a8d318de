// Where a value fails a schema, said once and at the right place. Ajv stops at its first error, and
// for a oneOf/anyOf that is an error of the first alternative, whichever the value meant: a payment
// of kind "bitcoin" refused as "token is required" (the card's member). Here a failing union
// chooses the alternative the value is for (a discriminator: OpenAPI's `discriminator`, or a member
// whose `const`/`enum` tells the alternatives apart; else the only one of the value's type; else
// the one the value gets furthest into) and reports what is wrong inside it.
import type { ErrorObject } from "ajv";
import { isObject, type Schema, type SchemaContext } from "./schema-context.js";

/** A value's first problem against a schema. */
export interface SchemaProblem {
  /** JSON pointer into the value (a missing or unknown member's own place). */
  path: string;
  /** What is wrong, in words: "is required", "must be string", … */
  reason: string;
  /** The alternative of a oneOf/anyOf the problem is in (the innermost): its title, the name its `$ref` points at, or `#index`. */
  alternative?: string;
}

/** Schemas `explain` walks at most for one value: a bound on the work a hostile value can cause. */
const WORK_LIMIT = 2_000;
/**
 * Values (members, items, scalars) a value may hold for `explain` to look at it. Each walk checks a
 * whole sub-value with Ajv, so a big value costs a few passes over it: a hostile filter of 50,000
 * members cost 92 ms to explain against Ajv's own 11 ms. Past this, Ajv's first error is reported.
 */
const SIZE_LIMIT = 10_000;

/** Whether `value` holds at most `limit` values in all (counting stops there). */
function sizeAtMost(value: unknown, limit: number): boolean {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length > 0) {
    const next = stack.pop();
    if (++count > limit) return false;
    if (Array.isArray(next)) {
      if (count + next.length > limit) return false;
      for (const item of next) stack.push(item);
    } else if (typeof next === "object" && next !== null) {
      for (const key in next) {
        stack.push((next as Record<string, unknown>)[key]);
        if (count + stack.length > limit) return false;
      }
    }
  }
  return true;
}
const UNIONS = ["oneOf", "anyOf"] as const;
const COMPOSITION = new Set(["$ref", "allOf", "oneOf", "anyOf"]);

/** The problem Ajv reports, at `base` + its instance path. */
export function problemOf(error: ErrorObject, base = ""): SchemaProblem {
  const path = base + error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties":
      return { path: `${path}/${escape(String(params.additionalProperty))}`, reason: "is not a known member" };
    case "required":
      return { path: `${path}/${escape(String(params.missingProperty))}`, reason: "is required" };
    case "pattern":
      return { path, reason: `must match ${String(params.pattern)}` };
    case "enum":
      return { path, reason: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` };
    case "const":
      return { path, reason: `must be ${JSON.stringify(params.allowedValue)}` };
    case "type":
      return { path, reason: `must be ${String(params.type)}` };
    case "format":
      return { path, reason: `must be a valid ${String(params.format)}` };
    default:
      return { path, reason: error.message ?? "is invalid" };
  }
}

/** How deep in the value a problem is: a missing or unknown member is a problem of the object that has it. */
const depthOf = (problem: SchemaProblem) =>
  problem.path.split("/").length - 1 - (problem.reason === "is required" || problem.reason === "is not a known member" ? 1 : 0);

const escape = (member: string) => member.replace(/~/g, "~0").replace(/\//g, "~1");
const unescape = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/**
 * The first problem of `value` against `schema`, with unions explained (see the file's comment);
 * undefined when the value is valid, holds more than SIZE_LIMIT values, or the work bound is reached
 * (the caller then reports Ajv's own first error).
 */
export function explain(context: SchemaContext, schema: Schema, value: unknown, path = "", workLimit = WORK_LIMIT): SchemaProblem | undefined {
  if (!sizeAtMost(value, SIZE_LIMIT)) return undefined;
  const budget = { left: workLimit };
  const problem = walk(context, schema, value, path, budget);
  // A walk cut short may have weighed alternatives on partial answers: nothing it says is sure.
  return budget.left < 0 ? undefined : problem;
}

interface Budget {
  left: number;
}

function walk(context: SchemaContext, schema: Schema, value: unknown, path: string, budget: Budget): SchemaProblem | undefined {
  if (--budget.left < 0) return undefined;
  if (schema === true || context.isValid(schema, value)) return undefined;
  if (schema === false) return { path, reason: "is not allowed" };
  if (typeof schema.$ref === "string") {
    const target = context.resolve(schema.$ref);
    if (target !== undefined) {
      const problem = walk(context, target, value, path, budget);
      if (problem) return problem;
    }
  }
  if (Array.isArray(schema.allOf)) {
    for (const member of schema.allOf as Schema[]) {
      const problem = walk(context, member, value, path, budget);
      if (problem) return problem;
    }
  }
  for (const keyword of UNIONS) {
    if (!Array.isArray(schema[keyword])) continue;
    const problem = union(context, schema, keyword, value, path, budget);
    if (problem) return problem;
  }
  // The schema's own keywords: a problem here, or in a member or item, where it may meet a union again.
  const own = Object.keys(schema).some((key) => COMPOSITION.has(key)) ? ownKeywords(schema) : schema;
  const [error] = context.errorsOf(own, value);
  if (error === undefined) return undefined;
  const fallback = problemOf(error, path);
  const segment = error.instancePath.split("/")[1];
  if (segment === undefined || error.instancePath === "") return fallback;
  const key = unescape(segment);
  const child = childSchema(own, key, value);
  if (child === undefined) return fallback;
  return walk(context, child, (value as Record<string, unknown>)[key], `${path}/${segment}`, budget) ?? fallback;
}

/** Each schema's keywords but its composition, kept so that each is compiled once (the document's schemas are a fixed set). */
const ownOf = new WeakMap<object, Record<string, unknown>>();

function ownKeywords(schema: Record<string, unknown>): Record<string, unknown> {
  let own = ownOf.get(schema);
  if (own === undefined) {
    own = {};
    for (const [key, value] of Object.entries(schema)) if (!COMPOSITION.has(key)) own[key] = value;
    ownOf.set(schema, own);
  }
  return own;
}

/** The schema of member (or item) `key` of `value` under `schema`. */
function childSchema(schema: Record<string, unknown>, key: string, value: unknown): Schema | undefined {
  if (Array.isArray(value)) {
    const index = Number(key);
    const prefix = (schema.prefixItems ?? (Array.isArray(schema.items) ? schema.items : undefined)) as Schema[] | undefined;
    if (prefix !== undefined) return index < prefix.length ? prefix[index] : ((Array.isArray(schema.items) ? schema.additionalItems : schema.items) as Schema | undefined);
    return schema.items as Schema | undefined;
  }
  const properties = schema.properties;
  if (isObject(properties) && key in properties) return properties[key] as Schema;
  if (isObject(schema.patternProperties)) {
    for (const [pattern, sub] of Object.entries(schema.patternProperties)) if (new RegExp(pattern, "u").test(key)) return sub as Schema;
  }
  return isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

/** A failing oneOf/anyOf: the alternative the value is for, and its problem there. */
function union(context: SchemaContext, schema: Record<string, unknown>, keyword: "oneOf" | "anyOf", value: unknown, path: string, budget: Budget): SchemaProblem | undefined {
  const alternatives = (schema[keyword] as Schema[]).map((alternative, index) => ({ schema: alternative, index }));
  const valid = alternatives.filter((alternative) => context.isValid(alternative.schema, value));
  if (valid.length === 1 || (valid.length > 1 && keyword === "anyOf")) return undefined;
  if (valid.length > 1) {
    return { path, reason: `matches more than one alternative (${valid.map((alternative) => labelOf(context, alternative.schema, alternative.index)).join(", ")}); it must match exactly one` };
  }
  const chosen = choose(context, schema, alternatives, value, path, budget);
  if ("refusal" in chosen) return chosen.refusal;
  const problem = "problem" in chosen ? chosen.problem : walk(context, chosen.alternative.schema, value, path, budget);
  return problem && { ...problem, alternative: problem.alternative ?? labelOf(context, chosen.alternative.schema, chosen.alternative.index) };
}

interface Alternative {
  schema: Schema;
  index: number;
}

/** How an alternative is named in errors: its title, the name its `$ref` points at, or `#index`. */
function labelOf(context: SchemaContext, schema: Schema, index: number): string {
  if (isObject(schema)) {
    if (typeof schema.title === "string") return schema.title;
    if (typeof schema.$ref === "string") {
      const target = context.resolve(schema.$ref);
      if (isObject(target) && typeof target.title === "string") return target.title;
      return schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1);
    }
  }
  return `#${index}`;
}

/** Follows `$ref`s and merges `allOf` members: the members an alternative declares, and its types. */
function shapeOf(context: SchemaContext, schema: Schema, depth = 0): { properties: Record<string, Schema>; types: Set<string> } {
  const shape = { properties: {} as Record<string, Schema>, types: new Set<string>() };
  if (!isObject(schema) || depth > 16) return shape;
  const merge = (other: ReturnType<typeof shapeOf>) => {
    Object.assign(shape.properties, other.properties);
    for (const type of other.types) shape.types.add(type);
  };
  if (typeof schema.$ref === "string") {
    const target = context.resolve(schema.$ref);
    if (target !== undefined) merge(shapeOf(context, target, depth + 1));
  }
  if (Array.isArray(schema.allOf)) for (const member of schema.allOf as Schema[]) merge(shapeOf(context, member, depth + 1));
  if (isObject(schema.properties)) Object.assign(shape.properties, schema.properties);
  const types = Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : [];
  for (const type of types) shape.types.add(String(type));
  if (types.length === 0 && (isObject(schema.properties) || Array.isArray(schema.required))) shape.types.add("object");
  if (types.length === 0 && (schema.const !== undefined || Array.isArray(schema.enum))) {
    for (const member of schema.const !== undefined ? [schema.const] : (schema.enum as unknown[])) shape.types.add(jsonType(member));
  }
  return shape;
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

const typeMatches = (types: Set<string>, value: unknown) => {
  const type = jsonType(value);
  return types.size === 0 || types.has(type) || (type === "integer" && types.has("number"));
};

/** The values a member's schema allows when it is a `const` or an `enum` (through refs). */
function tagValues(context: SchemaContext, schema: Schema | undefined): unknown[] | undefined {
  if (!isObject(schema)) return undefined;
  if (schema.const !== undefined) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  if (typeof schema.$ref === "string") return tagValues(context, context.resolve(schema.$ref));
  return undefined;
}

/**
 * The alternative `value` is for (with its problem when finding it took a walk), or the refusal of
 * a discriminator no alternative has.
 */
function choose(
  context: SchemaContext,
  union: Record<string, unknown>,
  alternatives: Alternative[],
  value: unknown,
  path: string,
  budget: Budget,
): { alternative: Alternative; problem?: SchemaProblem | undefined } | { refusal: SchemaProblem } {
  const shapes = alternatives.map((alternative) => shapeOf(context, alternative.schema));
  if (isObject(value)) {
    // OpenAPI's discriminator: the member's value names the alternative (`mapping`, or the schema's name).
    const discriminator = isObject(union.discriminator) && typeof union.discriminator.propertyName === "string" ? union.discriminator : undefined;
    if (discriminator !== undefined) {
      const member = discriminator.propertyName as string;
      const tag = value[member];
      const mapping = isObject(discriminator.mapping) ? (discriminator.mapping as Record<string, unknown>) : {};
      const names = alternatives.map((alternative, i) => {
        const ref = isObject(alternative.schema) && typeof alternative.schema.$ref === "string" ? alternative.schema.$ref : undefined;
        const mapped = Object.entries(mapping).filter(([, target]) => target === ref).map(([name]) => name);
        const tags = tagValues(context, shapes[i]!.properties[member]) ?? [];
        return [...mapped, ...tags.map(String), ...(ref && mapped.length === 0 ? [ref.slice(ref.lastIndexOf("/") + 1)] : [])];
      });
      if (tag === undefined) return { refusal: { path: `${path}/${escape(member)}`, reason: "is required" } };
      const index = names.findIndex((accepted) => accepted.includes(String(tag)));
      if (index >= 0) return { alternative: alternatives[index]! };
      const allowed = [...new Set(names.flat())];
      return { refusal: { path: `${path}/${escape(member)}`, reason: `must be one of ${allowed.map((name) => JSON.stringify(name)).join(", ")}` } };
    }
    // A member whose const/enum tells the alternatives apart (a "kind", a "type").
    const members = new Set(shapes.flatMap((shape) => Object.keys(shape.properties)));
    for (const member of members) {
      if (!(member in value)) continue;
      const tags = shapes.map((shape) => tagValues(context, shape.properties[member]));
      if (tags.filter((values) => values !== undefined).length < 2) continue;
      const matching = alternatives.filter((_, i) => tags[i]?.some((tag) => JSON.stringify(tag) === JSON.stringify(value[member])));
      if (matching.length === 1) return { alternative: matching[0]! };
      if (matching.length === 0 && tags.every((values) => values !== undefined)) {
        const allowed = [...new Set(tags.flat().map((tag) => JSON.stringify(tag)))];
        return { refusal: { path: `${path}/${escape(member)}`, reason: `must be one of ${allowed.join(", ")}` } };
      }
    }
  }
  // The only alternative of the value's type; else the one the value gets furthest into.
  const ofType = alternatives.filter((_, i) => typeMatches(shapes[i]!.types, value));
  if (ofType.length === 1) return { alternative: ofType[0]! };
  const candidates = ofType.length > 0 ? ofType : alternatives;
  const keys = isObject(value) ? Object.keys(value) : [];
  let best: { alternative: Alternative; problem: SchemaProblem | undefined } = { alternative: candidates[0]!, problem: undefined };
  let bestScore = [-1, -1];
  for (const candidate of candidates) {
    const problem = walk(context, candidate.schema, value, path, budget);
    // Past the work bound the walk finds nothing: no alternative can be told the closest.
    if (budget.left < 0) return best;
    const depth = problem === undefined ? 0 : depthOf(problem) - depthOf({ path, reason: "" });
    const known = shapes[candidate.index]!.properties;
    const overlap = keys.filter((key) => key in known).length;
    if (depth > bestScore[0]! || (depth === bestScore[0] && overlap > bestScore[1]!)) {
      best = { alternative: candidate, problem };
      bestScore = [depth, overlap];
    }
  }
  return best;
}
