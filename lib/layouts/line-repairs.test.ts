import { describe, expect, it } from 'vitest';
import { QueueError } from '../redis/errors';
import { READY_REMOVAL_REACH, REMOVALS_IN_FLIGHT, removeEach, unremovableAt } from './line-repairs';
import type { SeenPlace } from '../shapes/job-location';

describe('removeEach', () => {
  it('starts the removals furthest seen place first, a place from the head counted from the tail by its list’s length, and answers each job in the order given, a refusal its own', async () => {
    const started: string[] = [];
    // A layout's remove as its callers see it: refuses job "stuck", finds job "gone" gone, removes the rest.
    const remove = async (_queue: string, id: string) => {
      started.push(id);
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (id === 'stuck') throw new QueueError('The job is not near either end of queues:mail.');
      return id !== 'gone';
    };
    const job = (id: string, near?: SeenPlace) => ({ queue: 'mail', id, seen: { near } });
    const outcomes = await removeEach(
      remove,
      [
        job('tail 3', { from: 'tail', at: 3 }),
        job('gone'),
        job('stuck', { from: 'tail', at: 40 }),
        job('head 10 of 1000', { from: 'head', at: 10, length: 1_000 }),
        job('tail 900', { from: 'tail', at: 900 }),
      ],
      undefined,
    );
    // Place 10 from the head of 1,000 is 989 from the tail: further than 900.
    expect(started).toEqual(['head 10 of 1000', 'tail 900', 'stuck', 'tail 3', 'gone']);
    expect(outcomes).toEqual(['removed', 'moved on', { refused: 'the job is not near either end of queues:mail' }, 'removed', 'removed']);
  });

  it('keeps REMOVALS_IN_FLIGHT removals in flight at once, and a Redis that cannot be reached ends the batch', async () => {
    let inFlight = 0;
    let most = 0;
    const remove = async (_queue: string, id: string) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight--;
      if (id === 'job40') throw new QueueError('Redis is not answering.', { unreachable: true });
      return true;
    };
    const jobs = Array.from({ length: 50 }, (_, i) => ({ queue: 'mail', id: `job${i}` }));
    await expect(removeEach(remove, jobs, undefined)).rejects.toThrow('Redis is not answering.');
    expect(most).toBe(REMOVALS_IN_FLIGHT);
  });
});

describe('unremovableAt', () => {
  it('says why only for a job further than the reach from both ends of its list', () => {
    const length = 4 * READY_REMOVAL_REACH;
    for (const index of [0, READY_REMOVAL_REACH - 1, length - READY_REMOVAL_REACH, length - 1]) expect(unremovableAt(index, length)).toEqual({});
    for (const index of [READY_REMOVAL_REACH, length - READY_REMOVAL_REACH - 1])
      expect(unremovableAt(index, length)).toEqual({ unremovable: expect.stringMatching(/^a removal looks for a job among the 5,000 nearest either end/) });
  });
});
