import { levelOf } from './keys';

/** The fields a push writes, in the spec's order. */
export const JOB_FIELDS = [
  'queue',
  'name',
  'payload',
  'attempts',
  'max_attempts',
  'priority',
  'unique_key',
  'available_at',
  'reserved_until',
  'reserved_by',
  'last_error',
  'created_at',
  'entry',
] as const;

/**
 * A job hash as stored: every value a string, as PHP and Redis spell it. A
 * field missing from the hash reads as ''. fail() adds error and failed_at.
 */
export type JobHash = Record<(typeof JOB_FIELDS)[number], string> & { error?: string; failed_at?: string };

/**
 * A job id as a reader found it in Redis: a number when a JS number holds it
 * exactly, otherwise its decimal digits as text. PHP's ids are 64-bit, and
 * past 2^53 a number would round to a neighbour's id (9007199254740993 reads
 * as 9007199254740992). No action takes the text form: every mutation wants
 * a safe integer, so such a job is shown, never acted on.
 */
export type JobIdAsRead = number | string;

/** `text`, an id as stored, as a reader carries it; see JobIdAsRead. */
export function jobIdAsRead(text: string): JobIdAsRead {
  const value = Number(text);
  return Number.isSafeInteger(value) && String(value) === text ? value : text;
}

/** Whether `text`, an id as stored, is one a JS number holds exactly: one a page may link to and an action may take. */
export function isExactJobId(text: string): boolean {
  return typeof jobIdAsRead(text) === 'number';
}

/** The ids a JS number holds exactly: the ones an action can take. */
export function actionableJobIds(ids: readonly JobIdAsRead[]): number[] {
  return ids.filter((id): id is number => typeof id === 'number');
}

/** Orders ids by their value, digits included: a longer id is the larger one. */
export function compareJobIds(a: JobIdAsRead, b: JobIdAsRead): number {
  const [left, right] = [String(a), String(b)];
  return left.length - right.length || (left < right ? -1 : left > right ? 1 : 0);
}

/** What a page shows beside a job id it cannot act on, instead of a link or a button. */
export function beyondExactIdNote(id: string): string {
  return `id ${id} is beyond what QueueLens handles exactly: use a PHP worker or redis-cli`;
}

/** A failed job as failedRows() returns it: the hash, with its id added back. */
export type JobRow = JobHash & { id: JobIdAsRead };

/** A job handed out by reserve(): what a worker needs, and the hash as the claim left it. */
export interface ReservedJob {
  id: number;
  /** the stream entry id the job was delivered as; completing needs it */
  entry: string;
  queue: string;
  name: string;
  payload: string;
  /**
   * true when RESERVE took the entry back from a holder whose claim sat idle
   * past the timeout (XAUTOCLAIM), false when it read the entry fresh from
   * the stream: only a reclaimed job's attempts say anything about a holder
   * dying mid-job.
   */
  reclaimed: boolean;
  /** attempts including this one */
  attempts: number;
  maxAttempts: number;
  /**
   * the level of the stream it was reserved from, in decimal digits as the
   * stream key spells it: text, because PHP's 64-bit priorities do not fit a
   * JS number (see levelOf)
   */
  priority: string;
  fields: JobHash;
}

export function toJobHash(record: Record<string, string>): JobHash {
  const hash = Object.fromEntries(JOB_FIELDS.map((field) => [field, record[field] ?? ''])) as JobHash;
  if (record.error !== undefined) hash.error = record.error;
  if (record.failed_at !== undefined) hash.failed_at = record.failed_at;
  return hash;
}

/** Redis replies a hash as a flat [field, value, field, value…] list inside scripts. */
export function pairsToRecord(flat: readonly unknown[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) record[String(flat[i])] = String(flat[i + 1]);
  return record;
}

export function integerOr(text: string, fallback: number): number {
  const parsed = Number.parseInt(text, 10);
  return Number.isFinite(parsed) ? parsed : fallback;
}

export function toReservedJob(id: number, entry: string, fields: JobHash, reclaimed: boolean): ReservedJob {
  return {
    id,
    entry,
    queue: fields.queue,
    name: fields.name,
    payload: fields.payload,
    reclaimed,
    attempts: integerOr(fields.attempts, 0),
    maxAttempts: integerOr(fields.max_attempts, 1),
    priority: levelOf(fields.priority),
    fields,
  };
}

/** Whether a payload is JSON at all: the PHP worker fails one that is not, whatever its handler. */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
