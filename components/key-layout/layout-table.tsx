import Link from 'next/link';
import { formatCount } from '@/components/ui/format-count';
import { formatDuration } from '@/components/ui/format-duration';
import { Absent, Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { LayoutKeyView } from '@/lib/queries/key-layout';
import { layoutKeyHref } from '@/lib/routes';
import { formatBytes } from './format-bytes';

const ROLE: Record<LayoutKeyView['role'], string> = {
  queues: 'queue names',
  seq: 'the id counter',
  failed: 'failed ids',
  levels: 'priority levels',
  delayed: 'delayed ids',
  stream: 'ready ids',
};

function what(view: LayoutKeyView): string {
  if (view.role === 'stream') return `${ROLE.stream}, level ${view.level}`;
  return ROLE[view.role];
}

function TypeCell({ view }: { view: LayoutKeyView }) {
  if (view.type === 'none') return <span className="text-zinc-500 dark:text-zinc-400">absent ({view.expectedType} when written)</span>;
  if (!view.mismatch) return <>{view.type}</>;
  return (
    <span className="font-medium text-red-700 dark:text-red-400">
      Wrong type: {view.type}, expected {view.expectedType}
    </span>
  );
}

function SizeCell({ view }: { view: LayoutKeyView }) {
  if (view.size === null) return <Absent label="no size" />;
  return <>{view.type === 'string' ? formatBytes(view.size) : formatCount(view.size)}</>;
}

function GroupCell({ view }: { view: LayoutKeyView }) {
  if (view.role !== 'stream' || view.type !== 'stream') return <Absent label="not a stream" />;
  if (!view.group) return <span className="text-zinc-500 dark:text-zinc-400">Not created yet</span>;
  return (
    <>
      {formatCount(view.group.pending)} pending, last delivered <span className="font-mono text-xs">{view.group.lastDeliveredId}</span>
    </>
  );
}

/**
 * The spec's keys for the configured prefix, one row each: what it holds,
 * its Redis type (a type the driver would not write there is flagged), size,
 * memory, TTL (flagged: the driver never sets one) and a stream's consumer
 * group. Each existing key links to its contents.
 */
export function LayoutTable({ label, keys }: { label: string; keys: readonly LayoutKeyView[] }) {
  return (
    <DataTable
      label={label}
      minWidthClass="min-w-[64rem]"
      head={
        <>
          <HeaderCell>Key</HeaderCell>
          <HeaderCell>Holds</HeaderCell>
          <HeaderCell>Type</HeaderCell>
          <HeaderCell numeric>Size</HeaderCell>
          <HeaderCell numeric>Memory</HeaderCell>
          <HeaderCell>TTL</HeaderCell>
          <HeaderCell>Consumer group</HeaderCell>
        </>
      }
    >
      {keys.map((view) => (
        <tr key={view.key} className={view.mismatch || view.ttlSeconds !== null ? 'bg-red-50/60 dark:bg-red-950/30' : undefined}>
          <Cell code>
            {view.type === 'none' ? (
              view.key
            ) : (
              <Link href={layoutKeyHref(view.key)} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
                {view.key}
              </Link>
            )}
          </Cell>
          <Cell>{what(view)}</Cell>
          <Cell>
            <TypeCell view={view} />
            {view.error !== undefined && <span className="block text-red-700 dark:text-red-400">Cannot read it: {view.error}</span>}
          </Cell>
          <Cell numeric>
            <SizeCell view={view} />
          </Cell>
          <Cell numeric>{view.memoryBytes === null ? <Absent label="no memory figure" /> : formatBytes(view.memoryBytes)}</Cell>
          <Cell>
            {view.ttlSeconds === null ? (
              <span className="whitespace-nowrap">none</span>
            ) : (
              <span className="font-medium text-red-700 dark:text-red-400">Expires in {formatDuration(view.ttlSeconds)}: the driver never sets a TTL</span>
            )}
          </Cell>
          <Cell>
            <GroupCell view={view} />
          </Cell>
        </tr>
      ))}
    </DataTable>
  );
}
