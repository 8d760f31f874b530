import {
  ATTENTION_NAMED,
  OVERVIEW_PAGE_ROWS,
  type Overview,
  type OverviewQueue,
  type OverviewRequest,
  type OverviewSort,
  type OverviewTotals,
} from '../queries/overview';
import { pageWindow } from '../queries/page-window';

/** What one viewer's overview takes from the read of every queue: all but the shared facts. */
export type QueuesOverviewPage = Pick<Overview, 'queues' | 'queueCount' | 'matched' | 'page' | 'totals' | 'attention'>;

/** How much trouble a row is in, most first: a mark, then figures that could not be read, then an alert threshold crossed. */
function troubleRank(row: OverviewQueue): number {
  if (row.marks.length > 0) return 0;
  if (row.error !== undefined) return 1;
  return row.crossed.length > 0 ? 2 : 3;
}

function byName(a: OverviewQueue, b: OverviewQueue): number {
  return a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : 0;
}

/** The table's order: trouble first, then by the operator's figure (largest first) or name, names breaking ties so rows hold still between polls. */
function tableOrder(sort: OverviewSort): (a: OverviewQueue, b: OverviewQueue) => number {
  return (a, b) => troubleRank(a) - troubleRank(b) || (sort === 'name' ? 0 : b[sort] - a[sort]) || byName(a, b);
}

function totalsOf(rows: readonly OverviewQueue[]): OverviewTotals {
  const totals = { pending: 0, delayed: 0, reserved: 0, total: 0 };
  let failedRecently: OverviewTotals['failedRecently'] = { count: 0, atLeast: false };
  for (const row of rows) {
    for (const key of ['pending', 'delayed', 'reserved', 'total'] as const) totals[key] += row[key];
    failedRecently = failedRecently &&
      row.failedRecently && { count: failedRecently.count + row.failedRecently.count, atLeast: failedRecently.atLeast || row.failedRecently.atLeast };
  }
  return { ...totals, failedRecently };
}

/** What every viewer asking for one order shares: the rows in it, the totals and what needs attention. */
type Ordered = { ordered: OverviewQueue[] } & Pick<QueuesOverviewPage, 'totals' | 'attention'>;

/**
 * Per read of every queue, per order: the rows arrive once a tick and every
 * poll of every viewer asks for a page of them; sorting 10,000 rows for each
 * poll kept the server's one thread busy while Redis was not.
 */
const orderedReads = new WeakMap<readonly OverviewQueue[], Map<OverviewSort, Ordered>>();

function orderedOnce(every: readonly OverviewQueue[], sort: OverviewSort): Ordered {
  let bySort = orderedReads.get(every);
  if (!bySort) orderedReads.set(every, (bySort = new Map()));
  let done = bySort.get(sort);
  if (!done) {
    const ordered = [...every].sort(tableOrder(sort));
    const marked = ordered.filter((row) => row.marks.length > 0);
    done = {
      ordered,
      totals: totalsOf(every),
      attention: { marked: marked.length, named: marked.slice(0, ATTENTION_NAMED), over: every.filter((row) => row.crossed.length > 0).length },
    };
    bySort.set(sort, done);
  }
  return done;
}

/**
 * One viewer's page of the overview, from the rows of every queue (read once
 * for every viewer): the totals and what needs attention over every queue,
 * and one page of the queues whose name holds the filter, in the table's
 * order. The page's size does not grow with the number of queues.
 */
export function overviewPage(every: readonly OverviewQueue[], request: OverviewRequest): QueuesOverviewPage {
  const { ordered, totals, attention } = orderedOnce(every, request.sort);
  const needle = request.filter.toLowerCase();
  const matching = needle === '' ? ordered : ordered.filter((row) => row.queue.toLowerCase().includes(needle));
  const page = pageWindow(matching.length, request.page, OVERVIEW_PAGE_ROWS);
  return {
    queues: matching.slice(Math.max(0, page.first - 1), page.last),
    queueCount: every.length,
    matched: matching.length,
    page,
    totals,
    attention,
  };
}
