import type { AuditFilter } from '../dashboard/audit-entry';

/**
 * Every query key, by resource. Each resource's keys start with its `all`
 * root, so after a mutation one call refreshes everything shown about it:
 * `queryClient.invalidateQueries({ queryKey: queryKeys.failed.all })`.
 * A resource with several queries adds functions under its root, e.g.
 * `page: (offset: number) => ['failed', 'page', offset] as const`.
 */
export const queryKeys = {
  overview: {
    all: ['overview'] as const,
    page: (filter: string, sort: string, page: number) => ['overview', 'page', filter, sort, page] as const,
  },
  queues: {
    all: ['queues'] as const,
    delayed: (queue: string) => ['queues', 'delayed', queue] as const,
    history: (queue: string, range: string) => ['queues', 'history', queue, range] as const,
    line: (queue: string, page: number) => ['queues', 'line', queue, page] as const,
  },
  jobs: {
    all: ['jobs'] as const,
    snapshot: (id: string, queue: string, near: string) => ['jobs', 'snapshot', id, queue, near] as const,
    elsewhere: (id: string) => ['jobs', 'elsewhere', id] as const,
  },
  reservations: {
    all: ['reservations'] as const,
    page: (queue: string, page: number) => ['reservations', 'page', queue, page] as const,
  },
  failed: {
    all: ['failed'] as const,
    page: (offset: number, limit: number) => ['failed', 'page', offset, limit] as const,
  },
  audit: {
    all: ['audit'] as const,
    newest: (filter: AuditFilter) => ['audit', 'newest', filter] as const,
  },
  layout: {
    all: ['layout'] as const,
    table: ['layout', 'table'] as const,
    contents: (key: string, cursor: string) => ['layout', 'contents', key, cursor] as const,
  },
};
