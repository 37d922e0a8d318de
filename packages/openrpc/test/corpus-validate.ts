// JSON Schema validation against one OpenRPC document (ajv, draft-07, not strict): a schema's
// `#/components/…` refs resolve in the document's components, as the dispatcher resolves them.
import { Ajv, type ValidateFunction } from "ajv";

/** Formats the corpus uses, checked loosely (ajv-formats is not a dependency). Unknown formats are ignored. */
const FORMATS: Record<string, RegExp> = {
  uri: /^[a-z][a-z0-9+.-]*:\S*$/i,
  "date-time": /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  email: /^[^\s@]+@[^\s@]+$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

export interface DocumentValidator {
  /** Whether `value` is valid against `schema` (a schema of the document, `$ref`s as written). */
  valid(schema: unknown, value: unknown): boolean;
  /** The first errors of the last failed `valid`, as text. */
  errors(schema: unknown, value: unknown): string;
}

export function documentValidator(document: { components?: Record<string, unknown> }): DocumentValidator {
  const ajv = new Ajv({ strict: false, allErrors: true, allowUnionTypes: true, logger: false });
  for (const [name, regex] of Object.entries(FORMATS)) ajv.addFormat(name, regex);
  const components = document.components ?? {};
  // Only the members that hold schemas (examples and errors hold data, not schemas).
  const schemaComponents = Object.fromEntries(["schemas", "contentDescriptors"].filter((k) => components[k]).map((k) => [k, components[k]]));
  const compiled = new Map<string, ValidateFunction>();
  let next = 0;
  const compile = (schema: unknown): ValidateFunction => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      // The schema inside a copy of the components, so its `#/components/…` refs resolve there.
      validate = ajv.compile({ $id: `urn:corpus:schema:${next++}`, components: schemaComponents, allOf: [schema] });
      compiled.set(key, validate);
    }
    return validate;
  };
  return {
    valid: (schema, value) => (typeof schema === "boolean" ? schema : compile(schema)(value) as boolean),
    errors(schema, value) {
      if (typeof schema === "boolean") return schema ? "" : "schema false";
      const validate = compile(schema);
      if (validate(value)) return "";
      return (validate.errors ?? [])
        .slice(0, 3)
        .map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`)
        .join("; ");
    },
  };
}
