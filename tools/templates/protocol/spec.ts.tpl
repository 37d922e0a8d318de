// <%= header %>
//
// Facts of <%= model.title %> that the generated types cannot carry as types.
<% var limit = (openrpcDocument.components && openrpcDocument.components.schemas && openrpcDocument.components.schemas.Limit) || {}; %>
/** `info.version` of the OpenRPC document. */
export const SPEC_VERSION = <%= json(model.version) %>;

/** The largest page a method's `limit` may ask for (the `Limit` schema's `maximum`). */
export const MAX_PAGE_LIMIT = <%= limit.maximum === undefined ? "Number.MAX_SAFE_INTEGER" : limit.maximum %>;

/** The page size when `limit` is left out (the `Limit` schema's `default`). */
export const DEFAULT_PAGE_LIMIT = <%= limit.default === undefined ? "undefined" : limit.default %>;
<% var messageId = (openrpcDocument.components && openrpcDocument.components.schemas && openrpcDocument.components.schemas.MessageId) || {}; if (messageId.pattern) { %>
/** A well-formed message id (the `MessageId` schema's `pattern`): for ids that arrive outside params, e.g. the `Last-Event-ID` header. */
export const MESSAGE_ID_PATTERN = new RegExp(<%= json(messageId.pattern) %>);
<% } %>
<% var logPage = (openrpcDocument.components && openrpcDocument.components.schemas && openrpcDocument.components.schemas.LogPage) || {}; var prior = (logPage.properties && logPage.properties.prior) || {}; if (prior.maxItems !== undefined) { %>
/** The most former homes' heads a node keeps for one account (the `LogPage` schema's `prior.maxItems`). */
export const MAX_PRIOR_HEADS = <%= prior.maxItems %>;
<% } %>
