// generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).
//
// The EIP-712 typed data of neutralService: the document's `x-eip712` extension.

/** A 0x-prefixed hex string. */
export type Hex = `0x${string}`;

/** The EIP-712 domain of every signature: no chainId, no verifyingContract. */
export const EIP712_DOMAIN = { name: "neutralService", version: "1" } as const;

/** The `EIP712Domain` type that `eth_signTypedData_v4` wants listed with the others. */
export const EIP712_DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
] as const;

/** Every primary type, with its fields in signing order. */
export const EIP712_TYPES = {
  /** The sender's signature over a message. `Message(address from,address to,bytes message,uint64 timestamp)` */
  Message: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "message", type: "bytes" },
    { name: "timestamp", type: "uint64" },
  ],
  /** The sender's signature over a message it gives an expiry (`expires`): as `Message`, plus the expiry, so no node can extend it. `ExpiringMessage(address from,address to,bytes message,uint64 timestamp,uint64 expires)` */
  ExpiringMessage: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "message", type: "bytes" },
    { name: "timestamp", type: "uint64" },
    { name: "expires", type: "uint64" },
  ],
  /** A service node's receipt: `message` is the EIP-712 digest of the sender's `Message` (or `ExpiringMessage`). A message stored before spec 3.0.0 carries these; from 3.0.0 a node signs `LogReceipt` instead, binding the copy's position. `Receipt(bytes32 message,string role)` */
  Receipt: [
    { name: "message", type: "bytes32" },
    { name: "role", type: "string" },
  ],
  /** A node's statement that a message's copy holds a position of its account's mailbox log (the verifiable mailbox): `message` is the EIP-712 digest of the sender's `Message` (or `ExpiringMessage`), `role` "receiver" for the recipient's copy ("sender" for the sender's), `seq` its position. From spec 3.0.0 every receipt a node signs for a copy it stores is one (`sender_seq`, `receiver_seq` beside it); a node also signs one when a sender asks (`neutralService_proveDelivery`). `LogReceipt(bytes32 message,string role,uint64 seq)` */
  LogReceipt: [
    { name: "message", type: "bytes32" },
    { name: "role", type: "string" },
    { name: "seq", type: "uint64" },
  ],
  /** An account vouching for its messaging public key (`neutralService_publishKey`). `KeyBundle(address account,bytes32 key,uint64 timestamp)` */
  KeyBundle: [
    { name: "account", type: "address" },
    { name: "key", type: "bytes32" },
    { name: "timestamp", type: "uint64" },
  ],
  /** What an account signs to derive its messaging key; the signature is the secret, never sent to a node. `DeriveMessagingKey(string notice,address account,uint32 version)` */
  DeriveMessagingKey: [
    { name: "notice", type: "string" },
    { name: "account", type: "address" },
    { name: "version", type: "uint32" },
  ],
  /** An account naming its home node: the node that keeps its mailbox and signs its messages' receipts (`neutralService_publishHome`). `Home(address account,address node,uint64 timestamp)` */
  Home: [
    { name: "account", type: "address" },
    { name: "node", type: "address" },
    { name: "timestamp", type: "uint64" },
  ],
  /** A node's signature over a node-to-node request: `body` is the SHA-256 of the HTTP request body. `NodeRequest(address origin,address destination,string method,bytes32 body,uint64 timestamp)` */
  NodeRequest: [
    { name: "origin", type: "address" },
    { name: "destination", type: "address" },
    { name: "method", type: "string" },
    { name: "body", type: "bytes32" },
    { name: "timestamp", type: "uint64" },
  ],
  /** The called node's signature over its answer to a delivery: `messages` is the SHA-256 of the delivered messages' EIP-712 `Message` digests, concatenated in order; `outcomes` the SHA-256 of the JSON text of `outcomes` (as `JSON.stringify` writes it). `DeliveryAnswer(address node,bytes32 messages,bytes32 outcomes)` */
  DeliveryAnswer: [
    { name: "node", type: "address" },
    { name: "messages", type: "bytes32" },
    { name: "outcomes", type: "bytes32" },
  ],
  /** An account asking its home node to delete its copies of messages (`neutralService_deleteMessages`): `ids` are the messages' ids on that node. `Deletion(address account,uint64[] ids,uint64 timestamp)` */
  Deletion: [
    { name: "account", type: "address" },
    { name: "ids", type: "uint64[]" },
    { name: "timestamp", type: "uint64" },
  ],
  /** An account asking its home node to delete its copies of messages, naming the positions they hold in its mailbox log (the verifiable mailbox): `ids` are the messages' ids on that node, `leaves` the leaf hashes of the account's copies of them, so the request covers exactly those positions. `PositionedDeletion(address account,uint64[] ids,bytes32[] leaves,uint64 timestamp)` */
  PositionedDeletion: [
    { name: "account", type: "address" },
    { name: "ids", type: "uint64[]" },
    { name: "leaves", type: "bytes32[]" },
    { name: "timestamp", type: "uint64" },
  ],
  /** A node confirming a deletion: `request` is the EIP-712 digest of the account's `Deletion`; none of its messages is in the account's mailbox on the node any more. `DeletionReceipt(address node,bytes32 request)` */
  DeletionReceipt: [
    { name: "node", type: "address" },
    { name: "request", type: "bytes32" },
  ],
  /** An account's consent about one other account (`neutralService_setConsent`): `state` is "allowed", "blocked" or "none" (neither). The newest timestamp per (account, peer) wins. `Consent(address account,address peer,string state,uint64 timestamp)` */
  Consent: [
    { name: "account", type: "address" },
    { name: "peer", type: "address" },
    { name: "state", type: "string" },
    { name: "timestamp", type: "uint64" },
  ],
  /** An account's choice of who reaches its inbox (`neutralService_setConsent`): "open" (everyone not blocked) or "allowed-only" (first contact from anyone else lands in the requests folder). The newest timestamp wins. `ConsentPolicy(address account,string mode,uint64 timestamp)` */
  ConsentPolicy: [
    { name: "account", type: "address" },
    { name: "mode", type: "string" },
    { name: "timestamp", type: "uint64" },
  ],
  /** A node vouching for the state of an account's mailbox log (the verifiable mailbox): `size` positions whose Merkle tree (RFC 9162) has root `root`, as of `timestamp`. `MailboxHead(address account,uint64 size,bytes32 root,uint64 timestamp)` */
  MailboxHead: [
    { name: "account", type: "address" },
    { name: "size", type: "uint64" },
    { name: "root", type: "bytes32" },
    { name: "timestamp", type: "uint64" },
  ],
  /** A node's statement of a page of an account's mailbox log (`neutralService_getLog`, from spec 3.1.0): `head` is the EIP-712 digest of the page's `head` (`MailboxHead`), `from` its first position, `entries` the SHA-256 of its entries' statements, each 32 bytes, in order (see `LogPage.signature`), `timestamp` when the node signed the page (`LogPage.timestamp`; from spec 3.2.0: a 3.1.0 node signed the three other fields only, and a client of 3.2.0 holds such a page to nothing). What a page says of a position is then the node's word: one with neither its message nor a reason it is gone, with a message its leaf does not commit to, or with a reason that does not hold, is a portable proof. `LogStatement(bytes32 head,uint64 from,bytes32 entries,uint64 timestamp)` */
  LogStatement: [
    { name: "head", type: "bytes32" },
    { name: "from", type: "uint64" },
    { name: "entries", type: "bytes32" },
    { name: "timestamp", type: "uint64" },
  ],
} as const;

