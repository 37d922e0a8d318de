<%
  // `site: true` (a docs target option): the page is the core of a docs site whose build puts
  // style.css, favicon.svg, theme.js and try-it.js beside it (and guides at its markers), so it
  // links them and carries a Try it form per method. Otherwise the page stands alone: its stylesheet
  // inline, no scripts, nothing else to load.
  var site = target.site === true;
  var doc = openrpcDocument;
  var names = model.schemaNames;
  var errorsByName = (doc.components && doc.components.errors) || {};
  var errorNames = Object.keys(errorsByName);
  var errorNameByCode = {};
  errorNames.forEach(function (n) { errorNameByCode[errorsByName[n].code] = n; });
  var overview = html.outline(model.description, { idPrefix: "overview-" });
  // A document without a description gets no Overview.
  var hasOverview = site || Boolean(String(model.description).trim());
  var section = function (id) { return overview.filter(function (h) { return h.id === id; })[0]; };
  var authSection = section("overview-authentication");
  var fedSection = section("overview-federation");
  var errorsSection = section("overview-errors");
  var structures = { "either": "by position or by name", "by-position": "by position only", "by-name": "by name only" };
  var returnedBy = {};
  model.methods.forEach(function (m) {
    m.errors.forEach(function (e) { (returnedBy[e.code] = returnedBy[e.code] || []).push(m.name); });
  });
  var methodLink = function (name) { return '<a href="#method-' + html.attr(name) + '"><code>' + html.esc(name) + '</code></a>'; };
  var components = new Map(model.schemas.map(function (s) { return [s.name, s.schema]; }));
  var notificationLink = function (name) { return '<a href="#notification-' + html.attr(name) + '"><code>' + html.esc(name) + '</code></a>'; };
  var errorCode = function (e) {
    var n = errorNameByCode[e.code];
    return n ? '<a href="#error-' + html.attr(n) + '"><code>' + html.esc(e.code) + '</code></a>' : html.code(e.code);
  };
%><!-- <%= header %> -->
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title><%= html.esc(model.title) %> <%= html.esc(model.version) %> — API reference</title>
<% if (site) { %><link rel="stylesheet" href="style.css">
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<script src="theme.js"></script>
<script src="try-it.js" defer></script>
<% } else { %><style>
<%= html.standaloneStyle() %>
</style>
<% } %></head>
<body>
<header class="masthead">
<% if (site) { %><button type="button" id="theme-toggle" class="theme-toggle" hidden>Theme: auto</button>
<% } %><h1><%= html.esc(model.title) %> <span class="version"><%= html.esc(model.version) %></span></h1>
<% var license = html.licenseHtml(doc.info.license); %><p class="meta">JSON-RPC 2.0 API reference · OpenRPC <%= html.esc(doc.openrpc) %><% if (license) { %> · License <%= license %><% } %></p>
<% if (doc.servers && doc.servers.length) { %><p class="meta">Servers: <%= doc.servers.map(function (s) { return (s.name ? html.esc(s.name) + " " : "") + html.code(s.url); }).join(", ") %></p>
<% } %></header>
<div class="layout">
<nav class="toc" aria-label="Contents">
<h2>Contents</h2>
<% if (site) { %><div class="search" id="search-box" hidden>
<label for="search">Search methods and schemas</label>
<input id="search" type="search" placeholder="Search…" autocomplete="off" spellcheck="false" aria-controls="search-results">
<ul id="search-results" aria-live="polite"></ul>
</div>
<% } %><ul>
<% if (hasOverview) { %><li><a href="#overview">Overview</a>
<% if (overview.length || site) { %><ul>
<% overview.forEach(function (h) { %><li><a href="#<%= html.attr(h.id) %>"><%= html.inline(h.text.replace(/\s*\([^)]*\)/g, "")) %></a></li>
<% }); %></ul>
<% } %></li>
<% } %><!-- docs:guide-nav -->
<li><a href="#methods">Methods</a>
<ul>
<% model.methods.forEach(function (m) { %><li><a href="#method-<%= html.attr(m.name) %>"><code><%= html.esc(m.name) %></code></a></li>
<% }); %></ul>
</li>
<li><a href="#schemas">Schemas</a>
<ul>
<% model.schemas.forEach(function (s) { %><li><a href="#schema-<%= html.attr(s.name) %>"><code><%= html.esc(s.name) %></code></a></li>
<% }); %></ul>
</li>
<li><a href="#error-codes">Error codes</a></li>
</ul>
</nav>
<main>
<% if (hasOverview) { %><section id="overview">
<h2>Overview</h2>
<%= html.markdown(model.description, { headingShift: 1, idPrefix: "overview-" }) %>
</section>
<% } %>
<!-- docs:guide -->

