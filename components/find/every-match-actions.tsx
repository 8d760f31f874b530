'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { forgetEveryMatchStep, removeEveryMatchStep, retryEveryMatchStep } from '@/app/find/actions';
import { useChangePermission } from '@/components/shell/change-permission';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatCount, plural } from '@/components/ui/format-count';
import { getTabConnection } from '@/lib/queries/tab-connection';
import {
  EVERY_MATCH_ACTIONS,
  EVERY_MATCH_STATES,
  FIND_MATCH_CAP,
  isRanged,
  type EveryMatchAction,
  type FindQuery,
  type FindTimes,
  type TrashFull,
} from '@/lib/shapes/find';
import type { MatchOffers } from './match-actions';

const STEPS = { retry: retryEveryMatchStep, forget: forgetEveryMatchStep, remove: removeEveryMatchStep } as const;

const WORDS: Readonly<Record<EveryMatchAction, { verb: string; doing: string; done: string; which: string; what: string }>> = {
  retry: {
    verb: 'Retry',
    doing: 'Retrying',
    done: 'Retried',
    which: 'failed',
    what: 'Each failed job it finds goes back on its queue, if it is still failed.',
  },
  forget: {
    verb: 'Forget',
    doing: 'Forgetting',
    done: 'Forgot',
    which: 'failed',
    what: 'Each failed job it finds leaves the failed list, if it is still failed; where the layout keeps a trash, it is kept there.',
  },
  remove: {
    verb: 'Remove',
    doing: 'Removing',
    done: 'Removed',
    which: 'live',
    what: 'Each waiting, delayed or reserved job it finds is taken out of its queue, if it is still there; where the layout keeps a trash, it is kept there.',
  },
};

/** An every-match run: how far it got, and how it ended (null while it runs). */
interface EveryMatchRun {
  action: EveryMatchAction;
  looked: number;
  about: number;
  acted: number;
  movedOn: number;
  refused: number;
  why: string | null;
  kept: boolean;
  /** waiting for the operator: the Trash is too full to keep the next step's jobs in full */
  paused: TrashFull | null;
  ended: 'done' | 'cancelled' | 'failed' | null;
  error: string | null;
}

/**
 * Runs one action on every match of `query`, one server step after another,
 * each with the cursor and `taken` the last returned, so the server holds
 * nothing between steps: Cancel, leaving the page or closing the tab asks
 * for no next one.
 */
function useEveryMatchRun(query: FindQuery) {
  const [run, setRun] = useState<EveryMatchRun | null>(null);
  const cancelled = useRef(false);
  /** answers a pause: true goes on, dropping the Trash's oldest jobs; false stops */
  const decide = useRef<((goOn: boolean) => void) | null>(null);
  const queryClient = useQueryClient();

  const start = useCallback(
    async (action: EveryMatchAction) => {
      cancelled.current = false;
      let current: EveryMatchRun = {
        action,
        looked: 0,
        about: 0,
        acted: 0,
        movedOn: 0,
        refused: 0,
        why: null,
        kept: false,
        paused: null,
        ended: null,
        error: null,
      };
      setRun(current);
      const search = {
        text: query.text,
        field: query.field,
        ignoreCase: query.ignoreCase,
        queue: query.queue,
        states: [...query.states],
        ...(query.range !== undefined && { range: query.range }),
      };
      let from: { cursor: string | null; taken: number } = { cursor: null, taken: 0 };
      let dropOldest = false;
      for (;;) {
        if (cancelled.current) {
          current = { ...current, ended: 'cancelled' };
          break;
        }
        let step: Awaited<ReturnType<(typeof STEPS)[EveryMatchAction]>>;
        try {
          step = await STEPS[action]({ ...search, ...from, dropOldest }, getTabConnection());
        } catch (error) {
          step = { ok: false, error: error instanceof Error ? error.message : String(error) };
        }
        if (!step.ok) {
          current = { ...current, ended: 'failed', error: step.error };
          break;
        }
        if (step.trashFull !== null) {
          setRun({ ...current, paused: step.trashFull });
          const goOn = await new Promise<boolean>((resolve) => (decide.current = resolve));
          decide.current = null;
          current = { ...current, paused: null };
          if (!goOn || cancelled.current) {
            current = { ...current, ended: 'cancelled' };
            break;
          }
          dropOldest = true;
          setRun(current);
          continue;
        }
        current = {
          ...current,
          looked: step.looked,
          about: step.about,
          acted: current.acted + step.acted,
          movedOn: current.movedOn + step.movedOn,
          refused: current.refused + step.refused,
          why: current.why ?? step.why,
          kept: current.kept || step.kept,
        };
        if (step.cursor === null) {
          current = { ...current, ended: 'done' };
          break;
        }
        from = { cursor: step.cursor, taken: step.taken };
        setRun(current);
      }
      setRun(current);
      await queryClient.invalidateQueries();
    },
    [query, queryClient],
  );

  const cancel = useCallback(() => {
    cancelled.current = true;
    decide.current?.(false);
  }, []);

  const dropOldest = useCallback(() => decide.current?.(true), []);

  // Leaving the page, or a new search, asks for no next step: a run goes on only while its page shows it.
  useEffect(() => cancel, [cancel]);

  return { run, start, cancel, dropOldest };
}

function lookedText(run: EveryMatchRun): string {
  return `looked at ${formatCount(run.looked)} of about ${plural(Math.max(run.about, run.looked), 'job')}`;
}

