/**
 * One read of Redis for many requests. A dashboard is opened most during an
 * incident, by many people at once: without this every open tab costs the
 * struggling Redis one more read of the same figures each poll. Requests for
 * the same key (a connection, a resource and its parameters) while a read is
 * under way wait for that read (single-flight); requests soon after it are
 * answered with its result (a snapshot), as long as it is no older than the
 * caller accepts. A read that failed is never kept: the callers that waited
 * for it get its error, and the next caller reads again.
 */

interface SharedRead {
  /** when the read started, ms: its data is at least this fresh */
  startedAt: number;
  value: Promise<unknown>;
  settled: boolean;
}

export interface SharedReadsOptions {
  /** the oldest snapshot any caller may accept, ms: a settled read is dropped after it */
  keepMs: number;
  /** the clock, ms; Date.now unless a test moves time itself */
  now?: () => number;
}

/** What a read is of, within one connection: a resource and its parameters (a queue's name, a page's offset). */
export type SharedReadKey = readonly [resource: string, ...parameters: (string | number)[]];

export class SharedReads {
  /** per connection: each read by its key, so that nothing read on one connection answers a request for another */
  private readonly reads = new Map<string, Map<string, SharedRead>>();
  private readonly keepMs: number;
  private readonly now: () => number;

  constructor({ keepMs, now = Date.now }: SharedReadsOptions) {
    this.keepMs = keepMs;
    this.now = now;
  }

  /**
   * The value of `load()` for `key` on `connection`: the read under way for
   * it, else the last one when it succeeded and started at most `maxAgeMs`
   * ago (capped at `keepMs`), else a new read.
   */
  read<T>(connection: string, key: SharedReadKey, maxAgeMs: number, load: () => Promise<T>): Promise<T> {
    let reads = this.reads.get(connection);
    if (!reads) this.reads.set(connection, (reads = new Map()));
    const name = JSON.stringify(key);
    const current = reads.get(name);
    if (current && (!current.settled || this.now() - current.startedAt <= Math.min(maxAgeMs, this.keepMs))) return current.value as Promise<T>;
    const read: SharedRead = { startedAt: this.now(), value: load(), settled: false };
    reads.set(name, read);
    const forgetIfCurrent = () => {
      if (reads.get(name) === read) reads.delete(name);
    };
    read.value.then(() => {
      read.settled = true;
      // Dropped once no caller could accept it, so parameters seen once (a job id, page 40) do not pile up.
      setTimeout(forgetIfCurrent, this.keepMs).unref();
    }, forgetIfCurrent);
    return read.value as Promise<T>;
  }

  /**
   * Forgets every read of `connection`, those under way too: after a change
   * made through the dashboard, the next request reads what the change left,
   * not a snapshot from before it.
   */
  forget(connection: string): void {
    this.reads.delete(connection);
  }

  /** How many reads are kept or under way, over every connection. */
  get size(): number {
    let size = 0;
    for (const reads of this.reads.values()) size += reads.size;
    return size;
  }
}
