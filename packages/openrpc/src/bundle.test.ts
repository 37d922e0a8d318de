// A document split over files (`$ref`s into other JSON and YAML files) → one document: `neutral-openrpc
// bundle`, and `--bundle` on generate and create. Without bundling, such a document is refused with a
// message that says how.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRun, runCli } from "../test/scaffold-support.js";
import { bundleDocument, DocumentError, hasExternalRefs } from "./index.mjs";

let tmp: string;
/** The split document: api.json, schemas/pet.json (which refers to id.yaml beside it, and to itself), schemas/id.yaml, errors.json. */
let api: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "neutral-openrpc-bundle-"));
  await mkdir(path.join(tmp, "split", "schemas"), { recursive: true });
  const write = (file: string, value: unknown) => writeFile(path.join(tmp, "split", file), typeof value === "string" ? value : JSON.stringify(value, null, 2));
  await write("schemas/pet.json", {
    title: "Pet",
    type: "object",
    required: ["id", "name"],
    properties: { id: { $ref: "./id.yaml" }, name: { type: "string" }, parent: { $ref: "#" } },
  });
  await write("schemas/id.yaml", "type: integer\nminimum: 1\ndescription: A pet's id.\n");
  await write("errors.json", { notFound: { code: 404, message: "No such pet" } });
  await write("api.json", {
    openrpc: "1.3.2",
    info: { title: "Split pets", version: "1.0.0" },
    methods: [
      {
        name: "get_pet",
        params: [{ name: "id", required: true, schema: { $ref: "./schemas/id.yaml" } }],
        result: { name: "pet", schema: { $ref: "#/components/schemas/Pet" } },
        errors: [{ $ref: "#/components/errors/NotFound" }],
        examples: [{ name: "getPet", params: [{ name: "id", value: 7 }], result: { name: "pet", value: { id: 7, name: "fluffy" } } }],
      },
    ],
    components: {
      schemas: { Pet: { $ref: "./schemas/pet.json" } },
      errors: { NotFound: { $ref: "./errors.json#/notFound" } },
    },
  });
  api = path.join(tmp, "split", "api.json");
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("bundleDocument", () => {
  it("inlines each file once, keeps local references, and turns a file's reference to itself into one to where it now sits", async () => {
    const document = (await bundleDocument(api)) as {
      methods: { params: { schema: unknown }[] }[];
      components: { schemas: { Pet: { properties: Record<string, unknown> } }; errors: { NotFound: unknown } };
    };
    expect(hasExternalRefs(document)).toBe(false);
    expect(document.methods[0]!.params[0]!.schema).toEqual({ type: "integer", minimum: 1, description: "A pet's id." });
    expect(document.components.schemas.Pet.properties).toEqual({
      id: { $ref: "#/methods/0/params/0/schema" },
      name: { type: "string" },
      parent: { $ref: "#/components/schemas/Pet" },
    });
    expect(document.components.errors.NotFound).toEqual({ code: 404, message: "No such pet" });
  });

  it("returns a document without references to other files as it is", async () => {
    const file = path.join(tmp, "local.json");
    const local = { openrpc: "1.3.2", info: { title: "L", version: "1" }, methods: [], components: { schemas: { A: { $ref: "#/components/schemas/B" }, B: { type: "string" } } } };
    await writeFile(file, JSON.stringify(local));
    expect(await bundleDocument(file)).toEqual(local);
  });

  it("refuses a reference to a missing file, a missing pointer, and a URL, naming it", async () => {
    const refusing = async (ref: string) => {
      const file = path.join(tmp, `refuses-${Math.random().toString(36).slice(2)}.json`);
      await writeFile(file, JSON.stringify({ openrpc: "1.3.2", info: { title: "R", version: "1" }, methods: [{ name: "m", params: [], result: { name: "r", schema: { $ref: ref } } }] }));
      return bundleDocument(file).then(
        () => "bundled",
        (error: Error) => (error instanceof DocumentError ? error.message : `not a DocumentError: ${error.message}`),
      );
    };
    expect(await refusing("./nowhere.json")).toMatch(/^cannot bundle .*: .*nowhere\.json/);
    expect(await refusing("./split/errors.json#/missing")).toMatch(/^cannot bundle .*missing/);
    expect(await refusing("https://example.org/schemas/pet.json")).toMatch(/^cannot bundle .*URLs are not fetched/);
  });
});

describe("neutral-openrpc with a split document", () => {
  it("generate without --bundle refuses it, saying how to bundle", async () => {
    const result = await runCli(["generate", "--spec", api, "--out", path.join(tmp, "unbundled"), "--server"], tmp);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("bundle the document first (neutral-openrpc bundle FILE --out bundled.json, or --bundle with generate and create)");
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it("bundle FILE --out OUT writes one valid document; generating from it equals generate --bundle", async () => {
    const bundled = path.join(tmp, "bundled.json");
    const result = await runCli(["bundle", api, "--out", bundled], tmp);
    expect(result.code, describeRun("bundle", result)).toBe(0);
    expect(result.stdout).toContain("Bundled");
    const document = JSON.parse(await readFile(bundled, "utf8")) as unknown;
    expect(document).toEqual(await bundleDocument(api));

    const fromFile = await runCli(["generate", "--spec", bundled, "--out", path.join(tmp, "from-file"), "--server"], tmp);
    expect(fromFile.code, describeRun("generate", fromFile)).toBe(0);
    const withFlag = await runCli(["generate", "--spec", api, "--out", path.join(tmp, "with-flag"), "--server", "--bundle"], tmp);
    expect(withFlag.code, describeRun("generate --bundle", withFlag)).toBe(0);
    const types = await readFile(path.join(tmp, "with-flag", "server", "types.ts"), "utf8");
    expect(types).toMatch(/export interface Pet \{/);
    // The generated code is the same but for the header naming the spec's file.
    const files = (await readdir(path.join(tmp, "with-flag", "server"))).sort();
    expect((await readdir(path.join(tmp, "from-file", "server"))).sort()).toEqual(files);
    for (const file of files) {
      const strip = (text: string) => text.replace(/Source: [^\s]+/g, "Source: SPEC");
      expect(strip(await readFile(path.join(tmp, "with-flag", "server", file), "utf8")), file).toBe(strip(await readFile(path.join(tmp, "from-file", "server", file), "utf8")));
    }
  });

  it("bundle refuses --out naming the input, and a missing --out", async () => {
    expect((await runCli(["bundle", api, "--out", api], tmp)).code).toBe(2);
    expect((await runCli(["bundle", api], tmp)).code).toBe(2);
  });

  it("create --bundle scaffolds a project whose openrpc.json is the bundled document, and whose check passes", async () => {
    const dir = path.join(tmp, "split-server");
    const created = await runCli(["create", dir, "--spec", api, "--bundle"], tmp);
    expect(created.code, describeRun("create --bundle", created)).toBe(0);
    const spec = JSON.parse(await readFile(path.join(dir, "openrpc.json"), "utf8")) as unknown;
    expect(hasExternalRefs(spec)).toBe(false);
    expect(spec).toEqual(await bundleDocument(api));
    const check = await runCli(["generate", "--config", path.join(dir, "neutral-openrpc.json"), "--check"], dir);
    expect(check.code, describeRun("generate --check", check)).toBe(0);
  });
});
