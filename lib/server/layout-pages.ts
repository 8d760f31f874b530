import 'server-only';
import { z } from 'zod';
import type { SharedReadKey } from '@/lib/dashboard/shared-reads';
import type { DueTimeline, JobIdAcrossQueues, JobLine, JobSnapshot } from '@/lib/layouts/pages';
import { seenPlaceParam, parseSeenPlace, type SeenPlace } from '@/lib/shapes/job-location';
import { readCapability, readLargeValues, type HeldRead, type ReadResult } from './queue';

/** `?page=N` of a paged list, from 1. */
export const pageParams = z.object({
  page: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1),
});

/** Where a page saw a job in its queue (SeenPlace), as an action's input names it: a place in a list, or any score a set may hold (another producer may write one that is no whole second). */
export const seenPlaceInput = z.union([
  z.object({
    from: z.enum(['head', 'tail']),
    at: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    length: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  }),
  z.object({ from: z.literal('score'), at: z.number().finite() }),
]);

export const jobSnapshotParams = z.object({
  queue: z.string().min(1).max(1000).optional(),
  // Where a page saw the job in its queue's list (seenPlaceParam): a hint, so one that cannot be read is left out, not refused.
  near: z.string().max(40).optional().transform(parseSeenPlace),
});

/** One page of a queue's line, for GET /api/queues/{queue} and the queue page's prefetch. */
export function readJobLinePage(queue: string, page: number): Promise<ReadResult<JobLine>> {
  return readCapability('jobLine', (line) => line.read(queue, { page }), ['line', queue, page]);
}

/** A queue's delayed timeline with layout-neutral rows, for GET /api/queues/{queue}/delayed and the delayed and queue pages' prefetch. */
export function readDueTimelinePage(queue: string): Promise<ReadResult<DueTimeline>> {
  return readCapability('dueTimeline', (timeline) => timeline.read(queue), ['due', queue]);
}

/** One job by its id (of `queue`, looked for `near` where a page saw it; without a queue, looked up in each of the connection's queues), for GET /api/jobs/{id}, the job page's prefetch and "Go to job". */
export function readJobSnapshotPage(id: string, queue?: string, near?: SeenPlace): Promise<ReadResult<JobSnapshot | JobIdAcrossQueues>> {
  return readCapability('jobSnapshot', (snapshot) => snapshot.read(id, queue, queue === undefined ? undefined : near), jobSnapshotKey(id, queue, near));
}

/** What a job look-up is shared by: the same look-up asked by another tab, or by another connection's "Go to job" (lib/server/job-elsewhere.ts), is one read. */
export function jobSnapshotKey(id: string, queue?: string, near?: SeenPlace): SharedReadKey {
  return ['job-snapshot', id, queue ?? '', queue === undefined || near === undefined ? '' : seenPlaceParam(near)];
}

/** The whole stored bytes of one field of a job hash, for GET /api/jobs/{id}/fields/{field}: a large read held until released; null when the job or the field is gone. */
export function readJobHashField(id: number, field: string): Promise<ReadResult<HeldRead<Buffer | null>>> {
  return readLargeValues('jobHashFields', (hashes) => hashes.fieldBytes(id, field));
}
