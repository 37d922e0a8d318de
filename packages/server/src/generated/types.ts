// generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).
//
// Types of neutralService 3.3.0: one per component schema, and the params and
// result of each method.

/** An account address: `0x` + 40 hex digits. Any case on input; lowercase on output. */
export type Address = string;

/** A `0x`-prefixed hex string. */
export type Hex = string;

/** A 65-byte secp256k1 signature (r, s, v): `0x` + 130 hex digits. */
export type Signature = string;

/** A messaging public key: an x-only secp256k1 public key (the 32-byte x coordinate, the BIP-340 form NIP-44 v2 uses) as `0x` + 64 hex digits. It must be the x coordinate of a point on the curve. Any case on input; lowercase on output. */
export type MessagingKey = string;

/** An encrypted message body as hex without `0x`: a non-empty, whole number of bytes (lowercase on output). At most `nodeInfo.limits.maxMessageBytes` bytes (64 KiB by default); larger is error -32005. */
export type Ciphertext = string;

/** A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position. */
export type MessageId = string;

/** Milliseconds since the Unix epoch. */
export type Timestamp = number;

/** Page size: an integer from 1 to 100. */
export type Limit = number;

/** Which side of the mailbox to read: messages `received` by the user (the inbox), messages the user `sent`, or `all` of them (for syncing a second device). */
export type Direction = "received" | "sent" | "all";

/** Selects messages of the authenticated user's mailbox. Every member is optional; unknown members are an error. */
export interface InboxFilter {
  /** Only messages from this sender. */
  from?: Address;
  /** Which side of the mailbox to read: messages `received` by the user (the inbox), messages the user `sent`, or `all` of them (for syncing a second device). */
  direction?: Direction;
  /** Only messages whose timestamp is at or after this (inclusive). */
  since?: Timestamp;
  /** Only messages whose timestamp is before this (exclusive). */
  until?: Timestamp;
  /** `requests` reads the requests folder (received messages only: `direction` must then be absent or "received"). Default `inbox`. */
  folder?: Folder;
}

/** Selects one chat of the authenticated user and an optional time window. Unknown members are an error. */
export interface ChatFilter {
  /** The peer whose chat to read. Absent: the most recently active chat. */
  chat?: Address;
  /** Only messages whose timestamp is at or after this (inclusive). */
  since?: Timestamp;
  /** Only messages whose timestamp is before this (exclusive). */
  until?: Timestamp;
  /** `requests` reads what the peer left in the requests folder. Default `inbox`. */
  folder?: Folder;
}

/** A message as its sender signs and sends it. */
export interface SignedMessage {
  /** The sender; must be the authenticated user. */
  from: Address;
  /** The recipient. */
  to: Address;
  /** An encrypted message body as hex without `0x`: a non-empty, whole number of bytes (lowercase on output). At most `nodeInfo.limits.maxMessageBytes` bytes (64 KiB by default); larger is error -32005. */
  message: Ciphertext;
  /** Set by the sender and covered by its signature; must be within the node's clock window. */
  timestamp: Timestamp;
  /** Optional: when the message expires, ms since the Unix epoch, set by the sender (later than `timestamp`). Then the signature is over `ExpiringMessage(address from,address to,bytes message,uint64 timestamp,uint64 expires)` instead of `Message`, so no node can extend it. From that time no read or stream serves the message (within a second) and every node holding it deletes it; the node's own retention still applies when it is shorter. */
  expires?: Timestamp;
  /** The sender's EIP-712 signature of `Message(address from,address to,bytes message,uint64 timestamp)`, or of `ExpiringMessage(address from,address to,bytes message,uint64 timestamp,uint64 expires)` when `expires` is present. */
  signature: Signature;
}

/** A stored message, as every read returns it. A sender's copy of a message to an account homed on another node (federation) carries `status` while it is not delivered. */
export interface Message {
  /** A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position. */
  id: MessageId;
  /** An encrypted message body as hex without `0x`: a non-empty, whole number of bytes (lowercase on output). At most `nodeInfo.limits.maxMessageBytes` bytes (64 KiB by default); larger is error -32005. */
  message: Ciphertext;
  /** The sender. */
  from: Address;
  /** The recipient. */
  to: Address;
  /** The sender's EIP-712 signature of the message. */
  signature: Signature;
  /** The sender's service node's EIP-712 signature, role "sender": a `LogReceipt` over `sender_seq` when the message carries one (spec 3.0.0), else a `Receipt`. */
  sender_receipt: Signature;
  /** The position of the sender's copy in the sender's mailbox log on the sender's home node, which `sender_receipt` binds (a `LogReceipt`, spec 3.0.0). Absent: `sender_receipt` is a `Receipt` (a message stored before spec 3.0.0). */
  sender_seq?: number;
  /** The receiver's service node's EIP-712 signature, role "receiver": a `LogReceipt` over `receiver_seq` when the message carries one (spec 3.0.0), else a `Receipt`. Signed by the node the recipient's home record names. Absent while the message is pending or failed. */
  receiver_receipt?: Signature;
  /** The position of the recipient's copy in the recipient's mailbox log on the recipient's home node, which `receiver_receipt` binds (a `LogReceipt`, spec 3.0.0). Absent with `receiver_receipt`: a `Receipt`. */
  receiver_seq?: number;
  /** Milliseconds since the Unix epoch. */
  timestamp: Timestamp;
  /** Present when the sender gave the message an expiry (ms since the Unix epoch), covered by its signature (`ExpiringMessage`): the message is not served after it. */
  expires?: Timestamp;
  /** Only on a sender's copy of a message to an account homed on another node: `pending` until the recipient's node has stored it (then the node drops `status` and adds `receiver_receipt`: absent means delivered), `failed` when it was refused or the retry period ended. A node may also say `delivered` explicitly. */
  status?: "pending" | "delivered" | "failed";
  /** With `status: "failed"`: why, in words. */
  reason?: string;
}

/** An account's messaging public key, signed by the account: the directory entry other clients encrypt to. */
export interface KeyBundle {
  /** The account the key belongs to; the signer of the bundle. */
  account: Address;
  /** The account's messaging public key. */
  key: MessagingKey;
  /** When the bundle was made, set by the account and covered by its signature. A node keeps the bundle with the greatest timestamp; it may be in the past, but not more than `nodeInfo.limits.clockSkewMs` in the future. */
  timestamp: Timestamp;
  /** The account's EIP-712 signature of `KeyBundle(address account,bytes32 key,uint64 timestamp)`, domain `{name: "neutralService", version: "1"}`. */
  signature: Signature;
}

