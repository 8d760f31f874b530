import type { ThresholdCrossing } from '../dashboard/alerts';
import type { QueueMark } from '../dashboard/marks';
import type { ServerInfo } from '../shapes/server-info';
import type { QueueStats } from '../shapes/queue-counts';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';
import type { PageWindow } from './page-window';
import type { HistoryPoint, ThroughputGaps, ThroughputGlance } from './throughput';

/** One queue's row on the overview: its counts, its throughput at a glance, the alert thresholds it is over and what needs attention. */
export interface OverviewQueue extends QueueStats, ThroughputGlance {
  crossed: ThresholdCrossing[];
  /** what is wrong with the queue, each with the page that fixes it; none for a healthy queue */
  marks: QueueMark[];
  /** its failures over the last `minutes` (its failing mark's window); `atLeast` when more failed than one poll reads; null where the layout cannot tell */
  failedRecently: { count: number; minutes: number; atLeast: boolean } | null;
}

/** What the connection's layout cannot tell the overview, each in the sentence shown instead. */
export interface OverviewAbsent {
  failedJobs?: string;
  attention?: string;
  throughput?: string;
  /** what the sampled throughput does not hold, where it is sampled */
  throughputGaps?: ThroughputGaps;
}

/** How the overview's table orders its rows after the ones in trouble: by name, or by a figure, largest first. */
export const OVERVIEW_SORTS = ['name', 'pending', 'delayed', 'reserved', 'total'] as const;
export type OverviewSort = (typeof OVERVIEW_SORTS)[number];

/**
 * Which of the connection's queues a viewer's overview shows: one page of
 * those whose name holds `filter` (any case), the ones that need attention
 * first, then by `sort`.
 */
export interface OverviewRequest {
  page: number;
  filter: string;
  sort: OverviewSort;
}

/**
 * Rows the overview's table shows at once. With thousands of queues (one a
 * tenant) the whole table was 23.7 MB of HTML at 10,000 queues; a page of
 * rows keeps the page the same size at any count.
 */
export const OVERVIEW_PAGE_ROWS = 50;

/** Queues the attention summary names; the rest it counts, and the table lists them first. */
export const ATTENTION_NAMED = 10;

export const DEFAULT_OVERVIEW_REQUEST: OverviewRequest = { page: 1, filter: '', sort: 'name' };

function isOverviewSort(value: string | null): value is OverviewSort {
  return (OVERVIEW_SORTS as readonly (string | null)[]).includes(value);
}

/** The request in a URL's search params (`/?q=…&sort=…&page=…`): anything unreadable is the default, never an error. */
export function overviewRequestFromParams(params: { get(name: string): string | null }): OverviewRequest {
  const page = Number(params.get('page'));
  const sort = params.get('sort');
  return {
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    filter: params.get('q')?.trim() ?? '',
    sort: isOverviewSort(sort) ? sort : 'name',
  };
}

/** The request's search params, defaults left out: '' for the first page of every queue by name. */
export function overviewSearch({ page, filter, sort }: OverviewRequest): string {
  const params = new URLSearchParams();
  if (filter !== '') params.set('q', filter);
  if (sort !== 'name') params.set('sort', sort);
  if (page > 1) params.set('page', String(page));
  return params.size > 0 ? `?${params}` : '';
}

/** Every queue's figures added up; failedRecently null where any queue cannot tell it. */
export interface OverviewTotals {
  pending: number;
  delayed: number;
  reserved: number;
  total: number;
  failedRecently: { count: number; atLeast: boolean } | null;
}

/** What needs attention over every queue, whichever page the viewer is on. */
export interface OverviewAttention {
  /** queues with a mark */
  marked: number;
  /** the first ATTENTION_NAMED of them, in the table's order */
  named: OverviewQueue[];
  /** queues over an alert threshold */
  over: number;
}

/**
 * GET /api/overview?q=&sort=&page=: one page of the connection's queues (empty
 * ones included), the ones that need attention first, with what every queue
 * adds up to and how many need attention, the failed count, the Redis
 * server's facts and every queue's throughput together over the last 15
 * minutes.
 */
export interface Overview {
  /** the connection's layout: its driver and what of the database it covers */
  layout: string;
  absent: OverviewAbsent;
  /** the page's rows */
  queues: OverviewQueue[];
  /** every queue of the connection */
  queueCount: number;
  /** those whose name holds the filter (every queue without one) */
  matched: number;
  page: PageWindow;
  totals: OverviewTotals;
  attention: OverviewAttention;
  /** null where the layout keeps no failed jobs */
  failed: number | null;
  server: ServerInfo;
  throughput: HistoryPoint[];
  /** the Redis server's clock when the marks were judged, unix seconds */
  now: number;
  freshness: OverviewFreshness;
}

/**
 * How old the overview's figures are: every viewer is answered from the
 * latest sampler tick's read of every queue, not from a read of its own
 * (docs/architecture.md, "How fresh the overview is").
 */
export interface OverviewFreshness {
  /** when the read of the figures shown started, ms since the epoch on the dashboard server's clock */
  readAt: number;
  /** the latest tick's read failed: why, and when it started; the figures shown are the older ones of `readAt` */
  failedRead?: { error: string; at: number };
}

export const OVERVIEW_PATH = '/api/overview';

/**
 * What a queue page's triage line reads (components/queues/queue-triage.tsx):
 * the overview's first page filtered by the queue's name. The page prefetches
 * it, so the line arrives drawn instead of pushing the page down after load.
 */
export function queueTriageRequest(queue: string): OverviewRequest {
  return { page: 1, filter: queue, sort: 'name' };
}

export function overviewQuery(request: OverviewRequest) {
  return liveQueryOptions<Overview>(queryKeys.overview.page(request.filter, request.sort, request.page), `${OVERVIEW_PATH}${overviewSearch(request)}`);
}
