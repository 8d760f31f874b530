'use client';

import Link from 'next/link';
import { JobFields } from '@/components/jobs/job-fields';
import { JobLocationNote } from '@/components/jobs/job-location';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { ChangeControls } from '@/components/shell/change-permission';
import { Section } from '@/components/ui/section';
import type { JobDetail } from '@/lib/queries/job-detail';
import { jobDetailQuery } from '@/lib/queries/job-detail';
import { overviewHref, queueHref } from '@/lib/routes';
import { FailedJobActions } from './failed-job-actions';

function textOf(detail: JobDetail, field: string): string | null {
  return detail.fields.find((candidate) => candidate.name === field)?.value.text ?? null;
}

/** One job, live: where it is now, what can be done about it, and every field of its hash. */
export function JobDetailView({ id }: { id: number }) {
  const view = useLiveQuery(jobDetailQuery(id));
  const detail = view.data;
  const queue = detail ? textOf(detail, 'queue') : null;
  const name = detail ? textOf(detail, 'name') : null;

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <p className="text-sm">
          <Link
            href={queue ? queueHref(queue) : overviewHref}
            className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400 [overflow-wrap:anywhere]"
          >
            <span aria-hidden="true">← </span>
            {queue ? (
              <>
                Queue <span className="font-mono">{queue}</span>
              </>
            ) : (
              'All queues'
            )}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight">Job {id}</h1>
        {name !== null && <p className="font-mono text-sm text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400">{name}</p>}
      </div>
      <LiveErrorBanner title={`Cannot read job ${id}`} view={view} />
      {detail === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the job…</p>
      ) : detail === null ? (
        <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
          <p className="font-semibold">Job {id} is gone (completed or forgotten).</p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            A job&apos;s hash is deleted when it completes or is forgotten, so nothing of it is left to show.
          </p>
        </div>
      ) : (
        <>
          <Section title="Where it is now">
            <JobLocationNote location={detail.location} now={detail.now} />
            {detail.location.state === 'failed' && (
              <ChangeControls>
                <FailedJobActions id={id} maxAttempts={textOf(detail, 'max_attempts')} />
              </ChangeControls>
            )}
          </Section>
          <Section title="Fields" description="The job's hash as stored. Bytes that are not UTF-8 show as \xNN.">
            <JobFields detail={detail} />
          </Section>
        </>
      )}
    </div>
  );
}

/** A /jobs/ address whose last part is not a job id. */
export function NotAJobId({ segment }: { segment: string }) {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Not a job id</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400 [overflow-wrap:anywhere]">
        “<span className="font-mono">{segment}</span>” is not a job id: a job id is a whole number above 0, such as{' '}
        <span className="font-mono">42</span>. Type one in “Go to job” above, or open a job from its queue.
      </p>
    </div>
  );
}
