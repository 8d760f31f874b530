import { QueryClient, environmentManager } from '@tanstack/react-query';

let browserQueryClient: QueryClient | undefined;

/**
 * The QueryClient to use here. On the server a new one per call (each
 * request renders with its own, so one request's data never reaches another
 * page); in the browser one for the whole session, so navigating keeps the
 * cache. Not `useState` in the provider: React may throw away state made
 * during a render that suspends, and with it the cache.
 */
export function getQueryClient(): QueryClient {
  if (environmentManager.isServer()) return new QueryClient();
  browserQueryClient ??= new QueryClient();
  return browserQueryClient;
}
