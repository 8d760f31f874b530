import 'server-only';
import { QUEUE_PICKER_OPTIONS } from '@/lib/shapes/queue-picker';
import { z } from 'zod';
import { isAbsent } from '@/lib/layouts/adapter';
import type { FailedFilter, FailedPage, FailedRetry, FailedSearchChunk } from '@/lib/queries/failed';
import { readCapability, type ReadResult } from './queue';

/** The queue filter offers as many queues as the reservations page's picker. */

/** How far one search request looks, so that each answers quickly and the page can show progress. */
const SEARCH_SCAN_PER_REQUEST = 2000;

export const failedPageParams = z.object({
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const failedSearchParams = z.object({
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  queue: z.string().max(1000).optional(),
  name: z.string().max(1000).optional(),
  error: z.string().max(1000).optional(),
});

/** One page of failed jobs, for GET /api/failed and the page's prefetch. */
export function readFailed(offset: number, limit: number): Promise<ReadResult<FailedPage>> {
  return readCapability('failedPages', (pages) => pages.page(offset, limit), ['failed', offset, limit]);
}

/** The next chunk of a search, for GET /api/failed/search. */
export function readFailedSearch(filter: FailedFilter, offset: number): Promise<ReadResult<FailedSearchChunk>> {
  return readCapability('failedPages', (pages) => pages.search(filter, { offset, scanLimit: SEARCH_SCAN_PER_REQUEST }));
}

/** The connection's queues, sorted, for the failed list's queue picker; shared like the pages' reads. */
export function readFailedFilterQueues(): Promise<ReadResult<string[]>> {
  return readCapability('failedPages', (pages) => pages.queueNames(QUEUE_PICKER_OPTIONS + 1), ['queue-names']);
}

/** How the failed page offers retry on the request's connection: QueueLens's own, or the command that retries where the application runs, and why. */
export function readFailedRetry(): Promise<ReadResult<FailedRetry>> {
  return readCapability('failedJobs', async ({ retryFailed: retry }): Promise<FailedRetry> => {
    if (isAbsent(retry)) return { here: false, why: retry.absent, everyCommand: retry.commandsFor(null).join('\n') };
    return { here: true, everyJobAbsent: isAbsent(retry.oldest) ? retry.oldest.absent : null, maxAttempts: retry.maxAttempts === true };
  });
}
