import { describe, expect, it } from 'vitest';
import { DEFAULT_MARK_THRESHOLDS, markRulesFromEnv, markRulesSchema, marksOf, markThresholdsFor, type AttentionFigures } from './marks';

const NOW = 1_800_000_000;

/** A quiet healthy queue: nothing ready, nothing held, nothing failed. */
const quiet: AttentionFigures = {
  now: NOW,
  pending: 0,
  oldestWaitingAt: null,
  lastDeliveredEntryAt: null,
  due: 0,
  oldestDueAt: null,
  newestHeldDeliveryAt: null,
  ranOutClaims: [],
  failedAt: [],
  latestError: '',
};

describe('marksOf', () => {
  it('marks nothing on a quiet queue, or on a busy one whose workers keep up', () => {
    expect(marksOf(quiet, DEFAULT_MARK_THRESHOLDS)).toEqual([]);
    const busy = { ...quiet, pending: 40, oldestWaitingAt: NOW - 2, lastDeliveredEntryAt: (NOW - 3) * 1000, newestHeldDeliveryAt: (NOW - 1) * 1000 };
    expect(marksOf(busy, DEFAULT_MARK_THRESHOLDS)).toEqual([]);
  });

  it('marks no worker when jobs have been ready past the threshold and nothing was handed out since', () => {
    const unattended = { ...quiet, pending: 9, oldestWaitingAt: NOW - 300, lastDeliveredEntryAt: (NOW - 900) * 1000 };
    expect(marksOf(unattended, DEFAULT_MARK_THRESHOLDS)).toEqual([{ kind: 'noWorker', ready: 9, waitingSeconds: 300 }]);
    // Never delivered anything at all: the same.
    expect(marksOf({ ...unattended, lastDeliveredEntryAt: null }, DEFAULT_MARK_THRESHOLDS)).toHaveLength(1);
    // Within the threshold, or with a delivery of an entry added since, or one handed out within the threshold: not yet.
    expect(marksOf({ ...unattended, oldestWaitingAt: NOW - 59 }, DEFAULT_MARK_THRESHOLDS)).toEqual([]);
    expect(marksOf({ ...unattended, lastDeliveredEntryAt: (NOW - 300) * 1000 }, DEFAULT_MARK_THRESHOLDS)).toEqual([]);
    expect(marksOf({ ...unattended, newestHeldDeliveryAt: (NOW - 30) * 1000 }, DEFAULT_MARK_THRESHOLDS)).toEqual([]);
    // A slow worker's backlog: the entry it holds was handed out long ago, so nothing was handed out lately.
    expect(marksOf({ ...unattended, newestHeldDeliveryAt: (NOW - 600) * 1000 }, DEFAULT_MARK_THRESHOLDS)).toHaveLength(1);
    expect(marksOf(unattended, { ...DEFAULT_MARK_THRESHOLDS, noWorkerSeconds: false })).toEqual([]);
  });

  it('marks stuck claims past their deadline by the threshold, naming each holder once', () => {
    const figures = {
      ...quiet,
      ranOutClaims: [
        { holder: 'web-2:88', deadline: NOW - 600 },
        { holder: 'web-1:42', deadline: NOW - 120 },
        { holder: 'web-2:88', deadline: NOW - 90 },
        { holder: 'web-3:7', deadline: NOW - 10 },
      ],
    };
    expect(marksOf(figures, DEFAULT_MARK_THRESHOLDS)).toEqual([{ kind: 'stuck', claims: 3, holders: ['web-1:42', 'web-2:88'], ranOutAt: NOW - 600 }]);
    expect(marksOf(figures, { ...DEFAULT_MARK_THRESHOLDS, stuckSeconds: 0 })).toMatchObject([{ kind: 'stuck', claims: 4 }]);
    expect(marksOf(figures, { ...DEFAULT_MARK_THRESHOLDS, stuckSeconds: 3600 })).toEqual([]);
  });

  it('marks failing with the failures in its window and the newest error', () => {
    const figures = { ...quiet, failedAt: [NOW - 10, NOW - 800, NOW - 2000], latestError: 'SMTP refused' };
    expect(marksOf(figures, DEFAULT_MARK_THRESHOLDS)).toEqual([{ kind: 'failing', failures: 2, minutes: 15, latestError: 'SMTP refused' }]);
    expect(marksOf({ ...figures, failedAt: [NOW - 2000] }, DEFAULT_MARK_THRESHOLDS)).toEqual([]);
    expect(marksOf(figures, { ...DEFAULT_MARK_THRESHOLDS, failingMinutes: 60 })).toMatchObject([{ failures: 3, minutes: 60 }]);
  });

  it('marks overdue delayed jobs due past the threshold, and no worker beside it when nothing reserves', () => {
    const figures = { ...quiet, pending: 3, due: 3, oldestDueAt: NOW - 240, oldestWaitingAt: NOW - 240 };
    expect(marksOf(figures, DEFAULT_MARK_THRESHOLDS)).toEqual([
      { kind: 'noWorker', ready: 3, waitingSeconds: 240 },
      { kind: 'overdueDelayed', due: 3, dueSeconds: 240 },
    ]);
    expect(marksOf({ ...figures, oldestDueAt: NOW - 30, oldestWaitingAt: NOW - 30 }, DEFAULT_MARK_THRESHOLDS)).toEqual([]);
  });
});

describe('mark thresholds', () => {
  it('gives a queue its own entry, else "*"’s, each field left out at its default', () => {
    const rules = markRulesSchema.parse({ '*': { noWorkerSeconds: 300 }, reports: { failingMinutes: false } });
    expect(markThresholdsFor(rules, 'mail')).toEqual({ ...DEFAULT_MARK_THRESHOLDS, noWorkerSeconds: 300 });
    expect(markThresholdsFor(rules, 'reports')).toEqual({ ...DEFAULT_MARK_THRESHOLDS, failingMinutes: false });
    expect(markThresholdsFor(new Map(), 'mail')).toEqual(DEFAULT_MARK_THRESHOLDS);
  });

  it('names the queue and the field that is wrong', () => {
    const issues = (value: unknown) => markRulesSchema.safeParse(value).error?.issues.map(({ path, message }) => `${path.join('.')}: ${message}`);
    expect(issues({ mail: { stuckSeconds: -1 } })).toEqual(['mail.stuckSeconds: a number of seconds, 0 or more']);
    expect(issues({ mail: { failingMinutes: 0 } })).toEqual(['mail.failingMinutes: a whole number of minutes from 1 to 1440']);
    expect(issues({ mail: { noWorkerSeconds: 'soon' } })).toEqual(['mail.noWorkerSeconds: a number of seconds, or false (off) to switch the mark off']);
    expect(issues({ mail: { stuck: 1 } })).toEqual(['mail: Unrecognized key: "stuck"']);
  });

  it('reads the environment’s thresholds for every queue, "off" switching one off', () => {
    expect([...markRulesFromEnv({ QUEUELENS_MARK_NO_WORKER_SECONDS: '120', QUEUELENS_MARK_FAILING_MINUTES: 'off' })]).toEqual([
      ['*', { noWorkerSeconds: 120, failingMinutes: false }],
    ]);
    expect(markRulesFromEnv({}).size).toBe(0);
    expect(() => markRulesFromEnv({ QUEUELENS_MARK_STUCK_SECONDS: 'soon' })).toThrow(
      'QUEUELENS_MARK_STUCK_SECONDS must be a number of seconds, or false (off) to switch the mark off, not "soon"',
    );
  });
});
