import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import type { SpecKeys } from './spec-keys';

/**
 * One ready job laid out by hand as push-5.lua writes it, but with a stream
 * entry id (the ms it joined) `ageSeconds` old by the server's clock: a job
 * that has waited that long with nobody reserving it. Returns its id.
 */
export async function writeWaitingJob(queue: RedisQueue, keys: SpecKeys, name: string, ageSeconds: number): Promise<number> {
  const id = await keys.takeId();
  const [seconds] = await queue.redis.time();
  const joined = Number(seconds) - ageSeconds;
  const entry = `${joined * 1000}-0`;
  await queue.redis.sadd(queue.keys.queues, name);
  await queue.redis.zadd(queue.keys.levels(name), 0, '0');
  await queue.redis.xadd(queue.keys.stream(name, 0), entry, 'job', String(id));
  await queue.redis.hset(queue.keys.job(id), {
    queue: name,
    name: 'e2e.waiting',
    payload: '{}',
    attempts: 0,
    max_attempts: 3,
    priority: 0,
    unique_key: '',
    available_at: joined,
    reserved_until: 0,
    reserved_by: '',
    last_error: '',
    created_at: new Date(joined * 1000).toISOString().slice(0, 19).replace('T', ' '),
    entry,
  });
  return id;
}
