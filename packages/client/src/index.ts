export * from "./generated/methods.js";
export type * from "./generated/types.js";
export {
  createRpcClient,
  positionalParams,
  RpcError,
  RpcTransportError,
  type CallOptions,
  type ResultOf,
  type RpcClient,
  type RpcClientOptions,
  type RpcRequest,
  type Settled,
} from "./rpc.js";
