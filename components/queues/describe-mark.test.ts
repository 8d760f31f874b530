import { describe, expect, it } from 'vitest';
import { describeMark, describeQueuesMarked } from './describe-mark';

const NOW = Date.UTC(2026, 11, 1, 10, 30, 0) / 1000;

describe('describeMark', () => {
  it('says what was found and links the page that deals with it, the queue name encoded', () => {
    expect(describeMark('mail/eu', { kind: 'noWorker', ready: 9, waitingSeconds: 300 }, NOW)).toEqual({
      title: 'No worker',
      detail: '9 jobs ready, none handed out for 5 min',
      href: '/queues/mail%2Feu',
      action: 'See the queue',
    });
    expect(describeMark('mail', { kind: 'stuck', claims: 2, holders: ['web-1:42', 'web-2:88'], ranOutAt: NOW - 720 }, NOW)).toEqual({
      title: 'Stuck',
      detail: '2 claims ran out at 10:18:00 UTC (12 min ago), held by web-1:42, web-2:88',
      href: '/reservations?queue=mail',
      action: 'Release or fail them',
    });
    // Laravel records no holder: no "held by" with nobody after it, and its page's repair.
    expect(describeMark('mail', { kind: 'stuck', claims: 1, holders: [], ranOutAt: NOW - 720 }, NOW)).toEqual({
      title: 'Stuck',
      detail: '1 claim ran out at 10:18:00 UTC (12 min ago)',
      href: '/reservations?queue=mail',
      action: 'Put them back in line',
    });
    expect(describeMark('mail', { kind: 'failing', failures: 1, minutes: 15, latestError: 'SMTP refused' }, NOW)).toMatchObject({
      detail: '1 failure in the last 15 min, latest: SMTP refused',
      href: '/failed?queue=mail',
    });
    expect(describeMark('mail', { kind: 'failing', failures: 3, minutes: 15, latestError: '' }, NOW).detail).toBe('3 failures in the last 15 min');
    expect(describeMark('mail', { kind: 'overdueDelayed', due: 1, dueSeconds: 4000 }, NOW)).toMatchObject({
      detail: '1 delayed job due for 1 h 6 min, not moved into the queue',
      href: '/queues/mail/delayed',
    });
  });

  it('counts the queues marked', () => {
    expect(describeQueuesMarked(1)).toBe('1 queue needs attention');
    expect(describeQueuesMarked(1200)).toBe('1,200 queues need attention');
  });
});
