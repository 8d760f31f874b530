/**
 * The demo's marko/queue-redis queue: jobs written the way marko's README
 * describes its keys (shared/spec/marko-queue-redis-layout.md §1-2), by the
 * same stand-in driver the marko tests use (lib/layouts/marko/test-worker.ts)
 * so that the demo and the tests agree on every choice the documentation
 * leaves open. No PHP worker runs here: the jobs stay where they are put.
 */
import type { QueueClient } from '../lib/redis/client';
import { MarkoTestWorker } from '../lib/layouts/marko/test-worker';

/** The demo's marko prefix, beside the StaticPHP demo's own. */
export const DEMO_MARKO_PREFIX = 'queuelens-demo-marko:';

const QUEUE = 'mail';

/** Seeds the queue once (when none of its keys is there yet); returns whether it did. */
export async function seedDemoMarkoQueue(redis: QueueClient, prefix = DEMO_MARKO_PREFIX): Promise<boolean> {
  const driver = new MarkoTestWorker(redis, prefix);
  const { keys } = driver;
  if ((await redis.exists(keys.ready(QUEUE), keys.delayed(QUEUE), keys.reserved(QUEUE), keys.failedIndex)) > 0) return false;
  const job = (className: string, data: Record<string, string>) => ({ className, data });
  // Popped first and never settled: a reservation whose worker went away.
  await driver.push(QUEUE, job('App\\Jobs\\SendNewsletter', { list: 'weekly' }));
  const failing = await driver.push(QUEUE, job('App\\Jobs\\SendInvoice', { invoice: 'INV-2001' }));
  for (const to of ['ada@example.com', 'grace@example.com', 'linus@example.com']) await driver.push(QUEUE, job('App\\Jobs\\SendWelcome', { to }));
  await driver.later(900, QUEUE, job('App\\Jobs\\SendReminder', { user: '881' }));
  await driver.later(3600, QUEUE, job('App\\Jobs\\SendReminder', { user: '882' }));
  await driver.pop(QUEUE);
  // Its last attempt failed: the failed record and its index entry, the job gone from the queue.
  await driver.pop(QUEUE);
  await driver.fail(QUEUE, failing, 'RuntimeException: SMTP server said 554 5.7.1 relay denied\n#0 /app/src/Jobs/SendInvoice.php(41): Mailer->send()');
  return true;
}
