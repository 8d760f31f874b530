'use client';

import type { Route } from 'next';
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { Banner } from '@/components/ui/banner';
import { formatCount } from '@/components/ui/format-count';
import { CopyButton } from '@/components/ui/copy-button';
import { FAILED_PAGE_SIZE, failedPageQuery, isFiltered, SEARCH_MATCH_CAP, type FailedFilter, type FailedRetry, type FailedRowView } from '@/lib/queries/failed';
import { failedHref, findEveryStateHref } from '@/lib/routes';
import { FailedFilterForm } from './failed-filter-form';
import { FailedList } from './failed-list';
import { holdRows, type HeldRows } from './hold-rows';
import { useFailedSearch } from './use-failed-search';

/** `/failed`: every failed job page by page, or the jobs matching a filter. */
export function FailedJobs({ filter, page, queues, retry }: { filter: FailedFilter; page: number; queues: readonly string[]; retry: FailedRetry }) {
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight">Failed jobs</h1>
      {!retry.here && <RetryElsewhere retry={retry} />}
      <FailedFilterForm filter={filter} queues={queues} />
      {isFiltered(filter) ? <SearchResults filter={filter} retry={retry} /> : <BrowsePages page={page} retry={retry} />}
    </div>
  );
}

/** Why this page has no Retry button, and the command that retries every failed job where the application runs. */
function RetryElsewhere({ retry }: { retry: Extract<FailedRetry, { here: false }> }) {
  return (
    <section
      aria-labelledby="retry-elsewhere"
      className="space-y-2 rounded-md border border-zinc-200 bg-white px-4 py-3 text-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 id="retry-elsewhere" className="text-base font-semibold">
        Retrying is done where the application runs
      </h2>
      <p>QueueLens has no Retry button here: {retry.why}. Each job’s row has its command; select jobs for theirs, or retry every failed job with:</p>
      <div className="flex flex-wrap items-center gap-3">
        <code className="rounded bg-zinc-100 px-2 py-1 font-mono text-xs dark:bg-zinc-800">{retry.everyCommand}</code>
        <CopyButton text={retry.everyCommand} label="Copy the command that retries every failed job" />
      </div>
    </section>
  );
}

/** The button that puts rows which arrived while the list held still on top of it. */
function ShowArrivals({ onShow, children }: { onShow: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      className="rounded-md border border-blue-300 bg-blue-50 px-3 py-1.5 font-medium text-blue-900 hover:bg-blue-100 dark:border-blue-800 dark:bg-blue-950/60 dark:text-blue-100"
      onClick={onShow}
    >
      {children}
    </button>
  );
}

function pageHref(page: number): Route {
  return (page <= 1 ? failedHref : `${failedHref}?page=${page}`) as Route;
}

/** The rows of one page as shown, and the poll they were last reconciled with. */
interface HeldPage {
  page: number;
  polled: readonly FailedRowView[];
  view: HeldRows;
}

/**
 * The rows of `page` held still between polls (see holdRows): newer failures
 * are counted above the table instead of pushing rows down under the
 * pointer or a selection, until `show` takes the latest poll.
 */
function useHeldRows(page: number, polled: readonly FailedRowView[] | undefined) {
  const [held, setHeld] = useState<HeldPage | null>(null);
  const fresh = (rows: readonly FailedRowView[]): HeldPage => ({ page, polled: rows, view: { rows: [...rows], arrived: 0 } });
  // Derived from each poll as it renders (React's "adjusting state on a prop change"), so no frame shows the rows moved.
  if (polled !== undefined && (held === null || held.page !== page || held.polled !== polled)) {
    setHeld(held === null || held.page !== page ? fresh(polled) : { page, polled, view: holdRows(held.view.rows, polled) });
  }
  return { held: held?.page === page ? held.view : null, show: () => polled !== undefined && setHeld(fresh(polled)) };
}

function BrowsePages({ page, retry }: { page: number; retry: FailedRetry }) {
  const view = useLiveQuery(failedPageQuery((page - 1) * FAILED_PAGE_SIZE));
  const data = view.data;
  const { held, show } = useHeldRows(page, data?.rows);
  const lastPage = Math.max(1, Math.ceil((data?.total ?? 0) / FAILED_PAGE_SIZE));
  return (
    <div className="space-y-3">
      <LiveErrorBanner title="Cannot read the failed jobs" view={view} />
      {data === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-600 dark:text-zinc-400">Reading the failed jobs…</p>
      ) : data.total === 0 ? (
        <p className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
          No failed jobs. Jobs that use up their attempts show up here, newest first.
        </p>
      ) : (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {data.rows.length === 0
              ? `Nothing on page ${page}; there are ${formatCount(lastPage)} pages.`
              : `Showing ${formatCount(data.offset + 1)}–${formatCount(data.offset + data.rows.length)} of ${formatCount(data.total)} failed jobs, newest first`}
          </p>
          {/* Always in the page, so the count is announced when newer failures arrive. */}
          <div role="status" aria-live="polite" className="text-sm">
            {held !== null && held.arrived > 0 && (
              <ShowArrivals onShow={show}>
                {formatCount(held.arrived)} new {held.arrived === 1 ? 'failure' : 'failures'} — show
              </ShowArrivals>
            )}
          </div>
          <FailedList
            rows={held?.rows ?? data.rows}
            matching={{ kind: 'every-failed-job', count: data.total }}
            retry={retry}
            readAt={view.readAt ?? 0}
            pager={
              <nav aria-label="Pages of failed jobs" className="flex flex-wrap items-center gap-2 text-sm">
                <PageLink page={1} disabled={page <= 1} label="Newest" />
                <PageLink page={page - 1} disabled={page <= 1} label="Newer" />
                <span className="px-2">
                  Page {formatCount(page)} of {formatCount(lastPage)}
                </span>
                <PageLink page={page + 1} disabled={page >= lastPage} label="Older" />
                <PageLink page={lastPage} disabled={page >= lastPage} label="Oldest" />
              </nav>
            }
          />
        </>
      )}
    </div>
  );
}

