import Link from 'next/link';
import { overviewHref } from '@/lib/routes';

/** The way back to the overview, above a queue's heading. */
export function BackToQueues() {
  return (
    <p className="text-sm">
      <Link href={overviewHref} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
        <span aria-hidden="true">← </span>All queues
      </Link>
    </p>
  );
}

/** A /queues/ address that queueHref did not write: its segment is not valid percent-encoding. */
export function NotAQueueName({ segment }: { segment: string }) {
  return (
    <div className="space-y-4">
      <BackToQueues />
      <h1 className="text-2xl font-semibold tracking-tight">Not a queue name</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400 [overflow-wrap:anywhere]">
        <span className="font-mono">{segment}</span> is not a percent-encoded name. Open a queue from the overview instead.
      </p>
    </div>
  );
}
