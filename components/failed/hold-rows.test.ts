import { describe, expect, it } from 'vitest';
import type { FailedRowView } from '@/lib/queries/failed';
import { holdRows } from './hold-rows';

function row(id: number, failedAtSeconds: number, errorFirstLine = 'boom'): FailedRowView {
  return {
    id: String(id),
    exact: true,
    queue: 'mail',
    name: 'send',
    attempts: '3',
    maxAttempts: '3',
    failedAt: '',
    failedAtSeconds,
    errorFirstLine,
    retryCommand: null,
  };
}

describe('holdRows', () => {
  const held = [row(5, 500), row(4, 400), row(3, 300)];

  it('shows the first poll as it is', () => {
    expect(holdRows([], held)).toEqual({ rows: held, arrived: 0 });
  });

  it('keeps the held rows in place when newer failures arrive, counting them, and keeps the one they pushed off the page', () => {
    const polled = [row(7, 700), row(6, 600), row(5, 500)];
    expect(holdRows(held, polled)).toEqual({ rows: held, arrived: 2 });
  });

  it('refreshes held rows and drops one retried elsewhere, moving rows up only', () => {
    const polled = [row(5, 500, 'changed'), row(3, 300), row(2, 200)];
    expect(holdRows(held, polled)).toEqual({ rows: [row(5, 500, 'changed'), row(3, 300), row(2, 200)], arrived: 0 });
  });
});
