import { isIPv6 } from "node:net";

/**
 * The client a connection or request counts against in the per-client limits: its IPv4 address, or
 * the /64 prefix of its IPv6 address (one subscriber usually gets a whole /64, and could otherwise
 * take a fresh address per connection). An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is its IPv4.
 */
export function clientKey(address: string | undefined): string {
  if (address === undefined || address === "") return "unknown";
  if (!address.includes(":") || !isIPv6(address)) return address; // IPv4 (the cheap test first: it runs per request)
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const zoneless = address.split("%", 1)[0]!.toLowerCase();
  const [head, tail = ""] = zoneless.split("::", 2) as [string, string?];
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  // An embedded IPv4 tail (`64:ff9b::1.2.3.4`) stands for two groups, both in the last 64 bits.
  const width = (groups: string[]) => groups.length + (groups.at(-1)?.includes(".") ? 1 : 0);
  const groups = zoneless.includes("::") ? [...left, ...Array<string>(Math.max(0, 8 - width(left) - width(right))).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? Number.parseInt(group, 16).toString(16) : group))
    .join(":")}::/64`;
}
