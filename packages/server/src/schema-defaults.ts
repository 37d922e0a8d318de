// Defaults filled into valid params, at any depth: a member's `default` (beside it, or on the schema
// its `$ref` names), through `allOf`, array items, and, for a oneOf/anyOf, the first alternative the
// value matches. Ajv's own `useDefaults` fills none inside oneOf/anyOf and does not look through a
// `$ref`, so a `due_days: 14` in one kind of invoice would never be filled.
import { isObject, type Schema, type SchemaContext } from "./schema-context.js";

/** How deep `fillDefaults` follows a value (a recursive schema over a deep value stops filling there). */
const DEPTH_LIMIT = 64;

/** Whether any value of `schema` can get a default filled in: a member with a `default`, somewhere below it. */
export function reachesDefault(context: SchemaContext, schema: Schema): boolean {
  const seen = new Set<object>();
  const visit = (node: unknown): boolean => {
    if (!isObject(node) || seen.has(node)) return false;
    seen.add(node);
    if (typeof node.$ref === "string" && visit(context.resolve(node.$ref))) return true;
    for (const keyword of ["allOf", "oneOf", "anyOf"]) if (Array.isArray(node[keyword]) && (node[keyword] as unknown[]).some(visit)) return true;
    if (isObject(node.properties) && Object.values(node.properties).some((member) => defaultOf(context, member) !== undefined || visit(member))) return true;
    return visit(node.items);
  };
  return visit(schema);
}

/** A member's default: beside it, or on the schema its `$ref` names. */
function defaultOf(context: SchemaContext, schema: unknown): { value: unknown } | undefined {
  if (!isObject(schema)) return undefined;
  if ("default" in schema) return { value: schema.default };
  if (typeof schema.$ref === "string") {
    const target = context.resolve(schema.$ref);
    if (isObject(target) && "default" in target) return { value: target.default };
  }
  return undefined;
}

/**
 * What filling defaults does at one schema, worked out when first needed: the plans to go on with
 * (its `$ref`'s, its `allOf` members'), its unions, its items', and its members with a default or
 * something below them that may have one.
 */
interface FillPlan {
  next: readonly FillPlan[];
  unions: readonly (readonly Schema[])[];
  items: FillPlan | undefined;
  members: readonly { name: string; plan: FillPlan | undefined; fallback: { value: unknown } | undefined }[];
}

/** A default's value, as a value of its own: objects and arrays copied, so that no two requests share one. */
const copyOf = (value: unknown) => (typeof value === "object" && value !== null ? structuredClone(value) : value);

/**
 * What fills the defaults of `schema`'s missing members into a value valid against it, in place;
 * undefined when no value of it can get one (`reachesDefault`).
 */
export function compileDefaults(context: SchemaContext, schema: Schema): ((value: unknown) => void) | undefined {
  if (!reachesDefault(context, schema)) return undefined;
  const plans = new Map<object, FillPlan>();
  const following = new Set<object>();
  /** The plan of `node`, made once; a cycle (a recursive schema) meets the plan being made. */
  const planOf = (node: Schema | undefined): FillPlan | undefined => {
    if (!isObject(node)) return undefined;
    const known = plans.get(node);
    if (known !== undefined) return known;
    // A bare `$ref` (beside annotations: a description, a default) fills as what it names: one step less per value.
    if (typeof node.$ref === "string" && !following.has(node) && !["allOf", "oneOf", "anyOf", "properties", "items"].some((keyword) => keyword in node)) {
      const target = context.resolve(node.$ref);
      following.add(node); // a ref that leads back to itself (A → B → A) is planned the long way
      const shared = isObject(target) ? planOf(target) : undefined;
      following.delete(node);
      if (shared !== undefined) {
        plans.set(node, shared);
        return shared;
      }
    }
    const plan: FillPlan = { next: [], unions: [], items: undefined, members: [] };
    plans.set(node, plan);
    const next: FillPlan[] = [];
    if (typeof node.$ref === "string") next.push(...optional(planOf(context.resolve(node.$ref))));
    if (Array.isArray(node.allOf)) for (const member of node.allOf as Schema[]) next.push(...optional(planOf(member)));
    plan.next = next;
    plan.unions = (["oneOf", "anyOf"] as const).filter((keyword) => Array.isArray(node[keyword])).map((keyword) => node[keyword] as Schema[]);
    plan.items = isObject(node.items) ? planOf(node.items) : undefined;
    plan.members = isObject(node.properties)
      ? Object.entries(node.properties)
          .map(([name, sub]) => ({ name, sub: sub as Schema, fallback: defaultOf(context, sub) }))
          .filter((member) => member.fallback !== undefined || reachesDefault(context, member.sub))
          .map(({ name, sub, fallback }) => ({ name, plan: planOf(sub), fallback }))
      : [];
    return plan;
  };
  const root = planOf(schema)!;
  const fill = (plan: FillPlan, value: unknown, depth: number): void => {
    if (depth > DEPTH_LIMIT || typeof value !== "object" || value === null) return;
    for (const next of plan.next) fill(next, value, depth + 1);
    for (const alternatives of plan.unions) {
      const chosen = alternatives.find((alternative) => context.isValid(alternative, value));
      const chosenPlan = chosen === undefined ? undefined : planOf(chosen);
      if (chosenPlan !== undefined) fill(chosenPlan, value, depth + 1);
    }
    if (Array.isArray(value)) {
      if (plan.items !== undefined) for (const item of value) fill(plan.items, item, depth + 1);
      return;
    }
    const object = value as Record<string, unknown>;
    for (const member of plan.members) {
      let held = object[member.name];
      if (held === undefined) {
        if (member.fallback === undefined) continue;
        held = object[member.name] = copyOf(member.fallback.value);
      }
      if (member.plan !== undefined && typeof held === "object" && held !== null) fill(member.plan, held, depth + 1);
    }
  };
  return (value) => fill(root, value, 0);
}

const optional = <T>(value: T | undefined): T[] => (value === undefined ? [] : [value]);
