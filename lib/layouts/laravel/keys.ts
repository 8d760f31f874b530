import { ListQueueKeys } from '../list-queues';

/**
 * Every key Laravel's RedisQueue writes for a queue, under the Redis
 * connection's prefix (`database.redis.options.prefix`, which phpredis and
 * Predis put before every key): `queues:{name}` and its `:delayed`,
 * `:reserved` and `:notify` keys (Illuminate\Queue\RedisQueue::getQueue).
 * No key lists the queues, and a job has no key of its own: each element is
 * the whole payload. Under Redis Cluster an application names its queues
 * `{name}` so that the four keys share a slot; that name is read as it is.
 */
export class LaravelKeys extends ListQueueKeys {}
