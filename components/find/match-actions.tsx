'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { removeFoundJobs } from '@/app/find/actions';
import { BulkProgressBar } from '@/components/failed/bulk-progress-bar';
import { describeStop, withUnmatched } from '@/components/failed/outcome-messages';
import { useBulkRun, type BulkStep } from '@/components/failed/use-bulk-run';
import { useFailedActions } from '@/components/failed/use-failed-actions';
import { useChangePermission } from '@/components/shell/change-permission';
import { useUndoToast } from '@/components/trash/use-restore';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatCount, plural } from '@/components/ui/format-count';
import { useToast } from '@/components/ui/toaster';
import { getTabConnection } from '@/lib/queries/tab-connection';
import type { ListedOutcome } from '@/components/failed/listed-outcomes';
import { BATCH_SIZE } from '@/lib/shapes/failed-jobs';
import { FIND_STATES, type FindMatch, type FindQuery, type FindState } from '@/lib/shapes/find';
import { furthestPlaceFirst } from '@/lib/shapes/job-location';

/** What the connection's layout lets an operator do to the jobs a search found, known when the page was read. */
export interface MatchOffers {
  /** QueueLens retries the layout's failed jobs itself */
  retry: boolean;
  /** the layout keeps failed jobs, to forget */
  forget: boolean;
  /** the layout's line repairs remove a waiting, delayed or reserved job */
  remove: boolean;
}

type MatchAction = 'retry' | 'forget' | 'remove';

/** A listed match as the outcomes of an action on the list name it: its queue and id (a yii2 id counts per channel). */
export function matchKey(match: Pick<FindMatch, 'queue' | 'id'>): string {
  return `${match.queue}\u0000${match.id}`;
}

/** "412 matches: 400 failed, 12 delayed". */
function countsText(matches: readonly FindMatch[]): string {
  const parts = FIND_STATES.flatMap((state) => {
    const count = matches.filter((match) => match.state === state).length;
    return count > 0 ? [`${formatCount(count)} ${state}`] : [];
  });
  return `${plural(matches.length, 'match', 'matches')}: ${parts.join(', ')}`;
}

const LIVE_STATES: readonly FindState[] = ['ready', 'delayed', 'reserved'];

/** Removes the found jobs that are live (ready, delayed or reserved), BATCH_SIZE a call, with progress; the toast's Undo restores what the trash kept. What it did to each job it reached, by matchKey. */
function useRemoveMatches(query: FindQuery) {
  const toast = useToast();
  const undoToast = useUndoToast();
  const queryClient = useQueryClient();
  const { progress, run, cancel } = useBulkRun();
  const remove = async (matches: readonly FindMatch[]): Promise<Map<string, ListedOutcome>> => {
    // By matchKey: ids of a layout whose ids count per queue (yii2) repeat across its queues.
    const outcomes = new Map<string, ListedOutcome>();
    const kept: string[] = [];
    let why: string | null = null;
    // A job is looked up where it was seen (a Laravel list's place from its tail): no removal may move a later one's place first.
    const ordered = furthestPlaceFirst(matches);
    let next = 0;
    const outcome = await run('Removing', matches.length, async (): Promise<BulkStep> => {
      const batch = ordered.slice(next, next + BATCH_SIZE);
      if (batch.length === 0) return { ok: true, handled: 0, finished: true };
      next += batch.length;
      const jobs = batch.map(({ queue, id, near }) => ({ queue, id, near }));
      const result = await removeFoundJobs({ text: query.text, field: query.field, ignoreCase: query.ignoreCase, jobs }, getTabConnection());
      if (!result.ok) return result;
      kept.push(...result.kept);
      why ??= result.why;
      batch.forEach((match, i) => outcomes.set(matchKey(match), result.outcomes[i]!));
      return { ok: true, handled: batch.length, finished: next >= matches.length };
    });
    const tally = (wanted: ListedOutcome) => [...outcomes.values()].filter((done) => done === wanted).length;
    const [removed, unmatched, movedOn, refused] = [tally('removed'), tally('no longer matched'), tally('moved on'), tally('not removed')];
    const summary = withUnmatched(
      `Removed ${plural(removed, 'job')}${movedOn > 0 ? `, ${formatCount(movedOn)} had moved on (search again to find them where they are now)` : ''}${refused > 0 ? `, ${formatCount(refused)} not removed (${why})` : ''}`,
      unmatched,
    );
    if (outcome.error) toast.error(outcome.handled > 0 ? `${outcome.error} (${summary} before that)` : outcome.error);
    else if (outcome.cancelled) toast.success(`${describeStop('removing', outcome.handled, matches.length)}. ${summary}.`);
    else undoToast(summary, kept, kept.length > 0);
    await queryClient.invalidateQueries();
    return outcomes;
  };
  return { progress, cancel, remove };
}

