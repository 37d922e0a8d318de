// <%= header %>
//
// The handlers a <%= model.title %> server implements: one typed function per method. The
// dispatcher validates and normalizes params before calling them (defaults filled in, by-position
// or by-name alike) and wraps results in the one-element array the wire carries. A result may
// also be returned pre-serialized, as `rawJson(text)`.
import type { Authenticated, RequestContext } from "../context.js";
import type { Reply } from "../raw-json.js";
import type * as T from "./types.js";

export interface Handlers<Ctx extends RequestContext = RequestContext> {
<% model.methods.forEach(function (m) {
  var doc = [m.summary, m.requiresAuth ? "Called only with an authenticated context." : ""].filter(Boolean).join("\n\n");
%><%= ts.docComment(doc, "  ") %>  <%= m.name %>(args: T.<%= m.typeBase %>Args, context: <%= m.requiresAuth ? "Authenticated<Ctx>" : "Ctx" %>): Reply<T.<%= m.typeBase %>Result>;
<% }); %>}
