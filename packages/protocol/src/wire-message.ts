/**
 * The wire JSON of a stored message (the interface document's field order): how a node stores and
 * answers it. Every field but a failure's `reason` is digits or lowercase hex, so nothing needs
 * escaping (the reason is written with JSON.stringify), and a node can keep the text and splice it
 * into answers as is. A store that learns the id inside its write transaction (a SQLite worker, a
 * PostgreSQL function) writes `MESSAGE_JSON_ID_HEAD + id + '"' + tail`.
 */
import { POSITION_MEMBER, type MailboxRole } from "./mailbox-log.js";

/** What a stored message to another node (federation) says of its delivery; absent: delivered (or never remote). */
export type WireDeliveryStatus = "pending" | "failed";

/** The fields of a stored message, every hex field lowercase; `message` is the ciphertext as hex without 0x. */
export interface WireMessageFields {
  message: string;
  from: string;
  to: string;
  signature: string;
  senderReceipt: string;
  /**
   * The position of the sender's copy in the sender's log, when `senderReceipt` binds it (a
   * `LogReceipt`, spec 3.0.0); absent when it is a `Receipt`.
   */
  senderSeq?: number | undefined;
  /** Absent while a message to another node is pending or failed. */
  receiverReceipt?: string | undefined;
  /** The position of the recipient's copy in the recipient's log, when `receiverReceipt` binds it (a `LogReceipt`). */
  receiverSeq?: number | undefined;
  timestamp: number;
  /** When the sender gave the message an end (ms), covered by its signature (`ExpiringMessage`). */
  expires?: number | undefined;
  /** Only on a sender's copy of a message to another node that is not delivered. */
  status?: WireDeliveryStatus | undefined;
  /** With `status: "failed"`: why. */
  reason?: string | undefined;
}

/** Every stored message's JSON begins with this, then the decimal id and a closing quote. */
export const MESSAGE_JSON_ID_HEAD = '{"id":"';

/** The longest `reason` a message carries (openrpc.json `Message.reason.maxLength`); longer ones are cut. */
export const MAX_REASON_LENGTH = 500;

/** The JSON of `fields` after `MESSAGE_JSON_ID_HEAD + id + '"'`. */
export function messageJsonTail(fields: WireMessageFields): string {
  const senderSeq = fields.senderSeq === undefined ? "" : `"sender_seq":${fields.senderSeq},`;
  const receiver =
    fields.receiverReceipt === undefined
      ? ""
      : `"receiver_receipt":"${fields.receiverReceipt}",${fields.receiverSeq === undefined ? "" : `"receiver_seq":${fields.receiverSeq},`}`;
  const status =
    fields.status === undefined
      ? ""
      : `,"status":"${fields.status}"${fields.reason === undefined ? "" : `,"reason":${JSON.stringify(fields.reason.slice(0, MAX_REASON_LENGTH))}`}`;
  return (
    `,"message":"${fields.message}","from":"${fields.from}","to":"${fields.to}",` +
    `"signature":"${fields.signature}","sender_receipt":"${fields.senderReceipt}",${senderSeq}` +
    `${receiver}"timestamp":${fields.timestamp}${fields.expires === undefined ? "" : `,"expires":${fields.expires}`}${status}}`
  );
}

/** The wire JSON of a message given its id and `messageJsonTail`. */
export const messageJsonWithId = (id: number | string, tail: string): string => `${MESSAGE_JSON_ID_HEAD}${id}"${tail}`;

/** How the JSON of a sender's copy still pending ends: its status is the last member. */
const PENDING_END = ',"status":"pending"}';

/** Whether a stored message's JSON is a sender's copy still pending (openrpc.json `Message.status`). */
export const isPendingMessageJson = (json: string): boolean => json.endsWith(PENDING_END);

/**
 * Whether a stored message's JSON is a sender's copy not delivered: pending, or failed. Every other
 * member is digits or hex, and the reason is written with JSON.stringify (its quotes escaped), so
 * the status member's text occurs nowhere else.
 */
export const isUndeliveredMessageJson = (json: string): boolean => isPendingMessageJson(json) || json.includes('"status":"failed"');

/**
 * A pending copy's JSON made failed with `reason`: what `messageJson` gives for the same message with
 * status "failed". JSON that is not a pending copy is returned unchanged.
 */
export function failedMessageJson(json: string, reason: string): string {
  if (!isPendingMessageJson(json)) return json;
  return `${json.slice(0, -PENDING_END.length)},"status":"failed","reason":${JSON.stringify(reason.slice(0, MAX_REASON_LENGTH))}}`;
}

/** The wire JSON of a stored message. */
export const messageJson = (id: number | string, fields: WireMessageFields): string => messageJsonWithId(id, messageJsonTail(fields));

/** The id of a message from its wire JSON (the fixed `{"id":"<digits>"` head). */
export const messageIdOf = (json: string): number =>
  Number(json.slice(MESSAGE_JSON_ID_HEAD.length, json.indexOf('"', MESSAGE_JSON_ID_HEAD.length)));

/**
 * Whether a stored message's JSON states `seq` as the position of its copy of `role`
 * (`POSITION_MEMBER`: `"receiver_seq":seq` or `"sender_seq":seq`), which a proof asked with
 * `omitBound` leaves out (spec 3.3.0). `messageJsonTail` writes either member with `timestamp` after
 * it, and no other member's text holds a quote unescaped, so the member's text occurs nowhere else.
 */
export const statesPosition = (json: string, role: MailboxRole, seq: number): boolean => json.includes(`"${POSITION_MEMBER[role]}":${seq},`);
