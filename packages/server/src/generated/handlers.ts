// generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).
//
// The handlers a neutralService server implements: one typed function per method. The
// dispatcher validates and normalizes params before calling them (defaults filled in, by-position
// or by-name alike) and wraps results in the one-element array the wire carries. A result may
// also be returned pre-serialized, as `rawJson(text)`. A method with `x-subscription` answers an
// event stream instead: an async iterable of its notifications, which the HTTP glue sends as
// Server-Sent Events while the client reads them (context.signal aborts when it goes away).
import type { Authenticated, RequestContext, EventStream, StreamContext, Reply } from "../index.js";
import type * as T from "./types.js";

export interface Handlers<Ctx extends RequestContext = RequestContext> {
  /**
   * Fetch a page of messages from the authenticated user's inbox.
   *
   * Called only with an authenticated context.
   */
  neutralService_getInbox(args: T.GetInboxArgs, context: Authenticated<Ctx>): Reply<T.GetInboxResult>;
  /**
   * Fetch a page of one chat: the messages between the authenticated user and one peer, both directions.
   *
   * Called only with an authenticated context.
   */
  neutralService_getChat(args: T.GetChatArgs, context: Authenticated<Ctx>): Reply<T.GetChatResult>;
  /**
   * Store a signed, encrypted message for its recipient and return it with its id and both receipts.
   *
   * Called only with an authenticated context.
   */
  neutralService_sendMessage(args: T.SendMessageArgs, context: Authenticated<Ctx>): Reply<T.SendMessageResult>;
  /**
   * Publish the authenticated account's messaging public key, as a key bundle the account signed.
   *
   * Called only with an authenticated context.
   */
  neutralService_publishKey(args: T.PublishKeyArgs, context: Authenticated<Ctx>): Reply<T.PublishKeyResult>;
  /** Look up an account's messaging public key: its current key bundle, or null. */
  neutralService_getKey(args: T.GetKeyArgs, context: Ctx): Reply<T.GetKeyResult>;
  /**
   * Make this node the authenticated account's home: publish a home record the account signed.
   *
   * Called only with an authenticated context.
   */
  neutralService_publishHome(args: T.PublishHomeArgs, context: Authenticated<Ctx>): Reply<T.PublishHomeResult>;
  /** Look up an account's home node: its newest home record anywhere in the federation, or null. */
  neutralService_getHome(args: T.GetHomeArgs, context: Ctx): Reply<T.GetHomeResult>;
  /** Describe this service node: its address, software, accepted sign-in domains and limits. */
  neutralService_nodeInfo(args: T.NodeInfoArgs, context: Ctx): Reply<T.NodeInfoResult>;
  /**
   * Stream the authenticated user's messages as they are stored: first those after a cursor, then live.
   *
   * Called only with an authenticated context.
   */
  neutralService_subscribe(args: T.SubscribeArgs, context: StreamContext<Authenticated<Ctx>>): EventStream<T.SubscribeNotification> | Promise<EventStream<T.SubscribeNotification>>;
  /**
   * Node to node: deliver messages from accounts homed at the calling node to accounts homed here.
   *
   * Called only with an authenticated context.
   */
  neutralService_deliver(args: T.DeliverArgs, context: Authenticated<Ctx>): Reply<T.DeliverResult>;
  /**
   * Node to node: what this node itself holds of some accounts' home records and key bundles.
   *
   * Called only with an authenticated context.
   */
  neutralService_lookup(args: T.LookupArgs, context: Authenticated<Ctx>): Reply<T.LookupResult>;
  /**
   * Delete messages from the authenticated account's mailbox, by a request the account signed; answers the node's signed receipt.
   *
   * Called only with an authenticated context.
   */
  neutralService_deleteMessages(args: T.DeleteMessagesArgs, context: Authenticated<Ctx>): Reply<T.DeleteMessagesResult>;
  /**
   * Change who reaches the authenticated account's inbox: signed records allowing or blocking peers, and optionally a policy.
   *
   * Called only with an authenticated context.
   */
  neutralService_setConsent(args: T.SetConsentArgs, context: Authenticated<Ctx>): Reply<T.SetConsentResult>;
  /**
   * The authenticated account's consent policy and its allowed and blocked peers, a page at a time (by peer address).
   *
   * Called only with an authenticated context.
   */
  neutralService_getConsent(args: T.GetConsentArgs, context: Authenticated<Ctx>): Reply<T.GetConsentResult>;
  /**
   * Import messages of the authenticated account's own history (an export from its former home node) into its mailbox here, with their original signatures and receipts.
   *
   * Called only with an authenticated context.
   */
  neutralService_importMessages(args: T.ImportMessagesArgs, context: Authenticated<Ctx>): Reply<T.ImportMessagesResult>;
  /**
   * The authenticated account's signed mailbox head, with inclusion proofs for messages and a consistency proof from a head the client saw before.
   *
   * Called only with an authenticated context.
   */
  neutralService_getProof(args: T.GetProofArgs, context: Authenticated<Ctx>): Reply<T.GetProofResult>;
  /**
   * A page of the authenticated account's mailbox log, with the signed head it ends at.
   *
   * Called only with an authenticated context.
   */
  neutralService_getLog(args: T.GetLogArgs, context: Authenticated<Ctx>): Reply<T.GetLogResult>;
  /**
   * Whether messages the authenticated account sent are in their recipients' mailbox logs: each recipient's node's signed promise of the position of its copy.
   *
   * Called only with an authenticated context.
   */
  neutralService_proveDelivery(args: T.ProveDeliveryArgs, context: Authenticated<Ctx>): Reply<T.ProveDeliveryResult>;
  /**
   * Node to node: the positions of messages' copies in their recipients' logs here, each with this node's signed promise.
   *
   * Called only with an authenticated context.
   */
  neutralService_provePositions(args: T.ProvePositionsArgs, context: Authenticated<Ctx>): Reply<T.ProvePositionsResult>;
}
