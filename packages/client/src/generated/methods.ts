// generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).
//
// One typed function per method of neutralService that a client calls (node-to-node methods,
// `"x-requires-auth": "node"`, are left out). Each `xRequest` builds a request descriptor (for
// `batch`); each `x` sends it through an `RpcClient`.
import { createRpcClient, positionalParams } from "../rpc.js";
import type { CallOptions, RpcClient, RpcClientOptions, RpcRequest, StreamEvent, StreamOptions } from "../rpc.js";
import type * as T from "./types.js";

/** Request descriptor for `neutralService_getInbox`. */
export function getInboxRequest(params: T.GetInboxParams = {}): RpcRequest<T.GetInboxResult> {
  return {
    method: "neutralService_getInbox",
    params: positionalParams(params, ["inboxFilter", "limit", "after", "before", "proof"]),
    unwrap: true,
  };
}

/**
 * Fetch a page of messages from the authenticated user's inbox.
 *
 * The inbox is the messages received by the authenticated user (`inboxFilter.direction` widens it to sent messages or the whole mailbox). `result.address` is the authenticated user.
 *
 * Pagination: with no cursor, or `before` only, the walk goes backwards — the newest messages older than `before`, newest first. With `after` only it goes forwards — the oldest messages newer than `after`, oldest first. With both it goes forwards from `after` and never reaches `before`. `data` is in walk order, so the next page continues from the last element's `id`, or from `cursor` when the page has one. `end` is true exactly when no further message exists in the walk's direction within the bounds and filters. Any well-formed id is a valid position, whether or not a message has it.
 *
 * A page may stop early, with `end` false and fewer than `limit` messages, even none; walking on from where it stopped still visits every message once. With `since` or `until` (the timestamps are not in the order of the walk), the node examines at most `nodeInfo.limits.maxPageScan` messages of each part of the mailbox (received, sent) for one page: a page over messages the filter mostly rejects stops there, and `cursor` says where the next one starts. And a page holds no more message JSON than is left of its HTTP response's budget (`nodeInfo.limits.maxResponseBytes`), at least one message; a batch entry that finds the budget spent is answered -32005 and not run.
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
    params: positionalParams(params, ["inboxFilter", "limit", "after", "before", "proof"]),
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
 * `message.signature` is the sender's EIP-712 signature over `Message(address from,address to,bytes message,uint64 timestamp)` in the domain `{name: "neutralService", version: "1"}`. The node checks that `message` is non-empty hex (-32602), that the signature recovers `from` (-32003), that `from` is the authenticated user (-32002), that `timestamp` is within the node's clock window (-32004), that an `expires` is later than `timestamp` and not past (-32602; the signature is then over `ExpiringMessage`) and the size limits (-32005); then that neither the sender's nor the recipient's storage quota is used up (-32029, `data.quota` naming it; `nodeInfo.limits` reports the quotas).
 *
 * Idempotent: resending a message with the same EIP-712 digest returns the stored original (also once its owners deleted it or the retention sweep did: its original id and receipts); no duplicate is stored, and the resend does not count against a quota. The message is acknowledged only once it is durably stored. The body is ciphertext to the node; it never needs the plaintext.
 *
 * Federation: send through your home node. A node refuses a sender homed elsewhere (-32002, `data.home` naming it), and a message to an account homed on a node that is not its peer (-32002). To an account homed on a peer, the message is stored with `status: "pending"` and delivered in the background; the answer waits up to `nodeInfo.limits.deliveryWaitMs` for the recipient node's receipt (then without `status`, with both receipts), else it is the pending message. A sender without a home record must publish one here before messaging an account homed elsewhere (-32002). A recipient no node of the federation knows is stored here (as in v1), but while a peer does not answer its lookup the send is refused with -32603 (`data.reason` "peers unreachable"): the recipient may be homed there; send again later. To an account that has no home record while other nodes hold its key bundle, the send is refused with -32002 (`data.reason` "recipient has no home record"): a copy of a bundle homes no one.
 *
 * Needs a bearer token (`auth` option).
 */
export function sendMessage(client: RpcClient, params: T.SendMessageParams, options?: CallOptions): Promise<T.SendMessageResult> {
  return client.request(sendMessageRequest(params), options);
}

/** Request descriptor for `neutralService_publishKey`. */
export function publishKeyRequest(params: T.PublishKeyParams): RpcRequest<T.PublishKeyResult> {
  return {
    method: "neutralService_publishKey",
    params: positionalParams(params, ["bundle"]),
    unwrap: true,
  };
}

