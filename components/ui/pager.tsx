import type { Route } from 'next';
import Link from 'next/link';
import { formatCount } from '@/components/ui/format-count';
import type { PageWindow } from '@/lib/queries/page-window';

/**
 * Which rows of how many are shown, and links to the first, previous, next
 * and last page: plain links, so Tab and Enter page as well as a click, and
 * each page has an address. `label` names the landmark; `rows` names what is
 * listed, plural ("Queues").
 */
export function Pager({
  label,
  rows,
  window,
  total,
  hrefOf,
}: {
  label: string;
  rows: string;
  window: PageWindow;
  total: number;
  hrefOf: (page: number) => Route;
}) {
  if (window.count <= 1) return null;
  const links: { label: string; page: number; rel?: 'prev' | 'next' }[] = [
    { label: 'First', page: 1 },
    { label: 'Previous', page: window.number - 1, rel: 'prev' },
    { label: 'Next', page: window.number + 1, rel: 'next' },
    { label: 'Last', page: window.count },
  ];
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <p>
        {rows} {formatCount(window.first)}–{formatCount(window.last)} of {formatCount(total)}, page {formatCount(window.number)} of {formatCount(window.count)}
      </p>
      <ul className="flex flex-wrap gap-2">
        {links.map(({ label, page, rel }) => (
          <li key={label}>
            {page < 1 || page > window.count || page === window.number ? (
              <span aria-disabled="true" className="button-secondary opacity-50">
                {label}
              </span>
            ) : (
              <Link prefetch={false} href={hrefOf(page)} rel={rel} className="button-secondary">
                {label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
