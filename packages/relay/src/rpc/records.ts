// The records an account signs about itself: its key bundle (publishKey, getKey) and its home
// record (publishHome, getHome), each checked by the one signed-record check.
import { RpcError } from "@neutral/server";
import type { Handlers, HomeRecord, KeyBundle } from "@neutral/server/neutral-service";
import { keyBundleDigest } from "../crypto/eip712.js";
import { isXOnlyPublicKey } from "../crypto/secp256k1.js";
import { homeDigest } from "../federation/records.js";
import { checkSignedRecord, type RelayContext, type Rpc } from "./context.js";

export function recordHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_publishKey" | "neutralService_getKey" | "neutralService_publishHome" | "neutralService_getHome"> {
  const { store, federation, nodeAddress } = rpc;
  return {
    async neutralService_publishKey({ bundle }, { auth }): Promise<KeyBundle> {
      // The params first (the schema checked the shape; the key must also be a point), then the record's check.
      const key = bundle.key.toLowerCase();
      if (!isXOnlyPublicKey(key)) {
        throw RpcError.invalidParams("bundle.key", "is not an x-only secp256k1 public key (the x coordinate of a point on the curve)", {
          param: "bundle",
          path: "/key",
        });
      }
      const account = checkSignedRecord(rpc, auth, "bundle", bundle, (account) => keyBundleDigest({ account, key, timestamp: bundle.timestamp }));
      return store.putKeyBundle({ account, key, timestamp: bundle.timestamp, signature: bundle.signature.toLowerCase() });
    },

    async neutralService_getKey({ account }): Promise<KeyBundle | null> {
      const id = account.toLowerCase();
      return ((federation ? await federation.directory.key(id) : await store.getKeyBundle(id)) ?? null) as KeyBundle | null;
    },

    async neutralService_publishHome({ record }, { auth }): Promise<HomeRecord> {
      // The params first (this node must be the one named), then the record's check.
      const node = record.node.toLowerCase();
      if (node !== nodeAddress) {
        throw RpcError.invalidParams("record.node", `names ${node}; this node is ${nodeAddress}: publish a home record at the node it names`, { param: "record", path: "/node" });
      }
      const account = checkSignedRecord(rpc, auth, "record", record, (account) => homeDigest({ account, node, timestamp: record.timestamp }));
      const signed = { account, node, timestamp: record.timestamp, signature: record.signature.toLowerCase() };
      const current = await store.putHomeRecord(signed);
      federation?.directory.forget(account);
      // A node that was this account's home stops taking its messages once it hears of this one.
      if (current.signature === signed.signature && federation?.enabled) federation.directory.announce(current);
      return current as HomeRecord;
    },

    async neutralService_getHome({ account }): Promise<HomeRecord | null> {
      const id = account.toLowerCase();
      return ((federation ? await federation.directory.home(id) : await store.getHomeRecord(id)) ?? null) as HomeRecord | null;
    },
  };
}
