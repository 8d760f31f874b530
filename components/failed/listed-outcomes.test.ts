import { describe, expect, it } from 'vitest';
import { outcomesOf } from './listed-outcomes';

describe('What an action did to each listed job', () => {
  it('names each id by the first outcome that names it, in the order given, and the rest as told', () => {
    const outcomes = outcomesOf(
      ['1', '2', '3', '4'],
      [
        ['retried', ['1']],
        ['no longer failed', ['2', '1']],
        ['gone', []],
        ['not retried', ['9']],
      ],
      'no longer matched',
    );
    expect([...outcomes]).toEqual([
      ['1', 'retried'],
      ['2', 'no longer failed'],
      ['3', 'no longer matched'],
      ['4', 'no longer matched'],
    ]);
  });
});
