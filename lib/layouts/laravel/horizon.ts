import { execPipeline } from '../../redis/pipeline';
import type { RedisConnection } from '../../redis/connection';
import { bytesToText, DISPLAY_LIMIT_BYTES, toDisplayValue } from '../../shapes/display-text';
import { firstLine, type FailedFilter, type ForgetOptions } from '../../shapes/failed-jobs';
import type { TrashWrite } from '../../shapes/trash';
import { randomUUID } from 'node:crypto';
import { QueueError } from '../../redis/errors';
import { absentMembers, retryOfFailedJob, type FailedRetries, type RetriedFailedJobs, type RetryStep } from '../adapter';
import { formatUtcSeconds, parseUtcDateToSeconds } from '../dates';
import { heldPrefixesOf } from '../held-prefixes';
import { jobHashOf, readJobHash, type JobHashReply } from '../job-hash-read';
import type { JobMessage, JobSnapshot } from '../pages';
import {
  forgetTextIdFailed,
  inIdBatches,
  searchTextIdFailed,
  withScores,
  type TextIdFailedPage,
  type TextIdFailedRowRead,
  type TextIdSearchChunk,
} from '../text-id-failed';
import { trashArguments } from '../trash';
import { laravelNameOfHead, readLaravelPayload } from './payload';
import type { LaravelKeys } from './keys';
import { forgetHorizonFailed, retryHorizonFailed } from './scripts';
import type { RetryOutcome } from '../../shapes/failed-jobs';

/*
 * Laravel Horizon's failed jobs, as laravel/horizon's
 * src/Repositories/RedisJobRepository.php keeps them under Horizon's own
 * prefix (config/horizon.php `prefix`, by default
 * Str::slug(APP_NAME, '_').'_horizon:', which Horizon::use() puts in place
 * of the Redis connection's prefix): failed() adds the job's id to the
 * failed_jobs sorted set scored by -microtime(true) (newest lowest, so a
 * ZRANGE by rank lists newest first, as getFailed() does) and HMSETs its
 * hash {prefix}{id} (id, connection, queue, name, status 'failed', payload,
 * exception, context, failed_at as microtime) with an EXPIREAT trim.failed
 * minutes ahead (10080 by default). The id is JobPayload::id(), the
 * payload's uuid, which is also the uuid the application's failed_jobs table
 * keeps (DatabaseUuidFailedJobProvider::log), so `php artisan queue:retry`
 * finds the same job by it.
 */

/** Horizon's keys QueueLens reads, under Horizon's prefix. */
export class HorizonKeys {
  constructor(readonly prefix: string) {}

  /** sorted set: failed job ids scored by -microtime of the failure, newest lowest */
  get failedIndex(): string {
    return `${this.prefix}failed_jobs`;
  }
  /** hash: one job's record (id, connection, queue, name, status, payload, exception, context, failed_at, retried_by, …) */
  job(id: string): string {
    return `${this.prefix}${id}`;
  }
  /** hash: the queue's jobs finished since Horizon's last snapshot (`throughput`) and their mean runtime (RedisMetricsRepository::incrementQueue) */
  queueMetrics(queue: string): string {
    return `${this.prefix}queue:${queue}`;
  }
  /** set: the metrics key (queueMetrics) of every queue Horizon counted a finished job of */
  get measuredQueues(): string {
    return `${this.prefix}measured_queues`;
  }
  /** sorted set: the queue's snapshots of those figures, JSON scored by the second each was taken (storeSnapshotForQueue) */
  queueSnapshots(queue: string): string {
    return `${this.prefix}snapshot:queue:${queue}`;
  }
}

/** What Horizon's retry does to a failed job, in the words the job page shows beside its Retry. */
export const HORIZON_RETRIES =
  'Pushes a copy onto its queue as Horizon’s retry does: a new id, 0 attempts, retryUntil moved as far ahead as it was of the push; the failed record stays on the list with the retry in its retried_by';

