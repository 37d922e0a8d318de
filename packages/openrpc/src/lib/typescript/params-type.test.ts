// `paramsType(method, types, {resolved})`: a method's params as one object type. The caller's view
// (`Params`): required params present, the rest optional, a default shown as `@default`. The server's
// view (`Args`, `resolved: true`): a param with a default is present too, as the dispatcher fills it in.
import { describe, expect, it } from "vitest";
import { TestModule, checkModules } from "../../../test/compile.js";
import { buildModel, declareSchema, documentOf, paramsType } from "../../../test/emitter.js";

interface ParamsCase {
  params: unknown[];
  components?: Record<string, unknown>;
  contentDescriptors?: Record<string, unknown>;
  /** The caller's view. */
  caller: string;
  /** The server's view. */
  server: string;
  /** Values that must (not) fit the caller's view (`Params`) and the server's (`Args`). */
  ok?: { caller?: string[]; server?: string[] };
  bad?: { caller?: string[]; server?: string[] };
}

const cases: [string, ParamsCase][] = [
  ["no params", { params: [], caller: "Record<string, never>", server: "Record<string, never>", ok: { caller: ["{}"] }, bad: { caller: ["{ a: 1 }"] } }],
  [
    "required and optional",
    {
      params: [
        { name: "id", required: true, schema: { type: "integer" } },
        { name: "verbose", schema: { type: "boolean" } },
      ],
      caller: "{\n  id: number;\n  verbose?: boolean;\n}",
      server: "{\n  id: number;\n  verbose?: boolean;\n}",
      ok: { caller: ["{ id: 1 }", "{ id: 1, verbose: true }"] },
      bad: { caller: ["{}", "{ id: '1' }", "{ id: 1, other: 2 }"] },
    },
  ],
  [
    "a default: @default for the caller, present for the server",
    {
      params: [{ name: "limit", summary: "How many.", schema: { type: "integer", default: 20 } }],
      caller: "{\n  /**\n   * How many.\n   *\n   * @default 20\n   */\n  limit?: number;\n}",
      server: "{\n  /** How many. */\n  limit: number;\n}",
      ok: { caller: ["{}", "{ limit: 5 }"], server: ["{ limit: 20 }"] },
      bad: { server: ["{}"] },
    },
  ],
  ["a default without a summary", { params: [{ name: "order", schema: { enum: ["asc", "desc"], default: "asc" } }], caller: '{\n  /** @default "asc" */\n  order?: "asc" | "desc";\n}', server: '{\n  order: "asc" | "desc";\n}' }],
  [
    "a default on the referenced component",
    {
      components: { Limit: { type: "integer", minimum: 1, default: 50 } },
      params: [{ name: "limit", schema: { $ref: "#/components/schemas/Limit" } }],
      caller: "{\n  /** @default 50 */\n  limit?: Limit;\n}",
      server: "{\n  limit: Limit;\n}",
      bad: { server: ["{}"] },
    },
  ],
  [
    "a default beside a $ref wins over the component's",
    {
      components: { Limit: { type: "integer", default: 50 } },
      params: [{ name: "limit", schema: { $ref: "#/components/schemas/Limit", default: 10 } }],
      caller: "{\n  /** @default 10 */\n  limit?: Limit;\n}",
      server: "{\n  limit: Limit;\n}",
    },
  ],
  [
    "object and string defaults, with */ escaped",
    {
      params: [
        { name: "filter", schema: { type: "object", properties: { tag: { type: "string" } }, default: { tag: "a" } } },
        { name: "glob", schema: { type: "string", default: "**/*.ts */" } },
      ],
      caller: '{\n  /** @default {"tag":"a"} */\n  filter?: {\n    tag?: string;\n  };\n  /** @default "**\\/*.ts *\\/" */\n  glob?: string;\n}',
      server: "{\n  filter: {\n    tag?: string;\n  };\n  glob: string;\n}",
      ok: { caller: ["{ filter: { tag: 'b' } }"], server: ["{ filter: {}, glob: 'x' }"] },
    },
  ],
  ["a required param with a default: present in both views", { params: [{ name: "n", required: true, schema: { type: "number", default: 1 } }], caller: "{\n  /** @default 1 */\n  n: number;\n}", server: "{\n  n: number;\n}" }],
  [
    "names that are not identifiers are quoted",
    {
      params: [
        { name: "page-size", required: true, schema: { type: "integer" } },
        { name: "1st", schema: { type: "string" } },
        { name: "default", schema: { type: "string" } },
      ],
      caller: '{\n  "page-size": number;\n  "1st"?: string;\n  default?: string;\n}',
      server: '{\n  "page-size": number;\n  "1st"?: string;\n  default?: string;\n}',
      ok: { caller: ['{ "page-size": 10, "1st": "a", default: "b" }'] },
      bad: { caller: ['{ "1st": "a" }'] },
    },
  ],
  [
    "summary, description and deprecated",
    {
      params: [{ name: "old", summary: "The old way.", description: "Kept for compatibility.", deprecated: true, schema: { type: "string" } }],
      caller: "{\n  /**\n   * The old way.\n   *\n   * Kept for compatibility.\n   *\n   * @deprecated\n   */\n  old?: string;\n}",
      server: "{\n  /**\n   * The old way.\n   *\n   * Kept for compatibility.\n   *\n   * @deprecated\n   */\n  old?: string;\n}",
    },
  ],
  [
    "a param given as a $ref to a content descriptor",
    {
      contentDescriptors: { PetId: { name: "petId", required: true, description: "The pet.", schema: { type: "string" } } },
      params: [{ $ref: "#/components/contentDescriptors/PetId" }],
      caller: "{\n  /** The pet. */\n  petId: string;\n}",
      server: "{\n  /** The pet. */\n  petId: string;\n}",
    },
  ],
  [
    "a param without a schema: any value",
    { params: [{ name: "anything", required: true }], caller: "{\n  anything: unknown;\n}", server: "{\n  anything: unknown;\n}", ok: { caller: ["{ anything: null }"] }, bad: { caller: ["{}"] } },
  ],
];

