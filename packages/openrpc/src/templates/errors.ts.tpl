// <%= header %>
//
// The application errors of <%= model.title %> (components.errors), by name.

export const errors = {
<% model.errors.forEach(function (e) { %>  /** <%= String(e.message).replace(/\*\//g, "*\\/") %> */
  <%= ts.propertyKey(e.key) %>: { code: <%= e.code %>, message: <%= json(e.message) %> },
<% }); %>} as const;

export type ErrorName = keyof typeof errors;
