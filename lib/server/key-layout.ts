import 'server-only';
import { z } from 'zod';
import { censusStep, KEY_NAME_LIMIT, readKeyContents, readKeyLayout, type CensusStep, type KeyContents, type KeyLayout } from '@/lib/inspect/key-layout';
import type { KeyTable, LayoutCensusStep } from '@/lib/layouts/pages';
import { isScanCursor } from '@/lib/queue/scan-keys';
import { absentCapability, readCapability, readLargeValuesOnce, type ReadResult } from './queue';

/** A key by its name, or by `raw`, its bytes in base64url, for a name that is not UTF-8 (see keyAddressOf). */
export const keyContentsParams = z
  .object({
    name: z.string().min(1).max(KEY_NAME_LIMIT).optional(),
    raw: z
      .string()
      .regex(/^[\w-]+$/)
      .max(Math.ceil((KEY_NAME_LIMIT * 4) / 3))
      .optional(),
    cursor: z.string().max(50).regex(/^[\d-]*$/).default(''),
  })
  .refine(({ name, raw }) => (name === undefined) !== (raw === undefined));

export type KeyContentsParams = z.output<typeof keyContentsParams>;

export const censusParams = z.object({
  cursor: z.string().refine(isScanCursor).default('0'),
});

/** The key table, for GET /api/layout and the page's prefetch. */
export function readLayoutPage(): Promise<ReadResult<KeyLayout>> {
  return readCapability('keyLayout', (queue) => readKeyLayout(queue), ['layout']);
}

/**
 * One page of a key's contents, for GET /api/layout/key and the page's
 * prefetch; keys outside the prefix are refused (400). A large read: Redis
 * sends each hash field, list item, set member and stream entry of the page
 * whole (a job's 20 MB payload among them) before it is cut for display.
 */
export async function readKeyContentsPage({ name, raw, cursor }: KeyContentsParams): Promise<ReadResult<KeyContents>> {
  const key = raw !== undefined ? Buffer.from(raw, 'base64url') : name!;
  // StaticPHP's keys page where the layout has it; else the keys of the layout-neutral table (yii2's channels, marko's prefix).
  if ((await absentCapability('keyLayout')) === null) return readLargeValuesOnce('keyLayout', (queue) => readKeyContents(queue, key, cursor));
  return readLargeValuesOnce('keyTable', (reader) => reader.contents(key, cursor));
}

/** One SCAN step of the census, for GET /api/layout/census. */
export function readCensusStep(cursor: string): Promise<ReadResult<CensusStep>> {
  return readCapability('keyLayout', (queue) => censusStep(queue, cursor));
}

/** The layout-neutral key table (yii2, marko), for GET /api/layout/table and the page's prefetch. */
export function readKeyTablePage(): Promise<ReadResult<KeyTable>> {
  return readCapability('keyTable', (reader) => reader.read(), ['key-table']);
}

/** A census cursor of the layout-neutral table: the reader refuses one it did not give. */
export const tableCensusParams = z.object({ cursor: z.string().max(30).default('0') });

/** One step of the layout-neutral census, for GET /api/layout/table/census. */
export function readKeyTableCensusStep(cursor: string): Promise<ReadResult<LayoutCensusStep>> {
  return readCapability('keyTable', (reader) => reader.censusStep(cursor));
}
