/**
 * Which of two signed records of one account wins (openrpc.json "Key bundles" and "Federation"):
 * the greater `timestamp`; between equal timestamps, the greater `signature` (compared as the
 * lowercase hex of its bytes, which orders as the bytes do). Every node and client applies the same
 * order to key bundles and to home records, so no tie is decided by which copy arrived first, and a
 * copier, who cannot sign, cannot change the outcome.
 */
export function supersedes(candidate: SignedRecord, current: SignedRecord | undefined): boolean {
  if (current === undefined) return true;
  if (candidate.timestamp !== current.timestamp) return candidate.timestamp > current.timestamp;
  return candidate.signature.toLowerCase() > current.signature.toLowerCase();
}

/** What the order looks at: a record's signed time and its signature (0x + 130 hex). */
export interface SignedRecord {
  timestamp: number;
  signature: string;
}