/** What a finished run did, skipped and refused, in one sentence or three. */
function resultText(run: EveryMatchRun): string {
  const words = WORDS[run.action];
  const acted = `${words.done} ${plural(run.acted, 'job')}`;
  const opening =
    run.ended === 'done'
      ? `${acted}: every ${words.which} match. Done, ${lookedText(run)}.`
      : run.ended === 'cancelled'
        ? `Cancelled: ${acted.toLowerCase()} before that, ${lookedText(run)}.`
        : `The ${words.verb.toLowerCase()} stopped: ${run.error ?? 'it failed'}. ${acted} before that, ${lookedText(run)}.`;
  const skipped = run.movedOn > 0 ? ` ${formatCount(run.movedOn)} had moved on since they were found and were left alone.` : '';
  const refused = run.refused > 0 ? ` ${formatCount(run.refused)} refused${run.why === null ? '' : `: ${run.why}`}.` : '';
  const kept = run.kept ? ' Kept in the Trash.' : '';
  return `${opening}${skipped}${refused}${kept} The list above is as the search found it: search again to see what is left.`;
}

/** The states an action acts on that the search looks in (under a time range, those whose time the layout records): none means it is not offered. */
function statesActedOn(query: FindQuery, action: EveryMatchAction, times: FindTimes | null) {
  return EVERY_MATCH_STATES[action].filter(
    (state) => (query.states.length === 0 || query.states.includes(state)) && (!isRanged(query.range) || times === null || times[state] !== undefined),
  );
}

/**
 * For a search that found more than the page lists: what an operator can
 * do to every match, not only the listed ones. Each asks first, then runs
 * the search again from the start over the states it acts on, acting on
 * the matches of each step as they are found (app/find/actions.ts), with
 * progress, Cancel and a result that says what was done, skipped and
 * refused. A viewer is told the list stops; the actions are an operator's.
 */
export function EveryMatchActions({
  query,
  offers,
  times,
  onActed,
}: {
  query: FindQuery;
  offers: MatchOffers;
  times: FindTimes | null;
  /** called once a run has ended, whatever it did: the listed rows are now as found before it */
  onActed: () => void;
}) {
  const mayChange = useChangePermission().allowed;
  const { run, start, cancel, dropOldest } = useEveryMatchRun(query);
  const [asking, setAsking] = useState<EveryMatchAction | null>(null);
  const offered = EVERY_MATCH_ACTIONS.filter((action) => offers[action] && statesActedOn(query, action, times).length > 0);
  if (!mayChange || offered.length === 0) return null;
  const running = run !== null && run.ended === null;
  const words = WORDS[asking ?? 'retry'];

  return (
    <section aria-label="Every match" className="space-y-2 rounded-md border border-zinc-200 px-4 py-3 text-sm dark:border-zinc-800">
      <p className="text-zinc-700 dark:text-zinc-300">
        The list shows the first {formatCount(FIND_MATCH_CAP)} matches. To act on every match, however many, the search runs again from the start over the
        states the action acts on, and acts on each job it still finds there.
      </p>
      {!running && (
        <div className="flex flex-wrap gap-3">
          {offered.map((action) => (
            <button key={action} type="button" className={action === 'retry' ? 'button-secondary' : 'button-danger'} onClick={() => setAsking(action)}>
              {WORDS[action].verb} every {WORDS[action].which} match…
            </button>
          ))}
        </div>
      )}
      {running && run.paused !== null && (
        <div role="alert" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 dark:border-amber-800 dark:bg-amber-950">
          <p>
            Paused after {plural(run.acted, 'job')}: the Trash holds {formatCount(run.paused.held)} jobs and keeps at most {formatCount(run.paused.max)}{' '}
            (QUEUELENS_TRASH_MAX). Going on drops the oldest jobs it holds for good: they could no longer be restored.
          </p>
          <div className="flex flex-wrap gap-3">
            <button type="button" onClick={cancel} className="button-secondary">
              Stop here
            </button>
            <button type="button" onClick={dropOldest} className="button-danger">
              Go on, dropping the oldest
            </button>
          </div>
        </div>
      )}
      {running && run.paused === null && (
        <div className="flex flex-wrap items-center gap-3 rounded-md border border-blue-200 bg-blue-50 px-4 py-3 dark:border-blue-900 dark:bg-blue-950">
          <label className="flex min-w-0 flex-1 flex-col gap-1">
            <span role="status" aria-live="polite">
              {WORDS[run.action].doing} every {WORDS[run.action].which} match: {formatCount(run.acted)} {WORDS[run.action].done.toLowerCase()} ·{' '}
              {run.about === 0 && run.looked === 0 ? 'starting…' : lookedText(run)}
            </span>
            <progress value={run.looked} max={Math.max(run.about, run.looked, 1)} className="h-2 w-full" />
          </label>
          <button type="button" onClick={cancel} className="button-secondary">
            Cancel
          </button>
        </div>
      )}
      {run !== null && run.ended !== null && (
        <p role={run.ended === 'failed' ? 'alert' : 'status'} className={run.ended === 'failed' ? 'text-red-700 dark:text-red-300' : undefined}>
          {resultText(run)}
        </p>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={`${words.verb} every ${words.which} match?`}
        confirmLabel={`${words.verb} every ${words.which} match`}
        onConfirm={() => {
          const action = asking;
          setAsking(null);
          if (action !== null) void start(action).then(onActed);
        }}
        onCancel={() => setAsking(null)}
      >
        <p>
          The search runs again from the start, over {statesActedOn(query, asking ?? 'retry', times).join(', ')} jobs only, a bounded step at a time, and acts
          on what still matches. {words.what}
        </p>
        <p>A job that moved on since it was found is left alone and counted. Cancel stops before the next step; what was done stays done.</p>
        {asking !== 'retry' && <p>If the Trash fills up, the run pauses and asks before it drops the oldest jobs the Trash holds.</p>}
      </ConfirmDialog>
    </section>
  );
}
