// Who a request comes from, behind reverse proxies the operator trusts (`--trust-proxy`). A proxy
// connects for many clients; it names each in `X-Forwarded-For`, appending the address it was
// connected from to whatever the client sent. So the header is read from the right: past each hop
// that is itself a trusted proxy, the first address that is not is the client. Anything left of it
// is whatever the client wrote, never believed. From a connection that is not a trusted proxy's, the
// header is ignored: anyone can send one.
import type { IncomingMessage } from "node:http";
import { BlockList, isIP, isIPv4 } from "node:net";

/** Hops of X-Forwarded-For read at most: a chain of proxies is short, a forged header is not. */
const MAX_HOPS = 16;

export interface TrustedProxies {
  /** Whether `address` (as a socket or the header gives it) is one of the trusted proxies. */
  has(address: string): boolean;
}

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** An address as the checks take it: an IPv4-mapped IPv6 address as its IPv4. */
const plain = (address: string): string => MAPPED_IPV4.exec(address)?.[1] ?? address;

/**
 * A trusted proxy as an operator writes it: an address (`127.0.0.1`, `::1`) or a CIDR block
 * (`10.0.0.0/8`, `fd00::/8`), normalised; throws a message naming what is wrong.
 */
export function parseProxyBlock(text: string): string {
  const [address = "", bits, extra] = text.split("/");
  if (extra !== undefined || isIP(address) === 0) throw new Error(`${JSON.stringify(text)} is not an IP address or a CIDR block (10.0.0.0/8, ::1)`);
  const max = isIPv4(address) ? 32 : 128;
  if (bits === undefined) return address;
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) throw new Error(`${JSON.stringify(text)}: the prefix length must be 0..${max}`);
  return `${address}/${Number(bits)}`;
}

/** The proxies of `--trust-proxy` (blocks as parseProxyBlock gives them); undefined when there are none. */
export function trustedProxies(blocks: readonly string[]): TrustedProxies | undefined {
  if (blocks.length === 0) return undefined;
  const list = new BlockList();
  for (const block of blocks) {
    const [address, bits] = block.split("/") as [string, string?];
    const type = isIPv4(address) ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return {
    has(address) {
      const ip = plain(address);
      const kind = isIP(ip);
      return kind !== 0 && list.check(ip, kind === 4 ? "ipv4" : "ipv6");
    },
  };
}

/** One hop of X-Forwarded-For as an address (a port some proxies add dropped), or undefined if it is none. */
function hopAddress(hop: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  const candidate = bracketed ? bracketed[1]! : /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(hop)?.[1] ?? hop;
  return isIP(candidate) === 0 ? undefined : plain(candidate);
}

/**
 * The address of the client a request comes from: its connection's, or, when that is a trusted
 * proxy's, the rightmost address of `X-Forwarded-For` that is not a trusted proxy (a hop that is no
 * address stops the walk at the proxy that passed it).
 */
export function clientAddress(request: IncomingMessage, trusted: TrustedProxies | undefined): string | undefined {
  const socket = request.socket.remoteAddress;
  if (trusted === undefined || socket === undefined || !trusted.has(socket)) return socket;
  const given = request.headers["x-forwarded-for"];
  // Node joins repeated X-Forwarded-For lines with ", "; its types allow an array as well.
  const header = Array.isArray(given) ? given.join(",") : given;
  if (header === undefined || header === "") return socket;
  const hops = header.split(",");
  let client = socket;
  for (let i = hops.length - 1; i >= 0 && i >= hops.length - MAX_HOPS; i--) {
    if (!trusted.has(client)) break;
    const hop = hopAddress(hops[i]!.trim());
    if (hop === undefined) break;
    client = hop;
  }
  return client;
}
