import { describe, expect, it } from 'vitest';
import { parseUtcDateToSeconds } from './dates';
import { QueueError } from '../redis/errors';

describe('parseUtcDateToSeconds', () => {
  it('reads Y-m-d and Y-m-d H:i:s as UTC', () => {
    expect(parseUtcDateToSeconds('2026-08-02')).toBe(Date.UTC(2026, 7, 2) / 1000);
    expect(parseUtcDateToSeconds('2026-08-02 05:47:57')).toBe(1785649677);
    expect(parseUtcDateToSeconds('2024-02-29 23:59:59')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59) / 1000);
  });

  it('throws QueueError for anything else', () => {
    for (const text of ['2026-8-2', '2026-08-02T05:47:57', '2026-08-02 05:47', '2025-02-29', '2026-08-02 24:00:00', ' 2026-08-02', 'now']) {
      expect(() => parseUtcDateToSeconds(text), text).toThrow(QueueError);
    }
  });
});
