/**
 * The demo's redis-ng channel: a few jobs written the way yii2-queue-redis-ng
 * 1.0.0 writes them with its default (strict priority) settings
 * (shared/spec/yii2-queue-redis-layout.md §1, §2.1-2.2), so the dashboard has a
 * second layout to show. No PHP worker runs here: the jobs stay where they are
 * put, a reservation whose time ran out included.
 */
import type { QueueClient } from '../lib/redis/client';
import { Yii2Keys } from '../lib/layouts/yii2/keys';
import { DEFAULT_YII2_NG_SETTINGS } from '../lib/layouts/settings';

/** The channel's name, as a yii2 application would configure it. */
export const DEMO_YII2_CHANNEL = 'demo-ng';

/** PHP's serialize() of a job object with public string properties; s:N counts bytes. */
function serializedJob(className: string, properties: Record<string, string>): string {
  const text = (value: string) => `s:${Buffer.byteLength(value)}:"${value}";`;
  const fields = Object.entries(properties).map(([name, value]) => text(name) + text(value));
  return `O:${Buffer.byteLength(className)}:"${className}":${fields.length}:{${fields.join('')}}`;
}

/** ng's strict score: the priority's band, then the order of joining (NG-C 14, 52). */
const strictScore = (priority: number, seq: number) => priority * 1e12 + seq;

/** Seeds the channel once (when it has no id counter yet); returns whether it did. */
export async function seedDemoYii2Channel(redis: QueueClient, channel = DEMO_YII2_CHANNEL): Promise<boolean> {
  const keys = new Yii2Keys(channel);
  if ((await redis.exists(keys.messageId)) === 1) return false;
  const now = Number((await redis.time())[0]);
  type DemoJob = { className: string; properties: Record<string, string> } & ({ priority: number } | { delaySeconds: number } | { reservedUntil: number });
  const jobs: DemoJob[] = [
    { className: 'app\\jobs\\SendInvoiceJob', properties: { invoice: 'INV-1041' }, priority: 10 },
    { className: 'app\\jobs\\SendInvoiceJob', properties: { invoice: 'INV-1042' }, priority: 10 },
    { className: 'app\\jobs\\ResizeImageJob', properties: { path: 'uploads/cat.png' }, priority: DEFAULT_YII2_NG_SETTINGS.defaultPriority },
    { className: 'app\\jobs\\ResizeImageJob', properties: { path: 'uploads/dog.png' }, priority: DEFAULT_YII2_NG_SETTINGS.defaultPriority },
    { className: 'app\\jobs\\RebuildSearchIndexJob', properties: { index: 'products' }, priority: 2000 },
    { className: 'app\\jobs\\SendReminderJob', properties: { user: '881' }, delaySeconds: 900 },
    { className: 'app\\jobs\\SendReminderJob', properties: { user: '882' }, delaySeconds: 3600 },
    { className: 'app\\jobs\\ImportFeedJob', properties: { feed: 'partners.xml' }, reservedUntil: now - 120 },
  ];
  const multi = redis.multi();
  let joined = 0;
  jobs.forEach((job, index) => {
    const id = String(index + 1);
    multi.hset(keys.messages, id, `300;${serializedJob(job.className, job.properties)}`);
    if ('priority' in job) {
      if (job.priority !== DEFAULT_YII2_NG_SETTINGS.defaultPriority) multi.hset(keys.priorities, id, String(job.priority));
      multi.zadd(keys.prioritized, strictScore(job.priority, ++joined), id);
    } else if ('delaySeconds' in job) {
      multi.zadd(keys.delayed, now + job.delaySeconds, id);
    } else {
      // Reserved by a worker that died: its time ran out two minutes ago, and the next push or reserve takes it back.
      joined++;
      multi.zadd(keys.reserved, job.reservedUntil, id);
      multi.hset(keys.attempts, id, '1');
    }
  });
  multi.set(keys.seq, String(joined)).set(keys.messageId, String(jobs.length)).zadd(keys.marker, 0, '0');
  await multi.exec();
  return true;
}
