import { JobLink, JobName } from '@/components/queues/job-link';
import { DueMoment } from '@/components/ui/due-moment';
import { UtcMoment } from '@/components/ui/moment';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { DelayedTimeline } from '@/lib/queries/delayed-timeline';

/**
 * The delayed jobs due soonest, overdue ones first, each with a button to run
 * it now when it can be: a job parked while its holder's claim is live says
 * who holds it and until when instead.
 */
export function NextDueTable({
  label,
  timeline,
  runningId,
  onRunNow,
}: {
  label: string;
  timeline: DelayedTimeline;
  /** the job whose run-now is on its way */
  runningId: number | null;
  /** absent for a session that cannot change queues: no buttons then */
  onRunNow?: (job: DelayedTimeline['next'][number]) => void;
}) {
  const { now } = timeline;
  return (
    <DataTable
      label={label}
      minWidthClass="min-w-[40rem]"
      stacked
      head={
        <>
          <HeaderCell>Job</HeaderCell>
          <HeaderCell>Name</HeaderCell>
          <HeaderCell>Due</HeaderCell>
          {onRunNow && (
            <th scope="col" className="px-4 py-2">
              <span className="sr-only">Actions</span>
            </th>
          )}
        </>
      }
    >
      {timeline.next.map((job) => (
        <tr key={job.id}>
          <Cell>
            <JobLink id={job.id} />
          </Cell>
          <Cell label="Name">
            <JobName name={job.name} />
            {job.heldBy && (
              <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
                Parked: {job.heldBy.holder === '' ? 'its holder' : <span className="font-mono">{job.heldBy.holder}</span>} holds its claim until{' '}
                <UtcMoment seconds={job.heldBy.until} now={now} />
              </p>
            )}
          </Cell>
          <Cell label="Due">
            <DueMoment dueAt={job.dueAt} now={now} overdueLabel="overdue" />
          </Cell>
          {onRunNow && (
            <td className="px-4 py-1.5 text-right align-top">
              {typeof job.id === 'string' ? null : job.heldBy ? (
                // Running it now would run it a second time beside its holder; the server refuses it too.
                <span className="text-xs whitespace-nowrap text-zinc-600 dark:text-zinc-400">Runs once the claim ends</span>
              ) : (
                <button type="button" onClick={() => onRunNow(job)} disabled={runningId !== null} className="button-secondary whitespace-nowrap">
                  {runningId === job.id ? 'Running…' : 'Run now'}
                  {/* After the visible words, so the name starts with what the button shows. */}
                  <span className="sr-only"> job {job.id}</span>
                </button>
              )}
            </td>
          )}
        </tr>
      ))}
    </DataTable>
  );
}
