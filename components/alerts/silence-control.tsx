'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, useTransition } from 'react';
import { silenceAlert } from '@/app/alerts/actions';
import { FILTER_INPUT } from '@/components/ui/url-filter-form';
import type { MarkKind } from '@/lib/dashboard/notices';
import { getTabConnection } from '@/lib/queries/tab-connection';

const DURATIONS = [
  { minutes: 60, label: '1 hour' },
  { minutes: 4 * 60, label: '4 hours' },
  { minutes: 24 * 60, label: '1 day' },
  { minutes: 7 * 24 * 60, label: '1 week' },
] as const;

const NO_ANSWER = 'The QueueLens server did not answer; reload the page to see whether the silence was set.';

/**
 * "Silence until…" for one mark of one queue (or "Lift" for a silenced
 * one), with the outcome read out beside it. The page is read again
 * afterwards, so its silences list shows what the server stored.
 */
export function SilenceControl({ queue, kind, title, silenced }: { queue: string; kind: MarkKind; title: string; silenced: boolean }) {
  const router = useRouter();
  const selectId = useId();
  const [minutes, setMinutes] = useState<number>(DURATIONS[0].minutes);
  const [status, setStatus] = useState('');
  const [busy, start] = useTransition();
  const run = (chosen: number) =>
    start(async () => {
      try {
        const result = await silenceAlert({ queue, kind, minutes: chosen }, getTabConnection());
        setStatus(
          result.ok
            ? result.until === 0
              ? 'Silence lifted.'
              : `Silenced until ${new Date(result.until * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC.`
            : result.error,
        );
      } catch {
        setStatus(NO_ANSWER);
      }
      router.refresh();
    });
  return (
    <div className="flex flex-wrap items-center gap-2">
      {silenced ? (
        <button type="button" className="button-secondary" disabled={busy} onClick={() => run(0)}>
          Lift silence
          <span className="sr-only">
            {' '}
            of {title} on {queue}
          </span>
        </button>
      ) : (
        <>
          <label htmlFor={selectId} className="sr-only">
            Silence {title} on {queue} for
          </label>
          <select id={selectId} className={FILTER_INPUT} value={minutes} onChange={(event) => setMinutes(Number(event.target.value))}>
            {DURATIONS.map((duration) => (
              <option key={duration.minutes} value={duration.minutes}>
                {duration.label}
              </option>
            ))}
          </select>
          <button type="button" className="button-secondary" disabled={busy} onClick={() => run(minutes)}>
            Silence
            <span className="sr-only">
              {' '}
              {title} on {queue}
            </span>
          </button>
        </>
      )}
      <span role="status" aria-live="polite" className="text-sm">
        {status}
      </span>
    </div>
  );
}
