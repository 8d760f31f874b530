import { formatRelative, formatUtc, isoOf } from '@/components/ui/format-moment';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { FailedRowView } from '@/lib/shapes/failed-jobs';
import { jobIdAsRead } from '@/lib/shapes/job-ids';
import { JobLink, JobName } from './job-link';

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
