// An account's home node (federation): the node that keeps its mailbox and signs its messages'
// receipts, named in a HomeRecord the account signs (EIP-712 `Home`). The newest record wins.
import type { Signer } from "./account.js";
import { hashTypedData, typedData } from "@neutral/protocol";
import { recoverAddress, type Hex } from "./crypto/ecdsa.js";
import type { HomeRecord } from "./generated/types.js";

/** A HomeRecord naming `node`, signed by the account. */
export async function signHomeRecord(signer: Signer, node: string, timestamp = Date.now()): Promise<HomeRecord> {
  const account = (await signer.getAddress()) as Hex;
  const fields = { account, node: node.toLowerCase() as Hex, timestamp };
  const signature = await signer.signTypedData(typedData("Home", fields));
  return { ...fields, signature };
}

/**
 * True when `record` is `account`'s and signed by it. Checked on every record a node serves before
 * it is used: a node is not trusted to say where anyone else is homed.
 */
export function isValidHomeRecord(record: HomeRecord, account: string): boolean {
  if (record.account.toLowerCase() !== account.toLowerCase()) return false;
  let digest: Uint8Array;
  try {
    digest = hashTypedData({ primaryType: "Home", message: { account: record.account as Hex, node: record.node as Hex, timestamp: record.timestamp } });
  } catch {
    return false;
  }
  return recoverAddress(digest, record.signature) === account.toLowerCase();
}
