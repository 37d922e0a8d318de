// @neutral/relay: the neutralService node as a library. `createNode(config)` is the node as
// `neutral-relay` runs it (config from `parseConfig`); `createRelay` assembles one over a store you
// opened yourself; the stores, the handlers, the auth and crypto pieces, and the typed
// infrastructure errors are below. Test support is `@neutral/relay/testing`.
export { createNode, type NodeOptions, type RelayNode } from "./node/assemble.js";
export { createRelay, type Relay, type RelayOptions } from "./relay.js";
export { parseConfig, helpText, ConfigError, type RelayConfig, type MetricsConfig, type LogLevel } from "./config.js";
export { createHandlers, type Caller, type Limits, type RelayContext, type ServiceOptions } from "./rpc/index.js";
export { createAuthenticator, type Authenticate } from "./auth/authenticator.js";
export { verifySiweToken, type VerifiedToken, type TokenRules } from "./auth/siwe-token.js";
export { loadSecp256k1, isXOnlyPublicKey, type Secp256k1 } from "./crypto/secp256k1.js";
export { messageDigest, receiptDigest, keyBundleDigest, type MessageFields, type ReceiptRole, type KeyBundleFields } from "./crypto/eip712.js";
export { loadNodeKey, generateNodeKey, NODE_KEY_FILE, type NodeKey } from "./node-key.js";
export { openSqliteStore, DATABASE_FILE, type SqliteStoreOptions } from "./storage/sqlite.js";
export { openPostgresStore, describeDatabaseUrl, type PostgresStore, type PostgresStoreOptions } from "./storage/postgres.js";
export { openNodeStorage, type NodeStorage, type OpenStorageOptions } from "./node-storage.js";
export {
  RelayError,
  StoreClosedError,
  WriterStoppedError,
  PrimaryGoneError,
  SchemaTooNewError,
  isRelayError,
  type RelayErrorCode,
  type RelayInfrastructureError,
} from "./errors.js";
export { messageJson, type AcceptedMessage } from "./message.js";
export type { MessageStore, KeyStore, ConsentStore, ConsentVerdict, StoredConsentPolicy, StoredConsentRecord, StoredKeyBundle, PageQuery, Page, StoredMessage, MailboxRange, Side, AppendResult, LogEntry, LogEntryRemoval, LogTile } from "./storage/store.js";
export { ID_CEILING } from "./storage/store.js";
export { LogTree, TILE_HEIGHT, storeLogHashes, wholeTiles, type LogHashes } from "./mailbox-log/tree.js";
export { createLogger } from "./log.js";