/**
 * What an operator can do to every job a search found, counted by state
 * first: retry or forget the failed ones, remove the others, each in bounded
 * steps through the scripts the failed list and the queue pages use, so
 * each job is re-checked where it was found (a job that moved on meanwhile
 * is counted, not changed). A viewer sees the counts only.
 */
export function MatchActions({
  query,
  matches,
  offers,
  onActed,
}: {
  query: FindQuery;
  matches: readonly FindMatch[];
  offers: MatchOffers;
  /** called once an action on the listed matches has ended, whatever it did, with what it did to each it reached (by matchKey): the rows are now as found before it */
  onActed: (outcomes: ReadonlyMap<string, ListedOutcome>) => void;
}) {
  const mayChange = useChangePermission().allowed;
  const failedActions = useFailedActions();
  const removal = useRemoveMatches(query);
  const [asking, setAsking] = useState<MatchAction | null>(null);
  const failed = matches.filter((match) => match.state === 'failed');
  // A job whose id cannot be acted on (idNote) is counted, never sent to a repair.
  const live = matches.filter((match) => LIVE_STATES.includes(match.state) && match.idNote === undefined);
  const progress = failedActions.progress ?? removal.progress;
  const chosen = { retry: failed, forget: failed, remove: live }[asking ?? 'retry'];
  const verbs = { retry: 'Retry', forget: 'Forget', remove: 'Remove' } as const;
  const offered = (['retry', 'forget', 'remove'] as const).filter((action) => mayChange && offers[action] && (action === 'remove' ? live : failed).length > 0);

  const act = async () => {
    const action = asking;
    setAsking(null);
    if (action === null) return;
    if (action === 'remove') return onActed(await removal.remove(live));
    const ids = failed.map((match) => match.id);
    const byId = action === 'retry' ? await failedActions.retryIds(ids, undefined, query) : await failedActions.forgetIds(ids, query);
    // A failed job's id names it on the whole connection.
    onActed(new Map(failed.flatMap((match) => (byId.has(match.id) ? [[matchKey(match), byId.get(match.id)!] as const] : []))));
  };

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <p>{countsText(matches)}</p>
        {progress === null &&
          offered.map((action) => (
            <button key={action} type="button" className={action === 'retry' ? 'button-secondary' : 'button-danger'} onClick={() => setAsking(action)}>
              {verbs[action]} {formatCount((action === 'remove' ? live : failed).length)} {action === 'remove' ? 'live' : 'failed'}…
            </button>
          ))}
      </div>
      {progress !== null && <BulkProgressBar progress={progress} onCancel={failedActions.progress ? failedActions.cancel : removal.cancel} />}
      <ConfirmDialog
        open={asking !== null}
        title={`${verbs[asking ?? 'retry']} ${plural(chosen.length, 'job')} found?`}
        confirmLabel={`${verbs[asking ?? 'retry']} ${plural(chosen.length, 'job')}`}
        onConfirm={() => void act()}
        onCancel={() => setAsking(null)}
      >
        <p>
          {asking === 'retry' && 'Each job found failed goes back on its queue, if it is still failed.'}
          {asking === 'forget' && 'Each job found failed leaves the failed list, if it is still failed; where the layout keeps a trash, it is kept there.'}
          {asking === 'remove' &&
            'Each job found waiting, delayed or reserved is taken out of its queue, 200 a step; where the layout keeps a trash, it is kept there.'}
        </p>
        <p>These are the matches as found: a job that changed since is left alone and counted.</p>
      </ConfirmDialog>
    </div>
  );
}
