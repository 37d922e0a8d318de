// @neutral/protocol: the facts of neutralService that JSON Schema cannot carry, written once.
// Public test keys and fixture signers are in `@neutral/protocol/testing`, not here.
export { checksumAddress, isAddress } from "./address.js";
export {
  DOMAIN_SEPARATOR,
  EIP712_DOMAIN,
  EIP712_DOMAIN_TYPE,
  EIP712_PREFIX,
  EIP712_TYPES,
  encodeType,
  hashStruct,
  hashTypedData,
  hashTypedDataWithHashedBytes,
  typeHash,
  typedData,
  typedDataV4,
  type PrimaryType,
  type TypedData,
  type TypedValues,
} from "./eip712.js";
export { fromHex, isHex, toHex, type Hex } from "./hex.js";
export { buildSiweMessage, parseSiweMessage, parseSiweTime, type SiweFields, type SiweMessage } from "./siwe.js";
export {
  DEFAULT_SIWE_STATEMENT,
  DEFAULT_TOKEN_LIFETIME_MS,
  ISSUED_AT_SKEW_MS,
  MAX_TOKEN_LIFETIME_MS,
  NONCE_PATTERN,
  checkBearerToken,
  decodeBearerToken,
  describeBearerToken,
  encodeBearerToken,
  newNonce,
  personalMessageDigest,
  tokenExpiry,
  type CheckedToken,
  type Decoded,
  type TokenRules,
} from "./bearer-token.js";
export {
  MAX_REASON_LENGTH,
  MESSAGE_JSON_ID_HEAD,
  failedMessageJson,
  isPendingMessageJson,
  isUndeliveredMessageJson,
  messageIdOf,
  messageJson,
  messageJsonTail,
  messageJsonWithId,
  statesPosition,
  type WireDeliveryStatus,
  type WireMessageFields,
} from "./wire-message.js";
export {
  NODE_AUTH_SCHEME,
  deliveryAnswerDigest,
  encodeNodeAuthorization,
  isNodeAuthorization,
  nodeRequestBodyDigest,
  nodeRequestDigest,
  nodeRequestDigestOf,
  parseNodeAuthorization,
  type NodeAuthorization,
  type NodeRequestFields,
} from "./node-request.js";
export { supersedes, type SignedRecord } from "./signed-records.js";
export { DERIVATION_NOTICE, DERIVATION_SALT, DERIVATION_VERSION, derivationInfo, derivationValues } from "./messaging-key.js";
export { ERROR_CODES, JSON_RPC_ERRORS, errors, type ErrorCode, type ErrorName } from "./errors.js";
export { DEFAULT_LIMITS, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, MAX_PRIOR_HEADS, MESSAGE_ID_PATTERN, SPEC_VERSION, type SpecLimits } from "./limits.js";
export { createSseParser, readSse, type ReadSseOptions, type SseEvent, type SseParser, type SseParserOptions } from "./sse.js";
export {
  MAILBOX_LEAF_BYTES,
  MAILBOX_LEAF_VERSION,
  MAILBOX_ROLE_BYTE,
  expiredMessageDigest,
  hashedMessageDigest,
  logReceiptDigest,
  mailboxHeadDigest,
  mailboxLeaf,
  mailboxLeafHash,
  POSITION_MEMBER,
  statedPosition,
  type ExpiredMessageFields,
  type Keccak256,
  type MailboxHeadFields,
  type MailboxLeafFields,
  type MailboxRole,
  type ReceiptRole,
} from "./mailbox-log.js";
export {
  LOG_ENTRY_STATE,
  LOG_ENTRY_STATEMENT_BYTES,
  deletionRequestDigest,
  logEntriesHash,
  logEntryHash,
  logPositionStatement,
  logStatementDigest,
  type DeletionRequestFields,
  type LogEntryState,
  type LogEntryStatement,
  type LogRemovalFields,
} from "./log-statement.js";
export { type Sha256 } from "./sha256.js";
export {
  EMPTY_MERKLE_FRONTIER,
  MERKLE_HASH_BYTES,
  MerkleProofError,
  merkleConsistencyProof,
  merkleFrontierAppend,
  merkleFrontierRoot,
  merkleInclusionProof,
  merkleLeafHash,
  merkleNodeHash,
  merkleRoot,
  merkleMultiproof,
  merkleMultiproofSubtrees,
  merkleRootFromInclusionProof,
  merkleRootFromMultiproof,
  verifyMerkleConsistency,
  verifyMerkleInclusion,
  verifyMerkleMultiproof,
  type MerkleFrontier,
  type MerkleProvenLeaf,
} from "./merkle.js";
