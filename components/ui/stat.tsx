import type { Route } from 'next';
import Link from 'next/link';
import { useId } from 'react';
import { formatCount } from './format-count';

/**
 * One labelled count; a group named by its label, so it can be found by
 * role. With `href` the whole tile is a link to where the count comes from.
 */
export function Stat({ label, value, href }: { label: string; value: number; href?: Route }) {
  const labelId = useId();
  const tile = (
    <div
      role="group"
      aria-labelledby={labelId}
      className="h-full rounded-md border border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <p id={labelId} className={`text-sm ${href ? 'text-blue-700 group-hover:underline dark:text-blue-400' : 'text-zinc-500 dark:text-zinc-400'}`}>
        {label}
        {href && <span aria-hidden="true"> →</span>}
      </p>
      <p className="text-2xl font-semibold tabular-nums">{formatCount(value)}</p>
    </div>
  );
  if (!href) return tile;
  return (
    <Link href={href} className="group block rounded-md">
      {tile}
    </Link>
  );
}
