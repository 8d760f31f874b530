/**
 * Removing a job from a long list (docs/layouts.md, "Removing a job from a
 * long list"). On a redis-server of its own (at real-time priority when run
 * as root, as bench/find.ts), one list of --length Laravel-sized payloads
 * (385 bytes) and one of as many marko-sized ids, then, each call timed by
 * SLOWLOG at threshold 0:
 * - the drivers' way: `LREM` count 1 of a payload half the list deep, from
 *   the head (QueueLens's Laravel removal before it looked near the ends),
 *   and `LREM` count 0 of an id (marko's and yii2's own delete);
 * - QueueLens's removal scripts (lua/laravel/remove-4.lua,
 *   lua/marko/remove-5.lua): their worst case, the element just within
 *   reach of the head (a walk from the tail that misses, one from the head,
 *   the LREM); one near the tail; and the refusal of one half the list deep;
 * - `LRANGE` of one element half the list deep: the seek to an index;
 * - two steps of a Laravel look-up near a place half the list deep
 *   (lua/laravel/find-job-3.lua), the second after removals nearer the
 *   tail, which makes it look for its last element read around its place.
 * Prints figures; asserts nothing.
 *
 * Run: npx tsx bench/list-removal.ts [--length 1000000] [--calls 20]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { READY_REMOVAL_REACH } from '../lib/layouts/line-repairs';
import { lookUpArguments } from '../lib/layouts/laravel/pages';
import { findJob, JOB_LOOK_UP_START, remove as laravelRemove, type JobLookUpCursor } from '../lib/layouts/laravel/scripts';
import { remove as markoRemove } from '../lib/layouts/marko/scripts';
import { trashArguments } from '../lib/layouts/trash';
import { QueueError } from '../lib/redis/errors';
import { slowCommandsDuring, type RedisProbe } from './measure';
import { atExit } from './processes';
import { startPrivateRedis } from './private-redis';
import { describeMachine, formatCount, markdownTable } from './report';

const PAYLOAD_PAD = 'x'.repeat(330);
const SEED_BATCH = 10_000;
const LARAVEL = { ready: 'bench:laravel:ready', delayed: 'bench:laravel:delayed', reserved: 'bench:laravel:reserved' };
const MARKO = { ready: 'bench:marko:ready', delayed: 'bench:marko:delayed', reserved: 'bench:marko:reserved', job: 'bench:marko:job' };
const NO_TRASH = trashArguments('bench:', undefined);

const payloadOf = (n: number) => `{"uuid":"${n}","displayName":"App\\\\Jobs\\\\Bench","data":"${PAYLOAD_PAD}","id":"${n}","attempts":0}`;

async function seed(redis: Redis, length: number): Promise<void> {
  for (let from = 0; from < length; from += SEED_BATCH) {
    const count = Math.min(SEED_BATCH, length - from);
    await redis
      .pipeline()
      .rpush(LARAVEL.ready, ...Array.from({ length: count }, (_, i) => payloadOf(from + i)))
      .rpush(MARKO.ready, ...Array.from({ length: count }, (_, i) => String(1_000_000_000 + from + i)))
      .exec();
  }
}

/** The element `at` of `list` (negative: from the tail), read again before each call, as a removal shifts the rest. */
async function elementAt(redis: Redis, list: string, at: number): Promise<string> {
  const [element] = await redis.lrange(list, at, at);
  if (element === undefined) throw new Error(`${list} has no element ${at}`);
  return element;
}

const refusedOrDone = (call: Promise<unknown>) => call.catch((error: unknown) => (error instanceof QueueError ? 'refused' : Promise.reject(error)));

interface Case {
  name: string;
  /** how the command SLOWLOG names for the timed call begins (a script's first call is an EVAL, the rest EVALSHA) */
  command: 'lrem' | 'eval' | 'lrange';
  run(redis: Redis): Promise<unknown>;
}

