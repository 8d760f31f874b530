import { describe, expect, it } from 'vitest';
import { nextSnapshot } from './live';

describe('nextSnapshot', () => {
  it('keeps the last data through failed reads and drops the failure on the next success', () => {
    const first = nextSnapshot(undefined, { ok: true, data: { pending: 1 } }, 1000);
    expect(first).toEqual({ data: { pending: 1 }, error: null, readAt: 1000 });
    const failed = nextSnapshot(first, { ok: false, error: 'Could not reach redis at 127.0.0.1:6379' }, 3000);
    expect(failed).toEqual({ data: { pending: 1 }, error: 'Could not reach redis at 127.0.0.1:6379', readAt: 1000 });
    expect(nextSnapshot(failed, { ok: true, data: { pending: 2 } }, 5000)).toEqual({ data: { pending: 2 }, error: null, readAt: 5000 });
  });

  it('has no data to keep when the first read fails', () => {
    expect(nextSnapshot(undefined, { ok: false, error: 'down' }, 1000)).toEqual({ data: undefined, error: 'down', readAt: null });
  });
});
