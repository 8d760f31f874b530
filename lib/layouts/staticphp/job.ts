import type { JobIdAsRead } from '../../shapes/job-ids';
import { JOB_FIELDS, type JobHash } from '../../shapes/job-hash';
import { levelOf } from './keys';

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
