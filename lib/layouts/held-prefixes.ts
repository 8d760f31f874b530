import type { RedisConnection } from '../redis/connection';

/** A held prefix: the first bytes of a value longer than the read that brought them, and the value's length then. */
interface Held {
  bytes: number;
  prefix: Buffer;
  readAtMs: number;
}

/** One read of a job hash by lua/shared/read-job-1.lua: its arguments, and how its reply's prefixes are completed and kept. */
export interface HeldForRead {
  /** the script's key and arguments: the hash, the limit, the field cap, and the (field, length) pairs it may leave out */
  call: { job: string; limit: number; maxFields: number; heldLengths: string[] };
  /** A field's prefix: the one the script read (kept when the value is longer than the limit), or, when it left it out, the one held. */
  fill(name: string, bytes: number, prefix: Buffer | null): Buffer;
}

/** How long a held prefix is trusted: a value rewritten at the same length shows its old first bytes at most this long. */
const HOLD_MS = 60_000;
/** Prefixes held per Redis connection at most (64 KiB each: 4 MiB); the one read longest ago goes first. */
const MAX_HELD = 64;

/**
 * The first bytes of long job values (longer than a page shows), kept
 * between reads so that Redis copies a long value whole into
 * lua/shared/read-job-1.lua once a minute, not on every open and every poll: 100
 * people opening a job with a 20 MB payload cost Redis about 50 ms once,
 * not 50 ms each. A job's payload is written once, when it is pushed; the
 * script still checks each held value's stored length and reads the value
 * again when its length changed.
 */
export class HeldPrefixes {
  private readonly held = new Map<string, Held>();

  constructor(private readonly holdMs = HOLD_MS) {}

  /** A read of `key`, `limit` bytes of each value, refused past `maxFields` fields, starting now. */
  heldFor(key: string, limit: number, maxFields: number, nowMs = Date.now()): HeldForRead {
    const heldLengths: string[] = [];
    // Taken now: a read finishing later must not lose a prefix to another read's eviction meanwhile.
    const prefixes = new Map<string, Buffer>();
    for (const [id, held] of this.held) {
      if (nowMs - held.readAtMs >= this.holdMs) this.held.delete(id);
      else if (id.startsWith(`${key}\0`) && held.prefix.length >= limit) {
        const field = id.slice(key.length + 1);
        heldLengths.push(field, String(held.bytes));
        prefixes.set(field, held.prefix.subarray(0, limit));
      }
    }
    return {
      call: { job: key, limit, maxFields, heldLengths },
      fill: (name, bytes, prefix) => {
        if (prefix === null) {
          const held = prefixes.get(name);
          if (held === undefined) throw new Error(`lua/shared/read-job-1.lua left out ${key} ${name}, which was not named`);
          return held;
        }
        if (bytes > limit) this.keep(`${key}\0${name}`, { bytes, prefix, readAtMs: nowMs });
        return prefix;
      },
    };
  }

  private keep(id: string, read: Held): void {
    const held = this.held.get(id);
    // A shorter prefix (a list's rows read fewer bytes than the job page) does not replace a longer one of the same value.
    if (held !== undefined && held.bytes === read.bytes && held.prefix.length >= read.prefix.length) return;
    // Deleted first so that the new entry goes to the end: the Map's order is the eviction order.
    this.held.delete(id);
    this.held.set(id, read);
    if (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value!);
  }
}

const perConnection = new WeakMap<RedisConnection, HeldPrefixes>();

/** The prefixes held for reads over `queue`'s connection. */
export function heldPrefixesOf(queue: RedisConnection): HeldPrefixes {
  let held = perConnection.get(queue);
  if (held === undefined) {
    held = new HeldPrefixes();
    perConnection.set(queue, held);
  }
  return held;
}
