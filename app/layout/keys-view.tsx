'use client';

import { CensusPanel } from '@/components/key-layout/census-panel';
import { LayoutTable, type TableKey } from '@/components/key-layout/layout-table';
import type { CensusSource } from '@/components/key-layout/use-census';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { formatCount } from '@/components/ui/format-count';
import { Section } from '@/components/ui/section';
import { Absent } from '@/components/ui/table';
import { censusStepPath, keyTableQuery, type KeyRow, type KeyTable, type LayoutCensusStep } from '@/lib/queries/key-layout';

const TABLE = 'Queue keys';
const CENSUS: CensusSource<LayoutCensusStep> = { path: censusStepPath, tally: (step) => step };

/** A stream's consumer group, where the layout reads its streams with one (StaticPHP). */
function GroupCell({ row }: { row: KeyRow }) {
  if (row.group === undefined) return <Absent label="not a stream" />;
  if (row.group === null) return <span className="text-zinc-500 dark:text-zinc-400">Not created yet</span>;
  return (
    <>
      {formatCount(row.group.pending)} pending, last delivered <span className="font-mono text-xs">{row.group.lastDeliveredId}</span>
    </>
  );
}

function tableKeyOf(row: KeyRow, groups: boolean): TableKey {
  return { ...row, linked: row.type !== 'none', ...(groups ? { extra: <GroupCell row={row} /> } : {}) };
}

function Summary({ table }: { table: KeyTable }) {
  const flagged = [
    table.mismatches > 0 && `${formatCount(table.mismatches)} ${table.mismatches === 1 ? 'key has' : 'keys have'} the wrong type`,
    table.ttlWrong > 0 && `${formatCount(table.ttlWrong)} ${table.ttlWrong === 1 ? 'key has' : 'keys have'} a TTL the driver does not leave`,
  ].filter(Boolean);
  return (
    <div className="space-y-1 text-sm text-zinc-600 dark:text-zinc-400">
      <p>Keys of {table.scope}</p>
      {table.cut !== null && <p>{table.cut}</p>}
      {flagged.length > 0 && (
        <p role="status" className="font-medium text-red-700 dark:text-red-400">
          {flagged.join('; ')}. The driver’s commands fail on a key of the wrong type, and a key that expires loses jobs.
        </p>
      )}
    </div>
  );
}

/**
 * `/layout`: the layout's key table, live (with each stream's consumer group
 * where the layout reads with one), and its census on demand.
 */
export function KeysView() {
  const view = useLiveQuery(keyTableQuery());
  const table = view.data;
  const groups = table?.consumerGroup !== undefined;
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Keys</h1>
      <LiveErrorBanner title="Cannot read the keys" view={view} />
      <Section title={TABLE} description={table?.description ?? 'Every key of the layout, with its type, size, memory and TTL.'}>
        {table === undefined ? (
          view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the keys…</p>
        ) : (
          <>
            <Summary table={table} />
            {table.keys.length === 0 ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                No queue has keys yet: the layout’s queues are found by their keys, and an empty queue has none.
              </p>
            ) : (
              <LayoutTable label={TABLE} keys={table.keys.map((row) => tableKeyOf(row, groups))} {...(groups ? { extraColumn: 'Consumer group' } : {})} />
            )}
          </>
        )}
      </Section>
      {table !== undefined && (
        <CensusPanel
          source={CENSUS}
          patterns={<span className="font-mono">{table.censusScope}</span>}
          counting="the layout’s keys by kind"
          under="under the layout’s names"
          linkKeys
        />
      )}
    </div>
  );
}
