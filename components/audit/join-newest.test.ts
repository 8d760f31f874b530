import { describe, expect, it } from 'vitest';
import type { AuditPage, AuditRecord } from '@/lib/queries/audit';
import { joinNewest, type LoadedOlder } from './join-newest';

function record(id: string): AuditRecord {
  return { id, at: '', who: 'ada', role: 'operator', connection: 'main', action: 'retryJobs', target: `entry ${id}`, result: 'ok', detail: '', damaged: [] };
}

/** A newest page that looked at `looked` (newest first) and found `found` among them. */
function newestPage(looked: string[], found: string[], reachedEnd = false): AuditPage {
  return {
    entries: found.map(record),
    newestSeen: looked[0] ?? null,
    next: reachedEnd ? null : (looked.at(-1) ?? null),
    reachedAt: null,
    scanned: looked.length,
    total: 100,
    now: 0,
  };
}

const ids = (entries: AuditRecord[]) => entries.map((entry) => entry.id);

describe('joinNewest', () => {
  const older: LoadedOlder = { top: '30-0', entries: ['30-0', '29-0', '28-0', '27-0'].map(record) };

  it('lists the newest page alone while nothing older is loaded', () => {
    expect(ids(joinNewest(newestPage(['30-0', '29-0'], ['30-0', '29-0']), null).entries)).toEqual(['30-0', '29-0']);
    expect(joinNewest(undefined, null)).toEqual({ entries: [], newerLeftOut: false });
  });

  it('puts entries that arrived since on top of the loaded ones, each once', () => {
    const joined = joinNewest(newestPage(['32-0', '31-0', '30-0', '29-0'], ['32-0', '31-0', '30-0', '29-0']), older);
    expect(ids(joined.entries)).toEqual(['32-0', '31-0', '30-0', '29-0', '28-0', '27-0']);
    expect(joined.newerLeftOut).toBe(false);
  });

  it('joins a filtered newest page that looked down to the loaded top though it matched nothing there', () => {
    const joined = joinNewest(newestPage(['33-0', '32-0', '31-0', '30-0', '29-0'], ['32-0']), older);
    expect(ids(joined.entries)).toEqual(['32-0', '30-0', '29-0', '28-0', '27-0']);
  });

  it('leaves out a newest page that no longer reaches the loaded entries, rather than hide a gap', () => {
    const joined = joinNewest(newestPage(['90-0', '89-0'], ['90-0', '89-0']), older);
    expect(ids(joined.entries)).toEqual(ids(older.entries));
    expect(joined.newerLeftOut).toBe(true);
  });

  it('joins a newest page that read the whole log, and one over a log that was empty when older ones were asked for', () => {
    expect(ids(joinNewest(newestPage(['31-0'], ['31-0'], true), older).entries)).toEqual(['31-0', '30-0', '29-0', '28-0', '27-0']);
    const fromEmpty: LoadedOlder = { top: null, entries: [] };
    expect(joinNewest(newestPage(['2-0', '1-0'], ['2-0', '1-0'], true), fromEmpty).entries).toHaveLength(2);
    expect(joinNewest(newestPage(['2-0'], ['2-0']), fromEmpty).newerLeftOut).toBe(true);
  });
});
