import type { Route } from 'next';
import Link from 'next/link';
import { formatCount } from '@/components/ui/format-count';

/**
 * Which rows of how many a paged list shows, and links to the previous and
 * next page: plain links, so each page has an address. `hrefOf` writes a
 * page's address; `label` names the landmark.
 */
export function PageLinks({
  label,
  page,
  pageRows,
  total,
  hrefOf,
}: {
  label: string;
  page: number;
  pageRows: number;
  total: number;
  hrefOf: (page: number) => Route;
}) {
  const pages = Math.max(1, Math.ceil(total / pageRows));
  if (pages <= 1 && page === 1) return null;
  const first = Math.min(total, (page - 1) * pageRows + 1);
  const last = Math.min(total, page * pageRows);
  const links = [
    { label: 'Previous', target: page - 1, rel: 'prev' as const },
    { label: 'Next', target: page + 1, rel: 'next' as const },
  ];
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <p>
        Rows {formatCount(first)}–{formatCount(last)} of {formatCount(total)}, page {formatCount(page)} of {formatCount(pages)}
      </p>
      <ul className="flex flex-wrap gap-2">
        {links.map(({ label: text, target, rel }) => (
          <li key={text}>
            {target < 1 || target > pages ? (
              <span aria-disabled="true" className="button-secondary opacity-50">
                {text}
              </span>
            ) : (
              <Link href={hrefOf(target)} rel={rel} className="button-secondary">
                {text}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
