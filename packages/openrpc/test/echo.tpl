<%= JSON.stringify({ target: target, methods: model.methods.map(function (m) { return m.fn; }), header: header }) %>