/**
 * Publish the authenticated account's messaging public key, as a key bundle the account signed.
 *
 * Clients encrypt messages with NIP-44 v2, which needs the recipient's messaging public key; this is how an account announces its own. `bundle.signature` is the account's EIP-712 signature over `KeyBundle(address account,bytes32 key,uint64 timestamp)` in the domain `{name: "neutralService", version: "1"}` (the same domain as messages), so anyone can check a bundle without trusting the node, and a signed bundle may be published again on another node.
 *
 * The node checks, in this order: the params (-32602; also when `key` is not the x coordinate of a point on secp256k1), that `bundle.account` is the authenticated user (-32002), that `timestamp` is at most `nodeInfo.limits.clockSkewMs` in the future (-32004; a timestamp in the past is fine) and that the signature recovers `account` (-32003).
 *
 * The node keeps one bundle per account: the one with the greatest `timestamp`, and between two of the same timestamp the one with the greater signature (compared as bytes; `supersedes` in `@neutral/protocol`), so every node keeps the same bundle whichever reached it first. A bundle replaces the stored one only if it wins by that order; otherwise nothing changes and the call still succeeds, answering the stored bundle. The result is therefore always the bundle now current for the account (compare it with yours to know whether yours won). It is answered only once the bundle is durably stored.
 *
 * A bundle proves that its account chose the key, not that the account holds the key's secret: nothing stops an account from publishing another account's messaging key as its own. The node accepts it, on purpose. Messages to that account are then encrypted to a key it cannot decrypt and only the key's owner could (were the ciphertext to reach it); the only accounts exposed are the publisher itself and whoever writes to it, who trusted its signed bundle. Refusing a key another account already uses would not prevent this across nodes, and would let anyone who copies a key first lock its owner out. A proof of possession (the key signing the bundle too) is the remedy if one is ever needed; it would change the record every client signs.
 *
 * Needs a bearer token (`auth` option).
 */
export function publishKey(client: RpcClient, params: T.PublishKeyParams, options?: CallOptions): Promise<T.PublishKeyResult> {
  return client.request(publishKeyRequest(params), options);
}

/** Request descriptor for `neutralService_getKey`. */
export function getKeyRequest(params: T.GetKeyParams): RpcRequest<T.GetKeyResult> {
  return {
    method: "neutralService_getKey",
    params: positionalParams(params, ["account"]),
    unwrap: true,
  };
}

/**
 * Look up an account's messaging public key: its current key bundle, or null.
 *
 * A public directory: no token is needed. The result is the account's current KeyBundle as its account signed it (every hex field lowercase), or `null` when this node holds none. The node checked the bundle's signature when it was published; a client that does not want to trust the node checks it again against `account` before encrypting to `key`. `account` may be given in any case.
 *
 * Needs no token.
 */
export function getKey(client: RpcClient, params: T.GetKeyParams, options?: CallOptions): Promise<T.GetKeyResult> {
  return client.request(getKeyRequest(params), options);
}

/** Request descriptor for `neutralService_publishHome`. */
export function publishHomeRequest(params: T.PublishHomeParams): RpcRequest<T.PublishHomeResult> {
  return {
    method: "neutralService_publishHome",
    params: positionalParams(params, ["record"]),
    unwrap: true,
  };
}

/**
 * Make this node the authenticated account's home: publish a home record the account signed.
 *
 * The record names this node (`nodeInfo.address`); from now on this node keeps the account's mailbox, signs its messages' receipts and receives what other nodes deliver to it. The node checks, in this order: the params (-32602; also when `record.node` is not this node), that `record.account` is the authenticated user (-32002), that `timestamp` is at most `nodeInfo.limits.clockSkewMs` in the future (-32004) and that the signature recovers `account` (-32003). The newest record wins (between two of the same timestamp, the greater signature, as for key bundles): an older one changes nothing and the call still succeeds, answering the record now current. The node tells its peers of the new record, so a node that was the account's home stops taking its messages.
 *
 * The SDK's `ready()` publishes a record for the node an app talks to.
 *
 * Needs a bearer token (`auth` option).
 */
export function publishHome(client: RpcClient, params: T.PublishHomeParams, options?: CallOptions): Promise<T.PublishHomeResult> {
  return client.request(publishHomeRequest(params), options);
}

