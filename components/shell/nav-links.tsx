'use client';

import type { Route } from 'next';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { alertsHref, auditHref, connectHref, doctorHref, failedHref, findHref, layoutHref, overviewHref, reservationsHref, trashHref } from '@/lib/routes';

const LINKS: readonly { href: Route; label: string }[] = [
  { href: overviewHref, label: 'Overview' },
  { href: findHref, label: 'Find' },
  { href: failedHref, label: 'Failed' },
  { href: reservationsHref, label: 'Reservations' },
  { href: layoutHref, label: 'Keys' },
  { href: doctorHref, label: 'Doctor' },
  { href: trashHref, label: 'Trash' },
  { href: alertsHref, label: 'Alerts' },
  { href: auditHref, label: 'Audit' },
  { href: connectHref, label: 'Connect' },
];

function isCurrent(pathname: string, href: string): boolean {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * The main navigation; the page on screen is marked for sight and for screen readers.
 *
 * Its links, like those of the lists and tables, are not prefetched: every page is read from Redis at each
 * request, so a prefetch gains little, and the ten of the header with a page's dense lists of links were
 * a phone's longest tasks after hydration (issue 29, docs/benchmarks.md).
 */
export function NavLinks() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main">
      <ul className="flex flex-wrap items-center gap-1 text-sm">
        {LINKS.map(({ href, label }) => {
          const current = isCurrent(pathname, href);
          return (
            <li key={href}>
              <Link
                prefetch={false}
                href={href}
                aria-current={current ? 'page' : undefined}
                className={`rounded-md px-3 py-1.5 ${
                  current
                    ? 'bg-zinc-200 font-medium text-zinc-950 dark:bg-zinc-800 dark:text-zinc-50'
                    : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-950 dark:text-zinc-400 dark:hover:bg-zinc-800/60 dark:hover:text-zinc-50'
                }`}
              >
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