/** What QueueLens's Horizon retry does not do, in the words a page or the CLI shows. */
export const HORIZON_RETRY_ABSENT = {
  maxAttempts: 'a Laravel job’s tries are its payload’s maxTries, which Horizon’s retry keeps: the retried job starts again at 0 attempts',
  editAndRetry: 'a Laravel payload’s command is serialized (and maybe encrypted) PHP: QueueLens retries it as Horizon does, unedited',
} as const;

function refuseMaxAttempts(maxAttempts: number | undefined): void {
  if (maxAttempts !== undefined) throw new QueueError(`Max attempts cannot be set here: ${HORIZON_RETRY_ABSENT.maxAttempts}`, { invalidRequest: true });
}

/**
 * Ids per retry script call: each payload is decoded and encoded by cjson,
 * which holds Redis meanwhile. Five 1.4 KB payloads took 0.42 ms a call
 * (INFO commandstats of a private redis-server, on 2 busy cores; twenty took 1.5 ms).
 */
export const HORIZON_RETRY_BATCH = 5;
/** Payload bytes one retry script call decodes at most before it leaves the rest to the next call (at least one id is always retried). */
const HORIZON_RETRY_BYTES = 32 * 1024;

/** Why a failed index entry has no record to show, in the words a row shows. */
export const HORIZON_RECORD_GONE =
  'Horizon’s record of this job is gone (it expires trim.failed minutes after the failure, 7 days by default): only its entry in the failed list is left';

/** A failed Horizon job as the failed list shows it, with what its record says of it. */
export interface HorizonFailedRow extends TextIdFailedRowRead {
  /** the record's status: failed, or the state of a job the application pushed again under the same uuid (queue:retry); null when there is no record */
  status: string | null;
  /** why the record cannot be shown, in words a page shows; null when it can */
  recordProblem: string | null;
}

/** Bytes of each record field a row reads: the exception's first line and the payload's name and attempts. */
const ROW_FIELD_LIMIT = 8 * 1024;
/** A Horizon job hash has a dozen fields; a key with more is not one. */
const MAX_FIELDS = 32;
/** Bytes of each record field the overview's failing mark reads: the queue and the exception's first line. */
const RECENT_FIELD_LIMIT = 1024;
/** Ids per forget script call. */
export const HORIZON_FORGET_BATCH = 200;
/** Records per page read of a search. */
const SEARCH_BATCH = 50;

type RecordFields = Map<string, { bytes: number; prefix: Buffer }>;

function fieldsOf(hash: JobHashReply): RecordFields | string {
  if (!('fields' in hash))
    return 'tooMany' in hash ? `the key holds ${hash.tooMany} fields: no Horizon job hash` : `the key is a ${hash.type}, not Horizon’s job hash`;
  return new Map(hash.fields.map(({ name, bytes, prefix }) => [name, { bytes, prefix }]));
}

function textOf(fields: RecordFields, name: string): string {
  const field = fields.get(name);
  return field === undefined ? '' : bytesToText(field.prefix);
}

/** The payload's attempts and maxTries, where its bytes were read whole. */
function attemptsOf(fields: RecordFields): { attempts: string; max_attempts: string } {
  const payload = fields.get('payload');
  const json = payload !== undefined && payload.bytes <= payload.prefix.length ? readLaravelPayload(payload.prefix).json : null;
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : '');
  return { attempts: number(json?.attempts), max_attempts: number(json?.maxTries) };
}

