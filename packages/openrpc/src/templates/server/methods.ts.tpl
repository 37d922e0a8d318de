// <%= header %>
//
// What the dispatcher needs to know of each method: param order, defaults, whether it needs a
// token, whether its result is wrapped, and each param's JSON Schema as written (its `$ref`s
// resolve against the document, openrpc.ts) for validation.
import type { MethodDescriptor } from <%= json(target.runtime) %>;

export const methodDescriptors = {
<% model.methods.forEach(function (m) { %>  <%= json(m.name) %>: {
    paramStructure: <%= json(m.paramStructure) %>,
    requiresAuth: <%= m.requiresAuth %>,
    wrapResult: <%= m.result ? m.result.wrapped : false %>,<% if (m.notification) { %>
    notification: true,<% } %><% if (m.subscription) { %>
    stream: true,<% } %>
    params: [
<% m.params.forEach(function (p) { %>      {
        name: <%= json(p.name) %>,
        required: <%= p.required %>,<% if (p.hasDefault) { %>
        default: <%= json(p.default) %>,<% } %>
        schema: <%= JSON.stringify(p.schema, null, 2).split("\n").join("\n        ") %>,
      },
<% }); %>    ],
  },
<% }); %>} as const satisfies Record<string, MethodDescriptor>;

export type MethodName = keyof typeof methodDescriptors;
