'use client';

import { UtcTime } from '@/components/ui/utc-time';
import type { Connection } from '@/lib/queries/connection';
import { useConnection } from './use-connection';
import { usePollInterval } from './use-poll-interval';

type Tone = Connection['state'] | 'paused';

const LOOK: Record<Tone, { word: string; dot: string; alarm?: true }> = {
  // Before the first answer, or on a page with nothing live: nothing to say yet.
  waiting: { word: '', dot: 'hidden' },
  live: { word: 'Live', dot: 'bg-emerald-500' },
  paused: { word: 'Updates off', dot: 'bg-zinc-400' },
  failing: { word: 'Cannot read Redis', dot: 'bg-red-500', alarm: true },
  offline: { word: 'QueueLens server unreachable', dot: 'bg-red-500', alarm: true },
};

/**
 * The header's word on the data on screen, and as of when. Only the word is
 * announced to screen readers: a time that changes with every poll would be
 * noise. The reason for a failure is the page's banner to tell.
 */
export function ConnectionStatus() {
  const connection = useConnection();
  const polling = usePollInterval() !== false;
  const tone: Tone = !polling && (connection.state === 'live' || connection.state === 'waiting') ? 'paused' : connection.state;
  const { word, dot, alarm } = LOOK[tone];
  return (
    <p className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
      <span aria-hidden="true" className={`size-2 shrink-0 rounded-full ${dot}`} />
      {/* In the page even while empty: a live region announces changes, not its arrival. */}
      <span aria-live="polite" className={alarm ? 'font-medium text-red-700 dark:text-red-400' : undefined}>
        {word}
      </span>
      {connection.readAt !== null && (
        <span className="hidden tabular-nums sm:inline">
          · updated <UtcTime ms={connection.readAt} />
        </span>
      )}
    </p>
  );
}
