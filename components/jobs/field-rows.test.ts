import { describe, expect, it } from 'vitest';
import { JOB_FIELDS } from '@/lib/shapes/job-hash';
import { fieldRows } from './field-rows';

const shown = (text: string) => ({ text, bytes: text.length, truncated: false });

describe('fieldRows', () => {
  it('lists the usual fields in the spec order, marking the ones the hash lacks, then any others', () => {
    const rows = fieldRows(
      [
        { name: 'zeta', value: shown('z') },
        { name: 'payload', value: shown('{}') },
        { name: 'name', value: shown('n') },
      ],
      false,
    );
    expect(rows.map((row) => row.name)).toEqual([...JOB_FIELDS, 'zeta']);
    expect(rows.find((row) => row.name === 'name')?.value).toEqual(shown('n'));
    expect(rows.find((row) => row.name === 'queue')?.value).toBeNull();
  });

  it('adds error and failed_at while the job is failed or when the hash has them', () => {
    expect(fieldRows([], true).slice(-2)).toEqual([
      { name: 'error', value: null },
      { name: 'failed_at', value: null },
    ]);
    expect(
      fieldRows([{ name: 'error', value: shown('boom') }], false)
        .map((row) => row.name)
        .slice(-1),
    ).toEqual(['error']);
  });
});