/** An account's signed choice of home node: where its mailbox is kept and which node signs its messages' receipts. The newest timestamp wins. */
export interface HomeRecord {
  /** The account; the signer of the record. */
  account: Address;
  /** The home node's address (the key that signs its receipts, `nodeInfo.address`). */
  node: Address;
  /** When the account made the record, covered by its signature. At most `nodeInfo.limits.clockSkewMs` in the future. */
  timestamp: Timestamp;
  /** The account's EIP-712 signature of `Home(address account,address node,uint64 timestamp)`, domain `{name: "neutralService", version: "1"}`. */
  signature: Signature;
}

/** A message as the sender's home node delivers it to the recipient's: the signed message and the sending node's receipt. */
export interface RelayedMessage {
  /** The sender, homed at the calling node. */
  from: Address;
  /** The recipient, homed at the called node. */
  to: Address;
  /** An encrypted message body as hex without `0x`: a non-empty, whole number of bytes (lowercase on output). At most `nodeInfo.limits.maxMessageBytes` bytes (64 KiB by default); larger is error -32005. */
  message: Ciphertext;
  /** Milliseconds since the Unix epoch. */
  timestamp: Timestamp;
  /** Optional: when the message expires, ms since the Unix epoch, set by the sender (later than `timestamp`). Then the signature is over `ExpiringMessage(address from,address to,bytes message,uint64 timestamp,uint64 expires)` instead of `Message`, so no node can extend it. From that time no read or stream serves the message (within a second) and every node holding it deletes it; the node's own retention still applies when it is shorter. */
  expires?: Timestamp;
  /** The sender's EIP-712 `Message` (or `ExpiringMessage`) signature. */
  signature: Signature;
  /** The calling node's receipt, role "sender": a `LogReceipt` over `sender_seq` when given (spec 3.0.0), else a `Receipt`. */
  sender_receipt: Signature;
  /** The position of the sender's copy in the sender's log on the calling node, which `sender_receipt` binds (spec 3.0.0). */
  sender_seq?: number;
}

/** Why the called node did not store a delivered message. */
export interface DeliveryRefusal {
  /** A code of the Errors table: -32002 (the sender is not homed at the calling node, or the recipient not at the called one), -32003 (a signature or the sender receipt does not verify), -32005 (too large), -32602 (malformed), -32603 (the called node failed; try again). */
  code: number;
  message: string;
  /** True when delivering the same message again cannot succeed: the calling node marks it failed. False (a refusal for now, e.g. a quota of the recipient's node): the calling node holds back this message and the later ones from the same sender to the same recipient, and delivers them again later; its other messages to the called node go on. */
  permanent: boolean;
  /** With -32002 for a recipient homed elsewhere: the recipient's newer home record, so the calling node can deliver there instead. */
  home?: HomeRecord;
  /** With a refusal for now: seconds after which delivering the message again may succeed (a quota's refill). The calling node waits at least that long before it tries this sender's messages to this recipient again. */
  retryAfter?: number;
}

/** What became of one delivered message: its receiver receipt, or a refusal. */
export type DeliveryOutcome = {
  /** The called node's receipt, role "receiver": the message is stored in the recipient's inbox. A `LogReceipt` over `receiver_seq` when given (spec 3.0.0), else a `Receipt`. */
  receiver_receipt: Signature;
  /** The position of the recipient's copy in the recipient's log on the called node, which `receiver_receipt` binds (spec 3.0.0). */
  receiver_seq?: number;
} | {
  /** Why the called node did not store a delivered message. */
  refused: DeliveryRefusal;
};

/** The outcome of each delivered message, in the order they were given, signed by the called node. */
export interface DeliveryResult {
  outcomes: DeliveryOutcome[];
  /** The called node's EIP-712 signature of `DeliveryAnswer(address node,bytes32 messages,bytes32 outcomes)` (see the type's description): the calling node checks this one signature rather than each receipt, and an answer changed on the way, or given for other messages, does not verify. */
  signature: Signature;
}

/** What the called node itself holds for the accounts asked about (it asks no one else): each one's newest home record and key bundle, where it has them. */
export interface DirectoryAnswer {
  homes: HomeRecord[];
  keys: KeyBundle[];
}

/** One page of a mailbox walk. */
export interface InboxPage {
  /** The inbox owner: the authenticated user. */
  address: Address;
  /** Messages in walk order. */
  data: Message[];
  /** True exactly when no further message exists in the walk's direction. False on a page that stopped early (see `maxPageScan`, `maxResponseBytes`). */
  end: boolean;
  /** Where the next page continues, when that is not the last element's `id`: the page stopped at the node's scan bound (`nodeInfo.limits.maxPageScan`, with `since`/`until`) having examined every message up to this id. Pass it as `after` when walking forwards, as `before` when walking backwards. Absent on every other page. */
  cursor?: MessageId;
  /** Only when the request asked with `proof`: a head the node signed after reading the page, each of the caller's copies of the messages on it with its position and inclusion proof (a message to oneself has two), and, with `proof.since`, the consistency proof from that size. The proof counts against the answer budget (`maxResponseBytes`): a page stops early rather than outgrow it. */
  proof?: MailboxProof;
}

/** One page of a chat walk. */
export interface ChatPage {
  /** The chat's id: the peer's address. */
  id: Address;
  /** Messages in walk order. */
  data: Message[];
  /** True exactly when no further message exists in the walk's direction. False on a page that stopped early (see `maxPageScan`, `maxResponseBytes`). */
  end: boolean;
  /** Where the next page continues, when that is not the last element's `id`: the page stopped at the node's scan bound (`nodeInfo.limits.maxPageScan`, with `since`/`until`) having examined every message up to this id. Pass it as `after` when walking forwards, as `before` when walking backwards. Absent on every other page. */
  cursor?: MessageId;
  /** Only when the request asked with `proof`: a head the node signed after reading the page, each of the caller's copies of the messages on it with its position and inclusion proof (a message to oneself has two), and, with `proof.since`, the consistency proof from that size. The proof counts against the answer budget (`maxResponseBytes`): a page stops early rather than outgrow it. */
  proof?: MailboxProof;
}

