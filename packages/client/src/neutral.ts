// The SDK's entry point: one object per (node, account) that signs in, keeps its messaging key
// published, encrypts and signs what it sends, and decrypts and verifies what it reads. Each method
// is an action of actions/ bound to the session (context.ts), as a viem client binds viem/actions.
import { audit, type AuditOptions, type AuditReturnType } from "./actions/audit.js";
import { chat, type ChatOptions } from "./actions/chat.js";
import { consent } from "./actions/consent.js";
import { deleteMessages, type MessageToDelete } from "./actions/deleteMessages.js";
import { homeOf } from "./actions/homeOf.js";
import { inbox, type InboxOptions } from "./actions/inbox.js";
import { keyOf } from "./actions/keyOf.js";
import { live } from "./actions/live.js";
import { proveMessages, type ProveMessagesReturnType } from "./actions/proveMessages.js";
import { ready } from "./actions/ready.js";
import { send, type SendOptions } from "./actions/send.js";
import { setConsent, type ConsentChoice } from "./actions/setConsent.js";
import { setConsentPolicy, type ConsentPolicyMode } from "./actions/setConsentPolicy.js";
import { waitForDelivery, type DeliveryWaitOptions } from "./actions/waitForDelivery.js";
import { createNeutralContext, type NeutralOptions } from "./context.js";
import type { NeutralServiceClient } from "./generated/methods.js";
import type { ConsentState, DeletionReceipt, HomeRecord, KeyBundle, Message, NodeInfo } from "./generated/types.js";
import type { LiveOptions } from "./live.js";
import type { DecryptedMessage } from "./messages.js";
import type { CallOptions } from "./rpc.js";
import type { MessagePages } from "./session/pages.js";

export type { AuditOptions, ChatOptions, ConsentChoice, DeliveryWaitOptions, InboxOptions, NeutralOptions, SendOptions };
export type { MessagePage, MessagePages, PageOptions } from "./session/pages.js";

