// The neutralService methods, over a message store: each group of handlers in its own module, over
// what they share (context.ts), assembled into the generated Handlers.
import type { Handlers } from "@neutral/server/neutral-service";
import { consentHandlers } from "./consent.js";
import { rpcOf, type RelayContext, type ServiceOptions } from "./context.js";
import { deletionHandlers } from "./deletion.js";
import { deliveryProofHandlers } from "./delivery-proof.js";
import { federationHandlers } from "./federation.js";
import { importHandlers } from "./import.js";
import { mailboxHandlers } from "./mailbox.js";
import { mailboxLogHandlers } from "./mailbox-log.js";
import { nodeInfoHandlers } from "./node-info.js";
import { recordHandlers } from "./records.js";
import { sendHandlers } from "./send.js";

export { expiryProblem, type Caller, type Limits, type RelayContext, type ServiceOptions } from "./context.js";

export function createHandlers(options: ServiceOptions): Handlers<RelayContext> {
  const rpc = rpcOf(options);
  // The store signs this node's receipts, over the positions it gives the copies it stores.
  options.store.useReceiptKey(options.nodeKey);
  return {
    ...mailboxHandlers(rpc),
    ...mailboxLogHandlers(rpc),
    ...sendHandlers(rpc),
    ...recordHandlers(rpc),
    ...federationHandlers(rpc),
    ...deletionHandlers(rpc),
    ...deliveryProofHandlers(rpc),
    ...importHandlers(rpc),
    ...consentHandlers(rpc),
    ...nodeInfoHandlers(rpc),
  };
}
