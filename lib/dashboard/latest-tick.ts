/**
 * What every viewer of a connection shares, read once per sampler tick
 * instead of once per request: a dashboard is opened most during an
 * incident, by many people at once, and the figures of every queue cost
 * Redis the same for one viewer as for fifty. The sampler's loop calls
 * refresh() every tick; requests take current(), and a change made through
 * the dashboard calls refresh() and waits for it, so that the page loaded
 * after it shows what it did.
 */

/** One tick's read: its value and when it started (the data is at least that fresh), ms. */
export interface Tick<T> {
  value: T;
  readAt: number;
}

/** The latest tick that read, and the latest that failed when it came after it. */
export interface TickState<T> {
  /** null until a read has succeeded */
  latest: Tick<T> | null;
  /** the error of the last read and when it started, when that read failed: `latest` is older than it */
  failure: { error: unknown; at: number } | null;
}

export class LatestTick<T> {
  private state: TickState<T> = { latest: null, failure: null };
  /** the read under way */
  private running: Promise<void> | undefined;
  /** how long the last read took, ms */
  private lastReadMs = 0;
  /** the read asked for while another ran: it starts when that one ends, so it sees every change made before it was asked */
  private queued: Promise<void> | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A new read, started after this call (after the read under way, which
   * may have begun before a change its caller just made). Callers that ask
   * while one is waiting to start share it. Never rejects: a failure is kept
   * in the state, beside the last value that was read.
   */
  refresh(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    const queued = this.running.then(() => {
      this.queued = undefined;
      return this.start();
    });
    this.queued = queued;
    return queued;
  }

  private start(): Promise<void> {
    const readAt = this.now();
    const ended = () => (this.lastReadMs = this.now() - readAt);
    const running: Promise<void> = (async () => this.read())()
      .then(
        (value) => {
          ended();
          this.state = { latest: { value, readAt }, failure: null };
        },
        (error: unknown) => {
          ended();
          this.state = { latest: this.state.latest, failure: { error, at: readAt } };
        },
      )
      .finally(() => {
        if (this.running === running) this.running = undefined;
      });
    this.running = running;
    return running;
  }

  /** The state as the last read left it, without reading. */
  get settled(): TickState<T> {
    return this.state;
  }

  /**
   * The latest tick's state, at once while the last read (done or failed)
   * started at most `maxAgeMs` ago, give or take twice its own length (the
   * loop's next tick is on its way). Otherwise (before the first tick, or
   * when the ticks stopped) it waits for the read under way or starts one,
   * so a viewer never gets figures much older than `maxAgeMs` while Redis
   * answers, and never waits for a read while the loop keeps up.
   */
  async current(maxAgeMs: number): Promise<TickState<T>> {
    const lastTried = Math.max(this.state.latest?.readAt ?? -Infinity, this.state.failure?.at ?? -Infinity);
    if (this.now() - lastTried > maxAgeMs + 2 * this.lastReadMs) await (this.running ?? this.refresh());
    return this.state;
  }
}

// On globalThis: the sampler starts in the server's instrumentation and the
// routes are bundled apart, but they run in one process and must share the ticks.
const cache = globalThis as typeof globalThis & { queuelensLatestTicks?: Map<string, LatestTick<unknown>> };

/**
 * The ticks of `resource` on `connection` (its name), made on first use with
 * `read`; whoever comes second (the sampler or a request) shares it.
 */
export function latestTickOf<T>(connection: string, resource: string, read: () => Promise<T>): LatestTick<T> {
  const ticks = (cache.queuelensLatestTicks ??= new Map());
  const name = `${connection}\n${resource}`;
  let tick = ticks.get(name) as LatestTick<T> | undefined;
  if (!tick) ticks.set(name, (tick = new LatestTick(read)));
  return tick;
}

/** The ticks of `connection` kept so far, so a change made through the dashboard refreshes each of them. */
export function latestTicksOf(connection: string): LatestTick<unknown>[] {
  return [...(cache.queuelensLatestTicks ?? new Map<string, LatestTick<unknown>>()).entries()]
    .filter(([name]) => name.startsWith(`${connection}\n`))
    .map(([, tick]) => tick);
}
