// A small hand-written service for the runtime's generic tests (test support: never built nor
// shipped): a document whose param schemas keep their `$ref`s, with refs between component
// schemas, a recursive schema, and what third-party documents hold that Ajv's strict mode refuses
// (`x-…` extensions, `example`, `deprecated`, `discriminator`, formats Ajv does not know).
import type { ServiceDefinition } from "../src/descriptor.js";

export const petDocument = {
  $schema: "https://meta.open-rpc.org/",
  openrpc: "1.3.2",
  info: { title: "pets", version: "1.0.0", "x-logo": { url: "https://example.com/logo.png" } },
  methods: [
    { name: "pets_add", params: [{ name: "pet", required: true, schema: { $ref: "#/components/schemas/Pet" } }], result: { name: "pet", schema: { $ref: "#/components/schemas/Pet" } } },
    { name: "trees_sum", params: [{ name: "tree", required: true, schema: { $ref: "#/components/schemas/Tree" } }], result: { name: "sum", schema: { type: "integer" } } },
    { name: "pets_find", params: [{ name: "filter", schema: { $ref: "#/components/schemas/Filter" } }], result: { name: "pets", schema: { type: "array", items: { $ref: "#/components/schemas/Pet" } } } },
    // No result (OpenRPC 1.3): a notification.
    { name: "pets_log", params: [{ name: "line", required: true, schema: { type: "string" } }] },
  ],
  components: {
    schemas: {
      Name: { type: "string", pattern: "^[a-z]+$", "x-go-type": "string", example: "rex" },
      Tag: {
        type: "object",
        required: ["label"],
        additionalProperties: false,
        properties: { label: { $ref: "#/components/schemas/Name" }, color: { type: "string", format: "css-color" } },
      },
      Pet: {
        type: "object",
        required: ["name", "kind"],
        additionalProperties: false,
        discriminator: { propertyName: "kind" },
        "x-internal": { owner: "team-pets", $ref: "not a ref" },
        properties: {
          id: { type: "string", format: "uuid", readOnly: true },
          name: { $ref: "#/components/schemas/Name" },
          kind: { type: "string", enum: ["dog", "cat"] },
          born: { type: "string", format: "date-time", deprecated: true, examples: ["2020-01-01T00:00:00Z"] },
          tag: { $ref: "#/components/schemas/Tag" },
          nickname: { type: "string", nullable: true, example: "Rexy" },
        },
      },
      Tree: {
        type: "object",
        required: ["value"],
        additionalProperties: false,
        properties: {
          value: { type: "integer" },
          children: { type: "array", items: { $ref: "#/components/schemas/Tree" } },
        },
      },
      Filter: {
        type: "object",
        additionalProperties: false,
        properties: {
          // A member named like the keyword: its schema is a ref like any other.
          $ref: { $ref: "#/components/schemas/Name" },
          // Data that looks like a ref stays data.
          marker: { enum: [{ $ref: "#/components/schemas/Name" }, "none"] },
          either: { anyOf: [{ $ref: "#/components/schemas/Tag" }, { type: "integer", minimum: 0 }] },
        },
      },
    },
    examples: { weird: { value: { $id: "#not-a-schema", $ref: "#/nowhere" } } },
  },
} as const;

export const petMethods = {
  pets_add: {
    paramStructure: "either",
    requiresAuth: false,
    wrapResult: false,
    params: [{ name: "pet", required: true, schema: { $ref: "#/components/schemas/Pet" } }],
  },
  trees_sum: {
    paramStructure: "either",
    requiresAuth: false,
    wrapResult: false,
    params: [{ name: "tree", required: true, schema: { $ref: "#/components/schemas/Tree" } }],
  },
  pets_find: {
    paramStructure: "by-name",
    requiresAuth: false,
    wrapResult: false,
    params: [{ name: "filter", required: false, default: {}, schema: { $ref: "#/components/schemas/Filter" } }],
  },
  pets_log: {
    paramStructure: "either",
    requiresAuth: false,
    wrapResult: false,
    notification: true,
    params: [{ name: "line", required: true, schema: { type: "string" } }],
  },
} as const;

/** The pets service, as a generated stub would export it. */
export const petService = { methods: petMethods, document: petDocument } satisfies ServiceDefinition;

export interface Tree {
  value: number;
  children?: Tree[];
}

export const sumTree = (tree: Tree): number => tree.value + (tree.children ?? []).reduce((sum, child) => sum + sumTree(child), 0);
