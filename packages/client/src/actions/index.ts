// `@neutral/client/actions`: the SDK's actions standalone, as viem/actions, each taking the session
// (`createNeutralContext(options)`) first. `createNeutral(options).send(to, text)` is
// `send(createNeutralContext(options), to, text)`; a bundler keeps only the actions an app imports.
export { createNeutralContext, memoryAuditStore, memoryHeadStore, type AuditState, type AuditStore, type HeadStore, type NeutralContext, type NeutralOptions } from "../context.js";
export { audit, type AuditErrorType, type AuditOptions, type AuditReturnType } from "./audit.js";
export { chat, type ChatErrorType, type ChatOptions, type ChatReturnType } from "./chat.js";
export { consent, type ConsentErrorType, type ConsentReturnType } from "./consent.js";
export { proveDelivery, type ProveDeliveryErrorType, type ProveDeliveryReturnType, type ProvenDelivery } from "./proveDelivery.js";
export { deleteMessages, type DeleteMessagesErrorType, type DeleteMessagesReturnType, type MessageToDelete } from "./deleteMessages.js";
export { homeOf, type HomeOfErrorType, type HomeOfReturnType } from "./homeOf.js";
export { inbox, type InboxErrorType, type InboxOptions, type InboxReturnType } from "./inbox.js";
export { keyOf, type KeyOfErrorType, type KeyOfReturnType } from "./keyOf.js";
export { live, type LiveErrorType, type LiveReturnType } from "./live.js";
export { proveMessages, type ProveMessagesErrorType, type ProveMessagesReturnType } from "./proveMessages.js";
export { publishHome, type PublishHomeErrorType, type PublishHomeReturnType } from "./publishHome.js";
export { publishKey, type PublishKeyErrorType, type PublishKeyReturnType } from "./publishKey.js";
export { ready, type ReadyErrorType, type ReadyReturnType } from "./ready.js";
export { send, type SendErrorType, type SendOptions, type SendReturnType } from "./send.js";
export { setConsent, type ConsentChoice, type SetConsentErrorType, type SetConsentReturnType } from "./setConsent.js";
export { setConsentPolicy, type ConsentPolicyMode, type SetConsentPolicyErrorType, type SetConsentPolicyReturnType } from "./setConsentPolicy.js";
export { waitForDelivery, type DeliveryWaitOptions, type WaitForDeliveryErrorType, type WaitForDeliveryReturnType } from "./waitForDelivery.js";
export type { LiveOptions } from "../live.js";
export type { MessagePage, MessagePages, PageOptions } from "../session/pages.js";
