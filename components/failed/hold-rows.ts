import type { FailedRowView } from '@/lib/queries/failed';

/** What the failed list shows after a poll while it holds still: the rows held, refreshed, and how many newer failures wait above them. */
export interface HeldRows {
  rows: FailedRowView[];
  /** failures newer than every row held, not shown until asked for */
  arrived: number;
}

/**
 * Keeps the rows on screen where they are when a poll brings newer failures:
 * each held row takes its polled figures; a held row the poll no longer has
 * was retried or forgotten (it goes, which moves rows up, never down) unless
 * it is among the last `arrived` rows, which the newcomers pushed off this
 * page (it stays as it was). Newcomers are counted, not shown; polled rows
 * older than the newest held one (moved up from the next page) join at the
 * bottom. With nothing held, the poll is shown as it is.
 */
export function holdRows(held: readonly FailedRowView[], polled: readonly FailedRowView[]): HeldRows {
  if (held.length === 0) return { rows: [...polled], arrived: 0 };
  const heldIds = new Set(held.map((row) => row.id));
  const newest = held[0]!.failedAtSeconds;
  const arrived = polled.filter((row) => !heldIds.has(row.id) && row.failedAtSeconds >= newest).length;
  const polledById = new Map(polled.map((row) => [row.id, row]));
  const kept = held.flatMap((row, index) => {
    const fresh = polledById.get(row.id);
    if (fresh) return [fresh];
    return index >= held.length - arrived ? [row] : [];
  });
  const movedUp = polled.filter((row) => !heldIds.has(row.id) && row.failedAtSeconds < newest);
  return { rows: [...kept, ...movedUp], arrived };
}