/** A failed index entry and its record (read by lua/shared/read-job-1.lua) as a row. */
export function horizonRowOf(id: string, score: number, hash: JobHashReply): HorizonFailedRow {
  const fields = hash.type === 'none' ? HORIZON_RECORD_GONE : fieldsOf(hash);
  const base = { id, queue: '', name: '', attempts: '', max_attempts: '', retryCommand: null };
  if (typeof fields === 'string') {
    const failedAtSeconds = -score;
    return { ...base, failed_at: formatUtcSeconds(failedAtSeconds), failedAtSeconds, error: '', errorFirstLine: fields, status: null, recordProblem: fields };
  }
  const stamped = Number(textOf(fields, 'failed_at'));
  const failedAtSeconds = textOf(fields, 'failed_at') !== '' && Number.isFinite(stamped) ? stamped : -score;
  const payload = fields.get('payload');
  const error = textOf(fields, 'exception');
  return {
    ...base,
    ...attemptsOf(fields),
    queue: textOf(fields, 'queue'),
    name: textOf(fields, 'name') || (payload === undefined ? '' : (laravelNameOfHead(payload.prefix, payload.bytes) ?? '')),
    failed_at: formatUtcSeconds(Math.floor(failedAtSeconds)),
    failedAtSeconds,
    error,
    errorFirstLine: firstLine(error),
    status: textOf(fields, 'status'),
    recordProblem: null,
  };
}

/** `retried_by` as a page shows it: each retry's id, its state and when, newest first (as Horizon's FailedJobsController sorts them). */
export function describeRetriedBy(text: string): string {
  let retries: unknown;
  try {
    retries = JSON.parse(text);
  } catch {
    return text;
  }
  if (!Array.isArray(retries)) return text;
  const read = retries.map((retry: unknown) => {
    const { id, status, retried_at: at } = (typeof retry === 'object' && retry !== null ? retry : {}) as Record<string, unknown>;
    return { id: String(id ?? '?'), status: String(status ?? '?'), at: typeof at === 'number' ? at : null };
  });
  read.sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
  return read.map(({ id, status, at }) => `${id} (${status}${at === null ? '' : `, retried ${formatUtcSeconds(at)} UTC`})`).join('; ') || 'none';
}

/**
 * Horizon's failed list: read newest first through its index, each row's
 * record pipelined; retried as Horizon's retry does, pushed onto the
 * Laravel queue the record names (lua/laravel/horizon-retry-1.lua); forgotten
 * as Horizon's delete does, each id re-checked and its record kept in
 * QueueLens's trash (lua/laravel/horizon-forget-failed-2.lua).
 */
export class HorizonFailedJobs implements RetriedFailedJobs {
  readonly retryFailed: FailedRetries = {
    ids: (ids, options) => this.retry(ids, options),
    oldest: (options) => this.retryOldest(options),
    ...absentMembers(HORIZON_RETRY_ABSENT),
    whatItDoes: HORIZON_RETRIES,
  };

  constructor(
    private readonly connection: RedisConnection,
    readonly keys: HorizonKeys,
    /** the Laravel queues' keys, where a retry is pushed */
    private readonly queues: LaravelKeys,
  ) {}

  failedCount(): Promise<number> {
    return this.connection.attempt(() => this.connection.redis.zcard(this.keys.failedIndex));
  }

  /** Each id's record, every field cut at `limit` bytes, in one pipeline. */
  async records(ids: readonly string[], limit: number): Promise<JobHashReply[]> {
    if (ids.length === 0) return [];
    const held = heldPrefixesOf(this.connection);
    const reads = ids.map((id) => held.heldFor(this.keys.job(id), limit, MAX_FIELDS));
    const pipeline = this.connection.redis.pipeline();
    for (const read of reads) readJobHash.queue(pipeline, read.call);
    const replies = await execPipeline(pipeline);
    return replies.map((reply, i) => jobHashOf(readJobHash.reply(reply), reads[i]!));
  }

