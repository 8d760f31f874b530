import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SCAN_COUNT } from '../../redis/scan-keys';
import { DOCTOR_PAGE, type LaravelFinding } from './doctor';
import { LaravelHarness } from './php-harness';
import { present, testLaravelFactory } from './test-laravel';

const openLaravel = testLaravelFactory();

async function openChecked(queue = 'default') {
  const opened = await openLaravel(queue);
  const doctor = present(opened.layout.doctor);
  const check = async (onProgress?: (line: string) => void) => (await doctor.check(onProgress)) as LaravelFinding[];
  return { ...opened, doctor, check, keys: opened.layout.keys };
}

const digest = (text: string) => `sha1:${createHash('sha1').update(text).digest('hex')}`;

const kindsAndSubjects = (findings: readonly LaravelFinding[]) => findings.map(({ kind, subject }) => [kind, subject]);

/** The reserved member of job `id`, with its exact bytes, as Laravel's pop wrote it. */
async function reservedMember(redis: Awaited<ReturnType<typeof openChecked>>['redis'], key: string, id: string): Promise<Buffer> {
  const members = await redis.zrangeBuffer(key, '0', '-1');
  const member = members.find((bytes) => bytes.includes(`"id":"${id}"`));
  if (member === undefined) throw new Error(`job ${id} is not reserved`);
  return member;
}

