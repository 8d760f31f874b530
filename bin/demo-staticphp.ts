/**
 * The StaticPHP demo's jobs: what `npm run demo` seeds its queues with, and
 * the random job its producer keeps pushing.
 */
import type { PushOptions, RedisQueue } from '../lib/layouts/staticphp/redis-queue';

type DemoJob = { queue: string; name: string; payload: unknown; options?: PushOptions };

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** One job for one of the queues the demo's workers run, some of them bound to fail. */
export function randomJob(): DemoJob {
  return pick<() => DemoJob>([
    () => ({ queue: 'emails', name: 'demo.sleep', payload: { ms: 200 + Math.floor(Math.random() * 1500) }, options: { priority: pick([0, 0, 5, 10]) } }),
    () => ({ queue: 'webhooks', name: 'demo.flaky', payload: { p: 0.4 }, options: { maxAttempts: 3 } }),
    () => {
      const file = `batch-${Math.floor(Math.random() * 1000)}.csv`;
      const failing = Math.random() < 0.4;
      const payload = failing ? { file, error: `Import of ${file} failed: row ${2 + Math.floor(Math.random() * 500)} has 7 columns, expected 6` } : { file };
      return { queue: 'imports', name: failing ? 'demo.fail' : 'demo.noop', payload, options: { maxAttempts: 2 } };
    },
    () => ({ queue: 'reports', name: 'demo.noop', payload: { report: 'daily' }, options: { delaySeconds: 30 + Math.floor(Math.random() * 600) } }),
  ])();
}

/** Seeds the queues once (when the prefix has no id counter yet): random jobs, a unique pair, and markup in a payload. Returns whether it did. */
export async function seedDemoQueues(queue: RedisQueue): Promise<boolean> {
  if ((await queue.redis.exists(queue.keys.seq)) === 1) return false;
  await queue.pushMany([
    ...Array.from({ length: 60 }, randomJob),
    { queue: 'imports', name: 'demo.noop', payload: { nightly: true }, options: { uniqueKey: 'nightly-import', delaySeconds: 3600 } },
    { queue: 'imports', name: 'demo.noop', payload: { nightly: true }, options: { uniqueKey: 'nightly-import', delaySeconds: 3600 } },
    { queue: 'webhooks', name: 'demo.noop', payload: { html: '<img src=x onerror=alert(1)>' } },
  ]);
  return true;
}
