import { describe, expect, it } from 'vitest';
import { QueueError } from './errors';
import { assertClusterPrefix, hashTagOf, slotOf } from './hash-slot';

describe('hash tags and slots', () => {
  it('finds the tag Redis Cluster hashes a prefix’s keys by, only when it closes inside the prefix', () => {
    expect(hashTagOf('{queue}:')).toBe('queue');
    expect(hashTagOf('app:{tenant-1}:')).toBe('tenant-1');
    // Only the first '{' counts, with the first '}' after it.
    expect(hashTagOf('{a{b}c}:')).toBe('a{b');
    expect(hashTagOf('queue:')).toBeNull();
    // An empty tag hashes the whole key; an open one would be closed by a queue name or a unique key.
    expect(hashTagOf('{}{queue}:')).toBeNull();
    expect(hashTagOf('app:{tenant:')).toBeNull();
    expect(hashTagOf('app:}{')).toBeNull();
  });

  it('computes the slots the Redis documentation gives (CRC16 mod 16384)', () => {
    expect(slotOf('somekey')).toBe(11058);
    expect(slotOf('foo{hash_tag}')).toBe(2515);
    expect(slotOf('123456789')).toBe(0x31c3);
    expect(slotOf('{queue}:j:1')).toBe(slotOf('{queue}:q:mail:s:0'));
    expect(slotOf('{queue}:u:any {unique} key')).toBe(slotOf('queue'));
  });

  it('refuses a cluster prefix without a tag, naming the fix', () => {
    expect(() => assertClusterPrefix('{queue}:')).not.toThrow();
    expect(() => assertClusterPrefix('queue:')).toThrow(QueueError);
    expect(() => assertClusterPrefix('queue:')).toThrow('prefix: "{queue}:"');
  });
});
