'use client';

import Link from 'next/link';
import { ErrorExcerpt } from '@/components/jobs/error-excerpt';
import { fieldAnchor, JobFields } from '@/components/jobs/job-fields';
import { JobLocationNote } from '@/components/jobs/job-location';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { ChangeControls } from '@/components/shell/change-permission';
import { Section } from '@/components/ui/section';
import type { JobDetail, JobGone } from '@/lib/queries/job-detail';
import { jobDetailQuery } from '@/lib/queries/job-detail';
import { overviewHref, queueHref, reservationOfJobHref } from '@/lib/routes';
import { ReservationActions } from '@/app/reservations/reservation-actions';
import { FailedJobActions } from './failed-job-actions';

function textOf(detail: JobDetail, field: string): string | null {
  return detail.fields.find((candidate) => candidate.name === field)?.value.text ?? null;
}

/** The errors a job carries, first lines of each, for the top of its page: `error` once it failed, `last_error` whenever it has one. */
function ErrorExcerpts({ detail }: { detail: JobDetail }) {
  const error = detail.location.state === 'failed' ? textOf(detail, 'error') : null;
  const lastError = textOf(detail, 'last_error');
  return (
    <>
      {error && <ErrorExcerpt label="Error" text={error} href={`#${fieldAnchor('error')}`} />}
      {lastError && lastError !== error && <ErrorExcerpt label="Last error" text={lastError} href={`#${fieldAnchor('last_error')}`} />}
    </>
  );
}

/** A reserved job's repairs, the reservations page's own, and a link to its holder's row there. */
function HeldJobControls({ detail }: { detail: JobDetail }) {
  const { location } = detail;
  const queue = textOf(detail, 'queue');
  if (location.state !== 'reserved' || !queue) return null;
  const held = { queue, level: location.level, entry: location.entry };
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
      <ChangeControls>
        <ReservationActions
          row={{
            ...held,
            jobId: detail.id,
            state: location.overdue ? 'overdue' : 'running',
            reservedBy: location.reservedBy,
            // As stored: the repair applies only while the hash still says exactly this.
            reservedUntil: textOf(detail, 'reserved_until') ?? '',
            attempts: textOf(detail, 'attempts'),
          }}
        />
      </ChangeControls>
      <Link href={reservationOfJobHref(held)} className="text-sm text-blue-700 underline underline-offset-2 dark:text-blue-400">
        Its holder’s row in the reservations
      </Link>
    </div>
  );
}

/** A job id with no hash: finished or forgotten, or an id the queue never handed out. */
function GoneJob({ gone }: { gone: JobGone }) {
  const neverExisted = gone.id > gone.lastId;
  return (
    <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
      <p className="font-semibold">{neverExisted ? `No job ${gone.id}: no such job was ever pushed.` : `Job ${gone.id} is gone (finished or forgotten).`}</p>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        {neverExisted
          ? `Ids are handed out in order, and the highest so far is ${gone.lastId}. Check the id, or the connection the page shows.`
          : 'A job is deleted when it completes or is forgotten, so nothing of it is left to show.'}
      </p>
    </div>
  );
}

/** One job, live: where it is now (with its errors' first lines), what can be done about it, and every field of its hash. */
export function JobDetailView({ id }: { id: number }) {
  const view = useLiveQuery(jobDetailQuery(id));
  const page = view.data;
  const detail = page === undefined || 'gone' in page ? null : page;
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
      {page === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the job…</p>
      ) : detail === null ? (
        'gone' in page && <GoneJob gone={page} />
      ) : (
        <>
          <Section title="Where it is now">
            <JobLocationNote location={detail.location} now={detail.now}>
              <ErrorExcerpts detail={detail} />
            </JobLocationNote>
            {detail.location.state === 'failed' && (
              <ChangeControls>
                <FailedJobActions id={id} maxAttempts={textOf(detail, 'max_attempts')} />
              </ChangeControls>
            )}
            <HeldJobControls detail={detail} />
          </Section>
          <Section title="Fields" description="Every field of the job as stored (a Redis hash). Bytes that are not UTF-8 show as \xNN.">
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
