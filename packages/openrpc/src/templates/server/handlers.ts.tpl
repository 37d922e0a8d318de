// <%= header %>
//
// The handlers a <%= model.title %> server implements: one typed function per method. The
// dispatcher validates and normalizes params before calling them (defaults filled in, by-position
// or by-name alike)<%= model.unwrapSingleItemResults ? " and wraps results in the one-element array the wire carries" : "" %>. A result may
// also be returned pre-serialized, as `rawJson(text)`.<% var view = views.handlersView(model); if (view.streams) { %> A method with `x-subscription` answers an
// event stream instead: an async iterable of its notifications, which the HTTP glue sends as
// Server-Sent Events while the client reads them (context.signal aborts when it goes away).<% } %>
import type { <%= view.typeImports.join(", ") %> } from <%= json(target.runtime) %>;
import type * as T from "./types.js";

export interface Handlers<Ctx extends RequestContext = RequestContext> {
<% view.methods.forEach(function (h) { %><%= ts.docComment(h.doc, "  ") %>  <%= h.key %><%= h.signature %>;
<% }); %>}
