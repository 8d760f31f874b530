import { describe, expect, it } from 'vitest';
import { sleep, testQueueFactory } from '../staticphp/test-redis';
import { applyYii2Repairs, reclaimReservation, removeYii2Job, restoreYii2Jobs, runDelayedNow, type Yii2Channel } from './repairs';
import { openFixtureChannel, stockMoverSteps, stockReserve } from './test-drivers';

// The stock mover is not atomic: it reads the due ids, pushes each, and only
// then removes everything due from the set. A repair that makes a job due
// (or expired) between its first and its last command is removed without
// being pushed, and the job never runs. Each repair that puts a job in line
// is run here between every two of the mover's commands, on a channel of its
// own. While the mover's moving_lock is held it must not write; when the
// lock has run out with the mover still under way (its second is up, as with
// thousands of ids pushed one by one) it must still lose nothing.

const openQueue = testQueueFactory();

/** A stock channel with two due delayed jobs (11, 15) and one expired reservation (5) for the mover to move. */
async function channelWithWorkForTheMover() {
  const opened = await openFixtureChannel(await openQueue(), 'stock');
  const {
    connection: { redis },
    keys,
  } = opened.channel;
  const [seconds] = await redis.time();
  await redis.zadd(keys.delayed, 'XX', Number(seconds) - 10, '11', Number(seconds) - 5, '15');
  // Job 7 leaves the list and so becomes an orphan: its message is in no index.
  await redis.lrem(keys.waiting, 0, '7');
  return opened;
}

interface RepairUnderTest {
  name: string;
  /** the job it puts in line: far from due, live, or an orphan, so no mover can have read it */
  id: string;
  run: (channel: Yii2Channel, id: string) => Promise<unknown>;
  /** it takes the moving_lock, as the driver's own remove does: a mover that comes after it finds the lock taken and moves nothing */
  takesLock?: true;
}

const REPAIRS: RepairUnderTest[] = [
  { name: 'Run now', id: '26', run: runDelayedNow },
  { name: 'End reservation', id: '1', run: reclaimReservation },
  { name: "the doctor's requeue of an orphan", id: '7', run: (channel, id) => applyYii2Repairs(channel, [{ kind: 'requeue-orphan', id }]) },
  { name: 'Remove, then restore from the trash', id: '7', run: removeAndRestore, takesLock: true },
];

/** Removes job `id` into a trash under the channel's own name (deleted with it), then restores it: both wait for the moving_lock. */
async function removeAndRestore(channel: Yii2Channel, id: string) {
  const trash = { dashboardPrefix: `${channel.keys.channel}.ql:`, keepSeconds: 60, maxEntries: 10, maxBytes: 1 << 30, who: 'test', via: 'cli' };
  await removeYii2Job(channel, id, trash);
  return restoreYii2Jobs(channel, trash, [id]);
}

/** The mover's commands on this fixture: SET, then for delayed and reserved a read, an RPUSH per id, a removal. */
const MOVER_COMMANDS = 1 + (1 + 2 + 1) + (1 + 1 + 1);

/** How many times `id` is in each place a stock job can wait or run. */
async function placesOf({ connection: { redis }, keys }: Yii2Channel, id: string) {
  return {
    waiting: (await redis.lpos(keys.waiting, id, 'COUNT', 0)).length,
    delayed: (await redis.zscore(keys.delayed, id)) === null ? 0 : 1,
    reserved: (await redis.zscore(keys.reserved, id)) === null ? 0 : 1,
  };
}

/** Reserves until the line is empty, as stock workers would: the ids in the order they ran. */
async function runEverything(channel: Yii2Channel): Promise<string[]> {
  const ran: string[] = [];
  while ((await channel.connection.redis.llen(channel.keys.waiting)) > 0) {
    const id = await stockReserve(channel);
    if (id !== null) ran.push(id);
  }
  return ran;
}

/** Runs the mover with `repair` between command `before` and the one after it; what the test needs to judge it. */
async function interleave(repair: RepairUnderTest, before: number) {
  const { channel, cleanup } = await channelWithWorkForTheMover();
  try {
    const sent: string[] = [];
    let untouchedWhileLocked = true;
    let repairedBetween = false;
    const mover = stockMoverSteps(channel);
    for (let step = 0; ; step++) {
      if (step === before) {
        const placesBefore = await placesOf(channel, repair.id);
        const repaired = repair.run(channel, repair.id);
        if (step > 0) {
          // The lock is held: nothing may change until it runs out (a second after the SET).
          await sleep(300);
          untouchedWhileLocked = JSON.stringify(await placesOf(channel, repair.id)) === JSON.stringify(placesBefore);
        }
        await repaired;
        repairedBetween = true;
      }
      const next = await mover.next();
      if (next.done) break;
      sent.push(next.value);
    }
    const placesAfter = await placesOf(channel, repair.id);
    const moved = await Promise.all(['11', '15', '5'].map((id) => placesOf(channel, id)));
    await sleep(1100);
    const ran = await runEverything(channel);
    return { sent, repairedBetween, untouchedWhileLocked, placesAfter, moved, ran };
  } finally {
    await cleanup();
  }
}

describe("yii2 repairs beside the stock mover's moving_lock", () => {
  for (const repair of REPAIRS) {
    it(`${repair.name} loses no job, between any two of the stock mover's commands`, async () => {
      const points = Array.from({ length: MOVER_COMMANDS + 1 }, (_, before) => before);
      const outcomes = await Promise.all(points.map((before) => interleave(repair, before)));
      for (const [before, outcome] of outcomes.entries()) {
        const where = `${repair.name} before command ${before + 1} (after ${outcome.sent[before - 1] ?? 'nothing'})`;
        expect(outcome.repairedBetween, where).toBe(true);
        expect(outcome.untouchedWhileLocked, `${where}: wrote while the moving_lock was held`).toBe(true);
        expect(outcome.placesAfter, `${where}: not in line exactly once`).toEqual({ waiting: 1, delayed: 0, reserved: 0 });
        const moverWon = outcome.sent.length === MOVER_COMMANDS;
        expect(moverWon, `${where}: the mover won the moving_lock`).toBe(!(repair.takesLock && before === 0));
        const unmoved = [
          { waiting: 0, delayed: 1, reserved: 0 },
          { waiting: 0, delayed: 1, reserved: 0 },
          { waiting: 0, delayed: 0, reserved: 1 },
        ];
        expect(outcome.moved, `${where}: the mover's own jobs`).toEqual(moverWon ? Array(3).fill({ waiting: 1, delayed: 0, reserved: 0 }) : unmoved);
        expect(
          outcome.ran.filter((id) => id === repair.id),
          `${where}: runs`,
        ).toHaveLength(1);
        for (const id of ['11', '15', '5'])
          expect(
            outcome.ran.filter((ran) => ran === id),
            `${where}: job ${id} runs`,
          ).toHaveLength(1);
      }
    }, 20_000);
  }
});
