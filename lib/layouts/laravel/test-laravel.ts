import { testQueueFactory } from '../staticphp/test-redis';
import { isAbsent, type Absent } from '../adapter';
import { laravelLayout } from './layout';
import { LaravelHarness, requireRealLaravel } from './php-harness';

/**
 * A Laravel layout and the real driver under a fresh prefix, deleted after
 * each test; with `horizon`, the layout reads Horizon's keys under a prefix
 * of their own beside it (`horizonPrefix`), as Horizon::use() puts them.
 */
export function testLaravelFactory({ horizon = false }: { horizon?: boolean } = {}) {
  const openQueue = testQueueFactory();
  return async (queueName = 'default') => {
    requireRealLaravel();
    const connection = await openQueue();
    const prefix = `${connection.keys.prefix}laravel_database_`;
    const horizonPrefix = horizon ? `${connection.keys.prefix}laravel_horizon:` : null;
    return {
      layout: laravelLayout(connection, { prefix, queues: null, horizonPrefix }),
      redis: connection.redis,
      prefix,
      horizonPrefix,
      laravel: new LaravelHarness(prefix, queueName),
    };
  };
}

/** A capability the test expects the layout to have; its absence fails the test with the layout's sentence. */
export function present<T extends object>(capability: T): Exclude<T, Absent> {
  if (isAbsent(capability)) throw new Error(`absent: ${capability.absent}`);
  return capability as Exclude<T, Absent>;
}
