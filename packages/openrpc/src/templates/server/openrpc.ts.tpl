// <%= header %>
//
// The OpenRPC document, as written (references kept), for rpc.discover and GET /openrpc.json.
export const openrpcDocument = <%= JSON.stringify(document, null, 2) %> as const;
