// <%= header %>
//
// The handlers a <%= model.title %> server implements: one typed function per method. The
// dispatcher validates and normalizes params before calling them (defaults filled in, by-position
// or by-name alike) and wraps results in the one-element array the wire carries. A result may
// also be returned pre-serialized, as `rawJson(text)`. A method with `x-subscription` answers an
// event stream instead: an async iterable of its notifications, which the HTTP glue sends as
// Server-Sent Events while the client reads them (context.signal aborts when it goes away).
import type { Authenticated, RequestContext } from "../context.js";
<% if (model.methods.some(function (m) { return m.subscription; })) { %>import type { EventStream, StreamContext } from "../stream.js";
<% } %>import type { Reply } from "../raw-json.js";
import type * as T from "./types.js";

export interface Handlers<Ctx extends RequestContext = RequestContext> {
<% model.methods.forEach(function (m) {
  var doc = [m.summary, m.requiresAuth ? "Called only with an authenticated context." : ""].filter(Boolean).join("\n\n");
  var ctx = m.requiresAuth ? "Authenticated<Ctx>" : "Ctx";
%><%= ts.docComment(doc, "  ") %><% if (m.subscription) { %>  <%= m.name %>(args: T.<%= m.typeBase %>Args, context: StreamContext<<%= ctx %>>): EventStream<T.<%= m.typeBase %>Notification> | Promise<EventStream<T.<%= m.typeBase %>Notification>>;
<% } else { %>  <%= m.name %>(args: T.<%= m.typeBase %>Args, context: <%= ctx %>): Reply<T.<%= m.typeBase %>Result>;
<% } %><% }); %>}
