import { describe, expect, it } from 'vitest';
import {
  ATTENTION_NAMED,
  DEFAULT_OVERVIEW_REQUEST,
  OVERVIEW_PAGE_ROWS,
  overviewRequestFromParams,
  overviewSearch,
  type OverviewQueue,
} from '../queries/overview';
import { overviewPage } from './overview-page';

function row(queue: string, figures: Partial<OverviewQueue> = {}): OverviewQueue {
  return {
    queue,
    pending: 0,
    delayed: 0,
    reserved: 0,
    total: 0,
    processedPerSecond: [],
    waitSeconds: null,
    crossed: [],
    marks: [],
    failedRecently: { count: 0, minutes: 5, atLeast: false },
    ...figures,
  };
}

const NO_WORKER = { kind: 'noWorker', ready: 1, waitingSeconds: 900 } as const;

/** q0000 … q2999, names in an order that is not theirs, so sorting shows. */
function manyQueues(count: number): OverviewQueue[] {
  return Array.from({ length: count }, (_, index) => row(`q${String((index * 7919) % count).padStart(4, '0')}`, { pending: index % 13 }));
}

describe('overviewPage', () => {
  it('carries one page of rows at any number of queues, the totals of every queue', () => {
    const every = manyQueues(3000);
    const page = overviewPage(every, DEFAULT_OVERVIEW_REQUEST);
    expect(page.queues).toHaveLength(OVERVIEW_PAGE_ROWS);
    expect(page.queues.map((queue) => queue.queue).slice(0, 3)).toEqual(['q0000', 'q0001', 'q0002']);
    expect(page).toMatchObject({ queueCount: 3000, matched: 3000, page: { number: 1, count: 60, first: 1, last: 50 } });
    expect(page.totals.pending).toBe(every.reduce((sum, queue) => sum + queue.pending, 0));
  });

  it('puts the queues that need attention first, then unreadable ones, then those over a threshold, and counts them over every queue', () => {
    const every = manyQueues(500);
    every[400] = { ...every[400]!, marks: [NO_WORKER] };
    every[10] = { ...every[10]!, error: 'WRONGTYPE' };
    every[20] = { ...every[20]!, crossed: [{ threshold: 'backlog', value: 9, limit: 1 }] };
    const page = overviewPage(every, { ...DEFAULT_OVERVIEW_REQUEST, filter: 'q04' });
    const order = overviewPage(every, DEFAULT_OVERVIEW_REQUEST)
      .queues.slice(0, 3)
      .map((queue) => queue.queue);
    expect(order).toEqual([every[400]!.queue, every[10]!.queue, every[20]!.queue]);
    // The banner counts over every queue, whatever the filter shows.
    expect(page.attention).toMatchObject({ marked: 1, over: 1, named: [{ queue: every[400]!.queue }] });
  });

  it('names the first few marked queues and counts the rest', () => {
    const every = manyQueues(100).map((queue) => ({ ...queue, marks: [NO_WORKER] }));
    const { attention } = overviewPage(every, DEFAULT_OVERVIEW_REQUEST);
    expect(attention.marked).toBe(100);
    expect(attention.named).toHaveLength(ATTENTION_NAMED);
  });

  it('finds a queue by part of its name in any case, whichever page it would be on', () => {
    const page = overviewPage(manyQueues(3000), { ...DEFAULT_OVERVIEW_REQUEST, filter: 'Q2718' });
    expect(page.queues.map((queue) => queue.queue)).toEqual(['q2718']);
    expect(page).toMatchObject({ matched: 1, queueCount: 3000, page: { number: 1, count: 1, first: 1, last: 1 } });
  });

  it('orders by a figure, largest first, names breaking ties; a page past the last is the last', () => {
    const every = [row('b', { pending: 2 }), row('a', { pending: 2 }), row('c', { pending: 5 })];
    expect(overviewPage(every, { ...DEFAULT_OVERVIEW_REQUEST, sort: 'pending' }).queues.map((queue) => queue.queue)).toEqual(['c', 'a', 'b']);
    expect(overviewPage(manyQueues(120), { ...DEFAULT_OVERVIEW_REQUEST, page: 99 }).page).toMatchObject({ number: 3, first: 101, last: 120 });
  });

  it('has one empty page and no failure total it cannot tell', () => {
    expect(overviewPage([], DEFAULT_OVERVIEW_REQUEST)).toMatchObject({ queues: [], matched: 0, page: { number: 1, count: 1, first: 0, last: 0 } });
    expect(overviewPage([row('a'), row('b', { failedRecently: null })], DEFAULT_OVERVIEW_REQUEST).totals.failedRecently).toBeNull();
  });
});

describe('the overview request in the address', () => {
  it('reads back what it writes, and anything unreadable as the default', () => {
    const request = { page: 3, filter: 'shop 7', sort: 'reserved' } as const;
    expect(overviewRequestFromParams(new URLSearchParams(overviewSearch(request)))).toEqual(request);
    expect(overviewSearch(DEFAULT_OVERVIEW_REQUEST)).toBe('');
    expect(overviewRequestFromParams(new URLSearchParams('page=-2&sort=drop&q=%20'))).toEqual(DEFAULT_OVERVIEW_REQUEST);
  });
});
