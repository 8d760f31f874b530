import { describe, expect, it } from 'vitest';
import { QueueError } from './errors';

describe('QueueError', () => {
  it('is recognised across copies of this module, as a bundler may load it twice', () => {
    const fromAnotherCopy = Object.assign(new Error('Could not reach redis at 127.0.0.1:6379'), { [Symbol.for('queuelens.QueueError')]: true });
    expect(fromAnotherCopy instanceof QueueError).toBe(true);
    expect(new QueueError('x')).toBeInstanceOf(QueueError);
    expect(new Error('x') instanceof QueueError).toBe(false);
    expect(QueueError[Symbol.hasInstance](null)).toBe(false);
  });
});