function PageLink({ page, disabled, label }: { page: number; disabled: boolean; label: string }) {
  if (disabled) {
    return (
      <span aria-disabled="true" className="button-secondary opacity-50">
        {label}
      </span>
    );
  }
  return (
    <Link prefetch={false} href={pageHref(page)} className="button-secondary">
      {label}
    </Link>
  );
}

/** The newest failure in a poll of the newest page, as a key that changes when a failure arrives; null before the first poll. */
function newestFailureOf(rows: readonly FailedRowView[] | undefined): string | null {
  if (rows === undefined) return null;
  const newest = rows[0];
  return newest === undefined ? 'none' : `${newest.failedAtSeconds} ${newest.id}`;
}

function SearchResults({ filter, retry }: { filter: FailedFilter; retry: FailedRetry }) {
  // The newest page's poll (a shared read) says when failures arrive; only then is the newest part of the set searched again.
  const newest = useLiveQuery(failedPageQuery(0));
  const { search, arrived, showArrived, cancel, restart } = useFailedSearch(filter, newestFailureOf(newest.data?.rows));
  const [page, setPage] = useState(1);
  const lastPage = Math.max(1, Math.ceil(search.matches.length / FAILED_PAGE_SIZE));
  const shownPage = Math.min(page, lastPage);
  const rows = search.matches.slice((shownPage - 1) * FAILED_PAGE_SIZE, shownPage * FAILED_PAGE_SIZE);
  const everyState = findEveryStateHref(filter);
  return (
    <div className="space-y-3">
      {search.error !== null && <Banner title="The search stopped">{search.error}</Banner>}
      <div className="flex flex-wrap items-center gap-3 text-sm" role="status" aria-live="polite">
        <span>
          {search.running ? 'Searching: ' : 'Searched '}
          {formatCount(search.scanned)} of {formatCount(search.total)} failed jobs, {formatCount(search.matches.length)}{' '}
          {search.matches.length === 1 ? 'match' : 'matches'}
          {search.capped && ` (showing the first ${formatCount(SEARCH_MATCH_CAP)} matches)`}
          {search.cancelled && ' (stopped)'}
        </span>
        {search.running && <progress aria-label="Search progress" value={search.scanned} max={Math.max(search.total, 1)} className="h-2 w-40" />}
        {search.running ? (
          <button type="button" className="button-secondary" onClick={cancel}>
            Stop searching
          </button>
        ) : (
          <button type="button" className="button-secondary" onClick={restart}>
            Search again
          </button>
        )}
        {everyState !== null && (
          <Link prefetch={false} href={everyState} className="text-blue-700 underline underline-offset-2 dark:text-blue-400">
            Look in every state, not only failed
          </Link>
        )}
        {arrived > 0 && (
          <ShowArrivals onShow={showArrived}>
            {formatCount(arrived)} new {arrived === 1 ? 'match' : 'matches'} since you searched — show
          </ShowArrivals>
        )}
      </div>
      {!search.running && search.error === null && search.matches.length === 0 ? (
        <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
          <p className="font-semibold">No failed job matches this filter{search.cancelled ? ' among those searched' : ''}.</p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            <Link prefetch={false} href={failedHref} className="text-blue-700 underline underline-offset-2 dark:text-blue-400">
              Show every failed job
            </Link>
            , or change the filter above.
          </p>
        </div>
      ) : (
        search.matches.length > 0 && (
          <FailedList
            rows={rows}
            matching={{ kind: 'search-matches', rows: search.matches.filter((row) => row.exact) }}
            retry={retry}
            readAt={search.readAt}
            onChanged={restart}
            pager={
              lastPage > 1 && (
                <nav aria-label="Pages of matches" className="flex items-center gap-2 text-sm">
                  <button type="button" className="button-secondary" disabled={shownPage <= 1} onClick={() => setPage(shownPage - 1)}>
                    Newer
                  </button>
                  <span className="px-2">
                    Page {shownPage} of {lastPage}
                  </span>
                  <button type="button" className="button-secondary" disabled={shownPage >= lastPage} onClick={() => setPage(shownPage + 1)}>
                    Older
                  </button>
                </nav>
              )
            }
          />
        )
      )}
    </div>
  );
}
