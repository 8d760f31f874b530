import { apiResponse } from '@/lib/server/api';
import { readHealth } from '@/lib/server/health';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return apiResponse(await readHealth());
}
