import { describe, expect, it } from 'vitest';
import { alertRulesFromEnv, alertRulesSchema, crossedThresholds, thresholdsFor } from './alerts';

describe('thresholdsFor', () => {
  const rules = new Map([
    ['*', { waitSeconds: 300, backlog: 10_000 }],
    ['emails', { waitSeconds: 60 }],
    ['bulk-import', {}],
  ]);

  it('gives a queue named in the rules its own entry, whole, and every other queue the "*" entry', () => {
    expect(thresholdsFor(rules, 'emails')).toEqual({ waitSeconds: 60 });
    expect(thresholdsFor(rules, 'bulk-import')).toEqual({});
    expect(thresholdsFor(rules, 'reports')).toEqual({ waitSeconds: 300, backlog: 10_000 });
  });

  it('gives no thresholds without a "*" entry to queues not named', () => {
    expect(thresholdsFor(new Map([['emails', { backlog: 5 }]]), 'reports')).toEqual({});
  });
});

describe('crossedThresholds', () => {
  it('names each threshold a queue is over, with its figure and the limit, wait first', () => {
    expect(crossedThresholds({ waitSeconds: 60, backlog: 1_000 }, { waitSeconds: 185.4, backlog: 1_200 })).toEqual([
      { threshold: 'waitSeconds', value: 185.4, limit: 60 },
      { threshold: 'backlog', value: 1_200, limit: 1_000 },
    ]);
  });

  it('does not flag a figure at or under its limit, a wait when none waits, or a threshold not set', () => {
    expect(crossedThresholds({ waitSeconds: 60, backlog: 1_000 }, { waitSeconds: 60, backlog: 1_000 })).toEqual([]);
    expect(crossedThresholds({ waitSeconds: 0 }, { waitSeconds: null, backlog: 50 })).toEqual([]);
    expect(crossedThresholds({}, { waitSeconds: 86_400, backlog: 1_000_000 })).toEqual([]);
    expect(crossedThresholds({ backlog: 0 }, { waitSeconds: 5, backlog: 1 })).toEqual([{ threshold: 'backlog', value: 1, limit: 0 }]);
  });
});

describe('alertRulesSchema', () => {
  it('reads queue names, "*" included, into a Map, even a queue named __proto__', () => {
    const parsed = alertRulesSchema.parse(JSON.parse('{"*":{"waitSeconds":120},"__proto__":{"backlog":3},"quiet":{}}'));
    expect([...parsed]).toEqual([
      ['*', { waitSeconds: 120 }],
      ['__proto__', { backlog: 3 }],
      ['quiet', {}],
    ]);
  });

  it('names the queue and the field that is wrong', () => {
    const issues = (value: unknown) => alertRulesSchema.safeParse(value).error?.issues.map(({ path, message }) => `${path.join('.')}: ${message}`);
    expect(issues({ emails: { waitSeconds: -1 } })).toEqual(['emails.waitSeconds: a number of seconds, 0 or more']);
    expect(issues({ emails: { waitSeconds: '60' } })).toEqual(['emails.waitSeconds: a number of seconds']);
    expect(issues({ emails: { backlog: 2.5 } })).toEqual(['emails.backlog: a whole number of jobs']);
    expect(issues({ emails: { wait: 60 } })).toEqual(['emails: Unrecognized key: "wait"']);
    expect(issues({ '': {} })).toEqual([': a queue name, or "*" for every queue']);
    expect(issues([{ waitSeconds: 1 }])).toEqual([': an object of queue names (or "*") to thresholds']);
  });
});

describe('alertRulesFromEnv', () => {
  it('makes the variables thresholds of every queue, and nothing of unset or empty ones', () => {
    expect([...alertRulesFromEnv({ QUEUELENS_ALERT_WAIT_SECONDS: '90', QUEUELENS_ALERT_BACKLOG: ' 500 ' })]).toEqual([
      ['*', { waitSeconds: 90, backlog: 500 }],
    ]);
    expect([...alertRulesFromEnv({ QUEUELENS_ALERT_BACKLOG: '0', QUEUELENS_ALERT_WAIT_SECONDS: '' })]).toEqual([['*', { backlog: 0 }]]);
    expect(alertRulesFromEnv({}).size).toBe(0);
  });

  it('names the variable that is not a threshold', () => {
    expect(() => alertRulesFromEnv({ QUEUELENS_ALERT_WAIT_SECONDS: '5m' })).toThrow('QUEUELENS_ALERT_WAIT_SECONDS must be a number of seconds, not "5m"');
    expect(() => alertRulesFromEnv({ QUEUELENS_ALERT_BACKLOG: '-3' })).toThrow('QUEUELENS_ALERT_BACKLOG must be a whole number of jobs, 0 or more, not "-3"');
    expect(() => alertRulesFromEnv({ QUEUELENS_ALERT_BACKLOG: '1e400' })).toThrow(/QUEUELENS_ALERT_BACKLOG must be/);
  });
});
