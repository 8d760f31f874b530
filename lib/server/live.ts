import 'server-only';
import type { QueryClient } from '@tanstack/react-query';
import type { ApiResult } from '@/lib/queries/api';
import { nextSnapshot, type LiveQueryOptions } from '@/lib/queries/live';

/**
 * Fills `client` for a page's HydrationBoundary with what `options`' query
 * would fetch, read from Redis directly rather than over HTTP (the same
 * reader the query's `app/api` route answers with). A failed read is
 * prefetched too, so the page arrives already saying why there is no data.
 */
export async function prefetchLiveQuery<T>(client: QueryClient, options: LiveQueryOptions<T>, read: () => Promise<ApiResult<T>>): Promise<void> {
  await client.prefetchQuery({ ...options, queryFn: async () => nextSnapshot<T>(undefined, await read(), Date.now()) });
}