/** The field values of each primary type, as JSON-friendly values (uints as numbers, bytes as 0x hex). */
export interface TypedValues {
  Message: { from: Hex; to: Hex; message: Hex; timestamp: number };
  ExpiringMessage: { from: Hex; to: Hex; message: Hex; timestamp: number; expires: number };
  Receipt: { message: Hex; role: "sender" | "receiver" };
  LogReceipt: { message: Hex; role: "sender" | "receiver"; seq: number };
  KeyBundle: { account: Hex; key: Hex; timestamp: number };
  DeriveMessagingKey: { notice: string; account: Hex; version: number };
  Home: { account: Hex; node: Hex; timestamp: number };
  NodeRequest: { origin: Hex; destination: Hex; method: string; body: Hex; timestamp: number };
  DeliveryAnswer: { node: Hex; messages: Hex; outcomes: Hex };
  Deletion: { account: Hex; ids: readonly number[]; timestamp: number };
  PositionedDeletion: { account: Hex; ids: readonly number[]; leaves: readonly Hex[]; timestamp: number };
  DeletionReceipt: { node: Hex; request: Hex };
  Consent: { account: Hex; peer: Hex; state: "allowed" | "blocked" | "none"; timestamp: number };
  ConsentPolicy: { account: Hex; mode: "open" | "allowed-only"; timestamp: number };
  MailboxHead: { account: Hex; size: number; root: Hex; timestamp: number };
  LogStatement: { head: Hex; from: number; entries: Hex; timestamp: number };
}

export type PrimaryType = keyof typeof EIP712_TYPES;
