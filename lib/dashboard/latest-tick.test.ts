import { describe, expect, it } from 'vitest';
import { LatestTick } from './latest-tick';

/** A read whose calls are counted and each ended by hand, so a test decides what runs when. */
function controlledRead() {
  const pending: { resolve: (value: number) => void; reject: (error: Error) => void }[] = [];
  let calls = 0;
  const read = () =>
    new Promise<number>((resolve, reject) => {
      calls += 1;
      pending.push({ resolve, reject });
    });
  return { read, calls: () => calls, settle: (value: number) => pending.shift()!.resolve(value), fail: (error: Error) => pending.shift()!.reject(error) };
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('LatestTick', () => {
  it('answers every caller within the age from one read, and waits for the first one', async () => {
    const source = controlledRead();
    let now = 1_000;
    const tick = new LatestTick(source.read, () => now);
    const callers = Promise.all(Array.from({ length: 50 }, () => tick.current(5_000)));
    await turn();
    expect(source.calls()).toBe(1);
    source.settle(7);
    expect((await callers).map((state) => state.latest?.value)).toEqual(Array(50).fill(7));
    now += 5_000;
    expect((await tick.current(5_000)).latest).toEqual({ value: 7, readAt: 1_000 });
    expect(source.calls()).toBe(1);
  });

  it('reads again for a caller once the latest read is older than it accepts (the loop stopped)', async () => {
    const source = controlledRead();
    let now = 0;
    const tick = new LatestTick(source.read, () => now);
    const first = tick.current(1_000);
    source.settle(1);
    await first;
    now = 1_001;
    const second = tick.current(1_000);
    await turn();
    expect(source.calls()).toBe(2);
    source.settle(2);
    expect((await second).latest).toEqual({ value: 2, readAt: 1_001 });
  });

  it('starts a refresh asked during a read after that read, shared by everyone who asks meanwhile', async () => {
    const source = controlledRead();
    const tick = new LatestTick(source.read);
    const running = tick.refresh();
    const afterChange = [tick.refresh(), tick.refresh(), tick.refresh()];
    await turn();
    expect(source.calls()).toBe(1);
    source.settle(1);
    await running;
    await turn();
    // The read under way may have begun before the change: one more starts after it, for all three.
    expect(source.calls()).toBe(2);
    source.settle(2);
    await Promise.all(afterChange);
    expect(tick.settled.latest?.value).toBe(2);
    expect(source.calls()).toBe(2);
  });

  it('keeps the last value beside a failed read, and does not read again for callers within the age of the failure', async () => {
    const source = controlledRead();
    let now = 0;
    const tick = new LatestTick(source.read, () => now);
    const first = tick.refresh();
    source.settle(1);
    await first;
    now = 10_000;
    const failed = tick.refresh();
    source.fail(new Error('Redis is gone'));
    await failed;
    const state = await tick.current(5_000);
    expect(state.latest).toEqual({ value: 1, readAt: 0 });
    expect(state.failure).toMatchObject({ at: 10_000, error: new Error('Redis is gone') });
    expect(source.calls()).toBe(2);
    const next = tick.refresh();
    source.settle(3);
    await next;
    expect(tick.settled).toEqual({ latest: { value: 3, readAt: 10_000 }, failure: null });
  });
});

/** A part read whose calls are recorded (the names asked for) and each ended by hand with what it merged, or null. */
function controlledPartRead<T>() {
  const pending: { resolve: (value: T | null) => void }[] = [];
  const asked: string[][] = [];
  const readPart = (_kept: T, names: readonly string[]) =>
    new Promise<T | null>((resolve) => {
      asked.push([...names].sort());
      pending.push({ resolve });
    });
  return { readPart, asked: () => asked, settle: (value: T | null) => pending.shift()!.resolve(value) };
}

describe('LatestTick, after a change that names what it touched', () => {
  it('reads only those names into the kept value, which keeps the time of the read of everything', async () => {
    const source = controlledRead();
    const part = controlledPartRead<number>();
    let now = 1_000;
    const tick = new LatestTick(source.read, () => now, part.readPart);
    const first = tick.refresh();
    source.settle(10);
    await first;
    now = 2_000;
    const touched = tick.refreshOnly(['mail']);
    await turn();
    expect(part.asked()).toEqual([['mail']]);
    part.settle(11);
    await touched;
    expect(tick.settled).toEqual({ latest: { value: 11, readAt: 1_000 }, failure: null });
    expect(source.calls()).toBe(1);
  });

  it('waits for a read of everything under way, then merges into what it read, so neither overwrites the other', async () => {
    const source = controlledRead();
    const part = controlledPartRead<number>();
    const tick = new LatestTick(source.read, Date.now, part.readPart);
    const first = tick.refresh();
    source.settle(1);
    await first;
    const tickUnderWay = tick.refresh();
    const touched = tick.refreshOnly(['mail']);
    await turn();
    expect(part.asked()).toEqual([]);
    source.settle(2);
    await tickUnderWay;
    await turn();
    expect(part.asked()).toEqual([['mail']]);
    part.settle(3);
    await touched;
    expect(tick.settled.latest?.value).toBe(3);
  });

  it('shares one waiting read among changes, widened to every name they touched, or to everything when one cannot say', async () => {
    const source = controlledRead();
    const part = controlledPartRead<number>();
    const tick = new LatestTick(source.read, Date.now, part.readPart);
    const first = tick.refresh();
    source.settle(1);
    await first;
    const running = tick.refreshOnly(['a']);
    const waiting = [tick.refreshOnly(['b']), tick.refreshOnly(['c', 'b'])];
    await turn();
    part.settle(2);
    await running;
    await turn();
    expect(part.asked()).toEqual([['a'], ['b', 'c']]);
    part.settle(3);
    await Promise.all(waiting);
    expect(tick.settled.latest?.value).toBe(3);

    const again = tick.refreshOnly(['a']);
    const widened = [tick.refreshOnly(['b']), tick.refresh()];
    await turn();
    part.settle(4);
    await again;
    await turn();
    expect(part.asked()).toHaveLength(3);
    expect(source.calls()).toBe(2);
    source.settle(5);
    await Promise.all(widened);
    expect(tick.settled.latest?.value).toBe(5);
  });

  it('reads everything when there is nothing kept yet, or the part reader cannot merge', async () => {
    const source = controlledRead();
    const part = controlledPartRead<number>();
    const tick = new LatestTick(source.read, Date.now, part.readPart);
    const first = tick.refreshOnly(['mail']);
    await turn();
    expect([source.calls(), part.asked().length]).toEqual([1, 0]);
    source.settle(1);
    await first;
    const unknown = tick.refreshOnly(['new-queue']);
    await turn();
    part.settle(null);
    await turn();
    expect(source.calls()).toBe(2);
    source.settle(2);
    await unknown;
    expect(tick.settled.latest?.value).toBe(2);
  });

  it('keeps a failed read of everything standing after a part read: the other figures are still as old', async () => {
    const source = controlledRead();
    const part = controlledPartRead<number>();
    let now = 0;
    const tick = new LatestTick(source.read, () => now, part.readPart);
    const first = tick.refresh();
    source.settle(1);
    await first;
    now = 5_000;
    const failed = tick.refresh();
    source.fail(new Error('Redis is gone'));
    await failed;
    now = 6_000;
    const touched = tick.refreshOnly(['mail']);
    await turn();
    part.settle(2);
    await touched;
    expect(tick.settled).toEqual({ latest: { value: 2, readAt: 0 }, failure: { error: new Error('Redis is gone'), at: 5_000 } });
  });
});
