import { describe, expect, it } from 'vitest';
import { testQueueFactory } from './staticphp/test-redis';
import { isAbsent, type CapabilityName } from './adapter';
import { absentCapabilityOf, lineRepairOfferOf } from './capabilities';
import { lineRepairOffer } from './line-repairs';
import { layoutOver } from './open-layout';
import { DEFAULT_YII2_NG_SETTINGS, type LayoutSettings } from './settings';

const openQueue = testQueueFactory();

// A Record, so that tsc fails here when QueueLayout gains a capability this test does not check.
const EVERY_CAPABILITY: Record<CapabilityName, true> = {
  attention: true,
  throughput: true,
  failedJobs: true,
  trash: true,
  runner: true,
  jobCopies: true,
  doctor: true,
  claimRepairs: true,
  jobHashFields: true,
  jobLine: true,
  expiringReservations: true,
  dueTimeline: true,
  jobSnapshot: true,
  lineRepairs: true,
  failedPages: true,
  keyTable: true,
  finder: true,
};

const EVERY_LAYOUT: LayoutSettings[] = [
  { layout: 'staticphp' },
  { layout: 'yii2', channels: ['queue'] },
  { layout: 'yii2-ng', channels: ['queue'], ng: DEFAULT_YII2_NG_SETTINGS },
  { layout: 'marko', prefix: 'marko:', retryAfter: null, queues: null },
  { layout: 'laravel', prefix: 'laravel_database_', queues: null, horizonPrefix: null },
  { layout: 'laravel', prefix: 'laravel_database_', queues: null, horizonPrefix: 'laravel_horizon:' },
];

describe('what a layout lacks, known without Redis', () => {
  it.each(EVERY_LAYOUT)(
    'is what the $layout adapter built over a live connection lacks, capability by capability and line repair by line repair',
    async (settings) => {
      const layout = layoutOver(await openQueue(), settings);
      const built = Object.fromEntries(
        Object.keys(EVERY_CAPABILITY).map((name) => {
          const capability: object = layout[name as CapabilityName];
          return [name, isAbsent(capability) ? capability.absent : null];
        }),
      );
      const known = Object.fromEntries(Object.keys(EVERY_CAPABILITY).map((name) => [name, absentCapabilityOf(settings, name as CapabilityName)]));
      expect(known).toEqual(built);
      expect(lineRepairOfferOf(settings)).toEqual(lineRepairOffer(layout.lineRepairs));
    },
  );

  it('tells the layouts apart: every layout has the one reservations page, only a StaticPHP one (which records holders) its claim repairs', () => {
    for (const settings of EVERY_LAYOUT) expect(absentCapabilityOf(settings, 'expiringReservations')).toBeNull();
    for (const settings of EVERY_LAYOUT.slice(1)) expect(absentCapabilityOf(settings, 'claimRepairs')).not.toBeNull();
    expect(absentCapabilityOf(EVERY_LAYOUT[0]!, 'claimRepairs')).toBeNull();
  });
});
