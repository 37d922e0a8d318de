// <%= header %>
//
// The handlers a <%= model.title %> server implements: one typed function per method. The
// dispatcher validates and normalizes params before calling them (defaults filled in, by-position
// or by-name alike)<%= model.unwrapSingleItemResults ? " and wraps results in the one-element array the wire carries" : "" %>. A result may
// also be returned pre-serialized, as `rawJson(text)`.<% if (model.methods.some(function (m) { return m.subscription; })) { %> A method with `x-subscription` answers an
// event stream instead: an async iterable of its notifications, which the HTTP glue sends as
// Server-Sent Events while the client reads them (context.signal aborts when it goes away).<% } %>
<% var streams = model.methods.some(function (m) { return m.subscription; });
   var auth = model.methods.some(function (m) { return m.requiresAuth; });
   var runtimeTypes = (auth ? ["Authenticated"] : []).concat(["RequestContext"], streams ? ["EventStream", "StreamContext"] : [], model.methods.some(function (m) { return !m.subscription; }) ? ["Reply"] : []);
%>import type { <%= runtimeTypes.join(", ") %> } from <%= json(target.runtime) %>;
import type * as T from "./types.js";

export interface Handlers<Ctx extends RequestContext = RequestContext> {
<% model.methods.forEach(function (m) {
  var doc = [m.summary, m.requiresAuth ? "Called only with an authenticated context." : "", m.notification ? "A notification: whatever it returns is not sent." : "", m.deprecated ? "@deprecated" : ""].filter(Boolean).join("\n\n");
  var ctx = m.requiresAuth ? "Authenticated<Ctx>" : "Ctx";
%><%= ts.docComment(doc, "  ") %><% if (m.subscription) { %>  <%= ts.propertyKey(m.name) %>(args: T.<%= m.typeBase %>Args, context: StreamContext<<%= ctx %>>): EventStream<T.<%= m.typeBase %>Notification> | Promise<EventStream<T.<%= m.typeBase %>Notification>>;
<% } else { %>  <%= ts.propertyKey(m.name) %>(args: T.<%= m.typeBase %>Args, context: <%= ctx %>): Reply<T.<%= m.typeBase %>Result>;
<% } %><% }); %>}