/** The limits this node enforces. */
export interface NodeLimits {
  /** Largest accepted `limit`. */
  maxLimit: number;
  /** Most entries in one batch. */
  maxBatch: number;
  /** Largest request body, in bytes. */
  maxBodyBytes: number;
  /** Largest message body, in bytes of ciphertext. */
  maxMessageBytes: number;
  /** Accepted distance between a message's timestamp and the node's clock, in ms; also how far in the future a key bundle's timestamp may be. */
  clockSkewMs: number;
  /** The answer budget of one HTTP request, in bytes of message JSON: a page stops before the message that would pass what is left of it (holding at least one), and a batch entry that finds it spent is answered -32005 with `data: {reason: "response budget", limit}` and not run; ask for the rest in another request. */
  maxResponseBytes?: number;
  /** With `since`/`until`, the most messages of each part of a mailbox (received, sent) one page examines; the page then stops early and its `cursor` says where to go on. */
  maxPageScan?: number;
  /** Per client IP, for the whole node (all its processes): cost units per second, in bursts of up to twice this. Each JSON-RPC entry costs 1, plus 1 if it checks a signature (`sendMessage`, `publishKey`, `publishHome`); a bearer token the node has not verified yet costs 1 more. A request that finds its client's budget empty is refused whole: HTTP 429 with `Retry-After` and -32029. In a batch, the entries that no longer fit are answered -32029 with `data.retryAfter` (seconds) and were not run; the entries before them were. Absent: the node does not limit (a proxy in front of it may). */
  rateLimit?: number;
  /** Per peer node, for the whole node: cost units per second of the peer's node-to-node calls, in bursts of up to twice this (at least two full deliveries). A delivery costs 1, plus 2 per message (the sender's signature and the sender receipt are checked) and 1 per home record it carries; a lookup 1, plus 1 per home record and 1 per 10 accounts. A call that finds the peer's budget spent is refused whole: HTTP 429 with `Retry-After` and -32029 (the peer delivers again later). Absent: the node does not limit its peers. */
  peerRateLimit?: number;
  /** The period, in seconds, of the storage quotas below. Present when one of them is. */
  quotaPeriodSeconds?: number;
  /** Messages one sender may store on this node per `quotaPeriodSeconds`: as a token bucket, so up to this many at once, then refilled evenly over the period. A resend of a stored message (same digest) does not count. Past it, `sendMessage` answers -32029 with `data: {quota: "senderQuotaMessages", limit, periodSeconds, retryAfter}`. Absent: no such quota. */
  senderQuotaMessages?: number;
  /** Bytes of ciphertext (`message` decoded from hex) one sender may store on this node per `quotaPeriodSeconds`, counted like `senderQuotaMessages`; refused with `data.quota` "senderQuotaBytes". Absent: no such quota. */
  senderQuotaBytes?: number;
  /** Messages one recipient's mailbox may receive on this node per `quotaPeriodSeconds`, from all senders together, counted like `senderQuotaMessages`; refused with `data.quota` "recipientQuotaMessages". The requests folder (consent) has a quota of its own of the same size: messages from senders the recipient has not allowed never spend what the senders it allowed may send. Absent: no such quota. */
  recipientQuotaMessages?: number;
  /** Bytes of ciphertext one recipient's mailbox may receive on this node per `quotaPeriodSeconds`, counted like `senderQuotaMessages`, the requests folder apart as for `recipientQuotaMessages`; refused with `data.quota` "recipientQuotaBytes". Absent: no such quota. */
  recipientQuotaBytes?: number;
  /** How long `sendMessage` waits for the receipt of the recipient's node when the recipient is homed on another node, in ms; past it the answer is the pending message. */
  deliveryWaitMs?: number;
  /** How long this node keeps trying to deliver a message to another node, in seconds; then the message fails. */
  retryPeriodSeconds?: number;
  /** Most `subscribe` streams one node process keeps open at once (a node with several worker processes or replicas: each serves at most this many), and never more than its share of the connections the node lets streams hold (it keeps the rest for other requests). At the bound, a stream from a client address holding fewer streams than the one holding the most ends that address's oldest stream (`neutralService_end`, reason `limit`); otherwise it is refused: HTTP 429, -32029 with `data: {reason: "subscriptions", limit, retryAfter}`. */
  maxSubscriptions?: number;
  /** Most `subscribe` streams one account keeps open at once, per node process. Opening one more ends the account's oldest stream with the `limit` reason (a client reconnecting before the node noticed its old connection drop is not locked out). */
  maxSubscriptionsPerAccount?: number;
  /** Bytes of events a stream lets wait for its client to read; past it the node reads no more for that stream until the client catches up. The node also reads the store for a stream in pieces of about this size, so a stream holds about twice this (and one message) at most. */
  subscriptionBufferBytes?: number;
  /** The window over which a client that is behind must keep up: while events wait for it, it must read at least `subscriptionBufferBytes` in every window of this length, else the node ends the stream with the `slow-consumer` reason. */
  subscriptionStallMs?: number;
  /** Interval of the keep-alive comments (`: keep-alive`) of an idle stream, ms (at most 15,000). */
  keepAliveMs?: number;
  /** How long this node keeps a message after it stored it, in seconds: once that old, the message is no longer served (by any read or stream) and a background sweep deletes it. 0: kept until its owner deletes it. Every copy on this node counts from when this node stored it, so a message delivered days after it was sent is kept as long as one sent now. */
  retentionSeconds?: number;
  /** Messages one sender whom a recipient has not allowed may leave in that recipient's requests folder per `quotaPeriodSeconds` (recipients with an "allowed-only" policy). Past it, `sendMessage` answers -32029 with `data: {quota: "requestQuotaMessages", limit, periodSeconds, retryAfter}`. Absent: no such quota. */
  requestQuotaMessages?: number;
}

/** A node this node federates with. */
export interface Peer {
  /** The peer's public base URL. */
  url: string;
  /** The peer's node address: pinned by the operator, or the one first seen. Absent until known. */
  address?: Address;
}

/** What a service node says about itself. */
export interface NodeInfo {
  /** The node's address: the key that signs its receipts. */
  address: Address;
  /** The node software's name. */
  software: string;
  /** The node software's version. */
  version: string;
  /** The Sign-In with Ethereum `domain` values this node accepts in tokens. A loopback one stands for the machine: the node accepts each of its loopback names (`127.0.0.1`, `localhost`, `[::1]`) at that port. */
  domains: string[];
  /** The limits this node enforces. */
  limits: NodeLimits;
  /** The node's public base URL: where its peers reach it. */
  url?: string;
  /** The nodes this node federates with (empty: a node on its own). */
  peers?: Peer[];
}