/** Request descriptor for `neutralService_getHome`. */
export function getHomeRequest(params: T.GetHomeParams): RpcRequest<T.GetHomeResult> {
  return {
    method: "neutralService_getHome",
    params: positionalParams(params, ["account"]),
    unwrap: true,
  };
}

/**
 * Look up an account's home node: its newest home record anywhere in the federation, or null.
 *
 * A public directory, like `getKey`: no token is needed. The node answers the newest record it holds; for an account not homed here it asks its peers first (bounded in time; the answer is cached for a while) and keeps only records whose signature recovers `account`. `null`: no node of the federation holds a record (the account is homed where its key bundle is, if anywhere). Check the signature yourself to trust no node.
 *
 * Needs no token.
 */
export function getHome(client: RpcClient, params: T.GetHomeParams, options?: CallOptions): Promise<T.GetHomeResult> {
  return client.request(getHomeRequest(params), options);
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

/** Request descriptor for `neutralService_subscribe`. */
export function subscribeRequest(params: T.SubscribeParams = {}): RpcRequest<T.SubscribeResult> {
  return {
    method: "neutralService_subscribe",
    params: positionalParams(params, ["filter", "after"]),
    unwrap: false,
  };
}

/**
 * Stream the authenticated user's messages as they are stored: first those after a cursor, then live.
 *
 * Answered as Server-Sent Events, not as one JSON response: POST it like any call, with `Accept: text/event-stream` (without it: -32600), alone (not in a batch). Before the stream starts, errors are ordinary JSON-RPC error responses (401 without a valid token, -32602 for bad params, -32029 when the node is at `limits.maxSubscriptions` and the client's address holds as many streams as any, with the connection closed). Then the answer is `200 text/event-stream` and each event's `data` is one JSON-RPC notification (see `x-subscription`).
 *
 * First every stored message the filter selects with an id greater than `after` (or the `Last-Event-ID` header, which wins: what a reconnecting client sends), oldest first, each as a `neutralService_message` event whose SSE `id` is the message id; then one `neutralService_caughtUp`; then every message committed afterwards, in id order, the moment it is stored (through any worker process or replica of the node, or delivered from another node). Walking on from the last id received, nothing is missed and nothing comes twice: a client that resumes with the last id it got sees every message exactly once, in id order.
 *
 * A sender's pending message that becomes delivered or failed arrives as `neutralService_status`, once the stream has sent that message (earlier, the message itself comes with its new status). Status events carry no SSE id and are not replayed on resume: a client that resumes re-reads its pending messages (`getInbox` with `direction: "sent"`).
 *
 * A comment line (`: keep-alive`) is sent every `limits.keepAliveMs` while nothing else is. The node ends the stream with one `neutralService_end` event naming why (`EndReason`) when the token expires, when it stops, when the client reads too slowly, when the account opens more streams than allowed, or when the node is at its bound and another address subscribes; then the client resumes from the last id it got.
 *
 * Needs a bearer token (`auth` option).
 *
 * Answered as an event stream (`x-subscription`): iterate it; `break` or `options.signal` closes it.
 */
export function subscribe(client: RpcClient, params: T.SubscribeParams = {}, options?: StreamOptions): AsyncIterable<StreamEvent<T.SubscribeNotification>> {
  return client.stream<T.SubscribeNotification>(subscribeRequest(params), options);
}

/** Request descriptor for `neutralService_deleteMessages`. */
export function deleteMessagesRequest(params: T.DeleteMessagesParams): RpcRequest<T.DeleteMessagesResult> {
  return {
    method: "neutralService_deleteMessages",
    params: positionalParams(params, ["request"]),
    unwrap: true,
  };
}

/**
 * Delete messages from the authenticated account's mailbox, by a request the account signed; answers the node's signed receipt.
 *
 * Deletes the account's own copies on this node (its home node): a recipient deletes what it received, a sender its sent copy; the other party's copy, here or on another node, stays. From the answer on, no read or stream serves them, and cursor walks go on over the rest as before: a walk still visits every remaining message exactly once and reports `end` correctly. The node checks, in this order: the params (-32602), that `request.account` is the authenticated user (-32002), that `timestamp` is at most `nodeInfo.limits.clockSkewMs` in the future (-32004), that the signature recovers `account` (-32003), that `leaves`, when given, are the leaf hashes of exactly the account's copies of `ids` (-32602, `data.positions`: the copies' positions, `seq` and `leafHash`, to sign again), and that a request without `leaves` more than `clockSkewMs` old deletes nothing (-32004 while one of its messages is in the mailbox: sign a new request; its receipt once none is). A request with `leaves` deletes only the positions it names, so it may be sent again at any time. A message still `pending` (on its way to another node) cannot be deleted yet: the whole request is refused with -32602 naming it (`data.pending`). Ids not in the mailbox (never, or already deleted or expired) are fine: the receipt says none of the ids is there any more, so sending the same request again answers the same receipt. Each position whose copy a request deleted keeps the request in the mailbox log (`LogDeletion`): with `leaves`, a client checks that the request names the position's own leaf. The space is reclaimed by the node's storage.
 *
 * Needs a bearer token (`auth` option).
 */
export function deleteMessages(client: RpcClient, params: T.DeleteMessagesParams, options?: CallOptions): Promise<T.DeleteMessagesResult> {
  return client.request(deleteMessagesRequest(params), options);
}

/** Request descriptor for `neutralService_setConsent`. */
export function setConsentRequest(params: T.SetConsentParams): RpcRequest<T.SetConsentResult> {
  return {
    method: "neutralService_setConsent",
    params: positionalParams(params, ["records", "policy"]),
    unwrap: true,
  };
}

/**
 * Change who reaches the authenticated account's inbox: signed records allowing or blocking peers, and optionally a policy.
 *
 * The account's home node keeps each record and the policy if it is newer (greater timestamp) than what it has; an older one changes nothing and the call still succeeds. The node checks, in this order: the params (-32602; also a peer given twice), that every `account` is the authenticated user (-32002), that no timestamp is more than `nodeInfo.limits.clockSkewMs` in the future (-32004) and every signature (-32003); nothing is kept unless all pass. From the answer on, the node applies them to every message it stores for the account, from this node's senders and from other nodes' (a delivery from a blocked sender is refused for good). Messages already stored stay where they are.
 *
 * Needs a bearer token (`auth` option).
 */
export function setConsent(client: RpcClient, params: T.SetConsentParams, options?: CallOptions): Promise<T.SetConsentResult> {
  return client.request(setConsentRequest(params), options);
}

/** Request descriptor for `neutralService_getConsent`. */
export function getConsentRequest(params: T.GetConsentParams = {}): RpcRequest<T.GetConsentResult> {
  return {
    method: "neutralService_getConsent",
    params: positionalParams(params, ["after", "limit"]),
    unwrap: true,
  };
}

/**
 * The authenticated account's consent policy and its allowed and blocked peers, a page at a time (by peer address).
 *
 * Records with state "none" are left out. Pages go by peer address: pass the last record's `peer` as `after` for the next page; `end` is true when no record follows.
 *
 * Needs a bearer token (`auth` option).
 */
export function getConsent(client: RpcClient, params: T.GetConsentParams = {}, options?: CallOptions): Promise<T.GetConsentResult> {
  return client.request(getConsentRequest(params), options);
}

/** Request descriptor for `neutralService_importMessages`. */
export function importMessagesRequest(params: T.ImportMessagesParams): RpcRequest<T.ImportMessagesResult> {
  return {
    method: "neutralService_importMessages",
    params: positionalParams(params, ["messages", "head"]),
    unwrap: true,
  };
}

/**
 * Import messages of the authenticated account's own history (an export from its former home node) into its mailbox here, with their original signatures and receipts.
 *
 * For moving home: after publishing a home record at this node, an account imports the messages it exported from its former home (the SDK's `neutral-mailbox` export). Each message is stored in the account's mailbox here exactly as given, its sender's signature and both receipts (signed by the nodes that stored it first) unchanged, under a new id of this node: ids grow in storing order, so import oldest first, and the imported messages follow those already here. A message the account sent goes into its sent side, one it received into its inbox (never the requests folder: it is the account's own history). A message already in the account's mailbox here (the same EIP-712 digest) is answered its id, so importing again stores nothing twice; one this node holds for the other party only (homed here too) gets the account's copy added, under the same id. Retention counts from the import.
 *
 * The node checks, for every message before storing any: that the account is its `from` or `to` (-32002, `data.index`), that it is delivered (no `status`; pending or failed copies are not history to import: -32602), that an `expires` has not passed (-32602), the size limit (-32005), that the sender's signature recovers `from` (-32003) and that both receipts are valid signatures of the message (-32003; by which node is for readers to judge, as for any message). An account homed at another node is refused (-32002, `data.home`): import at your home node. Imported messages count against the account's storage quotas as a sender and as a recipient (-32029, nothing stored). With `head` (spec 2.10.0), the former home's signed head of the account's log comes along, and the node keeps it (`LogPage.prior`).
 *
 * Needs a bearer token (`auth` option).
 */
export function importMessages(client: RpcClient, params: T.ImportMessagesParams, options?: CallOptions): Promise<T.ImportMessagesResult> {
  return client.request(importMessagesRequest(params), options);
}

/** Request descriptor for `neutralService_getProof`. */
export function getProofRequest(params: T.GetProofParams = {}): RpcRequest<T.GetProofResult> {
  return {
    method: "neutralService_getProof",
    params: positionalParams(params, ["ids", "since", "compact"]),
    unwrap: true,
  };
}

/**
 * The authenticated account's signed mailbox head, with inclusion proofs for messages and a consistency proof from a head the client saw before.
 *
 * The verifiable mailbox: with `ids` (messages a read returned), each copy of them in the caller's mailbox is answered with its position and its inclusion proof in the head's tree; an id with no copy there (never stored, or deleted) is left out, as is a copy stored after the head. With `compact: true`, the positions come without their own proofs and `multiproof` proves them all. With `since` (the size of the last head the client verified), the consistency proof from that size to the head's. Without either: the current head. A `since` larger than the log is refused (-32602, `data.field` "since", `data.size` the log's size): the node cannot show that log, and a client that verified it holds proof of a rollback.
 *
 * Needs a bearer token (`auth` option).
 */
export function getProof(client: RpcClient, params: T.GetProofParams = {}, options?: CallOptions): Promise<T.GetProofResult> {
  return client.request(getProofRequest(params), options);
}

/** Request descriptor for `neutralService_getLog`. */
export function getLogRequest(params: T.GetLogParams = {}): RpcRequest<T.GetLogResult> {
  return {
    method: "neutralService_getLog",
    params: positionalParams(params, ["from", "limit", "messages"]),
    unwrap: true,
  };
}

/**
 * A page of the authenticated account's mailbox log, with the signed head it ends at.
 *
 * Every position from `from` (default 1) in order, at most `limit`, none past the head's size; deleted copies keep their positions, each with `removed` saying why (the account's signed request, the sender's signed end, the node's retention). With `messages`, each position still served carries its message. An audit reads the whole log and checks its tree against the head: every position accounted for, by its message or by why it is gone. The page is the node's signed statement (`LogPage.signature`, spec 3.1.0): what it says of each position is the node's word.
 *
 * Needs a bearer token (`auth` option).
 */
export function getLog(client: RpcClient, params: T.GetLogParams = {}, options?: CallOptions): Promise<T.GetLogResult> {
  return client.request(getLogRequest(params), options);
}

/** Request descriptor for `neutralService_proveDelivery`. */
export function proveDeliveryRequest(params: T.ProveDeliveryParams): RpcRequest<T.ProveDeliveryResult> {
  return {
    method: "neutralService_proveDelivery",
    params: positionalParams(params, ["ids"]),
    unwrap: true,
  };
}

/**
 * Whether messages the authenticated account sent are in their recipients' mailbox logs: each recipient's node's signed promise of the position of its copy.
 *
 * For each id (messages the caller sent, as ids on this node), the recipient's node signs the position of the recipient's copy in the recipient's log, EIP-712 `LogReceipt(bytes32 message,string role,uint64 seq)` with role "receiver" (see "The verifiable mailbox"): this node for a recipient homed here, else the recipient's home node, asked by this one (`neutralService_provePositions`). A client checks that the signature recovers the recipient's home node; a node that refuses, does not answer, holds no copy, or answers another node's signature leaves the message unproven, with why (`UnprovenDelivery`): a problem for the sender to see. A message still pending or failed is not delivered: unproven. The recipient's copy deleted since (by its account, its end or the retention) is not proven either.
 *
 * Needs a bearer token (`auth` option).
 */
export function proveDelivery(client: RpcClient, params: T.ProveDeliveryParams, options?: CallOptions): Promise<T.ProveDeliveryResult> {
  return client.request(proveDeliveryRequest(params), options);
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
  /** Publish the authenticated account's messaging public key, as a key bundle the account signed. */
  publishKey(params: T.PublishKeyParams, options?: CallOptions): Promise<T.PublishKeyResult>;
  /** Look up an account's messaging public key: its current key bundle, or null. */
  getKey(params: T.GetKeyParams, options?: CallOptions): Promise<T.GetKeyResult>;
  /** Make this node the authenticated account's home: publish a home record the account signed. */
  publishHome(params: T.PublishHomeParams, options?: CallOptions): Promise<T.PublishHomeResult>;
  /** Look up an account's home node: its newest home record anywhere in the federation, or null. */
  getHome(params: T.GetHomeParams, options?: CallOptions): Promise<T.GetHomeResult>;
  /** Describe this service node: its address, software, accepted sign-in domains and limits. */
  nodeInfo(options?: CallOptions): Promise<T.NodeInfoResult>;
  /** Stream the authenticated user's messages as they are stored: first those after a cursor, then live. */
  subscribe(params?: T.SubscribeParams, options?: StreamOptions): AsyncIterable<StreamEvent<T.SubscribeNotification>>;
  /** Delete messages from the authenticated account's mailbox, by a request the account signed; answers the node's signed receipt. */
  deleteMessages(params: T.DeleteMessagesParams, options?: CallOptions): Promise<T.DeleteMessagesResult>;
  /** Change who reaches the authenticated account's inbox: signed records allowing or blocking peers, and optionally a policy. */
  setConsent(params: T.SetConsentParams, options?: CallOptions): Promise<T.SetConsentResult>;
  /** The authenticated account's consent policy and its allowed and blocked peers, a page at a time (by peer address). */
  getConsent(params?: T.GetConsentParams, options?: CallOptions): Promise<T.GetConsentResult>;
  /** Import messages of the authenticated account's own history (an export from its former home node) into its mailbox here, with their original signatures and receipts. */
  importMessages(params: T.ImportMessagesParams, options?: CallOptions): Promise<T.ImportMessagesResult>;
  /** The authenticated account's signed mailbox head, with inclusion proofs for messages and a consistency proof from a head the client saw before. */
  getProof(params?: T.GetProofParams, options?: CallOptions): Promise<T.GetProofResult>;
  /** A page of the authenticated account's mailbox log, with the signed head it ends at. */
  getLog(params?: T.GetLogParams, options?: CallOptions): Promise<T.GetLogResult>;
  /** Whether messages the authenticated account sent are in their recipients' mailbox logs: each recipient's node's signed promise of the position of its copy. */
  proveDelivery(params: T.ProveDeliveryParams, options?: CallOptions): Promise<T.ProveDeliveryResult>;
}

export function createNeutralServiceClient(options: RpcClientOptions | RpcClient): NeutralServiceClient {
  const rpc = "request" in options ? options : createRpcClient(options);
  return {
    rpc,
    getInbox: (params, options) => getInbox(rpc, params, options),
    getChat: (params, options) => getChat(rpc, params, options),
    sendMessage: (params, options) => sendMessage(rpc, params, options),
    publishKey: (params, options) => publishKey(rpc, params, options),
    getKey: (params, options) => getKey(rpc, params, options),
    publishHome: (params, options) => publishHome(rpc, params, options),
    getHome: (params, options) => getHome(rpc, params, options),
    nodeInfo: (options) => nodeInfo(rpc, options),
    subscribe: (params, options) => subscribe(rpc, params, options),
    deleteMessages: (params, options) => deleteMessages(rpc, params, options),
    setConsent: (params, options) => setConsent(rpc, params, options),
    getConsent: (params, options) => getConsent(rpc, params, options),
    importMessages: (params, options) => importMessages(rpc, params, options),
    getProof: (params, options) => getProof(rpc, params, options),
    getLog: (params, options) => getLog(rpc, params, options),
    proveDelivery: (params, options) => proveDelivery(rpc, params, options),
  };
}

/** Every method name a client calls, in spec order. */
export const methodNames = ["neutralService_getInbox", "neutralService_getChat", "neutralService_sendMessage", "neutralService_publishKey", "neutralService_getKey", "neutralService_publishHome", "neutralService_getHome", "neutralService_nodeInfo", "neutralService_subscribe", "neutralService_deleteMessages", "neutralService_setConsent", "neutralService_getConsent", "neutralService_importMessages", "neutralService_getProof", "neutralService_getLog", "neutralService_proveDelivery"] as const;
