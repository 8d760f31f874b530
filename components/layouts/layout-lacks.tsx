import Link from 'next/link';
import { overviewHref } from '@/lib/routes';

/**
 * A page the connection's layout cannot fill: its title, the layout's own
 * sentence saying why, and the way back to what it does show. Not an error:
 * nothing failed, this driver keeps no such thing (or QueueLens cannot read
 * it yet), and the page says which.
 */
export function LayoutLacks({ title, sentence }: { title: string; sentence: string }) {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <section
        aria-label="Not on this connection"
        className="rounded-md border border-zinc-200 bg-white px-4 py-3 text-sm text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300"
      >
        <p>{sentence}.</p>
        <p className="mt-2">
          <Link href={overviewHref} className="text-blue-700 underline dark:text-blue-400">
            The overview
          </Link>{' '}
          shows what this connection’s layout can tell.
        </p>
      </section>
    </div>
  );
}
