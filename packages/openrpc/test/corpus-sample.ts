// A small, deterministic JSON Schema sampler for the corpus suite: a value valid against a schema
// of an OpenRPC document (its `$ref`s resolve in the document), for methods that have no example.
// It knows what the corpus uses: $ref, type (one or a list), enum, const, oneOf/anyOf (the first
// option that makes the whole schema valid, when a check is given), allOf (merged), objects (their
// required members), arrays (minItems items, tuples), numbers with bounds, strings with
// minLength/maxLength, common formats and simple patterns (a string built from the pattern, tried
// with the check), and the schema's own `examples`/`default`/`example` as fallbacks.

type Schema = boolean | Record<string, unknown>;
/** Whether `value` is valid against `schema` (its `$ref`s relative to the document). */
export type Check = (schema: unknown, value: unknown) => boolean;

export interface SampleOptions {
  /** Validates candidates (ajv): picks the oneOf/anyOf option, if/then/else branch and pattern candidate that pass. */
  check?: Check;
  /** Fuller values: arrays get at least one item, objects every declared member (tried when the lean value is ambiguous in a oneOf). */
  rich?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The value at a local JSON pointer of `document`. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) throw new Error(`sample: only local $refs (${ref})`);
  let at: unknown = document;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(at) && !Array.isArray(at)) throw new Error(`sample: ${ref} does not resolve`);
    at = (at as Record<string, unknown>)[part];
  }
  if (at === undefined) throw new Error(`sample: ${ref} does not resolve`);
  return at;
}

/** `schema` with its `$ref` chain followed (siblings of a `$ref` kept over the target's keywords). */
function deref(schema: unknown, document: unknown, seen = new Set<string>()): unknown {
  if (!isObject(schema) || typeof schema.$ref !== "string") return schema;
  if (seen.has(schema.$ref)) return {};
  const { $ref, ...siblings } = schema;
  const target = deref(resolvePointer(document, $ref), document, new Set(seen).add($ref));
  if (target === true || target === undefined) return siblings;
  if (!isObject(target)) return target;
  return { ...target, ...siblings };
}

/** allOf merged into one schema: properties and required united, the other keywords later-wins. */
function mergeAllOf(schema: Record<string, unknown>, document: unknown): Record<string, unknown> {
  const { allOf, ...rest } = schema;
  let merged: Record<string, unknown> = { ...rest };
  for (const part of allOf as unknown[]) {
    let sub = deref(part, document);
    if (!isObject(sub)) continue;
    if (Array.isArray(sub.allOf)) sub = mergeAllOf(sub, document);
    const s = sub as Record<string, unknown>;
    merged = {
      ...s,
      ...merged,
      properties: { ...(s.properties as object), ...(merged.properties as object) },
      required: [...new Set([...((s.required as string[]) ?? []), ...((merged.required as string[]) ?? [])])],
    };
  }
  return merged;
}

const FORMATS: Record<string, string> = {
  "date-time": "2024-01-02T03:04:05Z",
  date: "2024-01-02",
  time: "03:04:05Z",
  email: "someone@example.com",
  uri: "https://example.com/",
  "uri-reference": "https://example.com/",
  url: "https://example.com/",
  hostname: "example.com",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  uuid: "00000000-0000-4000-8000-000000000000",
};

/**
 * One string a simple regular expression matches: literals, escapes (\d \w \s and escaped
 * characters), classes with ranges, groups (the first alternative; `(?:` too), and quantifiers
 * (the fewest repetitions, at least one for `+`). Anchors are dropped. Returns undefined for
 * what it does not know (lookarounds, backreferences).
 */
