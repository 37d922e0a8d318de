// <%= header %>
//
// The param validators of every method, compiled from openrpc.json by Ajv at generation time
// (standalone code): the runtime uses them instead of compiling the schemas when a server starts.
// @ts-nocheck
<%= validatorsCode %>
