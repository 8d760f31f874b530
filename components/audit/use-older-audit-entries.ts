'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchApi } from '@/lib/queries/api';
import { AUDIT_PAGE_SIZE, auditPath, type AuditFilter, type AuditPage } from '@/lib/queries/audit';
import type { LoadedOlder } from './join-newest';

export interface OlderEntries extends LoadedOlder {
  /** where the next "Load older" continues; null once the oldest entry was read */
  next: string | null;
  /** entries looked at, from the newest page down */
  scanned: number;
  /** when the oldest entry looked at was recorded, ISO-8601 UTC */
  reachedAt: string | null;
  running: boolean;
  /** the operator stopped the last load */
  stopped: boolean;
  error: string | null;
}

/**
 * "Load older" for the audit log under `filter`: the first load keeps the
 * newest page as it is on screen and reads on from its end; each load reads
 * bounded chunks (the server looks at a limited number of entries per
 * request) until it has found another page of entries, reached the oldest,
 * or been stopped, so a rare filter over a long log shows its progress
 * instead of one long request. `reset` goes back to the newest page alone.
 */
export function useOlderAuditEntries(filter: AuditFilter) {
  const [older, setOlder] = useState<OlderEntries | null>(null);
  const controller = useRef<AbortController | null>(null);
  // Bumped by reset: a load it stopped must not put its entries back.
  const generation = useRef(0);
  useEffect(() => () => controller.current?.abort(), []);

  const loadOlder = useCallback(
    async (newest: AuditPage) => {
      if (controller.current !== null) return;
      const abort = new AbortController();
      controller.current = abort;
      const started = generation.current;
      let current: OlderEntries = older ?? {
        top: newest.newestSeen,
        entries: newest.entries,
        next: newest.next,
        scanned: newest.scanned,
        reachedAt: newest.reachedAt,
        running: false,
        stopped: false,
        error: null,
      };
      const show = (update: Partial<OlderEntries>) => {
        current = { ...current, ...update };
        if (generation.current === started) setOlder(current);
      };
      show({ running: true, stopped: false, error: null });
      let found = 0;
      try {
        while (current.next !== null && found < AUDIT_PAGE_SIZE) {
          const result = await fetchApi<AuditPage>(auditPath(filter, current.next, AUDIT_PAGE_SIZE - found), abort.signal);
          if (!result.ok) return show({ running: false, error: result.error });
          const chunk = result.data;
          found += chunk.entries.length;
          show({
            entries: [...current.entries, ...chunk.entries],
            next: chunk.next,
            scanned: current.scanned + chunk.scanned,
            reachedAt: chunk.reachedAt ?? current.reachedAt,
          });
        }
        show({ running: false });
      } catch (error) {
        if (abort.signal.aborted) return show({ running: false, stopped: true });
        show({ running: false, error: error instanceof Error ? error.message : String(error) });
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
    [filter, older],
  );

  const stop = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => {
    generation.current++;
    controller.current?.abort();
    controller.current = null;
    setOlder(null);
  }, []);
  return { older, loadOlder, stop, reset };
}