/** What a subscription streams: getInbox's `InboxFilter` (absent or `{}`: every received message), or getChat's `ChatFilter` with `chat` given (both sides of one chat). */
export type SubscribeFilter = InboxFilter | ChatFilter & {
  /** An account address: `0x` + 40 hex digits. Any case on input; lowercase on output. */
  chat: Address;
};

/** Why the node ended a stream. `token-expired`: the bearer token expired (subscribe again with a fresh one). `shutdown`: the node is stopping. `slow-consumer`: while events waited for the client (`nodeInfo.limits.subscriptionBufferBytes` of them unread), it read less than that in `nodeInfo.limits.subscriptionStallMs`. `limit`: the account opened more than `nodeInfo.limits.maxSubscriptionsPerAccount` streams, and this was its oldest; or the node process was at `nodeInfo.limits.maxSubscriptions` when a client from another address subscribed, and this was the oldest stream of the address holding the most. Resume from the last event id received. */
export type EndReason = "token-expired" | "shutdown" | "slow-consumer" | "limit";

/** An account's signed request to delete its copies of messages on its home node: the received copies of messages it received, the sent copies of messages it sent (both for a message to itself). The other party's copy is not touched. With `leaves` (spec 2.10.0, what clients sign), it names the positions of those copies in the account's mailbox log, and deletes exactly them. */
export interface DeletionRequest {
  /** The account whose copies are deleted; the signer of the request. */
  account: Address;
  /** The messages, by their ids on this node (1 to 100, each once). */
  ids: MessageId[];
  /** The leaf hashes of the account's copies of `ids` in its mailbox log (each copy's `leafHash`, as `neutralService_getProof` answers it for those ids; a message to oneself has two), in any order (none when none of them has a copy here): the request deletes exactly the copies whose positions have these leaves. Every copy of `ids` in the mailbox must be named, and nothing else (-32602, `data.positions` the copies' positions, to sign again). */
  leaves?: Hash[];
  /** When the account made the request, covered by its signature. At most `nodeInfo.limits.clockSkewMs` in the future. A request without `leaves` deletes something only within `clockSkewMs` of the node's clock: sent again later, it answers its receipt while none of its messages is in the mailbox, and is refused (-32004) while one is. */
  timestamp: Timestamp;
  /** The account's EIP-712 signature, domain `{name: "neutralService", version: "1"}`, with `ids` as numbers: of `PositionedDeletion(address account,uint64[] ids,bytes32[] leaves,uint64 timestamp)` with `leaves`, of `Deletion(address account,uint64[] ids,uint64 timestamp)` without. */
  signature: Signature;
}

/** The node's receipt for a deletion: it signs that none of the request's messages is in the account's mailbox on this node any more (deleted now, or not there before). The same request always gets the same receipt. */
export interface DeletionReceipt {
  /** The node (`nodeInfo.address`): the signer of the receipt. */
  node: Address;
  /** The request's account. */
  account: Address;
  /** The request's ids, as given. */
  ids: MessageId[];
  /** The EIP-712 digest of the account's `Deletion`: what the receipt's signature covers. */
  request: string;
  /** The node's EIP-712 signature of `DeletionReceipt(address node,bytes32 request)`. */
  signature: Signature;
}

/** Which folder of received messages to read: the `inbox`, or `requests`, where first contact from a sender the account has not allowed lands while its consent policy is "allowed-only" (readable, but kept out of the inbox). A message stays in the folder it landed in: allowing its sender later moves later messages, not earlier ones, so that cursor walks stay exact. */
export type Folder = "inbox" | "requests";

/** An account's signed consent about one peer, kept on its home node. "blocked": the peer's messages to the account are refused (-32002 with `data.reason` "not accepted", nothing more); "allowed": they reach the inbox even under an "allowed-only" policy; "none": neither (a later record undoes an earlier one). The newest timestamp per (account, peer) wins. */
export interface ConsentRecord {
  /** The account; the signer. */
  account: Address;
  /** The other account it is about. */
  peer: Address;
  /** What the account decided about the peer. */
  state: "allowed" | "blocked" | "none";
  /** When the account decided, covered by its signature. At most `nodeInfo.limits.clockSkewMs` in the future. */
  timestamp: Timestamp;
  /** The account's EIP-712 signature of `Consent(address account,address peer,string state,uint64 timestamp)`, domain `{name: "neutralService", version: "1"}`. */
  signature: Signature;
}

/** An account's signed policy of who reaches its inbox. "open" (the default, as without a policy): every sender that is not blocked. "allowed-only": senders it allowed, and senders it has itself written to; anyone else's messages land in the requests folder (`folder: "requests"`), at most `nodeInfo.limits.requestQuotaMessages` per sender per `quotaPeriodSeconds`. The newest timestamp wins. */
export interface ConsentPolicy {
  /** The account; the signer. */
  account: Address;
  /** Who reaches the inbox. */
  mode: "open" | "allowed-only";
  /** When the account decided, covered by its signature. At most `nodeInfo.limits.clockSkewMs` in the future. */
  timestamp: Timestamp;
  /** The account's EIP-712 signature of `ConsentPolicy(address account,string mode,uint64 timestamp)`, domain `{name: "neutralService", version: "1"}`. */
  signature: Signature;
}

/** An account's consent as its home node keeps it: its policy (null: none published, which means "open") and its records about the peers asked for or listed (records with state "none" are not listed by `getConsent`). */
export interface ConsentState {
  /** The authenticated account. */
  account: Address;
  /** The current policy, or null. */
  policy: ConsentPolicy | null;
  /** Current records, by peer address. */
  records: ConsentRecord[];
  /** `getConsent` only: true when no record follows the last one listed. */
  end?: boolean;
}

/** What `neutralService_importMessages` stored: the account's ids on this node, one per message given, in order. */
export interface ImportResult {
  /** The id of each message given, on this node (new, or the one it already had here). */
  ids: MessageId[];
}

/** A 32-byte hash: `0x` + 64 lowercase hex digits. */
export type Hash = string;

