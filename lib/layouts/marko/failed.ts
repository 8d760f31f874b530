import { firstLine } from '../../shapes/failed-jobs';
import { cutJsonString, jsonStringFrom } from '../cut-json';
import { formatUtcSeconds, parseUtcDateToSeconds } from '../dates';
import { execPipeline } from '../../redis/pipeline';
import type { RedisConnection } from '../../redis/connection';
import type { FailedFilter, ForgetOptions } from '../../shapes/failed-jobs';
import type { RetryElsewhere, UnretriedFailedJobs } from '../adapter';
import {
  forgetTextIdFailed,
  searchTextIdFailed,
  shellWord,
  inIdBatches,
  withScores,
  type TextIdFailedPage,
  type TextIdFailedRowRead,
  type TextIdSearchChunk,
} from '../text-id-failed';
import type { MarkoKeys } from './keys';
import { payloadClassName } from './payload';
import { forgetFailed, readFailedRecords } from './scripts';
import type { TrashKeys } from '../../dashboard/keys';
import { layoutTrashKeys, trashArguments } from '../trash';
import type { TrashWrite } from '../../shapes/trash';

/** Why QueueLens does not retry a marko failed job, and what does. */
export const MARKO_RETRY: RetryElsewhere = {
  absent:
    "a failed marko job is retried by marko itself: its payload is signed with the application's encryption.key, which QueueLens does not have, and pushing the stored payload back would fail it again at once (it carries the attempts it used)",
  // marko's queue:retry takes one id, or --all.
  commandsFor: (ids) => (ids === null ? ['marko queue:retry --all'] : ids.map((id) => `marko queue:retry ${shellWord(id)}`)),
};

/**
 * A failed marko job as the failed list shows it: StaticPHP's columns that
 * fit (attempts and max_attempts are inside the signed object and read as ''),
 * and the record itself, read generically.
 */
export interface MarkoFailedRow extends TextIdFailedRowRead {
  /** the record's JSON, every key as stored; null when it was cut at the read limit or is not a JSON object */
  record: Record<string, unknown> | null;
  /** the record's stored length in bytes */
  recordLength: number;
  /** why `record` is null, in words a page shows */
  recordProblem: string | null;
}

/** Bytes of each record read for a row: the record whole, unless its payload is big. */
export const ROW_RECORD_LIMIT = 64 * 1024;
/** Ids per forget script call: an HDEL and a ZREM each. */
export const FAILED_BATCH = 200;
/** Records per read script call of a search: each is copied into the script, about 0.1 ms for a record of 20 KB. */
const SEARCH_BATCH = 50;

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
}

/** A failed record read as the list reads it (at most its first bytes, and its exception from where it begins) as a row. */
export function failedRowOf(id: string, score: number, length: number, head: Buffer, exceptionTail: Buffer): MarkoFailedRow {
  const text = head.toString('utf8');
  const cut = length > head.length;
  let record: Record<string, unknown> | null = null;
  let recordProblem: string | null = cut ? `The record is ${length} bytes; only its first ${head.length} were read.` : null;
  if (!cut) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) record = parsed as Record<string, unknown>;
      else recordProblem = 'The record is JSON, but not an object.';
    } catch {
      recordProblem = 'The record is not valid JSON.';
    }
  }
  // The FailedJob's property names (id, queue, payload, exception): the keys marko's JSON is read by.
  const field = (key: string) => (record ? textOf(record[key]) : (cutJsonString(text, key) ?? ''));
  const exception = record
    ? field('exception')
    : (cutJsonString(text, 'exception') ?? (exceptionTail.length > 0 ? jsonStringFrom(exceptionTail.toString('utf8')) : ''));
  const payload = field('payload');
  return {
    id,
    queue: field('queue'),
    name: payloadClassName(Buffer.from(payload, 'latin1'), cut && !record ? Infinity : payload.length),
    attempts: '',
    max_attempts: '',
    failed_at: formatUtcSeconds(score),
    error: exception,
    errorFirstLine: firstLine(exception),
    failedAtSeconds: score,
    record,
    recordLength: length,
    recordProblem,
    retryCommand: MARKO_RETRY.commandsFor([id])[0]!,
  };
}

/** One page of marko's failed list, with the failed index's size. */
export type MarkoFailedPage = TextIdFailedPage<MarkoFailedRow>;

/**
 * marko's failed jobs, `{prefix}failed_jobs` (id → JSON) and its index
 * (id scored by the second it failed): listed newest first through the
 * index, searched, and forgotten record and index entry together.
 */
export class MarkoFailedJobs implements UnretriedFailedJobs {
  readonly retryFailed = MARKO_RETRY;

  constructor(
    private readonly queue: RedisConnection,
    private readonly keys: MarkoKeys,
  ) {}

  failedCount(): Promise<number> {
    return this.queue.attempt(() => this.queue.redis.zcard(this.keys.failedIndex));
  }

  /** Rows for index entries; an id whose record is gone is left out (the doctor reports it). */
  private async rowsOf(entries: [string, number][]): Promise<MarkoFailedRow[]> {
    if (entries.length === 0) return [];
    const records = await readFailedRecords.run(this.queue.redis, {
      failedJobs: this.keys.failedJobs,
      limit: ROW_RECORD_LIMIT,
      ids: entries.map(([id]) => id),
    });
    return entries.flatMap(([id, score], i) => {
      const record = records[i];
      return record?.found ? [failedRowOf(id, score, record.length, record.head, record.exception)] : [];
    });
  }

