'use client';

import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { Banner } from '@/components/ui/banner';
import { formatCount } from '@/components/ui/format-count';
import { UtcMoment } from '@/components/ui/moment';
import { EmptyList } from '@/components/ui/section';
import { AUDITED_ACTIONS, auditNewestQuery, isAuditFiltered, type AuditFilter, type AuditPage, type AuditRecord } from '@/lib/queries/audit';
import { AuditFilterForm } from './audit-filter-form';
import { AuditTable } from './audit-table';
import { joinNewest } from './join-newest';
import { useOlderAuditEntries, type OlderEntries } from './use-older-audit-entries';

/** `/audit`: every change made through QueueLens, newest first, live, filterable, back to the oldest kept. */
export function AuditLogView({ filter }: { filter: AuditFilter }) {
  return (
    <div className="space-y-5">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Every change made through QueueLens, newest first: who made it, with which role, what it acted on and what came of it, refusals included.
        </p>
      </div>
      {/* Another filter starts over: older entries loaded for this one do not belong to it. */}
      <AuditEntries key={JSON.stringify(filter)} filter={filter} />
    </div>
  );
}

const AUDITED = new Set<string>(AUDITED_ACTIONS);

/** The audited actions, then any other name found in the entries shown or filtered by (the select must offer the one in use). */
function actionChoices(entries: readonly AuditRecord[], filter: AuditFilter): string[] {
  const others = [...entries.map((entry) => entry.action), filter.action ?? ''].filter((action) => action !== '' && !AUDITED.has(action));
  return [...AUDITED_ACTIONS, ...new Set(others.sort())];
}

function entriesWord(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'entry' : 'entries'}`;
}

function AuditEntries({ filter }: { filter: AuditFilter }) {
  const view = useLiveQuery(auditNewestQuery(filter));
  const { older, loadOlder, stop, reset } = useOlderAuditEntries(filter);
  const newest = view.data;
  const { entries, newerLeftOut } = joinNewest(newest, older);
  const filtered = isAuditFiltered(filter);

  return (
    <div className="space-y-3">
      <AuditFilterForm filter={filter} actions={actionChoices(entries, filter)} />
      <LiveErrorBanner title="Cannot read the audit log" view={view} />
      {older?.error && <Banner title="Cannot read older entries">{older.error}</Banner>}
      {newest === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the audit log…</p>
      ) : newest.total === 0 && older === null ? (
        <EmptyList>
          No changes have been made through QueueLens yet. Every retry, forget, release, promotion and repair made here is recorded, with who made it and what
          came of it, and so is every one refused.
        </EmptyList>
      ) : (
        <>
          <Summary newest={newest} older={older} shown={entries.length} filtered={filtered} onStop={stop} />
          {newerLeftOut && (
            <p className="flex flex-wrap items-center gap-3 text-sm">
              More changes were made since the older entries were loaded than fit above them.
              <button type="button" className="button-secondary" onClick={reset}>
                Show the newest
              </button>
            </p>
          )}
          {entries.length > 0 ? (
            <AuditTable entries={entries} now={newest.now} />
          ) : (
            <EmptyList>
              {(older ?? newest).next === null
                ? 'No entry matches this filter.'
                : 'No match yet among the entries looked at. Load older entries to look further back.'}
            </EmptyList>
          )}
          {!older?.running && (older ?? newest).next !== null && (
            <button type="button" className="button-secondary" onClick={() => void loadOlder(newest)}>
              Load older entries
            </button>
          )}
        </>
      )}
    </div>
  );
}

/**
 * How much of the log is on screen and, while older entries are read, how
 * far that has got: a filter over a long log may look through many
 * entries for a few matches.
 */
function Summary({
  newest,
  older,
  shown,
  filtered,
  onStop,
}: {
  newest: AuditPage;
  older: OlderEntries | null;
  shown: number;
  filtered: boolean;
  onStop: () => void;
}) {
  const reach = older ?? newest;
  const reachedEnd = reach.next === null;
  // The table shows how far a page of every entry goes; a filter's matches do not show how far it looked.
  const backTo = (filtered || older?.running) && !reachedEnd && reach.reachedAt !== null && (
    <>
      , back to <UtcMoment seconds={Date.parse(reach.reachedAt) / 1000} now={newest.now} />
    </>
  );
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-zinc-600 dark:text-zinc-400" role="status" aria-live="polite">
      <span>
        {filtered
          ? `${formatCount(shown)} ${shown === 1 ? 'match' : 'matches'} among ${reachedEnd ? `all ${entriesWord(newest.total)}` : `the newest ${entriesWord(reach.scanned)} of ${formatCount(newest.total)}`}`
          : reachedEnd
            ? shown === 1
              ? 'The only entry'
              : `All ${entriesWord(shown)}, newest first`
            : `The newest ${formatCount(shown)} of ${entriesWord(newest.total)}`}
        {backTo}
        {older?.running && ': reading older entries…'}
        {older?.stopped && ' (stopped)'}
      </span>
      {older?.running && (
        <>
          <progress aria-label="Entries looked at" value={reach.scanned} max={Math.max(newest.total, 1)} className="h-2 w-40" />
          <button type="button" className="button-secondary" onClick={onStop}>
            Stop
          </button>
        </>
      )}
    </div>
  );
}