export interface Neutral {
  readonly url: string;
  /** The generated typed client for this node, its token handled (for calls the SDK does not wrap). */
  readonly client: NeutralServiceClient;
  /** The account's lowercase address. */
  getAddress(): Promise<string>;
  /** A valid bearer token for this node (renewed when close to expiry), for callers that want one. */
  token(): Promise<string>;
  /** The node's address, domains and limits (fetched once per session). */
  nodeInfo(): Promise<NodeInfo>;
  /**
   * Signs in, makes this node the account's home (publishes a signed home record naming it, unless
   * the newest record already does), derives the messaging key and publishes its bundle if the node
   * lacks it. Every other call does this first. A node without federation (no
   * `neutralService_publishHome`) is used as it is.
   */
  ready(): Promise<void>;
  /** `account`'s key bundle as this node serves it, after checking its signature; undefined when it has none. */
  keyOf(account: string, options?: CallOptions): Promise<KeyBundle | undefined>;
  /**
   * `account`'s newest home record in the federation, as this node serves it, after checking the
   * account signed it; undefined when there is none (or the node does not federate).
   */
  homeOf(account: string, options?: CallOptions): Promise<HomeRecord | undefined>;
  /**
   * Encrypts `text` to `to`'s messaging key, signs and sends it; resolves with the stored message.
   * To an account homed on another node, the node waits a little for that node's receipt: the
   * message may come back with `status` "pending" (see `waitForDelivery`).
   */
  send(to: string, text: string, options?: SendOptions): Promise<DecryptedMessage>;
  /**
   * Resolves once a message this account sent is no longer pending: with the message as the node
   * now serves it, "delivered" (both receipts, checked) or "failed" (with `reason`). A message that
   * is not pending resolves at once. Polls the sender's copy; see `DeliveryWaitOptions`.
   */
  waitForDelivery(message: DecryptedMessage, options?: DeliveryWaitOptions): Promise<DecryptedMessage>;
  /**
   * The inbox, page by page (newest first unless `after` is given). Each page proves itself unless
   * `verify: false`: its messages are marked `proven`, and `mailboxProblems` says what the node's
   * proof did not show (the verifiable mailbox).
   */
  inbox(options?: InboxOptions): MessagePages;
  /** The chat with `peer`, both directions, page by page, proven as the inbox's pages are. */
  chat(peer: string, options?: ChatOptions): MessagePages;
  /**
   * Live delivery: the messages the filter selects (default: received), decrypted and checked like
   * the inbox's, oldest first, each once, as the node stores them, until `signal` aborts. By default
   * only messages newer than the newest one at start; `after: id` first catches up on everything
   * since that id (an app starting up passes the last id it saw), `after: "0"` on the whole mailbox.
   * Reconnects by itself after a network error, a cut stream, a node restart or an end the node
   * announces (with a fresh token when it expired), resuming after the last id yielded, with
   * backoff (`onState` follows it). Throws what retrying cannot fix: a refused token (after one
   * fresh one), invalid params (-32602), a node without live delivery (-32601, or HTTP 406).
   */
  live(options?: LiveOptions): AsyncIterable<DecryptedMessage>;
  /**
   * Deletes this account's copies of messages (1 to 100, by their `id`s or as reads served them:
   * `DecryptedMessage.raw`) from its mailbox on the node: what it received, and its own copy of what
   * it sent; the other party's copy stays. Signs the request naming the copies' positions (EIP-712
   * `PositionedDeletion`, the positions proven by the node first; a message given whole is checked
   * to be what its position holds) and resolves with the node's receipt, checked to be the node's
   * signature over this request. Messages still pending delivery cannot be deleted yet (`RpcError`
   * -32602 naming them).
   */
  deleteMessages(messages: readonly MessageToDelete[], options?: CallOptions): Promise<DeletionReceipt>;
  /**
   * Consent: what this account decides about `peer`, kept (signed) on its home node. "blocked":
   * the peer's messages are refused; "allowed": they reach the inbox even under an "allowed-only"
   * policy; "none": neither. Resolves with the account's consent as the node now keeps it.
   */
  setConsent(peer: string, choice: ConsentChoice, options?: CallOptions): Promise<ConsentState>;
  /** Who reaches the inbox: "open" (everyone not blocked) or "allowed-only" (others land in `inbox({ folder: "requests" })`). */
  setConsentPolicy(mode: ConsentPolicyMode, options?: CallOptions): Promise<ConsentState>;
  /** The account's policy and every allowed or blocked peer, as its home node keeps them. */
  consent(options?: CallOptions): Promise<ConsentState>;
  /**
   * The verifiable mailbox: proves that the node's log holds `messages` (as served: a
   * `DecryptedMessage`'s `raw`) in a head it signed that extends the last one this device verified
   * (`NeutralOptions.heads`). Resolves with the head and the problems found, each naming its kind
   * and position; with none, the head becomes the verified one.
   */
  proveMessages(messages: readonly Message[], options?: CallOptions): Promise<ProveMessagesReturnType>;
  /**
   * The verifiable mailbox's audit: accounts for every position of the account's log from the last
   * audited one to the node's head (its message, or a reason it is gone that holds) and checks that
   * they give the head (`NeutralOptions.audits` keeps where it got to). Resolves with the head, the
   * positions read, how each was accounted for, and the problems, each naming its kind and position.
   */
  audit(options?: AuditOptions): Promise<AuditReturnType>;
}

export function createNeutral(options: NeutralOptions): Neutral {
  const context = createNeutralContext(options);
  return {
    url: context.url,
    client: context.client,
    getAddress: () => context.signer.getAddress(),
    token: context.token,
    nodeInfo: context.nodeInfo,
    ready: () => ready(context),
    keyOf: (account, call) => keyOf(context, account, call),
    homeOf: (account, call) => homeOf(context, account, call),
    send: (to, text, sendOptions) => send(context, to, text, sendOptions),
    waitForDelivery: (message, wait) => waitForDelivery(context, message, wait),
    inbox: (walk) => inbox(context, walk),
    chat: (peer, walk) => chat(context, peer, walk),
    live: (liveOptions) => live(context, liveOptions),
    deleteMessages: (ids, call) => deleteMessages(context, ids, call),
    setConsent: (peer, choice, call) => setConsent(context, peer, choice, call),
    setConsentPolicy: (mode, call) => setConsentPolicy(context, mode, call),
    consent: (call) => consent(context, call),
    proveMessages: (messages, call) => proveMessages(context, messages, call),
    audit: (auditOptions) => audit(context, auditOptions),
  };
}
