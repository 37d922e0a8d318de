// generated — do not edit. Source: openrpc.json via tools/ (pnpm generate).
//
// What the dispatcher needs to know of each method: param order, defaults, whether it needs a
// token, whether its result is wrapped, and each param's JSON Schema (dereferenced) for validation.
import type { MethodDescriptor } from "../descriptor.js";

export const methodDescriptors = {
  "neutralService_getInbox": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "inboxFilter",
        required: false,
        default: {},
        schema: {
          "title": "InboxFilter",
          "description": "Selects messages of the authenticated user's mailbox. Every member is optional; unknown members are an error.",
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "from": {
              "title": "Address",
              "description": "Only messages from this sender.",
              "type": "string",
              "pattern": "^0x[0-9a-fA-F]{40}$"
            },
            "direction": {
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
            "since": {
              "title": "Timestamp",
              "description": "Only messages whose timestamp is at or after this (inclusive).",
              "type": "integer",
              "minimum": 0,
              "maximum": 9007199254740991
            },
            "until": {
              "title": "Timestamp",
              "description": "Only messages whose timestamp is before this (exclusive).",
              "type": "integer",
              "minimum": 0,
              "maximum": 9007199254740991
            }
          },
          "default": {}
        },
      },
      {
        name: "limit",
        required: false,
        default: 20,
        schema: {
          "title": "Limit",
          "description": "Page size: an integer from 1 to 100.",
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
      },
      {
        name: "after",
        required: false,
        schema: {
          "title": "MessageId",
          "description": "A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position.",
          "type": "string",
          "pattern": "^(?:0|[1-9][0-9]{0,18})$"
        },
      },
      {
        name: "before",
        required: false,
        schema: {
          "title": "MessageId",
          "description": "A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position.",
          "type": "string",
          "pattern": "^(?:0|[1-9][0-9]{0,18})$"
        },
      },
    ],
  },
  "neutralService_getChat": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "inboxFilter",
        required: false,
        default: {},
        schema: {
          "title": "ChatFilter",
          "description": "Selects one chat of the authenticated user and an optional time window. Unknown members are an error.",
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "chat": {
              "title": "Address",
              "description": "The peer whose chat to read. Absent: the most recently active chat.",
              "type": "string",
              "pattern": "^0x[0-9a-fA-F]{40}$"
            },
            "since": {
              "title": "Timestamp",
              "description": "Only messages whose timestamp is at or after this (inclusive).",
              "type": "integer",
              "minimum": 0,
              "maximum": 9007199254740991
            },
            "until": {
              "title": "Timestamp",
              "description": "Only messages whose timestamp is before this (exclusive).",
              "type": "integer",
              "minimum": 0,
              "maximum": 9007199254740991
            }
          },
          "default": {}
        },
      },
      {
        name: "limit",
        required: false,
        default: 20,
        schema: {
          "title": "Limit",
          "description": "Page size: an integer from 1 to 100.",
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
      },
      {
        name: "after",
        required: false,
        schema: {
          "title": "MessageId",
          "description": "A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position.",
          "type": "string",
          "pattern": "^(?:0|[1-9][0-9]{0,18})$"
        },
      },
      {
        name: "before",
        required: false,
        schema: {
          "title": "MessageId",
          "description": "A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position.",
          "type": "string",
          "pattern": "^(?:0|[1-9][0-9]{0,18})$"
        },
      },
    ],
  },
  "neutralService_sendMessage": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "message",
        required: true,
        schema: {
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
              "title": "Address",
              "description": "The sender; must be the authenticated user.",
              "type": "string",
              "pattern": "^0x[0-9a-fA-F]{40}$"
            },
            "to": {
              "title": "Address",
              "description": "The recipient.",
              "type": "string",
              "pattern": "^0x[0-9a-fA-F]{40}$"
            },
            "message": {
              "title": "Ciphertext",
              "description": "An encrypted message body as hex without `0x`: a non-empty, whole number of bytes (lowercase on output). At most `nodeInfo.limits.maxMessageBytes` bytes (64 KiB by default); larger is error -32005.",
              "type": "string",
              "pattern": "^(?:[0-9a-fA-F]{2})+$"
            },
            "timestamp": {
              "title": "Timestamp",
              "description": "Set by the sender and covered by its signature; must be within the node's clock window.",
              "type": "integer",
              "minimum": 0,
              "maximum": 9007199254740991
            },
            "signature": {
              "title": "Signature",
              "description": "The sender's EIP-712 signature of `Message(address from,address to,bytes message,uint64 timestamp)`.",
              "type": "string",
              "pattern": "^0x[0-9a-fA-F]{130}$"
            }
          }
        },
      },
    ],
  },
  "neutralService_publishKey": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "bundle",
        required: true,
        schema: {
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
              "title": "Address",
              "description": "The account the key belongs to; the signer of the bundle.",
              "type": "string",
              "pattern": "^0x[0-9a-fA-F]{40}$"
            },
            "key": {
              "title": "MessagingKey",
              "description": "The account's messaging public key.",
              "type": "string",
              "pattern": "^0x[0-9a-fA-F]{64}$"
            },
            "timestamp": {
              "title": "Timestamp",
              "description": "When the bundle was made, set by the account and covered by its signature. A node keeps the bundle with the greatest timestamp; it may be in the past, but not more than `nodeInfo.limits.clockSkewMs` in the future.",
              "type": "integer",
              "minimum": 0,
              "maximum": 9007199254740991
            },
            "signature": {
              "title": "Signature",
              "description": "The account's EIP-712 signature of `KeyBundle(address account,bytes32 key,uint64 timestamp)`, domain `{name: \"neutralService\", version: \"1\"}`.",
              "type": "string",
              "pattern": "^0x[0-9a-fA-F]{130}$"
            }
          }
        },
      },
    ],
  },
  "neutralService_getKey": {
    paramStructure: "either",
    requiresAuth: false,
    wrapResult: true,
    params: [
      {
        name: "account",
        required: true,
        schema: {
          "title": "Address",
          "description": "An account address: `0x` + 40 hex digits. Any case on input; lowercase on output.",
          "type": "string",
          "pattern": "^0x[0-9a-fA-F]{40}$"
        },
      },
    ],
  },
  "neutralService_publishHome": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "record",
        required: true,
        schema: {
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
              "title": "Address",
              "description": "The account; the signer of the record.",
              "type": "string",
              "pattern": "^0x[0-9a-fA-F]{40}$"
            },
            "node": {
              "title": "Address",
              "description": "The home node's address (the key that signs its receipts, `nodeInfo.address`).",
              "type": "string",
              "pattern": "^0x[0-9a-fA-F]{40}$"
            },
            "timestamp": {
              "title": "Timestamp",
              "description": "When the account made the record, covered by its signature. At most `nodeInfo.limits.clockSkewMs` in the future.",
              "type": "integer",
              "minimum": 0,
              "maximum": 9007199254740991
            },
            "signature": {
              "title": "Signature",
              "description": "The account's EIP-712 signature of `Home(address account,address node,uint64 timestamp)`, domain `{name: \"neutralService\", version: \"1\"}`.",
              "type": "string",
              "pattern": "^0x[0-9a-fA-F]{130}$"
            }
          }
        },
      },
    ],
  },
  "neutralService_getHome": {
    paramStructure: "either",
    requiresAuth: false,
    wrapResult: true,
    params: [
      {
        name: "account",
        required: true,
        schema: {
          "title": "Address",
          "description": "An account address: `0x` + 40 hex digits. Any case on input; lowercase on output.",
          "type": "string",
          "pattern": "^0x[0-9a-fA-F]{40}$"
        },
      },
    ],
  },
  "neutralService_nodeInfo": {
    paramStructure: "either",
    requiresAuth: false,
    wrapResult: true,
    params: [
    ],
  },
  "neutralService_subscribe": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: false,
    stream: true,
    params: [
      {
        name: "filter",
        required: false,
        default: {},
        schema: {
          "title": "SubscribeFilter",
          "description": "What a subscription streams: getInbox's `InboxFilter` (absent or `{}`: every received message), or getChat's `ChatFilter` with `chat` given (both sides of one chat).",
          "oneOf": [
            {
              "title": "InboxFilter",
              "description": "Selects messages of the authenticated user's mailbox. Every member is optional; unknown members are an error.",
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "from": {
                  "title": "Address",
                  "description": "Only messages from this sender.",
                  "type": "string",
                  "pattern": "^0x[0-9a-fA-F]{40}$"
                },
                "direction": {
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
                "since": {
                  "title": "Timestamp",
                  "description": "Only messages whose timestamp is at or after this (inclusive).",
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 9007199254740991
                },
                "until": {
                  "title": "Timestamp",
                  "description": "Only messages whose timestamp is before this (exclusive).",
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 9007199254740991
                }
              }
            },
            {
              "allOf": [
                {
                  "title": "ChatFilter",
                  "description": "Selects one chat of the authenticated user and an optional time window. Unknown members are an error.",
                  "type": "object",
                  "additionalProperties": false,
                  "properties": {
                    "chat": {
                      "title": "Address",
                      "description": "The peer whose chat to read. Absent: the most recently active chat.",
                      "type": "string",
                      "pattern": "^0x[0-9a-fA-F]{40}$"
                    },
                    "since": {
                      "title": "Timestamp",
                      "description": "Only messages whose timestamp is at or after this (inclusive).",
                      "type": "integer",
                      "minimum": 0,
                      "maximum": 9007199254740991
                    },
                    "until": {
                      "title": "Timestamp",
                      "description": "Only messages whose timestamp is before this (exclusive).",
                      "type": "integer",
                      "minimum": 0,
                      "maximum": 9007199254740991
                    }
                  }
                },
                {
                  "type": "object",
                  "required": [
                    "chat"
                  ],
                  "properties": {
                    "chat": {
                      "title": "Address",
                      "description": "An account address: `0x` + 40 hex digits. Any case on input; lowercase on output.",
                      "type": "string",
                      "pattern": "^0x[0-9a-fA-F]{40}$"
                    }
                  }
                }
              ]
            }
          ],
          "default": {}
        },
      },
      {
        name: "after",
        required: false,
        schema: {
          "title": "MessageId",
          "description": "A message id: a decimal-digit string without leading zeros, assigned by the node that stores the message and strictly increasing in the order it accepted them. Used as a pagination cursor; any well-formed id is a valid position.",
          "type": "string",
          "pattern": "^(?:0|[1-9][0-9]{0,18})$"
        },
      },
    ],
  },
  "neutralService_deliver": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "messages",
        required: true,
        schema: {
          "type": "array",
          "minItems": 1,
          "maxItems": 100,
          "items": {
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
                "title": "Address",
                "description": "The sender, homed at the calling node.",
                "type": "string",
                "pattern": "^0x[0-9a-fA-F]{40}$"
              },
              "to": {
                "title": "Address",
                "description": "The recipient, homed at the called node.",
                "type": "string",
                "pattern": "^0x[0-9a-fA-F]{40}$"
              },
              "message": {
                "title": "Ciphertext",
                "description": "An encrypted message body as hex without `0x`: a non-empty, whole number of bytes (lowercase on output). At most `nodeInfo.limits.maxMessageBytes` bytes (64 KiB by default); larger is error -32005.",
                "type": "string",
                "pattern": "^(?:[0-9a-fA-F]{2})+$"
              },
              "timestamp": {
                "title": "Timestamp",
                "description": "Milliseconds since the Unix epoch.",
                "type": "integer",
                "minimum": 0,
                "maximum": 9007199254740991
              },
              "signature": {
                "title": "Signature",
                "description": "The sender's EIP-712 `Message` signature.",
                "type": "string",
                "pattern": "^0x[0-9a-fA-F]{130}$"
              },
              "sender_receipt": {
                "title": "Signature",
                "description": "The calling node's `Receipt`, role \"sender\".",
                "type": "string",
                "pattern": "^0x[0-9a-fA-F]{130}$"
              }
            }
          }
        },
      },
      {
        name: "homes",
        required: false,
        default: [],
        schema: {
          "type": "array",
          "maxItems": 100,
          "items": {
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
                "title": "Address",
                "description": "The account; the signer of the record.",
                "type": "string",
                "pattern": "^0x[0-9a-fA-F]{40}$"
              },
              "node": {
                "title": "Address",
                "description": "The home node's address (the key that signs its receipts, `nodeInfo.address`).",
                "type": "string",
                "pattern": "^0x[0-9a-fA-F]{40}$"
              },
              "timestamp": {
                "title": "Timestamp",
                "description": "When the account made the record, covered by its signature. At most `nodeInfo.limits.clockSkewMs` in the future.",
                "type": "integer",
                "minimum": 0,
                "maximum": 9007199254740991
              },
              "signature": {
                "title": "Signature",
                "description": "The account's EIP-712 signature of `Home(address account,address node,uint64 timestamp)`, domain `{name: \"neutralService\", version: \"1\"}`.",
                "type": "string",
                "pattern": "^0x[0-9a-fA-F]{130}$"
              }
            }
          },
          "default": []
        },
      },
    ],
  },
  "neutralService_lookup": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "accounts",
        required: true,
        schema: {
          "type": "array",
          "maxItems": 100,
          "items": {
            "title": "Address",
            "description": "An account address: `0x` + 40 hex digits. Any case on input; lowercase on output.",
            "type": "string",
            "pattern": "^0x[0-9a-fA-F]{40}$"
          }
        },
      },
      {
        name: "homes",
        required: false,
        default: [],
        schema: {
          "type": "array",
          "maxItems": 100,
          "items": {
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
                "title": "Address",
                "description": "The account; the signer of the record.",
                "type": "string",
                "pattern": "^0x[0-9a-fA-F]{40}$"
              },
              "node": {
                "title": "Address",
                "description": "The home node's address (the key that signs its receipts, `nodeInfo.address`).",
                "type": "string",
                "pattern": "^0x[0-9a-fA-F]{40}$"
              },
              "timestamp": {
                "title": "Timestamp",
                "description": "When the account made the record, covered by its signature. At most `nodeInfo.limits.clockSkewMs` in the future.",
                "type": "integer",
                "minimum": 0,
                "maximum": 9007199254740991
              },
              "signature": {
                "title": "Signature",
                "description": "The account's EIP-712 signature of `Home(address account,address node,uint64 timestamp)`, domain `{name: \"neutralService\", version: \"1\"}`.",
                "type": "string",
                "pattern": "^0x[0-9a-fA-F]{130}$"
              }
            }
          },
          "default": []
        },
      },
    ],
  },
} as const satisfies Record<string, MethodDescriptor>;

export type MethodName = keyof typeof methodDescriptors;
