// <%= header %>
//
// Types of <%= model.title %> <%= model.version %>: one per component schema, and the params and
// result of each method.
<% model.schemas.forEach(function (s) { %>
<%= ts.declareSchema(s.name, s.schema, model.schemaNames) %><% }); %>
<% model.methods.forEach(function (m) { %>
/** Params of `<%= m.name %>`<%= view === "server" ? ", with defaults filled in" : "" %>. */
export type <%= m.typeBase %><%= view === "server" ? "Args" : "Params" %> = <%= ts.paramsType(m, model.schemaNames, { resolved: view === "server" }) %>;

/** What `<%= m.name %>` returns<%= m.result && m.result.wrapped ? " (the payload inside the one-element result array)" : "" %>. */
export type <%= m.typeBase %>Result = <%= m.result ? ts.tsType(m.result.payload, model.schemaNames) : "void" %>;
<% }); %>