/** A page of the caller's mailbox log, positions `from` on, none past the head's `size`: every position, also those whose copy was deleted since (its message is no longer read). `end` is true when the page reaches the head's size. The node signs what the page says (`signature`). */
export interface LogPage {
  /** A node's signed statement of an account's mailbox log (the verifiable mailbox): at `timestamp` (when the node signed it) the log had `size` positions, whose RFC 9162 tree has root `root`. `signature` is the node's EIP-712 `MailboxHead(address account,uint64 size,bytes32 root,uint64 timestamp)` signature; it recovers the node's address (`nodeInfo.address`). A node signs a head when a read needs one newer than the last it signed, so two reads of an unchanged log may get the same head. */
  head: MailboxHead;
  entries: LogPosition[];
  end: boolean;
  /** The account's log at its former homes, as its imports brought it (`neutralService_importMessages` `head`): per former node, the largest head given, in the order they were first given. Each is that node's signature, not this one's. A client that verified a head of the account at one of those nodes checks it against this one: a smaller size here is a history cut short before the move, the same size with another root another history; either way two heads that node signed, a portable proof. Absent when the account imported none. */
  prior?: MailboxHead[];
  /** The node's EIP-712 `LogStatement(bytes32 head,uint64 from,bytes32 entries,uint64 timestamp)` signature (from spec 3.1.0; `timestamp` from 3.2.0): `head` the EIP-712 digest of this page's `head`, `from` the page's first position (the request's `from`), `timestamp` the page's `timestamp`, `entries` the SHA-256 of the concatenation of each entry's statement, in order: the SHA-256 of the 74 bytes `seq` (uint64, big-endian) ‖ role (1 byte: 0x01 received, 0x02 sent) ‖ `leafHash` (32) ‖ state (1 byte) ‖ detail (32), where the state and its detail are 0x01 and the SHA-256 of the message as the page carries it (`messages: true`; its JSON text, UTF-8, without whitespace and with its members in the order the page gives them, as `JSON.stringify` writes what a client parsed), 0x02 and zeros for a copy held (the page asked without `messages`), 0x03 and the SHA-256 of the request's EIP-712 digest (`PositionedDeletion`, or `Deletion` for a request without `leaves`) followed by its 65-byte signature for `removed` by the account, 0x04 and the EIP-712 digest of the `ExpiringMessage` that `removed.message` gives for its sender's end, 0x05 and the retention the node applied in seconds (`removed.retentionSeconds`, a uint256, big-endian; zeros when absent, before 3.2.0) for the node's retention, and 0x00 and zeros for a position with neither its message nor a reason (`messages: true`), which an honest node has only for a copy it removed before it kept reasons, and which is reported as missing all the same. A client keeps the page's statement: a position of state 0x00, a message that does not give its position's leaf or does not carry its sender's signature, or a reason that does not hold (a request that is not the account's signature or does not name the position's leaf; an end whose message does not give the leaf), is a portable proof of the node's word against itself (`verifyProof`). SHA-256 throughout, not keccak-256: a node hashes every message of an audit's pages, and SHA-256 is native where keccak-256 is not. Absent from a node before 3.1.0. */
  signature?: Signature;
  /** When the node signed this page, ms since the Unix epoch (from spec 3.2.0), part of what it signs (`signature`): what the page says of each position, it said then. A retention removal (`LogRetention`) is checked against it. Absent from a node before 3.2.0: a 3.1.0 node's statement had no time, and a client of 3.2.0 takes its pages as unsigned. */
  timestamp?: number;
}

/** One position of an account's mailbox log: the copy that took it (`id`, `role`) and its leaf hash, SHA-256(0x00 ‖ leaf) of the 82-byte leaf (see "The verifiable mailbox"). A client recomputes the leaf from the message it holds (or `message`, when the log read was asked with `messages`): the account, `seq`, the role, the other party and the message's EIP-712 digest. A position whose copy is gone carries `removed`: why, with what makes it checkable (`LogRemoval`). */
export interface LogPosition {
  /** The position, from 1. */
  seq: number;
  /** A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position. */
  id: MessageId;
  /** "received": the account received the message (inbox or requests folder); "sent": it sent it. */
  role: "received" | "sent";
  /** A 32-byte hash: `0x` + 64 lowercase hex digits. */
  leafHash: Hash;
  /** Why a position's copy is no longer served, with what makes the reason checkable: the account's signed deletion request (`LogDeletion`), what remains of a message its sender's `expires` ended (`LogExpiry`), or the node's retention (`LogRetention`). A position without its message and without `removed` is one the node cannot account for. */
  removed?: LogRemoval;
  /** With `messages`: the copy, as reads serve it, while the node serves it (absent once it is gone or no longer served: then `removed` says why). */
  message?: Message;
}

/** Why a position's copy is no longer served, with what makes the reason checkable: the account's signed deletion request (`LogDeletion`), what remains of a message its sender's `expires` ended (`LogExpiry`), or the node's retention (`LogRetention`). A position without its message and without `removed` is one the node cannot account for. */
export type LogRemoval = LogDeletion | LogExpiry | LogRetention;

/** The account deleted the position's copy, and `request` is the `DeletionRequest` it signed (as `neutralService_deleteMessages` took it). A client checks that the request's signature recovers the account whose log it is, and that it names the position: its `leaves` include the position's `leafHash` (a request signed with `leaves`), or, for a `Deletion` signed before spec 2.10.0, its `ids` include the position's `id` and no head the client verified shows the position stored after the request's time plus `clockSkewMs`. */
export interface LogDeletion {
  /** "deleted": by the account's own request. */
  reason: "deleted";
  /** An account's signed request to delete its copies of messages on its home node: the received copies of messages it received, the sent copies of messages it sent (both for a message to itself). The other party's copy is not touched. With `leaves` (spec 2.10.0, what clients sign), it names the positions of those copies in the account's mailbox log, and deletes exactly them. */
  request: DeletionRequest;
}

/** The message's sender gave it an end (`expires`, signed as `ExpiringMessage`), and the node removed every copy once it came. `message` keeps what a client needs to recompute the message's EIP-712 digest without its body, and so the position's leaf. A client checks that the leaf it recomputes is the position's `leafHash` (the account is `to` of a received copy, `from` of a sent one) and that `expires` is not after the head's `timestamp`. */
export interface LogExpiry {
  /** "expired": by the sender's signed end. */
  reason: "expired";
  /** What a node keeps of a message its sender's `expires` ended, once its body is gone: its signed fields, with the body as EIP-712 encodes it (`bytes` as their keccak-256). Its digest is EIP-712 `ExpiringMessage(address from,address to,bytes message,uint64 timestamp,uint64 expires)` with `messageHash` in the place of the body's encoding. */
  message: ExpiredMessage;
}