export function stringFromPattern(pattern: string): string | undefined {
  let i = 0;
  const CLASS_ESCAPES: Record<string, string> = { d: "0", w: "a", s: " ", D: "a", W: "-", S: "a" };
  function atom(): string | undefined {
    const c = pattern[i++]!;
    if (c === "\\") {
      const e = pattern[i++]!;
      return CLASS_ESCAPES[e] ?? (/[bB]/.test(e) ? "" : e);
    }
    if (c === "[") {
      const negated = pattern[i] === "^";
      if (negated) i++;
      const members: string[] = [];
      while (i < pattern.length && pattern[i] !== "]") {
        let ch = pattern[i++]!;
        if (ch === "\\") {
          ch = CLASS_ESCAPES[pattern[i]!] ?? pattern[i]!;
          i++;
        }
        if (pattern[i] === "-" && pattern[i + 1] !== "]" && i + 1 < pattern.length) {
          i++;
          let end = pattern[i++]!;
          if (end === "\\") end = pattern[i++]!;
          members.push(ch > end ? end : ch);
        } else members.push(ch);
      }
      i++; // ]
      if (negated) return members.includes("~") ? "!" : "~";
      return members[0] ?? "";
    }
    if (c === "(") {
      if (pattern[i] === "?") {
        if (pattern[i + 1] !== ":") return undefined;
        i += 2;
      }
      const inner = alternatives();
      if (pattern[i] !== ")") return undefined;
      i++;
      return inner;
    }
    if (c === ".") return "a";
    if (c === "^" || c === "$") return "";
    return c;
  }
  function quantified(): string | undefined {
    const text = atom();
    if (text === undefined) return undefined;
    const q = pattern[i];
    let min = 1;
    if (q === "*" || q === "?") (min = 0), i++;
    else if (q === "+") (min = 1), i++;
    else if (q === "{") {
      const m = /^\{(\d+)(,\d*)?\}/.exec(pattern.slice(i));
      if (m) (min = Number(m[1])), (i += m[0].length);
    }
    if (pattern[i] === "?" && /[*+?}]/.test(pattern[i - 1]!)) i++; // lazy
    return text.repeat(min);
  }
  function sequence(): string | undefined {
    let out = "";
    while (i < pattern.length && pattern[i] !== "|" && pattern[i] !== ")") {
      const part = quantified();
      if (part === undefined) return undefined;
      out += part;
    }
    return out;
  }
  function alternatives(): string | undefined {
    const first = sequence();
    while (pattern[i] === "|") {
      i++;
      if (sequence() === undefined) return undefined;
    }
    return first;
  }
  try {
    const out = alternatives();
    return i === pattern.length ? out : undefined;
  } catch {
    return undefined;
  }
}

/** The schema's own sample values: `examples`, `default`, `example` (OpenAPI style). */
function ownExamples(schema: Record<string, unknown>): unknown[] {
  return [...(Array.isArray(schema.examples) ? schema.examples : []), ...("default" in schema ? [schema.default] : []), ...("example" in schema ? [schema.example] : [])];
}

function sampleString(schema: Record<string, unknown>, options: SampleOptions): string {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  const fit = (text: string) => (text.length < min ? text + "a".repeat(min - text.length) : text.length > max ? text.slice(0, max) : text);
  if (typeof schema.pattern === "string") {
    const regex = new RegExp(schema.pattern, "u");
    const built = stringFromPattern(schema.pattern);
    const candidates = [
      ...(built === undefined ? [] : [built, fit(built)]),
      ...ownExamples(schema).filter((v): v is string => typeof v === "string"),
      "0x0",
      "0x00",
      "a",
      "0",
    ];
    const ok = candidates.find((c) => regex.test(c) && c.length >= min && c.length <= max && (!options.check || options.check(schema, c)));
    if (ok !== undefined) return ok;
    return candidates[0] ?? "";
  }
  if (typeof schema.format === "string" && FORMATS[schema.format]) return fit(FORMATS[schema.format]!);
  return fit("sample");
}

function sampleNumber(schema: Record<string, unknown>, integer: boolean): number {
  const num = (key: string) => (typeof schema[key] === "number" ? (schema[key] as number) : undefined);
  let low = num("minimum") ?? -Infinity;
  const exclusiveMin = num("exclusiveMinimum") ?? (schema.exclusiveMinimum === true ? num("minimum") : undefined);
  if (exclusiveMin !== undefined) low = Math.max(low, integer ? Math.floor(exclusiveMin) + 1 : exclusiveMin + 0.5);
  let high = num("maximum") ?? Infinity;
  const exclusiveMax = num("exclusiveMaximum") ?? (schema.exclusiveMaximum === true ? num("maximum") : undefined);
  if (exclusiveMax !== undefined) high = Math.min(high, integer ? Math.ceil(exclusiveMax) - 1 : exclusiveMax - 0.5);
  let value = Math.min(Math.max(1, low), high);
  if (integer) value = Math.ceil(value);
  const step = num("multipleOf");
  if (step) value = Math.ceil(value / step) * step;
  return value;
}

