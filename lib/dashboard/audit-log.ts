import type { Redis } from 'ioredis';
import { bytesToText } from '../shapes/display-text';
import { QueueError } from '../redis/errors';
import {
  AUDIT_FIELD_LIMITS,
  AUDIT_RESULTS,
  AUDIT_ROLES,
  boundAuditEntry,
  cutText,
  streamIdTime,
  type AuditEntry,
  type AuditFilter,
  type AuditPage,
  type AuditRecord,
  type NewAuditEntry,
} from './audit-entry';
import type { DashboardKeys } from './keys';

export type { AuditEntry, AuditFilter, AuditPage, AuditRecord, AuditResult, AuditRole, NewAuditEntry } from './audit-entry';

/**
 * The log keeps the newest 100,000 entries or so. One entry is one server
 * action, so a bulk retry of 10,000 jobs (50 steps) is 50 entries: this is
 * months of a busy team's changes. Measured with MEMORY USAGE, a typical
 * entry takes about 155 bytes and one with every field at its limit
 * (AUDIT_FIELD_LIMITS) about 1.35 KB: the full log is about 16 MB, and at
 * most about 135 MB whatever the actions are given. Small beside the queues
 * it audits, and never unbounded.
 */
export const AUDIT_CAP = 100_000;

/** Entries one read looks at, at most, when filtering: a few milliseconds of Redis time. */
export const AUDIT_SCAN_LIMIT = 1_000;

/**
 * The commands the audit log sends. Narrower than a client, so that a
 * plain connection and a cluster connection both fit: the log is one key,
 * so it lives on one node either way.
 */
export type AuditRedis = Pick<Redis, 'xadd' | 'xrevrangeBuffer' | 'xlen' | 'time' | 'type'>;

const FIELDS = ['who', 'role', 'connection', 'action', 'target', 'result', 'detail'] as const;
type Field = (typeof FIELDS)[number];

/** Fields whose values are known; a value of the others is any text within its limit. */
const KNOWN_VALUES: Partial<Record<Field, readonly string[]>> = { role: AUDIT_ROLES, result: AUDIT_RESULTS };

/** The most bytes of a field a read decodes; an entry QueueLens wrote is within these already. */
function readLimit(field: Field): number {
  return field === 'role' || field === 'result' ? 16 : AUDIT_FIELD_LIMITS[field];
}

/**
 * Runs a command on the audit key; if the key holds another type, throws a
 * QueueError naming the key and its type (Redis's WRONGTYPE names neither).
 */
async function onAuditKey<T>(redis: AuditRedis, key: string, command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('WRONGTYPE')) throw error;
    const type = await redis.type(key).catch(() => 'value of another type');
    throw new QueueError(
      `The audit log key ${key} holds a ${type}, not a stream, so QueueLens can neither read nor record changes there. Nothing was changed; inspect or remove that key.`,
      { cause: error },
    );
  }
}

/**
 * Appends one entry to the audit log (one XADD), trimming the log to about
 * `cap` entries in the same command. Text fields are cut to
 * AUDIT_FIELD_LIMITS first; the entry comes back as stored, its id and time
 * from the Redis server's clock.
 */
export async function appendAudit(redis: AuditRedis, keys: DashboardKeys, entry: NewAuditEntry, { cap = AUDIT_CAP } = {}): Promise<AuditEntry> {
  if (!Number.isSafeInteger(cap) || cap < 1) throw new QueueError(`The audit log cap must be a whole number of at least 1, got ${cap}`);
  const stored = boundAuditEntry(entry);
  // `~` lets Redis trim whole nodes of the stream (stream-node-max-entries,
  // 100 by default) rather than entry by entry: the log may run that many
  // past the cap, and each append stays cheap.
  const id = await onAuditKey(redis, keys.audit, () => redis.xadd(keys.audit, 'MAXLEN', '~', cap, '*', ...FIELDS.flatMap((field) => [field, stored[field]])));
  // Only XADD … NOMKSTREAM answers null, and this one never says it.
  if (id === null) throw new QueueError(`Redis did not add the audit entry to ${keys.audit}`);
  return { id, at: streamIdTime(id), ...stored };
}

/**
 * One mutation as the server's log prints it: the entry as stored, or, when
 * it could not be stored, as it would have been with the reason and the
 * time by the web server's clock (Redis gave none).
 */
export type AuditLine = ({ type: 'audit'; stored: true } & AuditEntry) | ({ type: 'audit'; stored: false; at: string; error: string } & NewAuditEntry);

/**
 * Appends `entry` like appendAudit and says how that went, as the line to
 * print; never throws. The mutation it records has already run or been
 * refused, so a log that cannot be written (Redis down, a wrong-typed key)
 * must not turn it into a failure: the printed line still has it.
 */
