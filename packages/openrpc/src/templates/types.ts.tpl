// <%= header %>
//
// Types of <%= model.title %> <%= model.version %>: one per component schema, and the params and
// result of each method.
<% model.schemas.forEach(function (s) { %>
<%= ts.declareSchema(s.typeName, s.schema, model.types) %><% }); %>
<% model.methods.forEach(function (m) { %>
/** Params of `<%= m.name %>`<%= view === "server" ? ", with defaults filled in" : "" %>. */
export type <%= m.typeBase %><%= view === "server" ? "Args" : "Params" %> = <%= ts.paramsType(m, model.types, { resolved: view === "server" }) %>;

/** What `<%= m.name %>` returns<%= m.result && m.result.wrapped ? " (the payload inside the one-element result array)" : m.notification ? ": nothing (a notification, sent without an id)" : "" %>. */
export type <%= m.typeBase %>Result = <%= m.subscription ? "never" : m.result ? ts.tsType(m.result.payload, model.types) : "void" %>;
<% if (m.subscription) { %>
/** The events of `<%= m.name %>`'s stream (`x-subscription`): one JSON-RPC notification each. */
export type <%= m.typeBase %>Notification = <%= m.subscription.notifications.map(function (n) { return n.typeBase; }).join(" | ") %>;
<% m.subscription.notifications.forEach(function (n) { %>
<%= ts.docComment([n.summary, n.description, n.eventId ? "Its SSE event id (the resume cursor) is `params" + n.eventId.replace(/\//g, ".") + "`." : ""].filter(Boolean).join("\n\n")) %>export interface <%= n.typeBase %> {
  method: <%= JSON.stringify(n.name) %>;
  params: <%= ts.paramsType(n, model.types, { resolved: true }).split("\n").join("\n  ") %>;
}
<% }); } %><% }); %>
