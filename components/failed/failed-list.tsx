'use client';

import { useCallback, useId, useState, type ReactNode } from 'react';
import { ChangeControls, useChangePermission } from '@/components/shell/change-permission';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatCount } from '@/components/ui/format-count';
import { CodeBlock } from '@/components/ui/code-block';
import { CopyButton } from '@/components/ui/copy-button';
import type { FailedRetry, FailedRowView } from '@/lib/queries/failed';
import { BulkProgressBar } from './bulk-progress-bar';
import { FailedTable } from './failed-table';
import { ForgetBeforeForm } from './forget-before-form';
import { useFailedActions } from './use-failed-actions';
import { RETRY_CONFIRM_THRESHOLD, sameErrorWarning } from './retry-guard';

/**
 * What "all matching" means for the rows on screen: every failed job (the
 * driver works through the set in bounded steps), or the rows a search found.
 */
export type Matching = { kind: 'every-failed-job'; count: number } | { kind: 'search-matches'; rows: readonly FailedRowView[] };

function matchingCount(matching: Matching): number {
  return matching.kind === 'every-failed-job' ? matching.count : matching.rows.length;
}

/** The ids an action may take: every row's but those whose id is not exact (FailedRowView.exact). */
function idsOf(rows: Iterable<FailedRowView>): string[] {
  return [...rows].flatMap((row) => (row.exact ? [row.id] : []));
}

/** A target a thumb can hit on a phone (44 px high, WCAG 2.5.5); the desktop keeps the compact bar. */
const THUMB = 'max-sm:min-h-11';

