import Link from 'next/link';
import type { ReactNode } from 'react';
import { formatCount } from '@/components/ui/format-count';
import { formatDuration } from '@/components/ui/format-duration';
import { Absent, Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { KeyRow } from '@/lib/queries/key-layout';
import { layoutKeyHref } from '@/lib/routes';
import { formatBytes } from './format-bytes';

/** A row of the keys table, any layout's: the key's facts, and what a layout adds in a column of its own. */
export type TableKey = Omit<KeyRow, 'queue'> & {
  /** link the key to its contents (the layout has that page and the key exists) */
  linked: boolean;
  /** the layout's own column, e.g. a stream's consumer group */
  extra?: ReactNode;
};

function TypeCell({ row }: { row: TableKey }) {
  if (row.type === 'none') return <span className="text-zinc-500 dark:text-zinc-400">absent ({row.expectedType} when written)</span>;
  if (!row.mismatch) return <>{row.type}</>;
  return (
    <span className="font-medium text-red-700 dark:text-red-400">
      Wrong type: {row.type}, expected {row.expectedType}
    </span>
  );
}

function SizeCell({ row }: { row: TableKey }) {
  if (row.size === null) return <Absent label="no size" />;
  return <>{row.type === 'string' ? formatBytes(row.size) : formatCount(row.size)}</>;
}

function TtlCell({ row }: { row: TableKey }) {
  if (!row.ttlWrong) return <span className="whitespace-nowrap">{row.ttlSeconds === null ? 'none' : `expires in ${formatDuration(row.ttlSeconds)}`}</span>;
  return (
    <span className="font-medium text-red-700 dark:text-red-400">
      {row.ttlSeconds === null ? 'None: the driver always sets one' : `Expires in ${formatDuration(row.ttlSeconds)}: the driver never sets a TTL`}
    </span>
  );
}

/**
 * The layout's keys, one row each: what it holds, its Redis type (a type the
 * driver would not write there is flagged), size, memory and TTL (flagged
 * where it is not the driver's), and the layout's own column if it has one.
 */
export function LayoutTable({ label, keys, extraColumn }: { label: string; keys: readonly TableKey[]; extraColumn?: string }) {
  return (
    <DataTable
      label={label}
      minWidthClass={extraColumn === undefined ? 'min-w-[56rem]' : 'min-w-[64rem]'}
      head={
        <>
          <HeaderCell>Key</HeaderCell>
          <HeaderCell>Holds</HeaderCell>
          <HeaderCell>Type</HeaderCell>
          <HeaderCell numeric>Size</HeaderCell>
          <HeaderCell numeric>Memory</HeaderCell>
          <HeaderCell>TTL</HeaderCell>
          {extraColumn !== undefined && <HeaderCell>{extraColumn}</HeaderCell>}
        </>
      }
    >
      {keys.map((row) => (
        <tr key={row.key} className={row.mismatch || row.ttlWrong ? 'bg-red-50/60 dark:bg-red-950/30' : undefined}>
          <Cell code>
            {row.linked ? (
              <Link href={layoutKeyHref(row.key)} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
                {row.key}
              </Link>
            ) : (
              row.key
            )}
          </Cell>
          <Cell>{row.holds}</Cell>
          <Cell>
            <TypeCell row={row} />
            {row.error !== undefined && <span className="block text-red-700 dark:text-red-400">Cannot read it: {row.error}</span>}
          </Cell>
          <Cell numeric>
            <SizeCell row={row} />
          </Cell>
          <Cell numeric>{row.memoryBytes === null ? <Absent label="no memory figure" /> : formatBytes(row.memoryBytes)}</Cell>
          <Cell>
            <TtlCell row={row} />
          </Cell>
          {extraColumn !== undefined && <Cell>{row.extra}</Cell>}
        </tr>
      ))}
    </DataTable>
  );
}