function methodOf(c: ParamsCase) {
  const doc = documentOf(c.components, [{ name: "m", params: c.params, result: { name: "r", schema: {} } }]);
  (doc.components as Record<string, unknown>).contentDescriptors = c.contentDescriptors ?? {};
  const model = buildModel(doc);
  return { model, method: model.methods[0]! };
}

describe("paramsType", () => {
  it.each(cases)("%s", (_, c) => {
    const { model, method } = methodOf(c);
    expect(paramsType(method, model.types, { resolved: false })).toBe(c.caller);
    expect(paramsType(method, model.types, { resolved: true })).toBe(c.server);
  });

  it("is the caller's view without options", () => {
    const { model, method } = methodOf(cases[2]![1]);
    expect(paramsType(method, model.types)).toBe(cases[2]![1].caller);
  });

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    const modules = cases.map(([title, c], i) => {
      const { model, method } = methodOf(c);
      const module = new TestModule(`case${i}.ts`);
      const declarations = model.schemas.map((s) => declareSchema(s.typeName, s.schema, model.types)).join("\n");
      if (declarations) module.add("declare", `${title}: components`, declarations);
      module.add("declare", `${title}: views`, `type Params = ${paramsType(method, model.types, { resolved: false })};\ntype Args = ${paramsType(method, model.types, { resolved: true })};`);
      for (const [view, type] of [["caller", "Params"], ["server", "Args"]] as const) {
        (c.ok?.[view] ?? []).forEach((v, j) => module.add("ok", `${title}: ok.${view}[${j}]`, `export const ok_${view}${j}: ${type} = ${v};`));
        (c.bad?.[view] ?? []).forEach((v, j) => module.add("bad", `${title}: bad.${view}[${j}]`, `export const bad_${view}${j}: ${type} = ${v};`));
      }
      return module;
    });
    expect(checkModules(modules)).toEqual({ errors: [], accepted: [] });
  });
});
