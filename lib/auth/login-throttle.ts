/**
 * Failed sign-ins (and wrong bearer secrets) allowed per minute, counted
 * across all clients: behind a proxy the client's address cannot be trusted,
 * so the limit is one budget. It slows guessing to a crawl; a locked-out
 * operator waits at most a minute.
 */
export class LoginThrottle {
  private failures: number[] = [];

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 60_000,
  ) {}

  /** Seconds until another attempt is allowed, or 0 when one is allowed now. */
  retryAfterSeconds(now = Date.now()): number {
    this.failures = this.failures.filter((at) => at > now - this.windowMs);
    if (this.failures.length < this.limit) return 0;
    return Math.ceil((this.failures[0]! + this.windowMs - now) / 1000);
  }

  recordFailure(now = Date.now()): void {
    this.failures.push(now);
  }
}
