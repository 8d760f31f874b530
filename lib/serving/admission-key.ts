import { requestUrl } from './api-gate';

/**
 * The query parameters each route reads; a route not named here reads none.
 * Anything else in a query string changes nothing in the answer, so it must
 * not change which line of the burst admission a request joins: otherwise a
 * client makes every request one of its own (`?n=1`, `?n=2`, …) and the
 * admission holds none of them back. A parameter a route reads but this
 * table misses only costs concurrency (two different requests wait in one
 * line), never a wrong answer: each request is still answered for its own URL.
 */
const QUERY_PARAMETERS_READ: readonly { path: RegExp; reads: readonly string[] }[] = [
  { path: /^\/$/, reads: ['q', 'sort', 'page', 'connection'] },
  { path: /^\/api\/overview$/, reads: ['q', 'sort', 'page'] },
  { path: /^\/api\/audit$/, reads: ['before', 'limit', 'action', 'who', 'role', 'result', 'text'] },
  { path: /^\/api\/failed$/, reads: ['offset', 'limit'] },
  { path: /^\/api\/failed\/search$/, reads: ['offset', 'queue', 'name', 'error'] },
  { path: /^\/api\/find$/, reads: ['text', 'field', 'queue', 'states', 'cursor'] },
  { path: /^\/find$/, reads: ['text', 'field', 'queue', 'states', 'cursor', 'connection'] },
  { path: /^\/api\/jobs\/[^/]+$/, reads: ['queue', 'near'] },
  { path: /^\/api\/layout\/(table\/)?census$/, reads: ['cursor'] },
  { path: /^\/api\/layout\/key$/, reads: ['name', 'raw', 'cursor'] },
  { path: /^\/layout\/key$/, reads: ['name', 'raw', 'cursor', 'connection'] },
  { path: /^\/api\/queues\/[^/]+\/history$/, reads: ['range'] },
  { path: /^\/api\/queues\/[^/]+$/, reads: ['page'] },
  { path: /^\/api\/reservations(\/expiring)?$/, reads: ['page', 'queue'] },
  { path: /^\/reservations$/, reads: ['page', 'queue', 'connection'] },
  { path: /^\/audit$/, reads: ['action', 'text', 'result'] },
  { path: /^\/failed$/, reads: ['queue', 'name', 'error', 'page', 'connection'] },
  { path: /^\/jobs\/[^/]+$/, reads: ['queue', 'near', 'connection'] },
  { path: /^\/queues\/[^/]+$/, reads: ['range', 'page', 'connection'] },
  { path: /^\/queues\/[^/]+\/delayed$/, reads: ['connection'] },
  { path: /^\/trash$/, reads: ['page', 'queue', 'from', 'who', 'connection'] },
  { path: /^\/(doctor|layout|alerts)$/, reads: ['connection'] },
];

/**
 * A path as every router reads it alike: dot segments resolved (by URL),
 * doubled slashes as one, and each segment's percent-escapes decoded and
 * written again one way, so `/api/jobs/1/fields/%70ayload` is
 * `/api/jobs/1/fields/payload`.
 */
function canonicalPath(pathname: string): string {
  const segments = pathname.replace(/\/{2,}/g, '/').split('/');
  return segments
    .map((segment) => {
      try {
        return encodeURIComponent(decodeURIComponent(segment));
      } catch {
        return segment; // a malformed escape: the route refuses it, however it is spelled
      }
    })
    .join('/');
}

/** The query parameters the route at `path` (read canonically) reads. */
export function queryParametersRead(path: string): readonly string[] {
  return QUERY_PARAMETERS_READ.find((route) => route.path.test(path))?.reads ?? [];
}

/**
 * Which line of the burst admission a request joins: its method, its path
 * read canonically, and only the query parameters its route reads, sorted by
 * name and encoded one way (each value in the order sent).
 */
export function admissionKey(method: string, rawUrl: string): string {
  const url = requestUrl(rawUrl);
  const path = canonicalPath(url.pathname);
  const reads = queryParametersRead(path);
  const kept = [...url.searchParams].filter(([name]) => reads.includes(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return kept.length === 0 ? `${method} ${path}` : `${method} ${path}?${new URLSearchParams(kept)}`;
}
