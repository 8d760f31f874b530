import type { ListQueueKeys } from '../list-queues';

/**
 * Every key Laravel's RedisQueue writes for a queue, under the Redis
 * connection's prefix (`database.redis.options.prefix`, which phpredis and
 * Predis put before every key): `queues:{name}` and its `:delayed`,
 * `:reserved` and `:notify` keys (Illuminate\Queue\RedisQueue::getQueue).
 * No key lists the queues, and a job has no key of its own: each element is
 * the whole payload. Under Redis Cluster an application names its queues
 * `{name}` so that the four keys share a slot; that name is read as it is.
 */
export class LaravelKeys implements ListQueueKeys {
  constructor(readonly prefix: string) {}

  get queuesPrefix(): string {
    return `${this.prefix}queues:`;
  }
  /** list: the payloads ready to run; push appends, pop takes the head */
  ready(queue: string): string {
    return `${this.queuesPrefix}${queue}`;
  }
  /** sorted set: delayed and released payloads, scored by the unix second they may run */
  delayed(queue: string): string {
    return `${this.ready(queue)}:delayed`;
  }
  /** sorted set: reserved payloads (attempts already counted), scored by the unix second the reservation expires */
  reserved(queue: string): string {
    return `${this.ready(queue)}:reserved`;
  }
  /** list: one token per ready job, which a blocking pop waits on */
  notify(queue: string): string {
    return `${this.ready(queue)}:notify`;
  }
}
