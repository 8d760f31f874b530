import 'server-only';
import type { RedisQueue } from '@/lib/queue/redis-queue';

// Placeholder until the audit log lands.
export async function recordMutation(_queue: RedisQueue, entry: { who: string; role: string; connection: string; action: string; target: string; result: 'ok' | 'refused' | 'failed'; detail: string }): Promise<void> {
  console.log(JSON.stringify({ type: 'audit', ...entry }));
}
