import { formatCount } from '@/components/ui/format-count';
import { formatDuration } from '@/components/ui/format-duration';
import { ScrollX } from '@/components/ui/scroll-x';
import type { DueTimeline } from '@/lib/layouts/pages';

type Bucket = DueTimeline['hour'][number];

/** `in 5–10 min`, `in the next 5 min`: a bucket's stretch, measured from the read's `now`. */
export function bucketSpan(bucket: Bucket, now: number): string {
  const from = bucket.start - now;
  const to = formatDuration(bucket.end - now);
  return from <= 0 ? `in the next ${to}` : `in ${formatDuration(from)} to ${to}`;
}

function jobs(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'job' : 'jobs'}`;
}

/**
 * How many jobs come due per bucket, as columns with their figures written
 * above them. A list named `label` whose items are named in words ("in 5
 * min to 10 min: 3 jobs"), so a screen reader hears the figures, not bars.
 * Plain elements: no chart library, nothing drawn that text does not say.
 */
export function BucketChart({ label, buckets, now, compact = false }: { label: string; buckets: readonly Bucket[]; now: number; compact?: boolean }) {
  const highest = Math.max(1, ...buckets.map((bucket) => bucket.count));
  return (
    <ScrollX label={label}>
      <ol aria-label={label} className={`flex items-end gap-1 px-3 pt-3 pb-2 ${buckets.length > 12 ? 'min-w-[44rem]' : 'min-w-[30rem]'}`}>
        {buckets.map((bucket) => (
          <li key={bucket.start} aria-label={`${bucketSpan(bucket, now)}: ${jobs(bucket.count)}`} className="flex min-w-0 flex-1 flex-col items-center gap-1">
            <span aria-hidden="true" className={`text-xs tabular-nums ${bucket.count === 0 ? 'text-zinc-500 dark:text-zinc-400' : 'font-medium'}`}>
              {formatCount(bucket.count)}
            </span>
            <span aria-hidden="true" className={`flex w-full items-end ${compact ? 'h-12' : 'h-28'}`}>
              <span
                className={`block w-full rounded-t ${bucket.count > 0 ? 'bg-blue-600 dark:bg-blue-400' : 'bg-zinc-200 dark:bg-zinc-800'}`}
                // At least a sliver, so a single job among thousands is still seen.
                style={{ height: bucket.count > 0 ? `max(3px, ${(bucket.count / highest) * 100}%)` : '1px' }}
              />
            </span>
            <span aria-hidden="true" className="text-[10px] whitespace-nowrap text-zinc-500 tabular-nums dark:text-zinc-400">
              {formatDuration(bucket.end - now)}
            </span>
          </li>
        ))}
      </ol>
    </ScrollX>
  );
}
