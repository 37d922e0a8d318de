import type { ClientBase } from "pg";
import { SchemaTooNewError } from "../errors.js";
import type { Migration } from "./store.js";

/**
 * The PostgreSQL schema, in order. Append new migrations; never edit an applied one.
 *
 * The tables mirror the SQLite ones (fan-out on write: `mailbox` holds each message once per side,
 * with its wire JSON, keyed by (owner, side, id) so a keyset page is one index range at any depth).
 * What differs is how ids are handed out. A sequence gives ids in the order transactions *start*,
 * but they commit in any order: a reader syncing forward with `after` could read id 8, move its
 * cursor past it, and never see id 7 committing a moment later. Here every append takes the row
 * lock of the single `id_counter` row and keeps it until it commits, so appends (from every replica)
 * commit one after another in id order: once a reader sees an id, every smaller id is visible too.
 * `neutral_append` does a whole batch in one statement, so the lock is held for one round trip.
 * The same lock hands out the positions of the mailbox log (version 7), one writer at a time.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: "messages, mailboxes, key bundles, node identity",
    sql: `
      CREATE TABLE id_counter (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        last_id bigint NOT NULL
      );
      INSERT INTO id_counter (singleton, last_id) VALUES (true, 0);

      CREATE TABLE messages (
        id bigint PRIMARY KEY,
        digest bytea NOT NULL UNIQUE,
        sender bytea NOT NULL,
        accepted_at bigint NOT NULL
      );
      CREATE TABLE mailbox (
        owner bytea NOT NULL,
        side smallint NOT NULL,
        id bigint NOT NULL,
        peer bytea NOT NULL,
        ts bigint NOT NULL,
        json text NOT NULL,
        PRIMARY KEY (owner, side, id)
      );
      CREATE INDEX mailbox_by_peer ON mailbox (owner, side, peer, id);

      CREATE TABLE key_bundles (
        account bytea PRIMARY KEY,
        key bytea NOT NULL,
        ts bigint NOT NULL,
        signature bytea NOT NULL,
        updated_at bigint NOT NULL
      );

      -- The node's signing key when no replica is given one: the first replica to start writes it,
      -- every other replica reads it, so all of them sign receipts as one node.
      CREATE TABLE node_identity (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        private_key bytea NOT NULL,
        created_at bigint NOT NULL
      );

      -- Appends a batch: for each message, the stored original if its digest is known (created =
      -- false), else a new row under the next id. Sides: 1 = received (owner is the recipient),
      -- 2 = sent. p_tails[i] is the wire JSON after its id: the row's json is {"id":"<id>" + tail.
      CREATE FUNCTION neutral_append(p_digests bytea[], p_senders bytea[], p_recipients bytea[], p_timestamps bigint[], p_tails text[], p_accepted_at bigint)
      RETURNS TABLE (stored_id bigint, stored_json text, created boolean)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        next_id bigint;
        known bigint;
        row_json text;
      BEGIN
        -- Held until commit: appends commit in id order (see the migration's comment).
        SELECT c.last_id INTO next_id FROM id_counter c WHERE c.singleton FOR UPDATE;
        FOR i IN 1 .. coalesce(array_length(p_digests, 1), 0) LOOP
          -- Under the lock no other append runs, so this lookup sees every committed digest.
          SELECT m.id INTO known FROM messages m WHERE m.digest = p_digests[i];
          IF FOUND THEN
            RETURN QUERY SELECT b.id, b.json, false FROM mailbox b WHERE b.owner = p_recipients[i] AND b.side = 1 AND b.id = known;
          ELSE
            next_id := next_id + 1;
            row_json := '{"id":"' || next_id || '"' || p_tails[i];
            INSERT INTO messages (id, digest, sender, accepted_at) VALUES (next_id, p_digests[i], p_senders[i], p_accepted_at);
            INSERT INTO mailbox (owner, side, id, peer, ts, json) VALUES
              (p_recipients[i], 1, next_id, p_senders[i], p_timestamps[i], row_json),
              (p_senders[i], 2, next_id, p_recipients[i], p_timestamps[i], row_json);
            stored_id := next_id;
            stored_json := row_json;
            created := true;
            RETURN NEXT;
          END IF;
        END LOOP;
        UPDATE id_counter SET last_id = next_id WHERE singleton;
      END
      $fn$;
    `,
  },
  {
    // Federation (issue 21), as in SQLite's version 6: a message to an account homed on another
    // node has only its sender's row (and an outbox entry, in the same transaction); one delivered
    // from another node only its recipient's. neutral_append stays for replicas not yet upgraded.
    version: 2,
    name: "federation: home records, outbox, destinations, peer pins",
    sql: `
      CREATE TABLE home_records (
        account bytea PRIMARY KEY,
        node bytea NOT NULL,
        ts bigint NOT NULL,
        signature bytea NOT NULL,
        updated_at bigint NOT NULL
      );
      CREATE TABLE outbox (
        id bigint PRIMARY KEY,
        destination bytea NOT NULL,
        lane smallint NOT NULL,
        sender bytea NOT NULL,
        created_at bigint NOT NULL
      );
      CREATE INDEX outbox_by_destination ON outbox (destination, lane, id);
      CREATE INDEX outbox_by_age ON outbox (created_at);
      CREATE TABLE destinations (
        node bytea PRIMARY KEY,
        failures integer NOT NULL,
        next_attempt_at bigint NOT NULL,
        last_error text NOT NULL
      );
      CREATE TABLE peer_pins (
        url text PRIMARY KEY,
        address bytea NOT NULL,
        pinned_at bigint NOT NULL
      );

      -- neutral_append with routes: p_routes[i] 0 = local (both rows), 1 = outbound to the node
      -- p_destinations[i] (the sender's row and an outbox entry in lane p_lanes[i]), 2 = inbound
      -- (the recipient's row).
      CREATE FUNCTION neutral_append_routed(p_digests bytea[], p_senders bytea[], p_recipients bytea[], p_timestamps bigint[], p_tails text[], p_routes smallint[], p_destinations bytea[], p_lanes smallint[], p_accepted_at bigint)
      RETURNS TABLE (stored_id bigint, stored_json text, created boolean)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        next_id bigint;
        known bigint;
        row_json text;
      BEGIN
        -- Held until commit: appends commit in id order (see version 1's comment).
        SELECT c.last_id INTO next_id FROM id_counter c WHERE c.singleton FOR UPDATE;
        FOR i IN 1 .. coalesce(array_length(p_digests, 1), 0) LOOP
          SELECT m.id INTO known FROM messages m WHERE m.digest = p_digests[i];
          IF FOUND THEN
            -- The recipient's copy, or an outbound message's only copy, the sender's.
            RETURN QUERY SELECT b.id, b.json, false FROM mailbox b
              WHERE ((b.owner = p_recipients[i] AND b.side = 1) OR (b.owner = p_senders[i] AND b.side = 2)) AND b.id = known
              ORDER BY b.side LIMIT 1;
          ELSE
            next_id := next_id + 1;
            row_json := '{"id":"' || next_id || '"' || p_tails[i];
            INSERT INTO messages (id, digest, sender, accepted_at) VALUES (next_id, p_digests[i], p_senders[i], p_accepted_at);
            IF p_routes[i] <> 1 THEN
              INSERT INTO mailbox (owner, side, id, peer, ts, json) VALUES (p_recipients[i], 1, next_id, p_senders[i], p_timestamps[i], row_json);
            END IF;
            IF p_routes[i] <> 2 THEN
              INSERT INTO mailbox (owner, side, id, peer, ts, json) VALUES (p_senders[i], 2, next_id, p_recipients[i], p_timestamps[i], row_json);
            END IF;
            IF p_routes[i] = 1 THEN
              INSERT INTO outbox (id, destination, lane, sender, created_at) VALUES (next_id, p_destinations[i], p_lanes[i], p_senders[i], p_accepted_at);
            END IF;
            stored_id := next_id;
            stored_json := row_json;
            created := true;
            RETURN NEXT;
          END IF;
        END LOOP;
        UPDATE id_counter SET last_id = next_id WHERE singleton;
      END
      $fn$;
    `,
  },
  {
    // Retention and deletion (issue 24), as SQLite's version 7: the sweep deletes a message's rows
    // by its id, which needs both owners, so `messages` gains the recipient (filled from the
    // mailbox rows; new rows get it at append). A message its owners deleted keeps its `messages`
    // row until the retention sweep, so that a resend of it is answered its original instead of
    // being stored again: version 4's neutral_append_routed rebuilds that answer when no copy is left.
    version: 3,
    name: "messages know their recipient",
    sql: `
      ALTER TABLE messages ADD COLUMN recipient bytea;
      UPDATE messages m SET recipient = b.peer FROM mailbox b WHERE b.owner = m.sender AND b.side = 2 AND b.id = m.id;
      UPDATE messages m SET recipient = b.owner FROM mailbox b WHERE m.recipient IS NULL AND b.side = 1 AND b.id = m.id AND b.peer = m.sender;
    `,
  },
  {
    // Consent (issue 24), as SQLite's version 8; messages into a recipient's requests folder are
    // mailbox rows of side 3: neutral_append_routed takes the folder as its route 3 (local) or 4
    // (delivered from another node).
    version: 4,
    name: "consent",
    sql: `
      CREATE TABLE consent (
        account bytea NOT NULL,
        peer bytea NOT NULL,
        state smallint NOT NULL,
        ts bigint NOT NULL,
        signature bytea NOT NULL,
        PRIMARY KEY (account, peer)
      );
      CREATE TABLE consent_policy (
        account bytea PRIMARY KEY,
        mode smallint NOT NULL,
        ts bigint NOT NULL,
        signature bytea NOT NULL
      );
      CREATE OR REPLACE FUNCTION neutral_append_routed(p_digests bytea[], p_senders bytea[], p_recipients bytea[], p_timestamps bigint[], p_tails text[], p_routes smallint[], p_destinations bytea[], p_lanes smallint[], p_accepted_at bigint)
      RETURNS TABLE (stored_id bigint, stored_json text, created boolean)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        next_id bigint;
        known bigint;
        row_json text;
      BEGIN
        -- Held until commit: appends commit in id order (see version 1's comment).
        SELECT c.last_id INTO next_id FROM id_counter c WHERE c.singleton FOR UPDATE;
        FOR i IN 1 .. coalesce(array_length(p_digests, 1), 0) LOOP
          SELECT m.id INTO known FROM messages m WHERE m.digest = p_digests[i];
          IF FOUND THEN
            SELECT b.json INTO row_json FROM mailbox b
              WHERE ((b.owner = p_recipients[i] AND b.side IN (1, 3)) OR (b.owner = p_senders[i] AND b.side = 2)) AND b.id = known
              ORDER BY b.side LIMIT 1;
            IF NOT FOUND THEN
              row_json := '{"id":"' || known || '"' || p_tails[i];
            END IF;
            stored_id := known;
            stored_json := row_json;
            created := false;
            RETURN NEXT;
          ELSE
            next_id := next_id + 1;
            row_json := '{"id":"' || next_id || '"' || p_tails[i];
            INSERT INTO messages (id, digest, sender, accepted_at, recipient) VALUES (next_id, p_digests[i], p_senders[i], p_accepted_at, p_recipients[i]);
            -- Routes: 0 local, 1 outbound, 2 inbound; 3 local and 4 inbound into the requests folder.
            IF p_routes[i] <> 1 THEN
              INSERT INTO mailbox (owner, side, id, peer, ts, json) VALUES (p_recipients[i], CASE WHEN p_routes[i] >= 3 THEN 3 ELSE 1 END, next_id, p_senders[i], p_timestamps[i], row_json);
            END IF;
            IF p_routes[i] IN (0, 1, 3) THEN
              INSERT INTO mailbox (owner, side, id, peer, ts, json) VALUES (p_senders[i], 2, next_id, p_recipients[i], p_timestamps[i], row_json);
            END IF;
            IF p_routes[i] = 1 THEN
              INSERT INTO outbox (id, destination, lane, sender, created_at) VALUES (next_id, p_destinations[i], p_lanes[i], p_senders[i], p_accepted_at);
            END IF;
            stored_id := next_id;
            stored_json := row_json;
            created := true;
            RETURN NEXT;
          END IF;
        END LOOP;
        UPDATE id_counter SET last_id = next_id WHERE singleton;
      END
      $fn$;
    `,
  },
  {
    // Sender-set expiry (issue 24), as SQLite's version 9: a message's end, found by the sweep
    // through its index; written in the append's own statement (postgres.ts).
    version: 5,
    name: "sender-set expiry",
    sql: `
      CREATE TABLE message_expiry (id bigint PRIMARY KEY, expires bigint NOT NULL);
      CREATE INDEX message_expiry_by_time ON message_expiry (expires);
    `,
  },
  {
    // Swept messages' digests (issue 33, finding 8), as SQLite's version 10: a message the retention
    // sweep deletes while it could still arrive again (stored within the window for deliveries: the
    // retry period and the clock skew) leaves its digest and id here, the sweep forgets them after
    // that window, and neutral_append_routed answers such a message as stored instead of storing it again.
    version: 6,
    name: "swept digests",
    sql: `
      CREATE TABLE swept_digests (digest bytea PRIMARY KEY, id bigint NOT NULL, accepted_at bigint NOT NULL);
      CREATE INDEX swept_digests_by_age ON swept_digests (accepted_at);
      CREATE OR REPLACE FUNCTION neutral_append_routed(p_digests bytea[], p_senders bytea[], p_recipients bytea[], p_timestamps bigint[], p_tails text[], p_routes smallint[], p_destinations bytea[], p_lanes smallint[], p_accepted_at bigint)
      RETURNS TABLE (stored_id bigint, stored_json text, created boolean)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        next_id bigint;
        known bigint;
        row_json text;
      BEGIN
        -- Held until commit: appends commit in id order (see version 1's comment).
        SELECT c.last_id INTO next_id FROM id_counter c WHERE c.singleton FOR UPDATE;
        FOR i IN 1 .. coalesce(array_length(p_digests, 1), 0) LOOP
          SELECT m.id INTO known FROM messages m WHERE m.digest = p_digests[i];
          IF NOT FOUND THEN
            -- Swept while it could still arrive again: answered as stored, not stored again.
            SELECT s.id INTO known FROM swept_digests s WHERE s.digest = p_digests[i];
          END IF;
          IF FOUND THEN
            SELECT b.json INTO row_json FROM mailbox b
              WHERE ((b.owner = p_recipients[i] AND b.side IN (1, 3)) OR (b.owner = p_senders[i] AND b.side = 2)) AND b.id = known
              ORDER BY b.side LIMIT 1;
            IF NOT FOUND THEN
              row_json := '{"id":"' || known || '"' || p_tails[i];
            END IF;
            stored_id := known;
            stored_json := row_json;
            created := false;
            RETURN NEXT;
          ELSE
            next_id := next_id + 1;
            row_json := '{"id":"' || next_id || '"' || p_tails[i];
            INSERT INTO messages (id, digest, sender, accepted_at, recipient) VALUES (next_id, p_digests[i], p_senders[i], p_accepted_at, p_recipients[i]);
            -- Routes: 0 local, 1 outbound, 2 inbound; 3 local and 4 inbound into the requests folder.
            IF p_routes[i] <> 1 THEN
              INSERT INTO mailbox (owner, side, id, peer, ts, json) VALUES (p_recipients[i], CASE WHEN p_routes[i] >= 3 THEN 3 ELSE 1 END, next_id, p_senders[i], p_timestamps[i], row_json);
            END IF;
            IF p_routes[i] IN (0, 1, 3) THEN
              INSERT INTO mailbox (owner, side, id, peer, ts, json) VALUES (p_senders[i], 2, next_id, p_recipients[i], p_timestamps[i], row_json);
            END IF;
            IF p_routes[i] = 1 THEN
              INSERT INTO outbox (id, destination, lane, sender, created_at) VALUES (next_id, p_destinations[i], p_lanes[i], p_senders[i], p_accepted_at);
            END IF;
            stored_id := next_id;
            stored_json := row_json;
            created := true;
            RETURN NEXT;
          END IF;
        END LOOP;
        UPDATE id_counter SET last_id = next_id WHERE singleton;
      END
      $fn$;
    `,
  },
  {
    // The verifiable mailbox, step 1: positions (protocol.md §13, openrpc.json "The verifiable
    // mailbox"). Every copy stored in an account's mailbox takes the next position `seq` of that
    // account's log (1, 2, 3, … with no gap), in the transaction that stores it, and keeps it when
    // the copy is deleted: `mailbox_log` is never deleted from. Each position keeps what its leaf
    // commits to (role, peer, digest: the digest survives the sweep that deletes the `messages` row,
    // so a deleted position can still be shown) and its leaf hash, SHA-256(0x00 ‖ leaf), leaf =
    // 0x01 ‖ owner ‖ seq (uint64 BE) ‖ role ‖ peer ‖ digest (@neutral/protocol mailboxLeafHash).
    // Role: 1 received (inbox or requests folder, sides 1 and 3), 2 sent (side 2). `mailbox.seq` is
    // the copy's position, for reads to return.
    //
    // What keeps positions gapless and unique: a position is max(seq) + 1 of the owner's log, read
    // and written by neutral_log_position, which runs only under the `id_counter` row lock (every
    // append and import takes it first and holds it to commit, see version 1's comment): one
    // writer at a time, across replicas, and each reads the log after the previous one committed
    // (every statement of a volatile function, or of a READ COMMITTED transaction, takes a new
    // snapshot). A rolled-back append takes its positions with it. (owner, seq) is the primary key,
    // so a path that forgot the lock would fail rather than number twice.
    //
    // Existing copies are numbered here, per owner in (id, received before sent) order (a message to
    // oneself: its received copy, then its sent one), set-based: one sort of the mailbox's keys
    // numbers them into the log, and one pass writes each copy's `seq`. Copies deleted before this
    // version had no position and get none. Writing `seq` rewrites every mailbox row: the indexes
    // are dropped for it and rebuilt after (sorted builds, instead of two random index insertions per
    // row), and the rows are updated in their physical order (measured on 200,000 messages: 20 s →
    // 12–14 s; on 1,000,000: 200 s → 70–90 s, on 2 cores). The old row versions are left for autovacuum, whose freed
    // space later appends reuse. mailbox.seq is NOT NULL from here: a path that stores a copy
    // without a position fails instead. neutral_append (version 1) is dropped: no code since
    // version 2 calls it, and it stores copies without a position.
    version: 7,
    name: "mailbox log positions",
    sql: `
      SET LOCAL work_mem = '128MB';
      SET LOCAL maintenance_work_mem = '256MB';
      -- No copy is stored from here to the commit, by replicas still running older code either: the id
      -- counter's lock first (as appends and imports take it: no deadlock), then the mailbox's. An
      -- append of theirs that was waiting resumes in version 6's function and fails on seq NOT NULL,
      -- stored nothing; its client's resend takes the new function.
      SELECT last_id FROM id_counter WHERE singleton FOR UPDATE;
      LOCK TABLE mailbox IN ACCESS EXCLUSIVE MODE;

      CREATE TABLE mailbox_log (
        owner bytea NOT NULL,
        seq bigint NOT NULL,
        id bigint NOT NULL,
        role smallint NOT NULL,
        peer bytea NOT NULL,
        digest bytea NOT NULL,
        leaf_hash bytea NOT NULL,
        PRIMARY KEY (owner, seq)
      );

      INSERT INTO mailbox_log (owner, seq, id, role, peer, digest, leaf_hash)
      SELECT c.owner, c.seq, c.id, c.role, c.peer, c.digest,
             sha256(decode('0001', 'hex') || c.owner || int8send(c.seq) || decode(CASE c.role WHEN 2 THEN '02' ELSE '01' END, 'hex') || c.peer || c.digest)
        FROM (SELECT b.owner, b.id, b.peer, m.digest, CASE WHEN b.side = 2 THEN 2 ELSE 1 END::smallint AS role,
                     row_number() OVER (PARTITION BY b.owner ORDER BY b.id, b.side = 2) AS seq
                FROM mailbox b JOIN messages m ON m.id = b.id) c;

      ALTER TABLE mailbox ADD COLUMN seq bigint;
      ALTER TABLE mailbox DROP CONSTRAINT mailbox_pkey;
      DROP INDEX mailbox_by_peer;
      UPDATE mailbox b SET seq = x.seq
        FROM (SELECT b2.ctid AS row_at, l.seq FROM mailbox b2
                JOIN mailbox_log l ON l.owner = b2.owner AND l.id = b2.id AND l.role = CASE WHEN b2.side = 2 THEN 2 ELSE 1 END
               ORDER BY b2.ctid) x
       WHERE b.ctid = x.row_at;
      ALTER TABLE mailbox ALTER COLUMN seq SET NOT NULL;
      ALTER TABLE mailbox ADD CONSTRAINT mailbox_pkey PRIMARY KEY (owner, side, id);
      CREATE INDEX mailbox_by_peer ON mailbox (owner, side, peer, id);

      DROP FUNCTION neutral_append(bytea[], bytea[], bytea[], bigint[], text[], bigint);

      -- The next position of p_owner's log, recorded with its leaf; answers it. Call it only under
      -- the id_counter lock (see this version's comment): that is what keeps positions gapless.
      CREATE FUNCTION neutral_log_position(p_owner bytea, p_id bigint, p_role smallint, p_peer bytea, p_digest bytea)
      RETURNS bigint
      LANGUAGE plpgsql AS $fn$
      DECLARE
        next_seq bigint;
      BEGIN
        SELECT coalesce(max(l.seq), 0) + 1 INTO next_seq FROM mailbox_log l WHERE l.owner = p_owner;
        INSERT INTO mailbox_log (owner, seq, id, role, peer, digest, leaf_hash) VALUES (p_owner, next_seq, p_id, p_role, p_peer, p_digest,
          sha256(decode('0001', 'hex') || p_owner || int8send(next_seq) || decode(CASE p_role WHEN 2 THEN '02' ELSE '01' END, 'hex') || p_peer || p_digest));
        RETURN next_seq;
      END
      $fn$;

      -- As version 6's, each copy with its position: a message to oneself takes two, received first.
      -- Same signature, so replicas not yet upgraded number their appends too (not their imports,
      -- which insert the rows themselves: those fail on seq NOT NULL until they are upgraded).
      CREATE OR REPLACE FUNCTION neutral_append_routed(p_digests bytea[], p_senders bytea[], p_recipients bytea[], p_timestamps bigint[], p_tails text[], p_routes smallint[], p_destinations bytea[], p_lanes smallint[], p_accepted_at bigint)
      RETURNS TABLE (stored_id bigint, stored_json text, created boolean)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        next_id bigint;
        known bigint;
        row_json text;
      BEGIN
        -- Held until commit: appends commit in id order (see version 1's comment), and positions are
        -- handed out one append at a time (version 7's).
        SELECT c.last_id INTO next_id FROM id_counter c WHERE c.singleton FOR UPDATE;
        FOR i IN 1 .. coalesce(array_length(p_digests, 1), 0) LOOP
          SELECT m.id INTO known FROM messages m WHERE m.digest = p_digests[i];
          IF NOT FOUND THEN
            -- Swept while it could still arrive again: answered as stored, not stored again.
            SELECT s.id INTO known FROM swept_digests s WHERE s.digest = p_digests[i];
          END IF;
          IF FOUND THEN
            SELECT b.json INTO row_json FROM mailbox b
              WHERE ((b.owner = p_recipients[i] AND b.side IN (1, 3)) OR (b.owner = p_senders[i] AND b.side = 2)) AND b.id = known
              ORDER BY b.side LIMIT 1;
            IF NOT FOUND THEN
              row_json := '{"id":"' || known || '"' || p_tails[i];
            END IF;
            stored_id := known;
            stored_json := row_json;
            created := false;
            RETURN NEXT;
          ELSE
            next_id := next_id + 1;
            row_json := '{"id":"' || next_id || '"' || p_tails[i];
            INSERT INTO messages (id, digest, sender, accepted_at, recipient) VALUES (next_id, p_digests[i], p_senders[i], p_accepted_at, p_recipients[i]);
            -- Routes: 0 local, 1 outbound, 2 inbound; 3 local and 4 inbound into the requests folder.
            IF p_routes[i] <> 1 THEN
              INSERT INTO mailbox (owner, side, id, peer, ts, json, seq) VALUES (p_recipients[i], CASE WHEN p_routes[i] >= 3 THEN 3 ELSE 1 END, next_id, p_senders[i], p_timestamps[i], row_json,
                neutral_log_position(p_recipients[i], next_id, 1::smallint, p_senders[i], p_digests[i]));
            END IF;
            IF p_routes[i] IN (0, 1, 3) THEN
              INSERT INTO mailbox (owner, side, id, peer, ts, json, seq) VALUES (p_senders[i], 2, next_id, p_recipients[i], p_timestamps[i], row_json,
                neutral_log_position(p_senders[i], next_id, 2::smallint, p_recipients[i], p_digests[i]));
            END IF;
            IF p_routes[i] = 1 THEN
              INSERT INTO outbox (id, destination, lane, sender, created_at) VALUES (next_id, p_destinations[i], p_lanes[i], p_senders[i], p_accepted_at);
            END IF;
            stored_id := next_id;
            stored_json := row_json;
            created := true;
            RETURN NEXT;
          END IF;
        END LOOP;
        UPDATE id_counter SET last_id = next_id WHERE singleton;
      END
      $fn$;
    `,
  },
  {
    // Deleted positions with their reason (issue 35, openrpc.json `LogRemoval`): a copy its account
    // deletes keeps its position (version 7), and the position now keeps the account's signed
    // request, so that the log shows the deletion was the account's. `deletion_requests` holds each
    // request once (the JSON the account signed); `log_removals` points each removed position at it,
    // written by the deleting statement itself. Copies deleted before have no request to keep.
    version: 8,
    name: "deletion reasons",
    sql: `
      CREATE TABLE deletion_requests (
        n bigserial PRIMARY KEY,
        request text NOT NULL
      );
      CREATE TABLE log_removals (
        owner bytea NOT NULL,
        seq bigint NOT NULL,
        request bigint NOT NULL,
        PRIMARY KEY (owner, seq)
      );
    `,
  },
  {
    // The log's tiles, as the SQLite writer keeps them (mailbox-log/tree.ts, TILE_HEIGHT 8): the
    // root of every whole aligned subtree of 256, 65,536, … positions, kept as its last position is
    // stored, so a root or a proof reads at most 256 leaves or tiles a level instead of every leaf
    // of the log. neutral_log_position (under the id_counter lock, as every position) now keeps
    // the tiles its position completes: level 8 from the 256 leaves, each level above from the 256
    // tiles one level down (neutral_keep_tiles; its height is a parameter so that a test can check
    // several levels on a small log). Existing logs get their tiles here, every account's in
    // position order (neutral_backfill_tiles).
    version: 9,
    name: "mailbox log tiles",
    sql: `
      CREATE TABLE log_tiles (
        owner bytea NOT NULL,
        level smallint NOT NULL,
        idx bigint NOT NULL,
        hash bytea NOT NULL,
        PRIMARY KEY (owner, level, idx)
      );

      -- The RFC 9162 root of a whole subtree from its 2^k node hashes (leaf hashes or tiles).
      CREATE FUNCTION neutral_subtree_root(p_hashes bytea[])
      RETURNS bytea
      LANGUAGE plpgsql IMMUTABLE AS $fn$
      DECLARE
        nodes bytea[] := p_hashes;
        parents bytea[];
        n int := coalesce(array_length(p_hashes, 1), 0);
      BEGIN
        IF n = 0 OR n & (n - 1) <> 0 THEN
          RAISE EXCEPTION 'neutral_subtree_root: % hashes, not a power of two', n;
        END IF;
        WHILE n > 1 LOOP
          parents := ARRAY[]::bytea[];
          FOR i IN 1 .. n / 2 LOOP
            parents := parents || sha256(decode('01', 'hex') || nodes[2 * i - 1] || nodes[2 * i]);
          END LOOP;
          nodes := parents;
          n := n / 2;
        END LOOP;
        RETURN nodes[1];
      END
      $fn$;

      -- Keeps the tiles position p_seq of p_owner's log completes (tiles of p_height levels).
      CREATE FUNCTION neutral_keep_tiles(p_owner bytea, p_seq bigint, p_height int)
      RETURNS void
      LANGUAGE plpgsql AS $fn$
      DECLARE
        width bigint := 1::bigint << p_height;
        v_level int := p_height;
        v_idx bigint;
        below bytea[];
      BEGIN
        IF p_seq % width <> 0 THEN
          RETURN;
        END IF;
        SELECT array_agg(l.leaf_hash ORDER BY l.seq) INTO below FROM mailbox_log l WHERE l.owner = p_owner AND l.seq > p_seq - width AND l.seq <= p_seq;
        LOOP
          v_idx := p_seq / (1::bigint << v_level) - 1;
          INSERT INTO log_tiles (owner, level, idx, hash) VALUES (p_owner, v_level, v_idx, neutral_subtree_root(below)) ON CONFLICT DO NOTHING;
          EXIT WHEN p_seq % (1::bigint << (v_level + p_height)) <> 0;
          SELECT array_agg(t.hash ORDER BY t.idx) INTO below FROM log_tiles t
            WHERE t.owner = p_owner AND t.level = v_level AND t.idx >= v_idx + 1 - width AND t.idx < v_idx + 1;
          v_level := v_level + p_height;
        END LOOP;
      END
      $fn$;

      -- Every account's tiles of height p_height, in position order (a tile above needs those below).
      CREATE FUNCTION neutral_backfill_tiles(p_height int)
      RETURNS void
      LANGUAGE plpgsql AS $fn$
      DECLARE
        r record;
      BEGIN
        FOR r IN
          SELECT o.owner, s.seq FROM (SELECT owner, max(seq) AS last FROM mailbox_log GROUP BY owner) o,
            generate_series(1::bigint << p_height, o.last, 1::bigint << p_height) AS s(seq)
          ORDER BY o.owner, s.seq
        LOOP
          PERFORM neutral_keep_tiles(r.owner, r.seq, p_height);
        END LOOP;
      END
      $fn$;

      CREATE OR REPLACE FUNCTION neutral_log_position(p_owner bytea, p_id bigint, p_role smallint, p_peer bytea, p_digest bytea)
      RETURNS bigint
      LANGUAGE plpgsql AS $fn$
      DECLARE
        next_seq bigint;
      BEGIN
        SELECT coalesce(max(l.seq), 0) + 1 INTO next_seq FROM mailbox_log l WHERE l.owner = p_owner;
        INSERT INTO mailbox_log (owner, seq, id, role, peer, digest, leaf_hash) VALUES (p_owner, next_seq, p_id, p_role, p_peer, p_digest,
          sha256(decode('0001', 'hex') || p_owner || int8send(next_seq) || decode(CASE p_role WHEN 2 THEN '02' ELSE '01' END, 'hex') || p_peer || p_digest));
        IF next_seq % 256 = 0 THEN
          PERFORM neutral_keep_tiles(p_owner, next_seq, 8);
        END IF;
        RETURN next_seq;
      END
      $fn$;

      -- No position is stored from here to the commit (appends and imports take this lock first).
      SELECT last_id FROM id_counter WHERE singleton FOR UPDATE;
      SELECT neutral_backfill_tiles(8);
    `,
  },
  {
    // Expiry and retention reasons (issue 35, openrpc.json `LogExpiry`, `LogRetention`), as SQLite's
    // version 13: a message its sender's end removes keeps, by its id, its parties, timestamp, end and body's
    // keccak-256 (written by the sweep's own transaction); the retention sweep keeps its floor, one
    // row: a position whose message id is below it went by the retention.
    version: 10,
    name: "expiry and retention reasons",
    sql: `
      CREATE TABLE expired_messages (
        id bigint PRIMARY KEY,
        sender bytea NOT NULL,
        recipient bytea NOT NULL,
        ts bigint NOT NULL,
        expires bigint NOT NULL,
        message_hash bytea NOT NULL
      );
      CREATE TABLE retention_floor (
        n smallint PRIMARY KEY CHECK (n = 1),
        below bigint NOT NULL
      );
    `,
  },
  {
    // An account's log at its former homes (openrpc.json `LogPage.prior`), as SQLite's version 14:
    // the head each import brought, signed by that node, the largest per node; `n` keeps the order
    // heads were first given in.
    version: 11,
    name: "prior heads",
    sql: `
      CREATE TABLE prior_heads (
        account bytea NOT NULL,
        node bytea NOT NULL,
        size bigint NOT NULL,
        n integer NOT NULL,
        head text NOT NULL,
        PRIMARY KEY (account, node)
      );
    `,
  },
  {
    // Tiles of 16 positions, as SQLite's version 15 (mailbox-log/tree.ts TILE_HEIGHT 4, was 8): a
    // proof reads at most 16 leaves or tiles a level. A position that completes 16 now keeps its
    // tiles of height 4 (levels 4, 8, 12, …; those of levels 8, 16, … are the same as before), and
    // existing logs get theirs, under the id_counter lock as every position.
    version: 12,
    name: "mailbox log tiles of 16",
    sql: `
      CREATE OR REPLACE FUNCTION neutral_log_position(p_owner bytea, p_id bigint, p_role smallint, p_peer bytea, p_digest bytea)
      RETURNS bigint
      LANGUAGE plpgsql AS $fn$
      DECLARE
        next_seq bigint;
      BEGIN
        SELECT coalesce(max(l.seq), 0) + 1 INTO next_seq FROM mailbox_log l WHERE l.owner = p_owner;
        INSERT INTO mailbox_log (owner, seq, id, role, peer, digest, leaf_hash) VALUES (p_owner, next_seq, p_id, p_role, p_peer, p_digest,
          sha256(decode('0001', 'hex') || p_owner || int8send(next_seq) || decode(CASE p_role WHEN 2 THEN '02' ELSE '01' END, 'hex') || p_peer || p_digest));
        IF next_seq % 16 = 0 THEN
          PERFORM neutral_keep_tiles(p_owner, next_seq, 4);
        END IF;
        RETURN next_seq;
      END
      $fn$;

      SELECT last_id FROM id_counter WHERE singleton FOR UPDATE;
      SELECT neutral_backfill_tiles(4);
    `,
  },
  {
    // Receipts bound to positions (spec 3.0.0, EIP-712 `LogReceipt`): the node's receipts of a message
    // it stores are signed over the positions its copies take, and the JSON carries them, so the JSON
    // can only be written once the positions are known, in the same transaction. The append is then
    // a client-side transaction of two statements on one connection (postgres.ts `appendSigned`):
    // this function, under the id_counter lock it holds to the commit, finds the known digests (as
    // neutral_append_routed), takes the new messages' ids and positions and writes everything but
    // their mailbox rows; the node signs; the second statement writes the rows with their JSON.
    // Per message it answers the id, whether it is new, and: a new one's positions (its
    // recipient's copy first, as neutral_append_routed numbers them); a known one's stored JSON, or,
    // when no copy is left (deleted, swept), the positions its copies took (the log keeps them, the
    // newest first: a resend is of a recent message), for its receipts to be signed again the same
    // (RFC 6979). A digest twice in one batch: the second finds the first's row, no copy yet, and
    // its positions. neutral_append_routed stays, for the batches whose receipts are all given and
    // for replicas not yet upgraded.
    version: 13,
    name: "appends that sign receipts over positions",
    sql: `
      CREATE FUNCTION neutral_append_positions(p_digests bytea[], p_senders bytea[], p_recipients bytea[], p_routes smallint[], p_destinations bytea[], p_lanes smallint[], p_expires bigint[], p_accepted_at bigint)
      RETURNS TABLE (stored_id bigint, created boolean, stored_json text, sender_seq bigint, receiver_seq bigint)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        next_id bigint;
        known bigint;
      BEGIN
        -- Held until commit, past this statement (see version 1's and version 7's comments).
        SELECT c.last_id INTO next_id FROM id_counter c WHERE c.singleton FOR UPDATE;
        FOR i IN 1 .. coalesce(array_length(p_digests, 1), 0) LOOP
          stored_json := NULL;
          sender_seq := NULL;
          receiver_seq := NULL;
          SELECT m.id INTO known FROM messages m WHERE m.digest = p_digests[i];
          IF NOT FOUND THEN
            SELECT s.id INTO known FROM swept_digests s WHERE s.digest = p_digests[i];
          END IF;
          IF FOUND THEN
            stored_id := known;
            created := false;
            SELECT b.json INTO stored_json FROM mailbox b
              WHERE ((b.owner = p_recipients[i] AND b.side IN (1, 3)) OR (b.owner = p_senders[i] AND b.side = 2)) AND b.id = known
              ORDER BY b.side LIMIT 1;
            IF NOT FOUND THEN
              IF p_routes[i] <> 1 THEN
                SELECT l.seq INTO receiver_seq FROM mailbox_log l WHERE l.owner = p_recipients[i] AND l.id = known AND l.role = 1 ORDER BY l.seq DESC LIMIT 1;
              END IF;
              IF p_routes[i] IN (0, 1, 3) THEN
                SELECT l.seq INTO sender_seq FROM mailbox_log l WHERE l.owner = p_senders[i] AND l.id = known AND l.role = 2 ORDER BY l.seq DESC LIMIT 1;
              END IF;
            END IF;
            RETURN NEXT;
          ELSE
            next_id := next_id + 1;
            INSERT INTO messages (id, digest, sender, accepted_at, recipient) VALUES (next_id, p_digests[i], p_senders[i], p_accepted_at, p_recipients[i]);
            -- Routes: 0 local, 1 outbound, 2 inbound; 3 local and 4 inbound into the requests folder.
            IF p_routes[i] <> 1 THEN
              receiver_seq := neutral_log_position(p_recipients[i], next_id, 1::smallint, p_senders[i], p_digests[i]);
            END IF;
            IF p_routes[i] IN (0, 1, 3) THEN
              sender_seq := neutral_log_position(p_senders[i], next_id, 2::smallint, p_recipients[i], p_digests[i]);
            END IF;
            IF p_routes[i] = 1 THEN
              INSERT INTO outbox (id, destination, lane, sender, created_at) VALUES (next_id, p_destinations[i], p_lanes[i], p_senders[i], p_accepted_at);
            END IF;
            IF p_expires[i] IS NOT NULL THEN
              INSERT INTO message_expiry (id, expires) VALUES (next_id, p_expires[i]);
            END IF;
            stored_id := next_id;
            created := true;
            RETURN NEXT;
          END IF;
        END LOOP;
        UPDATE id_counter SET last_id = next_id WHERE singleton;
      END
      $fn$;
    `,
  },
  {
    // The retention a removal states (openrpc.json `LogRetention.retentionSeconds`, spec 3.2.0), as
    // SQLite's version 16: the least the sweep's floor was raised under; none for a floor raised before.
    version: 14,
    name: "the retention the floor was raised under",
    sql: "ALTER TABLE retention_floor ADD COLUMN retention_seconds bigint;",
  },
];

/** The highest schema version this code knows; a database beyond it was written by newer software. */
export const latestSchemaVersion = migrations[migrations.length - 1]!.version;

