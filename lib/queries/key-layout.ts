import type { KeyContents, KeyLayout } from '../inspect/key-layout';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { CensusKey, CensusStep, KeyContents, KeyLayout, LayoutKeyView } from '../inspect/key-layout';

/** Strangers the census page lists by name; beyond that it only counts them. */
export const CENSUS_LIST_CAP = 200;

/** GET /api/layout: the spec's key table for the configured prefix. */
export function keyLayoutQuery() {
  return liveQueryOptions<KeyLayout>(queryKeys.layout.table, '/api/layout');
}

/** GET /api/layout/key: one bounded page of a key under the prefix. */
export function keyContentsPath(key: string, cursor: string): string {
  const params = new URLSearchParams({ name: key });
  if (cursor !== '') params.set('cursor', cursor);
  return `/api/layout/key?${params}`;
}

export function keyContentsQuery(key: string, cursor: string) {
  return liveQueryOptions<KeyContents>(queryKeys.layout.contents(key, cursor), keyContentsPath(key, cursor));
}

/** GET /api/layout/census: the census's next SCAN step from `cursor`. */
export function censusStepPath(cursor: string): string {
  return `/api/layout/census?${new URLSearchParams({ cursor })}`;
}
