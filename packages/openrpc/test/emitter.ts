// Test support for the TypeScript emitter (src/lib/typescript.cjs): typed handles on the CommonJS
// modules, and the table-driven case format the per-construct tests (src/lib/typescript/*.test.ts)
// share: a case gives a schema (and the component schemas its `$ref`s name), the exact TypeScript
// wanted, and values that must or must not fit the type; `checkCases` compiles every case of a file as
// one program.
import { createRequire } from "node:module";
import { type CheckResult, TestModule, checkModules } from "./compile.js";

const require = createRequire(import.meta.url);

/** `model.types`: what the emitter needs to turn a `$ref` into a type. */
export interface Types {
  typeNameOf(ref: string): string | undefined;
  resolve(ref: string): unknown;
}

export interface ContentDescriptorModel {
  name: string;
  required: boolean;
  hasDefault: boolean;
  default?: unknown;
  schema: unknown;
  summary: string;
  description: string;
  deprecated: boolean;
}

export interface MethodModel {
  name: string;
  fn: string;
  typeBase: string;
  params: ContentDescriptorModel[];
  result?: ContentDescriptorModel & { wrapped: boolean; payload: unknown };
  notification: boolean;
  subscription?: { notifications: { name: string; typeBase: string; params: ContentDescriptorModel[] }[] };
  notificationTypes: string[];
  errors: unknown[];
  examples: { name?: string; params: unknown[]; result?: unknown }[];
  tags: string[];
}

export interface Model {
  className: string;
  prefix: string | undefined;
  unwrapSingleItemResults: boolean;
  schemas: { name: string; typeName: string; schema: unknown }[];
  schemaTypeNames: Map<string, string>;
  types: Types;
  methods: MethodModel[];
  errors: ({ key: string } & Record<string, unknown>)[];
}

export const { tsType, declareSchema, paramsType, docComment, propertyKey } = require("../src/lib/typescript.cjs") as {
  tsType(schema: unknown, types?: Types, opts?: { indent?: string }): string;
  declareSchema(name: string, schema: unknown, types?: Types): string;
  paramsType(method: { params: ContentDescriptorModel[] }, types?: Types, opts?: { resolved?: boolean }): string;
  docComment(text: string, indent?: string): string;
  propertyKey(name: string): string;
};

export const { buildModel } = require("../src/lib/model.cjs") as { buildModel(doc: unknown): Model };

/** An OpenRPC document around `methods` and component `schemas`. */
export function documentOf(schemas: Record<string, unknown> = {}, methods: unknown[] = [], extra: Record<string, unknown> = {}) {
  return { openrpc: "1.3.2", info: { title: "Test", version: "1.0.0" }, methods, components: { schemas }, ...extra };
}

export interface EmitterCase {
  /** A schema: the case renders `tsType(given)`. */
  given?: unknown;
  /** Component schemas (`#/components/schemas/<key>`) the schema's `$ref`s name; each is declared as types.ts declares it. */
  components?: Record<string, unknown>;
  /** Exactly what `tsType(given)` returns. */
  want?: string;
  /** Exactly the components' declarations (`declareSchema` of each, in order, as types.ts writes them). */
  declarations?: string;
  /** Expressions that must be assignable to the case's type (`tsType(given)`, or the first component's type). */
  ok?: string[];
  /** Expressions that must not be. */
  bad?: string[];
  /** The emitter must refuse the case with this error. */
  throws?: RegExp;
}

export type Cases = [title: string, c: EmitterCase][];

/** The case's output: the type `given` renders to, and the components' declarations. */
export function emit(c: EmitterCase): { type: string | undefined; declarations: string; firstTypeName: string | undefined } {
  const model = buildModel(documentOf(c.components));
  const declarations = model.schemas.map((s) => declareSchema(s.typeName, s.schema, model.types)).join("\n");
  const type = "given" in c ? tsType(c.given, model.types) : undefined;
  return { type, declarations, firstTypeName: model.schemas[0]?.typeName };
}

/** Asserts a case's output (what `it.each(cases)` runs); `expect` is vitest's. */
export function expectCase(c: EmitterCase, expect: (value: unknown) => { toBe(v: unknown): void; toThrow(e: RegExp): void }): void {
  if (c.throws) {
    expect(() => emit(c)).toThrow(c.throws);
    return;
  }
  const out = emit(c);
  if (c.want !== undefined) expect(out.type).toBe(c.want);
  if (c.declarations !== undefined) expect(out.declarations).toBe(c.declarations);
}

/** The case as a module: its declarations, `type T` (the case's type), and its `ok`/`bad` values assigned to `T`. */
export function moduleOf(name: string, title: string, c: EmitterCase): TestModule {
  const out = emit(c);
  const module = new TestModule(name);
  if (out.declarations) module.add("declare", `${title}: declarations`, out.declarations);
  const subject = out.type ?? out.firstTypeName;
  if (subject === undefined) return module;
  module.add("declare", `${title}: type`, `type T = ${subject};`);
  (c.ok ?? []).forEach((value, i) => module.add("ok", `${title}: ok[${i}]`, `export const ok${i}: T = ${value};`));
  (c.bad ?? []).forEach((value, i) => module.add("bad", `${title}: bad[${i}]`, `export const bad${i}: T = ${value};`));
  return module;
}

/** Compiles every case that renders (not the `throws` ones) as one program, a module per case. */
export function checkCases(cases: Cases): CheckResult {
  return checkModules(cases.filter(([, c]) => !c.throws).map(([title, c], i) => moduleOf(`case${i}.ts`, title, c)));
}