  /**
   * The failures since `since` (unix seconds) and before `until` (none: up
   * to now), newest first, at most `limit` of them (`truncated` when there
   * were more), each with its queue and error as its row reads them: the
   * overview's failing mark, the throughput's failures between samples.
   */
  recentFailures(since: number, limit: number, until?: number): Promise<{ rows: HorizonFailedRow[]; truncated: boolean }> {
    return this.connection.attempt(async () => {
      // Scored -microtime: the newest lowest, so "since" is every score up to -since, and "before until" every score above -until.
      const newest = until === undefined ? '-inf' : `(${-until}`;
      const flat = await this.connection.redis.zrangebyscore(this.keys.failedIndex, newest, String(-since), 'WITHSCORES', 'LIMIT', 0, limit + 1);
      const entries = withScores(flat).slice(0, limit);
      const records = await this.records(
        entries.map(([id]) => id),
        RECENT_FIELD_LIMIT,
      );
      return { rows: entries.map(([id, score], i) => horizonRowOf(id, score, records[i]!)), truncated: flat.length / 2 > limit };
    });
  }

  /** One page of the failed list, newest first, with the index's size. */
  failedPage(offset: number, limit: number): Promise<TextIdFailedPage<HorizonFailedRow>> {
    const start = Math.max(0, Math.floor(offset));
    const count = Math.max(1, Math.floor(limit));
    return this.connection.attempt(async () => {
      const [total, flat] = (await execPipeline(
        this.connection.redis
          .pipeline()
          .zcard(this.keys.failedIndex)
          .zrange(this.keys.failedIndex, start, String(start + count - 1), 'WITHSCORES'),
      )) as [number, string[]];
      const entries = withScores(flat);
      const records = await this.records(
        entries.map(([id]) => id),
        ROW_FIELD_LIMIT,
      );
      return { rows: entries.map(([id, score], i) => horizonRowOf(id, score, records[i]!)), total, offset: start, limit: count };
    });
  }

  failedRows(limit: number, offset = 0): Promise<HorizonFailedRow[]> {
    return this.failedPage(offset, limit).then((page) => page.rows);
  }

  /** Looks through the failed list from `offset`, newest first, for rows matching `filter` (lib/layouts/text-id-failed.ts). */
  searchFailed(filter: FailedFilter, chunk: { offset?: number; scanLimit?: number } = {}): Promise<TextIdSearchChunk<HorizonFailedRow>> {
    return this.connection.attempt(() => searchTextIdFailed((offset, limit) => this.failedPage(offset, limit), filter, chunk, SEARCH_BATCH));
  }

  /** The one `id`, or those failed before `before` (Y-m-d[ H:i:s] UTC), or every one when `{ all: true }` asks for it; how many were forgotten. */
  forgetFailed(id: string | null, before: string | null, options: ForgetOptions = {}, trash?: TrashWrite): Promise<number> {
    return forgetTextIdFailed(this, { id, before, options, trash }, HORIZON_FORGET_BATCH);
  }

  forgetFailedIds(ids: readonly string[], trash?: TrashWrite): Promise<number> {
    return this.connection.attempt(() => inIdBatches(ids, HORIZON_FORGET_BATCH, (batch) => this.forget(batch, trash)));
  }

  /**
   * Retries these failed ids as Horizon's retry does, each with a new uuid
   * made here (so the script stays deterministic), HORIZON_RETRY_BATCH a
   * call; the ids a call left for lack of its byte budget go in the next.
   */
  async retry(ids: readonly string[], { maxAttempts }: { maxAttempts?: number } = {}): Promise<RetryOutcome> {
    refuseMaxAttempts(maxAttempts);
    const outcome: RetryOutcome = { requeued: [], notFailed: [], missing: [], refused: [], queues: [] };
    return await this.connection.attempt(async () => {
      let left = [...new Set(ids)];
      while (left.length > 0) {
        const batch = left.slice(0, HORIZON_RETRY_BATCH);
        const { reached, unreached } = await this.retryCall(batch, false, outcome);
        // The script handles at least one id a call: an answer that reached none would loop.
        if (reached === 0) throw new Error('lua/laravel/horizon-retry-1.lua reached no id');
        left = [...unreached, ...left.slice(batch.length)];
      }
      return outcome;
    });
  }

