import type { Route } from 'next';
import Link from 'next/link';
import { formatCount } from '@/components/ui/format-count';
import { reservationsSearch, type ReservationsPage, type ReservationsScope } from '@/lib/queries/reservations';
import { reservationsHref } from '@/lib/routes';

function pageHref(scope: ReservationsScope, page: number): Route {
  return `${reservationsHref}${reservationsSearch({ ...scope, page })}` as Route;
}

/**
 * Which rows of how many are shown, and links to the first, previous, next
 * and last page: plain links, so Tab and Enter page as well as a click, and
 * each page has an address. `label` names the landmark (one above the list,
 * one after it).
 */
export function ReservationsPager({ label, scope, page, total }: { label: string; scope: ReservationsScope; page: ReservationsPage['page']; total: number }) {
  if (page.count <= 1) return null;
  const links: { label: string; page: number; rel?: 'prev' | 'next' }[] = [
    { label: 'First', page: 1 },
    { label: 'Previous', page: page.number - 1, rel: 'prev' },
    { label: 'Next', page: page.number + 1, rel: 'next' },
    { label: 'Last', page: page.count },
  ];
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <p>
        Reservations {formatCount(page.first)}–{formatCount(page.last)} of {formatCount(total)}, page {formatCount(page.number)} of {formatCount(page.count)}
      </p>
      <ul className="flex flex-wrap gap-2">
        {links.map(({ label, page: target, rel }) => (
          <li key={label}>
            {target < 1 || target > page.count || target === page.number ? (
              <span aria-disabled="true" className="button-secondary opacity-50">
                {label}
              </span>
            ) : (
              <Link href={pageHref(scope, target)} rel={rel} className="button-secondary">
                {label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
