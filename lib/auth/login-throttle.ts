/**
 * Wrong secrets allowed per client address per minute, then that address
 * waits. Budgets are per client (lib/auth/client-address.ts) so that someone
 * guessing spends only their own: a stream of wrong secrets from one address
 * does not keep everyone else out. Behind a reverse proxy that is not named
 * in QUEUELENS_TRUSTED_PROXIES every client has the proxy's address and so
 * one budget, as before; a right bearer secret long enough not to be guessed
 * is accepted whatever the budget (lib/auth/credentials.ts).
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 60_000,
    /** Addresses remembered at once; past it the one that failed longest ago is forgotten, so a flood of addresses cannot fill memory. */
    private readonly maxClients = 10_000,
  ) {}

  /** Seconds until `client` may try again, or 0 when it may now. */
  retryAfterSeconds(client: string, now = Date.now()): number {
    const recent = (this.failures.get(client) ?? []).filter((at) => at > now - this.windowMs);
    if (recent.length === 0) this.failures.delete(client);
    else this.failures.set(client, recent);
    if (recent.length < this.limit) return 0;
    return Math.ceil((recent[0]! + this.windowMs - now) / 1000);
  }

  recordFailure(client: string, now = Date.now()): void {
    const recent = this.failures.get(client) ?? [];
    // Re-inserted, so that the Map's order is by latest failure and the first key is the one to forget.
    this.failures.delete(client);
    this.failures.set(client, [...recent.slice(-this.limit), now]);
    if (this.failures.size > this.maxClients) this.failures.delete(this.failures.keys().next().value!);
  }
}
