'use client';

import { useState } from 'react';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { EmptyList, Section } from '@/components/ui/section';
import { CHART_RANGES, queueHistoryQuery, ratesInWords, sampledRates, type HistoryRange } from '@/lib/queries/throughput';
import { ThroughputChart } from './throughput-chart';

const RANGE_NAMES: Record<HistoryRange, string> = { '15m': '15 min', '1h': '1 hour', '24h': '24 hours', '7d': '7 days' };

/**
 * One queue's throughput over a chosen range, live. The range is the page's
 * `?range=` (`initialRange`, read on the server): choosing another writes it
 * there without a navigation, so the address shared or reloaded shows the
 * same range.
 */
export function QueueThroughput({ queue, initialRange }: { queue: string; initialRange: HistoryRange }) {
  const [range, setRange] = useState<HistoryRange>(initialRange);
  const choose = (choice: HistoryRange) => {
    setRange(choice);
    const address = new URL(window.location.href);
    address.searchParams.set('range', choice);
    window.history.replaceState(null, '', address);
  };
  const view = useLiveQuery(queueHistoryQuery(queue, range));
  const points = view.data?.points;
  const gaps = view.data?.gaps;
  const rates = sampledRates(gaps);
  const unsampled = [gaps?.pushed, gaps?.failed].filter((sentence) => sentence !== undefined).map((sentence) => ` ${sentence}.`);
  return (
    <Section
      title="Throughput"
      description={`${ratesInWords(rates)} per second and the pending backlog, sampled by the dashboard. Hover the chart for the figures at a moment.${unsampled.join('')}`}
      actions={
        <div role="group" aria-label="Range" className="flex gap-1 text-sm">
          {CHART_RANGES.map((choice) => (
            <button
              key={choice}
              type="button"
              aria-pressed={choice === range}
              onClick={() => choose(choice)}
              className="rounded border border-zinc-300 px-2 py-0.5 aria-pressed:bg-zinc-900 aria-pressed:text-white dark:border-zinc-700 dark:aria-pressed:bg-zinc-100 dark:aria-pressed:text-zinc-900"
            >
              {RANGE_NAMES[choice]}
            </button>
          ))}
        </div>
      }
    >
      <LiveErrorBanner title="Cannot read this queue's throughput" view={view} />
      {points === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the history…</p>
      ) : points.length === 0 ? (
        <EmptyList>No samples over this range yet: the dashboard samples every few seconds while it runs.</EmptyList>
      ) : (
        <ThroughputChart points={points} label={`Throughput of queue ${queue}, last ${RANGE_NAMES[range]}`} rates={rates} />
      )}
    </Section>
  );
}
