// generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).
//
// The OpenRPC document, as written (references kept), for rpc.discover and GET /openrpc.json.
export const openrpcDocument = {
  "openrpc": "1.3.2",
  "info": {
    "title": "neutralService",
    "version": "3.3.0",
    "description": "An encrypted-message relay with per-user inboxes, spoken as JSON-RPC 2.0 over HTTP.\n\nUsers are Ethereum-style addresses. Message bodies are ciphertext the node never reads; every message carries its sender's EIP-712 signature and a receipt from the sender's and the receiver's service node.\n\n## Transport\n`POST /` with `Content-Type: application/json`. The body is one JSON-RPC 2.0 request or a batch of 1..100 requests. Params may be positional or by name. Notifications (no `id`) get no response entry; a batch of only notifications gets HTTP 204. `GET /health` (liveness), `GET /openrpc.json` (this document) and `GET /docs` need no token. `neutralService_subscribe` is answered as Server-Sent Events (`Accept: text/event-stream`, alone, not in a batch): see that method.\n\nResponses that carry JSON-RPC responses are HTTP 200, errors included, except 401 (credential missing or invalid, with `WWW-Authenticate: Bearer`, error -32001), 406 (`subscribe` without `Accept: text/event-stream`, -32600), 413 (body too large, -32005), 415 (not JSON, -32600) and 429 (rate limited, with `Retry-After`, -32029). A batch of more than 100 entries is one -32005 error.\n\n## Result envelope\nThe `result` of every `neutralService_*` method is an array holding exactly one payload object, as in the interface's examples: `{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[{…}]}`. Typed clients unwrap it.\n\n## Service discovery\n`rpc.discover` (no params, no token) returns this OpenRPC document itself, not wrapped in an array, as OpenRPC defines.\n\n## Authentication\nMethods marked `\"x-requires-auth\": true` need `Authorization: Bearer <token>` where `token = base64url(UTF-8 text of an EIP-4361 Sign-In with Ethereum message) + \".\" + 0x-hex signature`, the signature being the user's EIP-191 `personal_sign` of that text. There is no login round trip. The node checks that the signature recovers the message's address; that `domain` is one of its configured domains (`nodeInfo.domains`); `version` is 1; `expiration-time` is present, in the future and at most 24 h after `issued-at`; `not-before` is respected; and `nonce` has at least 8 alphanumerics. Failures are HTTP 401 with error -32001 and `data.reason` naming the failed check. The token belongs to the HTTP request: in a batch, a missing or invalid token fails the whole request unless every entry is a method that needs no token.\n\n## Signatures and receipts\nMessages are signed with EIP-712 typed data, domain `{name: \"neutralService\", version: \"1\"}` (no chainId, no verifyingContract), primary type `Message(address from,address to,bytes message,uint64 timestamp)`, or, for a message its sender gives an expiry, `ExpiringMessage(address from,address to,bytes message,uint64 timestamp,uint64 expires)`. A receipt is the service node's EIP-712 signature, same domain, primary type `Receipt(bytes32 message,string role)` where `message` is the EIP-712 digest of the sender's `Message` (or `ExpiringMessage`) and `role` is `\"sender\"` or `\"receiver\"`. `sender_receipt` is signed by the sender's home node and `receiver_receipt` by the recipient's (see Federation); on a single node both are that node's. From spec 3.0.0 a node binds each receipt it signs for a copy it stores to that copy's position in its account's mailbox log (see \"The verifiable mailbox\"): the receipt is then EIP-712 `LogReceipt(bytes32 message,string role,uint64 seq)` (same domain, the same `message` and `role`, `seq` the position), and the message carries the position beside it, `sender_seq` (the sender's copy, in the sender's log on the sender's node) and `receiver_seq` (the recipient's copy). A receipt without its seq is a `Receipt`: messages stored before spec 3.0.0 keep theirs, and so does a message imported from another node, whose receipts bind positions of that node's logs.\n\n## Key bundles\nClients encrypt message bodies with NIP-44 v2 to the recipient's messaging public key, an x-only secp256k1 key (`MessagingKey`). An account announces it with `neutralService_publishKey` as a `KeyBundle` it signs with EIP-712, same domain, primary type `KeyBundle(address account,bytes32 key,uint64 timestamp)`. A node keeps each account's bundle with the greatest timestamp (between two of the same timestamp, the one with the greater signature, compared as bytes, so that every node keeps the same one whichever reached it first) and serves it to anyone, without a token, through `neutralService_getKey`.\n\nWhat clients agree on and nodes never check (they only see ciphertext): a message's `message` is the raw NIP-44 v2 payload (version byte 2, nonce, ciphertext, MAC) as lowercase hex, encrypted with the conversation key of the sender's messaging key and the recipient's; the key is symmetric, so the sender reads back what it sent. So that one account has one messaging key in every client, the reference SDK derives it from a signature: the account signs EIP-712 `DeriveMessagingKey(string notice,address account,uint32 version)` (same domain; `version` 1; `notice` \"Derive my neutralService messaging key. Sign this only in an app you trust with your messages: this signature decrypts them.\"); the private key is HKDF-SHA256 with IKM = r ‖ s of that signature (s in its low form, v ignored), salt \"neutralService messaging key\" and info \"v1/0\" (\"v1/1\", … while the result is not a valid secp256k1 scalar), 32 bytes.\n\n## Federation\nNodes federate with the peers their operators list. Each account has one home node at a time, named in a `HomeRecord` the account signs with EIP-712 `Home(address account,address node,uint64 timestamp)` (same domain). `neutralService_publishHome` at a node makes that node the account's home; a node refuses a record naming another node. The newest timestamp wins (between two of the same timestamp, the greater signature, as for key bundles: never the one that arrived first), so publishing a newer record at another node moves the account. Its history does not move by itself: the account exports its mailbox from the former home and imports it at the new one (`neutralService_importMessages`), every message with its original signatures and receipts. An account without a record is homed at the node that holds its key bundle (as in v1), for that node's own senders only: a bundle is public and anyone can copy it to any node, so which node holds one says nothing about where its account lives. A node never sends to another node for an account that has no home record: to an account whose bundle other nodes hold, `sendMessage` answers -32002 with `data.reason` \"recipient has no home record\" (the account publishes one to receive messages from other nodes; the reference SDK does when it signs in). `neutralService_getHome` and `neutralService_getKey` answer for any account of the federation: a node that lacks the record asks its peers (bounded in time, the answer cached for a while) and checks the account's signature before using or serving what they say.\n\nA client sends through its home node. For a recipient homed on another node, the sender's node checks the message as for any send, signs `sender_receipt`, stores the message in the sender's mailbox with `status: \"pending\"` and no `receiver_receipt` together with a durable outbox entry, and delivers it to the recipient's home node with `neutralService_deliver`, retrying with exponential backoff (persisted, per destination) until the retry period ends (`nodeInfo.limits.retryPeriodSeconds`). `sendMessage` waits up to `nodeInfo.limits.deliveryWaitMs` for the remote receipt, so a healthy federation answers with both receipts; otherwise it answers the pending message, already durable. The recipient's node stores only what it verified: the sender's signature, `sender_receipt` signed by the calling node, the calling node being the sender's home by the sender's newest record, and the recipient being homed there; the timestamp window does not apply to a delivery (a queued message may be days old), but a message whose timestamp is more than the called node's `retryPeriodSeconds` plus `clockSkewMs` in the past is refused for good (-32004): its sender's node has given up on it by then. It stores the message in the recipient's inbox under an id of its own and answers `receiver_receipt`; delivering the same message again answers the same receipt. The answer carries the called node's EIP-712 signature of `DeliveryAnswer(address node,bytes32 messages,bytes32 outcomes)`, which binds the outcomes to the messages they answer; the calling node accepts the receipts only with it. One sender's messages to one recipient are stored in the order the sender's node accepted them. A refusal of one message for now (`permanent: false`: a quota of the recipient's node, with `retryAfter` when it knows when to try again) holds back that message and the later ones from the same sender to the same recipient, and nothing else: the calling node goes on delivering its other messages to that node, and backs a whole node off only when a call itself fails (the node unreachable, overloaded, or answering what it cannot accept). A node may bound what each peer's calls ask of it (`nodeInfo.limits.peerRateLimit`, in cost units: a delivery 1, plus 2 per message and 1 per home record it carries); past it the call is refused with HTTP 429, `Retry-After` and -32029, and the peer calls again later. The sender's copy then carries both receipts and no `status` (delivered), or `status: \"failed\"` with a `reason` (refused by the recipient's node, or still undelivered when the retry period ended). Anyone can check `sender_receipt` against the node the sender's home record names and `receiver_receipt` against the recipient's.\n\nNode-to-node methods (`\"x-requires-auth\": \"node\"`: `neutralService_deliver`, `neutralService_lookup`) are for peers only, one JSON-RPC request per HTTP request (no batch), with `Authorization: NeutralNode origin=\"<0x address>\", destination=\"<0x address>\", method=\"<method>\", timestamp=\"<ms>\", signature=\"<0x signature>\"`: the calling node's EIP-712 signature of `NodeRequest(address origin,address destination,string method,bytes32 body,uint64 timestamp)` (same domain), where `body` is the SHA-256 of the HTTP request body. A node refuses a signature that does not recover `origin`, names another `destination` or method, or is more than `clockSkewMs` away from its clock (HTTP 401, -32001), and any `origin` that is not one of its peers (HTTP 403, -32002). A peer is listed by URL, optionally pinned to its node address; an unpinned peer's address is pinned when first seen, and a later change is refused.\n\n## Retention and deletion\nA node keeps a message for its retention period (`nodeInfo.limits.retentionSeconds`, counted from when that node stored it; 0 = no limit): once that old, no read or stream serves it (within a second) and a background sweep deletes every copy and trace of it. A sender may give a message an earlier end, `expires` (ms since the Unix epoch, later than its `timestamp`), signed with it as `ExpiringMessage`, so no node can extend it: from then every node holding it serves it no more (within a second) and deletes it; a node refuses a message that has already expired (-32602, `data.field` \"message.expires\"), also when another node delivers it (a permanent refusal). An account deletes its own copies on its home node with `neutralService_deleteMessages`, a request it signs with EIP-712 `Deletion(address account,uint64[] ids,uint64 timestamp)` (same domain; `ids` the messages' ids on that node, as numbers; EIP-712 encodes the array as the keccak-256 of its elements' 32-byte words). The node answers a receipt it signs with EIP-712 `DeletionReceipt(address node,bytes32 request)`, where `request` is the digest of the account's `Deletion`. A message the retention sweep deletes while it could still arrive again (within `retryPeriodSeconds` plus `clockSkewMs` of being stored: sent again, or delivered again by a peer) leaves its digest behind for that long: it is answered as it was the first time (its original id and receipts) and not stored again. Deletion and expiry never break a cursor walk: ids are positions, so a walk in either direction visits every remaining message exactly once and reports `end` correctly.\n\n## The verifiable mailbox (v3)\nEvery copy a node stores in an account's mailbox (a message it received, into the inbox or the requests folder, one it sent, one imported when it moved home; a message to oneself is two copies) takes the next position `seq` in that account's log: 1, 2, 3, … with no gap, assigned in the transaction that stores the copy, by every worker and replica. Positions follow the order copies are stored, which is id order except for a copy imported under the id of a message the node already held. A copy deleted later (by its account, its sender's `expires`, the node's retention) keeps its position. Once a copy is gone, its position says why in the log (`LogRemoval`), with what makes the reason checkable: a copy its account deleted carries the account's signed request, so a node cannot pass off a message it dropped as one the account deleted. A request names the positions it deletes by their leaf hashes, signed with EIP-712 `PositionedDeletion(address account,uint64[] ids,bytes32[] leaves,uint64 timestamp)` (same domain; `leaves` the leaf hashes of the account's copies of `ids`, as `neutralService_getProof` gives them): a position's leaf commits to its `seq`, so a request covers exactly the positions it names, and neither another message given the same id in the log nor the same message stored again later (imported after it was deleted). A request signed as `Deletion` (before spec 2.10.0) names ids only: a node applies none older than `clockSkewMs`, and a client takes one for a position only when no head it verified shows the position stored after the request's time plus `clockSkewMs`; a message its sender's `expires` ended carries its signed fields without the body (`ExpiredMessage`: the parties, the timestamp, the end and the keccak-256 of the ciphertext), from which a client recomputes the digest and the leaf, and sees that the end came before the head; a message the node's retention removed says so, and a client checks the claim against the node's `retentionSeconds`, the message's timestamp where it knows it, and the heads it verified before (a position past an earlier head's size was stored after that head was signed). A position is marked once the sweep removed its copy (within a second of its end, as reads stop serving it). A node keeps a position's reason as long as the position: there is no exception for its own history. A copy removed before its node kept reasons (spec 2.8.0 for deletions, 2.9.0 for expiries and the retention) has none, unless it lies below the retention's floor, and a client reports such a position as `missing`, as it would any other the node cannot account for (the node's signed log page then proves that it could not). A position's leaf is the 82 bytes `0x01 ‖ account (20) ‖ seq (uint64, big-endian, 8) ‖ role (1: 0x01 received, 0x02 sent) ‖ peer (20: the sender of a received copy, the recipient of a sent one) ‖ digest (32: the EIP-712 digest of the sender's `Message` or `ExpiringMessage`)`, so the log commits to what was sent and not to the ciphertext: deleting a body leaves the log verifiable. An account's log is a Merkle tree as RFC 9162 §2.1 defines it (SHA-256; a leaf hashes as SHA-256(0x00 ‖ leaf), an interior node as SHA-256(0x01 ‖ left ‖ right)). Its node vouches for it with a head it signs with EIP-712 `MailboxHead(address account,uint64 size,bytes32 root,uint64 timestamp)`, same domain: `size` positions, `root` the tree over them, `timestamp` when it signed (ms since the Unix epoch). A client reads its head with `neutralService_getProof` (with inclusion proofs for the messages a read returned, and a consistency proof from the last head it verified) and the whole log with `neutralService_getLog`. A sender asks whether what it sent is in the recipient's log with `neutralService_proveDelivery`: the recipient's node (asked by the sender's, `neutralService_provePositions`, when it is another) signs EIP-712 `LogReceipt(bytes32 message,string role,uint64 seq)` (same domain; role \"receiver\", `seq` the position of the recipient's copy), a promise a client holds against every head that node signs of that log: a head whose leaf at `seq` is not that message's contradicts it. A receipt bound to a position (`sender_seq`, `receiver_seq`: see Signatures and receipts) is the same promise, made when the copy is stored: the position is taken, and the receipt signed over it, in the transaction that stores the copy, so a message never carries a position its log does not hold. A node that speaks spec 3.0.0 (its `rpc.discover` `info.version`) binds every receipt it signs from then on, so an unbound receipt it signs for a copy stored since is a refusal to be held to a position, which a client may take as a problem; a client auditing its log checks the bound receipt of each copy against the position it holds (a copy imported again later keeps the receipt of its first position, which still holds the message). A move carries the old log: an export holds the former home's head and every position of the log (each with its message, or why it is gone), so the history can be audited offline against that head; the import gives the head to the new home (`neutralService_importMessages` `head`), which answers it with the account's log (`LogPage.prior`) for every device to check against what it verified there. A read proves itself when asked: `neutralService_getInbox` and `neutralService_getChat` with the `proof` param answer the page with `proof`, a `MailboxProof` of every message on it (a head signed after the page was read, each of the caller's copies of those messages with its inclusion proof, and the consistency proof from `proof.since`). A page of the log is the node's signed statement (from spec 3.1.0): `LogPage.signature` is its EIP-712 `LogStatement(bytes32 head,uint64 from,bytes32 entries,uint64 timestamp)` over the page's head, its first position, what it says of each position (the message it gives, its copy held, or why it is gone: the content bound, the retention it applied included) and, from spec 3.2.0, when it signed the page, so a position a node shows with neither its message nor a reason, with a message its leaf does not commit to, or with a reason that does not hold, is the node's word against itself: a portable proof. A read or `neutralService_getProof` asked to be `compact` (from spec 3.1.0) answers the inclusion proofs as one multiproof (`MailboxProof.multiproof`), every sibling hash once; a node before 3.1.0 ignores nothing silently: it refuses the unknown member (-32602), and a client asks again without it. A read asked to be compact may also ask `omitBound` (from spec 3.3.0): `positions` then leaves out each position a message on the page states itself, bound by its receipt (a received copy at the message's `receiver_seq`, a sent one at its `sender_seq`), and the client takes it from the message, as it takes its leaf; that is about half of a page's proof. A node before 3.3.0 refuses the member, and a client asks again without it.\n\n## Consent\nAn account decides who reaches its inbox, on its home node: `neutralService_setConsent` keeps records it signs with EIP-712 `Consent(address account,address peer,string state,uint64 timestamp)` (`state` \"allowed\", \"blocked\" or \"none\") and a policy it signs with EIP-712 `ConsentPolicy(address account,string mode,uint64 timestamp)` (`mode` \"open\" or \"allowed-only\"); same domain, newest timestamp wins. A message from a blocked sender is refused (-32002, `data.reason` \"not accepted\": the sender learns nothing more), also when another node delivers it (a permanent refusal: the sender's copy turns failed). Under \"allowed-only\", a message from a sender the account neither allowed nor wrote to itself lands in the requests folder (`inboxFilter.folder: \"requests\"`) instead of the inbox, under a quota per sender (`requestQuotaMessages`); reads, chats and streams of the inbox leave it out.\n\n## Errors\n| code | meaning |\n|---|---|\n| -32700 | parse error: the body is not JSON |\n| -32600 | invalid request (also: wrong Content-Type, HTTP 415; `subscribe` without `Accept: text/event-stream`, HTTP 406, or in a batch) |\n| -32601 | method not found |\n| -32602 | invalid params; `data` names the offending field |\n| -32603 | internal error (never with a stack trace or SQL) |\n| -32001 | unauthorized: token missing, malformed, expired, wrong domain, bad signature |\n| -32002 | forbidden, e.g. sending as another address |\n| -32003 | invalid signature (of a message or a key bundle) |\n| -32004 | timestamp outside the accepted window |\n| -32005 | too large: body, batch or message; also a batch entry not run because the request's answers used up `maxResponseBytes` (`data.reason` \"response budget\") |\n| -32029 | rate limited: HTTP 429 with `Retry-After` when the whole request is refused; inside an HTTP 200 answer for a batch entry past the client's budget (it was not run, nor were the entries after it) and for a message over a storage quota. `data.retryAfter` is the seconds to wait; a storage quota also names itself in `data.quota` (a `NodeLimits` member), with its `limit` and `periodSeconds` |\n\n## Limits (defaults, each configurable by the operator)\n`limit` ≤ 100 · batch ≤ 100 entries · body ≤ 1 MiB · message ≤ 64 KiB of bytes · clock skew ±5 min · answers of one request ≤ 4 MiB of message JSON (`maxResponseBytes`) · a page with `since`/`until` examines ≤ 256 messages per mailbox part (`maxPageScan`). A node may also limit each client IP's rate (in cost units: an entry costs 1, and 1 more if it checks a signature) and, per sender and per recipient mailbox, the messages and bytes stored per period. Federation: `sendMessage` waits ≤ 2 s for a remote receipt (`deliveryWaitMs`) · a message to another node fails after 72 h undelivered (`retryPeriodSeconds`). Live delivery: ≤ 10,000 open streams per node process (`maxSubscriptions`), and no more than the node's connections less those it keeps for other requests, shared among its processes (the reference node keeps a tenth of its 10,000: 9,000 streams for a node of one process); at the bound a new client address's stream ends the oldest stream of the address holding the most, ≤ 8 per account (`maxSubscriptionsPerAccount`; one more ends the oldest) · a stream's unread events ≤ 64 KiB (`subscriptionBufferBytes`); a client that is behind must read at least that much in every 30 s (`subscriptionStallMs`) or the stream ends · a keep-alive every 15 s (`keepAliveMs`). Retention: a message is kept 90 days after the node stored it (`retentionSeconds`; 0 = until its owner deletes it), then no longer served and deleted. A node reports its own in `neutralService_nodeInfo`.",
    "license": {
      "name": "MIT"
    }
  },
  "x-unwrap-single-item-results": true,
  "servers": [
    {
      "name": "Local relay",
      "url": "http://127.0.0.1:8645"
    }
  ],
  "x-eip712": {
    "description": "The EIP-712 typed data of neutralService, as data: the domain and every primary type a party signs, with its fields in signing order. The prose of this document spells each type out (e.g. `Message(address from,address to,bytes message,uint64 timestamp)`); a test fails if the prose and this extension disagree. Generated into `@neutral/protocol`. A field's optional `enum` narrows its TypeScript value type (EIP-712 itself has no enums).",
    "domain": {
      "name": "neutralService",
      "version": "1"
    },
    "types": {
      "Message": {
        "description": "The sender's signature over a message.",
        "fields": [
          {
            "name": "from",
            "type": "address"
          },
          {
            "name": "to",
            "type": "address"
          },
          {
            "name": "message",
            "type": "bytes"
          },
          {
            "name": "timestamp",
            "type": "uint64"
          }
        ]
      },
      "ExpiringMessage": {
        "description": "The sender's signature over a message it gives an expiry (`expires`): as `Message`, plus the expiry, so no node can extend it.",
        "fields": [
          {
            "name": "from",
            "type": "address"
          },
          {
            "name": "to",
            "type": "address"
          },
          {
            "name": "message",
            "type": "bytes"
          },
          {
            "name": "timestamp",
            "type": "uint64"
          },
          {
            "name": "expires",
            "type": "uint64"
          }
        ]
      },
      "Receipt": {
        "description": "A service node's receipt: `message` is the EIP-712 digest of the sender's `Message` (or `ExpiringMessage`). A message stored before spec 3.0.0 carries these; from 3.0.0 a node signs `LogReceipt` instead, binding the copy's position.",
        "fields": [
          {
            "name": "message",
            "type": "bytes32"
          },
          {
            "name": "role",
            "type": "string",
            "enum": [
              "sender",
              "receiver"
            ]
          }
        ]
      },
      "LogReceipt": {
        "description": "A node's statement that a message's copy holds a position of its account's mailbox log (the verifiable mailbox): `message` is the EIP-712 digest of the sender's `Message` (or `ExpiringMessage`), `role` \"receiver\" for the recipient's copy (\"sender\" for the sender's), `seq` its position. From spec 3.0.0 every receipt a node signs for a copy it stores is one (`sender_seq`, `receiver_seq` beside it); a node also signs one when a sender asks (`neutralService_proveDelivery`).",
        "fields": [
          {
            "name": "message",
            "type": "bytes32"
          },
          {
            "name": "role",
            "type": "string",
            "enum": [
              "sender",
              "receiver"
            ]
          },
          {
            "name": "seq",
            "type": "uint64"
          }
        ]
      },
      "KeyBundle": {
        "description": "An account vouching for its messaging public key (`neutralService_publishKey`).",
        "fields": [
          {
            "name": "account",
            "type": "address"
          },
          {
            "name": "key",
            "type": "bytes32"
          },
          {
            "name": "timestamp",
            "type": "uint64"
          }
        ]
      },
      "DeriveMessagingKey": {
        "description": "What an account signs to derive its messaging key; the signature is the secret, never sent to a node.",
        "fields": [
          {
            "name": "notice",
            "type": "string"
          },
          {
            "name": "account",
            "type": "address"
          },
          {
            "name": "version",
            "type": "uint32"
          }
        ]
      },
      "Home": {
        "description": "An account naming its home node: the node that keeps its mailbox and signs its messages' receipts (`neutralService_publishHome`).",
        "fields": [
          {
            "name": "account",
            "type": "address"
          },
          {
            "name": "node",
            "type": "address"
          },
          {
            "name": "timestamp",
            "type": "uint64"
          }
        ]
      },
      "NodeRequest": {
        "description": "A node's signature over a node-to-node request: `body` is the SHA-256 of the HTTP request body.",
        "fields": [
          {
            "name": "origin",
            "type": "address"
          },
          {
            "name": "destination",
            "type": "address"
          },
          {
            "name": "method",
            "type": "string"
          },
          {
            "name": "body",
            "type": "bytes32"
          },
          {
            "name": "timestamp",
            "type": "uint64"
          }
        ]
      },
      "DeliveryAnswer": {
        "description": "The called node's signature over its answer to a delivery: `messages` is the SHA-256 of the delivered messages' EIP-712 `Message` digests, concatenated in order; `outcomes` the SHA-256 of the JSON text of `outcomes` (as `JSON.stringify` writes it).",
        "fields": [
          {
            "name": "node",
            "type": "address"
          },
          {
            "name": "messages",
            "type": "bytes32"
          },
          {
            "name": "outcomes",
            "type": "bytes32"
          }
        ]
      },
      "Deletion": {
        "description": "An account asking its home node to delete its copies of messages (`neutralService_deleteMessages`): `ids` are the messages' ids on that node.",
        "fields": [
          {
            "name": "account",
            "type": "address"
          },
          {
            "name": "ids",
            "type": "uint64[]"
          },
          {
            "name": "timestamp",
            "type": "uint64"
          }
        ]
      },
      "PositionedDeletion": {
        "description": "An account asking its home node to delete its copies of messages, naming the positions they hold in its mailbox log (the verifiable mailbox): `ids` are the messages' ids on that node, `leaves` the leaf hashes of the account's copies of them, so the request covers exactly those positions.",
        "fields": [
          {
            "name": "account",
            "type": "address"
          },
          {
            "name": "ids",
            "type": "uint64[]"
          },
          {
            "name": "leaves",
            "type": "bytes32[]"
          },
          {
            "name": "timestamp",
            "type": "uint64"
          }
        ]
      },
      "DeletionReceipt": {
        "description": "A node confirming a deletion: `request` is the EIP-712 digest of the account's `Deletion`; none of its messages is in the account's mailbox on the node any more.",
        "fields": [
          {
            "name": "node",
            "type": "address"
          },
          {
            "name": "request",
            "type": "bytes32"
          }
        ]
      },
      "Consent": {
        "description": "An account's consent about one other account (`neutralService_setConsent`): `state` is \"allowed\", \"blocked\" or \"none\" (neither). The newest timestamp per (account, peer) wins.",
        "fields": [
          {
            "name": "account",
            "type": "address"
          },
          {
            "name": "peer",
            "type": "address"
          },
          {
            "name": "state",
            "type": "string",
            "enum": [
              "allowed",
              "blocked",
              "none"
            ]
          },
          {
            "name": "timestamp",
            "type": "uint64"
          }
        ]
      },
      "ConsentPolicy": {
        "description": "An account's choice of who reaches its inbox (`neutralService_setConsent`): \"open\" (everyone not blocked) or \"allowed-only\" (first contact from anyone else lands in the requests folder). The newest timestamp wins.",
        "fields": [
          {
            "name": "account",
            "type": "address"
          },
          {
            "name": "mode",
            "type": "string",
            "enum": [
              "open",
              "allowed-only"
            ]
          },
          {
            "name": "timestamp",
            "type": "uint64"
          }
        ]
      },
      "MailboxHead": {
        "description": "A node vouching for the state of an account's mailbox log (the verifiable mailbox): `size` positions whose Merkle tree (RFC 9162) has root `root`, as of `timestamp`.",
        "fields": [
          {
            "name": "account",
            "type": "address"
          },
          {
            "name": "size",
            "type": "uint64"
          },
          {
            "name": "root",
            "type": "bytes32"
          },
          {
            "name": "timestamp",
            "type": "uint64"
          }
        ]
      },
      "LogStatement": {
        "description": "A node's statement of a page of an account's mailbox log (`neutralService_getLog`, from spec 3.1.0): `head` is the EIP-712 digest of the page's `head` (`MailboxHead`), `from` its first position, `entries` the SHA-256 of its entries' statements, each 32 bytes, in order (see `LogPage.signature`), `timestamp` when the node signed the page (`LogPage.timestamp`; from spec 3.2.0: a 3.1.0 node signed the three other fields only, and a client of 3.2.0 holds such a page to nothing). What a page says of a position is then the node's word: one with neither its message nor a reason it is gone, with a message its leaf does not commit to, or with a reason that does not hold, is a portable proof.",
        "fields": [
          {
            "name": "head",
            "type": "bytes32"
          },
          {
            "name": "from",
            "type": "uint64"
          },
          {
            "name": "entries",
            "type": "bytes32"
          },
          {
            "name": "timestamp",
            "type": "uint64"
          }
        ]
      }
    }
  },
  "methods": [
    {
      "name": "neutralService_getInbox",
      "summary": "Fetch a page of messages from the authenticated user's inbox.",
      "description": "The inbox is the messages received by the authenticated user (`inboxFilter.direction` widens it to sent messages or the whole mailbox). `result.address` is the authenticated user.\n\nPagination: with no cursor, or `before` only, the walk goes backwards — the newest messages older than `before`, newest first. With `after` only it goes forwards — the oldest messages newer than `after`, oldest first. With both it goes forwards from `after` and never reaches `before`. `data` is in walk order, so the next page continues from the last element's `id`, or from `cursor` when the page has one. `end` is true exactly when no further message exists in the walk's direction within the bounds and filters. Any well-formed id is a valid position, whether or not a message has it.\n\nA page may stop early, with `end` false and fewer than `limit` messages, even none; walking on from where it stopped still visits every message once. With `since` or `until` (the timestamps are not in the order of the walk), the node examines at most `nodeInfo.limits.maxPageScan` messages of each part of the mailbox (received, sent) for one page: a page over messages the filter mostly rejects stops there, and `cursor` says where the next one starts. And a page holds no more message JSON than is left of its HTTP response's budget (`nodeInfo.limits.maxResponseBytes`), at least one message; a batch entry that finds the budget spent is answered -32005 and not run.",
      "tags": [
        {
          "name": "read"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "inboxFilter",
          "description": "Which messages of the mailbox to read. Absent, `null` or `{}` means every received message.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/InboxFilter",
            "default": {}
          }
        },
        {
          "name": "limit",
          "description": "Number of messages to fetch, 1..100. Values outside that range are an error, never silently clamped.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/Limit"
          }
        },
        {
          "name": "after",
          "description": "Walk forwards: only messages with an id greater than this one.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/MessageId"
          }
        },
        {
          "name": "before",
          "description": "Only messages with an id smaller than this one (walks backwards unless `after` is also given).",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/MessageId"
          }
        },
        {
          "name": "proof",
          "description": "Prove the page (the verifiable mailbox): the answer's `proof` holds the signed head, the inclusion proof of each message on the page and, with `since`, the consistency proof from the last head the client verified.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/ProofRequest"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one InboxPage.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/InboxPage"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Newest messages of the inbox",
          "description": "The interface's own example request: params is an empty array, so the filter is `{}` and the limit 20.",
          "params": [],
          "result": {
            "name": "payload",
            "value": [
              {
                "address": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                "data": [
                  {
                    "id": "3",
                    "message": "deadbeefcafef00d",
                    "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                    "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                    "signature": "0x93b635380cb19df7039af013db52ed95ac69b81032285d8796ebe12d22e6435a5a7058243b46b8931d0ec9b9061d8842251df755b4f9209ce87e9b4da52a34571c",
                    "sender_receipt": "0x6f9d43531314b25334d47ffd022486ce4045c9753dc260c94376f9778fa705cd6680af994fbb233a75648a570b2ead671a172569516573d28d2681cc992f00321c",
                    "sender_seq": 3,
                    "receiver_receipt": "0x0f8d345fd9615b6f2103044d3268b33517a72a1291157c0e45c5759746e986325a87970d393b4d8451bd52dd79699f9c3b1a8051760280153041c5d5ae85ac451b",
                    "receiver_seq": 3,
                    "timestamp": 1767225720000
                  },
                  {
                    "id": "1",
                    "message": "a1b2c3d4e5f60718",
                    "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                    "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                    "signature": "0xc3cee1fa0f77347d3ef59bdd3770b07c7512541f749a0998c494552b55bbdc5a292ec94c0db820134f639f1d8e8be006f5fe801a6ee0cf0d14b405ea9f18d3d91b",
                    "sender_receipt": "0x1f194704cf16fec64c79ed0691f6f513d6749b16e726ac00bce82581d743419063c0b1e980ca740879e3e173f16cd08837d7e97d9ed796197d90f0a155cccade1b",
                    "sender_seq": 1,
                    "receiver_receipt": "0xacfe3d34220a01d3caaf2a9b2a5b221fb49db59ec63237aa275e5a821fdc36bb151bc864c713ea571c8654c2a2ae4866028e4a5e435332dd1c1117ea90d3abd91b",
                    "receiver_seq": 1,
                    "timestamp": 1767225600000
                  }
                ],
                "end": true
              }
            ]
          }
        },
        {
          "name": "Forward sync from a cursor",
          "params": [
            {
              "name": "inboxFilter",
              "value": {
                "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
              }
            },
            {
              "name": "limit",
              "value": 1
            },
            {
              "name": "after",
              "value": "1"
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "address": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                "data": [
                  {
                    "id": "3",
                    "message": "deadbeefcafef00d",
                    "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                    "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                    "signature": "0x93b635380cb19df7039af013db52ed95ac69b81032285d8796ebe12d22e6435a5a7058243b46b8931d0ec9b9061d8842251df755b4f9209ce87e9b4da52a34571c",
                    "sender_receipt": "0x6f9d43531314b25334d47ffd022486ce4045c9753dc260c94376f9778fa705cd6680af994fbb233a75648a570b2ead671a172569516573d28d2681cc992f00321c",
                    "sender_seq": 3,
                    "receiver_receipt": "0x0f8d345fd9615b6f2103044d3268b33517a72a1291157c0e45c5759746e986325a87970d393b4d8451bd52dd79699f9c3b1a8051760280153041c5d5ae85ac451b",
                    "receiver_seq": 3,
                    "timestamp": 1767225720000
                  }
                ],
                "end": true
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_getChat",
      "summary": "Fetch a page of one chat: the messages between the authenticated user and one peer, both directions.",
      "description": "`inboxFilter.chat` names the peer; the chat `id` in the result is that peer's address. Without `chat`, the user's most recently active chat (the one holding the user's highest message id) is read; if the user has no chat at all the call fails with -32602. A chat with oneself is allowed.\n\nPagination (`limit`, `after`, `before`, `end`) works exactly as in `neutralService_getInbox`.",
      "tags": [
        {
          "name": "read"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "inboxFilter",
          "description": "Which chat to read, and an optional time window. Absent, `null` or `{}` reads the most recently active chat.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/ChatFilter",
            "default": {}
          }
        },
        {
          "name": "limit",
          "description": "Number of messages to fetch, 1..100.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/Limit"
          }
        },
        {
          "name": "after",
          "description": "Walk forwards: only messages with an id greater than this one.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/MessageId"
          }
        },
        {
          "name": "before",
          "description": "Only messages with an id smaller than this one (walks backwards unless `after` is also given).",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/MessageId"
          }
        },
        {
          "name": "proof",
          "description": "Prove the page (the verifiable mailbox): the answer's `proof` holds the signed head, the inclusion proof of each message on the page and, with `since`, the consistency proof from the last head the client verified.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/ProofRequest"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one ChatPage.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/ChatPage"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Most recent chat",
          "description": "The interface's own example request: params is an empty array.",
          "params": [],
          "result": {
            "name": "payload",
            "value": [
              {
                "id": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "data": [
                  {
                    "id": "3",
                    "message": "deadbeefcafef00d",
                    "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                    "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                    "signature": "0x93b635380cb19df7039af013db52ed95ac69b81032285d8796ebe12d22e6435a5a7058243b46b8931d0ec9b9061d8842251df755b4f9209ce87e9b4da52a34571c",
                    "sender_receipt": "0x6f9d43531314b25334d47ffd022486ce4045c9753dc260c94376f9778fa705cd6680af994fbb233a75648a570b2ead671a172569516573d28d2681cc992f00321c",
                    "sender_seq": 3,
                    "receiver_receipt": "0x0f8d345fd9615b6f2103044d3268b33517a72a1291157c0e45c5759746e986325a87970d393b4d8451bd52dd79699f9c3b1a8051760280153041c5d5ae85ac451b",
                    "receiver_seq": 3,
                    "timestamp": 1767225720000
                  },
                  {
                    "id": "2",
                    "message": "0f1e2d3c4b5a6978",
                    "from": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                    "to": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                    "signature": "0xe27521bca6b55dd83b10e1ff42ccb3cbcbda44d5b984c3228b80865fad884e112da2e3ef092e98c31b82a6978c931485a0823f4da6c3b406e126eeaffff7d6e31b",
                    "sender_receipt": "0x3f31fbf12506e5cc6f74b417513ae229b5d2e934e98452c0efabd83f2cf5a7e61a8afa76b69722fe0c70513214537004e6e003574862fb9c61de0f258ffd7bc41b",
                    "sender_seq": 2,
                    "receiver_receipt": "0x3758b77e043ea2d70ab8c2ee49fe15d1d1bee5bca39f8723f58b55194e1a9e7c02322d13b689f333872e26cfe8e15b19bbd4180b284b2c1922b860f7cb7a88291c",
                    "receiver_seq": 2,
                    "timestamp": 1767225660000
                  },
                  {
                    "id": "1",
                    "message": "a1b2c3d4e5f60718",
                    "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                    "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                    "signature": "0xc3cee1fa0f77347d3ef59bdd3770b07c7512541f749a0998c494552b55bbdc5a292ec94c0db820134f639f1d8e8be006f5fe801a6ee0cf0d14b405ea9f18d3d91b",
                    "sender_receipt": "0x1f194704cf16fec64c79ed0691f6f513d6749b16e726ac00bce82581d743419063c0b1e980ca740879e3e173f16cd08837d7e97d9ed796197d90f0a155cccade1b",
                    "sender_seq": 1,
                    "receiver_receipt": "0xacfe3d34220a01d3caaf2a9b2a5b221fb49db59ec63237aa275e5a821fdc36bb151bc864c713ea571c8654c2a2ae4866028e4a5e435332dd1c1117ea90d3abd91b",
                    "receiver_seq": 1,
                    "timestamp": 1767225600000
                  }
                ],
                "end": true
              }
            ]
          }
        },
        {
          "name": "A named chat, one page back from a cursor",
          "description": "`before` alone walks backwards from the cursor. `after` is listed as `null` (absent) so that params sent by position, in the order listed, keep the cursor in `before`'s place.",
          "params": [
            {
              "name": "inboxFilter",
              "value": {
                "chat": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
              }
            },
            {
              "name": "limit",
              "value": 1
            },
            {
              "name": "after",
              "value": null
            },
            {
              "name": "before",
              "value": "3"
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "id": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "data": [
                  {
                    "id": "2",
                    "message": "0f1e2d3c4b5a6978",
                    "from": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                    "to": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                    "signature": "0xe27521bca6b55dd83b10e1ff42ccb3cbcbda44d5b984c3228b80865fad884e112da2e3ef092e98c31b82a6978c931485a0823f4da6c3b406e126eeaffff7d6e31b",
                    "sender_receipt": "0x3f31fbf12506e5cc6f74b417513ae229b5d2e934e98452c0efabd83f2cf5a7e61a8afa76b69722fe0c70513214537004e6e003574862fb9c61de0f258ffd7bc41b",
                    "sender_seq": 2,
                    "receiver_receipt": "0x3758b77e043ea2d70ab8c2ee49fe15d1d1bee5bca39f8723f58b55194e1a9e7c02322d13b689f333872e26cfe8e15b19bbd4180b284b2c1922b860f7cb7a88291c",
                    "receiver_seq": 2,
                    "timestamp": 1767225660000
                  }
                ],
                "end": false
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_sendMessage",
      "summary": "Store a signed, encrypted message for its recipient and return it with its id and both receipts.",
      "description": "`message.signature` is the sender's EIP-712 signature over `Message(address from,address to,bytes message,uint64 timestamp)` in the domain `{name: \"neutralService\", version: \"1\"}`. The node checks that `message` is non-empty hex (-32602), that the signature recovers `from` (-32003), that `from` is the authenticated user (-32002), that `timestamp` is within the node's clock window (-32004), that an `expires` is later than `timestamp` and not past (-32602; the signature is then over `ExpiringMessage`) and the size limits (-32005); then that neither the sender's nor the recipient's storage quota is used up (-32029, `data.quota` naming it; `nodeInfo.limits` reports the quotas).\n\nIdempotent: resending a message with the same EIP-712 digest returns the stored original (also once its owners deleted it or the retention sweep did: its original id and receipts); no duplicate is stored, and the resend does not count against a quota. The message is acknowledged only once it is durably stored. The body is ciphertext to the node; it never needs the plaintext.\n\nFederation: send through your home node. A node refuses a sender homed elsewhere (-32002, `data.home` naming it), and a message to an account homed on a node that is not its peer (-32002). To an account homed on a peer, the message is stored with `status: \"pending\"` and delivered in the background; the answer waits up to `nodeInfo.limits.deliveryWaitMs` for the recipient node's receipt (then without `status`, with both receipts), else it is the pending message. A sender without a home record must publish one here before messaging an account homed elsewhere (-32002). A recipient no node of the federation knows is stored here (as in v1), but while a peer does not answer its lookup the send is refused with -32603 (`data.reason` \"peers unreachable\"): the recipient may be homed there; send again later. To an account that has no home record while other nodes hold its key bundle, the send is refused with -32002 (`data.reason` \"recipient has no home record\"): a copy of a bundle homes no one.",
      "tags": [
        {
          "name": "write"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "message",
          "description": "The signed message to store.",
          "required": true,
          "schema": {
            "$ref": "#/components/schemas/SignedMessage"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one Message: the stored message, with its id and both receipts.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/Message"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/Forbidden"
        },
        {
          "$ref": "#/components/errors/InvalidSignature"
        },
        {
          "$ref": "#/components/errors/TimestampOutOfWindow"
        },
        {
          "$ref": "#/components/errors/TooLarge"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Send a message",
          "params": [
            {
              "name": "message",
              "value": {
                "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                "message": "deadbeefcafef00d",
                "timestamp": 1767225720000,
                "signature": "0x93b635380cb19df7039af013db52ed95ac69b81032285d8796ebe12d22e6435a5a7058243b46b8931d0ec9b9061d8842251df755b4f9209ce87e9b4da52a34571c"
              }
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "id": "3",
                "message": "deadbeefcafef00d",
                "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                "signature": "0x93b635380cb19df7039af013db52ed95ac69b81032285d8796ebe12d22e6435a5a7058243b46b8931d0ec9b9061d8842251df755b4f9209ce87e9b4da52a34571c",
                "sender_receipt": "0x6f9d43531314b25334d47ffd022486ce4045c9753dc260c94376f9778fa705cd6680af994fbb233a75648a570b2ead671a172569516573d28d2681cc992f00321c",
                "sender_seq": 3,
                "receiver_receipt": "0x0f8d345fd9615b6f2103044d3268b33517a72a1291157c0e45c5759746e986325a87970d393b4d8451bd52dd79699f9c3b1a8051760280153041c5d5ae85ac451b",
                "receiver_seq": 3,
                "timestamp": 1767225720000
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_publishKey",
      "summary": "Publish the authenticated account's messaging public key, as a key bundle the account signed.",
      "description": "Clients encrypt messages with NIP-44 v2, which needs the recipient's messaging public key; this is how an account announces its own. `bundle.signature` is the account's EIP-712 signature over `KeyBundle(address account,bytes32 key,uint64 timestamp)` in the domain `{name: \"neutralService\", version: \"1\"}` (the same domain as messages), so anyone can check a bundle without trusting the node, and a signed bundle may be published again on another node.\n\nThe node checks, in this order: the params (-32602; also when `key` is not the x coordinate of a point on secp256k1), that `bundle.account` is the authenticated user (-32002), that `timestamp` is at most `nodeInfo.limits.clockSkewMs` in the future (-32004; a timestamp in the past is fine) and that the signature recovers `account` (-32003).\n\nThe node keeps one bundle per account: the one with the greatest `timestamp`, and between two of the same timestamp the one with the greater signature (compared as bytes; `supersedes` in `@neutral/protocol`), so every node keeps the same bundle whichever reached it first. A bundle replaces the stored one only if it wins by that order; otherwise nothing changes and the call still succeeds, answering the stored bundle. The result is therefore always the bundle now current for the account (compare it with yours to know whether yours won). It is answered only once the bundle is durably stored.\n\nA bundle proves that its account chose the key, not that the account holds the key's secret: nothing stops an account from publishing another account's messaging key as its own. The node accepts it, on purpose. Messages to that account are then encrypted to a key it cannot decrypt and only the key's owner could (were the ciphertext to reach it); the only accounts exposed are the publisher itself and whoever writes to it, who trusted its signed bundle. Refusing a key another account already uses would not prevent this across nodes, and would let anyone who copies a key first lock its owner out. A proof of possession (the key signing the bundle too) is the remedy if one is ever needed; it would change the record every client signs.",
      "tags": [
        {
          "name": "write"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "bundle",
          "description": "The signed key bundle to publish; `bundle.account` must be the authenticated user.",
          "required": true,
          "schema": {
            "$ref": "#/components/schemas/KeyBundle"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one KeyBundle: the bundle now current for the account (the one given, or a newer one the node already had).",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/KeyBundle"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/Forbidden"
        },
        {
          "$ref": "#/components/errors/InvalidSignature"
        },
        {
          "$ref": "#/components/errors/TimestampOutOfWindow"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Publish a key",
          "params": [
            {
              "name": "bundle",
              "value": {
                "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "key": "0xf9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9",
                "timestamp": 1767225600000,
                "signature": "0x36256dca8f8e3673f92c1d76d8bc2dab3870969336fe19b3fb04ce7a49f8ead379ebbe195a998a2a89198b2bb5867e1d18b156a9fa80c8d03eebe538779922051c"
              }
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "key": "0xf9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9",
                "timestamp": 1767225600000,
                "signature": "0x36256dca8f8e3673f92c1d76d8bc2dab3870969336fe19b3fb04ce7a49f8ead379ebbe195a998a2a89198b2bb5867e1d18b156a9fa80c8d03eebe538779922051c"
              }
            ]
          }
        },
        {
          "name": "An older bundle changes nothing",
          "description": "The node already holds the bundle of the first example, made a day later: it stays current and is answered. No error.",
          "params": [
            {
              "name": "bundle",
              "value": {
                "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "key": "0xc6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5",
                "timestamp": 1767139200000,
                "signature": "0x756457af1e31380a20f5a4eede91b513dd1b51dba2f2c9f93c4e4afe7d10219f139979f79fc23016372aedceb51babf92ae43e5ccdb9c78bc55d5dcccfd91bc71c"
              }
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "key": "0xf9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9",
                "timestamp": 1767225600000,
                "signature": "0x36256dca8f8e3673f92c1d76d8bc2dab3870969336fe19b3fb04ce7a49f8ead379ebbe195a998a2a89198b2bb5867e1d18b156a9fa80c8d03eebe538779922051c"
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_getKey",
      "summary": "Look up an account's messaging public key: its current key bundle, or null.",
      "description": "A public directory: no token is needed. The result is the account's current KeyBundle as its account signed it (every hex field lowercase), or `null` when this node holds none. The node checked the bundle's signature when it was published; a client that does not want to trust the node checks it again against `account` before encrypting to `key`. `account` may be given in any case.",
      "tags": [
        {
          "name": "read"
        }
      ],
      "x-requires-auth": false,
      "paramStructure": "either",
      "params": [
        {
          "name": "account",
          "description": "The account whose key to look up.",
          "required": true,
          "schema": {
            "$ref": "#/components/schemas/Address"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one element: the account's current KeyBundle, or `null` when the node has none.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "oneOf": [
              {
                "$ref": "#/components/schemas/KeyBundle"
              },
              {
                "type": "null"
              }
            ]
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "A published key",
          "description": "The account is given checksummed (mixed case); the answer is lowercase.",
          "params": [
            {
              "name": "account",
              "value": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "key": "0xf9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9",
                "timestamp": 1767225600000,
                "signature": "0x36256dca8f8e3673f92c1d76d8bc2dab3870969336fe19b3fb04ce7a49f8ead379ebbe195a998a2a89198b2bb5867e1d18b156a9fa80c8d03eebe538779922051c"
              }
            ]
          }
        },
        {
          "name": "No key published",
          "params": [
            {
              "name": "account",
              "value": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              null
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_publishHome",
      "summary": "Make this node the authenticated account's home: publish a home record the account signed.",
      "description": "The record names this node (`nodeInfo.address`); from now on this node keeps the account's mailbox, signs its messages' receipts and receives what other nodes deliver to it. The node checks, in this order: the params (-32602; also when `record.node` is not this node), that `record.account` is the authenticated user (-32002), that `timestamp` is at most `nodeInfo.limits.clockSkewMs` in the future (-32004) and that the signature recovers `account` (-32003). The newest record wins (between two of the same timestamp, the greater signature, as for key bundles): an older one changes nothing and the call still succeeds, answering the record now current. The node tells its peers of the new record, so a node that was the account's home stops taking its messages.\n\nThe SDK's `ready()` publishes a record for the node an app talks to.",
      "tags": [
        {
          "name": "write"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "record",
          "description": "The signed home record; `record.account` must be the authenticated user and `record.node` this node.",
          "required": true,
          "schema": {
            "$ref": "#/components/schemas/HomeRecord"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one HomeRecord: the account's record now current (the one given, or a newer one the node already had).",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/HomeRecord"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/Forbidden"
        },
        {
          "$ref": "#/components/errors/InvalidSignature"
        },
        {
          "$ref": "#/components/errors/TimestampOutOfWindow"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Make this node alice's home",
          "description": "The record names this node (`nodeInfo.address` 0x3c44…93bc); the answer is the record now current.",
          "params": [
            {
              "name": "record",
              "value": {
                "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "node": "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
                "timestamp": 1767225600000,
                "signature": "0x0f6bee26d9b60719eab2b6df8c35c7df7551fc0650118d161aaeb6c5a73ab93d5df5b8dd374d1c962d4b1d16a7525c33a968290115a8a21c53ffb0c0810e31911c"
              }
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "node": "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
                "timestamp": 1767225600000,
                "signature": "0x0f6bee26d9b60719eab2b6df8c35c7df7551fc0650118d161aaeb6c5a73ab93d5df5b8dd374d1c962d4b1d16a7525c33a968290115a8a21c53ffb0c0810e31911c"
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_getHome",
      "summary": "Look up an account's home node: its newest home record anywhere in the federation, or null.",
      "description": "A public directory, like `getKey`: no token is needed. The node answers the newest record it holds; for an account not homed here it asks its peers first (bounded in time; the answer is cached for a while) and keeps only records whose signature recovers `account`. `null`: no node of the federation holds a record (the account is homed where its key bundle is, if anywhere). Check the signature yourself to trust no node.",
      "tags": [
        {
          "name": "read"
        }
      ],
      "x-requires-auth": false,
      "paramStructure": "either",
      "params": [
        {
          "name": "account",
          "description": "The account whose home to look up.",
          "required": true,
          "schema": {
            "$ref": "#/components/schemas/Address"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one element: the account's newest HomeRecord, or `null`.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "oneOf": [
              {
                "$ref": "#/components/schemas/HomeRecord"
              },
              {
                "type": "null"
              }
            ]
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "An account homed here",
          "description": "The account is given checksummed (mixed case); the answer is lowercase.",
          "params": [
            {
              "name": "account",
              "value": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "node": "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
                "timestamp": 1767225600000,
                "signature": "0x0f6bee26d9b60719eab2b6df8c35c7df7551fc0650118d161aaeb6c5a73ab93d5df5b8dd374d1c962d4b1d16a7525c33a968290115a8a21c53ffb0c0810e31911c"
              }
            ]
          }
        },
        {
          "name": "No record anywhere",
          "description": "Neither this node nor its peers hold a home record of the account.",
          "params": [
            {
              "name": "account",
              "value": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              null
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_nodeInfo",
      "summary": "Describe this service node: its address, software, accepted sign-in domains and limits.",
      "description": "`address` is the key that signs this node's receipts; clients verify receipts against it. `domains` are the values a sign-in token's `domain` may take.",
      "tags": [
        {
          "name": "node"
        }
      ],
      "paramStructure": "either",
      "params": [],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one NodeInfo.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/NodeInfo"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Node description",
          "params": [],
          "result": {
            "name": "payload",
            "value": [
              {
                "address": "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
                "software": "neutral-relay",
                "version": "0.1.0",
                "domains": [
                  "127.0.0.1:8645",
                  "localhost:8645",
                  "[::1]:8645"
                ],
                "limits": {
                  "maxLimit": 100,
                  "maxBatch": 100,
                  "maxBodyBytes": 1048576,
                  "maxMessageBytes": 65536,
                  "clockSkewMs": 300000,
                  "maxResponseBytes": 4194304,
                  "maxPageScan": 256,
                  "retentionSeconds": 7776000,
                  "peerRateLimit": 10000,
                  "quotaPeriodSeconds": 3600,
                  "senderQuotaMessages": 10000,
                  "senderQuotaBytes": 104857600,
                  "recipientQuotaMessages": 20000,
                  "recipientQuotaBytes": 209715200,
                  "requestQuotaMessages": 5,
                  "deliveryWaitMs": 2000,
                  "retryPeriodSeconds": 259200,
                  "maxSubscriptions": 9000,
                  "maxSubscriptionsPerAccount": 8,
                  "subscriptionBufferBytes": 65536,
                  "subscriptionStallMs": 30000,
                  "keepAliveMs": 15000
                },
                "url": "http://127.0.0.1:8645",
                "peers": [
                  {
                    "url": "http://127.0.0.1:8646",
                    "address": "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc"
                  }
                ]
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_subscribe",
      "summary": "Stream the authenticated user's messages as they are stored: first those after a cursor, then live.",
      "description": "Answered as Server-Sent Events, not as one JSON response: POST it like any call, with `Accept: text/event-stream` (without it: -32600), alone (not in a batch). Before the stream starts, errors are ordinary JSON-RPC error responses (401 without a valid token, -32602 for bad params, -32029 when the node is at `limits.maxSubscriptions` and the client's address holds as many streams as any, with the connection closed). Then the answer is `200 text/event-stream` and each event's `data` is one JSON-RPC notification (see `x-subscription`).\n\nFirst every stored message the filter selects with an id greater than `after` (or the `Last-Event-ID` header, which wins: what a reconnecting client sends), oldest first, each as a `neutralService_message` event whose SSE `id` is the message id; then one `neutralService_caughtUp`; then every message committed afterwards, in id order, the moment it is stored (through any worker process or replica of the node, or delivered from another node). Walking on from the last id received, nothing is missed and nothing comes twice: a client that resumes with the last id it got sees every message exactly once, in id order.\n\nA sender's pending message that becomes delivered or failed arrives as `neutralService_status`, once the stream has sent that message (earlier, the message itself comes with its new status). Status events carry no SSE id and are not replayed on resume: a client that resumes re-reads its pending messages (`getInbox` with `direction: \"sent\"`).\n\nA comment line (`: keep-alive`) is sent every `limits.keepAliveMs` while nothing else is. The node ends the stream with one `neutralService_end` event naming why (`EndReason`) when the token expires, when it stops, when the client reads too slowly, when the account opens more streams than allowed, or when the node is at its bound and another address subscribes; then the client resumes from the last id it got.",
      "tags": [
        {
          "name": "read"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "filter",
          "description": "Which messages to stream. Absent, `null` or `{}`: every received message.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/SubscribeFilter",
            "default": {}
          }
        },
        {
          "name": "after",
          "description": "Start after this message id (exclusive). Absent: from the mailbox's first message. `Last-Event-ID` wins over it.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/MessageId"
          }
        }
      ],
      "result": {
        "name": "events",
        "description": "Not a JSON result: the answer is a `text/event-stream` of the notifications in `x-subscription`.",
        "schema": {
          "type": "null"
        }
      },
      "x-subscription": {
        "description": "The stream's events: each SSE event's `data` is a JSON-RPC 2.0 notification `{\"jsonrpc\":\"2.0\",\"method\",\"params\"}` of one of these; `eventId` names the params member whose value is the SSE `id`.",
        "notifications": [
          {
            "name": "neutralService_message",
            "summary": "A message the filter selects, in id order.",
            "eventId": "/message/id",
            "params": [
              {
                "name": "message",
                "required": true,
                "schema": {
                  "$ref": "#/components/schemas/Message"
                },
                "description": "The message, as getInbox returns it."
              }
            ]
          },
          {
            "name": "neutralService_caughtUp",
            "summary": "Every message stored when the stream began has been sent; what follows is live.",
            "params": [
              {
                "name": "cursor",
                "required": false,
                "description": "The last message id sent so far (absent: none).",
                "schema": {
                  "$ref": "#/components/schemas/MessageId"
                }
              }
            ]
          },
          {
            "name": "neutralService_status",
            "summary": "A sender's copy already sent on this stream changed status: delivered (`receiver_receipt` now present) or failed (`reason` says why).",
            "params": [
              {
                "name": "message",
                "required": true,
                "schema": {
                  "$ref": "#/components/schemas/Message"
                },
                "description": "The sender's copy as it reads now."
              },
              {
                "name": "status",
                "required": true,
                "schema": {
                  "type": "string",
                  "enum": [
                    "delivered",
                    "failed"
                  ]
                }
              }
            ]
          },
          {
            "name": "neutralService_end",
            "summary": "The node ends the stream; nothing follows.",
            "params": [
              {
                "name": "reason",
                "required": true,
                "schema": {
                  "$ref": "#/components/schemas/EndReason"
                }
              },
              {
                "name": "message",
                "required": true,
                "description": "The reason in words.",
                "schema": {
                  "type": "string"
                }
              },
              {
                "name": "cursor",
                "required": false,
                "description": "The last message id sent on this stream: resume after it.",
                "schema": {
                  "$ref": "#/components/schemas/MessageId"
                }
              }
            ]
          }
        ]
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Everything after message 2, then live",
          "description": "Bob subscribes after the id he last saw. The stream opens with message 3 (its SSE id is 3), says it has caught up, and from then on sends each new message the moment it is stored. `x-events` lists the events up to the caught-up one.",
          "params": [
            {
              "name": "filter",
              "value": {}
            },
            {
              "name": "after",
              "value": "2"
            }
          ],
          "result": {
            "name": "events",
            "value": null
          },
          "x-events": [
            {
              "id": "3",
              "method": "neutralService_message",
              "params": {
                "message": {
                  "id": "3",
                  "message": "deadbeefcafef00d",
                  "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                  "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                  "signature": "0x93b635380cb19df7039af013db52ed95ac69b81032285d8796ebe12d22e6435a5a7058243b46b8931d0ec9b9061d8842251df755b4f9209ce87e9b4da52a34571c",
                  "sender_receipt": "0x6f9d43531314b25334d47ffd022486ce4045c9753dc260c94376f9778fa705cd6680af994fbb233a75648a570b2ead671a172569516573d28d2681cc992f00321c",
                  "sender_seq": 3,
                  "receiver_receipt": "0x0f8d345fd9615b6f2103044d3268b33517a72a1291157c0e45c5759746e986325a87970d393b4d8451bd52dd79699f9c3b1a8051760280153041c5d5ae85ac451b",
                  "receiver_seq": 3,
                  "timestamp": 1767225720000
                }
              }
            },
            {
              "method": "neutralService_caughtUp",
              "params": {
                "cursor": "3"
              }
            }
          ]
        }
      ]
    },
    {
      "name": "neutralService_deliver",
      "summary": "Node to node: deliver messages from accounts homed at the calling node to accounts homed here.",
      "description": "Called by a peer, signed as `\"x-requires-auth\": \"node\"` says (see Federation). For each message, in order, the node checks that the sender's signature recovers `from` and `sender_receipt` recovers the calling node (-32003), that the calling node is `from`'s home by the newest home record the node knows, `homes` included (-32002), that `to` is homed here (-32002, with the newer record when it knows one) and the size limit (-32005); it stores each message that passes in the recipient's inbox, in the order given, and answers its `receiver_receipt`. The timestamp window does not apply, but a message older than the node's `retryPeriodSeconds` plus `clockSkewMs` is refused for good (-32004). Delivering a stored message again answers the same receipt and stores nothing (also once the retention sweep deleted it, within that same period). A refusal says whether it is permanent; a refusal for now (a quota, with `retryAfter` in seconds) also refuses for now the later messages of the same sender to the same recipient in the call, and no other. The whole call fails only when nothing could be checked (e.g. -32603), or when the calling peer's budget is spent (HTTP 429, -32029: `nodeInfo.limits.peerRateLimit`).",
      "tags": [
        {
          "name": "node"
        }
      ],
      "x-requires-auth": "node",
      "paramStructure": "either",
      "params": [
        {
          "name": "messages",
          "description": "The messages, oldest first (1..100).",
          "required": true,
          "schema": {
            "type": "array",
            "minItems": 1,
            "maxItems": 100,
            "items": {
              "$ref": "#/components/schemas/RelayedMessage"
            }
          }
        },
        {
          "name": "homes",
          "description": "The senders' home records naming the calling node (one per sender), so the called node need not ask for them.",
          "required": false,
          "schema": {
            "type": "array",
            "maxItems": 100,
            "items": {
              "$ref": "#/components/schemas/HomeRecord"
            },
            "default": []
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one DeliveryResult: an outcome per message, in order.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/DeliveryResult"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/Forbidden"
        },
        {
          "$ref": "#/components/errors/TooLarge"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Carol, homed at the peer 0x9965…a4dc, writes to alice, homed here",
          "description": "Signed by the peer in `Authorization: NeutralNode …`; the message is stored in alice's inbox and the answer is this node's receipt.",
          "params": [
            {
              "name": "messages",
              "value": [
                {
                  "from": "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
                  "to": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                  "message": "0123456789abcdef",
                  "timestamp": 1767225780000,
                  "signature": "0x861038223d7b9d98692ff2266efd054e4aaf1a72499c560ef61aa04f64380fbd46cc3d518452a50b13b727f1f987a79394d1053c26a47472134c717dfb98213b1c",
                  "sender_receipt": "0x23342cd8932b8cfb1aabf4bab9b0fd0588cf6bedff8ab8f2dc1df6538376ad3363548262d019c63890fc100a3a9af8c5d04365d6d7f1a57bac299a17dbc2cb111c",
                  "sender_seq": 1
                }
              ]
            },
            {
              "name": "homes",
              "value": [
                {
                  "account": "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
                  "node": "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc",
                  "timestamp": 1767225600000,
                  "signature": "0xc18ae4211d2c50fe6970585a94952cab8382e1c506c25c9beb5dc0632e8ed5800674b40c74be48f335d8e0eeb33c726b6e266d821e06fc27571d0fe70f410e151c"
                }
              ]
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "outcomes": [
                  {
                    "receiver_receipt": "0xf99c9cb3294fec03a5bda5e653d8327df903e48fd7bcac815067bc0591d9555352653aedcc5571aec6127135c5a8fb6e9e2797c29873a3e5ed1e87fb600737f11c",
                    "receiver_seq": 4
                  }
                ],
                "signature": "0x20f5bea6c2dc5eeb1201dd447eb83cc0d9dd3e192817679d624bb47ca8696b5521ad734421780e88c792dc2a67d2ebe6c0083afb1db6c117be9a4ce5c3635a791c"
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_lookup",
      "summary": "Node to node: what this node itself holds of some accounts' home records and key bundles.",
      "description": "Called by a peer, signed as `\"x-requires-auth\": \"node\"` says (see Federation), when it has no record of an account: the node answers from its own storage only (it asks no one else, so lookups never loop). `homes` lets the caller tell of records just published there (an account moving home): the node keeps each whose signature recovers its account and that is newer than the one it has.",
      "tags": [
        {
          "name": "node"
        }
      ],
      "x-requires-auth": "node",
      "paramStructure": "either",
      "params": [
        {
          "name": "accounts",
          "description": "The accounts to answer for (0..100).",
          "required": true,
          "schema": {
            "type": "array",
            "maxItems": 100,
            "items": {
              "$ref": "#/components/schemas/Address"
            }
          }
        },
        {
          "name": "homes",
          "description": "Home records the caller announces.",
          "required": false,
          "schema": {
            "type": "array",
            "maxItems": 100,
            "items": {
              "$ref": "#/components/schemas/HomeRecord"
            },
            "default": []
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one DirectoryAnswer.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/DirectoryAnswer"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/Forbidden"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "What this node holds of alice and bob",
          "description": "Alice is homed here with a key bundle; of bob this node holds nothing.",
          "params": [
            {
              "name": "accounts",
              "value": [
                "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
              ]
            },
            {
              "name": "homes",
              "value": []
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "homes": [
                  {
                    "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                    "node": "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
                    "timestamp": 1767225600000,
                    "signature": "0x0f6bee26d9b60719eab2b6df8c35c7df7551fc0650118d161aaeb6c5a73ab93d5df5b8dd374d1c962d4b1d16a7525c33a968290115a8a21c53ffb0c0810e31911c"
                  }
                ],
                "keys": [
                  {
                    "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                    "key": "0xf9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9",
                    "timestamp": 1767225600000,
                    "signature": "0x36256dca8f8e3673f92c1d76d8bc2dab3870969336fe19b3fb04ce7a49f8ead379ebbe195a998a2a89198b2bb5867e1d18b156a9fa80c8d03eebe538779922051c"
                  }
                ]
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_deleteMessages",
      "summary": "Delete messages from the authenticated account's mailbox, by a request the account signed; answers the node's signed receipt.",
      "description": "Deletes the account's own copies on this node (its home node): a recipient deletes what it received, a sender its sent copy; the other party's copy, here or on another node, stays. From the answer on, no read or stream serves them, and cursor walks go on over the rest as before: a walk still visits every remaining message exactly once and reports `end` correctly. The node checks, in this order: the params (-32602), that `request.account` is the authenticated user (-32002), that `timestamp` is at most `nodeInfo.limits.clockSkewMs` in the future (-32004), that the signature recovers `account` (-32003), that `leaves`, when given, are the leaf hashes of exactly the account's copies of `ids` (-32602, `data.positions`: the copies' positions, `seq` and `leafHash`, to sign again), and that a request without `leaves` more than `clockSkewMs` old deletes nothing (-32004 while one of its messages is in the mailbox: sign a new request; its receipt once none is). A request with `leaves` deletes only the positions it names, so it may be sent again at any time. A message still `pending` (on its way to another node) cannot be deleted yet: the whole request is refused with -32602 naming it (`data.pending`). Ids not in the mailbox (never, or already deleted or expired) are fine: the receipt says none of the ids is there any more, so sending the same request again answers the same receipt. Each position whose copy a request deleted keeps the request in the mailbox log (`LogDeletion`): with `leaves`, a client checks that the request names the position's own leaf. The space is reclaimed by the node's storage.",
      "tags": [
        {
          "name": "write"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "request",
          "description": "The signed deletion request; `request.account` must be the authenticated user.",
          "required": true,
          "schema": {
            "$ref": "#/components/schemas/DeletionRequest"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one DeletionReceipt.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/DeletionReceipt"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/Forbidden"
        },
        {
          "$ref": "#/components/errors/InvalidSignature"
        },
        {
          "$ref": "#/components/errors/TimestampOutOfWindow"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Bob deletes message 1 from his inbox",
          "description": "Bob signs the request; the node (0x3c44…93bc) answers its receipt. Alice's sent copy stays.",
          "params": [
            {
              "name": "request",
              "value": {
                "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                "ids": [
                  "1"
                ],
                "leaves": [
                  "0xe5b268c2c93181297d81106c5e865a220c753244d5d5d3c3f65f9e21b8b6a81d"
                ],
                "timestamp": 1767225840000,
                "signature": "0xe2f2a83ff1c1e6636cafdee8b6ebc9299a8f7595ff083704b7b0ae120ece2e1069a18bcd0eafdcfd14603946279a3d476bb2465e92af595a050a2f763b39ad011c"
              }
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "node": "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
                "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                "ids": [
                  "1"
                ],
                "request": "0xd7400fd4dea411be0198c09a88e9326007e336501165bc88c608ddd494b3c82e",
                "signature": "0x26f4660d8008acac4c8a7636d9d04eda204fc210cfeee001395a0e9caeb8f2fc31936f384a2bc8c670ab2b1490fd2f2847e44f70471614bad065c75a803bb3181b"
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_setConsent",
      "summary": "Change who reaches the authenticated account's inbox: signed records allowing or blocking peers, and optionally a policy.",
      "description": "The account's home node keeps each record and the policy if it is newer (greater timestamp) than what it has; an older one changes nothing and the call still succeeds. The node checks, in this order: the params (-32602; also a peer given twice), that every `account` is the authenticated user (-32002), that no timestamp is more than `nodeInfo.limits.clockSkewMs` in the future (-32004) and every signature (-32003); nothing is kept unless all pass. From the answer on, the node applies them to every message it stores for the account, from this node's senders and from other nodes' (a delivery from a blocked sender is refused for good). Messages already stored stay where they are.",
      "tags": [
        {
          "name": "write"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "records",
          "description": "Consent records about peers (0 to 100, one per peer).",
          "required": true,
          "schema": {
            "type": "array",
            "minItems": 0,
            "maxItems": 100,
            "items": {
              "$ref": "#/components/schemas/ConsentRecord"
            }
          }
        },
        {
          "name": "policy",
          "description": "The account's policy, if it changes.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/ConsentPolicy"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one ConsentState: the policy now current and the records now current for the peers given.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/ConsentState"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/Forbidden"
        },
        {
          "$ref": "#/components/errors/InvalidSignature"
        },
        {
          "$ref": "#/components/errors/TimestampOutOfWindow"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Bob lets only those he allows reach his inbox, and allows alice",
          "description": "Both signed by bob; the answer is what his home node now keeps.",
          "params": [
            {
              "name": "records",
              "value": [
                {
                  "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                  "peer": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                  "state": "allowed",
                  "timestamp": 1767225900000,
                  "signature": "0xc9d623d0bcce8171018b9bce9ac62a6355e12491bbc7f10fd7719a56d010fe63026714a269d84c612e0496fd1b5fe13715fca45c20e392ea48db83251fef0f301c"
                }
              ]
            },
            {
              "name": "policy",
              "value": {
                "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                "mode": "allowed-only",
                "timestamp": 1767225900000,
                "signature": "0xdae51eda7f0b005087423d98162f6ebd95fa617974561f3bcb09fa19265a24ce1ee5553fc2edcec24fa62646c7a697f6e22a0bf2ab36398b73eda9b3568802731b"
              }
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                "policy": {
                  "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                  "mode": "allowed-only",
                  "timestamp": 1767225900000,
                  "signature": "0xdae51eda7f0b005087423d98162f6ebd95fa617974561f3bcb09fa19265a24ce1ee5553fc2edcec24fa62646c7a697f6e22a0bf2ab36398b73eda9b3568802731b"
                },
                "records": [
                  {
                    "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                    "peer": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                    "state": "allowed",
                    "timestamp": 1767225900000,
                    "signature": "0xc9d623d0bcce8171018b9bce9ac62a6355e12491bbc7f10fd7719a56d010fe63026714a269d84c612e0496fd1b5fe13715fca45c20e392ea48db83251fef0f301c"
                  }
                ]
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_getConsent",
      "summary": "The authenticated account's consent policy and its allowed and blocked peers, a page at a time (by peer address).",
      "description": "Records with state \"none\" are left out. Pages go by peer address: pass the last record's `peer` as `after` for the next page; `end` is true when no record follows.",
      "tags": [
        {
          "name": "read"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "after",
          "description": "List the peers after this address (exclusive).",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/Address"
          }
        },
        {
          "name": "limit",
          "description": "Most records on the page.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/Limit"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one ConsentState, with `end`.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/ConsentState"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Bob's consent",
          "description": "After the setConsent example.",
          "params": [],
          "result": {
            "name": "payload",
            "value": [
              {
                "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                "policy": {
                  "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                  "mode": "allowed-only",
                  "timestamp": 1767225900000,
                  "signature": "0xdae51eda7f0b005087423d98162f6ebd95fa617974561f3bcb09fa19265a24ce1ee5553fc2edcec24fa62646c7a697f6e22a0bf2ab36398b73eda9b3568802731b"
                },
                "records": [
                  {
                    "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                    "peer": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                    "state": "allowed",
                    "timestamp": 1767225900000,
                    "signature": "0xc9d623d0bcce8171018b9bce9ac62a6355e12491bbc7f10fd7719a56d010fe63026714a269d84c612e0496fd1b5fe13715fca45c20e392ea48db83251fef0f301c"
                  }
                ],
                "end": true
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_importMessages",
      "summary": "Import messages of the authenticated account's own history (an export from its former home node) into its mailbox here, with their original signatures and receipts.",
      "description": "For moving home: after publishing a home record at this node, an account imports the messages it exported from its former home (the SDK's `neutral-mailbox` export). Each message is stored in the account's mailbox here exactly as given, its sender's signature and both receipts (signed by the nodes that stored it first) unchanged, under a new id of this node: ids grow in storing order, so import oldest first, and the imported messages follow those already here. A message the account sent goes into its sent side, one it received into its inbox (never the requests folder: it is the account's own history). A message already in the account's mailbox here (the same EIP-712 digest) is answered its id, so importing again stores nothing twice; one this node holds for the other party only (homed here too) gets the account's copy added, under the same id. Retention counts from the import.\n\nThe node checks, for every message before storing any: that the account is its `from` or `to` (-32002, `data.index`), that it is delivered (no `status`; pending or failed copies are not history to import: -32602), that an `expires` has not passed (-32602), the size limit (-32005), that the sender's signature recovers `from` (-32003) and that both receipts are valid signatures of the message (-32003; by which node is for readers to judge, as for any message). An account homed at another node is refused (-32002, `data.home`): import at your home node. Imported messages count against the account's storage quotas as a sender and as a recipient (-32029, nothing stored). With `head` (spec 2.10.0), the former home's signed head of the account's log comes along, and the node keeps it (`LogPage.prior`).",
      "tags": [
        {
          "name": "write"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "messages",
          "description": "1 to 100 messages, as a read or an export gives them (`id` is the former node's and is ignored).",
          "required": true,
          "schema": {
            "type": "array",
            "minItems": 1,
            "maxItems": 100,
            "items": {
              "$ref": "#/components/schemas/Message"
            }
          }
        },
        {
          "name": "head",
          "description": "The former home's last head of the account's log (an export's `head`: what the history imported is part of). The node keeps it as the account's prior history and answers it in `neutralService_getLog` (`LogPage.prior`), so that every device of the account can check it against the heads it verified there. Its `account` must be the caller's (-32602, `data.field` \"head.account\"); its signature must recover an address, the former node's (-32003); one account keeps at most 16 former nodes' heads (-32602, `data.limit`). Given again, a head of the same node replaces the one kept when it is larger.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/MailboxHead"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one ImportResult.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/ImportResult"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/Forbidden"
        },
        {
          "$ref": "#/components/errors/InvalidSignature"
        },
        {
          "$ref": "#/components/errors/TooLarge"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Bob imports message 1, which is here already",
          "description": "Bob's export holds alice's message 1; this node stored it, so the import answers its id and stores nothing twice.",
          "params": [
            {
              "name": "messages",
              "value": [
                {
                  "id": "1",
                  "message": "a1b2c3d4e5f60718",
                  "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                  "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                  "signature": "0xc3cee1fa0f77347d3ef59bdd3770b07c7512541f749a0998c494552b55bbdc5a292ec94c0db820134f639f1d8e8be006f5fe801a6ee0cf0d14b405ea9f18d3d91b",
                  "sender_receipt": "0x1f194704cf16fec64c79ed0691f6f513d6749b16e726ac00bce82581d743419063c0b1e980ca740879e3e173f16cd08837d7e97d9ed796197d90f0a155cccade1b",
                  "sender_seq": 1,
                  "receiver_receipt": "0xacfe3d34220a01d3caaf2a9b2a5b221fb49db59ec63237aa275e5a821fdc36bb151bc864c713ea571c8654c2a2ae4866028e4a5e435332dd1c1117ea90d3abd91b",
                  "receiver_seq": 1,
                  "timestamp": 1767225600000
                }
              ]
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "ids": [
                  "1"
                ]
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_getProof",
      "summary": "The authenticated account's signed mailbox head, with inclusion proofs for messages and a consistency proof from a head the client saw before.",
      "description": "The verifiable mailbox: with `ids` (messages a read returned), each copy of them in the caller's mailbox is answered with its position and its inclusion proof in the head's tree; an id with no copy there (never stored, or deleted) is left out, as is a copy stored after the head. With `compact: true`, the positions come without their own proofs and `multiproof` proves them all. With `since` (the size of the last head the client verified), the consistency proof from that size to the head's. Without either: the current head. A `since` larger than the log is refused (-32602, `data.field` \"since\", `data.size` the log's size): the node cannot show that log, and a client that verified it holds proof of a rollback.",
      "tags": [
        {
          "name": "read"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "ids",
          "description": "Messages to prove (at most 100).",
          "required": false,
          "schema": {
            "type": "array",
            "maxItems": 100,
            "items": {
              "$ref": "#/components/schemas/MessageId"
            }
          }
        },
        {
          "name": "since",
          "description": "The size of the last head the client verified: the answer proves the head consistent with it.",
          "required": false,
          "schema": {
            "$ref": "#/components/schemas/LogSize"
          }
        },
        {
          "name": "compact",
          "description": "Answer the inclusion proofs as one `multiproof` (`MailboxProof`) instead of one per position.",
          "required": false,
          "schema": {
            "type": "boolean"
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one MailboxProof.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/MailboxProof"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Bob proves two messages he read",
          "description": "After the other methods' examples. Bob verified a head of size 1 before: the answer proves the current head consistent with it. Message 1 is at position 4: Bob deleted his copy (position 1 keeps it) and imported it again. The head's `timestamp` and `signature` are when the node signed it.",
          "params": [
            {
              "name": "ids",
              "value": [
                "1",
                "3"
              ]
            },
            {
              "name": "since",
              "value": 1
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "head": {
                  "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                  "size": 4,
                  "root": "0xff8baeff5c4dcd0470b9acb2a8ffac2e350d8678647b4b66a655fb9f27af3b7c",
                  "timestamp": 1795902017153,
                  "signature": "0x47ce9cbb7769a501a5410f4f9fa1791a0818dbbb51ba1638694d455e376efb0306b3048ddf0569b866a22039e8da969fe96faf2aba6b23d63fc8f023f98884911b"
                },
                "positions": [
                  {
                    "seq": 4,
                    "id": "1",
                    "role": "received",
                    "leafHash": "0x2d253675c2eb6d8901571b4761333ffc25730d80b65a2fb4dcb64cbb92e037c9",
                    "proof": [
                      "0x5b7af5e92e639650c534d4361c2064d21f7e6c8ad4276a546ae0b6cb56f2ef9c",
                      "0xc2dc9999c17a328acd28fe4688a1ee6a056e287ff653941de4af7368eacafbcb"
                    ]
                  },
                  {
                    "seq": 3,
                    "id": "3",
                    "role": "received",
                    "leafHash": "0x5b7af5e92e639650c534d4361c2064d21f7e6c8ad4276a546ae0b6cb56f2ef9c",
                    "proof": [
                      "0x2d253675c2eb6d8901571b4761333ffc25730d80b65a2fb4dcb64cbb92e037c9",
                      "0xc2dc9999c17a328acd28fe4688a1ee6a056e287ff653941de4af7368eacafbcb"
                    ]
                  }
                ],
                "consistency": [
                  "0x77761b4cd10dca261e3021cec987e5e7abaefd681ea34b17a2efb8d9c23092c3",
                  "0x072cefea2302219fa77cf82a86b4ae9b3cacf26f6aa6b47a37b6bfa0de426a6a"
                ]
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_getLog",
      "summary": "A page of the authenticated account's mailbox log, with the signed head it ends at.",
      "description": "Every position from `from` (default 1) in order, at most `limit`, none past the head's size; deleted copies keep their positions, each with `removed` saying why (the account's signed request, the sender's signed end, the node's retention). With `messages`, each position still served carries its message. An audit reads the whole log and checks its tree against the head: every position accounted for, by its message or by why it is gone. The page is the node's signed statement (`LogPage.signature`, spec 3.1.0): what it says of each position is the node's word.",
      "tags": [
        {
          "name": "read"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "from",
          "description": "The first position of the page.",
          "required": false,
          "schema": {
            "type": "integer",
            "minimum": 1,
            "maximum": 9007199254740991,
            "default": 1
          }
        },
        {
          "name": "limit",
          "description": "Most positions on the page (1 to 1000).",
          "required": false,
          "schema": {
            "type": "integer",
            "minimum": 1,
            "maximum": 1000,
            "default": 100
          }
        },
        {
          "name": "messages",
          "description": "Whether each position whose copy the node still serves carries it (`message`, as reads return it), so that an audit checks every position in one walk: its leaf, its sender's signature and its receipts. The page then holds what fits in the request's answer budget (`maxResponseBytes`), at least one position.",
          "required": false,
          "schema": {
            "type": "boolean",
            "default": false
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one LogPage.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/LogPage"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "The first two positions of Bob's log",
          "description": "After the other methods' examples. The head's `timestamp` and `signature` are when the node signed it; the page's `timestamp` is when it signed the page, and its `signature` (its `LogStatement`) is over that head and that time. Position 1's copy is the message Bob deleted (neutralService_deleteMessages's example): it carries his signed request.",
          "params": [
            {
              "name": "from",
              "value": 1
            },
            {
              "name": "limit",
              "value": 2
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "head": {
                  "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                  "size": 4,
                  "root": "0xff8baeff5c4dcd0470b9acb2a8ffac2e350d8678647b4b66a655fb9f27af3b7c",
                  "timestamp": 1795902017153,
                  "signature": "0x47ce9cbb7769a501a5410f4f9fa1791a0818dbbb51ba1638694d455e376efb0306b3048ddf0569b866a22039e8da969fe96faf2aba6b23d63fc8f023f98884911b"
                },
                "entries": [
                  {
                    "seq": 1,
                    "id": "1",
                    "role": "received",
                    "leafHash": "0xe5b268c2c93181297d81106c5e865a220c753244d5d5d3c3f65f9e21b8b6a81d",
                    "removed": {
                      "reason": "deleted",
                      "request": {
                        "account": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                        "ids": [
                          "1"
                        ],
                        "leaves": [
                          "0xe5b268c2c93181297d81106c5e865a220c753244d5d5d3c3f65f9e21b8b6a81d"
                        ],
                        "timestamp": 1767225840000,
                        "signature": "0xe2f2a83ff1c1e6636cafdee8b6ebc9299a8f7595ff083704b7b0ae120ece2e1069a18bcd0eafdcfd14603946279a3d476bb2465e92af595a050a2f763b39ad011c"
                      }
                    }
                  },
                  {
                    "seq": 2,
                    "id": "2",
                    "role": "sent",
                    "leafHash": "0x77761b4cd10dca261e3021cec987e5e7abaefd681ea34b17a2efb8d9c23092c3"
                  }
                ],
                "end": false,
                "timestamp": 1795902017200,
                "signature": "0x8b867b6755bd164165250babfcf7ca3cda5f2cfa3c5eaa41ba4ea5879f660f694e805f9b416e7e108a6f4a1479d15bdfceb313ae921148157bc5ceb59a4e35c41c"
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_proveDelivery",
      "summary": "Whether messages the authenticated account sent are in their recipients' mailbox logs: each recipient's node's signed promise of the position of its copy.",
      "description": "For each id (messages the caller sent, as ids on this node), the recipient's node signs the position of the recipient's copy in the recipient's log, EIP-712 `LogReceipt(bytes32 message,string role,uint64 seq)` with role \"receiver\" (see \"The verifiable mailbox\"): this node for a recipient homed here, else the recipient's home node, asked by this one (`neutralService_provePositions`). A client checks that the signature recovers the recipient's home node; a node that refuses, does not answer, holds no copy, or answers another node's signature leaves the message unproven, with why (`UnprovenDelivery`): a problem for the sender to see. A message still pending or failed is not delivered: unproven. The recipient's copy deleted since (by its account, its end or the retention) is not proven either.",
      "tags": [
        {
          "name": "read"
        }
      ],
      "x-requires-auth": true,
      "paramStructure": "either",
      "params": [
        {
          "name": "ids",
          "description": "1 to 100 ids of messages the caller sent, each once.",
          "required": true,
          "schema": {
            "type": "array",
            "minItems": 1,
            "maxItems": 100,
            "uniqueItems": true,
            "items": {
              "$ref": "#/components/schemas/MessageId"
            }
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one DeliveryProofs.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/DeliveryProofs"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "Bob proves message 2 reached Alice's log",
          "description": "Bob sent message 2 to Alice, homed at the same node (0x3c44…93bc): the node signs its promise that Alice's copy holds position 2 of her log (1: message 1, sent). An id that is not a message Bob sent here is unproven.",
          "params": [
            {
              "name": "ids",
              "value": [
                "2",
                "999"
              ]
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "proofs": [
                  {
                    "id": "2",
                    "position": {
                      "seq": 2,
                      "receipt": "0x3758b77e043ea2d70ab8c2ee49fe15d1d1bee5bca39f8723f58b55194e1a9e7c02322d13b689f333872e26cfe8e15b19bbd4180b284b2c1922b860f7cb7a88291c"
                    }
                  },
                  {
                    "id": "999",
                    "problem": "not a message you sent on this node"
                  }
                ]
              }
            ]
          }
        }
      ]
    },
    {
      "name": "neutralService_provePositions",
      "summary": "Node to node: the positions of messages' copies in their recipients' logs here, each with this node's signed promise.",
      "description": "Called by a peer, signed as `\"x-requires-auth\": \"node\"` says (see Federation), for its senders' `neutralService_proveDelivery`: for each message (its digest, timestamp and recipient), the position of the recipient's copy in the recipient's log on this node, with this node's EIP-712 `LogReceipt` signature (role \"receiver\"), or `null` when the recipient's mailbox here holds no copy of it.",
      "tags": [
        {
          "name": "node"
        }
      ],
      "x-requires-auth": "node",
      "paramStructure": "either",
      "params": [
        {
          "name": "messages",
          "description": "1 to 100 messages.",
          "required": true,
          "schema": {
            "type": "array",
            "minItems": 1,
            "maxItems": 100,
            "items": {
              "$ref": "#/components/schemas/PositionQuery"
            }
          }
        }
      ],
      "result": {
        "name": "payload",
        "description": "An array holding exactly one PositionAnswers.",
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1,
          "items": {
            "$ref": "#/components/schemas/PositionAnswers"
          }
        }
      },
      "errors": [
        {
          "$ref": "#/components/errors/InvalidParams"
        },
        {
          "$ref": "#/components/errors/Unauthorized"
        },
        {
          "$ref": "#/components/errors/Forbidden"
        },
        {
          "$ref": "#/components/errors/RateLimited"
        }
      ],
      "examples": [
        {
          "name": "A peer asks for the position of message 2 in Alice's log",
          "description": "The peer (0x9965…a4dc) asks, for one of its senders, where Alice's copy of a message is: message 2 holds position 2. A message Alice's mailbox does not hold (here, the same digest a millisecond later) is `null`.",
          "params": [
            {
              "name": "messages",
              "value": [
                {
                  "digest": "0x1062193339e5b984a12d33c32a157b4e34b0d62d3ca3d4f4e319c0f2b29001c8",
                  "timestamp": 1767225660000,
                  "to": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
                },
                {
                  "digest": "0x1062193339e5b984a12d33c32a157b4e34b0d62d3ca3d4f4e319c0f2b29001c8",
                  "timestamp": 1767225660001,
                  "to": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
                }
              ]
            }
          ],
          "result": {
            "name": "payload",
            "value": [
              {
                "positions": [
                  {
                    "seq": 2,
                    "receipt": "0x3758b77e043ea2d70ab8c2ee49fe15d1d1bee5bca39f8723f58b55194e1a9e7c02322d13b689f333872e26cfe8e15b19bbd4180b284b2c1922b860f7cb7a88291c"
                  },
                  null
                ]
              }
            ]
          }
        }
      ]
    }
  ],
  "components": {
    "schemas": {
      "Address": {
        "title": "Address",
        "description": "An account address: `0x` + 40 hex digits. Any case on input; lowercase on output.",
        "type": "string",
        "pattern": "^0x[0-9a-fA-F]{40}$"
      },
      "Hex": {
        "title": "Hex",
        "description": "A `0x`-prefixed hex string.",
        "type": "string",
        "pattern": "^0x[0-9a-fA-F]*$"
      },
      "Signature": {
        "title": "Signature",
        "description": "A 65-byte secp256k1 signature (r, s, v): `0x` + 130 hex digits.",
        "type": "string",
        "pattern": "^0x[0-9a-fA-F]{130}$"
      },
      "MessagingKey": {
        "title": "MessagingKey",
        "description": "A messaging public key: an x-only secp256k1 public key (the 32-byte x coordinate, the BIP-340 form NIP-44 v2 uses) as `0x` + 64 hex digits. It must be the x coordinate of a point on the curve. Any case on input; lowercase on output.",
        "type": "string",
        "pattern": "^0x[0-9a-fA-F]{64}$"
      },
      "Ciphertext": {
        "title": "Ciphertext",
        "description": "An encrypted message body as hex without `0x`: a non-empty, whole number of bytes (lowercase on output). At most `nodeInfo.limits.maxMessageBytes` bytes (64 KiB by default); larger is error -32005.",
        "type": "string",
        "pattern": "^(?:[0-9a-fA-F]{2})+$"
      },
      "MessageId": {
        "title": "MessageId",
        "description": "A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position.",
        "type": "string",
        "pattern": "^(?:0|[1-9][0-9]{0,18})$"
      },
      "Timestamp": {
        "title": "Timestamp",
        "description": "Milliseconds since the Unix epoch.",
        "type": "integer",
        "minimum": 0,
        "maximum": 9007199254740991
      },
      "Limit": {
        "title": "Limit",
        "description": "Page size: an integer from 1 to 100.",
        "type": "integer",
        "minimum": 1,
        "maximum": 100,
        "default": 20
      },
      "Direction": {
        "title": "Direction",
        "description": "Which side of the mailbox to read: messages `received` by the user (the inbox), messages the user `sent`, or `all` of them (for syncing a second device).",
        "type": "string",
        "enum": [
          "received",
          "sent",
          "all"
        ],
        "default": "received"
      },
      "InboxFilter": {
        "title": "InboxFilter",
        "description": "Selects messages of the authenticated user's mailbox. Every member is optional; unknown members are an error.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "from": {
            "$ref": "#/components/schemas/Address",
            "description": "Only messages from this sender."
          },
          "direction": {
            "$ref": "#/components/schemas/Direction"
          },
          "since": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "Only messages whose timestamp is at or after this (inclusive)."
          },
          "until": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "Only messages whose timestamp is before this (exclusive)."
          },
          "folder": {
            "$ref": "#/components/schemas/Folder",
            "description": "`requests` reads the requests folder (received messages only: `direction` must then be absent or \"received\"). Default `inbox`."
          }
        }
      },
      "ChatFilter": {
        "title": "ChatFilter",
        "description": "Selects one chat of the authenticated user and an optional time window. Unknown members are an error.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "chat": {
            "$ref": "#/components/schemas/Address",
            "description": "The peer whose chat to read. Absent: the most recently active chat."
          },
          "since": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "Only messages whose timestamp is at or after this (inclusive)."
          },
          "until": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "Only messages whose timestamp is before this (exclusive)."
          },
          "folder": {
            "$ref": "#/components/schemas/Folder",
            "description": "`requests` reads what the peer left in the requests folder. Default `inbox`."
          }
        }
      },
      "SignedMessage": {
        "title": "SignedMessage",
        "description": "A message as its sender signs and sends it.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "from",
          "to",
          "message",
          "timestamp",
          "signature"
        ],
        "properties": {
          "from": {
            "$ref": "#/components/schemas/Address",
            "description": "The sender; must be the authenticated user."
          },
          "to": {
            "$ref": "#/components/schemas/Address",
            "description": "The recipient."
          },
          "message": {
            "$ref": "#/components/schemas/Ciphertext"
          },
          "timestamp": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "Set by the sender and covered by its signature; must be within the node's clock window."
          },
          "expires": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "Optional: when the message expires, ms since the Unix epoch, set by the sender (later than `timestamp`). Then the signature is over `ExpiringMessage(address from,address to,bytes message,uint64 timestamp,uint64 expires)` instead of `Message`, so no node can extend it. From that time no read or stream serves the message (within a second) and every node holding it deletes it; the node's own retention still applies when it is shorter."
          },
          "signature": {
            "$ref": "#/components/schemas/Signature",
            "description": "The sender's EIP-712 signature of `Message(address from,address to,bytes message,uint64 timestamp)`, or of `ExpiringMessage(address from,address to,bytes message,uint64 timestamp,uint64 expires)` when `expires` is present."
          }
        }
      },
      "Message": {
        "title": "Message",
        "description": "A stored message, as every read returns it. A sender's copy of a message to an account homed on another node (federation) carries `status` while it is not delivered.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "message",
          "from",
          "to",
          "signature",
          "sender_receipt",
          "timestamp"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/MessageId"
          },
          "message": {
            "$ref": "#/components/schemas/Ciphertext"
          },
          "from": {
            "$ref": "#/components/schemas/Address",
            "description": "The sender."
          },
          "to": {
            "$ref": "#/components/schemas/Address",
            "description": "The recipient."
          },
          "signature": {
            "$ref": "#/components/schemas/Signature",
            "description": "The sender's EIP-712 signature of the message."
          },
          "sender_receipt": {
            "$ref": "#/components/schemas/Signature",
            "description": "The sender's service node's EIP-712 signature, role \"sender\": a `LogReceipt` over `sender_seq` when the message carries one (spec 3.0.0), else a `Receipt`."
          },
          "sender_seq": {
            "type": "integer",
            "minimum": 1,
            "maximum": 9007199254740991,
            "description": "The position of the sender's copy in the sender's mailbox log on the sender's home node, which `sender_receipt` binds (a `LogReceipt`, spec 3.0.0). Absent: `sender_receipt` is a `Receipt` (a message stored before spec 3.0.0)."
          },
          "receiver_receipt": {
            "$ref": "#/components/schemas/Signature",
            "description": "The receiver's service node's EIP-712 signature, role \"receiver\": a `LogReceipt` over `receiver_seq` when the message carries one (spec 3.0.0), else a `Receipt`. Signed by the node the recipient's home record names. Absent while the message is pending or failed."
          },
          "receiver_seq": {
            "type": "integer",
            "minimum": 1,
            "maximum": 9007199254740991,
            "description": "The position of the recipient's copy in the recipient's mailbox log on the recipient's home node, which `receiver_receipt` binds (a `LogReceipt`, spec 3.0.0). Absent with `receiver_receipt`: a `Receipt`."
          },
          "timestamp": {
            "$ref": "#/components/schemas/Timestamp"
          },
          "expires": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "Present when the sender gave the message an expiry (ms since the Unix epoch), covered by its signature (`ExpiringMessage`): the message is not served after it."
          },
          "status": {
            "type": "string",
            "enum": [
              "pending",
              "delivered",
              "failed"
            ],
            "description": "Only on a sender's copy of a message to an account homed on another node: `pending` until the recipient's node has stored it (then the node drops `status` and adds `receiver_receipt`: absent means delivered), `failed` when it was refused or the retry period ended. A node may also say `delivered` explicitly."
          },
          "reason": {
            "type": "string",
            "maxLength": 500,
            "description": "With `status: \"failed\"`: why, in words."
          }
        }
      },
      "KeyBundle": {
        "title": "KeyBundle",
        "description": "An account's messaging public key, signed by the account: the directory entry other clients encrypt to.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "account",
          "key",
          "timestamp",
          "signature"
        ],
        "properties": {
          "account": {
            "$ref": "#/components/schemas/Address",
            "description": "The account the key belongs to; the signer of the bundle."
          },
          "key": {
            "$ref": "#/components/schemas/MessagingKey",
            "description": "The account's messaging public key."
          },
          "timestamp": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the bundle was made, set by the account and covered by its signature. A node keeps the bundle with the greatest timestamp; it may be in the past, but not more than `nodeInfo.limits.clockSkewMs` in the future."
          },
          "signature": {
            "$ref": "#/components/schemas/Signature",
            "description": "The account's EIP-712 signature of `KeyBundle(address account,bytes32 key,uint64 timestamp)`, domain `{name: \"neutralService\", version: \"1\"}`."
          }
        }
      },
      "HomeRecord": {
        "title": "HomeRecord",
        "description": "An account's signed choice of home node: where its mailbox is kept and which node signs its messages' receipts. The newest timestamp wins.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "account",
          "node",
          "timestamp",
          "signature"
        ],
        "properties": {
          "account": {
            "$ref": "#/components/schemas/Address",
            "description": "The account; the signer of the record."
          },
          "node": {
            "$ref": "#/components/schemas/Address",
            "description": "The home node's address (the key that signs its receipts, `nodeInfo.address`)."
          },
          "timestamp": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the account made the record, covered by its signature. At most `nodeInfo.limits.clockSkewMs` in the future."
          },
          "signature": {
            "$ref": "#/components/schemas/Signature",
            "description": "The account's EIP-712 signature of `Home(address account,address node,uint64 timestamp)`, domain `{name: \"neutralService\", version: \"1\"}`."
          }
        }
      },
      "RelayedMessage": {
        "title": "RelayedMessage",
        "description": "A message as the sender's home node delivers it to the recipient's: the signed message and the sending node's receipt.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "from",
          "to",
          "message",
          "timestamp",
          "signature",
          "sender_receipt"
        ],
        "properties": {
          "from": {
            "$ref": "#/components/schemas/Address",
            "description": "The sender, homed at the calling node."
          },
          "to": {
            "$ref": "#/components/schemas/Address",
            "description": "The recipient, homed at the called node."
          },
          "message": {
            "$ref": "#/components/schemas/Ciphertext"
          },
          "timestamp": {
            "$ref": "#/components/schemas/Timestamp"
          },
          "expires": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "Optional: when the message expires, ms since the Unix epoch, set by the sender (later than `timestamp`). Then the signature is over `ExpiringMessage(address from,address to,bytes message,uint64 timestamp,uint64 expires)` instead of `Message`, so no node can extend it. From that time no read or stream serves the message (within a second) and every node holding it deletes it; the node's own retention still applies when it is shorter."
          },
          "signature": {
            "$ref": "#/components/schemas/Signature",
            "description": "The sender's EIP-712 `Message` (or `ExpiringMessage`) signature."
          },
          "sender_receipt": {
            "$ref": "#/components/schemas/Signature",
            "description": "The calling node's receipt, role \"sender\": a `LogReceipt` over `sender_seq` when given (spec 3.0.0), else a `Receipt`."
          },
          "sender_seq": {
            "type": "integer",
            "minimum": 1,
            "maximum": 9007199254740991,
            "description": "The position of the sender's copy in the sender's log on the calling node, which `sender_receipt` binds (spec 3.0.0)."
          }
        }
      },
      "DeliveryRefusal": {
        "title": "DeliveryRefusal",
        "description": "Why the called node did not store a delivered message.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "code",
          "message",
          "permanent"
        ],
        "properties": {
          "code": {
            "type": "integer",
            "description": "A code of the Errors table: -32002 (the sender is not homed at the calling node, or the recipient not at the called one), -32003 (a signature or the sender receipt does not verify), -32005 (too large), -32602 (malformed), -32603 (the called node failed; try again)."
          },
          "message": {
            "type": "string",
            "maxLength": 500
          },
          "permanent": {
            "type": "boolean",
            "description": "True when delivering the same message again cannot succeed: the calling node marks it failed. False (a refusal for now, e.g. a quota of the recipient's node): the calling node holds back this message and the later ones from the same sender to the same recipient, and delivers them again later; its other messages to the called node go on."
          },
          "home": {
            "$ref": "#/components/schemas/HomeRecord",
            "description": "With -32002 for a recipient homed elsewhere: the recipient's newer home record, so the calling node can deliver there instead."
          },
          "retryAfter": {
            "type": "integer",
            "minimum": 0,
            "description": "With a refusal for now: seconds after which delivering the message again may succeed (a quota's refill). The calling node waits at least that long before it tries this sender's messages to this recipient again."
          }
        }
      },
      "DeliveryOutcome": {
        "title": "DeliveryOutcome",
        "description": "What became of one delivered message: its receiver receipt, or a refusal.",
        "oneOf": [
          {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "receiver_receipt"
            ],
            "properties": {
              "receiver_receipt": {
                "$ref": "#/components/schemas/Signature",
                "description": "The called node's receipt, role \"receiver\": the message is stored in the recipient's inbox. A `LogReceipt` over `receiver_seq` when given (spec 3.0.0), else a `Receipt`."
              },
              "receiver_seq": {
                "type": "integer",
                "minimum": 1,
                "maximum": 9007199254740991,
                "description": "The position of the recipient's copy in the recipient's log on the called node, which `receiver_receipt` binds (spec 3.0.0)."
              }
            }
          },
          {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "refused"
            ],
            "properties": {
              "refused": {
                "$ref": "#/components/schemas/DeliveryRefusal"
              }
            }
          }
        ]
      },
      "DeliveryResult": {
        "title": "DeliveryResult",
        "description": "The outcome of each delivered message, in the order they were given, signed by the called node.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "outcomes",
          "signature"
        ],
        "properties": {
          "outcomes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/DeliveryOutcome"
            }
          },
          "signature": {
            "$ref": "#/components/schemas/Signature",
            "description": "The called node's EIP-712 signature of `DeliveryAnswer(address node,bytes32 messages,bytes32 outcomes)` (see the type's description): the calling node checks this one signature rather than each receipt, and an answer changed on the way, or given for other messages, does not verify."
          }
        }
      },
      "DirectoryAnswer": {
        "title": "DirectoryAnswer",
        "description": "What the called node itself holds for the accounts asked about (it asks no one else): each one's newest home record and key bundle, where it has them.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "homes",
          "keys"
        ],
        "properties": {
          "homes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/HomeRecord"
            }
          },
          "keys": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/KeyBundle"
            }
          }
        }
      },
      "InboxPage": {
        "title": "InboxPage",
        "description": "One page of a mailbox walk.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "address",
          "data",
          "end"
        ],
        "properties": {
          "address": {
            "$ref": "#/components/schemas/Address",
            "description": "The inbox owner: the authenticated user."
          },
          "data": {
            "type": "array",
            "description": "Messages in walk order.",
            "items": {
              "$ref": "#/components/schemas/Message"
            }
          },
          "end": {
            "type": "boolean",
            "description": "True exactly when no further message exists in the walk's direction. False on a page that stopped early (see `maxPageScan`, `maxResponseBytes`)."
          },
          "cursor": {
            "$ref": "#/components/schemas/MessageId",
            "description": "Where the next page continues, when that is not the last element's `id`: the page stopped at the node's scan bound (`nodeInfo.limits.maxPageScan`, with `since`/`until`) having examined every message up to this id. Pass it as `after` when walking forwards, as `before` when walking backwards. Absent on every other page."
          },
          "proof": {
            "$ref": "#/components/schemas/MailboxProof",
            "description": "Only when the request asked with `proof`: a head the node signed after reading the page, each of the caller's copies of the messages on it with its position and inclusion proof (a message to oneself has two), and, with `proof.since`, the consistency proof from that size. The proof counts against the answer budget (`maxResponseBytes`): a page stops early rather than outgrow it."
          }
        }
      },
      "ChatPage": {
        "title": "ChatPage",
        "description": "One page of a chat walk.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "data",
          "end"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/Address",
            "description": "The chat's id: the peer's address."
          },
          "data": {
            "type": "array",
            "description": "Messages in walk order.",
            "items": {
              "$ref": "#/components/schemas/Message"
            }
          },
          "end": {
            "type": "boolean",
            "description": "True exactly when no further message exists in the walk's direction. False on a page that stopped early (see `maxPageScan`, `maxResponseBytes`)."
          },
          "cursor": {
            "$ref": "#/components/schemas/MessageId",
            "description": "Where the next page continues, when that is not the last element's `id`: the page stopped at the node's scan bound (`nodeInfo.limits.maxPageScan`, with `since`/`until`) having examined every message up to this id. Pass it as `after` when walking forwards, as `before` when walking backwards. Absent on every other page."
          },
          "proof": {
            "$ref": "#/components/schemas/MailboxProof",
            "description": "Only when the request asked with `proof`: a head the node signed after reading the page, each of the caller's copies of the messages on it with its position and inclusion proof (a message to oneself has two), and, with `proof.since`, the consistency proof from that size. The proof counts against the answer budget (`maxResponseBytes`): a page stops early rather than outgrow it."
          }
        }
      },
      "NodeLimits": {
        "title": "NodeLimits",
        "description": "The limits this node enforces.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "maxLimit",
          "maxBatch",
          "maxBodyBytes",
          "maxMessageBytes",
          "clockSkewMs"
        ],
        "properties": {
          "maxLimit": {
            "type": "integer",
            "minimum": 1,
            "description": "Largest accepted `limit`."
          },
          "maxBatch": {
            "type": "integer",
            "minimum": 1,
            "description": "Most entries in one batch."
          },
          "maxBodyBytes": {
            "type": "integer",
            "minimum": 1,
            "description": "Largest request body, in bytes."
          },
          "maxMessageBytes": {
            "type": "integer",
            "minimum": 1,
            "description": "Largest message body, in bytes of ciphertext."
          },
          "clockSkewMs": {
            "type": "integer",
            "minimum": 0,
            "description": "Accepted distance between a message's timestamp and the node's clock, in ms; also how far in the future a key bundle's timestamp may be."
          },
          "maxResponseBytes": {
            "type": "integer",
            "minimum": 1,
            "description": "The answer budget of one HTTP request, in bytes of message JSON: a page stops before the message that would pass what is left of it (holding at least one), and a batch entry that finds it spent is answered -32005 with `data: {reason: \"response budget\", limit}` and not run; ask for the rest in another request."
          },
          "maxPageScan": {
            "type": "integer",
            "minimum": 1,
            "description": "With `since`/`until`, the most messages of each part of a mailbox (received, sent) one page examines; the page then stops early and its `cursor` says where to go on."
          },
          "rateLimit": {
            "type": "integer",
            "minimum": 1,
            "description": "Per client IP, for the whole node (all its processes): cost units per second, in bursts of up to twice this. Each JSON-RPC entry costs 1, plus 1 if it checks a signature (`sendMessage`, `publishKey`, `publishHome`); a bearer token the node has not verified yet costs 1 more. A request that finds its client's budget empty is refused whole: HTTP 429 with `Retry-After` and -32029. In a batch, the entries that no longer fit are answered -32029 with `data.retryAfter` (seconds) and were not run; the entries before them were. Absent: the node does not limit (a proxy in front of it may)."
          },
          "peerRateLimit": {
            "type": "integer",
            "minimum": 1,
            "description": "Per peer node, for the whole node: cost units per second of the peer's node-to-node calls, in bursts of up to twice this (at least two full deliveries). A delivery costs 1, plus 2 per message (the sender's signature and the sender receipt are checked) and 1 per home record it carries; a lookup 1, plus 1 per home record and 1 per 10 accounts. A call that finds the peer's budget spent is refused whole: HTTP 429 with `Retry-After` and -32029 (the peer delivers again later). Absent: the node does not limit its peers."
          },
          "quotaPeriodSeconds": {
            "type": "integer",
            "minimum": 1,
            "description": "The period, in seconds, of the storage quotas below. Present when one of them is."
          },
          "senderQuotaMessages": {
            "type": "integer",
            "minimum": 1,
            "description": "Messages one sender may store on this node per `quotaPeriodSeconds`: as a token bucket, so up to this many at once, then refilled evenly over the period. A resend of a stored message (same digest) does not count. Past it, `sendMessage` answers -32029 with `data: {quota: \"senderQuotaMessages\", limit, periodSeconds, retryAfter}`. Absent: no such quota."
          },
          "senderQuotaBytes": {
            "type": "integer",
            "minimum": 1,
            "description": "Bytes of ciphertext (`message` decoded from hex) one sender may store on this node per `quotaPeriodSeconds`, counted like `senderQuotaMessages`; refused with `data.quota` \"senderQuotaBytes\". Absent: no such quota."
          },
          "recipientQuotaMessages": {
            "type": "integer",
            "minimum": 1,
            "description": "Messages one recipient's mailbox may receive on this node per `quotaPeriodSeconds`, from all senders together, counted like `senderQuotaMessages`; refused with `data.quota` \"recipientQuotaMessages\". The requests folder (consent) has a quota of its own of the same size: messages from senders the recipient has not allowed never spend what the senders it allowed may send. Absent: no such quota."
          },
          "recipientQuotaBytes": {
            "type": "integer",
            "minimum": 1,
            "description": "Bytes of ciphertext one recipient's mailbox may receive on this node per `quotaPeriodSeconds`, counted like `senderQuotaMessages`, the requests folder apart as for `recipientQuotaMessages`; refused with `data.quota` \"recipientQuotaBytes\". Absent: no such quota."
          },
          "deliveryWaitMs": {
            "type": "integer",
            "minimum": 0,
            "description": "How long `sendMessage` waits for the receipt of the recipient's node when the recipient is homed on another node, in ms; past it the answer is the pending message."
          },
          "retryPeriodSeconds": {
            "type": "integer",
            "minimum": 1,
            "description": "How long this node keeps trying to deliver a message to another node, in seconds; then the message fails."
          },
          "maxSubscriptions": {
            "type": "integer",
            "minimum": 1,
            "description": "Most `subscribe` streams one node process keeps open at once (a node with several worker processes or replicas: each serves at most this many), and never more than its share of the connections the node lets streams hold (it keeps the rest for other requests). At the bound, a stream from a client address holding fewer streams than the one holding the most ends that address's oldest stream (`neutralService_end`, reason `limit`); otherwise it is refused: HTTP 429, -32029 with `data: {reason: \"subscriptions\", limit, retryAfter}`."
          },
          "maxSubscriptionsPerAccount": {
            "type": "integer",
            "minimum": 1,
            "description": "Most `subscribe` streams one account keeps open at once, per node process. Opening one more ends the account's oldest stream with the `limit` reason (a client reconnecting before the node noticed its old connection drop is not locked out)."
          },
          "subscriptionBufferBytes": {
            "type": "integer",
            "minimum": 1,
            "description": "Bytes of events a stream lets wait for its client to read; past it the node reads no more for that stream until the client catches up. The node also reads the store for a stream in pieces of about this size, so a stream holds about twice this (and one message) at most."
          },
          "subscriptionStallMs": {
            "type": "integer",
            "minimum": 1,
            "description": "The window over which a client that is behind must keep up: while events wait for it, it must read at least `subscriptionBufferBytes` in every window of this length, else the node ends the stream with the `slow-consumer` reason."
          },
          "keepAliveMs": {
            "type": "integer",
            "minimum": 1,
            "description": "Interval of the keep-alive comments (`: keep-alive`) of an idle stream, ms (at most 15,000)."
          },
          "retentionSeconds": {
            "type": "integer",
            "minimum": 0,
            "description": "How long this node keeps a message after it stored it, in seconds: once that old, the message is no longer served (by any read or stream) and a background sweep deletes it. 0: kept until its owner deletes it. Every copy on this node counts from when this node stored it, so a message delivered days after it was sent is kept as long as one sent now."
          },
          "requestQuotaMessages": {
            "type": "integer",
            "minimum": 1,
            "description": "Messages one sender whom a recipient has not allowed may leave in that recipient's requests folder per `quotaPeriodSeconds` (recipients with an \"allowed-only\" policy). Past it, `sendMessage` answers -32029 with `data: {quota: \"requestQuotaMessages\", limit, periodSeconds, retryAfter}`. Absent: no such quota."
          }
        }
      },
      "Peer": {
        "title": "Peer",
        "description": "A node this node federates with.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "url"
        ],
        "properties": {
          "url": {
            "type": "string",
            "description": "The peer's public base URL."
          },
          "address": {
            "$ref": "#/components/schemas/Address",
            "description": "The peer's node address: pinned by the operator, or the one first seen. Absent until known."
          }
        }
      },
      "NodeInfo": {
        "title": "NodeInfo",
        "description": "What a service node says about itself.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "address",
          "software",
          "version",
          "domains",
          "limits"
        ],
        "properties": {
          "address": {
            "$ref": "#/components/schemas/Address",
            "description": "The node's address: the key that signs its receipts."
          },
          "software": {
            "type": "string",
            "description": "The node software's name."
          },
          "version": {
            "type": "string",
            "description": "The node software's version."
          },
          "domains": {
            "type": "array",
            "description": "The Sign-In with Ethereum `domain` values this node accepts in tokens. A loopback one stands for the machine: the node accepts each of its loopback names (`127.0.0.1`, `localhost`, `[::1]`) at that port.",
            "items": {
              "type": "string"
            }
          },
          "limits": {
            "$ref": "#/components/schemas/NodeLimits"
          },
          "url": {
            "type": "string",
            "description": "The node's public base URL: where its peers reach it."
          },
          "peers": {
            "type": "array",
            "description": "The nodes this node federates with (empty: a node on its own).",
            "items": {
              "$ref": "#/components/schemas/Peer"
            }
          }
        }
      },
      "SubscribeFilter": {
        "title": "SubscribeFilter",
        "description": "What a subscription streams: getInbox's `InboxFilter` (absent or `{}`: every received message), or getChat's `ChatFilter` with `chat` given (both sides of one chat).",
        "oneOf": [
          {
            "$ref": "#/components/schemas/InboxFilter"
          },
          {
            "allOf": [
              {
                "$ref": "#/components/schemas/ChatFilter"
              },
              {
                "type": "object",
                "required": [
                  "chat"
                ],
                "properties": {
                  "chat": {
                    "$ref": "#/components/schemas/Address"
                  }
                }
              }
            ]
          }
        ]
      },
      "EndReason": {
        "title": "EndReason",
        "description": "Why the node ended a stream. `token-expired`: the bearer token expired (subscribe again with a fresh one). `shutdown`: the node is stopping. `slow-consumer`: while events waited for the client (`nodeInfo.limits.subscriptionBufferBytes` of them unread), it read less than that in `nodeInfo.limits.subscriptionStallMs`. `limit`: the account opened more than `nodeInfo.limits.maxSubscriptionsPerAccount` streams, and this was its oldest; or the node process was at `nodeInfo.limits.maxSubscriptions` when a client from another address subscribed, and this was the oldest stream of the address holding the most. Resume from the last event id received.",
        "type": "string",
        "enum": [
          "token-expired",
          "shutdown",
          "slow-consumer",
          "limit"
        ]
      },
      "DeletionRequest": {
        "title": "DeletionRequest",
        "description": "An account's signed request to delete its copies of messages on its home node: the received copies of messages it received, the sent copies of messages it sent (both for a message to itself). The other party's copy is not touched. With `leaves` (spec 2.10.0, what clients sign), it names the positions of those copies in the account's mailbox log, and deletes exactly them.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "account",
          "ids",
          "timestamp",
          "signature"
        ],
        "properties": {
          "account": {
            "$ref": "#/components/schemas/Address",
            "description": "The account whose copies are deleted; the signer of the request."
          },
          "ids": {
            "type": "array",
            "minItems": 1,
            "maxItems": 100,
            "uniqueItems": true,
            "items": {
              "$ref": "#/components/schemas/MessageId"
            },
            "description": "The messages, by their ids on this node (1 to 100, each once)."
          },
          "leaves": {
            "type": "array",
            "minItems": 0,
            "maxItems": 200,
            "uniqueItems": true,
            "items": {
              "$ref": "#/components/schemas/Hash"
            },
            "description": "The leaf hashes of the account's copies of `ids` in its mailbox log (each copy's `leafHash`, as `neutralService_getProof` answers it for those ids; a message to oneself has two), in any order (none when none of them has a copy here): the request deletes exactly the copies whose positions have these leaves. Every copy of `ids` in the mailbox must be named, and nothing else (-32602, `data.positions` the copies' positions, to sign again)."
          },
          "timestamp": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the account made the request, covered by its signature. At most `nodeInfo.limits.clockSkewMs` in the future. A request without `leaves` deletes something only within `clockSkewMs` of the node's clock: sent again later, it answers its receipt while none of its messages is in the mailbox, and is refused (-32004) while one is."
          },
          "signature": {
            "$ref": "#/components/schemas/Signature",
            "description": "The account's EIP-712 signature, domain `{name: \"neutralService\", version: \"1\"}`, with `ids` as numbers: of `PositionedDeletion(address account,uint64[] ids,bytes32[] leaves,uint64 timestamp)` with `leaves`, of `Deletion(address account,uint64[] ids,uint64 timestamp)` without."
          }
        }
      },
      "DeletionReceipt": {
        "title": "DeletionReceipt",
        "description": "The node's receipt for a deletion: it signs that none of the request's messages is in the account's mailbox on this node any more (deleted now, or not there before). The same request always gets the same receipt.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "node",
          "account",
          "ids",
          "request",
          "signature"
        ],
        "properties": {
          "node": {
            "$ref": "#/components/schemas/Address",
            "description": "The node (`nodeInfo.address`): the signer of the receipt."
          },
          "account": {
            "$ref": "#/components/schemas/Address",
            "description": "The request's account."
          },
          "ids": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/MessageId"
            },
            "description": "The request's ids, as given."
          },
          "request": {
            "type": "string",
            "pattern": "^0x[0-9a-f]{64}$",
            "description": "The EIP-712 digest of the account's `Deletion`: what the receipt's signature covers."
          },
          "signature": {
            "$ref": "#/components/schemas/Signature",
            "description": "The node's EIP-712 signature of `DeletionReceipt(address node,bytes32 request)`."
          }
        }
      },
      "Folder": {
        "title": "Folder",
        "description": "Which folder of received messages to read: the `inbox`, or `requests`, where first contact from a sender the account has not allowed lands while its consent policy is \"allowed-only\" (readable, but kept out of the inbox). A message stays in the folder it landed in: allowing its sender later moves later messages, not earlier ones, so that cursor walks stay exact.",
        "type": "string",
        "enum": [
          "inbox",
          "requests"
        ],
        "default": "inbox"
      },
      "ConsentRecord": {
        "title": "ConsentRecord",
        "description": "An account's signed consent about one peer, kept on its home node. \"blocked\": the peer's messages to the account are refused (-32002 with `data.reason` \"not accepted\", nothing more); \"allowed\": they reach the inbox even under an \"allowed-only\" policy; \"none\": neither (a later record undoes an earlier one). The newest timestamp per (account, peer) wins.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "account",
          "peer",
          "state",
          "timestamp",
          "signature"
        ],
        "properties": {
          "account": {
            "$ref": "#/components/schemas/Address",
            "description": "The account; the signer."
          },
          "peer": {
            "$ref": "#/components/schemas/Address",
            "description": "The other account it is about."
          },
          "state": {
            "type": "string",
            "enum": [
              "allowed",
              "blocked",
              "none"
            ],
            "description": "What the account decided about the peer."
          },
          "timestamp": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the account decided, covered by its signature. At most `nodeInfo.limits.clockSkewMs` in the future."
          },
          "signature": {
            "$ref": "#/components/schemas/Signature",
            "description": "The account's EIP-712 signature of `Consent(address account,address peer,string state,uint64 timestamp)`, domain `{name: \"neutralService\", version: \"1\"}`."
          }
        }
      },
      "ConsentPolicy": {
        "title": "ConsentPolicy",
        "description": "An account's signed policy of who reaches its inbox. \"open\" (the default, as without a policy): every sender that is not blocked. \"allowed-only\": senders it allowed, and senders it has itself written to; anyone else's messages land in the requests folder (`folder: \"requests\"`), at most `nodeInfo.limits.requestQuotaMessages` per sender per `quotaPeriodSeconds`. The newest timestamp wins.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "account",
          "mode",
          "timestamp",
          "signature"
        ],
        "properties": {
          "account": {
            "$ref": "#/components/schemas/Address",
            "description": "The account; the signer."
          },
          "mode": {
            "type": "string",
            "enum": [
              "open",
              "allowed-only"
            ],
            "description": "Who reaches the inbox."
          },
          "timestamp": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the account decided, covered by its signature. At most `nodeInfo.limits.clockSkewMs` in the future."
          },
          "signature": {
            "$ref": "#/components/schemas/Signature",
            "description": "The account's EIP-712 signature of `ConsentPolicy(address account,string mode,uint64 timestamp)`, domain `{name: \"neutralService\", version: \"1\"}`."
          }
        }
      },
      "ConsentState": {
        "title": "ConsentState",
        "description": "An account's consent as its home node keeps it: its policy (null: none published, which means \"open\") and its records about the peers asked for or listed (records with state \"none\" are not listed by `getConsent`).",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "account",
          "policy",
          "records"
        ],
        "properties": {
          "account": {
            "$ref": "#/components/schemas/Address",
            "description": "The authenticated account."
          },
          "policy": {
            "oneOf": [
              {
                "$ref": "#/components/schemas/ConsentPolicy"
              },
              {
                "type": "null"
              }
            ],
            "description": "The current policy, or null."
          },
          "records": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ConsentRecord"
            },
            "description": "Current records, by peer address."
          },
          "end": {
            "type": "boolean",
            "description": "`getConsent` only: true when no record follows the last one listed."
          }
        }
      },
      "ImportResult": {
        "title": "ImportResult",
        "description": "What `neutralService_importMessages` stored: the account's ids on this node, one per message given, in order.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "ids"
        ],
        "properties": {
          "ids": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/MessageId"
            },
            "description": "The id of each message given, on this node (new, or the one it already had here)."
          }
        }
      },
      "Hash": {
        "title": "Hash",
        "description": "A 32-byte hash: `0x` + 64 lowercase hex digits.",
        "type": "string",
        "pattern": "^0x[0-9a-f]{64}$"
      },
      "LogPage": {
        "title": "LogPage",
        "description": "A page of the caller's mailbox log, positions `from` on, none past the head's `size`: every position, also those whose copy was deleted since (its message is no longer read). `end` is true when the page reaches the head's size. The node signs what the page says (`signature`).",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "head",
          "entries",
          "end"
        ],
        "properties": {
          "head": {
            "$ref": "#/components/schemas/MailboxHead"
          },
          "entries": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/LogPosition"
            }
          },
          "end": {
            "type": "boolean"
          },
          "prior": {
            "type": "array",
            "maxItems": 16,
            "items": {
              "$ref": "#/components/schemas/MailboxHead"
            },
            "description": "The account's log at its former homes, as its imports brought it (`neutralService_importMessages` `head`): per former node, the largest head given, in the order they were first given. Each is that node's signature, not this one's. A client that verified a head of the account at one of those nodes checks it against this one: a smaller size here is a history cut short before the move, the same size with another root another history; either way two heads that node signed, a portable proof. Absent when the account imported none."
          },
          "signature": {
            "$ref": "#/components/schemas/Signature",
            "description": "The node's EIP-712 `LogStatement(bytes32 head,uint64 from,bytes32 entries,uint64 timestamp)` signature (from spec 3.1.0; `timestamp` from 3.2.0): `head` the EIP-712 digest of this page's `head`, `from` the page's first position (the request's `from`), `timestamp` the page's `timestamp`, `entries` the SHA-256 of the concatenation of each entry's statement, in order: the SHA-256 of the 74 bytes `seq` (uint64, big-endian) ‖ role (1 byte: 0x01 received, 0x02 sent) ‖ `leafHash` (32) ‖ state (1 byte) ‖ detail (32), where the state and its detail are 0x01 and the SHA-256 of the message as the page carries it (`messages: true`; its JSON text, UTF-8, without whitespace and with its members in the order the page gives them, as `JSON.stringify` writes what a client parsed), 0x02 and zeros for a copy held (the page asked without `messages`), 0x03 and the SHA-256 of the request's EIP-712 digest (`PositionedDeletion`, or `Deletion` for a request without `leaves`) followed by its 65-byte signature for `removed` by the account, 0x04 and the EIP-712 digest of the `ExpiringMessage` that `removed.message` gives for its sender's end, 0x05 and the retention the node applied in seconds (`removed.retentionSeconds`, a uint256, big-endian; zeros when absent, before 3.2.0) for the node's retention, and 0x00 and zeros for a position with neither its message nor a reason (`messages: true`), which an honest node has only for a copy it removed before it kept reasons, and which is reported as missing all the same. A client keeps the page's statement: a position of state 0x00, a message that does not give its position's leaf or does not carry its sender's signature, or a reason that does not hold (a request that is not the account's signature or does not name the position's leaf; an end whose message does not give the leaf), is a portable proof of the node's word against itself (`verifyProof`). SHA-256 throughout, not keccak-256: a node hashes every message of an audit's pages, and SHA-256 is native where keccak-256 is not. Absent from a node before 3.1.0."
          },
          "timestamp": {
            "type": "integer",
            "minimum": 0,
            "description": "When the node signed this page, ms since the Unix epoch (from spec 3.2.0), part of what it signs (`signature`): what the page says of each position, it said then. A retention removal (`LogRetention`) is checked against it. Absent from a node before 3.2.0: a 3.1.0 node's statement had no time, and a client of 3.2.0 takes its pages as unsigned."
          }
        }
      },
      "LogPosition": {
        "title": "LogPosition",
        "description": "One position of an account's mailbox log: the copy that took it (`id`, `role`) and its leaf hash, SHA-256(0x00 ‖ leaf) of the 82-byte leaf (see \"The verifiable mailbox\"). A client recomputes the leaf from the message it holds (or `message`, when the log read was asked with `messages`): the account, `seq`, the role, the other party and the message's EIP-712 digest. A position whose copy is gone carries `removed`: why, with what makes it checkable (`LogRemoval`).",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "seq",
          "id",
          "role",
          "leafHash"
        ],
        "properties": {
          "seq": {
            "description": "The position, from 1.",
            "type": "integer",
            "minimum": 1,
            "maximum": 9007199254740991
          },
          "id": {
            "$ref": "#/components/schemas/MessageId"
          },
          "role": {
            "description": "\"received\": the account received the message (inbox or requests folder); \"sent\": it sent it.",
            "type": "string",
            "enum": [
              "received",
              "sent"
            ]
          },
          "leafHash": {
            "$ref": "#/components/schemas/Hash"
          },
          "removed": {
            "$ref": "#/components/schemas/LogRemoval"
          },
          "message": {
            "$ref": "#/components/schemas/Message",
            "description": "With `messages`: the copy, as reads serve it, while the node serves it (absent once it is gone or no longer served: then `removed` says why)."
          }
        }
      },
      "LogRemoval": {
        "title": "LogRemoval",
        "description": "Why a position's copy is no longer served, with what makes the reason checkable: the account's signed deletion request (`LogDeletion`), what remains of a message its sender's `expires` ended (`LogExpiry`), or the node's retention (`LogRetention`). A position without its message and without `removed` is one the node cannot account for.",
        "oneOf": [
          {
            "$ref": "#/components/schemas/LogDeletion"
          },
          {
            "$ref": "#/components/schemas/LogExpiry"
          },
          {
            "$ref": "#/components/schemas/LogRetention"
          }
        ]
      },
      "LogDeletion": {
        "title": "LogDeletion",
        "description": "The account deleted the position's copy, and `request` is the `DeletionRequest` it signed (as `neutralService_deleteMessages` took it). A client checks that the request's signature recovers the account whose log it is, and that it names the position: its `leaves` include the position's `leafHash` (a request signed with `leaves`), or, for a `Deletion` signed before spec 2.10.0, its `ids` include the position's `id` and no head the client verified shows the position stored after the request's time plus `clockSkewMs`.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "reason",
          "request"
        ],
        "properties": {
          "reason": {
            "description": "\"deleted\": by the account's own request.",
            "type": "string",
            "const": "deleted"
          },
          "request": {
            "$ref": "#/components/schemas/DeletionRequest"
          }
        }
      },
      "LogExpiry": {
        "title": "LogExpiry",
        "description": "The message's sender gave it an end (`expires`, signed as `ExpiringMessage`), and the node removed every copy once it came. `message` keeps what a client needs to recompute the message's EIP-712 digest without its body, and so the position's leaf. A client checks that the leaf it recomputes is the position's `leafHash` (the account is `to` of a received copy, `from` of a sent one) and that `expires` is not after the head's `timestamp`.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "reason",
          "message"
        ],
        "properties": {
          "reason": {
            "description": "\"expired\": by the sender's signed end.",
            "type": "string",
            "const": "expired"
          },
          "message": {
            "$ref": "#/components/schemas/ExpiredMessage"
          }
        }
      },
      "LogRetention": {
        "title": "LogRetention",
        "description": "The node's retention removed the message (`nodeInfo.limits.retentionSeconds`, counted from when the node stored it). No one signs a storage time, so the claim is checked against what a client knows: a node with no retention (0) removes nothing this way; a position past the size of a head the client verified earlier was stored after that head's `timestamp`, so its removal before that time plus the retention is false; and a message's signed `timestamp`, where the client holds it, is at most `clockSkewMs` after it was stored. From spec 3.2.0 the page says the retention it applied (`retentionSeconds`) and signs when it said so (`LogPage.timestamp`): a page that gives a retention removal with `retentionSeconds` 0, or one signed less than the retention minus 5 minutes (300,000 ms: the margin for the clocks of a node's replicas) after the `timestamp` of a head the node signed whose `size` is below the position, is a portable proof of the node's word against itself.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "reason"
        ],
        "properties": {
          "reason": {
            "description": "\"retention\": by the node's published retention.",
            "type": "string",
            "const": "retention"
          },
          "retentionSeconds": {
            "type": "integer",
            "minimum": 0,
            "description": "The retention that removed the message, seconds (from spec 3.2.0), part of the page's statement: never more than the one that removed it (a node that raised its retention states the least it removed by), absent where the node does not know it (it removed the message before it kept the record)."
          }
        }
      },
      "ExpiredMessage": {
        "title": "ExpiredMessage",
        "description": "What a node keeps of a message its sender's `expires` ended, once its body is gone: its signed fields, with the body as EIP-712 encodes it (`bytes` as their keccak-256). Its digest is EIP-712 `ExpiringMessage(address from,address to,bytes message,uint64 timestamp,uint64 expires)` with `messageHash` in the place of the body's encoding.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "from",
          "to",
          "timestamp",
          "expires",
          "messageHash"
        ],
        "properties": {
          "from": {
            "$ref": "#/components/schemas/Address",
            "description": "The sender."
          },
          "to": {
            "$ref": "#/components/schemas/Address",
            "description": "The recipient."
          },
          "timestamp": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "The message's `timestamp`, as its sender signed it."
          },
          "expires": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "The message's `expires`, as its sender signed it."
          },
          "messageHash": {
            "$ref": "#/components/schemas/Hash",
            "description": "keccak-256 of the ciphertext's bytes (the message's `message`, hex-decoded)."
          }
        }
      },
      "LogSize": {
        "title": "LogSize",
        "description": "A number of positions of an account's mailbox log (the verifiable mailbox): the size of a tree.",
        "type": "integer",
        "minimum": 0,
        "maximum": 9007199254740991
      },
      "MailboxHead": {
        "title": "MailboxHead",
        "description": "A node's signed statement of an account's mailbox log (the verifiable mailbox): at `timestamp` (when the node signed it) the log had `size` positions, whose RFC 9162 tree has root `root`. `signature` is the node's EIP-712 `MailboxHead(address account,uint64 size,bytes32 root,uint64 timestamp)` signature; it recovers the node's address (`nodeInfo.address`). A node signs a head when a read needs one newer than the last it signed, so two reads of an unchanged log may get the same head.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "account",
          "size",
          "root",
          "timestamp",
          "signature"
        ],
        "properties": {
          "account": {
            "$ref": "#/components/schemas/Address"
          },
          "size": {
            "$ref": "#/components/schemas/LogSize"
          },
          "root": {
            "$ref": "#/components/schemas/Hash"
          },
          "timestamp": {
            "$ref": "#/components/schemas/Timestamp"
          },
          "signature": {
            "$ref": "#/components/schemas/Signature"
          }
        }
      },
      "MailboxProof": {
        "title": "MailboxProof",
        "description": "What `neutralService_getProof` answers: the current head of the caller's log, each position of the messages asked about (a message to oneself has two: received and sent) with its inclusion proof in that head's tree, and, when the caller gave `since`, the consistency proof from the tree of that size to the head's (RFC 9162 §2.1.4; empty when the sizes are equal); with `compact`, the inclusion proofs as one `multiproof` instead of one per position; with `omitBound` too (a read, spec 3.3.0), `positions` without those the page's messages state themselves (`ProofRequest.omitBound`).",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "head",
          "positions"
        ],
        "properties": {
          "head": {
            "$ref": "#/components/schemas/MailboxHead"
          },
          "positions": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ProvenPosition"
            },
            "description": "The positions proven: each copy's, of each message asked about or on the page, with its leaf hash (and, unless `compact`, its inclusion proof); in a read asked with `omitBound`, only those its messages do not state."
          },
          "consistency": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Hash"
            }
          },
          "multiproof": {
            "description": "`multiproof` (with `compact`): the inclusion proofs of every position answered, as one list in which each hash appears once: walk the tree of the head's size from its root, splitting as RFC 9162's MTH does (the left subtree holds the largest power of two of leaves smaller than the whole): a subtree holding none of the positions gives its root, a single leaf that is one of them gives nothing, any other is walked into, left before right; `multiproof` is the roots given, in that order. Empty when no position is answered. The positions' leaves (which the client computes from the messages; with `omitBound`, those of the positions the messages state too) and `multiproof` give the head's root; a page of neighbouring positions needs a few more hashes than it has messages, not eight or so per message.",
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Hash"
            }
          }
        }
      },
      "ProofRequest": {
        "title": "ProofRequest",
        "description": "Asks a read to prove itself (the verifiable mailbox): the page comes with `proof`, a `MailboxProof` of the messages on it. `{}` asks for the head and the inclusion proofs; `compact: true`, the inclusion proofs as one `multiproof` (far smaller for a page, and cheaper to make and check); `omitBound: true` with it, the positions the page's messages state themselves left out (about half of what remains); `since`, the size of the last head the client verified, also for the consistency proof from it. A `since` larger than the log is refused (-32602, `data.field` \"proof.since\", `data.size` the log's size), as `neutralService_getProof` refuses it.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "since": {
            "$ref": "#/components/schemas/LogSize",
            "description": "The size of the last head the client verified."
          },
          "compact": {
            "description": "Answer the inclusion proofs as one `multiproof` (`MailboxProof`) instead of one per position.",
            "type": "boolean"
          },
          "omitBound": {
            "description": "With `compact` (from spec 3.3.0): leave out of the answer's `positions` each position that a message on the page states itself, bound by its receipt: the caller's received copy at the message's `receiver_seq`, its sent copy at the message's `sender_seq`. The client takes such a position from the message: its `seq` from that member, its `id` the message's, its role the caller's side, its leaf from the message's fields. A position no message states (a message stored before spec 3.0.0; a copy imported at another position than its receipt binds) is listed as without it. Refused without `compact` (-32602, `data.field` \"proof.omitBound\"): a position left out has no inclusion proof of its own, only the multiproof.",
            "type": "boolean"
          }
        }
      },
      "ProvenPosition": {
        "title": "ProvenPosition",
        "description": "A position (as `LogPosition`) with its inclusion proof in the tree of the answer's head (RFC 9162 §2.1.3: the sibling hashes from the leaf up), unless the answer was asked to be `compact`: then the answer's `multiproof` proves every position at once.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "seq",
          "id",
          "role",
          "leafHash"
        ],
        "properties": {
          "seq": {
            "description": "The position, from 1.",
            "type": "integer",
            "minimum": 1,
            "maximum": 9007199254740991
          },
          "id": {
            "$ref": "#/components/schemas/MessageId"
          },
          "role": {
            "description": "\"received\": the account received the message (inbox or requests folder); \"sent\": it sent it.",
            "type": "string",
            "enum": [
              "received",
              "sent"
            ]
          },
          "leafHash": {
            "$ref": "#/components/schemas/Hash"
          },
          "proof": {
            "description": "The inclusion proof: sibling hashes, from the leaf up. Absent in a `compact` answer.",
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Hash"
            }
          }
        }
      },
      "PositionReceipt": {
        "title": "PositionReceipt",
        "description": "A copy's position in its account's mailbox log, with the node's EIP-712 `LogReceipt` signature of it.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "seq",
          "receipt"
        ],
        "properties": {
          "seq": {
            "description": "The position, from 1.",
            "type": "integer",
            "minimum": 1,
            "maximum": 9007199254740991
          },
          "receipt": {
            "$ref": "#/components/schemas/Signature",
            "description": "The node's EIP-712 `LogReceipt(bytes32 message,string role,uint64 seq)` signature."
          }
        }
      },
      "ProvenDelivery": {
        "title": "ProvenDelivery",
        "description": "A message the recipient's node says is in the recipient's log: the position of its copy, signed (`LogReceipt`, role \"receiver\") by the recipient's home node.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "position"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/MessageId"
          },
          "position": {
            "$ref": "#/components/schemas/PositionReceipt"
          }
        }
      },
      "UnprovenDelivery": {
        "title": "UnprovenDelivery",
        "description": "A message whose delivery was not proven, and why: not a message the caller sent here, not delivered yet (pending or failed), the recipient's node holds no copy of it (never stored, or deleted since), or that node did not answer, refused, or answered a signature that is not its own.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "problem"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/MessageId"
          },
          "problem": {
            "type": "string",
            "maxLength": 500
          }
        }
      },
      "DeliveryProof": {
        "title": "DeliveryProof",
        "description": "One message of `neutralService_proveDelivery`: its position in the recipient's log, or why it was not proven.",
        "oneOf": [
          {
            "$ref": "#/components/schemas/ProvenDelivery"
          },
          {
            "$ref": "#/components/schemas/UnprovenDelivery"
          }
        ]
      },
      "DeliveryProofs": {
        "title": "DeliveryProofs",
        "description": "What `neutralService_proveDelivery` answers: one `DeliveryProof` per id asked, in order.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "proofs"
        ],
        "properties": {
          "proofs": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/DeliveryProof"
            }
          }
        }
      },
      "PositionQuery": {
        "title": "PositionQuery",
        "description": "A message a peer asks about (`neutralService_provePositions`): its EIP-712 digest and timestamp, and its recipient, homed at the node asked.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "digest",
          "timestamp",
          "to"
        ],
        "properties": {
          "digest": {
            "$ref": "#/components/schemas/Hash"
          },
          "timestamp": {
            "$ref": "#/components/schemas/Timestamp"
          },
          "to": {
            "$ref": "#/components/schemas/Address"
          }
        }
      },
      "PositionAnswers": {
        "title": "PositionAnswers",
        "description": "What `neutralService_provePositions` answers: for each message asked about, in order, the position of the recipient's copy with the node's `LogReceipt`, or `null` when the recipient's mailbox here holds no copy of it.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "positions"
        ],
        "properties": {
          "positions": {
            "type": "array",
            "items": {
              "oneOf": [
                {
                  "$ref": "#/components/schemas/PositionReceipt"
                },
                {
                  "type": "null"
                }
              ]
            }
          }
        }
      }
    },
    "errors": {
      "InvalidParams": {
        "code": -32602,
        "message": "Invalid params",
        "data": {
          "field": "inboxFilter.form",
          "reason": "is not a known member",
          "param": "inboxFilter",
          "path": "/form"
        }
      },
      "Unauthorized": {
        "code": -32001,
        "message": "Unauthorized",
        "data": {
          "reason": "expired"
        }
      },
      "Forbidden": {
        "code": -32002,
        "message": "Forbidden",
        "data": {
          "reason": "from is not the authenticated user"
        }
      },
      "InvalidSignature": {
        "code": -32003,
        "message": "Invalid message signature"
      },
      "TimestampOutOfWindow": {
        "code": -32004,
        "message": "Timestamp outside the accepted window"
      },
      "TooLarge": {
        "code": -32005,
        "message": "Too large"
      },
      "RateLimited": {
        "code": -32029,
        "message": "Rate limited",
        "data": {
          "retryAfter": 2
        }
      }
    }
  }
} as const;