/**
 * Any 64-bit number, the same in every replica: the advisory lock that serializes migrations.
 * (ASCII "neutral" + 1.)
 */
const MIGRATION_LOCK = 0x6e65757472616c01n;

/**
 * Applies the migrations not yet applied, all in one transaction under a transaction-scoped
 * advisory lock: replicas starting at once queue on the lock, and the second finds everything
 * done. Returns the versions applied; throws if the database is newer than this code.
 */
export async function migrate(client: ClientBase): Promise<number[]> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK.toString()]);
    await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)");
    const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_migrations");
    const done = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...done);
    if (newest > latestSchemaVersion) {
      throw new SchemaTooNewError("the database", newest, latestSchemaVersion);
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [migration.version, migration.name, Date.now()]);
      applied.push(migration.version);
    }
    await client.query("COMMIT");
    return applied;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** The newest applied version (0 for an empty database). Throws if it is newer than this code. */
export async function checkSchemaVersion(client: ClientBase): Promise<number> {
  const exists = await client.query<{ table: string | null }>("SELECT to_regclass('schema_migrations')::text AS table");
  if (exists.rows[0]?.table == null) return 0;
  const { rows } = await client.query<{ v: number | null }>("SELECT max(version) AS v FROM schema_migrations");
  const version = rows[0]?.v ?? 0;
  if (version > latestSchemaVersion) throw new SchemaTooNewError("the database", version, latestSchemaVersion);
  return version;
}
