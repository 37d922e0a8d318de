// neutralService_nodeInfo: what this node is, and its limits.
import type { Handlers, NodeInfo, Peer } from "@neutral/server/neutral-service";
import type { RelayContext, Rpc } from "./context.js";

export function nodeInfoHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_nodeInfo"> {
  return {
    neutralService_nodeInfo(): NodeInfo {
      return {
        address: rpc.nodeAddress,
        software: rpc.software.name,
        version: rpc.software.version,
        domains: [...rpc.domains()],
        limits: { ...rpc.limits, deliveryWaitMs: rpc.delivery.deliveryWaitMs, retryPeriodSeconds: rpc.delivery.retryPeriodSeconds, ...rpc.live?.limits },
        url: rpc.publicUrl(),
        peers: (rpc.federation?.peers.list() ?? []) as Peer[],
      };
    },
  };
}
