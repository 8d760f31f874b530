import { AUDIT_RESULTS, type AuditFilter, type AuditPage } from '../dashboard/audit-entry';
import { queryKeys } from './keys';
import { liveQueryOptions } from './live';

export type { AuditFilter, AuditPage, AuditRecord, AuditResult } from '../dashboard/audit-entry';
export { AUDIT_RESULTS, AUDITED_ACTIONS } from '../dashboard/audit-entry';

/** Entries a page shows, and "Load older" adds, at a time. */
export const AUDIT_PAGE_SIZE = 50;

/** GET /api/audit: up to `limit` entries matching `filter`, from the newest or older than `before`. */
export function auditPath(filter: AuditFilter, before?: string, limit = AUDIT_PAGE_SIZE): string {
  const params = new URLSearchParams({ limit: String(limit) });
  if (before !== undefined) params.set('before', before);
  for (const [name, value] of Object.entries(filter)) if (value) params.set(name, value);
  return `/api/audit?${params}`;
}

/** The newest entries matching `filter`, polled: new changes appear at the top as they are made. */
export function auditNewestQuery(filter: AuditFilter) {
  return liveQueryOptions<AuditPage>(queryKeys.audit.newest(filter), auditPath(filter));
}

/**
 * The page's filter in a URL's search params (`/audit?action=…&result=…&text=…`);
 * blank fields, and a result the log never holds, are no filter.
 */
export function auditFilterFromParams(params: { get(name: string): string | null }): AuditFilter {
  const filter: AuditFilter = {};
  for (const name of ['action', 'text'] as const) {
    const value = params.get(name)?.trim();
    if (value) filter[name] = value;
  }
  const result = AUDIT_RESULTS.find((known) => known === params.get('result'));
  if (result) filter.result = result;
  return filter;
}

export function isAuditFiltered(filter: AuditFilter): boolean {
  return Object.values(filter).some(Boolean);
}
