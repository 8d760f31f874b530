/**
 * What every viewer of a connection shares, read once per sampler tick
 * instead of once per request: a dashboard is opened most during an
 * incident, by many people at once, and the figures of every queue cost
 * Redis the same for one viewer as for fifty. The sampler's loop calls
 * refresh() every tick; requests take current(), and a change made through
 * the dashboard calls refreshOnly() with what it touched (refresh() when it
 * cannot say) and waits for it, so that the page loaded after it shows what
 * it did.
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

/**
 * Reads again only the parts of the kept value named by `names` (the queues a
 * change touched) and returns the kept value with them replaced; null when it
 * cannot (a name the kept value does not have): the whole value is read then.
 */
export type PartRead<T> = (kept: T, names: readonly string[]) => Promise<T | null>;

/** What a read asked for reads: everything (null), or only these names. */
type Wanted = Set<string> | null;

/** A read's outcome, and whether it read everything. */
interface Read<T> {
  latest: Tick<T>;
  every: boolean;
}

export class LatestTick<T> {
  private state: TickState<T> = { latest: null, failure: null };
  /** the read under way, and whether it reads everything */
  private running: { done: Promise<void>; every: boolean } | undefined;
  /** how long the last read of everything took, ms */
  private lastReadMs = 0;
  /**
   * The read asked for while another ran: it starts when that one ends, so
   * it sees every change made before it was asked. Whoever asks meanwhile
   * shares it, and widens what it reads to what they need.
   */
  private queued: { wanted: Wanted; done: Promise<void> } | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly now: () => number = Date.now,
    private readonly readPart?: PartRead<T>,
  ) {}

  /**
   * A new read of everything, started after this call (after the read under
   * way, which may have begun before a change its caller just made). Callers
   * that ask while one is waiting to start share it. Never rejects: a
   * failure is kept in the state, beside the last value that was read.
   */
  refresh(): Promise<void> {
    return this.ask(null);
  }

  /**
   * refresh() for a change that touched only `names`: they are read again and
   * merged into the kept value, which keeps its `readAt` (the rest is as old
   * as it was). Without a kept value or a part reader, or when the part
   * reader cannot, everything is read. Reads never overlap: one that began
   * before the call ends first, so neither overwrites the other's newer figures.
   */
  refreshOnly(names: readonly string[]): Promise<void> {
    return this.ask(this.readPart ? new Set(names) : null);
  }

  private ask(wanted: Wanted): Promise<void> {
    const queued = this.queued;
    if (queued) {
      if (wanted === null) queued.wanted = null;
      else for (const name of wanted) queued.wanted?.add(name);
      return queued.done;
    }
    if (!this.running) return this.start(wanted);
    const next: { wanted: Wanted; done: Promise<void> } = {
      wanted,
      done: this.running.done.then(() => {
        this.queued = undefined;
        return this.start(next.wanted);
      }),
    };
    this.queued = next;
    return next.done;
  }

  private start(wanted: Wanted): Promise<void> {
    const readAt = this.now();
    const kept = this.state.latest;
    const readPart = this.readPart;
    const every = wanted === null || kept === null || readPart === undefined;
    const reading: Promise<Read<T>> = every
      ? this.readEvery(readAt)
      : // Reads never overlap, so `kept` is still the latest when the part read ends.
        (async () => readPart(kept.value, [...wanted]))().then((value): Read<T> | Promise<Read<T>> =>
          value === null ? this.readEvery(readAt) : { latest: { value, readAt: kept.readAt }, every: false },
        );
    const done: Promise<void> = reading
      .then(
        (read) => {
          // A part read leaves a failed read of everything standing: the other figures are still that old.
          this.state = { latest: read.latest, failure: read.every ? null : this.state.failure };
        },
        (error: unknown) => {
          this.state = { latest: this.state.latest, failure: { error, at: readAt } };
        },
      )
      .finally(() => {
        if (this.running?.done === done) this.running = undefined;
      });
    this.running = { done, every };
    return done;
  }

  private async readEvery(readAt: number): Promise<Read<T>> {
    try {
      return { latest: { value: await this.read(), readAt }, every: true };
    } finally {
      this.lastReadMs = this.now() - readAt;
    }
  }

  /** The state as the last read left it, without reading. */
  get settled(): TickState<T> {
    return this.state;
  }

  /**
   * The latest tick's state, at once while the last read of everything
   * (done or failed) started at most `maxAgeMs` ago, give or take twice its
   * own length (the loop's next tick is on its way). Otherwise (before the
   * first tick, or when the ticks stopped) it waits for the read of
   * everything under way or starts one, so a viewer never gets figures much
   * older than `maxAgeMs` while Redis answers, and never waits for a read
   * while the loop keeps up.
   */
  async current(maxAgeMs: number): Promise<TickState<T>> {
    const lastTried = Math.max(this.state.latest?.readAt ?? -Infinity, this.state.failure?.at ?? -Infinity);
    if (this.now() - lastTried > maxAgeMs + 2 * this.lastReadMs) await (this.running?.every ? this.running.done : this.refresh());
    return this.state;
  }
}

// On globalThis: the sampler starts in the server's instrumentation and the
// routes are bundled apart, but they run in one process and must share the ticks.
const cache = globalThis as typeof globalThis & { queuelensLatestTicks?: Map<string, LatestTick<unknown>> };

/**
 * The ticks of `resource` on `connection` (its name), made on first use with
 * `read` (and `readPart`, to read again only what a change touched); whoever
 * comes second (the sampler or a request) shares it.
 */
export function latestTickOf<T>(connection: string, resource: string, read: () => Promise<T>, readPart?: PartRead<T>): LatestTick<T> {
  const ticks = (cache.queuelensLatestTicks ??= new Map());
  const name = `${connection}\n${resource}`;
  let tick = ticks.get(name) as LatestTick<T> | undefined;
  if (!tick) ticks.set(name, (tick = new LatestTick(read, Date.now, readPart)));
  return tick;
}

/** `connection`'s tick of `resource` where one was made, without making one (which needs its read, and so its layout). */
export function existingTickOf<T>(connection: string, resource: string): LatestTick<T> | undefined {
  return cache.queuelensLatestTicks?.get(`${connection}\n${resource}`) as LatestTick<T> | undefined;
}

/** The ticks of `connection` kept so far, so a change made through the dashboard refreshes each of them (what it touched of them). */
export function latestTicksOf(connection: string): LatestTick<unknown>[] {
  return [...(cache.queuelensLatestTicks ?? new Map<string, LatestTick<unknown>>()).entries()]
    .filter(([name]) => name.startsWith(`${connection}\n`))
    .map(([, tick]) => tick);
}
