// The param validators a server stub carries (compiled at generation time, validators.cjs) must be
// what @neutral/server compiles at run time without them: the same options and dialect, and, for
// every param of several real documents, the same answer (args or -32602, word for word) to the
// examples' params and to values their schemas refuse.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { AJV_OPTIONS as SERVER_AJV_OPTIONS, argsOf, dialectOf as serverDialectOf, type ServiceDefinition } from "@neutral/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { petstorePath, workspaceDir } from "../../test/scaffold-support.js";

const require = createRequire(import.meta.url);
const { validatorsModule, dialectOf, AJV_OPTIONS } = require("./validators.cjs") as {
  validatorsModule: (document: object, model: object, runtime: string) => string;
  dialectOf: (document: object) => string;
  AJV_OPTIONS: object;
};
const { buildModel } = require("./model.cjs") as { buildModel: (document: object) => Model };
const { serviceDefinitionOf } = (await import("../service-definition.mjs")) as unknown as { serviceDefinitionOf: (document: object) => { service: ServiceDefinition } };

interface Model {
  methods: { name: string; params: { name: string }[]; examples: { params: { name: string; value: unknown }[] }[] }[];
}

const tuples = {
  openrpc: "1.3.2",
  info: { title: "tuples", version: "1" },
  methods: [{ name: "points_add", params: [{ name: "point", required: true, schema: { $ref: "#/components/schemas/Point" } }], result: { name: "ok", schema: { type: "boolean" } } }],
  components: { schemas: { Point: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } } },
};

const formats = {
  openrpc: "1.3.2",
  info: { title: "formats", version: "1" },
  methods: [
    {
      name: "events_add",
      params: [
        { name: "at", required: true, schema: { type: "string", format: "date-time" } },
        { name: "contact", schema: { type: "object", properties: { email: { type: "string", format: "email" }, site: { type: "string", format: "uri" }, name: { type: "string", maxLength: 3 } } } },
        { name: "tags", schema: { type: "array", uniqueItems: true, items: { enum: [{ a: 1 }, "x"] } } },
      ],
      result: { name: "ok", schema: { type: "boolean" } },
      examples: [{ name: "one", params: [{ name: "at", value: "2026-01-01T00:00:00Z" }, { name: "contact", value: { email: "a@b.co", site: "https://x.y/", name: "ab" } }, { name: "tags", value: ["x"] }], result: { name: "ok", value: true } }],
    },
  ],
};

const DOCUMENTS: [string, () => Promise<object>][] = [
  ["formats", async () => formats],
  ["neutralService", async () => JSON.parse(await readFile(path.join(workspaceDir, "openrpc.json"), "utf8"))],
  ["shop", async () => JSON.parse(await readFile(new URL("../../test/documents/shop-openrpc.json", import.meta.url), "utf8"))],
  ["petstore", async () => JSON.parse(await readFile(petstorePath, "utf8"))],
  ["metamask", async () => JSON.parse(await readFile(require.resolve("@metamask/api-specs/dist/build/openrpc.json"), "utf8"))],
  ["tuples (2020-12)", async () => tuples],
];

/** Values tried for every param besides its examples': some its schema takes, most it refuses. */
const PROBES: unknown[] = [
  0, -1, 1.5, "", "x", "0x", "héllo", true, null, [], [1, "2"], [1, 2, 3], ["x", "x"], [{ a: 1 }, { a: 1 }], {}, { unknown: 1 }, { and: [] },
  "2026-01-01T00:00:00Z", "2026-13-01T00:00:00Z", { email: "nope" }, { site: "not a uri" }, { name: "abcd" }, { name: "åäö" },
];

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "neutral-validators-"));
  await mkdir(path.join(tmp, "node_modules/@neutral"), { recursive: true });
  await symlink(path.join(workspaceDir, "packages/server"), path.join(tmp, "node_modules/@neutral/server"));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** What the dispatcher answers for `params`: the args, or the error. */
function outcome(service: ServiceDefinition, method: string, params: unknown): unknown {
  try {
    return { args: argsOf(service, method, structuredClone(params)) };
  } catch (error) {
    return { error: { message: (error as Error).message, data: (error as { data?: unknown }).data } };
  }
}

describe("validators compiled at generation time", () => {
  it("use @neutral/server's Ajv options and dialect", () => {
    expect(AJV_OPTIONS).toEqual(SERVER_AJV_OPTIONS);
    for (const document of [tuples, { ...tuples, components: {} }, { openrpc: "1.3.2", "x-json-schema-dialect": "https://json-schema.org/draft/2020-12/schema#" }]) {
      expect(dialectOf(document)).toBe(serverDialectOf(document));
    }
  });

  for (const [id, load] of DOCUMENTS) {
    it(`${id}: answer every param's examples and probes as the run-time compilation does`, { timeout: 60_000 }, async () => {
      const document = await load();
      const model = buildModel(document);
      const file = path.join(tmp, `${id.replace(/\W+/g, "-")}.mjs`);
      await writeFile(file, validatorsModule(document, model, "@neutral/server"));
      const { validators } = (await import(pathToFileURL(file).href)) as { validators: ServiceDefinition["validators"] };
      const { service } = serviceDefinitionOf(document);
      const carried: ServiceDefinition = { ...service, validators };
      const compiled: ServiceDefinition = { ...service };
      let checked = 0;
      for (const method of model.methods) {
        if (!(method.name in service.methods)) continue; // event streams: not dispatched by argsOf
        expect(validators![method.name]).toHaveLength(method.params.length);
        const calls: unknown[] = method.examples.map((example) => Object.fromEntries(example.params.map((param) => [param.name, param.value])));
        for (const param of method.params) for (const probe of PROBES) calls.push({ ...(calls[0] as object), [param.name]: probe });
        for (const params of calls) {
          expect(outcome(carried, method.name, params), `${method.name} ${JSON.stringify(params).slice(0, 200)}`).toEqual(outcome(compiled, method.name, params));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(model.methods.length);
    });
  }
});