  /** One failed job's row, its record read as the list reads it; null when the id is not failed (or its record is gone). */
  failedRow(id: string): Promise<MarkoFailedRow | null> {
    return this.queue.attempt(async () => {
      const score = await this.queue.redis.zscore(this.keys.failedIndex, id);
      return score === null ? null : ((await this.rowsOf([[id, Number(score)]]))[0] ?? null);
    });
  }

  /** Failed jobs newest first: `limit` rows from `offset` of the index. */
  failedRows(limit: number, offset = 0): Promise<MarkoFailedRow[]> {
    return this.queue.attempt(async () => (await this.failedPage(offset, limit)).rows);
  }

  /** One page of the failed list with the index's size, newest first. */
  failedPage(offset: number, limit: number): Promise<MarkoFailedPage> {
    const start = Math.max(0, Math.floor(offset));
    const count = Math.max(1, Math.floor(limit));
    return this.queue.attempt(async () => {
      const [total, flat] = (await execPipeline(
        this.queue.redis
          .pipeline()
          .zcard(this.keys.failedIndex)
          .zrevrange(this.keys.failedIndex, start, start + count - 1, 'WITHSCORES'),
      )) as [number, string[]];
      return { rows: await this.rowsOf(withScores(flat)), total, offset: start, limit: count };
    });
  }

  /**
   * Looks through the index from `offset`, newest first, SEARCH_BATCH at a
   * time, for rows matching `filter`; stops after `scanLimit` entries so one
   * call stays short. Continue from `nextOffset` until `done`.
   */
  searchFailed(filter: FailedFilter, chunk: { offset?: number; scanLimit?: number } = {}): Promise<TextIdSearchChunk<MarkoFailedRow>> {
    return this.queue.attempt(() => searchTextIdFailed((offset, limit) => this.failedPage(offset, limit), filter, chunk, SEARCH_BATCH));
  }

  /**
   * Deletes failed jobs: the one `id`, or those that failed before `before`
   * (`Y-m-d` or `Y-m-d H:i:s`, UTC), or, only when `{ all: true }` asks for
   * it, every one (records without an index entry included). With `trash`
   * (and a keep time above 0) each record is kept in QueueLens's trash
   * instead of deleted. Returns how many.
   */
  forgetFailed(id: string | null, before: string | null, options: ForgetOptions = {}, trash?: TrashWrite): Promise<number> {
    return forgetTextIdFailed(this, { id, before, options, trash }, FAILED_BATCH);
  }

  /**
   * One bounded step of forgetting, oldest first: FAILED_BATCH index entries
   * (of those failed before `before`, when given), each with its record;
   * forgetting every one, the step that empties the index forgets the
   * records no index entry points at too. `remaining` is what is left to
   * forget, for progress.
   */
  forgetOldestFailed(before: string | null, trash?: TrashWrite): Promise<{ forgotten: number; remaining: number }> {
    const upTo = before === null ? '+inf' : `(${parseUtcDateToSeconds(before)}`;
    return this.queue.attempt(async () => {
      let forgotten = await this.forget(await this.queue.redis.zrangebyscore(this.keys.failedIndex, '-inf', upTo, 'LIMIT', 0, FAILED_BATCH), trash);
      if (before === null && (await this.queue.redis.zcard(this.keys.failedIndex)) === 0) forgotten += await this.forgetUnindexedRecords(trash);
      const [indexed, records] = (await execPipeline(this.queue.redis.pipeline().zcount(this.keys.failedIndex, '-inf', upTo).hlen(this.keys.failedJobs))) as [
        number,
        number,
      ];
      // Either half alone counts as a failed job (the forget script removes both): the larger of the two is left at least.
      return { forgotten, remaining: before === null ? Math.max(indexed, records) : indexed };
    });
  }

  /** Forgets these ids (the selected rows), FAILED_BATCH per script call. */
  forgetFailedIds(ids: readonly string[], trash?: TrashWrite): Promise<number> {
    return this.queue.attempt(() => inIdBatches(ids, FAILED_BATCH, (batch) => this.forget(batch, trash)));
  }

  /** How many failed jobs a forget would touch: all of them, or those failed before `before`. */
  countFailedBefore(before: string | null): Promise<number> {
    const upTo = before === null ? '+inf' : `(${parseUtcDateToSeconds(before)}`;
    return this.queue.attempt(() => this.queue.redis.zcount(this.keys.failedIndex, '-inf', upTo));
  }

  // Records no index entry points at are failed jobs too; forgetting all
  // walks the hash for them once the index is empty, HSCAN step by step.
  private async forgetUnindexedRecords(trash: TrashWrite | undefined): Promise<number> {
    let forgotten = 0;
    let cursor = '0';
    const maxSteps = Math.ceil((await this.queue.redis.hlen(this.keys.failedJobs)) / FAILED_BATCH) + 1;
    for (let step = 0; step < maxSteps; step++) {
      const [next, flat] = await this.queue.redis.hscan(this.keys.failedJobs, cursor, 'COUNT', FAILED_BATCH);
      forgotten += await this.forget(
        flat.filter((_, i) => i % 2 === 0),
        trash,
      );
      cursor = next;
      if (cursor === '0') break;
    }
    return forgotten;
  }

  /** This layout's trash under QueueLens's prefix (lib/dashboard/keys.ts). */
  trashKeys(dashboardPrefix: string): TrashKeys {
    return layoutTrashKeys(this.keys.prefix, dashboardPrefix);
  }

  private async forget(ids: readonly string[], trash: TrashWrite | undefined): Promise<number> {
    if (ids.length === 0) return 0;
    const { forgotten } = await forgetFailed.run(this.queue.redis, {
      failedJobs: this.keys.failedJobs,
      failedIndex: this.keys.failedIndex,
      ...trashArguments(this.keys.prefix, trash),
      ids,
    });
    return forgotten;
  }
}
