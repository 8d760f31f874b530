import { describe, expect, it } from 'vitest';
import { AUDIT_FIELD_LIMITS, boundAuditEntry, cutText, streamIdTime } from './audit-entry';
import { dashboardKeys, dashboardPrefixFromEnv, DEFAULT_DASHBOARD_PREFIX } from './keys';

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

describe('cutText', () => {
  it('keeps text within the limit as it is', () => {
    expect(cutText('', 10)).toBe('');
    expect(cutText('retried 97', 10)).toBe('retried 97');
    expect(cutText('€€€', 9)).toBe('€€€');
  });

  it('cuts longer text within the limit, saying how long it was', () => {
    const cut = cutText('x'.repeat(5_000), 100);
    expect(utf8Length(cut)).toBeLessThanOrEqual(100);
    expect(cut).toMatch(/^x+… \[cut, 5000 characters in all\]$/);
  });

  it('keeps within a limit too small for the whole marker', () => {
    expect(cutText('abcdefghij', 8)).toBe('abcde…');
    expect(cutText('abcdefghij', 2)).toBe('ab');
  });

  it('never splits a character, whatever its length in bytes', () => {
    for (const character of ['é', '€', '😀']) {
      for (let limit = 40; limit < 48; limit++) {
        const cut = cutText(character.repeat(100), limit);
        expect(utf8Length(cut)).toBeLessThanOrEqual(limit);
        expect(cut).not.toContain('\uFFFD');
        expect(cut.replace(/… \[cut.*$/, '').replaceAll(character, '')).toBe('');
      }
    }
  });

  it('stores text that is not valid Unicode as replacement characters, as Redis would receive it', () => {
    expect(cutText('a\uD800b', 100)).toBe('a\uFFFDb');
    expect(cutText('\uDC00'.repeat(50), 50)).toMatch(/^\uFFFD+… \[cut, 50 characters in all\]$/);
  });
});

describe('boundAuditEntry', () => {
  it('cuts each text field to its own limit and leaves role and result alone', () => {
    const huge = 'y'.repeat(100_000);
    const bounded = boundAuditEntry({ who: huge, role: 'operator', connection: huge, action: huge, target: huge, result: 'failed', detail: huge });
    for (const field of ['who', 'connection', 'action', 'target', 'detail'] as const) {
      expect(utf8Length(bounded[field])).toBeLessThanOrEqual(AUDIT_FIELD_LIMITS[field]);
      expect(bounded[field]).toContain('[cut, 100000 characters in all]');
    }
    expect(bounded.role).toBe('operator');
    expect(bounded.result).toBe('failed');
  });
});

describe('streamIdTime', () => {
  it("reads a stream id's milliseconds as an ISO time, and nothing else", () => {
    expect(streamIdTime('1780000000123-7')).toBe('2026-05-28T20:26:40.123Z');
    expect(streamIdTime('')).toBe('');
    expect(streamIdTime('not-an-id')).toBe('');
  });
});

describe('dashboard keys', () => {
  it('live under QUEUELENS_PREFIX, queuelens: when it is unset or empty', () => {
    expect(dashboardPrefixFromEnv({})).toBe(DEFAULT_DASHBOARD_PREFIX);
    expect(dashboardPrefixFromEnv({ QUEUELENS_PREFIX: '' })).toBe('queuelens:');
    expect(dashboardPrefixFromEnv({ QUEUELENS_PREFIX: 'ops:ql:' })).toBe('ops:ql:');
    expect(dashboardKeys('ops:ql:').audit).toBe('ops:ql:audit');
  });
});
