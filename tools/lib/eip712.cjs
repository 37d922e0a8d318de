// Reads the `x-eip712` extension of an OpenRPC document: the EIP-712 domain and the typed-data types
// a party signs. Documented in tools/README.md; packages/protocol gets it generated.
"use strict";

const VALUE_TYPES = {
  address: "Hex",
  bytes: "Hex",
  bytes32: "Hex",
  string: "string",
  uint32: "number",
  uint64: "number",
  // Arrays of a value type: encoded as EIP-712 says (keccak256 of the elements' encodings, concatenated).
  "uint64[]": "readonly number[]",
  "bytes32[]": "readonly Hex[]",
};

/** The extension, checked, or null when the document has none. */
function readEip712(document) {
  const ext = document["x-eip712"];
  if (ext === undefined) return null;
  const fail = (why) => {
    throw new Error(`x-eip712: ${why}`);
  };
  if (!ext || typeof ext !== "object") fail("must be an object");
  const domain = ext.domain;
  if (!domain || typeof domain.name !== "string" || typeof domain.version !== "string") fail("domain needs a string name and version");
  for (const key of Object.keys(domain)) if (key !== "name" && key !== "version") fail(`domain.${key} is not supported (only name and version)`);
  const types = Object.entries(ext.types ?? {}).map(([name, type]) => {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) fail(`type name ${JSON.stringify(name)} must be an identifier starting with a capital`);
    if (!Array.isArray(type.fields) || type.fields.length === 0) fail(`${name}.fields must be a non-empty array`);
    const fields = type.fields.map((field) => {
      if (!/^[a-z][A-Za-z0-9]*$/.test(field.name ?? "")) fail(`${name}: field name ${JSON.stringify(field.name)} must be an identifier`);
      if (!(field.type in VALUE_TYPES)) fail(`${name}.${field.name}: type ${JSON.stringify(field.type)} is not one of ${Object.keys(VALUE_TYPES).join(", ")}`);
      if (field.enum !== undefined && (!Array.isArray(field.enum) || field.type !== "string")) fail(`${name}.${field.name}: enum is for string fields, as a list`);
      return { name: field.name, type: field.type, enum: field.enum, valueType: field.enum ? field.enum.map((v) => JSON.stringify(v)).join(" | ") : VALUE_TYPES[field.type] };
    });
    return { name, description: type.description ?? "", fields, encodeType: `${name}(${fields.map((f) => `${f.type} ${f.name}`).join(",")})` };
  });
  if (types.length === 0) fail("types must name at least one type");
  return { description: ext.description ?? "", domain: { name: domain.name, version: domain.version }, types };
}

module.exports = { readEip712, VALUE_TYPES };
