import type { KeyAddress, KeyContents, KeyLayout } from '../inspect/key-layout';
import type { KeyTable } from '../layouts/pages';
import { keyContentsSearch } from '../routes';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { CensusKey, CensusStep, KeyAddress, KeyContents, KeyLayout, LayoutKeyView } from '../inspect/key-layout';
export type { KeyRow, KeyTable, LayoutCensusStep, NamedKey } from '../layouts/pages';

/** Strangers the census page lists by name; beyond that it only counts them. */
export const CENSUS_LIST_CAP = 200;

/** GET /api/layout: the spec's key table for the configured prefix. */
export function keyLayoutQuery() {
  return liveQueryOptions<KeyLayout>(queryKeys.layout.table, '/api/layout');
}

/** GET /api/layout/key: one bounded page of a key under the prefix. */
export function keyContentsPath(address: KeyAddress, cursor: string): string {
  return `/api/layout/key?${keyContentsSearch(address, cursor)}`;
}

export function keyContentsQuery(address: KeyAddress, cursor: string) {
  return liveQueryOptions<KeyContents>(queryKeys.layout.contents(address.raw ?? address.key, cursor), keyContentsPath(address, cursor));
}

/** GET /api/layout/census: the census's next SCAN step from `cursor`. */
export function censusStepPath(cursor: string): string {
  return `/api/layout/census?${new URLSearchParams({ cursor })}`;
}

/** GET /api/layout/table: the key table of a layout without StaticPHP's (yii2, marko). */
export function keyTableQuery() {
  return liveQueryOptions<KeyTable>(queryKeys.layout.keyTable, '/api/layout/table');
}

/** GET /api/layout/table/census: that layout's census step from `cursor`. */
export function tableCensusStepPath(cursor: string): string {
  return `/api/layout/table/census?${new URLSearchParams({ cursor })}`;
}
