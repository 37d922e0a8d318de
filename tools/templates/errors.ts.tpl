// <%= header %>
//
// The application errors of <%= model.title %> (components.errors), by name.
<% var errs = (openrpcDocument.components && openrpcDocument.components.errors) || {}; %>
export const errors = {
<% Object.keys(errs).forEach(function (name) { var e = errs[name]; %>  /** <%= e.message %> */
  <%= name %>: { code: <%= e.code %>, message: <%= json(e.message) %> },
<% }); %>} as const;

export type ErrorName = keyof typeof errors;
