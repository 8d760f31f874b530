import { describe, expect, it } from 'vitest';
import { HeldPrefixes } from './held-prefixes';

const LIMIT = 4;

describe('HeldPrefixes', () => {
  it('names a long value’s prefix to later reads of its key, for a minute, and fills in what the script left out', () => {
    const prefixes = new HeldPrefixes(60_000);
    const first = prefixes.heldFor('j:1', LIMIT, 1_000, 0);
    expect(first.call).toEqual({ job: 'j:1', limit: LIMIT, maxFields: 1_000, heldLengths: [] });
    expect(first.fill('payload', 10, Buffer.from('abcd')).toString()).toBe('abcd');
    // A short value is whole in every reply: nothing to hold.
    expect(first.fill('queue', 3, Buffer.from('q')).toString()).toBe('q');

    const later = prefixes.heldFor('j:1', LIMIT, 1_000, 59_999);
    expect(later.call).toEqual({ job: 'j:1', limit: LIMIT, maxFields: 1_000, heldLengths: ['payload', '10'] });
    expect(later.fill('payload', 10, null).toString()).toBe('abcd');
    expect(prefixes.heldFor('j:12', LIMIT, 1_000, 1).call).toEqual({ job: 'j:12', limit: LIMIT, maxFields: 1_000, heldLengths: [] });
    expect(prefixes.heldFor('j:1', LIMIT, 1_000, 60_000).call).toEqual({ job: 'j:1', limit: LIMIT, maxFields: 1_000, heldLengths: [] });
  });

  it('serves a shorter read from a longer prefix, and not the other way round', () => {
    const prefixes = new HeldPrefixes();
    prefixes.heldFor('j:1', LIMIT, 1_000, 0).fill('payload', 10, Buffer.from('abcd'));
    const row = prefixes.heldFor('j:1', 2, 1_000, 1);
    expect(row.call).toEqual({ job: 'j:1', limit: 2, maxFields: 1_000, heldLengths: ['payload', '10'] });
    expect(row.fill('payload', 10, null).toString()).toBe('ab');
    expect(prefixes.heldFor('j:1', 8, 1_000, 1).call).toEqual({ job: 'j:1', limit: 8, maxFields: 1_000, heldLengths: [] });
  });

  it('refuses a reply that left out a field the read did not name', () => {
    const read = new HeldPrefixes().heldFor('j:1', LIMIT, 1_000, 0);
    expect(() => read.fill('payload', 10, null)).toThrow('lua/shared/read-job-1.lua left out j:1 payload, which was not named');
  });
});
