import { describe, expect, it } from 'vitest';
import { MAIL_JOB, testMarkoFactory } from './test-layout';
import { serializeJob, signPayload } from './test-worker';

const openMarko = testMarkoFactory();

describe("marko's jobs as the pages read them", () => {
  it('pages the ready list head first, with each job class from its signed payload', async () => {
    const { reads, worker, redis, keys } = await openMarko();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await worker.push('mail', { className: `App\\Jobs\\Job${i}` }));
    await redis.rpush(keys.ready('mail'), 'dangling');
    const page = await reads.readyJobs('mail', 3, 10);
    expect(page).toMatchObject({ queue: 'mail', total: 6, offset: 3 });
    expect(page.jobs).toEqual([
      { id: ids[3], position: 3, exists: true, className: 'App\\Jobs\\Job3', attempts: 0 },
      { id: ids[4], position: 4, exists: true, className: 'App\\Jobs\\Job4', attempts: 0 },
      { id: 'dangling', position: 5, exists: false, className: '', attempts: null },
    ]);
    // A pop takes the head: the page moves up.
    await worker.pop('mail');
    expect((await reads.readyJobs('mail', 0, 1)).jobs[0]!.id).toBe(ids[1]);
  });

  it('draws the delayed timeline by the server clock, retries told apart by their attempts, unattended once a due job waits a minute', async () => {
    const { reads, worker } = await openMarko();
    const now = await worker.now();
    const first = await worker.later(120, 'mail', MAIL_JOB, now);
    await worker.later(7200, 'mail', MAIL_JOB, now);
    await worker.later(30 * 86_400, 'mail', MAIL_JOB, now);
    await worker.push('mail', MAIL_JOB);
    const popped = (await worker.pop('mail', { now }))!;
    await worker.release('mail', { ...MAIL_JOB, ...popped }, 10, now - 100);
    const timeline = await reads.delayedTimeline('mail');
    expect(timeline).toMatchObject({ queue: 'mail', total: 4, overdue: 1, later: 1 });
    expect(timeline.now).toBeGreaterThanOrEqual(now);
    expect(timeline.hour[0]!.count + timeline.hour[1]!.count).toBe(1);
    expect(timeline.day.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(2);
    expect(timeline.next.map((job) => [job.id, job.retry])).toEqual([
      [popped.id, true],
      [first, false],
      [expect.any(String), false],
      [expect.any(String), false],
    ]);
    expect(timeline.attendance).toEqual({ unattended: true, oldestOverdueAt: now - 90, lastDeliveredEntryAt: null });
  });

  it('lists reservations with their expiry, reserved-since only when retry_after is known, and no holder', async () => {
    const withRetryAfter = await openMarko({ retryAfter: 90 });
    const { worker } = withRetryAfter;
    const now = await worker.now();
    const live = await worker.push('mail', MAIL_JOB);
    const stuck = await worker.push('mail', MAIL_JOB);
    await worker.pop('mail', { now });
    await worker.pop('mail', { now: now - 200 });
    const reserved = await withRetryAfter.reads.reservations('mail', 0, 10);
    expect(reserved).toMatchObject({
      total: 2,
      holderKnown: false,
      holderAbsent: 'marko/queue-redis records no holder: a reservation says only when it expires',
    });
    expect(reserved.reservations).toEqual([
      { id: stuck, exists: true, className: 'App\\Jobs\\SendMail', attempts: 1, expiresAt: now - 110, expired: true, reservedSince: now - 200 },
      { id: live, exists: true, className: 'App\\Jobs\\SendMail', attempts: 1, expiresAt: now + 90, expired: false, reservedSince: now },
    ]);
    const { reads, redis, keys } = await openMarko();
    await redis.zadd(keys.reserved('mail'), now + 5, 'x');
    expect((await reads.reservations('mail', 0, 10)).reservations[0]!.reservedSince).toBeNull();
  });

  it("shows every field of a job's hash and its signed payload in parts, the serialized job as a tree, and where it is", async () => {
    const { reads, worker, redis, keys } = await openMarko();
    const id = await worker.push('mail', MAIL_JOB);
    await redis.hset(keys.job(id), 'unique_lock', 'abc');
    const detail = (await reads.job(id))!;
    expect(detail.fields.map((field) => field.name).sort()).toEqual(['attempts', 'payload', 'queue', 'unique_lock']);
    expect(detail.queue).toBe('mail');
    expect(detail.place).toEqual({ state: 'ready', position: 0 });
    const payload = detail.fields.find((field) => field.name === 'payload')!;
    expect(payload.signed).toMatchObject({
      encoding: 'b64',
      className: 'App\\Jobs\\SendMail',
      placeholder: false,
      signatureNote: "The signature cannot be checked without the application's encryption.key: the payload is shown as stored, unverified.",
    });
    expect(payload.signed!.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(payload.signed!.job.error).toBeNull();
    expect(payload.signed!.job.value).toMatchObject({
      type: 'object',
      className: 'App\\Jobs\\SendMail',
      properties: [
        { name: 'id', visibility: 'protected', value: { type: 'string', text: id } },
        { name: 'attempts', visibility: 'protected', value: { type: 'int', value: '0' } },
        { name: 'to', visibility: 'protected', value: { type: 'string', text: 'a@example.com' } },
      ],
    });
    expect(detail.fields.find((field) => field.name === 'queue')!.signed).toBeNull();

    await worker.pop('mail');
    expect((await reads.job(id))!.place).toMatchObject({ state: 'reserved', expired: false });
    await worker.complete('mail', id);
    expect(await reads.job(id)).toBeNull();
  });

  it('reads a 2 MB payload from its first 64 KiB and says the tree stops there', async () => {
    const { reads, redis, keys } = await openMarko();
    await redis.hset(keys.job('big'), 'queue', 'imports', 'payload', signPayload(serializeJob('App\\Jobs\\Import', { rows: 'y'.repeat(2_000_000) })));
    const payload = (await reads.job('big'))!.fields.find((field) => field.name === 'payload')!;
    expect(payload.value).toMatchObject({ truncated: true });
    expect(payload.value.bytes).toBeGreaterThan(2_000_000);
    expect(payload.signed).toMatchObject({ className: 'App\\Jobs\\Import', job: { value: { type: 'object', cut: true } } });
    expect(payload.signed!.job.error).toMatch(/ends/);
  });
});
