import type { Route } from 'next';
import Link from 'next/link';
import { useId } from 'react';
import { formatCount } from './format-count';

/**
 * One labelled count; a group named by its label, so it can be found by
 * role. With `href` the whole tile is a link to where the count comes from.
 * A count that cannot be known is a dash, with `note` saying why.
 */
export function Stat({ label, value, href, note }: { label: string; value: number | null; href?: Route; note?: string }) {
  const labelId = useId();
  const tile = (
    <div role="group" aria-labelledby={labelId} className="h-full rounded-md border border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900">
      <p id={labelId} className={`text-sm ${href ? 'text-blue-700 group-hover:underline dark:text-blue-400' : 'text-zinc-500 dark:text-zinc-400'}`}>
        {label}
        {href && <span aria-hidden="true"> →</span>}
      </p>
      <p className="text-2xl font-semibold tabular-nums">{value === null ? '—' : formatCount(value)}</p>
      {note && <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{note}</p>}
    </div>
  );
  if (!href) return tile;
  return (
    <Link prefetch={false} href={href} className="group block rounded-md">
      {tile}
    </Link>
  );
}
