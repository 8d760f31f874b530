import { ReplyError, type ChainableCommander } from 'ioredis';
import type { QueueClient } from './client';

/**
 * A pipeline's replies, with a command Redis refused (WRONGTYPE, NOGROUP…)
 * as its ReplyError in its place, for callers that report per item. A
 * connection failure fails every command alike and is thrown.
 */
export async function settlePipeline(pipeline: ChainableCommander): Promise<unknown[]> {
  return ((await pipeline.exec()) ?? []).map(([error, value]) => {
    if (error && !(error instanceof ReplyError)) throw error;
    return error ?? value;
  });
}

/** A pipeline's replies; the first error is thrown, except refusals that `tolerate` accepts, which read as null. */
export async function execPipeline(pipeline: ChainableCommander, tolerate?: (error: Error) => boolean): Promise<unknown[]> {
  return (await settlePipeline(pipeline)).map((reply) => {
    if (!(reply instanceof Error)) return reply;
    if (tolerate?.(reply)) return null;
    throw reply;
  });
}

/** Commands per round trip when a caller's items are many. */
const PIPELINE_CHUNK = 250;

/**
 * `count` items' commands, built by `build` for each index, sent at most
 * PIPELINE_CHUNK to a round trip, with their replies settled as
 * settlePipeline does (a refusal in its item's place).
 */
export async function settledPipelines(client: QueueClient, count: number, build: (pipeline: ChainableCommander, index: number) => void): Promise<unknown[]> {
  const replies: unknown[] = [];
  for (let start = 0; start < count; start += PIPELINE_CHUNK) {
    const pipeline = client.pipeline();
    for (let index = start; index < Math.min(count, start + PIPELINE_CHUNK); index++) build(pipeline, index);
    replies.push(...(await settlePipeline(pipeline)));
  }
  return replies;
}
