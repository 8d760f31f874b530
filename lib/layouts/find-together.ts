import type { ChainableCommander } from 'ioredis';
import type { RedisConnection } from '../redis/connection';
import { settlePipeline } from '../redis/pipeline';
import { sizedChunk, type ChunkBudget, type ChunkRead, type FindChunk } from './find-steps';

/** An index of ids or jobs as its length is read: the command that counts it, and its key. */
export interface CountedIndex {
  length: 'llen' | 'zcard' | 'xlen' | 'hlen';
  key: string;
}

/** The size of a part read on its own, never with others. */
const READ_ALONE = { ids: 0, weight: Infinity };

/**
 * What reading each index whole costs (PartsReadTogether.sizes), one round
 * trip: its length, and with `bytes` (where the index holds the jobs
 * themselves) its bytes as MEMORY USAGE estimates them, in ids of a chunk of
 * `budget`. An index given as null, or whose size cannot be read (a key of
 * another type, MEMORY refused), is read alone.
 */
export async function indexSizes(
  connection: RedisConnection,
  indexes: readonly (CountedIndex | null)[],
  budget: ChunkBudget,
  bytes: boolean,
): Promise<{ ids: number; weight: number }[]> {
  const pipeline = connection.redis.pipeline();
  for (const index of indexes) {
    if (index === null) continue;
    pipeline[index.length](index.key);
    if (bytes) pipeline.memory('USAGE', index.key, 'SAMPLES', 5);
  }
  const replies = indexes.some((index) => index !== null) ? await connection.attempt(() => settlePipeline(pipeline)) : [];
  return indexes.map((index) => {
    if (index === null) return READ_ALONE;
    const [ids, used = null] = replies.splice(0, bytes ? 2 : 1);
    if (typeof ids !== 'number' || !(typeof used === 'number' || used === null)) return READ_ALONE;
    return { ids, weight: Math.max(ids, Math.ceil(((used ?? 0) * budget.max) / budget.bytes)) };
  });
}

/**
 * Several parts read in one round trip (PartsReadTogether.read): the calls
 * `queueCalls` adds to a pipeline, one a part, and each reply as `readOf`
 * reads it, a chunk sized for the next from `size`, or the error reading it
 * met, in its place.
 */
export async function readInOneRoundTrip(
  connection: RedisConnection,
  budget: ChunkBudget,
  size: number | undefined,
  queueCalls: (pipeline: ChainableCommander) => void,
  readOf: (reply: unknown, index: number) => ChunkRead,
): Promise<(FindChunk | Error)[]> {
  const pipeline = connection.redis.pipeline();
  queueCalls(pipeline);
  const replies = await connection.attempt(() => settlePipeline(pipeline));
  return Promise.all(
    replies.map((reply, index) =>
      connection
        .attempt(async () => {
          if (reply instanceof Error) throw reply;
          return sizedChunk(budget, size, readOf(reply, index));
        })
        .catch((error: Error) => error),
    ),
  );
}
