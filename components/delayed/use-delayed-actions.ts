'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useBulkRun } from '@/components/failed/use-bulk-run';
import { useToast } from '@/components/ui/toaster';
import { promoteDueJobs, runDelayedNow } from '@/app/queues/[queue]/delayed/actions';
import { queryKeys } from '@/lib/queries/keys';
import { promoteOutcome, runNowOutcome, type Outcome } from './delayed-outcomes';
import { getTabConnection } from '@/lib/queries/tab-connection';

const NO_ANSWER = 'The QueueLens server did not answer; jobs may or may not have moved. The page shows where they are as soon as a read succeeds.';

/**
 * "Move due jobs now" and "run this job now" for one queue. Promotion
 * runs as a sequence of bounded server calls (each one script moving at
 * most 50), with progress and Cancel between them; both report with a toast
 * and refresh whatever shows the queue's jobs.
 */
export function useDelayedActions(queue: string) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const { progress, run, cancel } = useBulkRun();
  const [runningId, setRunningId] = useState<number | null>(null);

  const report = useCallback(({ tone, message }: Outcome) => (tone === 'success' ? toast.success(message) : toast.error(message)), [toast]);
  const refresh = useCallback(
    () => Promise.all([queryKeys.queues.all, queryKeys.overview.all, queryKeys.jobs.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
    [queryClient],
  );

  const promoteDue = useCallback(
    async (overdue: number) => {
      let promoted = 0;
      let vanished = 0;
      const outcome = await run('Promoting due jobs', overdue, async () => {
        try {
          const step = await promoteDueJobs({ queue }, getTabConnection());
          if (!step.ok) return step;
          promoted += step.promoted.length;
          vanished += step.vanished.length;
          return { ok: true, handled: step.promoted.length + step.vanished.length, finished: step.remainingDue === 0 };
        } catch {
          return { ok: false, error: NO_ANSWER };
        }
      });
      report(promoteOutcome({ promoted, vanished, cancelled: outcome.cancelled, error: outcome.error }));
      await refresh();
    },
    [queue, run, report, refresh],
  );

  const runNow = useCallback(
    async (id: number) => {
      setRunningId(id);
      try {
        const result = await runDelayedNow({ queue, id }, getTabConnection());
        if (result.ok) report(runNowOutcome(id, result));
        else toast.error(result.error);
      } catch {
        toast.error(NO_ANSWER);
      } finally {
        setRunningId(null);
      }
      await refresh();
    },
    [queue, report, refresh, toast],
  );

  return { promoteDue, promoting: progress, cancelPromote: cancel, runNow, runningId };
}
