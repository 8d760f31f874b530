'use client';

import { CensusPanel } from '@/components/key-layout/census-panel';
import { LayoutTable, type TableKey } from '@/components/key-layout/layout-table';
import { Absent } from '@/components/ui/table';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { formatCount } from '@/components/ui/format-count';
import { Section } from '@/components/ui/section';
import { censusStepPath, keyLayoutQuery, type CensusStep, type KeyLayout, type LayoutKeyView } from '@/lib/queries/key-layout';
import { staticphpTally } from '@/components/key-layout/census-tally';
import type { CensusSource } from '@/components/key-layout/use-census';

const TABLE = 'Queue keys';
const CENSUS: CensusSource<CensusStep> = { path: censusStepPath, tally: staticphpTally };

const ROLE: Record<LayoutKeyView['role'], string> = {
  queues: 'queue names',
  seq: 'the id counter',
  failed: 'failed ids',
  levels: 'priority levels',
  delayed: 'delayed ids',
  stream: 'ready ids',
};

function GroupCell({ view }: { view: LayoutKeyView }) {
  if (view.role !== 'stream' || view.type !== 'stream') return <Absent label="not a stream" />;
  if (!view.group) return <span className="text-zinc-500 dark:text-zinc-400">Not created yet</span>;
  return (
    <>
      {formatCount(view.group.pending)} pending, last delivered <span className="font-mono text-xs">{view.group.lastDeliveredId}</span>
    </>
  );
}

/** A StaticPHP key as the shared table shows it; the driver never sets a TTL, and a stream has its consumer group. */
function tableKeyOf(view: LayoutKeyView): TableKey {
  return {
    key: view.key,
    holds: view.role === 'stream' ? `${ROLE.stream}, level ${view.level}` : ROLE[view.role],
    expectedType: view.expectedType,
    type: view.type,
    mismatch: view.mismatch,
    size: view.size,
    memoryBytes: view.memoryBytes,
    ttlSeconds: view.ttlSeconds,
    expires: false,
    ttlWrong: view.ttlSeconds !== null,
    ...(view.error !== undefined ? { error: view.error } : {}),
    linked: view.type !== 'none',
    extra: <GroupCell view={view} />,
  };
}

function Summary({ layout }: { layout: KeyLayout }) {
  const flagged = [
    layout.mismatches > 0 && `${formatCount(layout.mismatches)} ${layout.mismatches === 1 ? 'key has' : 'keys have'} the wrong type`,
    layout.withTtl > 0 && `${formatCount(layout.withTtl)} ${layout.withTtl === 1 ? 'key has' : 'keys have'} a TTL`,
  ].filter(Boolean);
  return (
    <div className="space-y-1 text-sm text-zinc-600 dark:text-zinc-400">
      <p>
        Prefix <span className="font-mono">{layout.prefix}</span>, consumer group <span className="font-mono">{layout.group}</span>;{' '}
        {layout.queuesShown < layout.queueCount
          ? `the first ${formatCount(layout.queuesShown)} of ${formatCount(layout.queueCount)} queues, by name.`
          : `${formatCount(layout.queueCount)} ${layout.queueCount === 1 ? 'queue' : 'queues'}.`}
        {layout.levelsCut.length > 0 && ` Only the highest levels of ${formatCount(layout.levelsCut.length)} queues with many levels are listed.`}
      </p>
      {flagged.length > 0 && (
        <p role="status" className="font-medium text-red-700 dark:text-red-400">
          {flagged.join('; ')}. The driver refuses to write to a key of the wrong type, and never sets a TTL: a key that expires loses jobs.
        </p>
      )}
    </div>
  );
}

/** `/layout`: the spec's key table for the prefix, live, and a census of every key under it on demand. */
export function KeyLayoutView() {
  const view = useLiveQuery(keyLayoutQuery());
  const layout = view.data;
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Keys</h1>
      <LiveErrorBanner title="Cannot read the key layout" view={view} />
      <Section
        title={TABLE}
        description="Every structural key of the layout: the queues set, the id counter, the failed set, and per queue its levels, delayed set and one stream per level. Job hashes and unique keys are counted by the census."
      >
        {layout === undefined ? (
          view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the keys…</p>
        ) : (
          <>
            <Summary layout={layout} />
            <LayoutTable label={TABLE} keys={layout.keys.map(tableKeyOf)} extraColumn="Consumer group" />
          </>
        )}
      </Section>
      {layout !== undefined && (
        <CensusPanel
          source={CENSUS}
          patterns={<span className="font-mono">{layout.prefix}*</span>}
          counting="job hashes and unique keys"
          under="under the prefix"
          linkKeys
        />
      )}
    </div>
  );
}
