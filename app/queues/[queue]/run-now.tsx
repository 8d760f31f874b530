'use client';

import { LineRepairButton } from '@/components/layouts/line-repair-button';
import { UtcMoment } from '@/components/ui/moment';
import type { DueJob, DueTimeline } from '@/lib/layouts/pages';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { runDueJobNow } from './line-actions';

/** Run now for one job: asked first where the layout's Run now moves it into line at once. */
function RunNow({ timeline, job }: { timeline: DueTimeline; job: DueJob }) {
  const { queue, now, runNowMoves } = timeline;
  return (
    <LineRepairButton
      label="Run now"
      busyLabel={runNowMoves === undefined ? 'Running now…' : 'Moving…'}
      subject={`job ${job.id} on ${queue}`}
      question={
        runNowMoves === undefined
          ? undefined
          : {
              title: `Run job ${job.id} now?`,
              confirmLabel: `Run job ${job.id} now`,
              body: (
                <>
                  <p>
                    It is due <UtcMoment seconds={job.dueAt} now={now} />. {runNowMoves}
                  </p>
                  <p>If a worker moved it in meanwhile, nothing changes and you are told so.</p>
                </>
              ),
            }
      }
      action={() => runDueJobNow({ queue, id: job.id, near: job.near }, getTabConnection())}
      done={`Job ${job.id} is due now: it is in line, or goes there at the driver's next move (drivers that move jobs only as they reserve).`}
      unchanged={`Job ${job.id} is no longer delayed.`}
    />
  );
}

/**
 * What a delayed job's row offers (the delayed timeline's and the queue
 * page's due-soonest list): Run now, or why it waits for its holder, or
 * nothing for a due job the layout only makes due (it is due already) or an
 * id that is not exact.
 */
export function RunNowAction({ timeline, job }: { timeline: DueTimeline; job: DueJob }) {
  if (job.idNote !== undefined) return null;
  if (job.heldBy)
    // Running it now would run it a second time beside its holder; the script refuses it too.
    return <span className="text-xs whitespace-nowrap text-zinc-600 dark:text-zinc-400">Runs once the claim ends</span>;
  if (job.dueAt <= timeline.now && timeline.runNowMoves === undefined) return null;
  return <RunNow timeline={timeline} job={job} />;
}
