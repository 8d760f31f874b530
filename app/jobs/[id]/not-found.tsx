'use client';

import { useParams, useSearchParams } from 'next/navigation';
import type { LineRepairName } from '@/lib/layouts/pages';
import { JobView } from './job-view';

const NOTHING_TO_CHANGE = 'There is no job here to change';

/** Nothing to repair on a job that is not there; reopen its page once it is back. */
const NONE_OFFERED: Record<LineRepairName, string> = {
  remove: NOTHING_TO_CHANGE,
  releaseExpired: NOTHING_TO_CHANGE,
  reclaim: NOTHING_TO_CHANGE,
  runDelayedNow: NOTHING_TO_CHANGE,
  moveDueJobs: NOTHING_TO_CHANGE,
};

/**
 * The job page's 404: no job answers to the id. It shows what the page
 * would, read live: which queues were looked in, whether such an id was
 * ever handed out, and the job itself should it come back.
 */
export default function JobNotFound() {
  const id = useParams<{ id: string }>().id;
  const queue = useSearchParams().get('queue') ?? undefined;
  return <JobView id={id} queue={queue} repairs={NONE_OFFERED} pushes={false} copies={NOTHING_TO_CHANGE.toLowerCase()} />;
}