/**
 * A value valid against `schema` (a schema of `document`; `$ref`s resolve in it), deterministically.
 * Throws when it meets a recursion it cannot end (a required member that refers back to itself).
 */
export function sampleFromSchema(schema: unknown, document: unknown, options: SampleOptions = {}, depth = 0): unknown {
  if (depth > 40) throw new Error("sample: schema too deep (recursion through required members?)");
  const next = (s: unknown) => sampleFromSchema(s, document, options, depth + 1);
  let s = deref(schema, document);
  if (s === true || s === undefined || s === null) return "sample";
  if (s === false) throw new Error("sample: the schema `false` has no value");
  if (!isObject(s)) return "sample";
  if (Array.isArray(s.allOf)) s = mergeAllOf(s, document);
  const object = s as Record<string, unknown>;
  if (object.if !== undefined && options.check) {
    // if/then/else: the value without the condition, or else one made with `then`, or `else`, folded in.
    const { if: _if, then: thenSchema, else: elseSchema, ...rest } = object;
    let first: unknown;
    for (const branch of [undefined, thenSchema, elseSchema]) {
      let value: unknown;
      try {
        value = next(branch === undefined ? rest : mergeAllOf({ ...rest, allOf: [branch] }, document));
      } catch {
        continue;
      }
      if (options.check(schema, value)) return value;
      if (first === undefined) first = value;
    }
    return first;
  }
  if ("const" in object) return object.const;
  if (Array.isArray(object.enum) && object.enum.length > 0) return object.enum[0];
  for (const key of ["oneOf", "anyOf"] as const) {
    const options_ = object[key];
    if (!Array.isArray(options_) || options_.length === 0) continue;
    const { [key]: _, ...rest } = object;
    let first: unknown;
    // Lean values first; fuller ones when a lean one fits several options of a oneOf (an empty array).
    for (const rich of options.rich ? [true] : [false, true]) {
      for (const option of options_) {
        const resolved = deref(option, document);
        const combined = isObject(resolved) ? { ...rest, ...resolved } : resolved;
        let value: unknown;
        try {
          value = sampleFromSchema(combined, document, { ...options, rich }, depth + 1);
        } catch {
          continue;
        }
        if (first === undefined) first = value;
        if (!options.check || options.check(schema, value)) return value;
      }
      if (!options.check) break;
    }
    if (first !== undefined) return first;
  }
  const own = ownExamples(object);
  const types = Array.isArray(object.type) ? (object.type as string[]) : typeof object.type === "string" ? [object.type] : [];
  let type = types.find((t) => t !== "null") ?? types[0];
  if (type === undefined) {
    if (own.length > 0) return own[0];
    if (object.properties || object.required || object.additionalProperties !== undefined || object.patternProperties) type = "object";
    else if (object.items !== undefined || object.prefixItems) type = "array";
    else return "sample";
  }
  if (own.length > 0 && options.check) {
    const valid = own.find((v) => options.check!(schema, v));
    if (valid !== undefined) return valid;
  }
  switch (type) {
    case "null":
      return null;
    case "boolean":
      return true;
    case "integer":
      return sampleNumber(object, true);
    case "number":
      return sampleNumber(object, false);
    case "string":
      return sampleString(object, options);
    case "array": {
      const tuple = Array.isArray(object.prefixItems) ? object.prefixItems : Array.isArray(object.items) ? object.items : undefined;
      const max = typeof object.maxItems === "number" ? object.maxItems : Infinity;
      const min = Math.min(Math.max(typeof object.minItems === "number" ? object.minItems : 0, options.rich ? 1 : 0), max);
      if (tuple) return tuple.slice(0, Math.max(min, tuple.length)).map(next);
      return Array.from({ length: min }, () => next(object.items ?? {}));
    }
    case "object": {
      const properties = (isObject(object.properties) ? object.properties : {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const key of Array.isArray(object.required) ? (object.required as string[]) : []) {
        out[key] = next(key in properties ? properties[key] : isObject(object.additionalProperties) ? object.additionalProperties : {});
      }
      const minProperties = options.rich ? Infinity : typeof object.minProperties === "number" ? object.minProperties : 0;
      for (const [key, value] of Object.entries(properties)) {
        if (Object.keys(out).length >= minProperties) break;
        if (!(key in out)) out[key] = next(value);
      }
      return out;
    }
    default:
      return "sample";
  }
}
