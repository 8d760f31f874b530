import { apiResponse } from '@/lib/server/api';
import { readKeyTablePage } from '@/lib/server/key-layout';

// Every request reads Redis: a cached answer would show stale types and sizes.
export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return apiResponse(await readKeyTablePage());
}