  /**
   * One bounded step of retrying every failed job, oldest first, from rank
   * `from` of the list counted from its oldest end (where the step before
   * stopped). Horizon keeps a retried job on its list, so a step goes on past
   * the jobs it looked at, and a record whose retried_by names any retry (by
   * Horizon, the application or QueueLens) is skipped, not retried again: a
   * second run retries only what the first did not. Failures that arrive
   * meanwhile join the newest end and are reached; a job forgotten or trimmed
   * meanwhile moves the ranks down, and the jobs passed over then are left
   * failed, never retried twice.
   */
  async retryOldest({ maxAttempts, from }: { maxAttempts?: number; from?: string | null } = {}): Promise<RetryStep> {
    refuseMaxAttempts(maxAttempts);
    const start = from === undefined || from === null ? 0 : Number(from);
    if (!Number.isSafeInteger(start) || start < 0)
      throw new QueueError(`"${String(from).slice(0, 40)}" is no place in the failed list`, { invalidRequest: true });
    const outcome: RetryOutcome = { requeued: [], notFailed: [], missing: [], refused: [], queues: [] };
    return await this.connection.attempt(async () => {
      // Oldest first: the highest scores (-microtime).
      const ids = await this.connection.redis.zrevrange(this.keys.failedIndex, start, start + HORIZON_RETRY_BATCH - 1);
      const { reached } = ids.length === 0 ? { reached: 0 } : await this.retryCall(ids, true, outcome);
      // A missing record's entry left the list: the ranks after it moved down one.
      const next = start + reached - outcome.missing.length;
      const remaining = Math.max(0, (await this.connection.redis.zcard(this.keys.failedIndex)) - next);
      return { ...outcome, looked: reached, remaining, next: String(next) };
    });
  }

  /** One script call over `ids` (at most HORIZON_RETRY_BATCH), its answers added to `outcome`; the ids it left for the next call. */
  private async retryCall(ids: readonly string[], skipRetried: boolean, outcome: RetryOutcome): Promise<{ reached: number; unreached: string[] }> {
    const rows = await retryHorizonFailed.run(this.connection.redis, {
      failedIndex: this.keys.failedIndex,
      horizonPrefix: this.keys.prefix,
      laravelPrefix: this.queues.prefix,
      byteBudget: HORIZON_RETRY_BYTES,
      skipRetried: skipRetried ? '1' : '0',
      idsAndNewIds: ids.flatMap((id) => [id, randomUUID()]),
    });
    const unreached: string[] = [];
    for (const row of rows) {
      if (row.outcome === 'retried') {
        outcome.requeued.push(row.id);
        if (!outcome.queues.includes(row.queue)) outcome.queues.push(row.queue);
      } else if (row.outcome === 'not-failed') outcome.notFailed.push(row.id);
      else if (row.outcome === 'missing') outcome.missing.push(row.id);
      else if (row.outcome === 'refused') outcome.refused.push({ id: row.id, why: row.why });
      else if (row.outcome === 'unreached') unreached.push(row.id);
    }
    return { reached: rows.length - unreached.length, unreached };
  }

  /** One bounded step, oldest first: the index's highest scores (-microtime), those failed before `before` when given. */
  forgetOldestFailed(before: string | null, trash?: TrashWrite): Promise<{ forgotten: number; remaining: number }> {
    const after = this.failedBeforeBound(before);
    return this.connection.attempt(async () => {
      const ids = await this.connection.redis.zrevrangebyscore(this.keys.failedIndex, '+inf', after, 'LIMIT', 0, HORIZON_FORGET_BATCH);
      const forgotten = await this.forget(ids, trash);
      return { forgotten, remaining: await this.connection.redis.zcount(this.keys.failedIndex, after, '+inf') };
    });
  }

  countFailedBefore(before: string | null): Promise<number> {
    return this.connection.attempt(() => this.connection.redis.zcount(this.keys.failedIndex, this.failedBeforeBound(before), '+inf'));
  }

  // Failed before T is a score above -T (scores are minus the moment).
  private failedBeforeBound(before: string | null): string {
    return before === null ? '-inf' : `(${-parseUtcDateToSeconds(before)}`;
  }

