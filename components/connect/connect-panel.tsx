'use client';

import { useState } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { CodeBlock } from '@/components/ui/code-block';
import { CopyButton } from '@/components/ui/copy-button';
import { Callout } from '@/components/ui/banner';
import { EmptyList, Section } from '@/components/ui/section';
import { LAYOUT_TITLES } from '@/lib/layouts/adapter';
import { suggestedEntries } from '@/lib/shapes/detect-entry';
import type { Confidence, LayoutFind } from '@/lib/shapes/detect-tally';
import { useDetection } from './use-detection';

const CONFIDENCE_TONES: Record<Confidence, BadgeTone> = { high: 'good', medium: 'info', low: 'warning' };

function placeOf(find: LayoutFind): string {
  return find.channel !== undefined ? `channel ${find.channel}` : `prefix ${find.prefix}`;
}

/** The Connect page's walk: a pattern to scope it, Start and Stop, progress, and each find with its connections-file entry to copy. */
export function ConnectPanel({ connectionLabel }: { connectionLabel: string }) {
  const { run, start, stop } = useDetection();
  const [match, setMatch] = useState('*');
  const { detection, location } = run;
  const entries = location ? suggestedEntries(detection.found, location) : [];
  const started = run.running || run.done || run.stopped || run.error !== null;

  return (
    <div className="space-y-6">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          void start(match);
        }}
      >
        <label className="flex min-w-0 flex-col gap-1 text-sm">
          <span>Keys to look at (a SCAN MATCH pattern)</span>
          <input
            value={match}
            onChange={(event) => setMatch(event.target.value)}
            maxLength={200}
            required
            className="w-72 max-w-full rounded-md border border-zinc-300 bg-white px-2 py-1 font-mono dark:border-zinc-700 dark:bg-zinc-900"
          />
        </label>
        <button type="submit" className="button-primary" disabled={run.running}>
          {run.done || run.stopped ? 'Scan again' : 'Scan'}
        </button>
        <button type="button" className="button-secondary" onClick={stop} disabled={!run.running}>
          Stop
        </button>
      </form>

      <p role="status" aria-live="polite" aria-label="Scan progress" className="text-sm text-zinc-700 dark:text-zinc-300">
        {!started
          ? `Scans ${connectionLabel}’s Redis a few hundred keys at a time; nothing is changed.`
          : `${run.running ? 'Scanning…' : run.done ? 'Scan complete:' : run.stopped ? 'Stopped:' : 'Scan failed:'} ${detection.scanned} keys looked at, ${detection.found.length} queue layout${detection.found.length === 1 ? '' : 's'} found${run.done ? '' : ' so far'}.`}
      </p>
      {run.error !== null && (
        <Callout title="The scan stopped" tone="error" role="alert">
          {run.error}
        </Callout>
      )}

      {started && (
        <Section
          title="Found"
          description="Each prefix or channel once, with the entry for the connections file (queuelens.config.json). Copy it into the file's connections list and restart QueueLens."
        >
          {detection.found.length === 0 ? (
            <EmptyList>{run.running ? 'Nothing recognised yet.' : 'No queue layout was found in the keys looked at.'}</EmptyList>
          ) : (
            <ul className="space-y-4">
              {detection.found.map((find, index) => {
                const suggested = entries[index];
                const text = suggested ? JSON.stringify(suggested.entry, null, 2) : '';
                return (
                  <li
                    key={`${find.layout} ${placeOf(find)}`}
                    aria-label={`${LAYOUT_TITLES[find.layout]}, ${placeOf(find)}`}
                    className="space-y-2 rounded-md border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
                  >
                    <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                      <h3 className="font-semibold">{LAYOUT_TITLES[find.layout]}</h3>
                      <span className="font-mono text-sm [overflow-wrap:anywhere]">{placeOf(find)}</span>
                      <Badge tone={CONFIDENCE_TONES[find.confidence]}>{find.confidence} confidence</Badge>
                    </div>
                    <p className="text-sm text-zinc-700 dark:text-zinc-300">
                      {find.keys} keys, {find.jobs} jobs{find.queues.length > 0 ? `, queues ${find.queues.join(', ')}` : ''}. Matched: {find.matched}.
                    </p>
                    {suggested && (
                      <>
                        <div className="flex items-center justify-between gap-2">
                          <span className="text-sm font-medium">Connections-file entry</span>
                          <CopyButton text={text} label="Copy entry" subject={`for ${placeOf(find)}`} />
                        </div>
                        <CodeBlock label={`Entry for ${placeOf(find)}`} text={text} />
                        <ul
                          className="list-disc space-y-1 pl-5 text-sm text-zinc-700 dark:text-zinc-300"
                          aria-label={`What Redis cannot tell about ${placeOf(find)}`}
                        >
                          {suggested.notes.map((note) => (
                            <li key={note}>{note}</li>
                          ))}
                        </ul>
                      </>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          {detection.strangers.count > 0 && (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              {detection.strangers.count} keys fit no layout, such as{' '}
              <span className="font-mono [overflow-wrap:anywhere]">{detection.strangers.sample.slice(0, 5).join(', ')}</span>.
            </p>
          )}
          {detection.own > 0 && (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              {detection.own} keys are QueueLens’s own (its audit log and throughput history, under QUEUELENS_PREFIX).
            </p>
          )}
          {detection.capped && (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              So many prefixes looked like queues that not all could be kept: the key counts may be low.
            </p>
          )}
        </Section>
      )}
    </div>
  );
}
