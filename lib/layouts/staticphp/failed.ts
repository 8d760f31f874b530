import { execPipeline, settlePipeline } from '../../redis/pipeline';
import { isExactJobId } from '../../shapes/job-ids';
import type { RedisQueue } from './redis-queue';
import { bytesToText } from '../../shapes/display-text';
import { firstLine, type FailedFilter, type FailedPage, type FailedRowView, type FailedSearchChunk } from '../../shapes/failed-jobs';
import { readFailedOfQueue } from './scripts';

const ROW_FIELDS = ['queue', 'name', 'attempts', 'max_attempts', 'failed_at', 'error'] as const;

/** Pairs from a WITHSCORES reply. */
function withScores(flat: string[]): [id: string, score: string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!]);
  return pairs;
}

interface ReadRow {
  row: FailedRowView;
  /** the whole error, for matching */
  error: string;
}

// One pipelined HMGET per id; ids whose hash is gone (or is not a hash) are
// left out, as failedRows() leaves them out.
async function readRows(queue: RedisQueue, entries: [string, string][]): Promise<ReadRow[]> {
  if (entries.length === 0) return [];
  const reads = queue.redis.pipeline();
  for (const [id] of entries) reads.hmgetBuffer(queue.keys.job(id), ...ROW_FIELDS);
  const replies = await settlePipeline(reads);
  return entries.flatMap(([id, score], index) => {
    const values = replies[index];
    if (!Array.isArray(values) || values.every((value) => value === null)) return [];
    const [queueName, name, attempts, maxAttempts, failedAt, errorText] = (values as (Buffer | null)[]).map((value) =>
      value === null ? '' : bytesToText(value),
    ) as [string, string, string, string, string, string];
    return [
      {
        row: {
          id,
          exact: isExactJobId(id),
          queue: queueName,
          name,
          attempts,
          maxAttempts,
          failedAt,
          failedAtSeconds: Number(score),
          errorFirstLine: firstLine(errorText),
          retryCommand: null,
        },
        error: errorText,
      },
    ];
  });
}

/** One page of failed jobs, newest first. */
export function readFailedPage(queue: RedisQueue, offset: number, limit: number): Promise<FailedPage> {
  return queue.attempt(async () => {
    const [total, flat] = (await execPipeline(
      queue.redis
        .pipeline()
        .zcard(queue.keys.failed)
        .zrevrange(queue.keys.failed, offset, offset + limit - 1, 'WITHSCORES'),
    )) as [number, string[]];
    const rows = (await readRows(queue, withScores(flat))).map(({ row }) => row);
    return { rows, total, offset, limit };
  });
}

function matchesFilter({ row, error }: ReadRow, filter: FailedFilter): boolean {
  const contains = (text: string, part: string | undefined) => !part || text.toLowerCase().includes(part.toLowerCase());
  return (!filter.queue || row.queue === filter.queue) && contains(row.name, filter.name) && contains(error, filter.error);
}

/**
 * Looks through the failed set from `offset`, newest first, in pipelined
 * batches of `batchSize`, for jobs matching `filter`; stops after
 * `scanLimit` entries so that one call stays short. Callers continue from
 * `nextOffset` until `done`, showing progress in between.
 */
export function searchFailed(
  queue: RedisQueue,
  filter: FailedFilter,
  { offset = 0, scanLimit = 2000, batchSize = 250 }: { offset?: number; scanLimit?: number; batchSize?: number } = {},
): Promise<FailedSearchChunk> {
  return queue.attempt(async () => {
    const matches: FailedRowView[] = [];
    let position = offset;
    let scanned = 0;
    let done = false;
    let total = 0;
    while (scanned < scanLimit) {
      const size = Math.min(batchSize, scanLimit - scanned);
      const [count, flat] = (await execPipeline(
        queue.redis
          .pipeline()
          .zcard(queue.keys.failed)
          .zrevrange(queue.keys.failed, position, position + size - 1, 'WITHSCORES'),
      )) as [number, string[]];
      total = count;
      const entries = withScores(flat);
      for (const read of await readRows(queue, entries)) if (matchesFilter(read, filter)) matches.push(read.row);
      position += entries.length;
      scanned += entries.length;
      if (entries.length < size) {
        done = true;
        break;
      }
    }
    return { matches, nextOffset: position, scanned, total, done };
  });
}

/** Failed ids one script call looks at: about 1 µs of Redis each, so a call stays near half a millisecond. */
const FAILED_IDS_PER_CALL = 500;

/**
 * The newest `limit` failed jobs of one queue, looked for among the newest
 * `window` failed jobs of every queue: a bounded script finds their ids
 * (lua/staticphp/read-failed-of-queue-1.lua), FAILED_IDS_PER_CALL ids a call, then only
 * their rows are read.
 */
export function latestFailedOfQueue(queue: RedisQueue, name: string, { window, limit }: { window: number; limit: number }): Promise<FailedRowView[]> {
  return queue.attempt(async () => {
    const found = new Map<string, string>();
    let start = 0;
    while (start < window && found.size < limit) {
      const count = Math.min(FAILED_IDS_PER_CALL, window - start);
      const wanted = limit - found.size;
      const { looked, matches } = await readFailedOfQueue.run(queue.redis, {
        failed: queue.keys.failed,
        prefix: queue.keys.prefix,
        queue: name,
        start,
        count,
        limit: wanted,
      });
      // A job failing between two calls moves the others down a rank: one seen before may come again.
      for (const { id, score } of matches) if (!found.has(id)) found.set(id, score);
      start += looked;
      // Fewer ids looked at than asked for, without stopping at the matches wanted: the set ended.
      if (looked < count && matches.length < wanted) break;
    }
    return (await readRows(queue, [...found])).map(({ row }) => row);
  });
}