/** The node's retention removed the message (`nodeInfo.limits.retentionSeconds`, counted from when the node stored it). No one signs a storage time, so the claim is checked against what a client knows: a node with no retention (0) removes nothing this way; a position past the size of a head the client verified earlier was stored after that head's `timestamp`, so its removal before that time plus the retention is false; and a message's signed `timestamp`, where the client holds it, is at most `clockSkewMs` after it was stored. From spec 3.2.0 the page says the retention it applied (`retentionSeconds`) and signs when it said so (`LogPage.timestamp`): a page that gives a retention removal with `retentionSeconds` 0, or one signed less than the retention minus 5 minutes (300,000 ms: the margin for the clocks of a node's replicas) after the `timestamp` of a head the node signed whose `size` is below the position, is a portable proof of the node's word against itself. */
export interface LogRetention {
  /** "retention": by the node's published retention. */
  reason: "retention";
  /** The retention that removed the message, seconds (from spec 3.2.0), part of the page's statement: never more than the one that removed it (a node that raised its retention states the least it removed by), absent where the node does not know it (it removed the message before it kept the record). */
  retentionSeconds?: number;
}

/** What a node keeps of a message its sender's `expires` ended, once its body is gone: its signed fields, with the body as EIP-712 encodes it (`bytes` as their keccak-256). Its digest is EIP-712 `ExpiringMessage(address from,address to,bytes message,uint64 timestamp,uint64 expires)` with `messageHash` in the place of the body's encoding. */
export interface ExpiredMessage {
  /** The sender. */
  from: Address;
  /** The recipient. */
  to: Address;
  /** The message's `timestamp`, as its sender signed it. */
  timestamp: Timestamp;
  /** The message's `expires`, as its sender signed it. */
  expires: Timestamp;
  /** keccak-256 of the ciphertext's bytes (the message's `message`, hex-decoded). */
  messageHash: Hash;
}

/** A number of positions of an account's mailbox log (the verifiable mailbox): the size of a tree. */
export type LogSize = number;

/** A node's signed statement of an account's mailbox log (the verifiable mailbox): at `timestamp` (when the node signed it) the log had `size` positions, whose RFC 9162 tree has root `root`. `signature` is the node's EIP-712 `MailboxHead(address account,uint64 size,bytes32 root,uint64 timestamp)` signature; it recovers the node's address (`nodeInfo.address`). A node signs a head when a read needs one newer than the last it signed, so two reads of an unchanged log may get the same head. */
export interface MailboxHead {
  /** An account address: `0x` + 40 hex digits. Any case on input; lowercase on output. */
  account: Address;
  /** A number of positions of an account's mailbox log (the verifiable mailbox): the size of a tree. */
  size: LogSize;
  /** A 32-byte hash: `0x` + 64 lowercase hex digits. */
  root: Hash;
  /** Milliseconds since the Unix epoch. */
  timestamp: Timestamp;
  /** A 65-byte secp256k1 signature (r, s, v): `0x` + 130 hex digits. */
  signature: Signature;
}

/** What `neutralService_getProof` answers: the current head of the caller's log, each position of the messages asked about (a message to oneself has two: received and sent) with its inclusion proof in that head's tree, and, when the caller gave `since`, the consistency proof from the tree of that size to the head's (RFC 9162 §2.1.4; empty when the sizes are equal); with `compact`, the inclusion proofs as one `multiproof` instead of one per position; with `omitBound` too (a read, spec 3.3.0), `positions` without those the page's messages state themselves (`ProofRequest.omitBound`). */
export interface MailboxProof {
  /** A node's signed statement of an account's mailbox log (the verifiable mailbox): at `timestamp` (when the node signed it) the log had `size` positions, whose RFC 9162 tree has root `root`. `signature` is the node's EIP-712 `MailboxHead(address account,uint64 size,bytes32 root,uint64 timestamp)` signature; it recovers the node's address (`nodeInfo.address`). A node signs a head when a read needs one newer than the last it signed, so two reads of an unchanged log may get the same head. */
  head: MailboxHead;
  /** The positions proven: each copy's, of each message asked about or on the page, with its leaf hash (and, unless `compact`, its inclusion proof); in a read asked with `omitBound`, only those its messages do not state. */
  positions: ProvenPosition[];
  consistency?: Hash[];
  /** `multiproof` (with `compact`): the inclusion proofs of every position answered, as one list in which each hash appears once: walk the tree of the head's size from its root, splitting as RFC 9162's MTH does (the left subtree holds the largest power of two of leaves smaller than the whole): a subtree holding none of the positions gives its root, a single leaf that is one of them gives nothing, any other is walked into, left before right; `multiproof` is the roots given, in that order. Empty when no position is answered. The positions' leaves (which the client computes from the messages; with `omitBound`, those of the positions the messages state too) and `multiproof` give the head's root; a page of neighbouring positions needs a few more hashes than it has messages, not eight or so per message. */
  multiproof?: Hash[];
}

/** Asks a read to prove itself (the verifiable mailbox): the page comes with `proof`, a `MailboxProof` of the messages on it. `{}` asks for the head and the inclusion proofs; `compact: true`, the inclusion proofs as one `multiproof` (far smaller for a page, and cheaper to make and check); `omitBound: true` with it, the positions the page's messages state themselves left out (about half of what remains); `since`, the size of the last head the client verified, also for the consistency proof from it. A `since` larger than the log is refused (-32602, `data.field` "proof.since", `data.size` the log's size), as `neutralService_getProof` refuses it. */
export interface ProofRequest {
  /** The size of the last head the client verified. */
  since?: LogSize;
  /** Answer the inclusion proofs as one `multiproof` (`MailboxProof`) instead of one per position. */
  compact?: boolean;
  /** With `compact` (from spec 3.3.0): leave out of the answer's `positions` each position that a message on the page states itself, bound by its receipt: the caller's received copy at the message's `receiver_seq`, its sent copy at the message's `sender_seq`. The client takes such a position from the message: its `seq` from that member, its `id` the message's, its role the caller's side, its leaf from the message's fields. A position no message states (a message stored before spec 3.0.0; a copy imported at another position than its receipt binds) is listed as without it. Refused without `compact` (-32602, `data.field` "proof.omitBound"): a position left out has no inclusion proof of its own, only the multiproof. */
  omitBound?: boolean;
}

