import type { ServerResponse } from 'node:http';

/**
 * Stopping the HTTP server without resetting a connection a client already
 * opened. Closing the listening socket at once (what Next.js does on
 * SIGTERM) resets every connection still waiting in the kernel's accept
 * queue, though its client has sent its request. Draining instead keeps
 * accepting and answers everything that arrives, each response with
 * `Connection: close` so that no client sends another on the same
 * connection, and finishes once nothing is in flight and no connection has
 * arrived for a quiet spell, or after a deadline whatever is left.
 */
export class GracefulDrain {
  private readonly inFlight = new Set<ServerResponse>();
  private lastArrival = 0;
  private draining = false;

  constructor(
    private readonly quietMs = 500,
    private readonly deadlineMs = 10_000,
  ) {}

  /** A connection was accepted. */
  connectionArrived(nowMs = Date.now()): void {
    this.lastArrival = nowMs;
  }

  /** A request arrived on a connection; its response is tracked until it has been sent. */
  requestStarted(response: ServerResponse, nowMs = Date.now()): void {
    this.lastArrival = nowMs;
    this.inFlight.add(response);
    if (this.draining) response.shouldKeepAlive = false;
    response.once('close', () => this.inFlight.delete(response));
  }

  /** Resolves once every request that arrived has been answered and none arrived for the quiet spell, or at the deadline. */
  drain(): Promise<void> {
    this.draining = true;
    for (const response of this.inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
    const deadline = Date.now() + this.deadlineMs;
    return new Promise((resolve) => {
      const check = () => {
        const now = Date.now();
        if (now >= deadline) return resolve();
        const quietFor = now - this.lastArrival;
        if (this.inFlight.size === 0 && quietFor >= this.quietMs) {
          // A timer can fire before the event loop has accepted connections that arrived while it was busy:
          // setImmediate runs after that poll phase, and looks again.
          return setImmediate(() => (this.inFlight.size === 0 && Date.now() - this.lastArrival >= this.quietMs ? resolve() : check()));
        }
        setTimeout(check, Math.max(10, Math.min(this.quietMs - quietFor, 100)));
      };
      check();
    });
  }
}