export async function recordAudit(redis: AuditRedis, keys: DashboardKeys, entry: NewAuditEntry, options: { cap?: number } = {}): Promise<AuditLine> {
  try {
    return { type: 'audit', ...(await appendAudit(redis, keys, entry, options)), stored: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { type: 'audit', at: new Date().toISOString(), ...boundAuditEntry(entry), stored: false, error: cutText(reason, 512) };
  }
}

/** An AuditLine as one line of JSON: newlines and control characters inside it are escaped, so one entry is one line. */
export function formatAuditLine(line: AuditLine): string {
  return `${JSON.stringify(line)}\n`;
}

function fieldText(bytes: Buffer, limit: number): string {
  if (bytes.length <= limit) return bytesToText(bytes);
  // A cut inside a character shows its torn bytes as \x escapes.
  return `${bytesToText(bytes.subarray(0, limit))}… [cut, ${bytes.length} bytes in all]`;
}

/** A stream entry as a record, whatever it holds: its fields are a flat name/value list, where a name may repeat (the first counts) or be missing. */
function toRecord(id: string, flat: Buffer[]): AuditRecord {
  const stored = new Map<string, Buffer>();
  for (let index = 0; index + 1 < flat.length; index += 2) {
    const name = flat[index]!.toString('latin1');
    if (!stored.has(name)) stored.set(name, flat[index + 1]!);
  }
  const damaged: string[] = [];
  const read = (field: Field): string => {
    const bytes = stored.get(field);
    const value = bytes === undefined ? '' : fieldText(bytes, readLimit(field));
    const known = KNOWN_VALUES[field];
    if (bytes === undefined || bytes.length > readLimit(field) || (known !== undefined && !known.includes(value))) damaged.push(field);
    return value;
  };
  return {
    id,
    at: streamIdTime(id),
    who: read('who'),
    role: read('role'),
    connection: read('connection'),
    action: read('action'),
    target: read('target'),
    result: read('result'),
    detail: read('detail'),
    damaged,
  };
}

function isFiltering(filter: AuditFilter): boolean {
  return Object.values(filter).some((value) => typeof value === 'string' && value !== '');
}

function matchesFilter(record: AuditRecord, filter: AuditFilter): boolean {
  const exactly = (value: string, wanted: string | undefined) => !wanted || value === wanted;
  const text = filter.text?.toLowerCase();
  return (
    exactly(record.action, filter.action) &&
    exactly(record.who, filter.who) &&
    exactly(record.role, filter.role) &&
    exactly(record.result, filter.result) &&
    (!text || [record.who, record.target, record.detail].some((value) => value.toLowerCase().includes(text)))
  );
}

export interface ReadAuditOptions {
  /** a stream id: read entries older than this one (the `next` of the previous read); from the newest when missing */
  before?: string;
  /** entries to return at most */
  limit: number;
  filter?: AuditFilter;
  /** entries to look at, at most, before answering with what was found */
  scanLimit?: number;
  /** entries per XREVRANGE while filtering */
  batchSize?: number;
}

/**
 * Reads the audit log newest first, from `before` (exclusive): up to `limit`
 * entries, or with a filter the entries matching it among at most
 * `scanLimit` looked at, so that a read stays short however long the log
 * is and however rare the matches. Callers continue from `next` until it is
 * null, and can say how far back a read looked (`reachedAt`).
 */
export async function readAuditPage(
  redis: AuditRedis,
  keys: DashboardKeys,
  { before, limit, filter = {}, scanLimit = AUDIT_SCAN_LIMIT, batchSize = 250 }: ReadAuditOptions,
): Promise<AuditPage> {
  for (const [name, value] of [
    ['limit', limit],
    ['scanLimit', scanLimit],
    ['batchSize', batchSize],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new QueueError(`The audit log's ${name} must be a whole number of at least 1, got ${value}`);
  }
  const filtering = isFiltering(filter);
  return onAuditKey(redis, keys.audit, async () => {
    const [total, [seconds]] = await Promise.all([redis.xlen(keys.audit), redis.time()]);
    const entries: AuditRecord[] = [];
    let newestSeen: string | null = null;
    let oldestSeen: string | null = null;
    let scanned = 0;
    let reachedEnd = false;
    // `(id` is exclusive: the entry a previous read ended on is not read twice.
    let from = before === undefined ? '+' : `(${before}`;
    while (entries.length < limit && scanned < scanLimit) {
      const count = Math.min(filtering ? batchSize : limit - entries.length, scanLimit - scanned);
      const batch = await redis.xrevrangeBuffer(keys.audit, from, '-', 'COUNT', count);
      let looked = 0;
      for (const [rawId, fields] of batch) {
        const record = toRecord(rawId.toString('latin1'), fields);
        newestSeen ??= record.id;
        oldestSeen = record.id;
        looked++;
        if (matchesFilter(record, filter)) entries.push(record);
        // Stop on the entry that filled the page, so `next` resumes right after it.
        if (entries.length >= limit) break;
      }
      scanned += looked;
      if (batch.length < count && looked === batch.length) {
        reachedEnd = true;
        break;
      }
      from = `(${oldestSeen}`;
    }
    return {
      entries,
      newestSeen,
      next: reachedEnd ? null : oldestSeen,
      reachedAt: oldestSeen === null ? null : streamIdTime(oldestSeen),
      scanned,
      total,
      now: Number(seconds),
    };
  });
}
