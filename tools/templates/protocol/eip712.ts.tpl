// <%= header %>
//
// The EIP-712 typed data of <%= model.title %>: the document's `x-eip712` extension.
<% var eip = eip712(openrpcDocument); if (!eip) throw new Error("the document has no x-eip712 extension"); %>
/** A 0x-prefixed hex string. */
export type Hex = `0x<%= "${" %>string}`;

/** The EIP-712 domain of every signature: no chainId, no verifyingContract. */
export const EIP712_DOMAIN = { name: <%= json(eip.domain.name) %>, version: <%= json(eip.domain.version) %> } as const;

/** The `EIP712Domain` type that `eth_signTypedData_v4` wants listed with the others. */
export const EIP712_DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
] as const;

/** Every primary type, with its fields in signing order. */
export const EIP712_TYPES = {
<% eip.types.forEach(function (t) { %>  /** <%= t.description %> `<%= t.encodeType %>` */
  <%= t.name %>: [
<% t.fields.forEach(function (f) { %>    { name: <%= json(f.name) %>, type: <%= json(f.type) %> },
<% }); %>  ],
<% }); %>} as const;

/** The field values of each primary type, as JSON-friendly values (uints as numbers, bytes as 0x hex). */
export interface TypedValues {
<% eip.types.forEach(function (t) { %>  <%= t.name %>: { <%= t.fields.map(function (f) { return f.name + ": " + f.valueType; }).join("; ") %> };
<% }); %>}

export type PrimaryType = keyof typeof EIP712_TYPES;
