/**
 * Reads that take whole stored values (a job field's download, a key's page
 * of hash fields, list items or stream entries) have no bound on their size:
 * one 20 MB reply is 20 MB in this process until it has been sent on. They
 * run on a Redis client of their own (lib/server/queue.ts), so that no poll
 * waits behind their replies, and only a few at a time: per session, so one
 * client cannot take them all, and per process, so the memory they hold
 * stays bounded whoever asks.
 */

export interface LargeReadLimits {
  /** large reads one session (or one bearer client) may have under way at once */
  perSession: number;
  /** large reads the whole process may have under way at once */
  perProcess: number;
}

export const DEFAULT_LARGE_READ_LIMITS: LargeReadLimits = { perSession: 2, perProcess: 4 };

/** How long a client refused for a full share is told to wait before asking again. */
export const LARGE_READ_RETRY_AFTER_SECONDS = 2;

const LIMIT_VARIABLES = { perSession: 'QUEUELENS_LARGE_READS_PER_SESSION', perProcess: 'QUEUELENS_LARGE_READS_PER_PROCESS' } as const;

/**
 * The limits from QUEUELENS_LARGE_READS_PER_SESSION and
 * QUEUELENS_LARGE_READS_PER_PROCESS (unset or empty: the defaults). Throws,
 * naming the variable, for anything but a whole number of 1 or more: the
 * server refuses to start on it.
 */
export function largeReadLimitsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): LargeReadLimits {
  const limit = (field: keyof LargeReadLimits): number => {
    const text = env[LIMIT_VARIABLES[field]]?.trim();
    if (!text) return DEFAULT_LARGE_READ_LIMITS[field];
    const value = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1)
      throw new Error(`${LIMIT_VARIABLES[field]}: a whole number of reads, 1 or more (got "${text.slice(0, 40)}")`);
    return value;
  };
  return { perSession: limit('perSession'), perProcess: limit('perProcess') };
}

/** A large read's place: given up once, however often `release` is called. */
export type LargeReadSlot = { release: () => void } | { refused: 'session' | 'process' };

/** Counts the large reads under way, per holder and in all. */
export class LargeReadSlots {
  private readonly byHolder = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: LargeReadLimits = DEFAULT_LARGE_READ_LIMITS) {}

  /** A place for one large read of `holder` (a session, or a bearer client), or which limit refuses it. */
  take(holder: string): LargeReadSlot {
    const held = this.byHolder.get(holder) ?? 0;
    if (held >= this.limits.perSession) return { refused: 'session' };
    if (this.total >= this.limits.perProcess) return { refused: 'process' };
    this.byHolder.set(holder, held + 1);
    this.total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total -= 1;
        const left = (this.byHolder.get(holder) ?? 1) - 1;
        if (left === 0) this.byHolder.delete(holder);
        else this.byHolder.set(holder, left);
      },
    };
  }

  /** Large reads under way. */
  get size(): number {
    return this.total;
  }

  /** What a refused client is told: which limit, and that it may try again. */
  refusal(refused: 'session' | 'process'): string {
    const whose = refused === 'session' ? `you already have ${this.limits.perSession}` : `the server already has ${this.limits.perProcess}`;
    return `Too many large reads at once (whole values: downloads, a key's contents): ${whose} under way. Try again in a moment.`;
  }
}
