import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deleteKeysUnder } from '../redis/scan-keys';
import { testQueueFactory, waitFor } from '../layouts/staticphp/test-redis';
import { NO_ALERTS } from './alerts';
import { DEFAULT_MARKS } from './marks';
import { readHistory } from './history';
import { dashboardKeys, throughputKeys } from './keys';
import { DEFAULT_SAMPLE_MS, sampleMsFromEnv, startSampling } from './sampling';

const openQueue = testQueueFactory();

describe('startSampling', () => {
  it('records history every interval until stopped, and logs a connection it cannot reach without throwing', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'ok', {});
    const logged: string[] = [];
    const dashboardPrefix = `${queue.keys.prefix}ql:`;
    const sampling = startSampling({
      connections: [
        { name: 'main', label: 'main', settings: queue.settings, layout: { layout: 'staticphp' }, readOnly: false, alerts: NO_ALERTS, marks: DEFAULT_MARKS },
        // Nothing listens on port 1.
        {
          name: 'gone',
          label: 'gone',
          settings: { ...queue.settings, port: 1, timeout: 0.2 },
          layout: { layout: 'staticphp' },
          readOnly: false,
          alerts: NO_ALERTS,
          marks: DEFAULT_MARKS,
        },
      ],
      dashboardPrefix,
      intervalMs: 250,
      log: (level, message, fields) => logged.push(`${level} ${message} ${String(fields?.connection)}`),
    });
    const keys = throughputKeys(dashboardKeys(dashboardPrefix), queue.keys.prefix);
    try {
      const points = await waitFor(async () => {
        const read = await readHistory(queue.redis, keys, 'mail', '15m');
        return read.length >= 2 ? read : undefined;
      });
      expect(points[0]).toMatchObject({ pending: 1, processed: 0 });
    } finally {
      await sampling.stop();
    }
    const written = await queue.redis.xlen(keys.series('5s', 'mail'));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await queue.redis.xlen(keys.series('5s', 'mail'))).toBe(written);
    // Once per outage, not once per tick.
    expect(logged.filter((line) => line.endsWith('gone'))).toEqual(['error sampling failed; retrying with backoff gone']);
  });

  it('samples a yii2 channel through its layout, and leaves out a layout without throughput', async () => {
    const queue = await openQueue();
    const channel = `test-${randomUUID()}`;
    // A stock push, as the driver writes it: INCR message_id, HSET the message, LPUSH the id.
    await queue.redis.multi().incr(`${channel}.message_id`).hset(`${channel}.messages`, '1', '300;s:2:"hi";').lpush(`${channel}.waiting`, '1').exec();
    const dashboardPrefix = `${queue.keys.prefix}ql:`;
    const logged: string[] = [];
    const sampling = startSampling({
      connections: [
        {
          name: 'yii',
          label: 'yii',
          settings: queue.settings,
          layout: { layout: 'yii2', channels: [channel] },
          readOnly: false,
          alerts: NO_ALERTS,
          marks: DEFAULT_MARKS,
        },
        {
          name: 'marko',
          label: 'marko',
          settings: queue.settings,
          layout: { layout: 'marko', prefix: `${queue.keys.prefix}marko:`, retryAfter: null, queues: [] },
          readOnly: false,
          alerts: NO_ALERTS,
          marks: DEFAULT_MARKS,
        },
      ],
      dashboardPrefix,
      intervalMs: 250,
      log: (level, message) => logged.push(`${level} ${message}`),
    });
    const keys = throughputKeys(dashboardKeys(dashboardPrefix), `yii2:${channel}`);
    try {
      const [point] = await waitFor(async () => {
        const read = await readHistory(queue.redis, keys, channel, '15m');
        return read.length >= 1 ? read : undefined;
      });
      expect(point).toMatchObject({ pending: 1, pushed: 0, processed: 0 });
    } finally {
      await sampling.stop();
      await deleteKeysUnder(queue.redis, `${channel}.`);
    }
    // The marko connection, whose layout has no throughput, is skipped without an error.
    expect(logged).toEqual([]);
  });

  it('reads the interval from QUEUELENS_SAMPLE_MS, falling back to 5 s on nonsense', () => {
    expect(sampleMsFromEnv({ QUEUELENS_SAMPLE_MS: '500' })).toBe(500);
    for (const value of [undefined, '', 'soon', '10', '1.5e3x']) expect(sampleMsFromEnv({ QUEUELENS_SAMPLE_MS: value })).toBe(DEFAULT_SAMPLE_MS);
  });
});
