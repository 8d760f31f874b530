'use client';

import { useParams } from 'next/navigation';
import { BackToQueues } from '@/components/queues/queue-heading';
import { queueFromSegment } from '@/lib/routes';

/** The queue page's 404: the connection's layout says it has no queue by that name. */
export default function QueueNotFound() {
  const segment = useParams<{ queue: string }>().queue;
  const name = queueFromSegment(segment) ?? segment;
  return (
    <div className="space-y-4">
      <BackToQueues />
      <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">No queue {name}</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400 [overflow-wrap:anywhere]">
        This connection has no queue named <span className="font-mono">{name}</span>. The overview lists every queue it has; the header’s connection switcher
        shows the others.
      </p>
    </div>
  );
}