function jobs(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'job' : 'jobs'}`;
}

interface FailedListProps {
  rows: readonly FailedRowView[];
  matching: Matching;
  /** QueueLens's own retry, or the commands that retry where the application runs */
  retry: FailedRetry;
  /** when the rows were read, ms since the epoch: "failed 3 min ago" counts from here */
  readAt: number;
  /** after a retry or forget, for views that are not polled */
  onChanged?: () => void;
  /** shown right under the table: the pages */
  pager?: ReactNode;
}

/** The failed rows; with selection, bulk retry and forget for a session that may change queues. */
export function FailedList(props: FailedListProps) {
  const permission = useChangePermission();
  if (permission.allowed) return <SelectableFailedList {...props} />;
  return (
    <div className="space-y-3">
      <ChangeControls />
      <FailedTable rows={props.rows} now={props.readAt / 1000} />
      {props.pager}
    </div>
  );
}

/** The commands that retry the chosen jobs where the application runs, to copy: QueueLens cannot retry them itself. */
function RetryCommands({ commands }: { commands: string }) {
  const lines = commands.split('\n').length;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span>Retry {lines === 1 ? 'it' : 'them'} where the application runs:</span>
        <CopyButton text={commands} label={lines === 1 ? 'Copy retry command' : `Copy ${formatCount(lines)} retry commands`} />
      </div>
      <CodeBlock label="Retry commands for the selected jobs" text={commands} />
    </div>
  );
}

/** The failed rows with selection, bulk retry (or its commands) and forget, their confirmations and progress. */
function SelectableFailedList({ rows, matching, retry, readAt, onChanged, pager }: FailedListProps) {
  const actions = useFailedActions();
  const maxAttemptsId = useId();
  const forgetBeforeId = useId();
  // By id, with the row as it was selected: a selected row's retry command is known when it is on another page.
  const [selected, setSelected] = useState<ReadonlyMap<string, FailedRowView>>(new Map());
  const [allMatching, setAllMatching] = useState(false);
  const [maxAttemptsText, setMaxAttemptsText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [confirmingRetry, setConfirmingRetry] = useState(false);

  const total = matchingCount(matching);
  const count = allMatching ? total : selected.size;
  const busy = actions.progress !== null;
  const everyJob = allMatching && matching.kind === 'every-failed-job';
  // The input is only there where the layout's retry takes a max attempts.
  const maxAttempts = maxAttemptsText === '' || !(retry.here && retry.maxAttempts) ? undefined : Number(maxAttemptsText);
  // Why every failed job cannot be retried at once, while that is the selection.
  const everyJobUnretried = everyJob && retry.here ? retry.everyJobAbsent : null;
  const maxAttemptsValid = maxAttempts === undefined || (Number.isInteger(maxAttempts) && maxAttempts >= 1 && maxAttempts <= 1000);

  // The same function at every render: the table's memoized rows take it, and render again only when their own figures change.
  const select = useCallback((chosen: readonly FailedRowView[], on: boolean) => {
    setAllMatching(false);
    setSelected((current) => {
      const next = new Map(current);
      for (const row of chosen) {
        if (on) next.set(row.id, row);
        else next.delete(row.id);
      }
      return next;
    });
  }, []);
  const clearSelection = () => {
    setSelected(new Map());
    setAllMatching(false);
  };
  const act = async (action: () => Promise<unknown>) => {
    clearSelection();
    await action();
    onChanged?.();
  };

  const retryHere = () =>
    act(() => {
      if (!allMatching) return actions.retryIds([...selected.keys()], maxAttempts);
      return matching.kind === 'every-failed-job' ? actions.retryAll(total, maxAttempts) : actions.retryIds(idsOf(matching.rows), maxAttempts);
    });
  const forget = () =>
    act(() => {
      if (!allMatching) return actions.forgetIds([...selected.keys()]);
      return matching.kind === 'every-failed-job' ? actions.forgetOldest(total, null) : actions.forgetIds(idsOf(matching.rows));
    });
  const chosenRows = allMatching && matching.kind === 'search-matches' ? matching.rows : [...selected.values()];
  // Every failed job's errors are not on hand: the newest ones shown stand for them.
  const retryWarning = confirmingRetry ? sameErrorWarning((everyJob ? rows : chosenRows).map((row) => row.errorFirstLine)) : null;
  const retryCommands =
    retry.here || count === 0
      ? null
      : everyJob
        ? retry.everyCommand
        : chosenRows.flatMap((row) => (row.retryCommand === null ? [] : [row.retryCommand])).join('\n');

  const shownIds = idsOf(rows);
  const shownAllSelected = shownIds.length > 0 && shownIds.every((id) => selected.has(id));
  return (
    <div className="space-y-3">
      {/* Above the rows, so it is reached without scrolling past a page of them. */}
      {matching.kind === 'every-failed-job' && (
        <section
          aria-labelledby={forgetBeforeId}
          className="space-y-2 rounded-md border border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900"
        >
          <h2 id={forgetBeforeId} className="text-base font-semibold">
            Forget old failures
          </h2>
          <ForgetBeforeForm busy={busy} onForget={(expected, before) => act(() => actions.forgetOldest(expected, before))} />
        </section>
      )}
      {/* Sticky: it stays in reach (thumb and keyboard) while the rows it acts on scroll under it. */}
      <div className="sticky top-0 z-10">
        {actions.progress ? (
          <BulkProgressBar progress={actions.progress} onCancel={actions.cancel} />
        ) : (
          <div
            role="toolbar"
            aria-label="Bulk actions"
            className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-zinc-200 bg-white px-4 py-2 text-sm shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
          >
            <span aria-live="polite">{count === 0 ? 'No jobs selected' : allMatching ? `All ${jobs(total)} selected` : `${jobs(count)} selected`}</span>
            {/* One button that toggles, so focus stays on it when it is pressed (a button removed from under focus drops it to the page). */}
            {shownAllSelected && total > selected.size && (
              <button type="button" className={`${THUMB} text-blue-700 underline dark:text-blue-300`} onClick={() => setAllMatching(!allMatching)}>
                {allMatching
                  ? `Select only the ${jobs(selected.size)} shown`
                  : `Select all ${jobs(total)} ${matching.kind === 'every-failed-job' ? 'failed' : 'matching'}`}
              </button>
            )}
            {count > 0 && (
              <button type="button" className={`${THUMB} text-zinc-600 underline dark:text-zinc-400`} onClick={clearSelection}>
                Clear selection
              </button>
            )}
            <span className="ml-auto flex items-center gap-2">
              {retry.here && (
                <>
                  {retry.maxAttempts && (
                    <>
                      <label htmlFor={maxAttemptsId} className="text-xs text-zinc-600 dark:text-zinc-400">
                        Max attempts on retry
                      </label>
                      <input
                        id={maxAttemptsId}
                        type="number"
                        min={1}
                        max={1000}
                        placeholder="keep"
                        value={maxAttemptsText}
                        onChange={(event) => setMaxAttemptsText(event.target.value)}
                        aria-invalid={!maxAttemptsValid}
                        className="w-20 rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-600 dark:bg-zinc-800"
                      />
                    </>
                  )}
                  <button
                    type="button"
                    className="button-primary"
                    disabled={count === 0 || !maxAttemptsValid || everyJobUnretried !== null}
                    onClick={() => (count > RETRY_CONFIRM_THRESHOLD ? setConfirmingRetry(true) : void retryHere())}
                  >
                    Retry {count > 0 ? formatCount(count) : ''}
                  </button>
                </>
              )}
              <button type="button" className="button-danger" disabled={count === 0} onClick={() => setConfirming(true)}>
                Forget {count > 0 ? formatCount(count) : ''}
              </button>
            </span>
          </div>
        )}
      </div>
      {retryCommands && <RetryCommands commands={retryCommands} />}
      {everyJobUnretried !== null && (
        <p role="note" className="text-sm">
          Retry takes the selected jobs only here: {everyJobUnretried}.
        </p>
      )}
      <FailedTable rows={rows} selection={{ selected: allMatching ? new Set(idsOf(rows)) : new Set(selected.keys()), onSelect: select }} now={readAt / 1000} />
      {pager}
      <ConfirmDialog
        open={confirming}
        title={everyJob ? `Forget every failed job (${jobs(count)})?` : `Forget ${jobs(count)}?`}
        confirmLabel={`Forget ${formatCount(count)}`}
        typeToConfirm={everyJob ? 'forget' : undefined}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void forget();
        }}
      >
        The {count === 1 ? 'job leaves' : 'jobs leave'} the failed list. While QueueLens keeps a trash {count === 1 ? 'it is' : 'they are'} kept there, whole,
        and can be restored (Undo, or the Trash page); otherwise {count === 1 ? 'it is' : 'they are'} deleted for good. Jobs that are no longer failed when this
        runs are left alone.
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmingRetry}
        title={`Retry ${jobs(count)}?`}
        confirmLabel={`Retry ${formatCount(count)}`}
        onCancel={() => setConfirmingRetry(false)}
        onConfirm={() => {
          setConfirmingRetry(false);
          void retryHere();
        }}
      >
        {retryWarning !== null && (
          <p className="font-medium">
            {everyJob ? `Of the newest ${formatCount(rows.length)} shown, ${retryWarning}.` : `${retryWarning[0]!.toUpperCase()}${retryWarning.slice(1)}.`}
          </p>
        )}
        <p>{formatCount(count)} jobs go back on their queues at once, and their workers run them all again.</p>
      </ConfirmDialog>
    </div>
  );
}
