import { describe, expect, it } from 'vitest';
import { HeldPrefixes } from './held-prefixes';

const LIMIT = 4;

describe('HeldPrefixes', () => {
  it('names a long value’s prefix to later reads of its key, for a minute, and fills in what the script left out', () => {
    const prefixes = new HeldPrefixes(60_000);
    const first = prefixes.heldFor('j:1', LIMIT, 1_000, 0);
    expect(first.args).toEqual(['j:1', LIMIT, 1_000]);
    expect(first.fill('payload', 10, Buffer.from('abcd')).toString()).toBe('abcd');
    // A short value is whole in every reply: nothing to hold.
    expect(first.fill('queue', 3, Buffer.from('q')).toString()).toBe('q');

    const later = prefixes.heldFor('j:1', LIMIT, 1_000, 59_999);
    expect(later.args).toEqual(['j:1', LIMIT, 1_000, 'payload', '10']);
    expect(later.fill('payload', 10, null).toString()).toBe('abcd');
    expect(prefixes.heldFor('j:12', LIMIT, 1_000, 1).args).toEqual(['j:12', LIMIT, 1_000]);
    expect(prefixes.heldFor('j:1', LIMIT, 1_000, 60_000).args).toEqual(['j:1', LIMIT, 1_000]);
  });

  it('serves a shorter read from a longer prefix, and not the other way round', () => {
    const prefixes = new HeldPrefixes();
    prefixes.heldFor('j:1', LIMIT, 1_000, 0).fill('payload', 10, Buffer.from('abcd'));
    const row = prefixes.heldFor('j:1', 2, 1_000, 1);
    expect(row.args).toEqual(['j:1', 2, 1_000, 'payload', '10']);
    expect(row.fill('payload', 10, null).toString()).toBe('ab');
    expect(prefixes.heldFor('j:1', 8, 1_000, 1).args).toEqual(['j:1', 8, 1_000]);
  });

  it('refuses a reply that left out a field the read did not name', () => {
    const read = new HeldPrefixes().heldFor('j:1', LIMIT, 1_000, 0);
    expect(() => read.fill('payload', 10, null)).toThrow('lua/staticphp/read-job-1.lua left out j:1 payload, which was not named');
  });
});
