import 'server-only';
import { z } from 'zod';
import { censusStep, KEY_NAME_LIMIT, readKeyContents, readKeyLayout, type CensusStep, type KeyContents, type KeyLayout } from '@/lib/inspect/key-layout';
import { readQueue, type ReadResult } from './queue';

export const keyContentsParams = z.object({
  name: z.string().min(1).max(KEY_NAME_LIMIT),
  cursor: z.string().max(50).regex(/^[\d-]*$/).default(''),
});

export const censusParams = z.object({
  cursor: z.string().regex(/^\d{1,20}$/).default('0'),
});

/** The key table, for GET /api/layout and the page's prefetch. */
export function readLayoutPage(): Promise<ReadResult<KeyLayout>> {
  return readQueue((queue) => readKeyLayout(queue), ['layout']);
}

/** One page of a key's contents, for GET /api/layout/key and the page's prefetch; keys outside the prefix are refused. */
export function readKeyContentsPage(key: string, cursor: string): Promise<ReadResult<KeyContents>> {
  return readQueue((queue) => readKeyContents(queue, key, cursor));
}

/** One SCAN step of the census, for GET /api/layout/census. */
export function readCensusStep(cursor: string): Promise<ReadResult<CensusStep>> {
  return readQueue((queue) => censusStep(queue, cursor));
}
