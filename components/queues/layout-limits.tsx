import type { OverviewAbsent } from '@/lib/queries/overview';

/**
 * What the connection's layout cannot tell the overview (no marks, no
 * sampled throughput, or no failures, pushes or wait in it), said once above the table so that a missing column
 * or mark is not read as "all is well". The failed count says its own.
 */
export function LayoutLimits({ absent }: { absent: OverviewAbsent }) {
  const limits = [absent.attention, absent.throughput, absent.throughputGaps?.failed, absent.throughputGaps?.pushed, absent.throughputGaps?.wait].filter(
    (sentence): sentence is string => sentence !== undefined,
  );
  if (limits.length === 0) return null;
  return (
    <ul
      aria-label="What this layout cannot show"
      className="space-y-1 rounded-md border border-zinc-200 bg-white px-4 py-3 text-sm text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300"
    >
      {limits.map((sentence) => (
        <li key={sentence}>{sentence}.</li>
      ))}
    </ul>
  );
}
