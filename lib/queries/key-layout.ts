import type { KeyAddress, KeyContents } from '../layouts/key-layout';
import type { KeyTable } from '../layouts/pages';
import { keyContentsSearch } from '../routes';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { KeyAddress, KeyContents } from '../layouts/key-layout';
export type { ConsumerGroup, KeyRow, KeyTable, LayoutCensusStep, NamedKey } from '../layouts/pages';

/** Strangers the census page lists by name; beyond that it only counts them. */
export const CENSUS_LIST_CAP = 200;

/** GET /api/layout: the layout's key table. */
export function keyTableQuery() {
  return liveQueryOptions<KeyTable>(queryKeys.layout.table, '/api/layout');
}

/** GET /api/layout/key: one bounded page of a key of the layout. */
export function keyContentsPath(address: KeyAddress, cursor: string): string {
  return `/api/layout/key?${keyContentsSearch(address, cursor)}`;
}

export function keyContentsQuery(address: KeyAddress, cursor: string) {
  return liveQueryOptions<KeyContents>(queryKeys.layout.contents(address.raw ?? address.key, cursor), keyContentsPath(address, cursor));
}

/** GET /api/layout/census: the census's next step from `cursor`. */
export function censusStepPath(cursor: string): string {
  return `/api/layout/census?${new URLSearchParams({ cursor })}`;
}
