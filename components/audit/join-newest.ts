import { compareStreamIds } from '@/lib/shapes/stream-ids';
import type { AuditPage, AuditRecord } from '@/lib/queries/audit';

/**
 * Older entries loaded below the newest page: the newest page as it was
 * when they were first asked for, and everything read after it.
 */
export interface LoadedOlder {
  /** the newest entry id that first read looked at; null when the log was empty then */
  top: string | null;
  /** that page's entries and every older one read since, newest first */
  entries: AuditRecord[];
}

export interface JoinedEntries {
  entries: AuditRecord[];
  /** more entries arrived since `older` was loaded than the newest read looked at: they cannot be shown without a gap */
  newerLeftOut: boolean;
}

/**
 * What the page lists once older entries are loaded: the polled newest page
 * keeps moving while the loaded ones stay, so the newest page is joined
 * on top of them only where it reaches down to them. If it no longer does
 * (a whole page of changes arrived between two polls), adding it would hide
 * the entries in between: those are left out and `newerLeftOut` says so.
 */
export function joinNewest(newest: AuditPage | undefined, older: LoadedOlder | null): JoinedEntries {
  if (older === null) return { entries: newest?.entries ?? [], newerLeftOut: false };
  if (newest === undefined) return { entries: older.entries, newerLeftOut: false };
  // `next` is the oldest entry the newest read looked at: it saw every entry from there up, the top of `older` included.
  const reachesOlder = newest.next === null || (older.top !== null && compareStreamIds(newest.next, older.top) <= 0);
  if (!reachesOlder) return { entries: older.entries, newerLeftOut: true };
  const { top } = older;
  const newer = top === null ? newest.entries : newest.entries.filter((entry) => compareStreamIds(entry.id, top) > 0);
  return { entries: [...newer, ...older.entries], newerLeftOut: false };
}
