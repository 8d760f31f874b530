import { describe, expect, it } from 'vitest';
import { loadStaticPhpFixture, readStaticPhpExpected, type StaticPhpFixtureName } from './test-fixtures';
import { testQueueFactory } from './test-redis';
import { isAbsent } from '../adapter';
import { staticphpLayout } from './layout';
import { readReservations, type ReservationState } from './reservations';

const openQueue = testQueueFactory();

/**
 * What each held job is at capture, by its role in the expected file. In
 * rich-layout, r1 and s2 are live claims, r2's claim ran out and p1 was
 * parked by a reserve with a shorter timeout. In after-php-worker, the PHP
 * Worker (2 s timeout) reclaimed r1 and s2 and parked them until their
 * holders' deadlines, and ran r2.
 */
const HELD: Record<StaticPhpFixtureName, Record<string, ReservationState | 'parked'>> = {
  'rich-layout': { r1: 'running', r2: 'overdue', p1: 'parked', s2: 'running' },
  'after-php-worker': { r1: 'parked', p1: 'parked', s2: 'parked' },
};

/** The holder the expected file names in a job's description: `reserved by "host:pid"` or `held by "host:pid"`. */
function holderNamed(description: string): string {
  const holder = /(?:reserved|held) by "([^"]+)"/.exec(description)?.[1];
  if (!holder) throw new Error(`the description names no holder: ${description}`);
  return holder;
}

describe.each<StaticPhpFixtureName>(['rich-layout', 'after-php-worker'])('the reservations of the PHP driver fixture %s', (name) => {
  it('name each holder with its job and its state: running, overdue or parked', async () => {
    const queue = await openQueue();
    await loadStaticPhpFixture(queue.redis, name, queue.keys.prefix);
    const { jobs } = readStaticPhpExpected(name);
    const expected = new Map<string | null, { jobId: number; state: string }[]>();
    for (const [role, state] of Object.entries(HELD[name])) {
      const job = jobs[role]!;
      const holder = holderNamed(job.is);
      expected.set(holder, [...(expected.get(holder) ?? []), { jobId: job.id, state }]);
    }

    const reservations = await readReservations(queue);

    const found = new Map(
      reservations.holders.map((group) => [
        group.holder,
        [
          ...group.rows.map((row) => ({ jobId: row.jobId!, state: row.state as string })),
          ...group.parked.map((job) => ({ jobId: job.jobId, state: 'parked' })),
        ],
      ]),
    );
    expect(found).toEqual(expected);
    expect(reservations.errors).toEqual([]);

    // The reservations page reads the same through the layout, each row's holder and claim in the shape every layout fills.
    const reader = staticphpLayout(queue).expiringReservations;
    if (isAbsent(reader)) throw new Error(reader.absent);
    const page = await reader.read({ page: 1 });
    expect(page.queues).toEqual([]);
    expect(page.holderAbsent).toBeUndefined();
    const byHolder = page.byHolder!;
    expect(
      new Map(
        byHolder.groups.map((group) => [
          group.holder,
          [
            ...group.rows.map((row) => ({ jobId: row.claim!.jobId!, state: row.claim!.state as string })),
            ...group.parked.map((job) => ({ jobId: job.jobId, state: 'parked' })),
          ],
        ]),
      ),
    ).toEqual(expected);
    for (const group of byHolder.groups) {
      for (const row of group.rows) {
        expect(row.claim!.holder).toBe(group.holder);
        expect(row.id).toBe(String(row.claim!.jobId));
        expect(row.expiresAt).toBe(Number(row.claim!.reservedUntil));
        expect(row.expired).toBe(row.claim!.state === 'overdue');
      }
    }
    expect(byHolder.parkedTotal).toBe(reservations.parkedTotal);
    expect(byHolder.counts).toEqual(reservations.counts);
    expect(reservations.parkedTotal).toBe(Object.values(HELD[name]).filter((state) => state === 'parked').length);
    // The parking deadline is the holder's own: reserved_until, still ahead after the shift.
    for (const job of reservations.holders.flatMap((group) => group.parked)) {
      expect(job.untilSeconds).toBe(Number(job.reservedUntil));
      expect(job.untilSeconds).toBeGreaterThan(reservations.now);
    }
  });
});
