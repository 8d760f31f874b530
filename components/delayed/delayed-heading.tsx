import Link from 'next/link';
import { queueHref } from '@/lib/routes';

/** The delayed page's heading, with the way back to its queue. */
export function DelayedHeading({ name }: { name: string }) {
  return (
    <div className="space-y-2">
      <p className="text-sm">
        <Link href={queueHref(name)} className="text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
          <span aria-hidden="true">← </span>Queue <span className="font-mono">{name}</span>
        </Link>
      </p>
      <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
        Delayed jobs of <span className="font-mono">{name}</span>
      </h1>
    </div>
  );
}
