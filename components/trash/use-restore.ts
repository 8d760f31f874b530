'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { restoreJobs } from '@/app/trash/actions';
import { useToast } from '@/components/ui/toaster';
import { plural } from '@/components/ui/format-count';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { BATCH_SIZE } from '@/lib/shapes/failed-jobs';

const NO_ANSWER = 'The QueueLens server did not answer; the jobs may or may not have been restored. The Trash page shows what is still there.';

/**
 * Restores jobs from the trash, BATCH_SIZE per call, and says in a toast what
 * came back and why any did not; `restored` is called with the ids that did,
 * for a page that drops their rows.
 */
export function useRestore() {
  const toast = useToast();
  const queryClient = useQueryClient();
  return useCallback(
    async (ids: readonly string[], restored?: (ids: string[]) => void) => {
      const back: string[] = [];
      const refusals: string[] = [];
      try {
        for (let start = 0; start < ids.length; start += BATCH_SIZE) {
          const result = await restoreJobs({ ids: ids.slice(start, start + BATCH_SIZE) }, getTabConnection());
          if (!result.ok) {
            refusals.push(result.error);
            break;
          }
          back.push(...result.restored);
          refusals.push(...result.refusals);
        }
      } catch {
        refusals.push(NO_ANSWER);
      }
      if (back.length > 0)
        toast.success(
          `Restored ${plural(back.length, 'job')}: ${back.length === 1 ? 'it is' : 'they are'} back where ${back.length === 1 ? 'it was' : 'they were'} taken from`,
        );
      if (refusals.length > 0) toast.error(refusals.slice(0, 3).join('. ') + (refusals.length > 3 ? ` (and ${refusals.length - 3} more)` : ''));
      restored?.(back);
      await queryClient.invalidateQueries();
    },
    [toast, queryClient],
  );
}

/** The toast after a forget or remove: its summary, with Undo when the jobs were kept in the trash. */
export function useUndoToast() {
  const toast = useToast();
  const restore = useRestore();
  return useCallback(
    (summary: string, ids: readonly string[], kept: boolean) => {
      if (kept && ids.length > 0) toast.success(`${summary.replace(/\.$/, '')}. Kept in the Trash.`, { label: 'Undo', run: () => void restore(ids) });
      else toast.success(summary);
    },
    [toast, restore],
  );
}