<section id="methods">
<h2>Methods</h2>
<% model.methods.forEach(function (m) { %>
<article class="method" id="method-<%= html.attr(m.name) %>">
<h3><a class="anchor" href="#method-<%= html.attr(m.name) %>"><code><%= html.esc(m.name) %></code></a></h3>
<% var badges = [];
  // Token badges only for a document that says which methods need one (x-requires-auth).
  if (m.nodeToNode) badges.push(fedSection ? '<a class="badge auth" href="#' + html.attr(fedSection.id) + '" title="Authorization: NeutralNode signature of a peer node">node to node</a>' : '<span class="badge auth">node to node</span>');
  else if (m.requiresAuth) badges.push(authSection ? '<a class="badge auth" href="#' + html.attr(authSection.id) + '" title="Authorization: Bearer token">needs token</a>' : '<span class="badge auth">needs token</span>');
  else if (model.usesAuth) badges.push('<span class="badge open">no token</span>');
  if (m.subscription) badges.push('<a class="badge stream" href="#method-' + html.attr(m.name) + '-events" title="Answered as Server-Sent Events (Accept: text/event-stream)">event stream</a>');
  if (m.notification) badges.push('<span class="badge">notification</span>');
  badges.push('<span class="badge">params ' + html.esc(structures[m.paramStructure] || m.paramStructure) + '</span>');
  m.tags.forEach(function (t) { badges.push('<span class="badge tag">' + html.esc(t) + '</span>'); });
  if (m.deprecated) badges.push('<span class="badge deprecated">deprecated</span>');
%><p class="badges"><%= badges.join(" ") %></p>
<% if (m.summary) { %><p class="summary"><%= html.inline(m.summary) %></p>
<% } %><%= html.markdown(m.description, { headingShift: 3 }) %>
<h4>Params</h4>
<% if (m.params.length) { %><%= html.paramsTable(m.params, names) %>
<% } else { %><p>None.</p>
<% } %><h4>Result</h4>
<% if (m.subscription) { var events = m.subscription.notifications.map(function (n) {
  return Object.assign({}, n, { params: n.params.map(function (p) { return Object.assign({}, p, { schema: html.resolveRefs(p.schema, components) }); }) });
}); %><p>Answered as an <strong>event stream</strong>, not one JSON response: send the request with <code>Accept: text/event-stream</code>. The answer is <code>200 text/event-stream</code> (Server-Sent Events) carrying the <a href="#method-<%= html.attr(m.name) %>-events">events</a> below, with comment lines (<code>: …</code>) while it is idle. Errors before the stream starts are ordinary JSON-RPC error responses.</p>
<% if (m.result && m.result.description) { %><p><code><%= html.esc(m.result.name) %></code>: <%= html.inline(m.result.description) %></p>
<% } %><h4 id="method-<%= html.attr(m.name) %>-events">Events</h4>
<%= html.markdown(m.subscription.description, { headingShift: 4 }) %>
<%= html.table(["notification", "SSE id", "summary"], events.map(function (n) { return [notificationLink(n.name), n.eventId ? html.code(html.eventIdPath(n.eventId)) : "none", html.inline(n.summary)]; }), "events") %>
<% events.forEach(function (n) { %><div class="notification" id="notification-<%= html.attr(n.name) %>">
<h5><a class="anchor" href="#notification-<%= html.attr(n.name) %>"><code><%= html.esc(n.name) %></code></a></h5>
<% if (n.summary) { %><p class="notification-summary"><%= html.inline(n.summary) %></p>
<% } %><% if (n.description) { %><%= html.markdown(n.description, { headingShift: 5 }) %>
<% } %><p class="meta"><% if (n.eventId) { %>Carries the SSE <code>id</code>: its value is <code><%= html.esc(html.eventIdPath(n.eventId)) %></code> (<code>eventId</code> <code><%= html.esc(n.eventId) %></code>), the cursor a resuming client sends back as <code>Last-Event-ID</code>.<% } else { %>No SSE <code>id</code>.<% } %></p>
<p class="label">Params</p>
<% if (n.params.length) { %><%= html.eventParamsTable(n.params, names) %>
<% } else { %><p>None.</p>
<% } %></div>
<% }); %><% } else if (m.result) { %><p><code><%= html.esc(m.result.name) %></code><% if (m.result.description) { %>: <%= html.inline(m.result.description) %><% } %></p>
<p class="meta">Type: <%= m.result.wrapped ? "array holding exactly one " + html.groupedTypeHtml(m.result.payload, names) + " (typed clients unwrap it)" : html.typeHtml(m.result.schema, names) %></p>
<% if (!html.schemaLink(m.result.payload, names)) { %><%= html.schemaBodyHtml(m.result.payload, names) %>
<% } %><% } else { %><p>None (notification).</p>
<% } %><h4>Errors</h4>
<% if (m.errors.length) { %><%= html.table(["code", "message"], m.errors.map(function (e) { return [errorCode(e), html.esc(e.message)]; }), "errors") %>
<% } else { %><p>Only the protocol errors listed under <a href="#error-codes">Error codes</a>.</p>
<% } %><% if (m.examples.length) { %><h4>Examples</h4>
<% m.examples.forEach(function (ex) { %><div class="example">
<h5><%= html.esc(ex.name || "Example") %></h5>
<% if (ex.summary) { %><p><%= html.inline(ex.summary) %></p>
<% } %><% if (ex.description) { %><p><%= html.inline(ex.description) %></p>
<% } %><% var gaps = html.nullFilled(m, ex); if (gaps.length) { %><p class="note">By position, the absent <%= gaps.map(html.code).join(", ") %> <%= gaps.length > 1 ? "are" : "is" %> sent as <code>null</code>.</p>
<% } %><p class="label">Request</p>
<%= html.jsonBlock(html.exampleRequest(m, ex)) %>
<% if (m.subscription) { %><p class="note">Sent with <code>Accept: text/event-stream</code>.</p>
<p class="label">Response (event stream)</p>
<% if (ex["x-events"] && ex["x-events"].length) { %><pre class="wrap"><code class="sse"><%= html.esc(html.sseText(ex["x-events"])) %></code></pre>
<% } else { %><p>No events listed.</p>
<% } %><% } else if (m.notification) { %><p class="note">A notification (no <code>id</code>): nothing is answered.</p>
<% } else { %><p class="label">Response</p>
<%= html.jsonBlock(html.exampleResponse(ex)) %>
<% } %></div>
<% }); %><% } %><% if (site && !m.nodeToNode) { %><%= html.tryItForm(m, names) %><% } %>
</article>
<% }); %></section>

