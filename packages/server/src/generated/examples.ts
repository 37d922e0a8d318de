// generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).
//
// The document's example pairings, `$ref`s followed: for tests that replay them against a server
// (the scaffold's examples test), and for handlers that answer examples while being written.

export interface ExamplePairing {
  /** The method the example calls. */
  readonly method: string;
  readonly name: string;
  /** How the method takes params: "by-position", "by-name" or "either". */
  readonly paramStructure: "by-position" | "by-name" | "either";
  /** In the method's declared order, as the example lists them. */
  readonly params: readonly { readonly name: string; readonly value: unknown }[];
  /** The result the example expects; absent for a notification (no answer) or an example without one. */
  readonly result?: { readonly value: unknown };
  /** The method answers an event stream (`x-subscription`), not one JSON result. */
  readonly stream: boolean;
  /** The method is a notification (no `result`): it is sent without an id and answered with nothing. */
  readonly notification: boolean;
  /** A stream's example: the events it opens with (`x-events`), in order, each with its SSE `id` when it has one. */
  readonly events?: readonly { readonly id?: string; readonly method: string; readonly params: unknown }[];
}

export const examples: readonly ExamplePairing[] = [
  {
    "method": "neutralService_getInbox",
    "name": "Newest messages of the inbox",
    "paramStructure": "either",
    "params": [],
    "result": {
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_getInbox",
    "name": "Forward sync from a cursor",
    "paramStructure": "either",
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_getChat",
    "name": "Most recent chat",
    "paramStructure": "either",
    "params": [],
    "result": {
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_getChat",
    "name": "A named chat, one page back from a cursor",
    "paramStructure": "either",
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_sendMessage",
    "name": "Send a message",
    "paramStructure": "either",
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_publishKey",
    "name": "Publish a key",
    "paramStructure": "either",
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
      "value": [
        {
          "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
          "key": "0xf9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9",
          "timestamp": 1767225600000,
          "signature": "0x36256dca8f8e3673f92c1d76d8bc2dab3870969336fe19b3fb04ce7a49f8ead379ebbe195a998a2a89198b2bb5867e1d18b156a9fa80c8d03eebe538779922051c"
        }
      ]
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_publishKey",
    "name": "An older bundle changes nothing",
    "paramStructure": "either",
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
      "value": [
        {
          "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
          "key": "0xf9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9",
          "timestamp": 1767225600000,
          "signature": "0x36256dca8f8e3673f92c1d76d8bc2dab3870969336fe19b3fb04ce7a49f8ead379ebbe195a998a2a89198b2bb5867e1d18b156a9fa80c8d03eebe538779922051c"
        }
      ]
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_getKey",
    "name": "A published key",
    "paramStructure": "either",
    "params": [
      {
        "name": "account",
        "value": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
      }
    ],
    "result": {
      "value": [
        {
          "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
          "key": "0xf9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9",
          "timestamp": 1767225600000,
          "signature": "0x36256dca8f8e3673f92c1d76d8bc2dab3870969336fe19b3fb04ce7a49f8ead379ebbe195a998a2a89198b2bb5867e1d18b156a9fa80c8d03eebe538779922051c"
        }
      ]
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_getKey",
    "name": "No key published",
    "paramStructure": "either",
    "params": [
      {
        "name": "account",
        "value": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
      }
    ],
    "result": {
      "value": [
        null
      ]
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_publishHome",
    "name": "Make this node alice's home",
    "paramStructure": "either",
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
      "value": [
        {
          "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
          "node": "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
          "timestamp": 1767225600000,
          "signature": "0x0f6bee26d9b60719eab2b6df8c35c7df7551fc0650118d161aaeb6c5a73ab93d5df5b8dd374d1c962d4b1d16a7525c33a968290115a8a21c53ffb0c0810e31911c"
        }
      ]
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_getHome",
    "name": "An account homed here",
    "paramStructure": "either",
    "params": [
      {
        "name": "account",
        "value": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
      }
    ],
    "result": {
      "value": [
        {
          "account": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
          "node": "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
          "timestamp": 1767225600000,
          "signature": "0x0f6bee26d9b60719eab2b6df8c35c7df7551fc0650118d161aaeb6c5a73ab93d5df5b8dd374d1c962d4b1d16a7525c33a968290115a8a21c53ffb0c0810e31911c"
        }
      ]
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_getHome",
    "name": "No record anywhere",
    "paramStructure": "either",
    "params": [
      {
        "name": "account",
        "value": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
      }
    ],
    "result": {
      "value": [
        null
      ]
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_nodeInfo",
    "name": "Node description",
    "paramStructure": "either",
    "params": [],
    "result": {
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_subscribe",
    "name": "Everything after message 2, then live",
    "paramStructure": "either",
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
      "value": null
    },
    "stream": true,
    "notification": false,
    "events": [
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
  },
  {
    "method": "neutralService_deliver",
    "name": "Carol, homed at the peer 0x9965…a4dc, writes to alice, homed here",
    "paramStructure": "either",
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_lookup",
    "name": "What this node holds of alice and bob",
    "paramStructure": "either",
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_deleteMessages",
    "name": "Bob deletes message 1 from his inbox",
    "paramStructure": "either",
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_setConsent",
    "name": "Bob lets only those he allows reach his inbox, and allows alice",
    "paramStructure": "either",
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_getConsent",
    "name": "Bob's consent",
    "paramStructure": "either",
    "params": [],
    "result": {
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_importMessages",
    "name": "Bob imports message 1, which is here already",
    "paramStructure": "either",
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
      "value": [
        {
          "ids": [
            "1"
          ]
        }
      ]
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_getProof",
    "name": "Bob proves two messages he read",
    "paramStructure": "either",
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_getLog",
    "name": "The first two positions of Bob's log",
    "paramStructure": "either",
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_proveDelivery",
    "name": "Bob proves message 2 reached Alice's log",
    "paramStructure": "either",
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
    },
    "stream": false,
    "notification": false
  },
  {
    "method": "neutralService_provePositions",
    "name": "A peer asks for the position of message 2 in Alice's log",
    "paramStructure": "either",
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
    },
    "stream": false,
    "notification": false
  }
];
