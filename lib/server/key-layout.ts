import 'server-only';
import { z } from 'zod';
import { KEY_NAME_LIMIT, type KeyContents } from '@/lib/layouts/key-layout';
import type { KeyTable, LayoutCensusStep } from '@/lib/layouts/pages';
import { dashboardPrefixFromEnv } from '@/lib/dashboard/keys';
import { readCapability, readLargeValuesOnce, type ReadResult } from './queue';

/** A key by its name, or by `raw`, its bytes in base64url, for a name that is not UTF-8 (see keyAddressOf). */
export const keyContentsParams = z
  .object({
    name: z.string().min(1).max(KEY_NAME_LIMIT).optional(),
    raw: z
      .string()
      .regex(/^[\w-]+$/)
      .max(Math.ceil((KEY_NAME_LIMIT * 4) / 3))
      .optional(),
    cursor: z
      .string()
      .max(50)
      .regex(/^[\d-]*$/)
      .default(''),
  })
  .refine(({ name, raw }) => (name === undefined) !== (raw === undefined));

export type KeyContentsParams = z.output<typeof keyContentsParams>;

/** The layout's key table, for GET /api/layout and the page's prefetch. */
export function readKeyTablePage(): Promise<ReadResult<KeyTable>> {
  return readCapability('keyTable', (reader) => reader.read(), ['key-table']);
}

/**
 * One page of a key's contents, for GET /api/layout/key and the page's
 * prefetch; a key that is not the layout's (outside StaticPHP's prefix,
 * yii2's channels, marko's prefix) is refused (400). A large read: Redis
 * sends each hash field, list item, set member and stream entry of the page
 * whole (a job's 20 MB payload among them) before it is cut for display.
 */
export function readKeyContentsPage({ name, raw, cursor }: KeyContentsParams): Promise<ReadResult<KeyContents>> {
  const key = raw !== undefined ? Buffer.from(raw, 'base64url') : name!;
  return readLargeValuesOnce('keyTable', (reader) => reader.contents(key, cursor));
}

/** A census cursor: '0' to start, then what the previous step gave; the reader refuses one it did not give. */
export const censusParams = z.object({ cursor: z.string().max(30).default('0') });

/** One step of the layout's census, for GET /api/layout/census. */
export function readCensusStep(cursor: string): Promise<ReadResult<LayoutCensusStep>> {
  return readCapability('keyTable', (reader) => reader.censusStep(cursor, dashboardPrefixFromEnv()));
}