/** A position (as `LogPosition`) with its inclusion proof in the tree of the answer's head (RFC 9162 §2.1.3: the sibling hashes from the leaf up), unless the answer was asked to be `compact`: then the answer's `multiproof` proves every position at once. */
export interface ProvenPosition {
  /** The position, from 1. */
  seq: number;
  /** A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position. */
  id: MessageId;
  /** "received": the account received the message (inbox or requests folder); "sent": it sent it. */
  role: "received" | "sent";
  /** A 32-byte hash: `0x` + 64 lowercase hex digits. */
  leafHash: Hash;
  /** The inclusion proof: sibling hashes, from the leaf up. Absent in a `compact` answer. */
  proof?: Hash[];
}

/** A copy's position in its account's mailbox log, with the node's EIP-712 `LogReceipt` signature of it. */
export interface PositionReceipt {
  /** The position, from 1. */
  seq: number;
  /** The node's EIP-712 `LogReceipt(bytes32 message,string role,uint64 seq)` signature. */
  receipt: Signature;
}

/** A message the recipient's node says is in the recipient's log: the position of its copy, signed (`LogReceipt`, role "receiver") by the recipient's home node. */
export interface ProvenDelivery {
  /** A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position. */
  id: MessageId;
  /** A copy's position in its account's mailbox log, with the node's EIP-712 `LogReceipt` signature of it. */
  position: PositionReceipt;
}

/** A message whose delivery was not proven, and why: not a message the caller sent here, not delivered yet (pending or failed), the recipient's node holds no copy of it (never stored, or deleted since), or that node did not answer, refused, or answered a signature that is not its own. */
export interface UnprovenDelivery {
  /** A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position. */
  id: MessageId;
  problem: string;
}

/** One message of `neutralService_proveDelivery`: its position in the recipient's log, or why it was not proven. */
export type DeliveryProof = ProvenDelivery | UnprovenDelivery;

/** What `neutralService_proveDelivery` answers: one `DeliveryProof` per id asked, in order. */
export interface DeliveryProofs {
  proofs: DeliveryProof[];
}

/** A message a peer asks about (`neutralService_provePositions`): its EIP-712 digest and timestamp, and its recipient, homed at the node asked. */
export interface PositionQuery {
  /** A 32-byte hash: `0x` + 64 lowercase hex digits. */
  digest: Hash;
  /** Milliseconds since the Unix epoch. */
  timestamp: Timestamp;
  /** An account address: `0x` + 40 hex digits. Any case on input; lowercase on output. */
  to: Address;
}

/** What `neutralService_provePositions` answers: for each message asked about, in order, the position of the recipient's copy with the node's `LogReceipt`, or `null` when the recipient's mailbox here holds no copy of it. */
export interface PositionAnswers {
  positions: Array<PositionReceipt | null>;
}


/** Params of `neutralService_getInbox`, with defaults filled in. */
export type GetInboxArgs = {
  /** Which messages of the mailbox to read. Absent, `null` or `{}` means every received message. */
  inboxFilter: InboxFilter;
  /** Number of messages to fetch, 1..100. Values outside that range are an error, never silently clamped. */
  limit: Limit;
  /** Walk forwards: only messages with an id greater than this one. */
  after?: MessageId;
  /** Only messages with an id smaller than this one (walks backwards unless `after` is also given). */
  before?: MessageId;
  /** Prove the page (the verifiable mailbox): the answer's `proof` holds the signed head, the inclusion proof of each message on the page and, with `since`, the consistency proof from the last head the client verified. */
  proof?: ProofRequest;
};

/** What `neutralService_getInbox` returns (the payload inside the one-element result array). */
export type GetInboxResult = InboxPage;

/** Params of `neutralService_getChat`, with defaults filled in. */
export type GetChatArgs = {
  /** Which chat to read, and an optional time window. Absent, `null` or `{}` reads the most recently active chat. */
  inboxFilter: ChatFilter;
  /** Number of messages to fetch, 1..100. */
  limit: Limit;
  /** Walk forwards: only messages with an id greater than this one. */
  after?: MessageId;
  /** Only messages with an id smaller than this one (walks backwards unless `after` is also given). */
  before?: MessageId;
  /** Prove the page (the verifiable mailbox): the answer's `proof` holds the signed head, the inclusion proof of each message on the page and, with `since`, the consistency proof from the last head the client verified. */
  proof?: ProofRequest;
};

/** What `neutralService_getChat` returns (the payload inside the one-element result array). */
export type GetChatResult = ChatPage;

/** Params of `neutralService_sendMessage`, with defaults filled in. */
export type SendMessageArgs = {
  /** The signed message to store. */
  message: SignedMessage;
};

/** What `neutralService_sendMessage` returns (the payload inside the one-element result array). */
export type SendMessageResult = Message;

/** Params of `neutralService_publishKey`, with defaults filled in. */
export type PublishKeyArgs = {
  /** The signed key bundle to publish; `bundle.account` must be the authenticated user. */
  bundle: KeyBundle;
};

/** What `neutralService_publishKey` returns (the payload inside the one-element result array). */
export type PublishKeyResult = KeyBundle;

/** Params of `neutralService_getKey`, with defaults filled in. */
export type GetKeyArgs = {
  /** The account whose key to look up. */
  account: Address;
};

/** What `neutralService_getKey` returns (the payload inside the one-element result array). */
export type GetKeyResult = KeyBundle | null;

/** Params of `neutralService_publishHome`, with defaults filled in. */
export type PublishHomeArgs = {
  /** The signed home record; `record.account` must be the authenticated user and `record.node` this node. */
  record: HomeRecord;
};

/** What `neutralService_publishHome` returns (the payload inside the one-element result array). */
export type PublishHomeResult = HomeRecord;

/** Params of `neutralService_getHome`, with defaults filled in. */
export type GetHomeArgs = {
  /** The account whose home to look up. */
  account: Address;
};

/** What `neutralService_getHome` returns (the payload inside the one-element result array). */
export type GetHomeResult = HomeRecord | null;

/** Params of `neutralService_nodeInfo`, with defaults filled in. */
export type NodeInfoArgs = Record<string, never>;

