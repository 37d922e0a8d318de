// The SIWE domains a node accepts in tokens. A domain is the `host[:port]` a client signed in to; a
// node reached on loopback is the same machine whichever loopback name the client used, so a token
// for `localhost:8645` is accepted by a node listening on `127.0.0.1:8645`, and the other way round.

/** The loopback names of one machine, as SIWE domains write hosts (an IPv6 address in brackets). */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** Interfaces that include loopback: a node listening there is reached on loopback too. */
const WILDCARD_HOSTS = new Set(["0.0.0.0", "[::]"]);

/** A domain's host and port (`""` without one): `host:port`, `[v6]:port`, or a bare host. */
function split(domain: string): { host: string; port: string } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(domain);
  return match ? { host: match[1]!.toLowerCase(), port: match[2] ?? "" } : { host: domain.toLowerCase(), port: "" };
}

const isLoopback = (host: string) => host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/**
 * The domains a node serves, from those it was given (or its default `HOST:PORT`): each as given,
 * then, for one on a loopback or wildcard host, the machine's other loopback names at its port.
 * Order kept, each once.
 */
export function servedDomains(domains: readonly string[]): string[] {
  const served = new Set<string>();
  for (const domain of domains) {
    served.add(domain);
    const { host, port } = split(domain);
    if (isLoopback(host) || WILDCARD_HOSTS.has(host)) for (const name of LOOPBACK_NAMES) served.add(port === "" ? name : `${name}:${port}`);
  }
  return [...served];
}

/** How many of a node's domains a refusal lists at most (a node may be given many). */
const LISTED = 10;

/** What a refused token's reason adds: the domains the node serves, so that the user sees which to sign in to. */
export function describeServedDomains(domains: readonly string[]): string {
  const listed = domains.slice(0, LISTED).join(", ");
  return domains.length > LISTED ? `${listed} and ${domains.length - LISTED} more` : listed;
}