function cases(length: number): Case[] {
  const half = Math.floor(length / 2);
  const laravel = (at: number) => async (redis: Redis) =>
    refusedOrDone(
      laravelRemove.run(redis, {
        ...LARAVEL,
        ...NO_TRASH,
        payload: await elementAt(redis, LARAVEL.ready, at),
        id: 'x',
        queue: 'bench',
        reach: READY_REMOVAL_REACH,
      }),
    );
  const marko = (at: number) => async (redis: Redis) =>
    refusedOrDone(markoRemove.run(redis, { ...MARKO, ...NO_TRASH, id: await elementAt(redis, MARKO.ready, at), queue: 'bench', reach: READY_REMOVAL_REACH }));
  return [
    {
      name: `LREM count 1 of a payload ${formatCount(half)} from the head (Laravel's removal before)`,
      command: 'lrem',
      run: async (redis) => redis.lrem(LARAVEL.ready, 1, await elementAt(redis, LARAVEL.ready, half)),
    },
    {
      name: `LREM count 0 of an id near the tail (marko's and yii2's own delete, and their removal before)`,
      command: 'lrem',
      run: async (redis) => redis.lrem(MARKO.ready, 0, await elementAt(redis, MARKO.ready, -100)),
    },
    {
      name: `Laravel removal, ${formatCount(READY_REMOVAL_REACH - 1)} from the head (its worst case)`,
      command: 'eval',
      run: laravel(READY_REMOVAL_REACH - 1),
    },
    { name: 'Laravel removal, 100 from the tail', command: 'eval', run: laravel(-100) },
    {
      name: `LRANGE of one payload ${formatCount(half)} from the head (the seek a Find chunk or a look-up near a place pays there)`,
      command: 'lrange',
      run: (redis) => redis.lrange(LARAVEL.ready, half, half),
    },
    { name: `Laravel removal, ${formatCount(half)} from the head: refused`, command: 'eval', run: laravel(half) },
    {
      name: `Laravel look-up near a place ${formatCount(half)} deep: a first step, then one after 20 removals nearer the tail (it finds its last element read again)`,
      command: 'eval',
      run: async (redis) => {
        const first = await lookUpNear(redis, half, JOB_LOOK_UP_START);
        if (first.place !== 'more') throw new Error(`the first step answered ${first.place}`);
        await redis.rpop(LARAVEL.ready, 20);
        return lookUpNear(redis, half, first.next);
      },
    },
    { name: `marko removal, ${formatCount(READY_REMOVAL_REACH - 1)} from the head (its worst case)`, command: 'eval', run: marko(READY_REMOVAL_REACH - 1) },
    { name: `marko removal, ${formatCount(half)} from the head: refused`, command: 'eval', run: marko(half) },
  ];
}

/** One step of looking up a job no list holds, seen `at` places from the tail, as a job page's look-up takes it. */
function lookUpNear(redis: Redis, at: number, cursor: JobLookUpCursor) {
  return findJob.run(redis, { ...LARAVEL, ...lookUpArguments({ id: 'missing', near: { from: 'tail', at } }, cursor) });
}

async function timed(probe: RedisProbe, redis: Redis, subject: Case, calls: number): Promise<string[]> {
  const phase = await slowCommandsDuring(probe, 0, async () => {
    for (let call = 0; call < calls; call++) await subject.run(redis);
  });
  const micros = phase.entries
    .filter((entry) => entry.args[0]?.toLowerCase().startsWith(subject.command))
    .map((entry) => entry.micros)
    .sort((a, b) => a - b);
  const median = micros[Math.floor(micros.length / 2)] ?? 0;
  return [subject.name, formatCount(micros.length), (median / 1000).toFixed(2), ((micros.at(-1) ?? 0) / 1000).toFixed(2)];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { length: { type: 'string', default: '1000000' }, calls: { type: 'string', default: '20' } } });
  const [length, calls] = [Number(values.length), Number(values.calls)];
  const workDir = mkdtempSync(join(tmpdir(), 'queuelens-bench-list-removal-'));
  atExit(() => rmSync(workDir, { recursive: true, force: true }));
  const realtime = process.getuid?.() === 0;
  const server = await startPrivateRedis(workDir, { realtime });
  const admin = server.connect(0, { connectionName: 'bench-admin' });
  const redis = server.connect(0, { connectionName: 'bench-removal' });
  try {
    const load = () =>
      loadavg()
        .map((value) => value.toFixed(2))
        .join(' ');
    console.log(
      `\nRemoving from a list of ${formatCount(length)}, ${describeMachine()}, redis-server at ${realtime ? 'real-time' : 'normal'} priority; load ${load()}`,
    );
    await seed(redis, length);
    const rows: string[][] = [];
    for (const subject of cases(length)) rows.push(await timed({ admin, pid: server.pid }, redis, subject, calls));
    console.log(`\n${markdownTable(['call', 'calls', 'median ms', 'longest ms'], 'lrrr', rows)}\n\nload ${load()}`);
  } finally {
    admin.disconnect();
    redis.disconnect();
    await server.stop();
  }
}

await main();
