import type { Route } from 'next';

// Links are built here so every page spells them the same way. `as Route`
// because typedRoutes cannot check a path built at runtime, and because the
// failed, job and queue pages are written alongside this one.

export const overviewHref = '/' as Route;
export const failedHref = '/failed' as Route;

/** The page of one queue; any queue name, slashes and markup included, is one path segment. */
export function queueHref(queue: string): Route {
  return `/queues/${encodeURIComponent(queue)}` as Route;
}

export function jobHref(id: number): Route {
  return `/jobs/${id}` as Route;
}
