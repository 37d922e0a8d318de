// generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).
//
// What the dispatcher needs to know of each method: param order, defaults, whether it needs a
// token, whether its result is wrapped, and each param's JSON Schema as written (its `$ref`s
// resolve against the document, openrpc.ts) for validation.
import type { MethodDescriptor } from "../index.js";

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
          "$ref": "#/components/schemas/InboxFilter",
          "default": {}
        },
      },
      {
        name: "limit",
        required: false,
        default: 20,
        schema: {
          "$ref": "#/components/schemas/Limit"
        },
      },
      {
        name: "after",
        required: false,
        schema: {
          "$ref": "#/components/schemas/MessageId"
        },
      },
      {
        name: "before",
        required: false,
        schema: {
          "$ref": "#/components/schemas/MessageId"
        },
      },
      {
        name: "proof",
        required: false,
        schema: {
          "$ref": "#/components/schemas/ProofRequest"
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
          "$ref": "#/components/schemas/ChatFilter",
          "default": {}
        },
      },
      {
        name: "limit",
        required: false,
        default: 20,
        schema: {
          "$ref": "#/components/schemas/Limit"
        },
      },
      {
        name: "after",
        required: false,
        schema: {
          "$ref": "#/components/schemas/MessageId"
        },
      },
      {
        name: "before",
        required: false,
        schema: {
          "$ref": "#/components/schemas/MessageId"
        },
      },
      {
        name: "proof",
        required: false,
        schema: {
          "$ref": "#/components/schemas/ProofRequest"
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
          "$ref": "#/components/schemas/SignedMessage"
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
          "$ref": "#/components/schemas/KeyBundle"
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
          "$ref": "#/components/schemas/Address"
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
          "$ref": "#/components/schemas/HomeRecord"
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
          "$ref": "#/components/schemas/Address"
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
          "$ref": "#/components/schemas/SubscribeFilter",
          "default": {}
        },
      },
      {
        name: "after",
        required: false,
        schema: {
          "$ref": "#/components/schemas/MessageId"
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
            "$ref": "#/components/schemas/RelayedMessage"
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
            "$ref": "#/components/schemas/HomeRecord"
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
            "$ref": "#/components/schemas/Address"
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
            "$ref": "#/components/schemas/HomeRecord"
          },
          "default": []
        },
      },
    ],
  },
  "neutralService_deleteMessages": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "request",
        required: true,
        schema: {
          "$ref": "#/components/schemas/DeletionRequest"
        },
      },
    ],
  },
  "neutralService_setConsent": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "records",
        required: true,
        schema: {
          "type": "array",
          "minItems": 0,
          "maxItems": 100,
          "items": {
            "$ref": "#/components/schemas/ConsentRecord"
          }
        },
      },
      {
        name: "policy",
        required: false,
        schema: {
          "$ref": "#/components/schemas/ConsentPolicy"
        },
      },
    ],
  },
  "neutralService_getConsent": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "after",
        required: false,
        schema: {
          "$ref": "#/components/schemas/Address"
        },
      },
      {
        name: "limit",
        required: false,
        default: 20,
        schema: {
          "$ref": "#/components/schemas/Limit"
        },
      },
    ],
  },
  "neutralService_importMessages": {
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
            "$ref": "#/components/schemas/Message"
          }
        },
      },
      {
        name: "head",
        required: false,
        schema: {
          "$ref": "#/components/schemas/MailboxHead"
        },
      },
    ],
  },
  "neutralService_getProof": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "ids",
        required: false,
        schema: {
          "type": "array",
          "maxItems": 100,
          "items": {
            "$ref": "#/components/schemas/MessageId"
          }
        },
      },
      {
        name: "since",
        required: false,
        schema: {
          "$ref": "#/components/schemas/LogSize"
        },
      },
      {
        name: "compact",
        required: false,
        schema: {
          "type": "boolean"
        },
      },
    ],
  },
  "neutralService_getLog": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "from",
        required: false,
        default: 1,
        schema: {
          "type": "integer",
          "minimum": 1,
          "maximum": 9007199254740991,
          "default": 1
        },
      },
      {
        name: "limit",
        required: false,
        default: 100,
        schema: {
          "type": "integer",
          "minimum": 1,
          "maximum": 1000,
          "default": 100
        },
      },
      {
        name: "messages",
        required: false,
        default: false,
        schema: {
          "type": "boolean",
          "default": false
        },
      },
    ],
  },
  "neutralService_proveDelivery": {
    paramStructure: "either",
    requiresAuth: true,
    wrapResult: true,
    params: [
      {
        name: "ids",
        required: true,
        schema: {
          "type": "array",
          "minItems": 1,
          "maxItems": 100,
          "uniqueItems": true,
          "items": {
            "$ref": "#/components/schemas/MessageId"
          }
        },
      },
    ],
  },
  "neutralService_provePositions": {
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
            "$ref": "#/components/schemas/PositionQuery"
          }
        },
      },
    ],
  },
} as const satisfies Record<string, MethodDescriptor>;

export type MethodName = keyof typeof methodDescriptors;
