import type { DueTimeline, JobIdAcrossQueues, JobLine, JobSnapshot } from '../layouts/pages';
import { seenPlaceParam, type SeenPlace } from '../shapes/job-location';
import { queryOptions } from '@tanstack/react-query';
import type { JobElsewhere } from '../shapes/job-elsewhere';
import { fetchApi } from './api';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { DueTimeline, JobLine, JobSnapshot };

function search(params: Record<string, string | number | undefined>): string {
  const entries = Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== 1);
  const query = new URLSearchParams(entries.map(([name, value]) => [name, String(value)]));
  return query.size > 0 ? `?${query}` : '';
}

/** GET /api/queues/{queue}?page=: one page of a queue's waiting jobs in the order they run, and what the layout tells more of the queue. */
export function jobLineQuery(queue: string, page: number) {
  return liveQueryOptions<JobLine>(queryKeys.queues.line(queue, page), `/api/queues/${encodeURIComponent(queue)}${search({ page })}`);
}

/** GET /api/queues/{queue}/delayed: a queue's delayed jobs by when they come due. */
export function dueTimelineQuery(queue: string) {
  return liveQueryOptions<DueTimeline>(queryKeys.queues.delayed(queue), `/api/queues/${encodeURIComponent(queue)}/delayed`);
}

/** GET /api/jobs/{id}?queue=&near=: one job by its id, where it is and its data decoded (a job hash's fields where the layout keeps one); without a queue on a connection of several, the queues holding the id when not exactly one does. `near`: where a page saw it in its queue's list. */
export function jobSnapshotQuery(id: string, queue?: string, near?: SeenPlace) {
  const nearParam = near === undefined ? undefined : seenPlaceParam(near);
  return liveQueryOptions<JobSnapshot | JobIdAcrossQueues>(
    queryKeys.jobs.snapshot(id, queue ?? '', nearParam ?? ''),
    `/api/jobs/${id}${search({ queue, near: nearParam })}`,
  );
}

/** GET /api/jobs/{id}/elsewhere: the other connections holding a job with an application's id (JobElsewhere); asked once a page needs it, not polled. */
export function jobElsewhereQuery(id: string) {
  return queryOptions({
    queryKey: queryKeys.jobs.elsewhere(id),
    queryFn: ({ signal }) => fetchApi<JobElsewhere>(`/api/jobs/${encodeURIComponent(id)}/elsewhere`, signal),
    staleTime: 5_000,
    retry: false,
  });
}
