'use client';

import Link from 'next/link';
import { Banner } from '@/components/ui/banner';
import { formatCount } from '@/components/ui/format-count';
import { Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { ReactNode } from 'react';
import { CENSUS_LIST_CAP } from '@/lib/queries/key-layout';
import { layoutKeyHref } from '@/lib/routes';
import type { ListedKey } from './census-tally';
import { useCensus, type Census, type CensusSource } from './use-census';

const STRANGERS = 'Keys the driver never creates';
const WRONG_TYPE = 'Keys named like the layout, of another type';

function KeyList({ label, keys, count, linked }: { label: string; keys: readonly ListedKey[]; count: number; linked: boolean }) {
  return (
    <div className="space-y-2">
      <h3 className="font-medium">{label}</h3>
      {count > keys.length && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Showing the first {formatCount(keys.length)} of {formatCount(count)}.
        </p>
      )}
      <DataTable
        label={label}
        minWidthClass="min-w-[32rem]"
        head={
          <>
            <HeaderCell>Key</HeaderCell>
            <HeaderCell>Type</HeaderCell>
          </>
        }
      >
        {keys.map(({ key, raw = null, type }) => (
          <tr key={raw ?? key}>
            <Cell code>
              {linked ? (
                <Link href={layoutKeyHref({ key, raw })} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
                  {key}
                </Link>
              ) : (
                key
              )}
            </Cell>
            <Cell>{type}</Cell>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

function steps(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'step' : 'steps'}`;
}

function statusLine(census: Census, under: string): string {
  switch (census.state) {
    case 'running':
      return `Scanning… ${steps(census.steps)}, ${formatCount(census.keys)} keys ${under} so far`;
    case 'done':
      return `Done: ${formatCount(census.keys)} keys ${under} in ${steps(census.steps)}.`;
    case 'cancelled':
      return `Stopped after ${steps(census.steps)}; the counts below are partial.`;
    case 'failed':
      return `Stopped by an error after ${steps(census.steps)}; the counts below are partial.`;
    default:
      return '';
  }
}

/**
 * Counts every key under the layout's patterns on demand, a bounded SCAN
 * step per request, and lists the keys the driver never creates: leftovers
 * of another tool, a hand-made key, or a second application sharing the
 * prefix. `patterns` names what it walks, `counting` what it counts;
 * `linkKeys` links each listed key to its contents where the layout has that page.
 */
export function CensusPanel<Step extends { cursor: string; done: boolean }>({
  source,
  patterns,
  counting,
  under,
  linkKeys,
}: {
  source: CensusSource<Step>;
  patterns: ReactNode;
  counting: string;
  /** where the keys are, in words: "under the prefix" */
  under: string;
  linkKeys: boolean;
}) {
  const { census, start, cancel } = useCensus(source);
  const running = census.state === 'running';
  return (
    <Section
      title="Census"
      description={
        <>
          Walks every key {under} ({patterns}) with <span className="font-mono">SCAN … COUNT 250</span>, four to a step and one step per request, counting{' '}
          {counting} and listing (the first {formatCount(CENSUS_LIST_CAP)}) keys the driver never creates.
        </>
      }
      actions={
        running ? (
          <button type="button" className="button-secondary" onClick={cancel}>
            Cancel census
          </button>
        ) : (
          <button type="button" className="button-primary" onClick={start}>
            {census.state === 'idle' ? 'Run census' : 'Run census again'}
          </button>
        )
      }
    >
      {census.state !== 'idle' && (
        <div className="space-y-4">
          <div className="space-y-1 text-sm">
            <label className="flex flex-col gap-1">
              <span>Census progress (approximate: SCAN steps against DBSIZE, {formatCount(census.dbSize)} keys in the whole database)</span>
              <progress value={Math.round(census.progress * 1000)} max={1000} className="h-2 w-full" />
            </label>
            <p role="status" aria-live="polite">
              {statusLine(census, under)}
            </p>
          </div>
          {census.error !== null && <Banner title="The census stopped">{census.error}</Banner>}
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            {Object.entries(census.tallies).map(([label, count]) => (
              <Stat key={label} label={label} value={count} />
            ))}
            <Stat label={STRANGERS} value={census.strangerCount} />
          </div>
          {census.wrongTypeCount > 0 && <KeyList label={WRONG_TYPE} keys={census.wrongType} count={census.wrongTypeCount} linked={linkKeys} />}
          {census.strangerCount > 0 ? (
            <KeyList label={STRANGERS} keys={census.strangers} count={census.strangerCount} linked={linkKeys} />
          ) : (
            census.state === 'done' && <p className="text-sm text-zinc-600 dark:text-zinc-400">Every key {under} is one the driver writes.</p>
          )}
        </div>
      )}
    </Section>
  );
}
