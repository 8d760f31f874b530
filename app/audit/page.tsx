import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { AuditLogView } from '@/components/audit/audit-log-view';
import { AUDIT_PAGE_SIZE, auditFilterFromParams, auditNewestQuery } from '@/lib/queries/audit';
import { getQueryClient } from '@/lib/queries/query-client';
import { readAudit } from '@/lib/server/audit';
import { prefetchLiveQuery } from '@/lib/server/live';

// Read from Redis on every request; a cached page would hide the latest changes.
export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Audit log · QueueLens' };

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const filter = auditFilterFromParams({
    get: (name) => {
      const value = params[name];
      return typeof value === 'string' ? value : null;
    },
  });
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, auditNewestQuery(filter), () => readAudit(filter, { limit: AUDIT_PAGE_SIZE }));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <AuditLogView filter={filter} />
    </HydrationBoundary>
  );
}
