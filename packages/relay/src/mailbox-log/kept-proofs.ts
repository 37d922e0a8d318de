// The last proof this process wrote for each recently read account, kept while that account's log
// does not grow: a device that reads its inbox again (polling, a second device, a reload) asks for
// the same positions at the same head, and gets the same bytes without a read of the log or a hash.
// What invalidates an entry is the commit feed (live/commits.ts), which tells every process of the
// node of each message stored into an account's mailbox, whichever process or replica stored it.
// A proof depends on nothing else: a position's leaf never changes, deleting a copy keeps its
// position, and the head is signed again only when the log grows.
import type { CommitEvent } from "../live/commits.js";

/** A read's hold on an account while it makes a proof: whether the account's log may have grown since. */
export interface ProofTicket {
  readonly account: string;
  grown: boolean;
}

/** A proof kept: its JSON, and the bytes the answer budget counted for it (a bound of its size, `pageMembers`). */
export interface KeptProof {
  /**
   * The proof's JSON (ASCII: numbers, hex and names), served as it is: a copy per read (kept as
   * bytes off the heap, then decoded) cost more than the string on the heap.
   */
  readonly json: string;
  readonly budgetBytes: number;
}

/** A proof kept for one request of an account (`KeptProofs.forRequest`): served by `KeptProofs.proofOf` once the page is read. */
export interface KeptEntry extends KeptProof {
  /** The request the proof was made for (its method and params, the proof's form and `since`). */
  readonly query: string;
  /** The ids of the page's messages, in order: while the log does not grow, they name its positions. */
  readonly ids: readonly number[];
  /** No longer kept (its log grew, another proof replaced it, or it was evicted): it serves nothing. */
  dropped: boolean;
  /** Served since eviction last passed it: it gets a second chance (CLOCK), and the read pays no reordering. */
  used: boolean;
}

export class KeptProofs {
  /** Per account, its last proof, in the order eviction visits them (the oldest kept first). */
  private readonly entries = new Map<string, KeptEntry>();
  /** The reads making a proof now, per account: a commit meanwhile marks them, and their proof is not kept. */
  private readonly reading = new Map<string, Set<ProofTicket>>();
  private bytes = 0;

  /** `maxBytes`: of proofs kept, at most (`--kept-proofs-mib`). */
  constructor(private readonly maxBytes: number) {}

  /**
   * The proof kept for `account` made for `query` (a request: its method and params), looked up once
   * before the page is read: the read then leaves positions out, and `proofOf` serves it.
   */
  forRequest(account: string, query: string): KeptEntry | undefined {
    const entry = this.entries.get(account);
    return entry !== undefined && entry.query === query ? entry : undefined;
  }

  /** `entry`'s proof for a page of the messages `ids`: when it is still kept (its log has not grown since) and was made for those messages. */
  proofOf(entry: KeptEntry, ids: readonly number[]): KeptProof | undefined {
    if (entry.dropped || !sameIds(entry.ids, ids)) return undefined;
    entry.used = true;
    return entry;
  }

  /** Taken before the read of the log a proof is made from; `keep` or `release` it after. */
  begin(account: string): ProofTicket {
    const ticket: ProofTicket = { account, grown: false };
    let tickets = this.reading.get(account);
    if (tickets === undefined) this.reading.set(account, (tickets = new Set()));
    tickets.add(ticket);
    return ticket;
  }

  /** Keeps `json` as `ticket`'s account's proof for `query` and the page `ids`, unless its log may have grown since the ticket was taken. */
  keep(ticket: ProofTicket, query: string, ids: readonly number[], { json, budgetBytes }: KeptProof): void {
    this.release(ticket);
    if (ticket.grown) return;
    const bytes = json.length;
    if (bytes > this.maxBytes) return;
    this.drop(ticket.account);
    this.entries.set(ticket.account, { query, ids, json, budgetBytes, dropped: false, used: false });
    this.bytes += bytes;
    // The oldest kept first; one served since gets a second chance, at the back (CLOCK): each pass
    // clears what it skips, so the loop ends. The proof just kept stays: it fits on its own.
    for (const [account, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      if (account === ticket.account) continue;
      this.entries.delete(account);
      if (entry.used) {
        entry.used = false;
        this.entries.set(account, entry);
        continue;
      }
      entry.dropped = true;
      this.bytes -= entry.json.length;
    }
  }

  release(ticket: ProofTicket): void {
    const tickets = this.reading.get(ticket.account);
    if (tickets?.delete(ticket) && tickets.size === 0) this.reading.delete(ticket.account);
  }

  /** What the commit feed tells: the logs that grew (a `resync`: any of them). */
  committed(events: readonly CommitEvent[]): void {
    for (const event of events) {
      if (event.kind === "message") for (const account of event.accounts) this.grown(account);
      else if (event.kind === "resync") {
        for (const account of [...this.entries.keys(), ...this.reading.keys()]) this.grown(account);
      }
      // "status": a copy's delivery changed, not its position or leaf.
    }
  }

  /** Bytes of proofs kept. */
  get size(): number {
    return this.bytes;
  }

  private grown(account: string): void {
    this.drop(account);
    for (const ticket of this.reading.get(account) ?? []) ticket.grown = true;
  }

  private drop(account: string): void {
    const entry = this.entries.get(account);
    if (entry === undefined) return;
    entry.dropped = true;
    this.entries.delete(account);
    this.bytes -= entry.json.length;
  }
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
