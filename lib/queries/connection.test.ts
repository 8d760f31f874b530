import { describe, expect, it } from 'vitest';
import { summarizeConnection, WAITING, type LiveQueryState } from './connection';

const read = (readAt: number): LiveQueryState => ({ data: { data: {}, error: null, readAt }, error: null });
const refused = (readAt: number | null, error: string): LiveQueryState => ({ data: { data: readAt === null ? undefined : {}, error, readAt }, error: null });
const UNREACHABLE = 'Could not reach redis at 127.0.0.1:6379';

describe('summarizeConnection', () => {
  it('waits while nothing has answered', () => {
    expect(summarizeConnection([])).toEqual(WAITING);
    expect(summarizeConnection([{ data: undefined, error: null }])).toEqual(WAITING);
  });

  it('is live as of the newest read when every latest answer had data', () => {
    expect(summarizeConnection([read(5), read(9), read(7)])).toEqual({ state: 'live', error: null, readAt: 9 });
  });

  it('is failing when any latest answer failed, keeping the time of the newest data', () => {
    expect(summarizeConnection([read(9), refused(5, UNREACHABLE)])).toEqual({ state: 'failing', error: UNREACHABLE, readAt: 9 });
    expect(summarizeConnection([refused(null, UNREACHABLE)])).toEqual({ state: 'failing', error: UNREACHABLE, readAt: null });
  });

  it('is offline when a request got no answer, the worst of all', () => {
    const dropped = { ...read(5), error: new Error('Cannot reach the QueueLens server') };
    expect(summarizeConnection([refused(3, UNREACHABLE), dropped])).toEqual({
      state: 'offline',
      error: 'Cannot reach the QueueLens server',
      readAt: 5,
    });
  });
});