describe('the Laravel doctor', () => {
  it('finds nothing under an empty prefix, nor in queues Laravel’s own push, later, pop and release keep', async () => {
    const empty = await openChecked();
    expect(await empty.check()).toEqual([]);

    const { check, laravel } = await openChecked();
    const [first, second] = [await laravel.push('first'), await laravel.push('second')];
    await laravel.push('third');
    await laravel.later(300);
    expect(await laravel.pop(600)).toMatchObject({ id: first });
    expect(await laravel.release(second, 30)).toBe(true);
    // Expired 5 s ago only: within the grace, a worker's next pop would put it back.
    await laravel.pop(-5);
    expect(await check()).toEqual([]);
  });

  it('finds a reservation expired over a minute ago, puts it back as migrate would, and the real pop runs it once', async () => {
    const { check, doctor, laravel, redis, keys } = await openChecked();
    const [held, waiting] = [await laravel.push('held'), await laravel.push('waiting')];
    expect(await laravel.pop(600)).toMatchObject({ id: held, attempts: 1 });
    // Time simulated: the reservation's score (its expiry) moved 2 minutes into the past, on the exact member the pop wrote.
    const [now] = await redis.time();
    await redis.zadd(keys.reserved('default'), 'XX', Number(now) - 120, await reservedMember(redis, keys.reserved('default'), held));

    const findings = await check();
    expect(kindsAndSubjects(findings)).toEqual([['expired-reservation', `${keys.reserved('default')} ${held}`]]);
    expect(findings[0]!.repair).toEqual({ kind: 'release-expired', queue: 'default', id: held });
    expect(findings[0]!.explanation).toContain('no worker has popped this queue since');

    const report = await doctor.repair(findings);
    expect(report.repaired).toHaveLength(1);
    // Done already: its script finds the member gone and says so.
    expect((await doctor.repair(findings)).unchanged).toHaveLength(1);
    expect(await redis.llen(keys.notify('default'))).toBe(2);
    expect(await check()).toEqual([]);
    const ran = await laravel.drain();
    expect(ran.map(({ id, attempts }) => [id, attempts])).toEqual([
      [waiting, 1],
      [held, 2],
    ]);
    expect(await laravel.size()).toBe(0);
  });

  it('finds delayed jobs due over a minute ago, moves every due one into line, and the real pop runs each once', async () => {
    const { check, doctor, laravel, redis, keys } = await openChecked();
    const [longDue, justDue] = [await laravel.later(-120), await laravel.later(-5)];
    const future = await laravel.later(300);

    const findings = await check();
    expect(kindsAndSubjects(findings)).toEqual([['overdue-delayed', keys.delayed('default')]]);
    expect(findings[0]!.explanation).toMatch(/^1 delayed job was due/);

    expect((await doctor.repair(findings)).repaired).toHaveLength(1);
    expect(await check()).toEqual([]);
    expect((await laravel.drain()).map(({ id }) => id)).toEqual([longDue, justDue]);
    // Not due yet: it stays delayed.
    expect(await laravel.drain()).toEqual([]);
    expect((await redis.zrange(keys.delayed('default'), '0', '-1')).map((member) => (JSON.parse(member) as { id: string }).id)).toEqual([future]);
  });

  it('brings a notify list with too many or too few tokens back to one per ready job, re-checking the direction it saw', async () => {
    const { check, doctor, laravel, redis, keys } = await openChecked();
    const ids = [await laravel.push('a'), await laravel.push('b')];
    await redis.rpush(keys.notify('default'), 1, 1, 1);

    const surplus = await check();
    expect(surplus.map(({ kind, subject, repair }) => [kind, subject, repair])).toEqual([
      ['notify-out-of-step', keys.notify('default'), { kind: 'align-notify', queue: 'default', direction: 'trim' }],
    ]);
    expect(surplus[0]!.explanation).toContain('holds 5 tokens for the 2 jobs');
    expect((await doctor.repair(surplus)).repaired).toHaveLength(1);
    expect(await redis.llen(keys.notify('default'))).toBe(2);

    await redis.del(keys.notify('default'));
    const shortfall = await check();
    expect(shortfall.map(({ repair }) => repair)).toEqual([{ kind: 'align-notify', queue: 'default', direction: 'add' }]);
    // Seen short, now in surplus: the add re-checks the direction and does nothing.
    await redis.rpush(keys.notify('default'), 1, 1, 1);
    expect((await doctor.repair(shortfall)).unchanged).toHaveLength(1);
    expect(await redis.llen(keys.notify('default'))).toBe(3);
    await redis.del(keys.notify('default'));
    expect((await doctor.repair(shortfall)).repaired).toHaveLength(1);
    expect(await redis.lrange(keys.notify('default'), 0, -1)).toEqual(['1', '1']);

    expect(await check()).toEqual([]);
    expect((await laravel.drain()).map(({ id }) => id)).toEqual(ids);
    expect(await redis.exists(keys.notify('default'))).toBe(0);
  });

  it('reports payloads Laravel’s pop fails on, without a repair; the real pop then loses such a payload, as the finding says', async () => {
    const { check, doctor, laravel, redis, keys } = await openChecked();
    const noAttempts = 'noattempts000000000000000000000a';
    await redis.rpush(keys.ready('default'), 'not json', JSON.stringify({ id: noAttempts, displayName: 'App\\Jobs\\Hand' }));
    await redis.rpush(keys.notify('default'), 1, 1);
    const good = await laravel.push('good');
    // A future delayed member that is JSON but an array: found before it comes due.
    await redis.zadd(keys.delayed('default'), String(Number((await redis.time())[0]) + 300), '[1,2]');

    const findings = await check();
    expect(kindsAndSubjects(findings)).toEqual([
      ['unpoppable-payload', `${keys.ready('default')} ${digest('not json')}`],
      ['unpoppable-payload', `${keys.ready('default')} ${noAttempts}`],
      ['unpoppable-payload', `${keys.delayed('default')} ${digest('[1,2]')}`],
    ]);
    expect(findings.every(({ repair }) => repair === null)).toBe(true);
    expect(findings[1]!.explanation).toContain("attempt to perform arithmetic on field 'attempts'");
    expect((await doctor.repair(findings)).notRepaired).toHaveLength(3);

    // The real pop's script fails on the head, which phpredis answers as no job; Redis keeps its LPOP: the payload is gone, its token stays.
    expect(await laravel.pop()).toBeNull();
    expect(await redis.lrange(keys.ready('default'), 0, 0)).toEqual([JSON.stringify({ id: noAttempts, displayName: 'App\\Jobs\\Hand' })]);
    expect(await redis.llen(keys.ready('default'))).toBe(2);
    expect(await redis.llen(keys.notify('default'))).toBe(3);
    await redis.lpop(keys.ready('default'));
    expect((await laravel.drain()).map(({ id }) => id)).toEqual([good]);
  });

  it('reports keys of the wrong type, found by the scan or among a queue’s keys, and checks the rest', async () => {
    const { check, doctor, laravel, redis, keys } = await openChecked();
    await redis.set(`${keys.queuesPrefix}broken`, 'x');
    await laravel.push('fine');
    await redis.hset(keys.reserved('default'), 'field', 'value');
    await laravel.later(-120);

    const findings = await check();
    expect(kindsAndSubjects(findings).sort()).toEqual(
      [
        ['wrong-type', `${keys.queuesPrefix}broken`],
        ['wrong-type', keys.reserved('default')],
        ['overdue-delayed', keys.delayed('default')],
      ].sort(),
    );
    expect(findings.find(({ subject }) => subject === keys.reserved('default'))!.explanation).toContain('is a hash, but Laravel');
    const report = await doctor.repair(findings);
    expect(report.notRepaired.map(({ kind }) => kind)).toEqual(['wrong-type', 'wrong-type']);
  });

  it('checks more queues than one scan step holds, in bounded steps, and finds a stuck one among them', async () => {
    const { check, laravel, redis, keys } = await openChecked();
    await laravel.push('template');
    const [payload] = await redis.lrangeBuffer(keys.ready('default'), 0, 0);
    const names = Array.from({ length: SCAN_COUNT + 50 }, (_, i) => `q${String(i).padStart(3, '0')}`);
    const pipeline = redis.pipeline();
    // Copies of the real payload, with a token each, as Laravel's push writes them.
    for (const name of names) pipeline.rpush(keys.ready(name), payload!).rpush(keys.notify(name), 1);
    // A ready list longer than two pages, a payload the pop fails on at its tail.
    pipeline.rpush(keys.ready('q000'), ...Array.from({ length: 2 * DOCTOR_PAGE }, () => payload!), '{}');
    pipeline.rpush(keys.notify('q000'), ...Array.from({ length: 2 * DOCTOR_PAGE + 1 }, () => 1));
    await pipeline.exec();
    const last = names.at(-1)!;
    await new LaravelHarness(laravel.prefix, last).later(-300);

    const progress: string[] = [];
    const findings = await check((line) => progress.push(line));
    expect(kindsAndSubjects(findings)).toEqual([
      ['unpoppable-payload', `${keys.ready('q000')} ${digest('{}')}`],
      ['overdue-delayed', keys.delayed(last)],
    ]);
    expect(progress.filter((line) => line.startsWith('Checking the queue names')).length).toBeGreaterThan(1);
    expect(progress.at(-1)).toMatch(new RegExp(`of ${names.length + 1} queues$`));
  });
});
