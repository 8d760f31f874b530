'use client';

import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { ChangeControls, useChangePermission } from '@/components/shell/change-permission';
import { Pager } from '@/components/ui/pager';
import { EmptyList } from '@/components/ui/section';
import { Absent, Cell, DataTable, HeaderCell, RowHeaderCell } from '@/components/ui/table';
import { UtcMoment } from '@/components/ui/moment';
import type { PageWindow } from '@/lib/queries/page-window';
import { trashHref } from '@/lib/routes';
import { isTrashFiltered, trashQuery, type TrashFilter, type TrashRow } from '@/lib/shapes/trash';
import { useRestore } from './use-restore';

function describeFrom(row: TrashRow): string {
  return row.from === 'failed' ? `failed jobs of ${row.queue}` : `${row.from} in ${row.queue}`;
}

/** The trash's rows (those `filter` shows), newest first, each with Restore; `now` is the server's second the page was read at. */
export function TrashList({ rows, total, window, now, filter }: { rows: TrashRow[]; total: number; window: PageWindow; now: number; filter: TrashFilter }) {
  const restore = useRestore();
  const router = useRouter();
  // A viewer sees the trash but not Restore, which would be refused (the action re-checks all the same).
  const { allowed } = useChangePermission();
  const [restoring, startRestore] = useTransition();
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const shown = rows.filter((row) => !gone.has(row.id));

  if (shown.length === 0) {
    return isTrashFiltered(filter) ? (
      <EmptyList>No trashed job matches this filter.</EmptyList>
    ) : (
      <EmptyList>The trash is empty: nothing forgotten or removed is waiting to be restored.</EmptyList>
    );
  }

  const restoreRow = (id: string) =>
    startRestore(async () => {
      await restore([id], (back) => setGone((before) => new Set([...before, ...back])));
      router.refresh();
    });

  return (
    <div className="space-y-3">
      <ChangeControls />
      <DataTable
        label="Trashed jobs"
        minWidthClass="min-w-[56rem]"
        stacked
        head={
          <>
            <HeaderCell>Job</HeaderCell>
            <HeaderCell>Name</HeaderCell>
            <HeaderCell>From</HeaderCell>
            <HeaderCell>By</HeaderCell>
            <HeaderCell>Trashed</HeaderCell>
            <HeaderCell>Expires</HeaderCell>
            <HeaderCell>
              <span className="sr-only">Actions</span>
            </HeaderCell>
          </>
        }
      >
        {shown.map((row) => (
          <tr key={row.id}>
            <RowHeaderCell>{row.id}</RowHeaderCell>
            <Cell label="Name" code>
              {row.name === '' ? <Absent label="no name" /> : row.name}
            </Cell>
            <Cell label="From">{describeFrom(row)}</Cell>
            <Cell label="By">{row.who === '' ? <Absent label="nobody recorded" /> : `${row.who} (${row.via})`}</Cell>
            <Cell label="Trashed">
              <UtcMoment seconds={row.trashedAt} now={now} />
            </Cell>
            <Cell label="Expires">
              <UtcMoment seconds={row.expiresAt} now={now} />
            </Cell>
            {allowed && (
              <Cell label="Actions">
                <button type="button" className="button-secondary" disabled={restoring} onClick={() => restoreRow(row.id)} aria-label={`Restore job ${row.id}`}>
                  Restore
                </button>
              </Cell>
            )}
          </tr>
        ))}
      </DataTable>
      <Pager label="Trash pages" rows="Trashed jobs" window={window} total={total} hrefOf={(page) => `${trashHref}${trashQuery(filter, page)}` as Route} />
    </div>
  );
}
