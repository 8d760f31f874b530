/**
 * Who a request comes from, for the per-client sign-in budgets. The socket's
 * peer is the client unless it is a reverse proxy the operator named in
 * QUEUELENS_TRUSTED_PROXIES; then the client is the address that proxy put
 * last in X-Forwarded-For, and so on back through every trusted proxy. An
 * X-Forwarded-For from anyone else is ignored: a guesser could otherwise
 * claim a fresh address with every request.
 */

/** The request header the server sets to the client address (instrumentation-node.ts), overwriting any a client sent. */
export const CLIENT_ADDRESS_HEADER = 'x-queuelens-client-address';

/** An address as compared: lower case, without an IPv4-mapped IPv6 wrapper (`::ffff:10.0.0.2` is 10.0.0.2) or brackets. */
export function canonicalAddress(address: string): string {
  return address
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
}

/**
 * The client of a request that reached the server from `peer` carrying
 * `forwardedFor` (every X-Forwarded-For header, joined by commas).
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, trustedProxies: readonly string[]): string {
  let client = canonicalAddress(peer ?? 'unknown');
  const hops = (forwardedFor ?? '').split(',').map(canonicalAddress).filter(Boolean);
  while (trustedProxies.includes(client) && hops.length > 0) client = hops.pop()!;
  return client;
}
