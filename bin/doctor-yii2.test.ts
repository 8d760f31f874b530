import { describe, expect, it } from 'vitest';
import { ngReserve, openFixtureChannel } from '../lib/layouts/yii2/test-drivers';
import { testQueueFactory } from '../lib/layouts/staticphp/test-redis';
import { queuelens } from './test-cli';

const openQueue = testQueueFactory();

// Each run starts the CLI afresh (tsx compiles it) and, when it suspects a
// job, reads it again three seconds later: several runs take longer than
// the default 30 s on a loaded machine.
const CLI_RUNS_TIMEOUT_MS = 90_000;

describe('queuelens doctor on a yii2 channel', () => {
  it(
    'checks an ng channel, prints JSON, repairs what it can and exits 1 for what it cannot',
    async () => {
      const { channel, cleanup } = await openFixtureChannel(await openQueue(), 'ng-strict');
      const args = ['--layout', 'yii2-ng', '--channel', channel.keys.channel];
      const { redis } = channel.connection;
      try {
        expect(await queuelens('doctor', '--json', ...args)).toEqual({ code: 0, stdout: '{"findings":[]}\n', stderr: '' });

        await redis.zpopmin(channel.keys.prioritized);
        await redis.set(channel.keys.messageId, '20');
        await redis.zadd(channel.keys.prioritized, 'XX', 5e12 + 30, '7');
        const report = await queuelens('doctor', '--json', ...args);
        expect(report.code).toBe(1);
        const { findings } = JSON.parse(report.stdout) as { findings: { kind: string; subject: string; jobId?: number }[] };
        expect(findings.map(({ kind, jobId }) => `${kind} ${jobId ?? ''}`).sort()).toEqual(['message-id-behind ', 'orphan-message 9', 'score-outside-band 7']);

        const repaired = await queuelens('doctor', '--repair', '--json', ...args);
        expect(repaired.code).toBe(1);
        const body = JSON.parse(repaired.stdout) as Record<'repaired' | 'unchanged' | 'notRepaired', { kind: string }[]>;
        expect(body.repaired.map(({ kind }) => kind).sort()).toEqual(['message-id-behind', 'orphan-message']);
        expect(body.unchanged).toEqual([]);
        expect(body.notRepaired.map(({ kind }) => kind)).toEqual(['score-outside-band']);
        expect(await redis.get(channel.keys.messageId)).toBe('26');

        await redis.zadd(channel.keys.prioritized, 'XX', 1024e12 + 11, '7');
        expect(await queuelens('doctor', '--repair', ...args)).toEqual({ code: 0, stdout: 'No problems found.\n', stderr: '' });
        // The orphan went back through the delayed set into line at the back of priority 0.
        expect(await ngReserve(channel)).toBe('14');
      } finally {
        await cleanup();
      }
    },
    CLI_RUNS_TIMEOUT_MS,
  );

  it(
    "needs ng's aging to tell an aging line from misplaced strict scores",
    async () => {
      const { channel, cleanup } = await openFixtureChannel(await openQueue(), 'ng-aging');
      const args = ['--json', '--layout', 'yii2-ng', '--channel', channel.keys.channel];
      try {
        // Read as strict priority (the default), every aging score lands in some other priority's band.
        const strict = JSON.parse((await queuelens('doctor', ...args)).stdout) as { findings: { kind: string }[] };
        expect(strict.findings.length).toBe(13);
        expect(new Set(strict.findings.map(({ kind }) => kind))).toEqual(new Set(['score-outside-band']));
        expect(await queuelens('doctor', ...args, '--aging', '1')).toEqual({ code: 0, stdout: '{"findings":[]}\n', stderr: '' });
        const misused = await queuelens('doctor', '--layout', 'yii2', '--channel', channel.keys.channel, '--aging', '1');
        expect(misused.code).toBe(2);
        expect(misused.stderr).toMatch(/^queuelens: --default-priority and --aging are redis-ng settings: they need --layout yii2-ng\n/);
        expect((await queuelens('doctor', ...args, '--default-priority', '9001')).code).toBe(2);
      } finally {
        await cleanup();
      }
    },
    CLI_RUNS_TIMEOUT_MS,
  );

  it(
    'names each finding of a stock channel in its text report',
    async () => {
      const { channel, cleanup } = await openFixtureChannel(await openQueue(), 'stock');
      try {
        await channel.connection.redis.rpop(channel.keys.waiting);
        const report = await queuelens('doctor', '--layout', 'yii2', '--channel', channel.keys.channel);
        expect(report.code).toBe(1);
        expect(report.stdout).toContain(`warning   orphan-message job 7 ${channel.keys.messages} 7\n`);
        expect(report.stdout).toContain('read twice a few seconds apart');
        const repaired = await queuelens('doctor', '--repair', '--layout', 'yii2', '--channel', channel.keys.channel);
        expect(repaired).toMatchObject({
          code: 0,
          stdout: expect.stringMatching(new RegExp(`^repaired  orphan-message job 7 ${channel.keys.messages} 7  Put job 7 in `)),
        });
      } finally {
        await cleanup();
      }
    },
    CLI_RUNS_TIMEOUT_MS,
  );
});
