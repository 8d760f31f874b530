import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Throughput } from '../shapes/throughput';
import { readSettings } from '../redis/config';
import { testQueueFactory } from '../layouts/staticphp/test-redis';
import { NO_ALERTS } from './alerts';
import { DEFAULT_MARKS } from './marks';
import type { Connection } from './connections';
import { recordThroughput } from './history';
import { dashboardKeys, throughputKeys } from './keys';
import { overviewHistoryOf, warmOverviewHistories } from './overview-history';

const openQueue = testQueueFactory();

const figures = { pushed: 4, failed: 0, pending: 10, delayed: 0, reserved: 1, waitSeconds: 2 };

describe('warmOverviewHistories', () => {
  it('reads every registered queue’s 15 minutes into the overview’s history before anybody asks', async () => {
    const queue = await openQueue();
    const dashboardPrefix = `${queue.keys.prefix}ql:`;
    const keys = throughputKeys(dashboardKeys(dashboardPrefix), queue.keys.prefix);
    await queue.push('mail', 'ok', {});
    await queue.push('sms', 'ok', {});
    for (let point = 1; point <= 3; point++) {
      const stretch: Throughput = {
        at: point,
        seconds: 5,
        countersAvailable: true,
        queues: [
          { queue: 'mail', ...figures, processed: point },
          { queue: 'sms', ...figures, processed: point * 10 },
        ],
      };
      await recordThroughput(queue.redis, keys, '5s', stretch);
    }
    const connection: Connection = {
      name: `warm-${randomUUID()}`,
      label: 'test',
      layout: { layout: 'staticphp' },
      readOnly: false,
      alerts: NO_ALERTS,
      marks: DEFAULT_MARKS,
      settings: queue.settings,
    };
    const logged: string[] = [];

    await warmOverviewHistories({ connections: [connection], dashboardPrefix, log: (_level, message) => logged.push(message) });
    expect(logged).toEqual([]);

    // The series are gone from Redis now: only what the warm-up read can answer.
    await queue.redis.del(keys.series('5s', 'mail'), keys.series('5s', 'sms'), keys.series('5s', null));
    const [mail, sms] = await overviewHistoryOf(connection.name).read(queue.redis, keys, ['mail', 'sms']);
    expect(mail!.map((point) => point.processed)).toEqual([1, 2, 3]);
    expect(sms!.map((point) => point.processed)).toEqual([10, 20, 30]);
  });

  it('logs a connection it cannot reach, and does not throw', async () => {
    const settings = readSettings({ hostname: '127.0.0.1', port: 1, prefix: 'none:', timeout: 0.5 });
    const connection: Connection = {
      name: `down-${randomUUID()}`,
      label: 'down',
      layout: { layout: 'staticphp' },
      readOnly: false,
      alerts: NO_ALERTS,
      marks: DEFAULT_MARKS,
      settings,
    };
    const logged: string[] = [];
    await warmOverviewHistories({ connections: [connection], dashboardPrefix: 'ql:', log: (_level, message) => logged.push(message) });
    expect(logged).toEqual(['could not read the overview’s history at start-up; the first overview reads it']);
  });
});
