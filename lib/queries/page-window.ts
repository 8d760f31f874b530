/** Which rows of a paged list one page shows, and where it stands among the pages. */
export interface PageWindow {
  /** 1 for the first page; a page past the last is the last */
  number: number;
  /** pages in all; at least 1, so an empty list has one empty page */
  count: number;
  /** rows a page holds at most */
  size: number;
  /** the page's first and last row among all, from 1; 0 and 0 when there is none */
  first: number;
  last: number;
}

/** Page `asked` (from 1) of `total` rows, `size` a page: a page past the last is the last. */
export function pageWindow(total: number, asked: number, size: number): PageWindow {
  const count = Math.max(1, Math.ceil(total / size));
  const number = Math.min(Math.max(1, asked), count);
  const start = (number - 1) * size;
  const last = Math.min(start + size, total);
  return { number, count, size, first: last > start ? start + 1 : 0, last };
}
