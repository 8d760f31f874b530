import { describe, expect, it } from 'vitest';
import { testQueueFactory } from '../../queue/test-redis';
import { runYii2Doctor } from './doctor';
import { openFixtureChannel } from './test-drivers';
import { YII2_FIXTURES } from './test-fixtures';

const openQueue = testQueueFactory();

describe('the yii2 doctor', () => {
  for (const name of YII2_FIXTURES) {
    it(`finds nothing wrong in ${name} as the real driver left it`, async () => {
      const { channel, cleanup } = await openFixtureChannel(await openQueue(), name);
      try {
        expect(await runYii2Doctor(channel, { confirmAfterMs: 0 })).toEqual([]);
      } finally {
        await cleanup();
      }
    });
  }
});