  private async forget(ids: readonly string[], trash: TrashWrite | undefined): Promise<number> {
    if (ids.length === 0) return 0;
    const { forgotten } = await forgetHorizonFailed.run(this.connection.redis, {
      failedIndex: this.keys.failedIndex,
      horizonPrefix: this.keys.prefix,
      ...trashArguments(this.keys.prefix, trash),
      ids,
    });
    return forgotten;
  }
}

/** Horizon's record fields a job page lists beside the payload's own, in the order Horizon writes them. */
const RECORD_PARTS = ['status', 'connection', 'queue', 'failed_at', 'reserved_at', 'context'];

/** The record's payload decoded as the Laravel job page decodes a queued one, with Horizon's own fields as parts. */
function recordMessageOf(fields: RecordFields, decode: (payload: Buffer) => JobMessage): JobMessage {
  const parts = RECORD_PARTS.filter((name) => textOf(fields, name) !== '').map((name) => {
    const value = textOf(fields, name);
    const seconds = Number(value);
    return {
      label: `Horizon ${name}`,
      value: name === 'failed_at' && Number.isFinite(seconds) ? `${formatUtcSeconds(Math.floor(seconds))} UTC (${value})` : value,
    };
  });
  const retried = textOf(fields, 'retried_by');
  if (retried !== '') parts.push({ label: 'Horizon retried_by', value: describeRetriedBy(retried) });
  const payload = fields.get('payload');
  if (payload === undefined)
    return { length: 0, cut: false, parts, problem: 'Horizon’s record holds no payload', data: { kind: 'text', text: '', cut: false } };
  if (payload.bytes > payload.prefix.length) {
    const shown = toDisplayValue(payload.prefix);
    return {
      length: payload.bytes,
      cut: true,
      parts,
      problem: `the payload is ${payload.bytes.toLocaleString('en-US')} bytes; only its first ${payload.prefix.length.toLocaleString('en-US')} were read`,
      data: { kind: 'text', text: shown.text, cut: true },
    };
  }
  const message = decode(payload.prefix);
  return { ...message, parts: [...message.parts, ...parts] };
}

/** Why a job page shows a Horizon failed record, in its words. */
export const HORIZON_FAILED = 'no queue holds it: it failed, and Horizon keeps its record on the failed list, where it can be retried or forgotten';

/**
 * Job `id` as Horizon's failed list keeps it, for the job page of an id no
 * queue holds; null when it is not on the failed list. `decode` is the
 * Laravel job page's payload decoding.
 */
export async function horizonFailedSnapshot(
  failed: HorizonFailedJobs,
  connection: RedisConnection,
  id: string,
  queue: string,
  now: number,
  decode: (payload: Buffer) => JobMessage,
): Promise<JobSnapshot | null> {
  const score = await connection.attempt(() => connection.redis.zscore(failed.keys.failedIndex, id));
  if (score === null) return null;
  const [hash] = await connection.attempt(() => failed.records([id], DISPLAY_LIMIT_BYTES));
  const row = horizonRowOf(id, Number(score), hash!);
  const fields = hash!.type === 'hash' ? fieldsOf(hash!) : null;
  const record = fields !== null && typeof fields !== 'string' ? fields : null;
  const stillFailed = row.status === 'failed' || row.status === null ? '' : `; Horizon’s record now says ${row.status}: the same uuid was pushed again`;
  return {
    id,
    queue: row.queue || queue,
    now,
    places: [],
    attempts: Number(row.attempts) || 0,
    priority: null,
    name: row.name === '' ? null : row.name,
    message: record === null ? null : recordMessageOf(record, decode),
    status: 'failed',
    statusText: `${row.recordProblem ?? HORIZON_FAILED}${stillFailed}`,
    failed: {
      at: row.failedAtSeconds,
      retry: retryOfFailedJob(failed.retryFailed, id),
      error: record === null ? null : row.error,
    },
  };
}
