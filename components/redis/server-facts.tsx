import { useId } from 'react';
import { formatCount } from '@/components/ui/format-count';
import { formatDuration } from '@/components/ui/format-duration';
import type { ServerInfo } from '@/lib/shapes/server-info';

/** The Redis server the queues live on: version, memory, clients, uptime and eviction policy. */
export function ServerFacts({ server }: { server: ServerInfo }) {
  const headingId = useId();
  const facts: readonly [string, string][] = [
    ['Version', server.version],
    ['Used memory', server.usedMemoryHuman],
    ['Connected clients', formatCount(server.connectedClients)],
    ['Uptime', formatDuration(server.uptimeSeconds)],
    ['Eviction policy', server.maxmemoryPolicy ?? 'unknown'],
  ];
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h2 id={headingId} className="text-base font-semibold">
        Redis server
      </h2>
      {/* Five facts: two columns on narrow screens with the last one across both, so no cell stays empty. */}
      <dl className="grid grid-cols-2 gap-px overflow-hidden rounded-md border border-zinc-200 bg-zinc-200 text-sm lg:grid-cols-5 dark:border-zinc-800 dark:bg-zinc-800">
        {facts.map(([term, value]) => (
          <div key={term} className="bg-white px-4 py-3 last:col-span-2 lg:last:col-span-1 dark:bg-zinc-900">
            <dt className="text-zinc-500 dark:text-zinc-400">{term}</dt>
            <dd className="mt-1 font-medium [overflow-wrap:anywhere] tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
