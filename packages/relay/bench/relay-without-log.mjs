// The relay without the mailbox log's rows, for the bench's "sends with the log ÷ without" (run.mjs):
// dist/main.js, with the SQLite writer's log statements made to store nothing. A copy takes no
// position (mailbox.seq NULL), and no position, leaf row, log account or tile is written; what stays
// is the rest of the send (HTTP, the sender's signature, the receipts the writer signs, the
// message and mailbox rows, the commit). A bench instrument only: its receipts bind made-up
// positions (every account is account 1 to the writer, whose count goes on in memory; no tile is
// ever completed) and its reads prove nothing. Run with the relay's own arguments; cluster workers
// re-run this file.
import { WRITER_SCHEMA } from "../dist/storage/sqlite.js";

Object.assign(WRITER_SCHEMA.sql, {
  logAccount: "SELECT 1 WHERE ? IS NOT NULL",
  lastLogged: "SELECT NULL WHERE ? IS NOT NULL",
  newestOnSide: "SELECT NULL WHERE ? IS NOT NULL AND ? IS NOT NULL",
  unloggedOnSide: "SELECT 1 AS seq, 1 AS id, NULL AS peer, NULL AS digest WHERE ? IS NULL AND ? IS NULL AND ? IS NULL AND 0",
  insertPosition: "SELECT ?, ?, ?, ?, ?",
  insertMailbox: "INSERT INTO mailbox (owner, side, id, peer, ts, json, seq) VALUES (?, ?, ?, ?, ?, ?, NULL + ?)",
});
// A tile of 2^52 positions: the writer never logs one (it would look for copies that hold no position).
WRITER_SCHEMA.tileHeight = 52;
await import("../dist/main.js");