/** What `neutralService_nodeInfo` returns (the payload inside the one-element result array). */
export type NodeInfoResult = NodeInfo;

/** Params of `neutralService_subscribe`, with defaults filled in. */
export type SubscribeArgs = {
  /** Which messages to stream. Absent, `null` or `{}`: every received message. */
  filter: SubscribeFilter;
  /** Start after this message id (exclusive). Absent: from the mailbox's first message. `Last-Event-ID` wins over it. */
  after?: MessageId;
};

/** What `neutralService_subscribe` returns. */
export type SubscribeResult = never;

/** The events of `neutralService_subscribe`'s stream (`x-subscription`): one JSON-RPC notification each. */
export type SubscribeNotification = MessageNotification | CaughtUpNotification | StatusNotification | EndNotification;

/**
 * A message the filter selects, in id order.
 *
 * Its SSE event id (the resume cursor) is `params.message.id`.
 */
export interface MessageNotification {
  method: "neutralService_message";
  params: {
    /** The message, as getInbox returns it. */
    message: Message;
  };
}

/** Every message stored when the stream began has been sent; what follows is live. */
export interface CaughtUpNotification {
  method: "neutralService_caughtUp";
  params: {
    /** The last message id sent so far (absent: none). */
    cursor?: MessageId;
  };
}

/** A sender's copy already sent on this stream changed status: delivered (`receiver_receipt` now present) or failed (`reason` says why). */
export interface StatusNotification {
  method: "neutralService_status";
  params: {
    /** The sender's copy as it reads now. */
    message: Message;
    status: "delivered" | "failed";
  };
}

/** The node ends the stream; nothing follows. */
export interface EndNotification {
  method: "neutralService_end";
  params: {
    reason: EndReason;
    /** The reason in words. */
    message: string;
    /** The last message id sent on this stream: resume after it. */
    cursor?: MessageId;
  };
}

/** Params of `neutralService_deliver`, with defaults filled in. */
export type DeliverArgs = {
  /** The messages, oldest first (1..100). */
  messages: RelayedMessage[];
  /** The senders' home records naming the calling node (one per sender), so the called node need not ask for them. */
  homes: HomeRecord[];
};

/** What `neutralService_deliver` returns (the payload inside the one-element result array). */
export type DeliverResult = DeliveryResult;

/** Params of `neutralService_lookup`, with defaults filled in. */
export type LookupArgs = {
  /** The accounts to answer for (0..100). */
  accounts: Address[];
  /** Home records the caller announces. */
  homes: HomeRecord[];
};

/** What `neutralService_lookup` returns (the payload inside the one-element result array). */
export type LookupResult = DirectoryAnswer;

/** Params of `neutralService_deleteMessages`, with defaults filled in. */
export type DeleteMessagesArgs = {
  /** The signed deletion request; `request.account` must be the authenticated user. */
  request: DeletionRequest;
};

/** What `neutralService_deleteMessages` returns (the payload inside the one-element result array). */
export type DeleteMessagesResult = DeletionReceipt;

/** Params of `neutralService_setConsent`, with defaults filled in. */
export type SetConsentArgs = {
  /** Consent records about peers (0 to 100, one per peer). */
  records: ConsentRecord[];
  /** The account's policy, if it changes. */
  policy?: ConsentPolicy;
};

/** What `neutralService_setConsent` returns (the payload inside the one-element result array). */
export type SetConsentResult = ConsentState;

/** Params of `neutralService_getConsent`, with defaults filled in. */
export type GetConsentArgs = {
  /** List the peers after this address (exclusive). */
  after?: Address;
  /** Most records on the page. */
  limit: Limit;
};

/** What `neutralService_getConsent` returns (the payload inside the one-element result array). */
export type GetConsentResult = ConsentState;

/** Params of `neutralService_importMessages`, with defaults filled in. */
export type ImportMessagesArgs = {
  /** 1 to 100 messages, as a read or an export gives them (`id` is the former node's and is ignored). */
  messages: Message[];
  /** The former home's last head of the account's log (an export's `head`: what the history imported is part of). The node keeps it as the account's prior history and answers it in `neutralService_getLog` (`LogPage.prior`), so that every device of the account can check it against the heads it verified there. Its `account` must be the caller's (-32602, `data.field` "head.account"); its signature must recover an address, the former node's (-32003); one account keeps at most 16 former nodes' heads (-32602, `data.limit`). Given again, a head of the same node replaces the one kept when it is larger. */
  head?: MailboxHead;
};

/** What `neutralService_importMessages` returns (the payload inside the one-element result array). */
export type ImportMessagesResult = ImportResult;

/** Params of `neutralService_getProof`, with defaults filled in. */
export type GetProofArgs = {
  /** Messages to prove (at most 100). */
  ids?: MessageId[];
  /** The size of the last head the client verified: the answer proves the head consistent with it. */
  since?: LogSize;
  /** Answer the inclusion proofs as one `multiproof` (`MailboxProof`) instead of one per position. */
  compact?: boolean;
};

/** What `neutralService_getProof` returns (the payload inside the one-element result array). */
export type GetProofResult = MailboxProof;

/** Params of `neutralService_getLog`, with defaults filled in. */
export type GetLogArgs = {
  /** The first position of the page. */
  from: number;
  /** Most positions on the page (1 to 1000). */
  limit: number;
  /** Whether each position whose copy the node still serves carries it (`message`, as reads return it), so that an audit checks every position in one walk: its leaf, its sender's signature and its receipts. The page then holds what fits in the request's answer budget (`maxResponseBytes`), at least one position. */
  messages: boolean;
};

/** What `neutralService_getLog` returns (the payload inside the one-element result array). */
export type GetLogResult = LogPage;

/** Params of `neutralService_proveDelivery`, with defaults filled in. */
export type ProveDeliveryArgs = {
  /** 1 to 100 ids of messages the caller sent, each once. */
  ids: MessageId[];
};

/** What `neutralService_proveDelivery` returns (the payload inside the one-element result array). */
export type ProveDeliveryResult = DeliveryProofs;

/** Params of `neutralService_provePositions`, with defaults filled in. */
export type ProvePositionsArgs = {
  /** 1 to 100 messages. */
  messages: PositionQuery[];
};

/** What `neutralService_provePositions` returns (the payload inside the one-element result array). */
export type ProvePositionsResult = PositionAnswers;

