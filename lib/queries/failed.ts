import type { FailedFilter, FailedPage } from '../shapes/failed-jobs';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { FailedFilter, FailedPage, FailedRowView, FailedSearchChunk } from '../shapes/failed-jobs';

/**
 * How the failed page retries: QueueLens requeues the jobs itself (with the
 * reason it cannot retry every failed job in one go, or take a max attempts,
 * where it cannot), or (a layout whose jobs only the application can
 * re-create) the page shows the commands that retry them where it runs, and why.
 */
export type FailedRetry = { here: true; everyJobAbsent: string | null; maxAttempts: boolean } | { here: false; why: string; everyCommand: string };

/**
 * Rows per page of the failed list: 25, as the reservations page shows. On a
 * phone each job is a block of several lines, and 50 of them made a page
 * over 13,000 px tall, its pager far out of reach.
 */
export const FAILED_PAGE_SIZE = 25;
/** A search stops collecting here and says "showing the first N matches" rather than running on. */
export const SEARCH_MATCH_CAP = 1000;

/** GET /api/failed: one page of failed jobs, newest first. */
export function failedPageQuery(offset: number, limit = FAILED_PAGE_SIZE) {
  return liveQueryOptions<FailedPage>(queryKeys.failed.page(offset, limit), `/api/failed?offset=${offset}&limit=${limit}`);
}

/** GET /api/failed/search: the next bounded chunk of a search through the failed set. */
export function failedSearchPath(filter: FailedFilter, offset: number): string {
  const params = new URLSearchParams({ offset: String(offset) });
  for (const [name, value] of Object.entries(filter)) if (value) params.set(name, value);
  return `/api/failed/search?${params}`;
}

/** The filter in a URL's search params; blank fields are no filter. */
export function filterFromParams(params: { get(name: string): string | null }): FailedFilter {
  const filter: FailedFilter = {};
  for (const name of ['queue', 'name', 'error'] as const) {
    const value = params.get(name)?.trim();
    if (value) filter[name] = value;
  }
  return filter;
}

export function isFiltered(filter: FailedFilter): boolean {
  return Boolean(filter.queue || filter.name || filter.error);
}
