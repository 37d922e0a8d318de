// generated — do not edit. Source: openrpc.json via tools/ (pnpm generate).
//
// One typed function per method of neutralService. Each `xRequest` builds a request
// descriptor (for `batch`); each `x` sends it through an `RpcClient`.
import { createRpcClient, positionalParams } from "../rpc.js";
import type { CallOptions, RpcClient, RpcClientOptions, RpcRequest } from "../rpc.js";
import type * as T from "./types.js";

/** Request descriptor for `neutralService_getInbox`. */
export function getInboxRequest(params: T.GetInboxParams = {}): RpcRequest<T.GetInboxResult> {
  return {
    method: "neutralService_getInbox",
    params: positionalParams(params, ["inboxFilter", "limit", "after", "before"]),
    unwrap: true,
  };
}

/**
 * Fetch a page of messages from the authenticated user's inbox.
 *
 * The inbox is the messages received by the authenticated user (`inboxFilter.direction` widens it to sent messages or the whole mailbox). `result.address` is the authenticated user.
 *
 * Pagination: with no cursor, or `before` only, the walk goes backwards — the newest messages older than `before`, newest first. With `after` only it goes forwards — the oldest messages newer than `after`, oldest first. With both it goes forwards from `after` and never reaches `before`. `data` is in walk order, so the next page continues from the last element's `id`. `end` is true exactly when no further message exists in the walk's direction within the bounds and filters. Any well-formed id is a valid position, whether or not a message has it.
 *
 * Needs a bearer token (`auth` option).
 */
export function getInbox(client: RpcClient, params: T.GetInboxParams = {}, options?: CallOptions): Promise<T.GetInboxResult> {
  return client.request(getInboxRequest(params), options);
}

/** Request descriptor for `neutralService_getChat`. */
export function getChatRequest(params: T.GetChatParams = {}): RpcRequest<T.GetChatResult> {
  return {
    method: "neutralService_getChat",
    params: positionalParams(params, ["inboxFilter", "limit", "after", "before"]),
    unwrap: true,
  };
}

/**
 * Fetch a page of one chat: the messages between the authenticated user and one peer, both directions.
 *
 * `inboxFilter.chat` names the peer; the chat `id` in the result is that peer's address. Without `chat`, the user's most recently active chat (the one holding the user's highest message id) is read; if the user has no chat at all the call fails with -32602. A chat with oneself is allowed.
 *
 * Pagination (`limit`, `after`, `before`, `end`) works exactly as in `neutralService_getInbox`.
 *
 * Needs a bearer token (`auth` option).
 */
export function getChat(client: RpcClient, params: T.GetChatParams = {}, options?: CallOptions): Promise<T.GetChatResult> {
  return client.request(getChatRequest(params), options);
}

/** Request descriptor for `neutralService_sendMessage`. */
export function sendMessageRequest(params: T.SendMessageParams): RpcRequest<T.SendMessageResult> {
  return {
    method: "neutralService_sendMessage",
    params: positionalParams(params, ["message"]),
    unwrap: true,
  };
}

/**
 * Store a signed, encrypted message for its recipient and return it with its id and both receipts.
 *
 * `message.signature` is the sender's EIP-712 signature over `Message(address from,address to,bytes message,uint64 timestamp)` in the domain `{name: "neutralService", version: "1"}`. The node checks that `message` is non-empty hex (-32602), that the signature recovers `from` (-32003), that `from` is the authenticated user (-32002), that `timestamp` is within the node's clock window (-32004) and the size limits (-32005).
 *
 * Idempotent: resending a message with the same EIP-712 digest returns the stored original; no duplicate is stored. The message is acknowledged only once it is durably stored. The body is ciphertext to the node; it never needs the plaintext.
 *
 * Needs a bearer token (`auth` option).
 */
export function sendMessage(client: RpcClient, params: T.SendMessageParams, options?: CallOptions): Promise<T.SendMessageResult> {
  return client.request(sendMessageRequest(params), options);
}

/** Request descriptor for `neutralService_nodeInfo`. */
export function nodeInfoRequest(): RpcRequest<T.NodeInfoResult> {
  return {
    method: "neutralService_nodeInfo",
    params: [],
    unwrap: true,
  };
}

/**
 * Describe this service node: its address, software, accepted sign-in domains and limits.
 *
 * `address` is the key that signs this node's receipts; clients verify receipts against it. `domains` are the values a sign-in token's `domain` may take.
 *
 * Needs no token.
 */
export function nodeInfo(client: RpcClient, options?: CallOptions): Promise<T.NodeInfoResult> {
  return client.request(nodeInfoRequest(), options);
}

/** A client bound to one node: every method of neutralService, plus the underlying `rpc` for batches. */
export interface NeutralServiceClient {
  readonly rpc: RpcClient;
  /** Fetch a page of messages from the authenticated user's inbox. */
  getInbox(params?: T.GetInboxParams, options?: CallOptions): Promise<T.GetInboxResult>;
  /** Fetch a page of one chat: the messages between the authenticated user and one peer, both directions. */
  getChat(params?: T.GetChatParams, options?: CallOptions): Promise<T.GetChatResult>;
  /** Store a signed, encrypted message for its recipient and return it with its id and both receipts. */
  sendMessage(params: T.SendMessageParams, options?: CallOptions): Promise<T.SendMessageResult>;
  /** Describe this service node: its address, software, accepted sign-in domains and limits. */
  nodeInfo(options?: CallOptions): Promise<T.NodeInfoResult>;
}

export function createNeutralServiceClient(options: RpcClientOptions | RpcClient): NeutralServiceClient {
  const rpc = "request" in options ? options : createRpcClient(options);
  return {
    rpc,
    getInbox: (params, options) => getInbox(rpc, params, options),
    getChat: (params, options) => getChat(rpc, params, options),
    sendMessage: (params, options) => sendMessage(rpc, params, options),
    nodeInfo: (options) => nodeInfo(rpc, options),
  };
}

/** Every method name in the spec, in spec order. */
export const methodNames = ["neutralService_getInbox", "neutralService_getChat", "neutralService_sendMessage", "neutralService_nodeInfo"] as const;
