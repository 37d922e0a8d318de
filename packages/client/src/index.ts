// The typed client (generated) and its runtime.
export * from "./generated/methods.js";
export type * from "./generated/types.js";
/** The spec's application errors by name, e.g. `errors.Unauthorized.code` (-32001), to compare with `RpcError.code`. */
export { errors, type ErrorName } from "./generated/errors.js";
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
  type StreamEvent,
  type StreamOptions,
} from "./rpc.js";
/** Server-Sent Events, read incrementally (what `subscribe` streams are made of). */
export { createSseParser, readSse, type ReadSseOptions, type SseEvent, type SseParser, type SseParserOptions } from "@neutral/protocol";

// The SDK: sign in, encrypt, send, read, verify. Its actions standalone: @neutral/client/actions.
export {
  createNeutral,
  type ChatOptions,
  type ConsentChoice,
  type DeliveryWaitOptions,
  type InboxOptions,
  type MessagePage,
  type MessagePages,
  type Neutral,
  type NeutralOptions,
  type PageOptions,
  type SendOptions,
} from "./neutral.js";
export type { DecryptedMessage, DeliveryStatus, MessageChecks } from "./messages.js";
export { memoryAuditStore, memoryHeadStore, type AuditState, type AuditStore, type HeadStore } from "./context.js";
export { headDigest, mailboxProblems, type MailboxCheck, type MailboxProblem, type MailboxProblemKind, type VerifiedHead } from "./mailbox-proof.js";
export { verifyProof, type BrokenPromiseProof, type HeadsProof, type MisbehaviourProof, type PromisedMessage, type ProofVerdict } from "./misbehaviour-proof.js";
export type { LogStatementProof } from "./log-statement-proof.js";
export type { ProveMessagesReturnType } from "./actions/proveMessages.js";
export type { AuditReturnType } from "./actions/audit.js";
export type { MessageToDelete } from "./actions/deleteMessages.js";
export type { ProveDeliveryReturnType, ProvenDelivery } from "./actions/proveDelivery.js";
export type { Accounting } from "./mailbox-audit.js";
export type { LiveInterruption, LiveOptions, LiveState } from "./live.js";
export { NeutralError, type NeutralErrorCode, type NeutralErrorWith, type RequestErrorType } from "./errors.js";
export { toSigner, type AccountSource, type Eip1193Provider, type LocalAccountLike, type Signer } from "./account.js";
export { createBearerToken, type BearerToken, type SignInOptions } from "./auth/token.js";
export { deriveMessagingKey, isValidKeyBundle, signKeyBundle, type MessagingKey } from "./messaging-key.js";
export { isValidHomeRecord, signHomeRecord } from "./home.js";
export { generatePrivateKey, addressOfKey } from "./keys.js";
