import { formatRelative, formatUtc, isoOf } from '@/components/ui/format-moment';
import { UtcMoment } from '@/components/ui/moment';
import { DueMoment } from '@/components/ui/due-moment';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { FailedRowView } from '@/lib/inspect/failed';
import type { QueueDetail } from '@/lib/inspect/queue-detail';
import { jobIdAsRead } from '@/lib/queue/job';
import { JobLink, JobName } from './job-link';

/** Jobs not yet handed to a worker, in the order reserve takes them. */
export function NextJobsTable({ label, jobs, now }: { label: string; jobs: QueueDetail['nextJobs']; now: number }) {
  return (
    <DataTable
      label={label}
      minWidthClass="min-w-[36rem]"
      head={
        <>
          <HeaderCell>Job</HeaderCell>
          <HeaderCell>Name</HeaderCell>
          <HeaderCell numeric>Level</HeaderCell>
          <HeaderCell>Enqueued</HeaderCell>
        </>
      }
    >
      {jobs.map((job) => (
        <tr key={`${job.level}:${job.id}:${job.enqueuedAt}`}>
          <Cell>
            <JobLink id={job.id} />
          </Cell>
          <Cell>
            <JobName name={job.name} />
          </Cell>
          <Cell numeric>{job.level}</Cell>
          <Cell>
            <UtcMoment seconds={job.enqueuedAt / 1000} now={now} />
          </Cell>
        </tr>
      ))}
    </DataTable>
  );
}

/** Delayed jobs, due soonest first; a due one waits for a worker taking a job from this queue to move it into its level. */
export function DelayedJobsTable({ label, jobs, now }: { label: string; jobs: QueueDetail['delayedSoonest']; now: number }) {
  return (
    <DataTable
      label={label}
      minWidthClass="min-w-[36rem]"
      head={
        <>
          <HeaderCell>Job</HeaderCell>
          <HeaderCell>Name</HeaderCell>
          <HeaderCell>Due</HeaderCell>
        </>
      }
    >
      {jobs.map((job) => (
        <tr key={job.id}>
          <Cell>
            <JobLink id={job.id} />
          </Cell>
          <Cell>
            <JobName name={job.name} />
          </Cell>
          <Cell>
            <DueMoment dueAt={job.dueAt} now={now} overdueLabel="due, waiting for a worker to move it into its level" />
          </Cell>
        </tr>
      ))}
    </DataTable>
  );
}

/** The queue's newest failed jobs, with the first line of each error. */
export function QueueFailedTable({ label, jobs, now }: { label: string; jobs: readonly FailedRowView[]; now: number }) {
  return (
    <DataTable
      label={label}
      minWidthClass="min-w-[40rem]"
      head={
        <>
          <HeaderCell>Job</HeaderCell>
          <HeaderCell>Name</HeaderCell>
          <HeaderCell>Failed at (UTC)</HeaderCell>
          <HeaderCell>Error</HeaderCell>
        </>
      }
    >
      {jobs.map((job) => (
        <tr key={job.id}>
          <Cell>
            <JobLink id={jobIdAsRead(job.id)} />
          </Cell>
          <Cell>
            <JobName name={job.name} />
          </Cell>
          <Cell>
            {/* failed_at as stored; the failed set's score says when it is missing. */}
            <time dateTime={isoOf(job.failedAtSeconds)} className="whitespace-nowrap tabular-nums">
              {job.failedAt || formatUtc(job.failedAtSeconds, now)}
            </time>{' '}
            <span className="whitespace-nowrap text-zinc-500 dark:text-zinc-400">({formatRelative(job.failedAtSeconds, now)})</span>
          </Cell>
          <Cell code>{job.errorFirstLine}</Cell>
        </tr>
      ))}
    </DataTable>
  );
}
