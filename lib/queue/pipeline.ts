import { ReplyError, type ChainableCommander } from 'ioredis';

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
