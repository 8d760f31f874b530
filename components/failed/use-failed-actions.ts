'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { forgetJobs, forgetOldestStep, retryJobs, retryOldestStep } from '@/app/failed/actions';
import { useToast } from '@/components/ui/toaster';
import { useUndoToast } from '@/components/trash/use-restore';
import { describeForget, describeRetry, describeStop, withUnmatched } from './outcome-messages';
import { outcomesOf, type ListedOutcome } from './listed-outcomes';
import { useBulkRun, type BulkOutcome, type BulkStep } from './use-bulk-run';
import { getTabConnection } from '@/lib/queries/tab-connection';
import type { FindQuery } from '@/lib/shapes/find';

/** Ids per action call; the driver runs each call as one script over at most this many. */
const IDS_PER_CALL = 200;

/** The search that listed the ids an action takes (Find's), which each must still match. */
type ListedBy = Pick<FindQuery, 'text' | 'field' | 'ignoreCase'>;

const listedBy = (search: ListedBy | undefined) => search && { text: search.text, field: search.field, ignoreCase: search.ignoreCase };

/**
 * The failed-job mutations with their toasts, progress and refreshes. Every
 * one acts only on ids that are in the failed set at that moment, so two
 * tabs retrying the same job requeue it once and the other is told it was
 * no longer failed.
 */
export function useFailedActions() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const { progress, run, cancel } = useBulkRun();
  const undoToast = useUndoToast();

  // A retry or a forget changes the failed list, the queues, the overview and
  // the jobs' own pages alike: every live query is refreshed.
  const refresh = useCallback(() => queryClient.invalidateQueries(), [queryClient]);

  // `undo`: the ids a forget kept in the trash, for the toast's Undo.
  const finish = useCallback(
    (outcome: BulkOutcome, verb: string, total: number, summary: string, undo?: readonly string[]) => {
      if (outcome.error) toast.error(outcome.handled > 0 ? `${outcome.error} (${summary} before that)` : outcome.error);
      else if (outcome.cancelled) toast.success(`${describeStop(verb, outcome.handled, total)}. ${summary}.`);
      else if (undo !== undefined) undoToast(summary, undo, true);
      else toast.success(summary);
      void refresh();
    },
    [toast, refresh, undoToast],
  );

  /** Retries these ids, IDS_PER_CALL per call; `search`: the search that listed them, which each must still match. What it did to each id it reached. */
  const retryIds = useCallback(
    async (ids: readonly string[], maxAttempts: number | undefined, search?: ListedBy): Promise<Map<string, ListedOutcome>> => {
      const counts = { requeued: 0, notFailed: 0, missing: 0, unmatched: 0, refused: [] as string[] };
      const outcomes = new Map<string, ListedOutcome>();
      let next = 0;
      const outcome = await run('Retrying', ids.length, async (): Promise<BulkStep> => {
        const batch = ids.slice(next, (next += IDS_PER_CALL));
        if (batch.length === 0) return { ok: true, handled: 0, finished: true };
        const result = await retryJobs({ ids: [...batch], maxAttempts, search: listedBy(search) }, getTabConnection());
        if (!result.ok) return result;
        counts.requeued += result.requeued.length;
        counts.notFailed += result.notFailed.length;
        counts.missing += result.missing.length;
        counts.unmatched += result.unmatched;
        counts.refused.push(...result.refused.map((refusal) => refusal.why));
        const named = [
          ['retried', result.requeued],
          ['no longer failed', result.notFailed],
          ['gone', result.missing],
          ['not retried', result.refused.map((refusal) => refusal.id)],
        ] as const;
        for (const [id, done] of outcomesOf(batch, named, 'no longer matched')) outcomes.set(id, done);
        return { ok: true, handled: batch.length, finished: next >= ids.length };
      });
      const summary = describeRetry(counts.requeued, counts.notFailed, counts.missing, counts.refused);
      finish(outcome, 'retrying', ids.length, withUnmatched(summary, counts.unmatched));
      return outcomes;
    },
    [run, finish],
  );

  /** Forgets these ids, IDS_PER_CALL per call; `search`: the search that listed them, which each must still match. What it did to each id it reached. */
  const forgetIds = useCallback(
    async (ids: readonly string[], search?: ListedBy): Promise<Map<string, ListedOutcome>> => {
      const counts = { forgotten: 0, notFailed: 0, unmatched: 0 };
      const outcomes = new Map<string, ListedOutcome>();
      let kept = false;
      let next = 0;
      const outcome = await run('Forgetting', ids.length, async (): Promise<BulkStep> => {
        const batch = ids.slice(next, (next += IDS_PER_CALL));
        if (batch.length === 0) return { ok: true, handled: 0, finished: true };
        const result = await forgetJobs({ ids: [...batch], search: listedBy(search) }, getTabConnection());
        if (!result.ok) return result;
        counts.forgotten += result.forgotten;
        counts.notFailed += result.notFailed;
        counts.unmatched += result.unmatched;
        kept = result.kept;
        const forgotten = result.notFailed === 0 ? 'forgotten' : 'forgotten or no longer failed';
        for (const [id, done] of outcomesOf(batch, [['no longer matched', result.unmatchedIds]], forgotten)) outcomes.set(id, done);
        return { ok: true, handled: batch.length, finished: next >= ids.length };
      });
      const summary = withUnmatched(describeForget(counts.forgotten, counts.notFailed), counts.unmatched);
      finish(outcome, 'forgetting', ids.length, summary, kept && counts.forgotten > 0 ? ids : undefined);
      return outcomes;
    },
    [run, finish],
  );

  /** Retries every failed job, oldest first, a bounded step at a time; `total` is the preview's count. */
  const retryAll = useCallback(
    async (total: number, maxAttempts: number | undefined) => {
      const counts = { requeued: 0, notFailed: 0, missing: 0, refused: [] as string[] };
      // Where the next step goes on: a layout that keeps retried jobs on its list (Horizon) steps past them.
      let from: string | null = null;
      const outcome = await run('Retrying every failed job', total, async (): Promise<BulkStep> => {
        const result = await retryOldestStep({ maxAttempts, from }, getTabConnection());
        if (!result.ok) return result;
        counts.requeued += result.requeued.length;
        counts.missing += result.missing.length;
        counts.refused.push(...result.refused.map((refusal) => refusal.why));
        from = result.next;
        return { ok: true, handled: result.looked, finished: result.remaining === 0 };
      });
      finish(outcome, 'retrying', total, describeRetry(counts.requeued, counts.notFailed, counts.missing, counts.refused));
    },
    [run, finish],
  );

  /** Forgets every failed job, or those failed before `before`, a bounded step at a time. */
  const forgetOldest = useCallback(
    async (total: number, before: string | null) => {
      let forgotten = 0;
      let kept = false;
      const label = before === null ? 'Forgetting every failed job' : `Forgetting jobs failed before ${before}`;
      const outcome = await run(label, total, async (): Promise<BulkStep> => {
        const result = await forgetOldestStep({ before }, getTabConnection());
        if (!result.ok) return result;
        forgotten += result.forgotten;
        kept = result.kept;
        return { ok: true, handled: result.forgotten, finished: result.remaining === 0 };
      });
      // Too many ids for an Undo in the toast: the Trash page restores them.
      const summary = describeForget(forgotten, 0);
      finish(outcome, 'forgetting', total, kept && forgotten > 0 ? `${summary}. Kept in the Trash, to restore from there` : summary);
    },
    [run, finish],
  );

  return { progress, cancel, retryIds, forgetIds, retryAll, forgetOldest };
}