<section id="schemas">
<h2>Schemas</h2>
<% model.schemas.forEach(function (s) { var c = html.constraintsHtml(s.schema); %>
<article class="schema" id="schema-<%= html.attr(s.name) %>">
<h3><a class="anchor" href="#schema-<%= html.attr(s.name) %>"><code><%= html.esc(s.name) %></code></a></h3>
<% if (s.schema.description) { %><p><%= html.inline(s.schema.description) %></p>
<% } %><p class="meta">Type: <%= html.typeHtml(s.schema, names, s.schema) %><% if (c) { %> · <%= c.split("<br>").join(" · ") %><% } %><% if (Object.prototype.hasOwnProperty.call(s.schema, "default")) { %> · default <%= html.defaultHtml(s.schema) %><% } %></p>
<%= html.schemaBodyHtml(s.schema, names, s.schema) %>
</article>
<% }); %></section>

<section id="error-codes">
<h2>Error codes</h2>
<% if (errorsSection || site) { %><p>The errors the methods declare (<code>components.errors</code>). Protocol errors and their HTTP statuses can come from any call; see <a href="#<%= html.attr(errorsSection ? errorsSection.id : "overview") %>">the overview</a>.</p>
<% } else { %><p><%= errorNames.length ? "The errors the methods declare (<code>components.errors</code>)." : "The document declares no shared errors (<code>components.errors</code>); a method's own are listed with it." %> The JSON-RPC 2.0 protocol errors can come from any call: <code>-32700</code> parse error, <code>-32600</code> invalid request, <code>-32601</code> method not found, <code>-32602</code> invalid params, <code>-32603</code> internal error.</p>
<% } %><% if (errorNames.length || site) { %><%= html.table(["name", "code", "message", "example data", "returned by"], errorNames.map(function (n) {
  var e = errorsByName[n];
  return [
    '<span id="error-' + html.attr(n) + '">' + html.esc(n) + '</span>',
    html.code(e.code),
    html.esc(e.message),
    e.data === undefined ? "" : html.jsonCode(e.data),
    (returnedBy[e.code] || []).map(methodLink).join("<br>"),
  ];
}), "error-table") %>
<% } %></section>
</main>
</div>
<footer>
<% if (site) { %><p>Rendered from <code>openrpc.json</code> by <code>tools/</code> (<code>pnpm generate</code>); the guides, the stylesheet and the try-it script are the docs package's own (<code>packages/docs/src/</code>). Do not edit this file by hand.</p>
<% } else { %><p>Rendered from the OpenRPC document by neutral-openrpc. Do not edit this file by hand: regenerate it.</p>
<% } %></footer>
</body>
</html>
